package io.contactsolver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.contactsolver.scene.Scene;
import io.contactsolver.testing.Backends;
import org.joml.Vector3f;
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

    private static float velocityAfter(Backend backend, Scene scene, SolveSettings settings) {
        try (ContactSolver solver = Backends.open(backend)) {
            SolveResult result = solver.solve(scene.bodies(), scene.contacts(), settings, new SolveResult());
            assertEquals(0.0f, result.getLinearDelta(0, new Vector3f()).x, "tangential velocity untouched");
            return scene.bodies().getLinearVelocity(0, new Vector3f()).y + result.getLinearDelta(0, new Vector3f()).y;
        }
    }

    static SolveSettings[] solvers() {
        return new SolveSettings[] {SolveSettings.singlePass(), SolveSettings.iterative(20)};
    }

    @ParameterizedTest
    @EnumSource(value = Backend.class, names = {"CPU", "OPENCL"})
    void offByDefaultTheSeparationIsIgnored(Backend backend) {
        for (SolveSettings settings : solvers()) {
            assertEquals(0.0f, velocityAfter(backend, particleOverPlane(0.0f, -0.3f), settings), "resting: no push");
            assertEquals(2.0f, velocityAfter(backend, particleOverPlane(4.0f, 0.5f), settings), 1e-6f,
                    "a gap is ignored: e = 0.5 bounce");
        }
    }

    @ParameterizedTest
    @EnumSource(value = Backend.class, names = {"CPU", "OPENCL"})
    void overlapBeyondTheSlopIsPushedOutAtTheBiasFactorPerStep(Backend backend) {
        for (SolveSettings solver : solvers()) {
            SolveSettings settings = solver.withPositionalCorrection(DT, BIAS, SLOP);
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
        for (SolveSettings solver : solvers()) {
            SolveSettings settings = solver.withPositionalCorrection(DT, BIAS, SLOP);
            // 0.1 away at 20 m/s would overlap by 0.1 after the step: slowed to 0.1 / 0.01 = 10 m/s
            assertEquals(-10.0f, velocityAfter(backend, particleOverPlane(20.0f, 0.1f), settings), 1e-4f);
            // 0.1 away at 5 m/s stays apart: untouched, no early bounce
            assertEquals(-5.0f, velocityAfter(backend, particleOverPlane(5.0f, 0.1f), settings));
        }
    }

    @org.junit.jupiter.api.Test
    void settingsAreChecked() {
        assertThrows(IllegalArgumentException.class, () -> SolveSettings.singlePass().withPositionalCorrection(0, 0.2f, 0));
        assertThrows(IllegalArgumentException.class, () -> SolveSettings.singlePass().withPositionalCorrection(DT, 1.5f, 0));
        assertThrows(IllegalArgumentException.class, () -> SolveSettings.singlePass().withPositionalCorrection(DT, 0.2f, -1));
        assertEquals(0.0f, SolveSettings.singlePass().withPositionalCorrection(DT, BIAS, SLOP)
                .withoutPositionalCorrection().timeStep());
    }
}
