package io.contactsolver.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.contactsolver.BodyBatch;
import io.contactsolver.ContactBatch;
import io.contactsolver.ContactSolver;
import io.contactsolver.SolveResult;
import io.contactsolver.SolveSettings;
import io.contactsolver.testing.Backends;
import org.joml.Vector3f;
import org.junit.jupiter.api.Test;

/**
 * The two-solves scheme on a ball resting 0.05 m deep in the floor while moving sideways: the
 * velocity solve stops its approach and leaves the overlap alone, the push-out solve pushes out a
 * fifth of the overlap beyond the slop, and only the integration sees the push.
 */
class TwoSolvesTest {
    private static final float DT = 0.01f;
    private static final float SLOP = 0.01f;

    private static BodyBatch ball() {
        BodyBatch bodies = new BodyBatch();
        int ball = bodies.add();
        bodies.setParticle(ball, 2.0f).setPosition(ball, 0.0f, 1.0f, 0.0f).setLinearVelocity(ball, 0.5f, -1.0f, 0.0f);
        return bodies;
    }

    private static ContactBatch floor() {
        ContactBatch contacts = new ContactBatch();
        contacts.add(ContactBatch.WORLD, 0, new Vector3f(0, 0, 0), new Vector3f(0, 1, 0), 0.0f);
        contacts.setSeparation(0, -0.05f);
        return contacts;
    }

    @Test
    void thePushMovesThePositionAndStaysOutOfTheVelocity() {
        BodyBatch bodies = ball();
        TwoSolves scheme = TwoSolves.withPushOut(SolveSettings.iterative(10), SLOP);
        try (ContactSolver solver = Backends.cpu()) {
            SolveResult velocity = scheme.solve(solver, bodies, floor(), DT, null, new SolveResult());
            assertEquals(1.0f, velocity.getLinearDelta(0, new Vector3f()).y, 1e-6f, "the approach stopped");
            assertEquals(new Vector3f(0.5f, 0.0f, 0.0f), bodies.getLinearVelocity(0, new Vector3f()), "v + dv");
            assertEquals(1.0f, bodies.getPosition(0, new Vector3f()).y, "solve leaves positions alone");
            float push = scheme.push().getLinearDelta(0, new Vector3f()).y;
            assertEquals(TwoSolves.BIAS_FACTOR * (0.05f - SLOP) / DT, push, 1e-5f, "a fifth beyond the slop");
            assertEquals(5, TwoSolves.pushIterations(10), "half the velocity solve's iterations");
            scheme.integrate(bodies, DT);
            Vector3f position = bodies.getPosition(0, new Vector3f());
            assertEquals(1.0f + (0.0f + push) * DT, position.y, "x += (v + push) dt");
            assertEquals(0.5f * DT, position.x);
            assertEquals(new Vector3f(0.5f, 0.0f, 0.0f), bodies.getLinearVelocity(0, new Vector3f()), "no push kept");
        }
    }

    @Test
    void withoutPushOutTheOverlapStays() {
        BodyBatch bodies = ball();
        TwoSolves scheme = TwoSolves.withoutPushOut(SolveSettings.iterative(10));
        try (ContactSolver solver = Backends.cpu()) {
            scheme.solve(solver, bodies, floor(), DT, null, new SolveResult());
            assertNull(scheme.push());
            scheme.integrate(bodies, DT);
            assertEquals(1.0f, bodies.getPosition(0, new Vector3f()).y, "resting: not pushed out");
            assertTrue(scheme.solveNanos() > 0);
        }
    }
}
