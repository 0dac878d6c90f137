package io.contactsolver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.contactsolver.scene.Scene;
import io.contactsolver.scene.SceneGenerator;
import java.util.ArrayList;
import java.util.List;
import org.joml.Vector3f;
import org.junit.jupiter.api.Test;

/** The Java examples of README.md, verbatim apart from their set-up and the assertions: they must compile and be right. */
class ReadmeExampleTest {

    @Test
    void theReadmeExampleGivesTheValuesItsCommentsState() {
        try (ContactSolver solver = ContactSolver.create()) {      // AUTO: GPU, else any OpenCL device, else CPU
            BodyBatch bodies = new BodyBatch();
            int rod = bodies.add();                                 // a rod of mass 3, length 2, along y
            bodies.setMass(rod, 3f).setInverseInertia(rod, 1f, 0f, 1f, 0f, 0f, 0f);
            int ball = bodies.add();                                // a point mass of 0.5 moving along -x
            bodies.setParticle(ball, 0.5f).setPosition(ball, 0f, 1f, 0f).setLinearVelocity(ball, -4f, 0f, 0f);

            ContactBatch contacts = new ContactBatch();             // the ball strikes the rod's top end
            contacts.add(rod, ball, new Vector3f(0f, 1f, 0f), new Vector3f(1f, 0f, 0f), 0.5f);

            SolveResult result = solver.solve(bodies, contacts, new SolveResult());
            float j = result.impulse(0);                                    // 1.8
            Vector3f ballDv = result.getLinearDelta(ball, new Vector3f());  // (3.6, 0, 0)
            Vector3f rodDw = result.getAngularDelta(rod, new Vector3f());   // (0, 0, 1.8)

            assertEquals(1.8f, j, 1e-6f);
            assertEquals(3.6f, ballDv.x, 1e-6f);
            assertEquals(0f, ballDv.y);
            assertEquals(1.8f, rodDw.z, 1e-6f);

            contacts.setFriction(0, 0.5f).setRollingResistance(0, 0.01f);  // per contact; 0 is frictionless
            solver.solve(bodies, contacts, result);
            Vector3f friction = result.getTangentImpulse(0, new Vector3f()); // (0, 0, 0): the strike is head-on
            Vector3f rolling = result.getRollingImpulse(0, new Vector3f());  // (0, 0, 0): iterative solver only

            assertEquals(1.8f, result.impulse(0), 1e-6f);
            assertEquals(0f, friction.length(), 1e-6f);
            assertEquals(new Vector3f(), rolling);
        }
    }

    @Test
    void theReadmeWarmStartLoopConvergesAndNeedsFewerIterationsOnceWarm() {
        Scene stack = SceneGenerator.boxStack(3, 0.0f, 5);
        BodyBatch bodies = stack.bodies();
        ContactBatch contacts = stack.contacts();
        int steps = 4;
        List<Integer> iterationsPerStep = new ArrayList<>();
        try (ContactSolver solver = ContactSolver.create(SolverConfig.defaults().withBackend(Backend.CPU))) {
            SolveSettings settings = SolveSettings.iterative(50).withTolerance(1e-5f);
            SolveResult previous = null, current = new SolveResult(), spare = new SolveResult();
            for (int step = 0; step < steps; step++) {
                // ... your collision detection fills `contacts`, giving persistent contacts stable ids (setId)
                solver.solve(bodies, contacts, settings, previous, current);   // warm start: impulses matched by id
                // current.iterations(), current.residual(): how the solve ended
                iterationsPerStep.add(current.iterations());
                SolveResult used = current;
                current = previous == null ? spare : previous;
                previous = used;
            }

            assertNotNull(previous);
            assertTrue(previous.residual() <= 1e-5f, "converged: residual " + previous.residual());
            int cold = iterationsPerStep.get(0), warm = iterationsPerStep.get(steps - 1);
            assertTrue(cold > 2 && warm < cold, "iterations per step " + iterationsPerStep);
        }
    }

    @Test
    void theReadmeStepCallStopsAFallingBoxOnTheWorldAndMovesIt() {
        Scene stack = SceneGenerator.boxStack(1, 0.0f, 5);
        BodyBatch bodies = stack.bodies();
        ContactBatch contacts = stack.contacts();
        SolveSettings settings = SolveSettings.iterative(100);
        float dt = 0.01f;
        SolveResult previous = null, current = new SolveResult();
        Vector3f before = bodies.getPosition(0, new Vector3f());
        try (ContactSolver solver = ContactSolver.create(SolverConfig.defaults().withBackend(Backend.CPU))) {
            solver.step(bodies, contacts, settings, new Vector3f(0, -9.81f, 0), dt, previous, current);
        }
        // e = 0: the four corner contacts leave the box at rest along the normal, and it moves by v dt
        Vector3f velocity = bodies.getLinearVelocity(0, new Vector3f());
        Vector3f after = bodies.getPosition(0, new Vector3f());
        assertEquals(0.0f, velocity.y, 1e-4f);
        assertEquals(before.x + velocity.x * dt, after.x, 1e-6f);
        assertEquals(before.y + velocity.y * dt, after.y, 1e-6f);
    }
}
