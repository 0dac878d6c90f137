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
import io.contactsolver.bench.EngineBenchmark.Engine;
import io.contactsolver.layout.BodyField;
import io.contactsolver.layout.SolvePhase;
import io.contactsolver.scene.BoxContacts;
import io.contactsolver.scene.BoxScene;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.FloatBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.IntConsumer;
import java.util.function.ToDoubleFunction;
import org.joml.Vector3f;

/**
 * The box pyramids of the {@code large_pyramid} and {@code many_pyramids} benchmarks of Box3D (and
 * Box2D v3's {@code large_pyramid}, the same wall in 2D), rebuilt on the public API as a user would
 * (docs/performance.md, "Soft step: the box pyramids against Box3D and Box2D v3"): unit cubes,
 * friction 0.6, 60 Hz, this package's own box collision ({@link BoxContacts}: up to four points a
 * touching face pair, one manifold a pair, a 2 cm speculative margin, ids kept while a contact
 * persists) run before every frame.
 *
 * <p>Two schemes side by side, each for {@code frames} frames on each backend:
 * <ul>
 *   <li>{@code soft-step}: one {@code ContactSolver.step} a frame with {@code SolveSettings.softStep()}
 *       at its defaults (4 substeps of one soft and one relax sweep, contacts at an eighth of the
 *       substep rate, 30 Hz, recycling within 5 cm: Box3D's budget);</li>
 *   <li>{@code two-solves}: the scheme a user had to write before the soft step (the demo's,
 *       {@link TwoSolves}): gravity, a warm-started velocity solve with speculative contacts, a
 *       frictionless push-out solve on the bodies at rest, then the integration of velocity plus
 *       push, the orientations turned too.</li>
 * </ul>
 * Reported: the solver's milliseconds a frame (the {@code step} call, or both solves), the
 * collision's apart, the share of contact points recycled, and how the boxes moved ({@link Motion}):
 * whether the pyramids stand by {@link Motion#stands}.
 */
final class PyramidBench {
    /** A box farther than this (m) from its pyramid's plane means the pyramid did not stand. */
    static final float OUT_OF_PLANE_LIMIT = 0.1f;
    /** A box turned by this many degrees or more from where it started means the pyramid did not stand. */
    static final float TILT_LIMIT_DEGREES = 5.0f;
    /**
     * A pyramid's top box that sank (or rose) by this share of the pyramid's height or more means it
     * did not stand: soft contacts settle a 100-row pyramid by about 0.7% of its height (0.68 m in
     * Box3D and here), boxes falling through each other or the ground sink far more.
     */
    static final float SINK_LIMIT_SHARE = 0.02f;
    static final float FRAME = 1.0f / 60.0f;
    static final float GRAVITY = -10.0f;
    /** Box2D's speculative distance, 4 linear slops of 5 mm. */
    static final float MARGIN = 0.02f;
    /** Frames left out of the timing while the JIT compiles the step. */
    static final int WARM_UP_FRAMES = 50;
    /** The two-solve scheme's overlap tolerated without push-out, m. */
    static final float SLOP = 0.005f;

    /** The two scenes, each named as on the command line and as in the peers' benchmark programs. */
    enum Kind {
        LARGE("large", "large_pyramid", Set.of(Engine.BOX3D, Engine.BOX2D)),
        MANY("many", "many_pyramids", Set.of(Engine.BOX3D));

        final String label;
        /** The scene's name in the peers' benchmark programs. */
        final String engineScene;
        /** The peers that have this scene. */
        final Set<Engine> engines;

        Kind(String label, String engineScene, Set<Engine> engines) {
            this.label = label;
            this.engineScene = engineScene;
            this.engines = engines;
        }
    }

    /**
     * One scene: {@code grid} x {@code grid} pyramids of {@code base} boxes in the bottom row (a
     * grid of 1 for the large pyramid), as {@link BoxScene#pyramid} and {@link BoxScene#manyPyramids}
     * build them.
     */
    record Layout(Kind kind, int grid, int base) {
        static Layout large(int base) {
            return new Layout(Kind.LARGE, 1, base);
        }

        static Layout many(int grid, int base) {
            return new Layout(Kind.MANY, grid, base);
        }

        /** The scene as the peers' benchmarks have it. */
        Layout enginesOwn() {
            return kind == Kind.LARGE ? large(BoxScene.LARGE_PYRAMID_BASE)
                    : many(BoxScene.MANY_PYRAMIDS_GRID, BoxScene.MANY_PYRAMIDS_BASE);
        }

        boolean isEnginesOwn() {
            return equals(enginesOwn());
        }

        BoxScene build() {
            return kind == Kind.LARGE ? BoxScene.pyramid(base) : BoxScene.manyPyramids(grid, base);
        }

        long boxes() {
            return BoxScene.manyPyramidsBoxCount(grid, base);
        }

        int pyramids() {
            return grid * grid;
        }

        /** Each pyramid's top box is its last ({@link BoxScene#manyPyramids}). */
        int top(int pyramid) {
            return (int) ((pyramid + 1) * BoxScene.pyramidBoxCount(base) - 1);
        }

        /** A pyramid's height, m: {@code base} unit boxes. */
        float height() {
            return 2.0f * BoxScene.HALF_EXTENT * base;
        }

        String describe() {
            return kind == Kind.LARGE
                    ? String.format(Locale.ROOT, "%s rebuilt: %,d unit boxes on a base of %d, one box thick", kind.engineScene,
                            boxes(), base)
                    : String.format(Locale.ROOT, "%s rebuilt: %d x %d pyramids of base %d, %,d unit boxes",
                            kind.engineScene, grid, grid, base, boxes());
        }
    }

    /**
     * How the boxes moved over a run: {@code outOfPlane} a box's distance from its pyramid's plane
     * (m, along z), {@code tiltDegrees} the angle a box turned from its starting orientation (about
     * any axis), {@code inPlane} a box's sideways move within its plane (m, along x), each the
     * largest over every box and every frame; {@code topSink} how far a pyramid's top box had sunk
     * at the last frame (m, negative if it rose; of several pyramids, the one farthest from where it
     * started), and {@code mostSink} the same at the frame where it was largest.
     */
    record Motion(float outOfPlane, float tiltDegrees, float inPlane, float topSink, float mostSink) {
        /**
         * The rule by which a pyramid stands: over the whole run no box left its plane by
         * {@link #OUT_OF_PLANE_LIMIT} or turned by {@link #TILT_LIMIT_DEGREES}, and no top box ever
         * sank or rose by {@link #SINK_LIMIT_SHARE} of its pyramid's height {@code height}. Sliding
         * within the plane is reported, not judged: soft contacts spread a tall pyramid's lower
         * rows a little (so does Box2D's own 2D pyramid).
         */
        boolean stands(float height) {
            return outOfPlane < OUT_OF_PLANE_LIMIT && tiltDegrees < TILT_LIMIT_DEGREES
                    && Math.abs(mostSink) < SINK_LIMIT_SHARE * height;
        }

        boolean sameBits(Motion other) {
            return Float.floatToRawIntBits(outOfPlane) == Float.floatToRawIntBits(other.outOfPlane)
                    && Float.floatToRawIntBits(tiltDegrees) == Float.floatToRawIntBits(other.tiltDegrees)
                    && Float.floatToRawIntBits(inPlane) == Float.floatToRawIntBits(other.inPlane)
                    && Float.floatToRawIntBits(topSink) == Float.floatToRawIntBits(other.topSink)
                    && Float.floatToRawIntBits(mostSink) == Float.floatToRawIntBits(other.mostSink);
        }
    }

    /**
     * One configuration's result: {@code stepMillis} is the median of its rounds' solver
     * milliseconds a frame and {@code bestMillis} the least; the rest is the first round's, and
     * {@code repeatable} says whether every round moved the boxes to the same bits.
     */
    record Row(Layout layout, String scheme, String backend, int threads, double meanContacts, int frames,
            double stepMillis, double bestMillis, double collisionMillis, double recycledShare, Motion motion,
            boolean stands, String budget, String phases, int rounds, boolean repeatable) {
    }

    /**
     * The rows, the peers' milliseconds a step of each of their runs in the same sitting (a figure a
     * scene), and lines to print below the table (what the runs in turn found).
     */
    record Result(List<Row> rows, List<Figure> figures, List<String> notes) {
        Result {
            rows = List.copyOf(rows);
            figures = List.copyOf(figures);
            notes = List.copyOf(notes);
        }
    }

    private final List<Layout> layouts;
    private final int frames;
    private final int twoSolveIterations;
    private final SoftStepSettings soft;
    private final Consumer<String> progress;

    /** The scenes {@code layouts}, {@code frames} frames each; the soft-step scheme steps with {@code soft}. */
    PyramidBench(List<Layout> layouts, int frames, int twoSolveIterations, SoftStepSettings soft,
            Consumer<String> progress) {
        this.layouts = List.copyOf(layouts);
        this.frames = frames;
        this.twoSolveIterations = twoSolveIterations;
        this.soft = soft;
        this.progress = progress;
    }

    /**
     * Runs {@code schemes} on each scene on the CPU at 1 thread and {@code cores}, and on OpenCL if
     * {@code openCl} (left out if none opens), {@code rounds} times over, one scene after the other.
     * Each of {@code peers} that has the scene runs its own benchmark of it before each of our runs
     * and once after the last of the scene's, so that each of our figures has one of each peer's
     * taken just before and just after it on this noisy machine. Where {@code inTurn}, a scheme's
     * CPU configurations (1 thread and {@code cores}) run together in each round, frame by frame in
     * turn ({@link #runInTurn}), the peers before them once.
     */
    Result run(int cores, boolean cpu, boolean openCl, String device, Set<Scheme> schemes, int rounds,
            List<EngineBenchmark> peers, boolean inTurn) throws IOException, InterruptedException {
        List<SolverConfig> configs = Benchmark.configurations(cores, cpu, openCl, device);
        List<Row> rows = new ArrayList<>();
        List<Figure> figures = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        for (Layout layout : layouts) {
            List<Trial> trials = new ArrayList<>();
            for (Scheme scheme : Scheme.values()) {
                if (schemes.contains(scheme)) {
                    for (SolverConfig config : configs) {
                        trials.add(new Trial(scheme, config, new ArrayList<>()));
                    }
                }
            }
            List<EngineBenchmark> here = peers.stream().filter(peer -> layout.kind().engines.contains(peer.engine()))
                    .toList();
            Map<Engine, List<Double>> peerMillis = new EnumMap<>(Engine.class);
            Map<Engine, Integer> peerSteps = new EnumMap<>(Engine.class);
            Map<Engine, List<EngineBenchmark.Profile>> peerProfiles = new EnumMap<>(Engine.class);
            List<PeerScaling> peerScaling = new ArrayList<>();
            boolean agreed = true;
            for (int round = 0; round < rounds; round++) {
                for (Trial trial : trials) {
                    if (inTurn && trial.config().backend() == Backend.CPU) {
                        List<Trial> group = cpuTrials(trials, trial.scheme());
                        if (group.get(0) == trial && group.size() > 1) {
                            agreed &= runGroup(layout, group, rounds, round, here, peerMillis, peerSteps, peerProfiles,
                                    peerScaling);
                        }
                        if (group.size() > 1) {
                            continue;
                        }
                    }
                    if (trial.rounds().size() < round) {
                        continue; // its backend did not open in an earlier round
                    }
                    SolverConfig config = trial.config();
                    String label = layout.kind().label + " pyramid " + trial.scheme().label() + " "
                            + config.backend().name().toLowerCase(Locale.ROOT)
                            + (rounds > 1 ? ", round " + (round + 1) + " of " + rounds : "");
                    for (EngineBenchmark peer : here) {
                        measurePeer(peer, layout, "before " + label, peerMillis, peerSteps, peerProfiles);
                    }
                    progress.accept(label);
                    try (ContactSolver solver = ContactSolver.create(config)) {
                        trial.rounds().add(run(layout, trial.scheme(), solver, config.threads()));
                    } catch (IllegalStateException unavailable) {
                        progress.accept("pyramid: OpenCL not measured: " + unavailable.getMessage());
                    }
                }
            }
            if (!peerMillis.isEmpty()) {
                for (EngineBenchmark peer : here) {
                    measurePeer(peer, layout, "after the last", peerMillis, peerSteps, peerProfiles);
                }
            }
            if (inTurn && configs.stream().filter(config -> config.backend() == Backend.CPU).count() > 1) {
                String scene = layout.kind() == Kind.LARGE ? "the large pyramid" : "the many pyramids";
                notes.add(agreed
                        ? scene + ": the CPU's thread counts of each scheme stepped their own copies frame by frame in "
                                + "turn, and ended every round with the same bits"
                        : "warning: " + scene + ": the CPU's thread counts, stepped in turn, ended a round with "
                                + "different bits");
                notes.addAll(inTurnRatios(scene, trials));
                notes.addAll(PeerScaling.lines(layout.kind().engineScene, peerScaling));
            }
            for (Trial trial : trials) {
                if (!trial.rounds().isEmpty()) {
                    rows.add(combine(trial.rounds()));
                }
            }
            for (EngineBenchmark peer : here) {
                if (peerMillis.containsKey(peer.engine())) {
                    String scene = layout.kind().engineScene;
                    figures.add(new Figure(peer.engine(), scene, peerMillis.get(peer.engine()),
                            peerSteps.get(peer.engine()), "measured in this run, interleaved with ours ("
                                    + peer.commandLine(scene) + ")",
                            peerProfiles.getOrDefault(peer.engine(), List.of())));
                }
            }
        }
        return new Result(rows, figures, notes);
    }

    /** {@code scheme}'s trials on the CPU, in the order of {@code trials} (1 thread first): those that run in turn. */
    private static List<Trial> cpuTrials(List<Trial> trials, Scheme scheme) {
        return trials.stream().filter(trial -> trial.scheme() == scheme && trial.config().backend() == Backend.CPU)
                .toList();
    }

    /**
     * For each scheme whose CPU trials ran in turn: 1 thread's time over each other thread count's,
     * round by round (each ratio from the same minutes).
     */
    private static List<String> inTurnRatios(String scene, List<Trial> trials) {
        List<String> lines = new ArrayList<>();
        for (Scheme scheme : Scheme.values()) {
            List<Trial> group = cpuTrials(trials, scheme);
            if (group.size() < 2) {
                continue;
            }
            Trial one = group.get(0);
            for (Trial other : group.subList(1, group.size())) {
                int rounds = Math.min(one.rounds().size(), other.rounds().size());
                StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%s, %s: 1 thread's ms a frame over "
                        + "%d threads', round by round:", scene, scheme.label(), other.config().threads()));
                for (int r = 0; r < rounds; r++) {
                    line.append(Benchmark.roundRatio(one.rounds().get(r).stepMillis(),
                            other.rounds().get(r).stepMillis()));
                }
                lines.add(line.toString());
            }
        }
        return lines;
    }

    /**
     * Round {@code round} of the CPU trials {@code group} (one scheme, 1 thread and more) in turn
     * ({@link #runInTurn}), each peer of the scene run before them on 1 worker, and on each of the
     * group's other thread counts as many workers, the 1-worker run first in the first, third, ...
     * round and last in the others ({@code peerScaling} gets each pair); returns whether their bodies ended the same bits.
     */
    private boolean runGroup(Layout layout, List<Trial> group, int rounds, int round, List<EngineBenchmark> here,
            Map<Engine, List<Double>> peerMillis, Map<Engine, Integer> peerSteps,
            Map<Engine, List<EngineBenchmark.Profile>> peerProfiles, List<PeerScaling> peerScaling)
            throws IOException, InterruptedException {
        Trial first = group.get(0);
        String label = layout.kind().label + " pyramid " + first.scheme().label() + " cpu, "
                + String.join(" and ", group.stream().map(trial -> Integer.toString(trial.config().threads())).toList())
                + " threads in turn" + (rounds > 1 ? ", round " + (round + 1) + " of " + rounds : "");
        List<Integer> more = group.stream().map(trial -> trial.config().threads()).filter(threads -> threads > 1)
                .distinct().toList();
        for (EngineBenchmark peer : here) {
            EngineBenchmark.Runs one = null;
            if (round % 2 == 0) {
                one = measurePeer(peer, layout, "before " + label, peerMillis, peerSteps, peerProfiles);
            }
            List<EngineBenchmark.Runs> many = new ArrayList<>();
            for (int workers : more) {
                EngineBenchmark spread = peer.withWorkers(workers);
                progress.accept(peer.engine().title + " " + layout.kind().engineScene + " on " + workers + " workers, before "
                        + label);
                many.add(spread.measure(layout.kind().engineScene, layout.enginesOwn().boxes()));
            }
            if (one == null) {
                one = measurePeer(peer, layout, "before " + label, peerMillis, peerSteps, peerProfiles);
            }
            for (int k = 0; k < more.size(); k++) {
                peerScaling.add(new PeerScaling(peer.engine(), more.get(k), one, many.get(k)));
            }
        }
        progress.accept(label);
        InTurn result = Benchmark.withSolvers(group.stream().map(Trial::config).toList(),
                solvers -> runInTurn(layout, first.scheme(), solvers,
                        group.stream().map(trial -> trial.config().threads()).toList()));
        for (int k = 0; k < group.size(); k++) {
            group.get(k).rounds().add(result.rows().get(k));
        }
        return result.sameBits();
    }

    private EngineBenchmark.Runs measurePeer(EngineBenchmark peer, Layout layout, String when,
            Map<Engine, List<Double>> millis, Map<Engine, Integer> steps,
            Map<Engine, List<EngineBenchmark.Profile>> profiles) throws IOException, InterruptedException {
        String scene = layout.kind().engineScene;
        progress.accept(peer.engine().title + " " + scene + ", " + when);
        EngineBenchmark.Runs runs = peer.measure(scene, layout.enginesOwn().boxes());
        millis.computeIfAbsent(peer.engine(), engine -> new ArrayList<>()).addAll(runs.millisPerStep());
        steps.put(peer.engine(), runs.timedSteps());
        if (runs.profile() != null) {
            profiles.computeIfAbsent(peer.engine(), engine -> new ArrayList<>()).add(runs.profile());
        }
        return runs;
    }

    /**
     * A peer's own scaling in one round: its benchmark on 1 worker and on {@code workers}, run one
     * after the other before the round, each the median of its runs.
     */
    record PeerScaling(Engine engine, int workers, EngineBenchmark.Runs one, EngineBenchmark.Runs many) {
        /**
         * A line for each peer and worker count: 1 worker's ms a step over more workers', round by
         * round, for the whole step and, where the peer profiled its steps, for its solver alone.
         */
        static List<String> lines(String scene, List<PeerScaling> rounds) {
            List<String> lines = new ArrayList<>();
            rounds.stream().map(round -> Map.entry(round.engine(), round.workers())).distinct().forEach(key -> {
                List<PeerScaling> these = rounds.stream()
                        .filter(round -> round.engine() == key.getKey() && round.workers() == key.getValue()).toList();
                StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%s %s, its own benchmark on 1 "
                        + "worker and on %d (run next to each other before each round, the 1-worker run first in odd "
                        + "rounds): 1 worker's ms a step over %d workers', round by round, the whole step (collision "
                        + "included):", key.getKey().title, scene, key.getValue(), key.getValue()));
                for (PeerScaling round : these) {
                    line.append(Benchmark.roundRatio(Benchmark.median(round.one().millisPerStep()),
                            Benchmark.median(round.many().millisPerStep())));
                }
                if (these.stream().allMatch(round -> round.one().profile() != null && round.many().profile() != null)) {
                    line.append("; its constraint solver alone (its -s profile):");
                    for (PeerScaling round : these) {
                        line.append(Benchmark.roundRatio(round.one().profile().solverMillis(),
                                round.many().profile().solverMillis()));
                    }
                }
                lines.add(line.toString());
            });
            return lines;
        }
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
            repeatable &= run.motion().sameBits(first.motion());
        }
        return new Row(first.layout(), first.scheme(), first.backend(), first.threads(), first.meanContacts(),
                first.frames(), Benchmark.median(millis), best, first.collisionMillis(), first.recycledShare(),
                first.motion(), first.stands(), first.budget(), first.phases(), runs.size(), repeatable);
    }

    Row run(Layout layout, Scheme scheme, ContactSolver solver, int threads) {
        SceneRun run = new SceneRun(layout, scheme, solver, threads);
        for (int frame = 0; frame < frames; frame++) {
            run.frame(frame);
        }
        return run.row();
    }

    /**
     * {@code solvers} (with their thread counts {@code threads}) each stepping a copy of the scene
     * with {@code scheme}, frame by frame in turn, the order reversed every frame so that none
     * always goes first: their times come from the same minutes of a noisy machine, so their ratio
     * is steadier than that of runs one after the other. Their bodies at the end are compared bit
     * for bit with the first's ({@link InTurn#sameBits}).
     */
    InTurn runInTurn(Layout layout, Scheme scheme, List<ContactSolver> solvers, List<Integer> threads) {
        List<SceneRun> runs = new ArrayList<>();
        for (int k = 0; k < solvers.size(); k++) {
            runs.add(new SceneRun(layout, scheme, solvers.get(k), threads.get(k)));
        }
        Benchmark.inTurn(frames, runs.stream().map(run -> (IntConsumer) run::frame).toList());
        int[] first = Benchmark.motionBits(runs.get(0).bodies);
        boolean same = runs.stream().allMatch(run -> Arrays.equals(Benchmark.motionBits(run.bodies), first));
        return new InTurn(runs.stream().map(SceneRun::row).toList(), same);
    }

    /** The rows of configurations run in turn, and whether their bodies ended the same bits. */
    record InTurn(List<Row> rows, boolean sameBits) {
    }

    /** One configuration stepping its own copy of a scene, a frame at a time, its times and motion kept. */
    private final class SceneRun {
        private final Layout layout;
        private final Scheme scheme;
        private final ContactSolver solver;
        private final int threads;
        private final BodyBatch bodies;
        private final BoxContacts collision;
        private final ContactBatch contacts;
        private final TwoSolves twoSolves;
        private final SolveResult[] results = {new SolveResult(), new SolveResult()};
        private final Vector3f gravity = new Vector3f(0.0f, GRAVITY, 0.0f);
        private final Tracker tracker;
        private long stepNanos;
        private long collisionNanos;
        private long contactSum;
        private long recycled;
        private long recyclable;
        private final long[] hostNanos = new long[SolvePhase.values().length];
        private final long[] deviceNanos = new long[SolvePhase.values().length];

        SceneRun(Layout layout, Scheme scheme, ContactSolver solver, int threads) {
            this.layout = layout;
            this.scheme = scheme;
            this.solver = solver;
            this.threads = threads;
            BoxScene scene = layout.build();
            this.bodies = scene.bodies();
            this.collision = new BoxContacts(scene.halfExtent(), MARGIN, BoxContacts.DEFAULT_FRICTION);
            this.contacts = new ContactBatch(16 * bodies.size());
            this.twoSolves = scheme == Scheme.TWO_SOLVES
                    ? TwoSolves.withPushOut(SolveSettings.iterative(twoSolveIterations), SLOP) : null;
            this.tracker = new Tracker(layout, bodies);
        }

        void frame(int frame) {
            long t0 = System.nanoTime();
            collision.find(bodies, contacts);
            long t1 = System.nanoTime();
            SolveResult warm = frame == 0 ? null : results[(frame + 1) & 1];
            SolveResult result = results[frame & 1];
            if (twoSolves == null) {
                solver.step(bodies, contacts, soft, gravity, FRAME, warm, result);
            } else {
                applyGravity(bodies);
                twoSolves.solve(solver, bodies, contacts, FRAME, warm, result);
                twoSolves.integrate(bodies, FRAME);
            }
            long t2 = System.nanoTime();
            if (frame >= WARM_UP_FRAMES) {
                collisionNanos += t1 - t0;
                stepNanos += twoSolves == null ? t2 - t1 : twoSolves.solveNanos();
                if (twoSolves == null) {
                    for (SolvePhase phase : SolvePhase.values()) {
                        hostNanos[phase.ordinal()] += result.hostNanos(phase);
                        deviceNanos[phase.ordinal()] += result.deviceNanos(phase);
                    }
                }
            }
            contactSum += contacts.size();
            if (frame > 0) {
                // the first step has nothing to recycle
                recycled += result.recycledCount();
                recyclable += contacts.size();
            }
            tracker.frame(bodies);
        }

        Row row() {
            int timed = Math.max(1, frames - WARM_UP_FRAMES);
            String budget = twoSolves == null
                    ? Benchmark.sweeps(soft)
                    : twoSolveIterations + " velocity + " + TwoSolves.pushIterations(twoSolveIterations)
                            + " push-out iterations";
            double millis = stepNanos / 1e6 / timed;
            Motion motion = tracker.motion();
            return new Row(layout, scheme.label(), solver.backend().name().toLowerCase(Locale.ROOT),
                    solver.backend() == Backend.CPU ? threads : 0, contactSum / (double) frames, frames, millis, millis,
                    collisionNanos / 1e6 / timed, recyclable == 0 ? 0.0 : recycled / (double) recyclable, motion,
                    motion.stands(layout.height()), budget, twoSolves == null ? phases(hostNanos, deviceNanos, timed) : "",
                    1, true);
        }
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
                            .append(Benchmark.phaseLabel(phase))
                            .append(String.format(Locale.ROOT, " %.2f", nanos[phase.ordinal()] / 1e6 / frames));
                }
            }
        }
        return text.toString();
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

    /** The largest moves of {@link Motion}, kept up to date frame by frame from the bodies' data. */
    private static final class Tracker {
        private final Layout layout;
        private final float[] start;
        private float outOfPlane;
        private float inPlane;
        /** The least {@code |q . q0|} of any box: the cosine of half the largest turn. */
        private float leastAlignment = 1.0f;
        private float topSink;
        private float mostSink;

        Tracker(Layout layout, BodyBatch bodies) {
            this.layout = layout;
            FloatBuffer data = bodies.data();
            int stride = bodies.capacity();
            this.start = new float[7 * bodies.size()];
            for (int f = 0; f < 7; f++) {
                for (int i = 0; i < bodies.size(); i++) {
                    start[7 * i + f] = data.get(f * stride + i); // X, Y, Z, QW, QX, QY, QZ
                }
            }
        }

        void frame(BodyBatch bodies) {
            FloatBuffer data = bodies.data();
            int stride = bodies.capacity();
            int x = BodyField.X.ordinal() * stride;
            int z = BodyField.Z.ordinal() * stride;
            int qw = BodyField.QW.ordinal() * stride;
            int qx = BodyField.QX.ordinal() * stride;
            int qy = BodyField.QY.ordinal() * stride;
            int qz = BodyField.QZ.ordinal() * stride;
            for (int i = 0; i < bodies.size(); i++) {
                int s = 7 * i;
                inPlane = Math.max(inPlane, Math.abs(data.get(x + i) - start[s]));
                outOfPlane = Math.max(outOfPlane, Math.abs(data.get(z + i) - start[s + 2]));
                float alignment = Math.abs(data.get(qw + i) * start[s + 3] + data.get(qx + i) * start[s + 4]
                        + data.get(qy + i) * start[s + 5] + data.get(qz + i) * start[s + 6]);
                leastAlignment = Math.min(leastAlignment, alignment);
            }
            int y = BodyField.Y.ordinal() * stride;
            topSink = 0.0f;
            for (int p = 0; p < layout.pyramids(); p++) {
                int top = layout.top(p);
                float sink = start[7 * top + 1] - data.get(y + top);
                topSink = Math.abs(sink) > Math.abs(topSink) ? sink : topSink;
            }
            mostSink = Math.abs(topSink) > Math.abs(mostSink) ? topSink : mostSink;
        }

        Motion motion() {
            float tilt = (float) Math.toDegrees(2.0 * Math.acos(Math.min(1.0f, leastAlignment)));
            return new Motion(outOfPlane, tilt, inPlane, topSink, mostSink);
        }
    }

    /**
     * The rows as one table a scene, in the order measured, each with its peers' figures for that
     * scene and our times as multiples of theirs where the scene is theirs.
     */
    static void table(List<Row> rows, List<Figure> figures, PrintWriter out) {
        Map<Layout, List<Row>> byLayout = new LinkedHashMap<>();
        for (Row row : rows) {
            byLayout.computeIfAbsent(row.layout(), layout -> new ArrayList<>()).add(row);
        }
        for (Map.Entry<Layout, List<Row>> scene : byLayout.entrySet()) {
            Layout layout = scene.getKey();
            List<Figure> peers = figures.stream().filter(figure -> figure.scene().equals(layout.kind().engineScene))
                    .toList();
            table(layout, scene.getValue(), layout.isEnginesOwn() ? peers : List.of(), out);
            for (Figure peer : peers) {
                out.println(peer.line());
                String profile = peer.profileLine();
                if (profile != null) {
                    out.println(profile);
                }
                out.println(layout.isEnginesOwn()
                        ? String.format(Locale.ROOT, "x %s: our median over %s's median; best x: our best over its "
                                + "best", peer.engine().shortTitle, peer.engine().title)
                        : String.format(Locale.ROOT, "no ratios to %s: its %s has %,d boxes, this one %,d",
                                peer.engine().title, peer.scene(), layout.enginesOwn().boxes(), layout.boxes()));
            }
        }
    }

    private static void table(Layout layout, List<Row> rows, List<Figure> ratioTo, PrintWriter out) {
        Row first = rows.get(0);
        out.printf(Locale.ROOT, "%nBox pyramids (%s; friction 0.6, 60 Hz; %,.0f contact points a frame on average; %d "
                + "frames, the first %d untimed; %d round%s a configuration)%n", layout.describe(), first.meanContacts(),
                first.frames(), WARM_UP_FRAMES, first.rounds(), first.rounds() == 1 ? "" : "s");
        StringBuilder ratioHeads = new StringBuilder();
        for (Figure peer : ratioTo) {
            ratioHeads.append(String.format(Locale.ROOT, " %7s %7s", "x " + peer.engine().shortTitle, "best x"));
        }
        out.printf(Locale.ROOT, "%-11s %-7s %7s %15s %8s%s %12s %8s %14s %8s %10s %10s %9s %6s  %s%n", "scheme",
                "backend", "threads", "solver ms/frame", "best", ratioHeads, "collision ms", "recycled",
                "out of plane m", "tilt deg", "in-plane m", "top sank m", "at most m", "stands", "budget");
        for (Row row : rows) {
            StringBuilder ratios = new StringBuilder();
            for (Figure peer : ratioTo) {
                ratios.append(String.format(Locale.ROOT, " %7.2f %7.2f", row.stepMillis() / peer.median(),
                        row.bestMillis() / peer.best()));
            }
            Motion motion = row.motion();
            out.printf(Locale.ROOT, "%-11s %-7s %7s %15.2f %8.2f%s %12.2f %7.1f%% %14.4f %8.2f %10.4f %10.4f %9.4f %6s  "
                    + "%s%n", row.scheme(), row.backend(), row.threads() == 0 ? "-" : Integer.toString(row.threads()),
                    row.stepMillis(), row.bestMillis(), ratios, row.collisionMillis(), 100.0 * row.recycledShare(),
                    motion.outOfPlane(), motion.tiltDegrees(), motion.inPlane(), motion.topSink(), motion.mostSink(),
                    row.stands() ? "yes" : "no", row.budget());
        }
        out.println("solver ms/frame: the step call (both solves of two-solves), collision apart"
                + (first.rounds() > 1 ? "; the median of the rounds' means over the timed frames; best: the least" : ""));
        out.printf(Locale.ROOT, "stands: over every frame no box %.1f m out of its pyramid's plane or turned %.0f degrees, "
                + "and no top box sank %.0f%% of its pyramid's height (%.2f m); out of plane, tilt, in-plane: the most "
                + "of any box at any frame; top sank: at the last frame, at most: at any frame%n", OUT_OF_PLANE_LIMIT, TILT_LIMIT_DEGREES, 100.0f * SINK_LIMIT_SHARE,
                SINK_LIMIT_SHARE * layout.height());
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
    }

    /**
     * A peer engine's own milliseconds a whole step (its collision included, 1 thread) for one of
     * its scenes: each run's, how many steps each run timed (0 when not known), and where they come
     * from, quoted beside ours.
     */
    /**
     * A peer's figures for {@code scene}: its runs' milliseconds a step, and its own profiles of a
     * step (one an invocation of its program, where it was asked for them; else none).
     */
    record Figure(Engine engine, String scene, List<Double> millisPerStep, int timedSteps, String source,
            List<EngineBenchmark.Profile> profiles) {
        Figure {
            millisPerStep = List.copyOf(millisPerStep);
            profiles = List.copyOf(profiles);
            if (millisPerStep.isEmpty()) {
                throw new IllegalArgumentException(engine.title + "'s figure needs at least one run");
            }
        }

        Figure(Engine engine, String scene, List<Double> millisPerStep, int timedSteps, String source) {
            this(engine, scene, millisPerStep, timedSteps, source, List.of());
        }

        /** A figure the user measured and passed in with {@code option}. */
        static Figure given(Engine engine, String scene, double millisPerStep, String option) {
            return new Figure(engine, scene, List.of(millisPerStep), 0, "as given with " + option);
        }

        /** The median over its invocations of its profiles' median solver time a step, or NaN without profiles. */
        double solverMedian() {
            return profileMedian(EngineBenchmark.Profile::solverMillis);
        }

        /** As {@link #solverMedian}, its collision. */
        double collideMedian() {
            return profileMedian(EngineBenchmark.Profile::collideMillis);
        }

        /** The median over its invocations of one figure of their profiles, or NaN without profiles. */
        private double profileMedian(ToDoubleFunction<EngineBenchmark.Profile> figure) {
            return profiles.isEmpty() ? Double.NaN : Benchmark.median(profiles.stream().mapToDouble(figure).toArray());
        }

        /**
         * Where its step's time goes by its own profile, or null without profiles: the medians over
         * its invocations of each one's medians over its timed steps.
         */
        String profileLine() {
            if (profiles.isEmpty()) {
                return null;
            }
            double step = profileMedian(EngineBenchmark.Profile::stepMillis);
            return String.format(Locale.ROOT, "%s %s, its own profile of a step (-s; each figure the median over its "
                    + "timed steps, then over its %d invocations): step %.2f ms, of which its constraint solver %.2f "
                    + "(the contacts prepared, warm-started, swept, relaxed, restituted and stored, the bodies "
                    + "integrated) and its collision %.2f", engine.title, scene, profiles.size(), step, solverMedian(),
                    collideMedian());
        }

        double best() {
            return millisPerStep.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
        }

        double median() {
            return Benchmark.median(millisPerStep);
        }

        String line() {
            String what = String.format(Locale.ROOT, "%s %s, whole step (collision included), 1 thread%s, %s", engine.title,
                    scene, timedSteps == 0 ? "" : ", its steps 2 to " + (timedSteps + 1) + " a run", source);
            return millisPerStep.size() == 1 ? String.format(Locale.ROOT, "%s: %.2f ms", what, millisPerStep.get(0))
                    : String.format(Locale.ROOT, "%s: best %.2f ms, median %.2f ms over %d runs", what, best(), median(),
                            millisPerStep.size());
        }
    }

    /** A CSV field: the figure, or empty where there is none (NaN). */
    private static String optional(double figure) {
        return Double.isNaN(figure) ? "" : String.format(Locale.ROOT, "%.4f", figure);
    }

    static void writeCsv(List<Row> rows, List<Figure> figures, Writer out) throws IOException {
        StringBuilder header = new StringBuilder("scene,scheme,backend,threads,boxes,mean_contacts,frames,"
                + "solver_ms_per_frame,best_solver_ms_per_frame,collision_ms_per_frame,recycled_share,out_of_plane_m,"
                + "tilt_degrees,in_plane_m,top_sank_m,most_sank_m,stands,budget,rounds");
        for (Engine engine : Engine.values()) {
            header.append(',').append(engine.key).append("_median_ms,").append(engine.key).append("_best_ms,")
                    .append(engine.key).append("_solver_ms,").append(engine.key).append("_collision_ms");
        }
        out.write(header.append('\n').toString());
        for (Row row : rows) {
            Motion motion = row.motion();
            StringBuilder line = new StringBuilder(String.format(Locale.ROOT,
                    "%s,%s,%s,%d,%d,%.1f,%d,%.4f,%.4f,%.4f,%.4f,%.5f,%.3f,%.5f,%.5f,%.5f,%s,%s,%d", row.layout().kind().label,
                    row.scheme(), row.backend(), row.threads(), row.layout().boxes(), row.meanContacts(), row.frames(),
                    row.stepMillis(), row.bestMillis(), row.collisionMillis(), row.recycledShare(), motion.outOfPlane(),
                    motion.tiltDegrees(), motion.inPlane(), motion.topSink(), motion.mostSink(), row.stands(), row.budget(),
                    row.rounds()));
            for (Engine engine : Engine.values()) {
                Figure peer = figures.stream().filter(figure -> figure.engine() == engine
                        && figure.scene().equals(row.layout().kind().engineScene)).findFirst().orElse(null);
                line.append(peer == null ? ",,,," : String.format(Locale.ROOT, ",%.4f,%.4f,%s,%s", peer.median(),
                        peer.best(), optional(peer.solverMedian()), optional(peer.collideMedian())));
            }
            out.write(line.append('\n').toString());
        }
    }
}
