package io.contactsolver.demo;

import io.contactsolver.Backend;
import io.contactsolver.ContactSolver;
import io.contactsolver.SolverConfig;
import io.contactsolver.cli.IoErrors;
import io.contactsolver.cli.Main;
import io.contactsolver.cli.Progress;
import io.contactsolver.scene.AtomicFiles;
import io.contactsolver.scene.AtomicFiles.Output;
import io.contactsolver.scene.Quoting;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code demo}: the main job. Spheres dropped into a box, stepped by {@link Simulation}, with a
 * progress bar, a closing summary, a snapshot and a chart.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = "Drop spheres into a box and simulate them, solving every step's contacts with the module; "
                + "writes a snapshot (particles.png) and a chart (energy-contacts.png).")
public final class DemoCommand implements Callable<Integer> {
    static final String SNAPSHOT = "particles.png";
    static final String CHART = "energy-contacts.png";
    /** Keeps a mistyped count from asking for more memory than a workstation has. */
    static final int MAX_PARTICLES = 2_000_000;
    static final float MAX_TIME_STEP = 0.1f;

    @Spec
    CommandSpec spec;

    @Option(names = "--particles", defaultValue = "25000", paramLabel = "N",
            description = "Spheres (default: ${DEFAULT-VALUE}).")
    int particles;

    @Option(names = "--steps", defaultValue = "600", paramLabel = "N",
            description = "Time steps (default: ${DEFAULT-VALUE}).")
    int steps;

    @Option(names = "--dt", defaultValue = "0.0025", paramLabel = "S",
            description = "Time step in seconds (default: ${DEFAULT-VALUE}).")
    float timeStep;

    @Option(names = "--restitution", defaultValue = "0.3", paramLabel = "E",
            description = "Coefficient of restitution of every contact, 0 to 1 (default: ${DEFAULT-VALUE}).")
    float restitution;

    @Option(names = "--iterations", defaultValue = "10", paramLabel = "N",
            description = "Solver iterations per step (default: ${DEFAULT-VALUE}); the push-out solve gets half as many.")
    int iterations;

    @Option(names = "--backend", defaultValue = "auto", paramLabel = "auto|cpu|opencl",
            description = "Where to solve (default: ${DEFAULT-VALUE}): auto prefers an OpenCL GPU, then any OpenCL device, then the CPU.")
    Backend backend;

    @Option(names = "--seed", defaultValue = "1", paramLabel = "N",
            description = "Random seed of the starting cloud (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--out", defaultValue = "demo-out", paramLabel = "DIR",
            description = "Folder for the pictures (default: ${DEFAULT-VALUE}; created if missing).")
    Path out;

    @Option(names = "--csv", paramLabel = "FILE", description = "Also write the per-step figures to FILE.")
    Path csv;

    @Override
    public Integer call() throws Exception {
        String problem = checkOptions();
        if (problem != null) {
            spec.commandLine().getErr().println("error: " + problem);
            return Main.BAD_INPUT;
        }
        // before the simulation, not after it: a bad --out or --csv fails at once
        String outProblem = IoErrors.outputProblem(out, SNAPSHOT, CHART);
        outProblem = outProblem == null && csv != null ? IoErrors.fileProblem(csv) : outProblem;
        if (outProblem != null) {
            spec.commandLine().getErr().println("error: " + Quoting.escape(outProblem));
            return Main.FAILURE;
        }
        PrintWriter stdout = spec.commandLine().getOut();
        ParticleWorld world = ParticleWorld.drop(particles, seed);
        Simulation simulation = new Simulation(world, Simulation.Settings.of(timeStep, restitution, iterations));
        ContactSolver solver;
        try {
            solver = ContactSolver.create(SolverConfig.defaults().withBackend(backend));
        } catch (IllegalStateException e) {
            spec.commandLine().getErr().println("error: " + e.getMessage());
            return Main.FAILURE;
        }
        List<StepFigures> figures = new ArrayList<>(steps);
        long started = System.nanoTime();
        String device;
        try (solver; Progress bar = Progress.open("demo", steps, " steps", spec.commandLine().getErr())) {
            for (int s = 0; s < steps; s++) {
                StepFigures step = simulation.step(solver);
                figures.add(step);
                double elapsed = (System.nanoTime() - started) / 1e9;
                bar.setExtraMessage(String.format(Locale.ROOT, "%.1f steps/s, %,d contacts/step", (s + 1) / elapsed,
                        step.contacts()));
                bar.step();
            }
            device = solver.description();
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        List<Path> written = writeOutputs(world, figures);
        printSummary(stdout, device, figures, seconds, written);
        return Main.OK;
    }

    /** The first thing wrong with the options, or null. */
    private String checkOptions() {
        if (particles < 1 || particles > MAX_PARTICLES) {
            return "--particles must be between 1 and " + MAX_PARTICLES + ", got " + particles;
        }
        if (steps < 1) {
            return "--steps must be at least 1, got " + steps;
        }
        if (!(timeStep > 0.0f) || !(timeStep <= MAX_TIME_STEP)) {
            return "--dt must be greater than 0 and at most " + MAX_TIME_STEP + " s, got " + timeStep;
        }
        if (!(restitution >= 0.0f) || !(restitution <= 1.0f)) {
            return "--restitution must be between 0 and 1, got " + restitution;
        }
        if (iterations < 1) {
            return "--iterations must be at least 1, got " + iterations;
        }
        return null;
    }

    /** The pictures and the CSV, all written or none (see {@link AtomicFiles}); returns their paths. */
    private List<Path> writeOutputs(ParticleWorld world, List<StepFigures> figures) throws IOException {
        System.setProperty("java.awt.headless", "true");
        StepFigures last = figures.get(figures.size() - 1);
        String snapshotTitle = String.format(Locale.ROOT, "%,d spheres after %,d steps (%.2f s), side view, "
                + "coloured by speed", world.count, last.step(), last.time());
        String chartTitle = String.format(Locale.ROOT, "%,d spheres, dt %s s, restitution %s", world.count, timeStep,
                restitution);
        List<Output> outputs = new ArrayList<>();
        outputs.add(new Output(out.resolve(SNAPSHOT), png -> DemoPictures.snapshot(world, snapshotTitle, png)));
        outputs.add(new Output(out.resolve(CHART), png -> DemoPictures.energyAndContacts(figures, chartTitle, png)));
        if (csv != null) {
            outputs.add(Output.text(csv, text -> StepFigures.writeCsv(figures, text)));
        }
        AtomicFiles.write(outputs);
        return outputs.stream().map(Output::target).toList();
    }

    private void printSummary(PrintWriter stdout, String device, List<StepFigures> figures, double seconds,
            List<Path> written) {
        StepFigures first = figures.get(0);
        StepFigures last = figures.get(figures.size() - 1);
        long solveNanos = figures.stream().mapToLong(StepFigures::solveNanos).sum();
        long contactCount = figures.stream().mapToLong(StepFigures::contacts).sum();
        stdout.printf(Locale.ROOT, "demo: %,d spheres, %,d steps of %s s (%.2f s simulated), restitution %s, "
                + "%d iterations per step, stepped in %.1f s (%.1f steps/s)%n", particles, figures.size(), timeStep,
                last.time(), restitution, iterations, seconds, figures.size() / seconds);
        stdout.println("backend: " + device);
        // both solves of a step (velocity and push-out) count as its solve time
        stdout.printf(Locale.ROOT, "solve: %.2f ms per step on average, %,.0f contacts per second "
                + "(%,d contacts per step on average)%n", solveNanos / 1e6 / figures.size(),
                contactCount / (solveNanos / 1e9), contactCount / figures.size());
        stdout.printf(Locale.ROOT, "kinetic energy: %.4g J after the first step, %.4g J after the last%n",
                first.kineticEnergy(), last.kineticEnergy());
        stdout.printf(Locale.ROOT, "largest remaining approach velocity: %.3g m/s; deepest overlap %.3g mm; "
                + "fastest sphere %.3g m/s%n", last.largestApproach(), last.deepestOverlap() * 1e3, last.maxSpeed());
        stdout.println("wrote " + String.join(", ", written.stream().map(Path::toString).toList()));
    }
}
