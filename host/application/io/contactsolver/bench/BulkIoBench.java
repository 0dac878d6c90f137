package io.contactsolver.bench;

import io.contactsolver.Backend;
import io.contactsolver.BodyBatch;
import io.contactsolver.ContactBatch;
import io.contactsolver.ContactSolver;
import io.contactsolver.IterativeSettings;
import io.contactsolver.SolveResult;
import io.contactsolver.SolveSettings;
import io.contactsolver.SolverConfig;
import io.contactsolver.layout.BodyField;
import io.contactsolver.layout.ContactBody;
import io.contactsolver.layout.ContactField;
import io.contactsolver.layout.DeltaField;
import io.contactsolver.layout.ImpulseField;
import io.contactsolver.scene.Scene;
import io.contactsolver.scene.SceneGenerator;
import java.io.PrintWriter;
import java.util.Locale;

/**
 * What a step's data costs a user through the bulk API, beside what one solve iteration of the
 * same step costs: the user's own arrays (one per field, as a simulation keeps them) copied into a
 * {@link BodyBatch} and a {@link ContactBatch} (every field), and every delta and impulse copied
 * out of the {@link SolveResult}. An iteration is timed as {@link LoopCost} times it: the solve at
 * {@code n} and {@code m} iterations, the difference over {@code m - n}. All three are timed in
 * turn, round after round, each the fastest of its rounds, so a noisy machine slows them alike.
 *
 * @param contacts contacts of the step
 * @param bodies bodies of the step
 * @param threads CPU threads of the solve
 * @param fillSeconds filling both batches from the arrays
 * @param readSeconds reading every delta and impulse into arrays
 * @param iterationSeconds one iteration of the iterative solve (with friction), CPU
 */
record BulkIoBench(int contacts, int bodies, int threads, double fillSeconds, double readSeconds,
        double iterationSeconds) {

    private static final int SHORT = 2;
    private static final int LONG = 6;

    /** The ratio the library promises to stay under: filling and reading a step within a tenth of an iteration. */
    static final double TARGET_RATIO = 0.1;

    double ratio() {
        return (fillSeconds + readSeconds) / iterationSeconds;
    }

    static BulkIoBench run(int contacts, int threads, int rounds, long seed) {
        int bodyCount = Math.max(2, contacts / 4);
        Scene scene = SceneGenerator.randomGraph(seed, bodyCount, contacts);
        ContactBatch source = scene.contacts();
        for (int c = 0; c < contacts; c++) {
            source.setFriction(c, 0.5f);
        }
        float[][] bodyFields = new float[BodyField.COUNT][];
        for (BodyField field : BodyField.values()) {
            bodyFields[field.ordinal()] = scene.bodies().get(field, new float[bodyCount]);
        }
        float[][] contactFields = new float[ContactField.COUNT][];
        for (ContactField field : ContactField.values()) {
            contactFields[field.ordinal()] = source.get(field, new float[contacts]);
        }
        int[][] links = new int[ContactBody.COUNT][];
        for (ContactBody side : ContactBody.values()) {
            links[side.ordinal()] = source.get(side, 0, new int[contacts], 0, contacts);
        }
        int[] ids = source.getIds(0, new int[contacts], 0, contacts);
        float[][] deltas = new float[DeltaField.COUNT][bodyCount];
        float[][] impulses = new float[ImpulseField.COUNT][contacts];

        BodyBatch bodies = new BodyBatch(bodyCount);
        ContactBatch batch = new ContactBatch(contacts);
        SolveResult result = new SolveResult();
        double fill = Double.POSITIVE_INFINITY;
        double read = Double.POSITIVE_INFINITY;
        double shortSolve = Double.POSITIVE_INFINITY;
        double longSolve = Double.POSITIVE_INFINITY;
        IterativeSettings shortSettings = SolveSettings.iterative(SHORT);
        IterativeSettings longSettings = SolveSettings.iterative(LONG);
        try (ContactSolver solver = ContactSolver.create(SolverConfig.defaults().withBackend(Backend.CPU)
                .withThreads(threads))) {
            for (int round = 0; round < rounds; round++) {
                long t0 = System.nanoTime();
                bodies.setSize(bodyCount);
                for (BodyField field : BodyField.values()) {
                    bodies.set(field, bodyFields[field.ordinal()]);
                }
                batch.setSize(contacts);
                for (ContactField field : ContactField.values()) {
                    batch.set(field, contactFields[field.ordinal()]);
                }
                for (ContactBody side : ContactBody.values()) {
                    batch.set(side, 0, links[side.ordinal()], 0, contacts);
                }
                batch.setIds(0, ids, 0, contacts);
                long t1 = System.nanoTime();
                solver.solve(bodies, batch, shortSettings, result);
                long t2 = System.nanoTime();
                for (DeltaField field : DeltaField.values()) {
                    result.get(field, deltas[field.ordinal()]);
                }
                for (ImpulseField field : ImpulseField.values()) {
                    result.get(field, impulses[field.ordinal()]);
                }
                long t3 = System.nanoTime();
                solver.solve(bodies, batch, longSettings, result);
                long t4 = System.nanoTime();
                fill = Math.min(fill, (t1 - t0) * 1e-9);
                shortSolve = Math.min(shortSolve, (t2 - t1) * 1e-9);
                read = Math.min(read, (t3 - t2) * 1e-9);
                longSolve = Math.min(longSolve, (t4 - t3) * 1e-9);
            }
        }
        return new BulkIoBench(contacts, bodyCount, threads, fill, read, (longSolve - shortSolve) / (LONG - SHORT));
    }

    void table(PrintWriter out) {
        out.println();
        out.printf(Locale.ROOT, "bulk data: a step's arrays into the batches and its results out (every field), beside "
                + "one iteration of the iterative solve with friction (timed at %d and %d iterations), CPU, %d "
                + "thread(s), fastest of the rounds%n", SHORT, LONG, threads);
        out.printf(Locale.ROOT, "%9s %8s %9s %9s %13s %12s %8s%n", "contacts", "bodies", "fill ms", "read ms",
                "iteration ms", "(fill+read)", "target");
        out.printf(Locale.ROOT, "%9d %8d %9.3f %9.3f %13.3f %11.3fx %7s%n", contacts, bodies, fillSeconds * 1e3,
                readSeconds * 1e3, iterationSeconds * 1e3, ratio(), "<= " + TARGET_RATIO);
        out.println("(fill+read): their sum as a share of one iteration");
    }
}
