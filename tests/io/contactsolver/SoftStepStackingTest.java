package io.contactsolver;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.contactsolver.scene.BoxContacts;
import io.contactsolver.scene.BoxScene;
import io.contactsolver.testing.Backends;
import org.joml.Vector3f;
import org.junit.jupiter.api.Test;

/**
 * The soft step holds stacked boxes at Box2D's budget (docs/physics.md, "Soft step"): 60 Hz,
 * 4 substeps of one soft and one relax sweep, contacts from the bench's box collision (four corner
 * points a face, 2 cm speculative margin, ids kept while a contact lasts) found before every step.
 */
class SoftStepStackingTest {
    private static final float DT = 1.0f / 60.0f;

    /** The largest distance (m) any box got from where it started over {@code steps} steps. */
    private static float largestDrift(BoxScene scene, int steps) {
        BodyBatch bodies = scene.bodies();
        Vector3f[] start = new Vector3f[bodies.size()];
        for (int i = 0; i < start.length; i++) {
            start[i] = bodies.getPosition(i, new Vector3f());
        }
        BoxContacts collision = new BoxContacts(scene.halfExtent(), 0.02f, BoxContacts.DEFAULT_FRICTION);
        ContactBatch contacts = new ContactBatch();
        SolveResult[] results = {new SolveResult(), new SolveResult()};
        Vector3f gravity = new Vector3f(0.0f, -10.0f, 0.0f);
        Vector3f now = new Vector3f();
        float largest = 0.0f;
        try (ContactSolver solver = Backends.open(Backend.CPU)) {
            for (int step = 0; step < steps; step++) {
                collision.find(bodies, contacts);
                solver.step(bodies, contacts, SolveSettings.softStep(), gravity, DT,
                        step == 0 ? null : results[(step + 1) & 1], results[step & 1]);
                for (int i = 0; i < start.length; i++) {
                    largest = Math.max(largest, bodies.getPosition(i, now).distance(start[i]));
                }
            }
        }
        return largest;
    }

    @Test
    void aTwentyRowPyramidStandsAThousandSteps() {
        float drift = largestDrift(BoxScene.pyramid(20), 1000);
        // the contact springs settle it by a few centimetres (g / omega^2 a layer, times the load); no box falls
        assertTrue(drift < 0.1f, "no box moved more than 10 cm: " + drift + " m");
    }
}
