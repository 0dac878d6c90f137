package io.contactsolver.bench;

import io.contactsolver.Backend;
import io.contactsolver.BodyBatch;
import io.contactsolver.ContactBatch;
import io.contactsolver.ContactSolver;
import io.contactsolver.SoftStepSettings;
import io.contactsolver.SolveResult;
import io.contactsolver.SolveSettings;
import io.contactsolver.SolverConfig;
import io.contactsolver.TransferProbe;
import io.contactsolver.layout.BodyField;
import io.contactsolver.layout.ContactField;
import io.contactsolver.layout.SolvePhase;
import io.contactsolver.scene.Batches;
import io.contactsolver.scene.Scene;
import io.contactsolver.scene.SceneGenerator;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.nio.FloatBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.DoubleSupplier;
import java.util.function.Function;
import java.util.function.IntConsumer;
import java.util.function.Supplier;
import org.joml.Quaternionf;
import org.joml.Vector3f;

/**
 * Runs the measurements of the {@code bench} command.
 *
 * <p>Each size of each scene is generated once from the seed. The module's backends (CPU on one
 * thread, CPU on all, OpenCL) are timed round-robin, one batch each in turn, so that a noisy
 * neighbour slows them alike and their ratios hold; a batch repeats the solve until it lasts at
 * least 20 ms, and the median batch gives the time per solve. The baselines ({@code naive},
 * {@code jbullet}, {@code bandwidth}) follow in their own blocks, so their memory can go before
 * the next size; each is checked against the module's result before it is timed.
 *
 * <p>The step section times {@code ContactSolver.step} with {@code SolveSettings.softStep()} on the
 * pile at each size up to {@link Plan#stepMaxContacts}, the module's backends round-robin as in the
 * sweep.
 *
 * <p>Every row and iteration cost goes to the {@link Listener} as soon as it is final, so that a
 * run that fails later keeps what it measured.
 */
final class Benchmark {
    static final String PILE = Choices.SweepScene.PILE.label();
    static final String RANDOM = Choices.SweepScene.RANDOM.label();
    static final String CPU = Choices.BenchBackend.CPU.label();
    static final String OPENCL = Choices.BenchBackend.OPENCL.label();
    static final String NAIVE = Choices.BenchBackend.NAIVE.label();
    static final String JBULLET = Choices.BenchBackend.JBULLET.label();
    static final String BANDWIDTH = Choices.BenchBackend.BANDWIDTH.label();
    static final String SINGLE_PASS = "single-pass";
    static final String ITERATIVE = "iterative";
    static final String SOFT_STEP = io.contactsolver.SolverKind.SOFT_STEP.label();
    static final String HOST_COPY = "copy";
    static final String UPLOAD = "upload";
    static final String READBACK = "readback";
    static final String DEVICE_COPY = "device-copy";
    static final long BATCH_NANOS = 20_000_000L;
    /**
     * Timed batches of each of the module's rows at least, whatever {@code --min-time}: its time
     * and host time are medians over them, and a median of three lets one stall of the host's
     * thread (waiting for a core: 20 ms in a stretch whose median is 1.3 ms) decide a row whose
     * solve is long, a batch then being one solve (docs/performance.md, "The benchmark").
     */
    static final int MIN_BATCHES = 10;

    /**
     * What to measure.
     *
     * @param step whether to time the soft step on the pile
     * @param stepMaxContacts the largest of {@code contactCounts} the step section runs at
     * @param warmUpSeconds the time each of the module's configurations spends in untimed solves
     *        before its timing, beyond the one to three it always runs
     */
    record Plan(List<Integer> contactCounts, Set<Choices.SweepScene> scenes, Set<Choices.BenchBackend> backends, boolean sweep,
            boolean iterative, boolean step, int stepMaxContacts, int threads, long seed, double minSeconds,
            double warmUpSeconds, String device, int pileParticles) {
        /** The sizes the step section runs at. */
        List<Integer> stepContactCounts() {
            return step ? contactCounts.stream().filter(c -> c <= stepMaxContacts).toList() : List.of();
        }
    }

    /** Told each result as soon as it is final. */
    interface Listener {
        void row(Measurement row) throws java.io.IOException;

        void loopCost(LoopCost cost) throws java.io.IOException;
    }

    private final Plan plan;
    private final Consumer<String> progress;
    private final Listener listener;
    private final List<Measurement> rows = new ArrayList<>();
    private final List<LoopCost> loopCosts = new ArrayList<>();

    /**
     * @param progress told, before each measurement, what it is (the progress bar's message)
     * @param listener told each row and iteration cost as soon as it is measured
     */
    Benchmark(Plan plan, Consumer<String> progress, Listener listener) {
        this.plan = plan;
        this.progress = progress;
        this.listener = listener;
    }

    /** A final row: kept for the tables at the end, and told to the listener now. */
    private void emit(Measurement row) throws java.io.IOException {
        rows.add(row);
        listener.row(row);
    }

    private void emit(LoopCost cost) throws java.io.IOException {
        loopCosts.add(cost);
        listener.loopCost(cost);
    }

    /** How many {@link #progress} calls the plan makes: the progress bar's length. */
    int steps() {
        int perSize = plan.backends().size() + 1;
        int sweep = plan.sweep() ? plan.contactCounts().size() * plan.scenes().size() * perSize : 0;
        long costed = plan.contactCounts().stream().filter(c -> c <= 1_000_000).count();
        int moduleBackends = (plan.backends().contains(Choices.BenchBackend.CPU) ? 2 : 0)
                + (plan.backends().contains(Choices.BenchBackend.OPENCL) ? 1 : 0);
        int step = plan.stepContactCounts().size() * (1 + moduleBackends);
        return sweep + (plan.iterative() ? 4 + 3 * (int) costed + 3 : 0) + step;
    }

    /** The loop-cost rows of the last {@link #run}. */
    List<LoopCost> loopCosts() {
        return loopCosts;
    }

    List<Measurement> run() throws Exception {
        if (plan.sweep()) {
            for (Choices.SweepScene scene : plan.scenes()) {
                for (int contacts : plan.contactCounts()) {
                    sweep(scene.label(), contacts);
                }
            }
        }
        if (plan.iterative()) {
            convergence("stack10", SceneGenerator.boxStack(10, 0.0f, plan.seed()));
            convergence("pile" + plan.pileParticles(), SceneGenerator.pile(plan.seed(), plan.pileParticles(), 0.3f));
            for (int contacts : plan.contactCounts()) {
                if (contacts <= 1_000_000) {
                    progress.accept("iteration cost: pile of " + contacts + " contacts");
                    loopCost(new CostScene(PILE + "-" + contacts, scene(PILE, plan.seed(), contacts), COST_FRICTION,
                            0.0f));
                }
            }
            progress.accept("iteration cost: the main job's heap (" + MAIN_JOB_STEPS + " demo steps)");
            loopCost(new CostScene(MAIN_JOB, mainJobScene(plan.threads()),
                    io.contactsolver.demo.DemoCommand.DEFAULT_FRICTION,
                    io.contactsolver.demo.DemoCommand.DEFAULT_ROLLING_RESISTANCE));
        }
        for (int contacts : plan.stepContactCounts()) {
            step(contacts);
        }
        return rows;
    }

    /**
     * Writes one element of every input field back with its own value, so that the next solve
     * sends all its inputs to a device, as a simulation step does (new velocities, new contacts);
     * otherwise the OpenCL path would skip the fields it already holds and time no uploads.
     */
    static void rewriteInputs(BodyBatch bodies, ContactBatch contacts) {
        rewriteContacts(contacts);
        if (bodies.size() > 0) {
            bodies.setPosition(0, bodies.getPosition(0, new Vector3f()))
                    .setOrientation(0, bodies.getOrientation(0, new Quaternionf()))
                    .setLinearVelocity(0, bodies.getLinearVelocity(0, new Vector3f()))
                    .setAngularVelocity(0, bodies.getAngularVelocity(0, new Vector3f()))
                    .setInverseMass(0, bodies.inverseMass(0))
                    .setInverseInertia(0, bodies.get(BodyField.INV_IXX, 0), bodies.get(BodyField.INV_IYY, 0),
                            bodies.get(BodyField.INV_IZZ, 0), bodies.get(BodyField.INV_IXY, 0),
                            bodies.get(BodyField.INV_IXZ, 0), bodies.get(BodyField.INV_IYZ, 0));
        }
    }

    /** The contacts' half of {@link #rewriteInputs}: what a simulation's new contact list sends each step. */
    static void rewriteContacts(ContactBatch contacts) {
        if (contacts.size() > 0) {
            contacts.setBodies(0, contacts.bodyA(0), contacts.bodyB(0));
            for (ContactField field : ContactField.values()) {
                contacts.set(field, 0, contacts.get(field, 0));
            }
        }
    }

    /** The scene of that kind with about {@code contacts} contacts, about four a body. */
    static Scene scene(String kind, long seed, int contacts) {
        return PILE.equals(kind) ? SceneGenerator.pileWithContacts(seed, contacts, 0.3f)
                : SceneGenerator.randomGraph(seed, Math.max(2, contacts / 4), contacts);
    }

    /** Bytes a single pass must at least move: every input read once, every output written once. */
    static double compulsoryBytesPerContact(int bodies, int contacts) {
        long perBody = (io.contactsolver.layout.BodyField.COUNT + io.contactsolver.layout.DeltaField.COUNT) * 4L;
        long perContact = (io.contactsolver.layout.ContactField.COUNT + io.contactsolver.layout.ContactBody.COUNT + 1) * 4L;
        return perContact + (double) perBody * bodies / Math.max(1, contacts);
    }

    // ---- the size sweep -------------------------------------------------------------------------

    private void sweep(String kind, int requestedContacts) throws Exception {
        progress.accept(kind + " " + requestedContacts + ": generating");
        long before = usedMemory();
        Scene scene = scene(kind, plan.seed(), requestedContacts);
        long sceneBytes = usedMemory() - before;
        int bodies = scene.bodies().size();
        int contacts = scene.contacts().size();
        double bytes = compulsoryBytesPerContact(bodies, contacts);

        List<Measurement> moduleRows = new ArrayList<>();
        List<ModuleRunner> runners = moduleRunnersAtEachThreadCount(() -> scene, SolveSettings.singlePass(),
                Measurement.row().scene(kind).backend(OPENCL).solver(SINGLE_PASS).contacts(contacts).bodies(bodies)
                        .iterations(1).bytesPerContact(bytes), moduleRows);
        for (ModuleRunner runner : runners) {
            progress.accept(kind + " " + contacts + ": " + runner.label());
        }
        double[][] seconds = timeRoundRobin(runners);
        SolveResult reference = runners.isEmpty() ? null : runners.get(0).result();
        for (int r = 0; r < runners.size(); r++) {
            ModuleRunner runner = runners.get(r);
            moduleRows.add(runner.row(kind, median(seconds[r])).repeats(seconds[r].length).bytesPerContact(bytes)
                    .build());
        }
        for (ModuleRunner runner : runners) {
            runner.close();
        }
        for (Measurement row : withModuleMemory(moduleRows, scene, sceneBytes)) {
            emit(row);
        }

        if (plan.backends().contains(Choices.BenchBackend.NAIVE)) {
            progress.accept(kind + " " + contacts + ": naive");
            NaiveSolver naive = new NaiveSolver(scene.bodies(), scene.contacts());
            naive.solve();
            String agreement = reference == null ? "" : agreement(reference, naive.contacts, c -> c.impulse);
            double[] times = timeAlone(naive::solve);
            emit(Measurement.row().scene(kind).backend(NAIVE).solver(SINGLE_PASS).contacts(contacts)
                    .bodies(bodies).threads(1).iterations(1).secondsPerSolve(median(times)).bytesPerContact(bytes)
                    .repeats(times.length).note(agreement).build());
        }
        if (plan.backends().contains(Choices.BenchBackend.JBULLET)) {
            progress.accept(kind + " " + contacts + ": jbullet");
            if (JBulletBaseline.supports(scene.bodies())) {
                JBulletBaseline jbullet = new JBulletBaseline(scene.bodies(), scene.contacts());
                jbullet.solve();
                String agreement = reference == null ? "" : agreement(reference, jbullet.impulses);
                double[] times = timeAlone(jbullet::solve);
                emit(Measurement.row().scene(kind).backend(JBULLET).solver(SINGLE_PASS).contacts(contacts)
                        .bodies(bodies).threads(1).iterations(1).secondsPerSolve(median(times))
                        .bytesPerContact(bytes).repeats(times.length).note(agreement).build());
            } else {
                emit(Measurement.row().scene(kind).backend(JBULLET).solver(SINGLE_PASS).contacts(contacts)
                        .bodies(bodies).threads(1).iterations(1).bytesPerContact(bytes)
                        .note("skipped: JBullet keeps a diagonal body-space inertia only; this scene's is full")
                        .build());
            }
        }
        if (plan.backends().contains(Choices.BenchBackend.BANDWIDTH)) {
            progress.accept(kind + " " + contacts + ": bandwidth");
            long dataBytes = (long) (bytes * contacts);
            for (int threads : plan.threads() > 1 ? new int[] {1, plan.threads()} : new int[] {1}) {
                try (BandwidthProbe probe = new BandwidthProbe(dataBytes, threads)) {
                    probe.copy();
                    double[] times = timeAlone(probe::copy);
                    // a copy of the scene's bytes, quoted per contact so the GB/s column reads alike
                    double perContact = (double) probe.bytesPerCopy() / contacts;
                    emit(Measurement.row().scene(kind).backend(BANDWIDTH).solver(HOST_COPY).contacts(contacts)
                            .bodies(bodies).threads(threads).secondsPerSolve(median(times))
                            .bytesPerContact(perContact).repeats(times.length)
                            .note("System.arraycopy of " + probe.bytesPerCopy() / 2 + " bytes").build());
                }
            }
            if (plan.backends().contains(Choices.BenchBackend.OPENCL)) {
                deviceBandwidth(kind, contacts, bodies, dataBytes);
            }
        }
    }

    /**
     * The OpenCL path's limits on this scene's bytes: the link up and down, and a copy within the
     * device's memory (read plus written, like a kernel's traffic). Device-profiled, as the
     * solve's split is.
     */
    private void deviceBandwidth(String kind, int contacts, int bodies, long dataBytes) throws java.io.IOException {
        try (TransferProbe probe = TransferProbe.open(Optional.ofNullable(plan.device()), dataBytes)) {
            String note = "device '" + probe.deviceName() + "', " + probe.bytes() + " bytes";
            addProbeRow(kind, contacts, bodies, UPLOAD, probe.bytes(), probe::upload, note);
            addProbeRow(kind, contacts, bodies, READBACK, probe.bytes(), probe::readback, note);
            addProbeRow(kind, contacts, bodies, DEVICE_COPY, 2 * probe.bytes(), probe::deviceCopy, note);
        } catch (LinkageError | RuntimeException e) {
            emit(Measurement.row().scene(kind).backend(BANDWIDTH).solver(DEVICE_COPY).contacts(contacts)
                    .bodies(bodies).note("skipped: " + e.getMessage()).build());
        }
    }

    private void addProbeRow(String kind, int contacts, int bodies, String what, long bytesMoved,
            DoubleSupplier copy, String note) throws java.io.IOException {
        List<Double> samples = new ArrayList<>();
        double spent = 0;
        while (samples.size() < 3 || (spent < plan.minSeconds() && samples.size() < 200)) {
            double seconds = copy.getAsDouble();
            spent += seconds;
            samples.add(seconds);
        }
        double[] seconds = samples.stream().mapToDouble(Double::doubleValue).toArray();
        emit(Measurement.row().scene(kind).backend(BANDWIDTH).solver(what).contacts(contacts).bodies(bodies)
                .secondsPerSolve(median(seconds)).bytesPerContact((double) bytesMoved / contacts)
                .repeats(seconds.length).note(note).build());
    }

    /**
     * The module's rows of one scene with each backend's own working memory added: made alone,
     * solved once, measured after a full collection. A skipped row is left as it is.
     */
    private List<Measurement> withModuleMemory(List<Measurement> moduleRows, Scene scene, long sceneBytes)
            throws Exception {
        List<Measurement> measured = new ArrayList<>(moduleRows);
        for (Measurement row : moduleRows) {
            if (row.note().startsWith("skipped")) {
                continue;
            }
            long before = usedMemory();
            ModuleRunner runner = row.backend().equals(CPU)
                    ? new ModuleRunner(CPU, Backend.CPU, row.threads(), scene, SolveSettings.singlePass())
                    : ModuleRunner.openClOrNull(scene, SolveSettings.singlePass(), plan.device(), plan.threads());
            if (runner == null) {
                continue;
            }
            runner.solveOnce();
            long working = usedMemory() - before;
            runner.close();
            measured.set(moduleRows.indexOf(row), withMemory(row, sceneBytes + working));
        }
        return measured;
    }

    private static Measurement withMemory(Measurement row, long bytes) {
        return row.toBuilder().memoryBytes(bytes)
                .note(row.backend().equals(OPENCL) ? row.note() + "; memory: JVM only, not the device's" : "").build();
    }

    // ---- the iterative solver -------------------------------------------------------------------

    /** Iterations to a residual of 1e-4, on each backend, and the cost of an iteration there. */
    private void convergence(String name, Scene scene) throws Exception {
        SolveSettings settings = SolveSettings.iterative(200_000).withTolerance(1e-4f);
        for (ModuleRunner runner : moduleRunners(scene, settings)) {
            progress.accept(name + ": " + runner.label() + " to 1e-4");
            runner.warmUp(SolveSettings.iterative(50));
            warmUpForSeconds(runner);
            double[] times = timeAlone(runner, 1);
            emit(runner.row(name, median(times)).repeats(times.length).build());
            runner.close();
        }
    }

    /** The friction coefficient of the pile's frictional loop-cost rows: a typical granular value. */
    static final float COST_FRICTION = 0.5f;
    /** Iterations of the shorter of the two timed solves of a loop-cost row. */
    static final int COST_ITERATIONS = 10;
    /**
     * Contact-iterations the longer solve adds at least: 20 iterations of 100,000 contacts. A
     * smaller scene runs more iterations, so that they, not the noise of its set-up, make the
     * difference (1,000 contacts: 2,000 more).
     */
    static final long COST_EXTRA_CONTACT_ITERATIONS = 2_000_000L;

    /** Iterations of the longer solve of a loop-cost row on {@code contacts} contacts. */
    static int longCostIterations(int contacts) {
        long extra = Math.max(20L, COST_EXTRA_CONTACT_ITERATIONS / Math.max(1, contacts));
        return (int) Math.min(100_000L, COST_ITERATIONS + extra);
    }
    static final String MAIN_JOB = "main-job-heap";

    /** A scene of the loop-cost table and the friction its frictional rows carry. */
    private record CostScene(String name, Scene scene, float friction, float rollingResistance) {
    }

    /**
     * The iterative loop's cost ({@link LoopCost}) on {@code scene}: frictionless and with its
     * friction, on the CPU at one thread and at all, and on OpenCL where present.
     */
    private void loopCost(CostScene scene) throws Exception {
        Scene frictionless = copyWithFriction(scene.scene(), 0.0f, 0.0f);
        Scene frictional = copyWithFriction(scene.scene(), scene.friction(), scene.rollingResistance());
        String frictionLabel = String.format(java.util.Locale.ROOT, "mu %s", scene.friction())
                + (scene.rollingResistance() > 0 ? String.format(java.util.Locale.ROOT, " rho %s",
                        scene.rollingResistance()) : "");
        for (Scene variant : List.of(frictionless, frictional)) {
            String friction = variant == frictionless ? "none" : frictionLabel;
            progress.accept("iteration cost " + scene.name() + ", friction " + friction);
            SolveSettings shorter = SolveSettings.iterative(COST_ITERATIONS);
            SolveSettings longer = SolveSettings.iterative(longCostIterations(variant.contacts().size()));
            List<ModuleRunner> runners = new ArrayList<>();
            List<Integer> threads = new ArrayList<>();
            if (plan.backends().contains(Choices.BenchBackend.CPU)) {
                for (int count : plan.threads() > 1 ? List.of(1, plan.threads()) : List.of(1)) {
                    ModuleRunner first = new ModuleRunner(CPU, Backend.CPU, count, variant, shorter);
                    runners.add(first);
                    runners.add(first.withSettings(longer)); // the same solver: its arrays, not a second set
                    threads.add(count);
                }
            }
            if (plan.backends().contains(Choices.BenchBackend.OPENCL)) {
                ModuleRunner first = ModuleRunner.openClOrNull(variant, shorter, plan.device(), plan.threads());
                if (first != null) {
                    runners.add(first);
                    runners.add(first.withSettings(longer)); // the same device program and buffers
                    threads.add(first.computeUnits());
                }
            }
            double[][] seconds = timeRoundRobin(runners);
            for (int k = 0; k < runners.size(); k += 2) {
                ModuleRunner longRunner = runners.get(k + 1);
                int shortIterations = runners.get(k).result().iterations();
                int longIterations = longRunner.result().iterations();
                if (longIterations <= shortIterations) {
                    throw new IllegalStateException("a loop-cost solve of " + scene.name() + " reached a residual "
                            + "of 0 within " + longIterations + " iterations: no iterations to time");
                }
                // the fastest batch: the same work every time, so anything slower is the machine's noise
                emit(new LoopCost(
                        new LoopCost.Subject(scene.name(), friction, runners.get(k).backendLabel(), threads.get(k / 2),
                                variant.contacts().size()),
                        new LoopCost.TimedSolve(shortIterations, Arrays.stream(seconds[k]).min().orElse(0)),
                        new LoopCost.TimedSolve(longIterations, Arrays.stream(seconds[k + 1]).min().orElse(0)),
                        longRunner.loopNanosPerContactIteration()));
            }
            for (ModuleRunner runner : runners) {
                runner.close(); // the second of each pair leaves the shared solver to the first
            }
        }
    }

    /** A copy of {@code scene} whose contacts all carry friction {@code mu} and rolling resistance {@code rho}. */
    private static Scene copyWithFriction(Scene scene, float mu, float rho) {
        ContactBatch contacts = Batches.copyOf(scene.contacts());
        for (int c = 0; c < contacts.size(); c++) {
            contacts.setFriction(c, mu).setRollingResistance(c, rho);
        }
        return new Scene(scene.bodies(), scene.bodyIds(), contacts);
    }

    /**
     * The main job's scene: the {@code demo} command's heap at its defaults, stepped on the CPU
     * until every sphere is poured and the heap has settled for a while (where the run spends most
     * of its steps), then the input of the next step's velocity solve.
     */
    static Scene mainJobScene(int threads) {
        try (io.contactsolver.ContactSolver solver = io.contactsolver.ContactSolver.create(
                io.contactsolver.SolverConfig.defaults().withBackend(Backend.CPU).withThreads(threads))) {
            io.contactsolver.demo.Simulation simulation = io.contactsolver.demo.DemoCommand.defaultSimulation();
            for (int step = 1; step < MAIN_JOB_STEPS; step++) {
                simulation.step(solver);
            }
            return simulation.nextSolveInput();
        }
    }

    /** Steps of the main job before its scene is taken: all 4,000 spheres are in after about 1,150. */
    static final int MAIN_JOB_STEPS = 1_400;

    /**
     * CPU on one thread and on all, and OpenCL, as the plan's backends ask. Where OpenCL is asked for
     * but cannot be used, {@code skipped} (the row's figures so far) goes to {@code rows} with the
     * reason as its note.
     */
    private List<ModuleRunner> moduleRunnersAtEachThreadCount(Supplier<Scene> scene, SolveSettings settings,
            Measurement.Builder skipped, List<Measurement> rows) {
        List<ModuleRunner> runners = new ArrayList<>();
        if (plan.backends().contains(Choices.BenchBackend.CPU)) {
            runners.add(new ModuleRunner(CPU, Backend.CPU, 1, scene.get(), settings));
            if (plan.threads() > 1) {
                runners.add(new ModuleRunner(CPU, Backend.CPU, plan.threads(), scene.get(), settings));
            }
        }
        if (plan.backends().contains(Choices.BenchBackend.OPENCL)) {
            ModuleRunner openCl = ModuleRunner.openClOrNull(scene.get(), settings, plan.device(), plan.threads());
            if (openCl != null) {
                runners.add(openCl);
            } else {
                rows.add(skipped.note("skipped: " + ModuleRunner.openClUnavailableReason()).build());
            }
        }
        return runners;
    }

    // ---- the soft step --------------------------------------------------------------------------

    /**
     * {@code ContactSolver.step} with {@code SolveSettings.softStep()} on the pile of about
     * {@code requestedContacts} contacts, on each of the module's backends, timed round-robin as the
     * sweep is. Each backend steps its own copy of the scene, so all start from the same bodies and
     * none sees another's; the contacts are held as generated (there is no collision detection).
     */
    private void step(int requestedContacts) throws Exception {
        progress.accept(PILE + " " + requestedContacts + ": generating, soft step");
        SolveSettings settings = SolveSettings.softStep();
        Scene template = scene(PILE, plan.seed(), requestedContacts);
        int contacts = template.contacts().size();
        int bodies = template.bodies().size();
        List<Measurement> stepRows = new ArrayList<>();
        List<ModuleRunner> runners = moduleRunnersAtEachThreadCount(
                () -> new Scene(Batches.copyOf(template.bodies()), template.bodyIds(),
                        Batches.copyOf(template.contacts())), settings,
                Measurement.row().scene(PILE).backend(OPENCL).solver(SOFT_STEP).contacts(contacts).bodies(bodies),
                stepRows);
        for (ModuleRunner runner : runners) {
            progress.accept(PILE + " " + contacts + ": " + runner.label() + ", soft step");
        }
        double[][] seconds = timeRoundRobin(runners);
        for (int r = 0; r < runners.size(); r++) {
            stepRows.add(runners.get(r).row(PILE, median(seconds[r])).repeats(seconds[r].length).build());
            runners.get(r).close();
        }
        for (Measurement row : stepRows) {
            emit(row);
        }
    }

    /** CPU on all threads and OpenCL, where present. */
    private List<ModuleRunner> moduleRunners(Scene scene, SolveSettings settings) {
        List<ModuleRunner> runners = new ArrayList<>();
        if (plan.backends().contains(Choices.BenchBackend.CPU)) {
            runners.add(new ModuleRunner(CPU, Backend.CPU, plan.threads(), scene, settings));
        }
        if (plan.backends().contains(Choices.BenchBackend.OPENCL)) {
            ModuleRunner openCl = ModuleRunner.openClOrNull(scene, settings, plan.device(), plan.threads());
            if (openCl != null) {
                runners.add(openCl);
            }
        }
        return runners;
    }

    // ---- timing ---------------------------------------------------------------------------------

    /** What a batch repeats; told where each timed batch starts and ends, as a runner that keeps figures a batch is. */
    @FunctionalInterface
    interface Work {
        void run() throws Exception;

        /** A timed batch starts. */
        default void startBatch() {
        }

        /** The timed batch started last ends, after {@code runs} runs. */
        default void endBatch(int runs) {
        }
    }

    /** Times the runners in turn, batch by batch, until each has run long enough. */
    private double[][] timeRoundRobin(List<ModuleRunner> runners) throws Exception {
        int count = runners.size();
        int[] perBatch = new int[count];
        for (int r = 0; r < count; r++) {
            runners.get(r).solveOnce(); // warm-up: JIT, device buffers, kernel first runs
            warmUpForSeconds(runners.get(r));
            perBatch[r] = batchSize(runners.get(r)::solveOnce);
            runners.get(r).forgetPhases(); // the split must describe the timed solves, as the median does
        }
        List<List<Double>> samples = new ArrayList<>();
        for (int r = 0; r < count; r++) {
            samples.add(new ArrayList<>());
        }
        long budget = (long) (plan.minSeconds() * 1e9);
        long[] spent = new long[count];
        for (int round = 0; round < 200; round++) {
            boolean done = round >= MIN_BATCHES;
            for (int r = 0; r < count; r++) {
                if (round >= MIN_BATCHES && spent[r] >= budget) {
                    continue;
                }
                done = false;
                runners.get(r).startBatch();
                long start = System.nanoTime();
                for (int k = 0; k < perBatch[r]; k++) {
                    runners.get(r).solveOnce();
                }
                long elapsed = System.nanoTime() - start;
                runners.get(r).endBatch(perBatch[r]);
                spent[r] += elapsed;
                samples.get(r).add(elapsed / 1e9 / perBatch[r]);
            }
            if (done) {
                break;
            }
        }
        double[][] seconds = new double[count][];
        for (int r = 0; r < count; r++) {
            seconds[r] = samples.get(r).stream().mapToDouble(Double::doubleValue).toArray();
        }
        return seconds;
    }

    /**
     * Untimed solves on {@code runner} until {@code --warm-up}'s seconds have passed: the host's
     * code runs once a solve, so where a solve is long the JIT has seen it little after one.
     */
    private void warmUpForSeconds(ModuleRunner runner) throws Exception {
        long end = System.nanoTime() + (long) (plan.warmUpSeconds() * 1e9);
        while (System.nanoTime() < end) {
            runner.solveOnce();
        }
    }

    /** Times one piece of work on its own (warmed up by the caller) in batches. */
    private double[] timeAlone(Work work) throws Exception {
        return timeAlone(work, 3);
    }

    private double[] timeAlone(Work work, int minSamples) throws Exception {
        int perBatch = batchSize(work);
        long budget = (long) (plan.minSeconds() * 1e9);
        List<Double> samples = new ArrayList<>();
        long spent = 0;
        while (samples.size() < minSamples || (spent < budget && samples.size() < 200)) {
            work.startBatch();
            long start = System.nanoTime();
            for (int k = 0; k < perBatch; k++) {
                work.run();
            }
            long elapsed = System.nanoTime() - start;
            work.endBatch(perBatch);
            spent += elapsed;
            samples.add(elapsed / 1e9 / perBatch);
        }
        return samples.stream().mapToDouble(Double::doubleValue).toArray();
    }

    /** Repetitions per batch so that a batch lasts at least {@link #BATCH_NANOS}. */
    private static int batchSize(Work work) throws Exception {
        long start = System.nanoTime();
        work.run();
        long once = Math.max(1, System.nanoTime() - start);
        return (int) Math.max(1, Math.min(100_000, BATCH_NANOS / once));
    }

    /**
     * The solvers a scene stepped frame by frame is measured on (the pyramid, the lattice): the CPU
     * at 1 thread and at {@code cores} if {@code cpu}, each once, then OpenCL on {@code device} (null:
     * the automatic choice) if {@code openCl}.
     */
    static List<SolverConfig> configurations(int cores, boolean cpu, boolean openCl, String device) {
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
        return configs;
    }

    /** A soft step's sweeps as the tables name them: {@code 4 substeps x (1 soft + 1 relax)}. */
    static String sweeps(SoftStepSettings soft) {
        return soft.substeps() + " substeps x (" + soft.iterations() + " soft + " + soft.relaxIterations() + " relax)";
    }

    /** The phases the host's clock times; {@link SolvePhase#TRANSFER} is a device's only. */
    static final List<SolvePhase> HOST_PHASES = List.of(SolvePhase.VALIDATE, SolvePhase.SET_UP, SolvePhase.SOLVE,
            SolvePhase.OUTPUT, SolvePhase.INTEGRATE);
    /** The phases a device's clock times: its kernels ({@link SolvePhase#SOLVE}) and its copies ({@link SolvePhase#TRANSFER}). */
    static final List<SolvePhase> DEVICE_PHASES = List.of(SolvePhase.SOLVE, SolvePhase.TRANSFER);

    /** A phase as the tables name it: {@code SET_UP} as {@code set-up}. */
    static String phaseLabel(SolvePhase phase) {
        return phase.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** Every body's position, orientation and velocities, as raw bits: what "the same trajectory" compares. */
    static int[] motionBits(BodyBatch bodies) {
        FloatBuffer data = bodies.data();
        int fields = BodyField.WZ.ordinal() + 1; // X to WZ; mass and inertia do not move
        int[] bits = new int[fields * bodies.size()];
        for (int f = 0; f < fields; f++) {
            for (int i = 0; i < bodies.size(); i++) {
                bits[f * bodies.size() + i] = Float.floatToRawIntBits(data.get(f * bodies.capacity() + i));
            }
        }
        return bits;
    }

    /**
     * {@code steps} steps of each of {@code runs} (each given the step's index), step by step in
     * turn, the order reversed every step so that none always goes first: the bench's configurations
     * run with {@code --threads-in-turn}.
     */
    static void inTurn(int steps, List<IntConsumer> runs) {
        for (int step = 0; step < steps; step++) {
            for (int n = 0; n < runs.size(); n++) {
                runs.get((step & 1) == 0 ? n : runs.size() - 1 - n).accept(step);
            }
        }
    }

    /** A solver for each of {@code configs}, handed to {@code work}; every one closed after it, whatever it threw. */
    static <T> T withSolvers(List<SolverConfig> configs, Function<List<ContactSolver>, T> work) {
        List<ContactSolver> solvers = new ArrayList<>();
        try {
            for (SolverConfig config : configs) {
                solvers.add(ContactSolver.create(config));
            }
            return work.apply(solvers);
        } finally {
            for (ContactSolver solver : solvers) {
                solver.close();
            }
        }
    }

    /**
     * One round's ratio of two configurations' times as the in-turn lines print it: {@code " 1.62x
     * (14.47 / 8.93)"}, the slower (fewer threads or workers) first.
     */
    static String roundRatio(double fewer, double more) {
        return String.format(Locale.ROOT, " %.2fx (%.2f / %.2f)", fewer / more, fewer, more);
    }

    static double median(List<Double> values) {
        return median(values.stream().mapToDouble(Double::doubleValue).toArray());
    }

    static double median(double[] values) {
        if (values.length == 0) {
            return 0.0;
        }
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int middle = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }

    // ---- agreement and memory -------------------------------------------------------------------

    @FunctionalInterface
    interface ImpulseOf<T> {
        float of(T contact);
    }

    private static <T> String agreement(SolveResult reference, List<T> contacts, ImpulseOf<T> impulse) {
        float[] impulses = new float[contacts.size()];
        for (int c = 0; c < impulses.length; c++) {
            impulses[c] = impulse.of(contacts.get(c));
        }
        return agreement(reference, impulses);
    }

    /** How far a baseline's impulses are from the module's, relative to the largest. */
    static String agreement(SolveResult reference, float[] impulses) {
        double largest = 1e-30;
        double worst = 0.0;
        for (int c = 0; c < impulses.length; c++) {
            largest = Math.max(largest, Math.abs(reference.impulse(c)));
            worst = Math.max(worst, Math.abs(reference.impulse(c) - impulses[c]));
        }
        return String.format(java.util.Locale.ROOT, "impulses within %.1e of the module's (relative to the largest)",
                worst / largest);
    }

    /**
     * Heap plus direct buffers in use once nothing more is freed. Direct buffers go back after a
     * collection, when the JVM's cleaner gets to them, so this collects until two readings agree.
     */
    static long usedMemory() throws InterruptedException {
        long previous = -1;
        for (int attempt = 0; attempt < 20; attempt++) {
            System.gc();
            Thread.sleep(20);
            long used = heapAndDirect();
            if (Math.abs(used - previous) < (1 << 20)) {
                return used;
            }
            previous = used;
        }
        return previous;
    }

    private static long heapAndDirect() {
        long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
        long direct = 0;
        for (BufferPoolMXBean pool : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
            if (pool.getName().equals("direct")) {
                direct = pool.getMemoryUsed();
            }
        }
        return heap + direct;
    }
}
