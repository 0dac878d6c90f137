package io.contactsolver;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.joml.Vector3f;
import org.junit.jupiter.api.Test;

/** The Java example of README.md, verbatim apart from the assertions: it must compile and be right. */
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
        }
    }
}
