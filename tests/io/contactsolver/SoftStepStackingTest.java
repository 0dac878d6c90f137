package io.contactsolver;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.contactsolver.scene.BoxContacts;
import io.contactsolver.scene.BoxScene;
import io.contactsolver.testing.Backends;
import org.joml.Vector3f;
import org.junit.jupiter.api.Test;

/**
 * The soft step holds stacked boxes at Box2D's budget (docs/physics.md, "Soft step: substeps, soft
 * contacts, a relax sweep"): 60 Hz, 4 substeps of one soft and one relax sweep, contacts from the
 * bench's box collision (four corner points a face, 2 cm speculative margin, ids kept while a
 * contact lasts) found before every step.
 */
class SoftStepStackingTest {
    private static final float DT = 1.0f / 60.0f;

    /** The largest distance (m) any box got sideways (x, z) from where it started over {@code steps} steps. */
    private static float largestDrift(BoxScene scene, int steps, SolveSettings settings) {
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
                solver.step(bodies, contacts, settings, gravity, DT,
                        step == 0 ? null : results[(step + 1) & 1], results[step & 1]);
                for (int i = 0; i < start.length; i++) {
                    bodies.getPosition(i, now);
                    largest = Math.max(largest, (float) Math.hypot(now.x - start[i].x, now.z - start[i].z));
                }
            }
        }
        return largest;
    }

    @Test
    void aTwelveBoxStackStandsAThousandStepsAtTheDefaults() {
        float drift = largestDrift(BoxScene.stack(12), 1000, SolveSettings.softStep());
        assertTrue(drift < 0.03f, "no box moved more than 3 cm sideways: " + drift + " m");
    }

    /**
     * At 30 Hz a column of unit boxes buckles beyond 15 (docs/physics.md, "How tall a soft stack
     * stands"); contacts at the cap of 4 substeps, 60 Hz, hold 20.
     */
    @Test
    void aTwentyBoxStackStandsAThousandStepsWithContactsAtTheSubstepCap() {
        float drift = largestDrift(BoxScene.stack(20), 1000, SolveSettings.softStep().withContactHertz(60.0f));
        assertTrue(drift < 0.15f, "no box moved more than 15 cm sideways: " + drift + " m");
    }

    @Test
    void aTwentyRowPyramidStandsAThousandSteps() {
        float drift = largestDrift(BoxScene.pyramid(20), 1000, SolveSettings.softStep());
        // the contact springs settle it by a few centimetres (g / omega^2 a layer, times the load); no box falls
        assertTrue(drift < 0.1f, "no box moved more than 10 cm sideways: " + drift + " m");
    }
}
