package io.contactsolver.testing;

import io.contactsolver.ContactBatch;
import io.contactsolver.ContactSolver;
import io.contactsolver.SolveHistory;
import io.contactsolver.SolveResult;
import io.contactsolver.SolveSettings;
import io.contactsolver.scene.BoxContacts;
import io.contactsolver.scene.BoxScene;
import io.contactsolver.scene.Scene;
import io.contactsolver.scene.SceneGenerator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.joml.Vector3f;

/**
 * A fixed set of solves and steps with friction and rolling resistance on every solver (single
 * pass, iterative cold and warm, positional correction, the soft step on a box pyramid and on a
 * pile), and the fingerprints of every bit they return: every delta, every impulse field, and the
 * bodies a step moved. {@code PinnedBitsTest} holds them to values recorded from this code at
 * commit f8422c1 (the soft step's at 0d7caaf, when its law changed to manifolds), so a restructuring
 * that changes one bit anywhere fails there.
 */
public final class PinnedRuns {
    private PinnedRuns() {
    }

    public static Map<String, Long> run(ContactSolver solver) {
        Map<String, Long> prints = new LinkedHashMap<>();
        Scene clusters = FrictionScenes.randomClusters(41, 800, true, true, true);
        prints.put("clusters, single pass", Fingerprint.ofEverything(
                solver.solve(clusters.bodies(), clusters.contacts(), new SolveResult())));
        SolveResult cold = solver.solve(clusters.bodies(), clusters.contacts(), SolveSettings.iterative(12),
                new SolveResult());
        prints.put("clusters, iterative", Fingerprint.ofEverything(cold));
        prints.put("clusters, iterative warm-started", Fingerprint.ofEverything(solver.solve(clusters.bodies(),
                clusters.contacts(), SolveSettings.iterative(12), cold, new SolveResult())));

        Scene pile = SceneGenerator.pileWithContacts(43, 9000, 0.2f);
        FrictionScenes.randomFriction(new SplittableRandom(44), pile.contacts());
        SplittableRandom gaps = new SplittableRandom(45);
        for (int c = 0; c < pile.contacts().size(); c++) {
            pile.contacts().setSeparation(c, (float) (gaps.nextDouble() * 0.04 - 0.03));
        }
        prints.put("pile, iterative", Fingerprint.ofEverything(
                solver.solve(pile.bodies(), pile.contacts(), SolveSettings.iterative(25), new SolveResult())));
        prints.put("pile, iterative with positional correction", Fingerprint.ofEverything(solver.solve(
                pile.bodies(), pile.contacts(), SolveSettings.iterative(25).withPositionalCorrection(0.2f, 0.005f),
                1 / 60f, null, new SolveResult())));

        Vector3f gravity = new Vector3f(0.0f, -10.0f, 0.0f);
        for (boolean friction : new boolean[] {true, false}) {
            Scene stepped = SceneGenerator.pileWithContacts(46, 9000, 0.3f);
            FrictionScenes.randomFriction(new SplittableRandom(47), stepped.contacts());
            SolveHistory history = new SolveHistory();
            SolveResult last = null;
            for (int step = 0; step < 3; step++) {
                last = solver.step(stepped.bodies(), stepped.contacts(),
                        SolveSettings.softStep().withFriction(friction), gravity, 1 / 60f, history);
            }
            String name = "pile, soft steps" + (friction ? "" : " without friction");
            prints.put(name + ", last result", Fingerprint.ofEverything(last));
            prints.put(name + ", bodies", Fingerprint.of(stepped.bodies()));
        }

        BoxScene pyramid = BoxScene.pyramid(12);
        BoxContacts collision = new BoxContacts(pyramid.halfExtent(), 0.02f, BoxContacts.DEFAULT_FRICTION);
        ContactBatch contacts = new ContactBatch();
        SolveHistory history = new SolveHistory();
        SolveResult last = null;
        for (int frame = 0; frame < 40; frame++) {
            collision.find(pyramid.bodies(), contacts);
            last = solver.step(pyramid.bodies(), contacts, SolveSettings.softStep(), gravity, 1 / 60f, history);
        }
        prints.put("pyramid, soft steps, last result", Fingerprint.ofEverything(last));
        prints.put("pyramid, soft steps, bodies", Fingerprint.of(pyramid.bodies()));

        Scene iterativeSteps = SceneGenerator.pileWithContacts(48, 5000, 0.1f);
        FrictionScenes.randomFriction(new SplittableRandom(49), iterativeSteps.contacts());
        SolveHistory iterativeHistory = new SolveHistory();
        for (int step = 0; step < 3; step++) {
            last = solver.step(iterativeSteps.bodies(), iterativeSteps.contacts(), SolveSettings.iterative(10)
                    .withPositionalCorrection(0.2f, 0.005f), gravity, 1 / 60f, iterativeHistory);
        }
        prints.put("pile, iterative steps, last result", Fingerprint.ofEverything(last));
        prints.put("pile, iterative steps, bodies", Fingerprint.of(iterativeSteps.bodies()));
        return prints;
    }

    /** Prints this code's fingerprints on the CPU backend, in the form {@code PinnedBitsTest} keeps them. */
    public static void main(String[] args) {
        try (ContactSolver solver = Backends.cpu(1)) {
            for (Map.Entry<String, Long> entry : run(solver).entrySet()) {
                System.out.printf("            Map.entry(\"%s\", 0x%016xL),%n", entry.getKey(), entry.getValue());
            }
        }
    }
}
