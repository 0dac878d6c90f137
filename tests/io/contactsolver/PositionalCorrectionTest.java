package io.contactsolver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.contactsolver.scene.Scene;
import io.contactsolver.testing.Backends;
import io.contactsolver.testing.Bits;
import org.joml.Vector3f;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Speculative gaps and Baumgarte push-out (off by default), for both solvers on both backends. */
class PositionalCorrectionTest {
    private static final float DT = 0.01f;
    private static final float BIAS = 0.2f;
    private static final float SLOP = 0.01f;

    /** A particle of mass 2 above the world plane, moving down at {@code speed}, {@code separation} away. */
    private static Scene particleOverPlane(float speed, float separation) {
        BodyBatch bodies = new BodyBatch();
        int ball = bodies.add();
        bodies.setParticle(ball, 2.0f).setPosition(ball, 0, 1, 0).setLinearVelocity(ball, 0.5f, -speed, 0);
        ContactBatch contacts = new ContactBatch();
        contacts.add(ContactBatch.WORLD, ball, new Vector3f(0, 0, 0), new Vector3f(0, 1, 0), 0.5f);
        contacts.setSeparation(0, separation);
        return new Scene(bodies, new int[] {0}, contacts);
    }

    /** The ball's vertical velocity after a solve with the time step {@link #DT}. */
    private static float velocityAfter(Backend backend, Scene scene, RigidSettings settings) {
        try (ContactSolver solver = Backends.open(backend)) {
            SolveResult result = solver.solve(scene.bodies(), scene.contacts(), settings, DT, null, new SolveResult());
            assertEquals(0.0f, result.getLinearDelta(0, new Vector3f()).x, "tangential velocity untouched");
            return scene.bodies().getLinearVelocity(0, new Vector3f()).y + result.getLinearDelta(0, new Vector3f()).y;
        }
    }

    static RigidSettings[] solvers() {
        return new RigidSettings[] {SolveSettings.singlePass(), SolveSettings.iterative(20)};
    }

    @ParameterizedTest
    @EnumSource(value = Backend.class, names = {"CPU", "OPENCL"})
    void offByDefaultTheSeparationIsIgnored(Backend backend) {
        for (RigidSettings settings : solvers()) {
            assertEquals(0.0f, velocityAfter(backend, particleOverPlane(0.0f, -0.3f), settings), "resting: no push");
            assertEquals(2.0f, velocityAfter(backend, particleOverPlane(4.0f, 0.5f), settings), 1e-6f,
                    "a gap is ignored: e = 0.5 bounce");
        }
    }

    @ParameterizedTest
    @EnumSource(value = Backend.class, names = {"CPU", "OPENCL"})
    void overlapBeyondTheSlopIsPushedOutAtTheBiasFactorPerStep(Backend backend) {
        for (RigidSettings solver : solvers()) {
            RigidSettings settings = solver.withPositionalCorrection(BIAS, SLOP);
            // resting with 0.05 overlap: leaves at 0.2 * (0.05 - 0.01) / 0.01 = 0.8
            assertEquals(0.8f, velocityAfter(backend, particleOverPlane(0.0f, -0.05f), settings), 1e-5f);
            // within the slop: nothing to correct
            assertEquals(0.0f, velocityAfter(backend, particleOverPlane(0.0f, -0.005f), settings));
            // approaching fast: the bounce (e v = 2) beats the push (0.8)
            assertEquals(2.0f, velocityAfter(backend, particleOverPlane(4.0f, -0.05f), settings), 1e-5f);
        }
    }

    @ParameterizedTest
    @EnumSource(value = Backend.class, names = {"CPU", "OPENCL"})
    void aGapMayCloseWithinTheStepButNotTurnIntoOverlap(Backend backend) {
        for (RigidSettings solver : solvers()) {
            RigidSettings settings = solver.withPositionalCorrection(BIAS, SLOP);
            // 0.1 away at 20 m/s would overlap by 0.1 after the step: slowed to 0.1 / 0.01 = 10 m/s
            assertEquals(-10.0f, velocityAfter(backend, particleOverPlane(20.0f, 0.1f), settings), 1e-4f);
            // 0.1 away at 5 m/s stays apart: untouched, no early bounce
            assertEquals(-5.0f, velocityAfter(backend, particleOverPlane(5.0f, 0.1f), settings));
        }
    }

    @Test
    void settingsAreChecked() {
        for (RigidSettings solver : solvers()) {
            assertEquals("bias factor must be in [0, 1], got 1.5",
                    assertThrows(IllegalArgumentException.class, () -> solver.withPositionalCorrection(1.5f, 0))
                            .getMessage());
            assertEquals("slop must be finite and not negative, got -1.0",
                    assertThrows(IllegalArgumentException.class, () -> solver.withPositionalCorrection(0.2f, -1))
                            .getMessage());
            RigidSettings off = solver.withPositionalCorrection(BIAS, SLOP).withoutPositionalCorrection();
            assertEquals(solver, off, "off again is the default");
            assertFalse(off.positionalCorrection());
            assertEquals(0.0f, off.biasFactor());
            assertEquals(0.0f, off.slop());
        }
    }

    /**
     * The time step is the call's: settings hold no time step, so none can disagree with the one a
     * solve or a step is given. A solve of settings with positional correction refuses to run
     * without one, and one it cannot divide by is refused, naming it.
     */
    @ParameterizedTest
    @EnumSource(value = Backend.class, names = {"CPU", "OPENCL"})
    void theTimeStepIsTheCallsAndASolveWithoutOneIsRefused(Backend backend) {
        Scene scene = particleOverPlane(0.0f, -0.05f);
        try (ContactSolver solver = Backends.open(backend)) {
            for (RigidSettings settings : solvers()) {
                RigidSettings corrected = settings.withPositionalCorrection(BIAS, SLOP);
                String refused = assertThrows(IllegalArgumentException.class,
                        () -> solver.solve(scene.bodies(), scene.contacts(), corrected, new SolveResult())).getMessage();
                assertTrue(refused.startsWith("positional correction needs the step's time"), refused);
                assertEquals("time step must be positive, finite and have a finite inverse, got 0.0",
                        assertThrows(IllegalArgumentException.class, () -> solver.solve(scene.bodies(),
                                scene.contacts(), corrected, 0.0f, null, new SolveResult())).getMessage());
                assertEquals("time step must be positive, finite and have a finite inverse, got 1.4E-45",
                        assertThrows(IllegalArgumentException.class, () -> solver.solve(scene.bodies(),
                                scene.contacts(), corrected, Float.MIN_VALUE, null, new SolveResult())).getMessage());
                // twice the time step, half the push-out speed: the solve divides by the call's step
                SolveResult result = solver.solve(scene.bodies(), scene.contacts(), corrected, 2 * DT, null,
                        new SolveResult());
                assertEquals(0.4f, result.getLinearDelta(0, new Vector3f()).y, 1e-5f);
            }
        }
    }

    /**
     * A rigid step with positional correction divides by its own time step: its velocity change is
     * the solve's with that step, bit for bit, gravity's share aside.
     */
    @ParameterizedTest
    @EnumSource(value = Backend.class, names = {"CPU", "OPENCL"})
    void aStepCorrectsWithItsOwnTimeStep(Backend backend) {
        try (ContactSolver solver = Backends.open(backend)) {
            for (RigidSettings settings : solvers()) {
                RigidSettings corrected = settings.withPositionalCorrection(BIAS, SLOP);
                Scene stepped = particleOverPlane(1.0f, -0.05f);
                Scene solved = particleOverPlane(1.0f, -0.05f);
                SolveResult step = solver.step(stepped.bodies(), stepped.contacts(), corrected, new Vector3f(), 2 * DT,
                        null, new SolveResult());
                SolveResult solve = solver.solve(solved.bodies(), solved.contacts(), corrected, 2 * DT, null,
                        new SolveResult());
                Bits.assertIdentical(solve, step, corrected.toString());
            }
        }
    }
}
