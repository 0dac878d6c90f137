package io.contactsolver.bench;

import io.contactsolver.Backend;
import io.contactsolver.BodyBatch;
import io.contactsolver.ContactBatch;
import io.contactsolver.ContactSolver;
import io.contactsolver.SoftStepSettings;
import io.contactsolver.SolveResult;
import io.contactsolver.SolveSettings;
import io.contactsolver.SolverConfig;
import io.contactsolver.app.Scheme;
import io.contactsolver.app.TwoSolves;
import io.contactsolver.layout.BodyField;
import io.contactsolver.layout.SolvePhase;
import io.contactsolver.scene.BoxContacts;
import io.contactsolver.scene.BoxScene;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.FloatBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Consumer;
import org.joml.Vector3f;

/**
 * The box pyramid of Box2D v3's {@code large_pyramid} benchmark, rebuilt on the public API as a
 * user would (docs/performance.md, "Soft step: the box pyramid against Box2D v3"): unit cubes, a base of {@code base} boxes, friction 0.6,
 * 60 Hz, this package's own box collision ({@link BoxContacts}: four corner points per touching
 * face, a 2 cm speculative margin, ids kept while a contact persists) run before every frame.
 *
 * <p>Two schemes side by side, each for {@code frames} frames on each backend:
 * <ul>
 *   <li>{@code soft-step}: one {@code ContactSolver.step} a frame with {@code SolveSettings.softStep()}
 *       at its defaults (4 substeps of one soft and one relax sweep, Box2D's budget);</li>
 *   <li>{@code two-solves}: the scheme a user had to write before the soft step (the demo's,
 *       {@link TwoSolves}): gravity, a warm-started velocity solve with speculative contacts, a
 *       frictionless push-out solve on the bodies at rest, then the integration of velocity plus
 *       push, the orientations turned too.</li>
 * </ul>
 * Reported: the module's milliseconds a frame (the {@code step} call, or both solves), the
 * collision's apart, how far the top box sank, and whether the pyramid stands: no box ever more
 * than 10 cm sideways from where it started.
 */
final class PyramidBench {
    /** A box that has moved this far (m) sideways from where it started means the pyramid did not stand. */
    static final float STANDS_WITHIN = 0.1f;
    static final float FRAME = 1.0f / 60.0f;
    static final float GRAVITY = -10.0f;
    /** Box2D's speculative distance, 4 linear slops of 5 mm. */
    static final float MARGIN = 0.02f;
    /** Frames left out of the timing while the JIT compiles the step. */
    static final int WARM_UP_FRAMES = 50;
    /** The two-solve scheme's overlap tolerated without push-out, m. */
    static final float SLOP = 0.005f;

    /**
     * One configuration's result: {@code stepMillis} is the median of its rounds' module
     * milliseconds a frame and {@code bestMillis} the least; the rest is the first round's, and
     * {@code repeatable} says whether every round moved the boxes to the same bits.
     */
    record Row(String scheme, String backend, int threads, int boxes, double meanContacts, int frames,
            double stepMillis, double collisionMillis, float largestDrift, float topSink, boolean stands, String budget,
            String phases, int rounds, double bestMillis, boolean repeatable) {
    }

    /** The rows, and Box2D's milliseconds a step of each of its runs in the same sitting (empty without it). */
    record Result(List<Row> rows, List<Double> box2dMillis) {
    }

    private final int base;
    private final int frames;
    private final int twoSolveIterations;
    private final Consumer<String> progress;

    PyramidBench(int base, int frames, int twoSolveIterations, Consumer<String> progress) {
        this.base = base;
        this.frames = frames;
        this.twoSolveIterations = twoSolveIterations;
        this.progress = progress;
    }

    /**
     * Runs {@code schemes} on the CPU at 1 thread and {@code cores}, and on OpenCL if
     * {@code openCl} (left out if none opens), {@code rounds} times over. With {@code box2d}, Box2D's
     * own benchmark runs before each of our runs and once after the last, so that each of our
     * figures has one of Box2D's taken just before and just after it on this noisy machine.
     */
    Result run(int cores, boolean cpu, boolean openCl, String device, Set<Scheme> schemes, int rounds,
            Box2dBenchmark box2d) throws IOException, InterruptedException {
        List<SolverConfig> configs = new ArrayList<>();
        if (cpu) {
            configs.add(SolverConfig.defaults().withBackend(Backend.CPU).withThreads(1));
            if (cores > 1) {
                configs.add(SolverConfig.defaults().withBackend(Backend.CPU).withThreads(cores));
            }
        }
        if (openCl) {
            SolverConfig config = SolverConfig.defaults().withBackend(Backend.OPENCL).withThreads(cores);
            configs.add(device == null ? config : config.withDevice(device));
        }
        List<Trial> trials = new ArrayList<>();
        for (Scheme scheme : Scheme.values()) {
            if (schemes.contains(scheme)) {
                for (SolverConfig config : configs) {
                    trials.add(new Trial(scheme, config, new ArrayList<>()));
                }
            }
        }
        List<Double> box2dMillis = new ArrayList<>();
        for (int round = 0; round < rounds; round++) {
            for (Trial trial : trials) {
                if (trial.rounds().size() < round) {
                    continue; // its backend did not open in an earlier round
                }
                SolverConfig config = trial.config();
                String label = "pyramid " + trial.scheme().label() + " " + config.backend().name().toLowerCase(Locale.ROOT)
                        + (rounds > 1 ? ", round " + (round + 1) + " of " + rounds : "");
                if (box2d != null) {
                    progress.accept("Box2D " + Box2dBenchmark.SCENE + ", before " + label);
                    box2dMillis.addAll(box2d.measure());
                }
                progress.accept(label);
                try (ContactSolver solver = ContactSolver.create(config)) {
                    trial.rounds().add(run(trial.scheme(), solver, config.threads()));
                } catch (IllegalStateException unavailable) {
                    progress.accept("pyramid: OpenCL not measured: " + unavailable.getMessage());
                }
            }
        }
        if (box2d != null && !box2dMillis.isEmpty()) {
            progress.accept("Box2D " + Box2dBenchmark.SCENE + ", after the last");
            box2dMillis.addAll(box2d.measure());
        }
        List<Row> rows = new ArrayList<>();
        for (Trial trial : trials) {
            if (!trial.rounds().isEmpty()) {
                rows.add(combine(trial.rounds()));
            }
        }
        return new Result(rows, List.copyOf(box2dMillis));
    }

    /** One scheme on one backend configuration, and its rounds so far. */
    private record Trial(Scheme scheme, SolverConfig config, List<Row> rounds) {
    }

    /** The rounds of one configuration as one row: the median and best time, the first round's trajectory. */
    private static Row combine(List<Row> runs) {
        Row first = runs.get(0);
        double[] millis = new double[runs.size()];
        double best = Double.POSITIVE_INFINITY;
        boolean repeatable = true;
        for (int r = 0; r < runs.size(); r++) {
            Row run = runs.get(r);
            millis[r] = run.stepMillis();
            best = Math.min(best, run.stepMillis());
            repeatable &= Float.floatToRawIntBits(run.largestDrift()) == Float.floatToRawIntBits(first.largestDrift())
                    && Float.floatToRawIntBits(run.topSink()) == Float.floatToRawIntBits(first.topSink());
        }
        return new Row(first.scheme(), first.backend(), first.threads(), first.boxes(), first.meanContacts(),
                first.frames(), Benchmark.median(millis), first.collisionMillis(), first.largestDrift(),
                first.topSink(), first.stands(), first.budget(), first.phases(), runs.size(), best, repeatable);
    }

    Row run(Scheme scheme, ContactSolver solver, int threads) {
        BoxScene scene = BoxScene.pyramid(base);
        BodyBatch bodies = scene.bodies();
        int count = bodies.size();
        float[] start = positions(bodies, new float[3 * count]);
        BoxContacts collision = new BoxContacts(scene.halfExtent(), MARGIN, BoxContacts.DEFAULT_FRICTION);
        ContactBatch contacts = new ContactBatch(16 * count);
        TwoSolves twoSolves = scheme == Scheme.TWO_SOLVES
                ? TwoSolves.withPushOut(SolveSettings.iterative(twoSolveIterations), SLOP) : null;
        SolveResult[] results = {new SolveResult(), new SolveResult()};
        Vector3f gravity = new Vector3f(0.0f, GRAVITY, 0.0f);
        SoftStepSettings soft = SolveSettings.softStep();
        long stepNanos = 0;
        long collisionNanos = 0;
        long contactSum = 0;
        float drift = 0.0f;
        float[] now = new float[3 * count];
        long[] hostNanos = new long[SolvePhase.values().length];
        long[] deviceNanos = new long[SolvePhase.values().length];
        for (int frame = 0; frame < frames; frame++) {
            long t0 = System.nanoTime();
            collision.find(bodies, contacts);
            long t1 = System.nanoTime();
            SolveResult warm = frame == 0 ? null : results[(frame + 1) & 1];
            if (twoSolves == null) {
                solver.step(bodies, contacts, soft, gravity, FRAME, warm, results[frame & 1]);
            } else {
                applyGravity(bodies);
                twoSolves.solve(solver, bodies, contacts, FRAME, warm, results[frame & 1]);
                twoSolves.integrate(bodies, FRAME);
            }
            long t2 = System.nanoTime();
            if (frame >= WARM_UP_FRAMES) {
                collisionNanos += t1 - t0;
                stepNanos += twoSolves == null ? t2 - t1 : twoSolves.solveNanos();
                if (twoSolves == null) {
                    for (SolvePhase phase : SolvePhase.values()) {
                        hostNanos[phase.ordinal()] += results[frame & 1].hostNanos(phase);
                        deviceNanos[phase.ordinal()] += results[frame & 1].deviceNanos(phase);
                    }
                }
            }
            contactSum += contacts.size();
            drift = Math.max(drift, largestDrift(start, positions(bodies, now)));
        }
        float sink = topSink(start, now);
        int timed = Math.max(1, frames - WARM_UP_FRAMES);
        String budget = twoSolves == null
                ? soft.substeps() + " substeps x (" + soft.iterations() + " soft + " + soft.relaxIterations() + " relax)"
                : twoSolveIterations + " velocity + " + TwoSolves.pushIterations(twoSolveIterations)
                        + " push-out iterations";
        double millis = stepNanos / 1e6 / timed;
        return new Row(scheme.label(), solver.backend().name().toLowerCase(Locale.ROOT),
                solver.backend() == Backend.CPU ? threads : 0, count, contactSum / (double) frames, frames,
                millis, collisionNanos / 1e6 / timed, drift, sink, drift <= STANDS_WITHIN, budget,
                twoSolves == null ? phases(hostNanos, deviceNanos, timed) : "", 1, millis, true);
    }

    /**
     * The phases a step spent time in, in ms a frame, in the order they run: the host's, then a
     * device's own ({@code device solve}, {@code device transfer}) where it has any.
     */
    private static String phases(long[] hostNanos, long[] deviceNanos, int frames) {
        StringBuilder text = new StringBuilder();
        for (int clock = 0; clock < 2; clock++) {
            long[] nanos = clock == 0 ? hostNanos : deviceNanos;
            for (SolvePhase phase : SolvePhase.values()) {
                if (nanos[phase.ordinal()] > 0) {
                    text.append(text.length() == 0 ? "" : ", ").append(clock == 0 ? "" : "device ")
                            .append(phase.name().toLowerCase(Locale.ROOT).replace('_', '-'))
                            .append(String.format(Locale.ROOT, " %.2f", nanos[phase.ordinal()] / 1e6 / frames));
                }
            }
        }
        return text.toString();
    }

    private static float[] positions(BodyBatch bodies, float[] dest) {
        FloatBuffer data = bodies.data();
        int stride = bodies.capacity();
        for (int i = 0; i < bodies.size(); i++) {
            dest[3 * i] = data.get(BodyField.X.ordinal() * stride + i);
            dest[3 * i + 1] = data.get(BodyField.Y.ordinal() * stride + i);
            dest[3 * i + 2] = data.get(BodyField.Z.ordinal() * stride + i);
        }
        return dest;
    }

    /**
     * The largest sideways (x, z) distance any box got from where it started. Height is left out:
     * soft contacts settle a tall pyramid by their springs' give ({@code g / omega^2} a layer, times
     * the load), which is not falling; a box that slides or topples moves sideways.
     */
    private static float largestDrift(float[] start, float[] now) {
        float largest = 0.0f;
        for (int i = 0; i < start.length; i += 3) {
            float dx = now[i] - start[i];
            float dz = now[i + 2] - start[i + 2];
            largest = Math.max(largest, (float) Math.sqrt(dx * dx + dz * dz));
        }
        return largest;
    }

    /** How far the top box (the last one added) sank, m. */
    private static float topSink(float[] start, float[] now) {
        int top = start.length - 3;
        return start[top + 1] - now[top + 1];
    }

    /** The two-solve scheme's gravity, before its solves: {@code v += g dt} for every body with mass. */
    private static void applyGravity(BodyBatch bodies) {
        Vector3f v = new Vector3f();
        for (int i = 0; i < bodies.size(); i++) {
            if (bodies.inverseMass(i) > 0.0f) {
                bodies.getLinearVelocity(i, v);
                bodies.setLinearVelocity(i, v.x, v.y + GRAVITY * FRAME, v.z);
            }
        }
    }

    static void table(List<Row> rows, Box2dFigure box2d, PrintWriter out) {
        if (rows.isEmpty()) {
            return;
        }
        Row first = rows.get(0);
        // Box2D's figure is for its 100-box base; a ratio to another pyramid would mean nothing
        Box2dFigure ratioTo = box2d != null
                && first.boxes() == BoxScene.pyramidBoxCount(BoxScene.LARGE_PYRAMID_BASE) ? box2d : null;
        out.printf(Locale.ROOT, "%nBox pyramid (Box2D's large_pyramid rebuilt: %,d unit boxes, friction 0.6, 60 Hz, %,.0f "
                + "contact points a frame on average, %d frames, the first %d untimed, %d round%s a configuration)%n",
                first.boxes(), first.meanContacts(), first.frames(), WARM_UP_FRAMES, first.rounds(),
                first.rounds() == 1 ? "" : "s");
        out.printf(Locale.ROOT, "%-11s %-7s %7s %15s %8s %s%12s %14s %10s %7s  %s%n", "scheme", "backend", "threads",
                "module ms/frame", "best", ratioTo == null ? "" : String.format(Locale.ROOT, "%9s %9s ", "x Box2D",
                        "best x"), "collision ms", "sideways m", "top sank m", "stands", "budget");
        for (Row row : rows) {
            String ratios = ratioTo == null ? "" : String.format(Locale.ROOT, "%9.1f %9.1f ",
                    row.stepMillis() / ratioTo.median(), row.bestMillis() / ratioTo.best());
            out.printf(Locale.ROOT, "%-11s %-7s %7s %15.2f %8.2f %s%12.2f %14.4f %10.4f %7s  %s%n", row.scheme(),
                    row.backend(), row.threads() == 0 ? "-" : Integer.toString(row.threads()), row.stepMillis(),
                    row.bestMillis(), ratios, row.collisionMillis(), row.largestDrift(), row.topSink(),
                    row.stands() ? "yes" : "no", row.budget());
        }
        if (first.rounds() > 1) {
            out.println("module ms/frame: the median of the rounds' means over the timed frames; best: the least");
        }
        for (Row row : rows) {
            if (!row.repeatable()) {
                out.printf(Locale.ROOT, "warning: the rounds of %s %s moved the boxes differently%n", row.scheme(),
                        row.backend());
            }
        }
        out.println("where a step's time goes, ms a frame (SolveResult.hostNanos, then deviceNanos, first round):");
        for (Row row : rows) {
            if (!row.phases().isEmpty()) {
                out.printf(Locale.ROOT, "  %s %s %s: %s%n", row.scheme(), row.backend(),
                        row.threads() == 0 ? "-" : row.threads() + (row.threads() == 1 ? " thread" : " threads"),
                        row.phases());
            }
        }
        if (box2d != null) {
            out.println(box2d.line());
            out.println(ratioTo != null ? "x Box2D: our median over Box2D's median; best x: our best over Box2D's best"
                    : String.format(Locale.ROOT, "no ratios to Box2D: its large_pyramid has %,d boxes, this one %,d",
                            BoxScene.pyramidBoxCount(BoxScene.LARGE_PYRAMID_BASE), first.boxes()));
        }
    }

    /**
     * Box2D's own milliseconds a step for the same scene: each run's, and where they come from,
     * quoted beside ours.
     */
    record Box2dFigure(List<Double> millisPerStep, String source) {
        Box2dFigure {
            millisPerStep = List.copyOf(millisPerStep);
            if (millisPerStep.isEmpty()) {
                throw new IllegalArgumentException("Box2D's figure needs at least one run");
            }
        }

        /** A figure the user measured and passed in. */
        static Box2dFigure given(double millisPerStep) {
            return new Box2dFigure(List.of(millisPerStep), "as given with --box2d-ms");
        }

        double best() {
            return millisPerStep.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
        }

        double median() {
            return Benchmark.median(millisPerStep.stream().mapToDouble(Double::doubleValue).toArray());
        }

        String line() {
            return millisPerStep.size() == 1
                    ? String.format(Locale.ROOT, "Box2D v3 large_pyramid, whole step (collision included), 1 thread, "
                            + "%s: %.2f ms", source, millisPerStep.get(0))
                    : String.format(Locale.ROOT, "Box2D v3 large_pyramid, whole step (collision included), 1 thread, "
                            + "%s: best %.2f ms, median %.2f ms over %d runs", source, best(), median(),
                            millisPerStep.size());
        }
    }

    static void writeCsv(List<Row> rows, Box2dFigure box2d, Writer out) throws IOException {
        out.write("scheme,backend,threads,boxes,mean_contacts,frames,module_ms_per_frame,collision_ms_per_frame,"
                + "largest_sideways_m,top_sank_m,stands,budget,rounds,best_module_ms_per_frame,box2d_median_ms,"
                + "box2d_best_ms\n");
        String box2dColumns = box2d == null ? "," : String.format(Locale.ROOT, "%.4f,%.4f", box2d.median(), box2d.best());
        for (Row row : rows) {
            out.write(String.format(Locale.ROOT, "%s,%s,%d,%d,%.1f,%d,%.4f,%.4f,%.5f,%.5f,%s,%s,%d,%.4f,%s%n",
                    row.scheme(), row.backend(), row.threads(), row.boxes(), row.meanContacts(), row.frames(),
                    row.stepMillis(), row.collisionMillis(), row.largestDrift(), row.topSink(), row.stands(),
                    row.budget(), row.rounds(), row.bestMillis(), box2dColumns));
        }
    }
}
