package io.contactsolver.cpu;

import io.contactsolver.BodyBatch;
import io.contactsolver.ContactBatch;
import io.contactsolver.ContactSolver;
import io.contactsolver.SolveResult;
import io.contactsolver.SolveSettings;
import io.contactsolver.scene.BoxContacts;
import io.contactsolver.scene.BoxScene;
import io.contactsolver.testing.Backends;
import java.util.function.Consumer;
import org.joml.Vector3f;

/**
 * A box pyramid of base 60 (1,830 boxes, over 5,000 manifold rows: enough for a team of 2 or 3),
 * stepped 20 times at 60 Hz on the CPU backend with a given thread count, its contacts found by
 * the application's box collision before each step: what the team tests compare with one thread.
 */
final class PyramidRuns {
    private static final int STEPS = 20;

    private PyramidRuns() {
    }

    /**
     * The bodies after the steps.
     *
     * @param setUp changes the bodies before the first step
     * @param lastResult receives the last step's result, before the solver closes
     */
    static BodyBatch stepped(int threads, SolveSettings settings, Consumer<BodyBatch> setUp,
            Consumer<SolveResult> lastResult) {
        BodyBatch bodies = BoxScene.pyramid(60).bodies();
        setUp.accept(bodies);
        BoxContacts collision = new BoxContacts(BoxScene.HALF_EXTENT, 0.02f, BoxContacts.DEFAULT_FRICTION);
        ContactBatch contacts = new ContactBatch();
        try (ContactSolver solver = Backends.cpu(threads)) {
            SolveResult[] results = {new SolveResult(), new SolveResult()};
            for (int step = 0; step < STEPS; step++) {
                collision.find(bodies, contacts);
                solver.step(bodies, contacts, settings, new Vector3f(0.0f, -9.81f, 0.0f), 1.0f / 60.0f,
                        step == 0 ? null : results[(step + 1) & 1], results[step & 1]);
            }
            lastResult.accept(results[(STEPS - 1) & 1]);
        }
        return bodies;
    }
}
