package io.contactsolver.bench;

import io.contactsolver.Backend;
import io.contactsolver.ContactSolver;
import io.contactsolver.RigidSettings;
import io.contactsolver.SoftStepSettings;
import io.contactsolver.SolveResult;
import io.contactsolver.SolveSettings;
import io.contactsolver.SolverConfig;
import io.contactsolver.SolverKind;
import io.contactsolver.layout.SolvePhase;
import io.contactsolver.scene.Scene;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.joml.Vector3f;
import org.joml.Vector3fc;

/**
 * One of the module's backends, timed on one scene with one setting: a solve
 * ({@code ContactSolver.solve}), or, with soft-step settings, a step ({@code ContactSolver.step}
 * with {@link #STEP_GRAVITY} and {@link #STEP_TIME}), each warm-started from the one before, its
 * bodies carried on from step to step.
 */
final class ModuleRunner implements Benchmark.Work, AutoCloseable {
    /** The step rows' gravity, as the pyramid's: 10 m/s^2 down y, the pile's up. */
    static final Vector3fc STEP_GRAVITY = new Vector3f(0.0f, PyramidBench.GRAVITY, 0.0f);
    /** The step rows' time step: a frame at 60 Hz, as the pyramid's. */
    static final float STEP_TIME = PyramidBench.FRAME;
    private static String unavailable = "";
    private final String name;
    private final int threads;
    private final Scene scene;
    private final SolveSettings settings;
    private final ContactSolver solver;
    /** Whether {@link #close} closes the solver: false for a runner that shares another's ({@link #withSettings}). */
    private final boolean ownsSolver;
    private SolveResult result = new SolveResult();
    private SolveResult previous = new SolveResult();
    /** The host's and the device's nanoseconds by phase, summed over the solves since {@link #forgetPhases}. */
    private final long[] hostPhaseNanos = new long[SolvePhase.values().length];
    private final long[] devicePhaseNanos = new long[SolvePhase.values().length];
    private int solves;
    /** The host's nanoseconds ({@link #hostSeconds}) over the solves since {@link #forgetPhases}. */
    private long hostNanos;
    private long hostNanosAtBatchStart;
    /** The host's seconds a solve, per timed batch ({@link #startBatch}, {@link #endBatch}). */
    private final List<Double> batchHostSeconds = new ArrayList<>();

    ModuleRunner(String name, Backend backend, int threads, Scene scene, SolveSettings settings) {
        this(name, ContactSolver.create(SolverConfig.defaults().withBackend(backend).withThreads(threads)), threads,
                scene, settings);
    }

    private ModuleRunner(String name, ContactSolver solver, int threads, Scene scene, SolveSettings settings) {
        this(name, solver, true, threads, scene, settings);
    }

    private ModuleRunner(String name, ContactSolver solver, boolean ownsSolver, int threads, Scene scene,
            SolveSettings settings) {
        this.name = name;
        this.solver = solver;
        this.ownsSolver = ownsSolver;
        this.threads = threads;
        this.scene = scene;
        this.settings = settings;
    }

    static ModuleRunner openClOrNull(Scene scene, SolveSettings settings, String device, int hostThreads) {
        try {
            ContactSolver solver = ContactSolver.create(SolverConfig.defaults().withBackend(Backend.OPENCL)
                    .withDevice(device).withThreads(hostThreads));
            return new ModuleRunner(Benchmark.OPENCL, solver, hostThreads, scene, settings);
        } catch (IllegalStateException e) {
            unavailable = e.getMessage();
            return null;
        }
    }

    static String openClUnavailableReason() {
        return unavailable;
    }

    /**
     * A runner of the same scene on this runner's solver (one device program, one set of working
     * arrays) with other settings, timed apart; closing it leaves the solver to this runner.
     */
    ModuleRunner withSettings(SolveSettings other) {
        return new ModuleRunner(name, solver, false, threads, scene, other);
    }

    /** {@code cpu} or {@code opencl}. */
    String backendLabel() {
        return name;
    }

    /** The CPU's threads, or the compute units of the OpenCL device this runner solves on. */
    int computeUnits() {
        if (!name.equals(Benchmark.OPENCL)) {
            return threads;
        }
        String description = solver.description();
        for (io.contactsolver.DeviceInfo info : ContactSolver.devices()) {
            if (description.contains("'" + info.name() + "'")) {
                return info.computeUnits();
            }
        }
        return threads;
    }

    /** The CPU's own timing of its iterations (its host time in phase SOLVE) per contact-iteration, or NaN for a device. */
    double loopNanosPerContactIteration() {
        if (name.equals(Benchmark.OPENCL) || solves == 0) {
            return Double.NaN;
        }
        return meanHost(SolvePhase.SOLVE) * 1e9 / Math.max(1, result.iterations())
                / Math.max(1, scene.contacts().size());
    }

    String label() {
        return name + (name.equals(Benchmark.CPU) ? " x" + threads : "");
    }

    /**
     * One solve or step. Before a solve every input is written back (it sends all its inputs to a
     * device, as a simulation step does); before a step only the contacts are, as a simulation's
     * collision detection makes them anew, while the bodies stay on the device from the step before.
     */
    void solveOnce() {
        SolveResult swap = previous;
        previous = result;
        result = swap;
        if (settings instanceof RigidSettings rigid) {
            Benchmark.rewriteInputs(scene.bodies(), scene.contacts());
            solver.solve(scene.bodies(), scene.contacts(), rigid, result);
        } else {
            Benchmark.rewriteContacts(scene.contacts());
            solver.step(scene.bodies(), scene.contacts(), settings, STEP_GRAVITY, STEP_TIME,
                    previous.contactCount() == scene.contacts().size() ? previous : null, result);
        }
        for (SolvePhase phase : SolvePhase.values()) {
            hostPhaseNanos[phase.ordinal()] += result.hostNanos(phase);
            devicePhaseNanos[phase.ordinal()] += result.deviceNanos(phase);
            hostNanos += result.hostNanos(phase);
        }
        solves++;
    }

    /** Runs {@link #solveOnce}: a batch of {@link Benchmark} repeats it. */
    @Override
    public void run() {
        solveOnce();
    }

    /** A timed batch of solves starts. */
    @Override
    public void startBatch() {
        hostNanosAtBatchStart = hostNanos;
    }

    /** The timed batch started last ends after {@code batchSolves} solves: its host time a solve is kept. */
    @Override
    public void endBatch(int batchSolves) {
        batchHostSeconds.add((hostNanos - hostNanosAtBatchStart) / 1e9 / batchSolves);
    }

    SolveResult result() {
        return result;
    }

    /** Drops the phase times gathered so far (warm-up and calibration solves). */
    void forgetPhases() {
        Arrays.fill(hostPhaseNanos, 0);
        Arrays.fill(devicePhaseNanos, 0);
        solves = 0;
        hostNanos = 0;
        batchHostSeconds.clear();
    }

    /** A few solves with other settings, so the JIT has compiled the solver before the timed run. */
    void warmUp(RigidSettings warmUpSettings) {
        for (int i = 0; i < 3; i++) {
            solver.solve(scene.bodies(), scene.contacts(), warmUpSettings, new SolveResult());
        }
    }

    /**
     * This runner's row on {@code sceneName}, timed at {@code secondsPerSolve}: what the runner knows
     * (size, threads, iterations, residual, the phases' split, the note) set; the caller adds the
     * rest by name (repeats, bytes per contact).
     */
    Measurement.Builder row(String sceneName, double secondsPerSolve) {
        // packing: what the host does before a device sees the job, its checks and its set-up
        double packing = meanHost(SolvePhase.VALIDATE) + meanHost(SolvePhase.SET_UP);
        boolean device = name.equals(Benchmark.OPENCL);
        String note = device ? solver.description() : "";
        if (settings instanceof SoftStepSettings soft) {
            note = String.format(java.util.Locale.ROOT, "%s, residual %.3g%s", Benchmark.sweeps(soft),
                    result.residual(), note.isEmpty() ? "" : "; " + note);
        } else if (settings.kind() == SolverKind.ITERATIVE) {
            int iterations = Math.max(1, result.iterations());
            int contacts = Math.max(1, scene.contacts().size());
            double perIteration = secondsPerSolve / iterations;
            // the CPU times its loop apart from the set-up; a device's kernels are timed together
            double loopNanos = device ? 0 : meanHost(SolvePhase.SOLVE) * 1e9 / iterations / contacts;
            String loop = loopNanos <= 0 ? "" : String.format(java.util.Locale.ROOT,
                    " (the loop alone %.1f ns, %.1f ns per thread; the set-up %.3g ms)", loopNanos,
                    loopNanos * threads, meanHost(SolvePhase.SET_UP) * 1e3);
            note = String.format(java.util.Locale.ROOT,
                    "%.4g ms per iteration, %.1f ns per contact-iteration%s, residual %.3g%s", perIteration * 1e3,
                    perIteration * 1e9 / contacts, loop, result.residual(), note.isEmpty() ? "" : "; " + note);
        }
        if (device) {
            note += hostPhases();
        }
        return Measurement.row().scene(sceneName).backend(name).solver(settings.kind().label())
                .contacts(scene.contacts().size()).bodies(scene.bodies().size()).threads(threads)
                .iterations(result.iterations()).residual(result.residual()).secondsPerSolve(secondsPerSolve)
                .packingSeconds(device ? packing : 0)
                .transferSeconds(meanDevice(SolvePhase.TRANSFER)).kernelSeconds(meanDevice(SolvePhase.SOLVE))
                .setupSeconds(meanHost(SolvePhase.SET_UP))
                .hostSeconds(hostSeconds()).note(note);
    }

    /**
     * Where a device row's host time goes, ms a call (the phases' host times, device waits left
     * out, the mean over the calls since {@link #forgetPhases}), and the device's own time in its
     * kernels and copies: "; host ms: validate .., set-up .., solve .., output .., integrate ..;
     * device ms: kernels .., copies ..".
     */
    private String hostPhases() {
        StringBuilder line = new StringBuilder("; host ms:");
        String separator = " ";
        for (SolvePhase phase : Benchmark.HOST_PHASES) {
            line.append(separator).append(Benchmark.phaseLabel(phase))
                    .append(String.format(java.util.Locale.ROOT, " %.2f", meanHost(phase) * 1e3));
            separator = ", ";
        }
        return line.append(String.format(java.util.Locale.ROOT, "; device ms: kernels %.2f, copies %.2f",
                meanDevice(SolvePhase.SOLVE) * 1e3, meanDevice(SolvePhase.TRANSFER) * 1e3)).toString();
    }

    /**
     * The host's time a call, its waits for a device left out: the sum of the phases' host times
     * ({@code SolveResult.hostNanos}), a call, over the calls since
     * {@link #forgetPhases}; the median over the timed batches, as the row's time is, where there
     * were batches, else the mean.
     */
    double hostSeconds() {
        if (!batchHostSeconds.isEmpty()) {
            return Benchmark.median(batchHostSeconds);
        }
        return solves == 0 ? 0 : hostNanos / 1e9 / solves;
    }

    /** The host's seconds a call in {@code phase}. */
    private double meanHost(SolvePhase phase) {
        return solves == 0 ? 0 : hostPhaseNanos[phase.ordinal()] / 1e9 / solves;
    }

    /** The device's seconds a call in {@code phase}; 0 on the CPU. */
    private double meanDevice(SolvePhase phase) {
        return solves == 0 ? 0 : devicePhaseNanos[phase.ordinal()] / 1e9 / solves;
    }

    @Override
    public void close() {
        if (ownsSolver) {
            solver.close();
        }
    }
}
