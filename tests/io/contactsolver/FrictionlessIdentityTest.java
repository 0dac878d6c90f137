package io.contactsolver;

import io.contactsolver.layout.ImpulseField;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.contactsolver.scene.Scene;
import io.contactsolver.scene.SceneGenerator;
import io.contactsolver.testing.Backends;
import io.contactsolver.testing.Fingerprint;
import io.contactsolver.testing.FrictionlessRuns.Zero;
import io.contactsolver.testing.FrictionlessRuns;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * docs/physics.md, "Friction and rolling resistance": with mu = 0 and rho = 0 every output is bit
 * for bit the frictionless one. The fingerprints below are of the exact bits of the frictionless
 * solver's results (commit df5d7c1, before friction; {@link FrictionlessRuns#main} printed them
 * there, CPU backend). With friction and rolling resistance 0, whether left at their default, set
 * to 0 or set to -0.0, both backends must still produce them: single pass, iterative, warm start,
 * positional correction and stepping.
 */
class FrictionlessIdentityTest {
    private static final Map<String, Long> FRICTIONLESS = Map.ofEntries(
            Map.entry("single pass", 0xbd10fa36774774beL),
            Map.entry("iterative", 0x464e0aef62f2089dL),
            Map.entry("iterative, warm-started", 0x9be4b293e6643ebaL),
            Map.entry("SINGLE_PASS with positional correction", 0x02885faef4aa4df1L),
            Map.entry("ITERATIVE with positional correction", 0x2e47a3776e5f4b2eL),
            Map.entry("pile, iterative", 0xb9fbe850b1604895L),
            Map.entry("steps, last result", 0x69e2a848d8298c34L),
            Map.entry("steps, bodies", 0xba3bfb9372d97f09L));

    static Stream<Arguments> cases() {
        return Stream.of(Backend.CPU, Backend.OPENCL)
                .flatMap(backend -> Stream.of(Zero.values()).map(zero -> Arguments.of(backend, zero)));
    }

    @ParameterizedTest(name = "{0}, friction {1}")
    @MethodSource("cases")
    void zeroFrictionAndRollingResistanceGiveTheFrictionlessBits(Backend backend, Zero zero) {
        try (ContactSolver solver = Backends.open(backend)) {
            Map<String, Long> prints = FrictionlessRuns.run(solver, zero);
            assertEquals(backend, solver.backend());
            Fingerprint.assertRecorded(FRICTIONLESS, prints);
        }
    }

    /** ImpulseField's promise: without friction or rolling resistance both vectors are exactly zero. */
    @ParameterizedTest
    @EnumSource(value = Backend.class, names = {"CPU", "OPENCL"})
    void frictionlessContactsReportExactlyZeroTangentialAndRollingImpulses(Backend backend) {
        Scene scene = SceneGenerator.randomGraph(34, 1000, 6000);
        try (ContactSolver solver = Backends.open(backend)) {
            for (RigidSettings settings : new RigidSettings[] {SolveSettings.singlePass(), SolveSettings.iterative(10)}) {
                SolveResult result = solver.solve(scene.bodies(), scene.contacts(), settings, new SolveResult());
                SolveResult warm = solver.solve(scene.bodies(), scene.contacts(), settings, result, new SolveResult());
                for (SolveResult r : new SolveResult[] {result, warm}) {
                    for (int c = 0; c < r.contactCount(); c++) {
                        for (ImpulseField field : ImpulseField.values()) {
                            if (field != ImpulseField.J) {
                                assertEquals(0.0f, r.impulse(field, c), field + " of contact " + c + ", " + settings);
                            }
                        }
                    }
                }
            }
        }
    }
}
