package io.contactsolver.testing;

import io.contactsolver.ContactBatch;
import io.contactsolver.ContactSolver;
import io.contactsolver.RigidSettings;
import io.contactsolver.SolveResult;
import io.contactsolver.SolveSettings;
import io.contactsolver.scene.Scene;
import io.contactsolver.scene.SceneGenerator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.joml.Vector3f;

/**
 * A fixed set of frictionless solves (single pass, iterative cold and warm-started, positional
 * correction, a pile, device-resident steps) and the fingerprints of their results. The expected
 * fingerprints in {@code FrictionlessIdentityTest} were recorded by running exactly this code on
 * the module as it was before friction existed (commit df5d7c1, whose solver is the frictionless
 * one of docs/physics.md), CPU backend.
 */
public final class FrictionlessRuns {
    /** How the scenes say "no friction". */
    public enum Zero {
        /** Friction and rolling resistance never set (the default). */
        DEFAULT,
        /** Both set to 0 explicitly on every contact. */
        EXPLICIT,
        /** Both set to -0.0 (a file may say "-0"; validation accepts it, and it is zero). */
        NEGATIVE
    }

    private FrictionlessRuns() {
    }

    public static Map<String, Long> run(ContactSolver solver, Zero zero) {
        Map<String, Long> prints = new LinkedHashMap<>();
        Scene graph = zeroed(SceneGenerator.randomGraph(31, 3000, 20_000), zero);
        prints.put("single pass", Fingerprint.of(solver.solve(graph.bodies(), graph.contacts(), new SolveResult())));
        SolveResult cold = solver.solve(graph.bodies(), graph.contacts(), SolveSettings.iterative(12), new SolveResult());
        prints.put("iterative", Fingerprint.of(cold));
        prints.put("iterative, warm-started", Fingerprint.of(
                solver.solve(graph.bodies(), graph.contacts(), SolveSettings.iterative(12), cold, new SolveResult())));

        Scene separated = zeroed(SceneGenerator.randomGraph(32, 2000, 12_000), zero);
        SplittableRandom random = new SplittableRandom(3);
        for (int c = 0; c < separated.contacts().size(); c++) {
            separated.contacts().setSeparation(c, (float) (random.nextDouble() * 0.2 - 0.12));
        }
        for (RigidSettings settings : new RigidSettings[] {SolveSettings.singlePass(), SolveSettings.iterative(10)}) {
            RigidSettings corrected = settings.withPositionalCorrection(0.2f, 0.005f);
            prints.put(settings.kind() + " with positional correction", Fingerprint.of(solver.solve(
                    separated.bodies(), separated.contacts(), corrected, 1.0f / 60.0f, null, new SolveResult())));
        }

        Scene pile = zeroed(SceneGenerator.pile(5, 300, 0.3f), zero);
        prints.put("pile, iterative", Fingerprint.of(
                solver.solve(pile.bodies(), pile.contacts(), SolveSettings.iterative(60), new SolveResult())));

        Scene stepped = zeroed(SceneGenerator.randomGraph(33, 2000, 8000), zero);
        SolveResult[] results = {new SolveResult(), new SolveResult()};
        for (int step = 0; step < 4; step++) {
            solver.step(stepped.bodies(), stepped.contacts(), SolveSettings.iterative(8), new Vector3f(0, -9.81f, 0),
                    1.0f / 60.0f, step == 0 ? null : results[(step + 1) & 1], results[step & 1]);
        }
        prints.put("steps, last result", Fingerprint.of(results[1]));
        prints.put("steps, bodies", Fingerprint.of(stepped.bodies()));
        return prints;
    }

    private static Scene zeroed(Scene scene, Zero zero) {
        ContactBatch contacts = scene.contacts();
        if (zero != Zero.DEFAULT) {
            float value = zero == Zero.EXPLICIT ? 0.0f : -0.0f;
            for (int c = 0; c < contacts.size(); c++) {
                contacts.setFriction(c, value).setRollingResistance(c, value);
            }
        }
        return scene;
    }

    /** Prints the fingerprints on the CPU, as Java source: how the expected values were recorded. */
    public static void main(String[] args) {
        try (ContactSolver solver = Backends.cpu()) {
            for (Map.Entry<String, Long> entry : run(solver, Zero.DEFAULT).entrySet()) {
                System.out.printf("Map.entry(\"%s\", 0x%016xL),%n", entry.getKey(), entry.getValue());
            }
        }
    }
}
