package io.contactsolver.bench;

import io.contactsolver.Backend;
import io.contactsolver.ContactSolver;
import io.contactsolver.SolveResult;
import io.contactsolver.SolveSettings;
import io.contactsolver.SolverConfig;
import io.contactsolver.layout.SolvePhase;
import io.contactsolver.scene.Scene;
import java.util.Arrays;

/** One of the module's backends, timed on one scene with one setting. */
final class ModuleRunner implements AutoCloseable {
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
    private final long[] phaseNanos = new long[SolvePhase.values().length];
    private int solves;

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

    /** The CPU's own timing of its iterations (phase ITERATE) per contact-iteration, or NaN for a device. */
    double loopNanosPerContactIteration() {
        if (name.equals(Benchmark.OPENCL) || solves == 0) {
            return Double.NaN;
        }
        return mean(SolvePhase.ITERATE) * 1e9 / Math.max(1, result.iterations()) / Math.max(1, scene.contacts().size());
    }

    String label() {
        return name + (name.equals(Benchmark.CPU) ? " x" + threads : "");
    }

    void solveOnce() {
        SolveResult swap = previous;
        previous = result;
        result = swap;
        Benchmark.rewriteInputs(scene.bodies(), scene.contacts());
        solver.solve(scene.bodies(), scene.contacts(), settings, result);
        for (SolvePhase phase : SolvePhase.values()) {
            phaseNanos[phase.ordinal()] += result.phaseNanos(phase);
        }
        solves++;
    }

    SolveResult result() {
        return result;
    }

    /** Drops the phase times gathered so far (warm-up and calibration solves). */
    void forgetPhases() {
        Arrays.fill(phaseNanos, 0);
        solves = 0;
    }

    /** A few solves with other settings, so the JIT has compiled the solver before the timed run. */
    void warmUp(SolveSettings warmUpSettings) {
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
        double packing = 0;
        for (SolvePhase phase : SolvePhase.values()) {
            if (phase.isHostPacking()) {
                packing += mean(phase);
            }
        }
        boolean device = name.equals(Benchmark.OPENCL);
        String note = device ? solver.description() : "";
        if (settings.kind() == io.contactsolver.SolverKind.ITERATIVE) {
            int iterations = Math.max(1, result.iterations());
            int contacts = Math.max(1, scene.contacts().size());
            double perIteration = secondsPerSolve / iterations;
            // the CPU times its loop apart from the rows' set-up; a device's kernels are timed together
            double loopNanos = mean(SolvePhase.ITERATE) * 1e9 / iterations / contacts;
            String loop = loopNanos <= 0 ? "" : String.format(java.util.Locale.ROOT,
                    " (the loop alone %.1f ns, %.1f ns per thread; the rows' set-up %.3g ms)", loopNanos,
                    loopNanos * threads, mean(SolvePhase.ROWS) * 1e3);
            note = String.format(java.util.Locale.ROOT,
                    "%.4g ms per iteration, %.1f ns per contact-iteration%s, residual %.3g%s", perIteration * 1e3,
                    perIteration * 1e9 / contacts, loop, result.residual(), note.isEmpty() ? "" : "; " + note);
        }
        return Measurement.row().scene(sceneName).backend(name).solver(settings.kind().label())
                .contacts(scene.contacts().size()).bodies(scene.bodies().size()).threads(threads)
                .iterations(result.iterations()).residual(result.residual()).secondsPerSolve(secondsPerSolve)
                .packingSeconds(device ? packing : 0)
                .uploadSeconds(device ? mean(SolvePhase.UPLOAD) : 0)
                .kernelSeconds(device ? mean(SolvePhase.KERNELS) : 0)
                .readbackSeconds(device ? mean(SolvePhase.READBACK) : 0).colourSeconds(mean(SolvePhase.COLOUR))
                .note(note);
    }

    private double mean(SolvePhase phase) {
        return solves == 0 ? 0 : phaseNanos[phase.ordinal()] / 1e9 / solves;
    }

    @Override
    public void close() {
        if (ownsSolver) {
            solver.close();
        }
    }
}
