package io.contactsolver;

import io.contactsolver.layout.DeltaField;
import io.contactsolver.layout.ImpulseField;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.contactsolver.scene.Scene;
import io.contactsolver.testing.Backends;
import io.contactsolver.testing.FrictionScenes;
import io.contactsolver.testing.ReferenceFriction.Outcome;
import io.contactsolver.testing.ReferenceFriction;
import java.util.EnumMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The module against the independent float64 implementation of the friction rules of
 * docs/physics.md, "Friction and rolling resistance" ({@link ReferenceFriction}) on random scenes:
 * the single pass on scenes with many contacts per body (every branch of the law taken), and the
 * iterative solver for fixed iteration counts, cold and warm-started, on scenes whose contacts do
 * not share bodies (so the visiting order, which the module's colouring chooses, does not change
 * the iterates).
 */
class FrictionReferenceTest {

    @ParameterizedTest
    @EnumSource(value = Backend.class, names = {"CPU", "OPENCL"})
    void singlePassMatchesTheFloat64Reference(Backend backend) {
        Scene scene = FrictionScenes.randomClusters(21, 1500, true, true, true);
        ReferenceFriction reference = ReferenceFriction.singlePass(scene.bodies(), scene.contacts());
        Map<Outcome, Integer> branches = new EnumMap<>(Outcome.class);
        boolean[] excluded = new boolean[scene.bodies().size()];
        int marginal = 0;
        for (int c = 0; c < scene.contacts().size(); c++) {
            branches.merge(reference.outcomes[c], 1, Integer::sum);
            if (reference.marginal[c]) {
                marginal++;
                for (int body : new int[] {scene.contacts().bodyA(c), scene.contacts().bodyB(c)}) {
                    if (body >= 0) {
                        excluded[body] = true;
                    }
                }
            }
        }
        // every branch of the law but the degenerate one (rare by nature) must be taken, and only a
        // few contacts may be too close to a threshold to compare
        for (Outcome outcome : new Outcome[] {Outcome.SEPARATING, Outcome.FRICTIONLESS, Outcome.STICKING,
            Outcome.SLIDING, Outcome.GUARDED}) {
            assertTrue(branches.getOrDefault(outcome, 0) >= 20, "branch " + outcome + " taken " + branches);
        }
        assertTrue(marginal < scene.contacts().size() / 100, "marginal contacts: " + marginal);

        try (ContactSolver solver = Backends.open(backend)) {
            SolveResult result = solver.solve(scene.bodies(), scene.contacts(), new SolveResult());
            assertImpulsesMatch(reference.impulses, result, reference.marginal, 1e-4);
            assertDeltasMatch(reference.deltas, result, excluded, 1e-5);
        }
    }

    @ParameterizedTest
    @EnumSource(value = Backend.class, names = {"CPU", "OPENCL"})
    void iterativeMatchesTheFloat64ReferenceForFixedIterationCounts(Backend backend) {
        Scene scene = FrictionScenes.isolatedContacts(22, 1500);
        boolean[] none = new boolean[scene.contacts().size()];
        try (ContactSolver solver = Backends.open(backend)) {
            SolveResult previous = null;
            for (int iterations : new int[] {1, 2, 5, 40}) {
                SolveResult result = solver.solve(scene.bodies(), scene.contacts(), SolveSettings.iterative(iterations),
                        new SolveResult());
                assertEquals(iterations, result.iterations());
                ReferenceFriction reference = ReferenceFriction.iterative(scene.bodies(), scene.contacts(), iterations,
                        null, 0.0);
                String what = iterations + " iterations";
                assertImpulsesMatch(reference.impulses, result, none, 1e-4, what);
                assertDeltasMatch(reference.deltas, result, new boolean[scene.bodies().size()], 1e-5, what);
                previous = result;
            }
            // the next step: every normal turned a little, so the carried friction and rolling
            // vectors must be projected onto the new tangent plane and clamped into the new disk
            FrictionInvariantsTest.turnNormals(scene.contacts(), new SplittableRandom(23), 0.3);
            // and the coefficients changed: some contacts lose friction or rolling resistance, others
            // get less, so the carried vectors must be clamped into the current (smaller) disk
            SplittableRandom change = new SplittableRandom(24);
            for (int c = 0; c < scene.contacts().size(); c++) {
                int what = change.nextInt(4);
                if (what == 0) {
                    scene.contacts().setFriction(c, 0.0f);
                } else if (what == 1) {
                    scene.contacts().setFriction(c, scene.contacts().friction(c) * 0.3f);
                    scene.contacts().setRollingResistance(c, scene.contacts().rollingResistance(c) * 0.3f);
                } else if (what == 2) {
                    scene.contacts().setRollingResistance(c, 0.0f);
                }
            }
            for (int iterations : new int[] {1, 3}) {
                SolveResult warm = solver.solve(scene.bodies(), scene.contacts(), SolveSettings.iterative(iterations),
                        previous, new SolveResult());
                ReferenceFriction reference = ReferenceFriction.iterative(scene.bodies(), scene.contacts(), iterations,
                        ReferenceFriction.warmStart(previous, scene.contacts()), 0.0);
                String what = "warm-started, " + iterations + " iterations";
                assertImpulsesMatch(reference.impulses, warm, none, 1e-4, what);
                assertDeltasMatch(reference.deltas, warm, new boolean[scene.bodies().size()], 1e-5, what);
            }
        }
    }

    static void assertImpulsesMatch(double[][] expected, SolveResult result, boolean[] skip, double relative) {
        assertImpulsesMatch(expected, result, skip, relative, "single pass");
    }

    /**
     * Per contact, every impulse field within {@code relative} of that contact's impulse size
     * ({@code |j| + |t| + |r|}) plus 1e-6 of the largest: float32 keeps a contact's own values to a
     * few ulps of its own scale, except where a 3x3 solve loses a factor of K's condition number
     * (about 100 on these bodies), hence 1e-4.
     */
    static void assertImpulsesMatch(double[][] expected, SolveResult result, boolean[] skip, double relative,
            String what) {
        double largest = 0.0;
        for (double[] impulse : expected) {
            largest = Math.max(largest, size(impulse));
        }
        double worst = 0.0;
        String where = "";
        int compared = 0;
        for (int c = 0; c < expected.length; c++) {
            if (skip[c]) {
                continue;
            }
            compared++;
            double bound = relative * size(expected[c]) + 1e-6 * largest;
            for (ImpulseField field : ImpulseField.values()) {
                double error = Math.abs(result.impulse(field, c) - expected[c][field.ordinal()]) / bound;
                if (error > worst) {
                    worst = error;
                    where = field + " of contact " + c + ": expected " + expected[c][field.ordinal()] + ", got "
                            + result.impulse(field, c);
                }
            }
        }
        assertTrue(compared > expected.length * 9 / 10, "compared " + compared);
        assertTrue(worst <= 1.0, what + ": " + where + " (" + worst + " times the tolerance)");
    }

    /**
     * Per body, deltas within {@code relative} of the largest delta of the scene: float32 sums of a
     * few contacts (measured: 5e-7 of the largest; 1e-5 asked).
     */
    static void assertDeltasMatch(double[][] expected, SolveResult result, boolean[] skip, double relative) {
        assertDeltasMatch(expected, result, skip, relative, "single pass");
    }

    static void assertDeltasMatch(double[][] expected, SolveResult result, boolean[] skip, double relative,
            String what) {
        double largest = 0.0;
        for (double[] delta : expected) {
            for (double value : delta) {
                largest = Math.max(largest, Math.abs(value));
            }
        }
        double worst = 0.0;
        String where = "";
        for (int i = 0; i < expected.length; i++) {
            if (skip[i]) {
                continue;
            }
            for (DeltaField field : DeltaField.values()) {
                double error = Math.abs(result.delta(field, i) - expected[i][field.ordinal()]);
                if (error > worst) {
                    worst = error;
                    where = field + " of body " + i + ": expected " + expected[i][field.ordinal()] + ", got "
                            + result.delta(field, i);
                }
            }
        }
        assertTrue(worst <= relative * largest, what + ": " + where + " (tolerance " + relative * largest + ")");
    }

    private static double size(double[] impulse) {
        return Math.abs(impulse[0]) + Math.hypot(Math.hypot(impulse[1], impulse[2]), impulse[3])
                + Math.hypot(Math.hypot(impulse[4], impulse[5]), impulse[6]);
    }
}
