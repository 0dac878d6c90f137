package io.contactsolver.demo;

import io.contactsolver.Backend;
import io.contactsolver.ColouringOrder;
import io.contactsolver.ContactSolver;
import io.contactsolver.Quoting;
import io.contactsolver.SoftStepSettings;
import io.contactsolver.SolveSettings;
import io.contactsolver.SolverConfig;
import io.contactsolver.app.BackendOption;
import io.contactsolver.app.ColouringOrderOption;
import io.contactsolver.app.DesktopModule;
import io.contactsolver.app.DeviceOptions;
import io.contactsolver.app.ExitCode;
import io.contactsolver.app.IoErrors;
import io.contactsolver.app.ModeOptions;
import io.contactsolver.app.Progress;
import io.contactsolver.app.Scheme;
import io.contactsolver.app.TextDrawing;
import io.contactsolver.app.TwoSolves;
import io.contactsolver.scene.AtomicFiles.Output;
import io.contactsolver.scene.AtomicFiles;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code demo}: the main job. Spheres dropped into a box or poured into a heap, stepped by
 * {@link Simulation}, with a progress bar, a closing summary, a snapshot, a chart and the final
 * state of every sphere.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = "Pour spheres into a heap (--scene heap) or drop them into a box (--scene box) and simulate "
                + "them, solving every step's contacts with the module; writes a snapshot (particles.png), a chart "
                + "(energy-contacts.png) and the spheres' final state (particles.csv).")
public final class DemoCommand implements Callable<Integer> {
    static final String SNAPSHOT = "particles.png";
    static final String CHART = "energy-contacts.png";
    static final String PARTICLES_CSV = "particles.csv";
    static final String PARTICLES_CSV_HEADER = "id,x,y,z,radius,vx,vy,vz,wx,wy,wz";
    /** Keeps a mistyped count from asking for more memory than a workstation has. */
    static final int MAX_PARTICLES = 2_000_000;
    static final float MAX_TIME_STEP = 0.1f;

    @Spec
    CommandSpec spec;

    // heap by default: it is where friction shows, in a figure (the angle of repose) and a picture
    @Option(names = "--scene", defaultValue = "heap", paramLabel = "heap|box",
            description = "heap: spheres poured from a narrow inlet onto a wide floor until the heap is at rest, and "
                    + "its angle of repose measured; box: spheres dropped into a closed box, for a fixed number of "
                    + "steps (default: ${DEFAULT-VALUE}).")
    DemoScene scene;

    @Option(names = "--particles", paramLabel = "N",
            description = "Spheres (default: 4000 for heap, 25000 for box).")
    Integer particlesOption;

    @Option(names = "--steps", paramLabel = "N",
            description = "Time steps: for heap the most, as it stops once at rest (default: 12000); for box "
                    + "all of them (default: 600).")
    Integer stepsOption;

    /** The main job's defaults, one definition for the options and for {@link #defaultSimulation}. */
    public static final float DEFAULT_TIME_STEP = 0.0025f;
    public static final float DEFAULT_RESTITUTION = 0.3f;
    public static final float DEFAULT_FRICTION = 0.5f;
    public static final float DEFAULT_ROLLING_RESISTANCE = 0.001f;
    /** As the rolling resistance: a millimetre patch, so that a sphere's spin about its contacts stops too. */
    public static final float DEFAULT_TORSION = 0.001f;
    public static final int DEFAULT_ITERATIONS = 10;
    public static final long DEFAULT_SEED = 1;
    public static final int DEFAULT_SUBSTEPS = SoftStepSettings.DEFAULT_SUBSTEPS;
    /**
     * 0: the library's default, an eighth of the substep rate (200 Hz at the demo's 2.5 ms in 4
     * substeps), the stiffest a step allows: millimetre spheres under a heap of others need it.
     */
    public static final float DEFAULT_CONTACT_HERTZ = 0.0f;

    /** The main job at its defaults: the heap scene, its default spheres, seed and settings. */
    public static Simulation defaultSimulation() {
        return DemoScene.HEAP.simulation(DemoScene.HEAP.defaultParticles, DEFAULT_SEED,
                Simulation.Settings.of(DEFAULT_TIME_STEP, DEFAULT_RESTITUTION, DEFAULT_ITERATIONS)
                        .withFriction(DEFAULT_FRICTION, DEFAULT_ROLLING_RESISTANCE).withTorsion(DEFAULT_TORSION)
                        .withSoftStep(DEFAULT_SUBSTEPS, DEFAULT_CONTACT_HERTZ));
    }

    @Option(names = "--dt", defaultValue = "" + DEFAULT_TIME_STEP, paramLabel = "S",
            description = "Time step in seconds (default: ${DEFAULT-VALUE}).")
    float timeStep;

    @Option(names = "--restitution", defaultValue = "" + DEFAULT_RESTITUTION, paramLabel = "E",
            description = "Coefficient of restitution of every contact, 0 to 1 (default: ${DEFAULT-VALUE}).")
    float restitution;

    @Option(names = "--friction", defaultValue = "" + DEFAULT_FRICTION, paramLabel = "MU",
            description = "Coulomb friction coefficient of every contact, sphere-sphere and sphere-wall; 0 for none "
                    + "(default: ${DEFAULT-VALUE}).")
    float friction;

    @Option(names = "--rolling-resistance", defaultValue = "" + DEFAULT_ROLLING_RESISTANCE, paramLabel = "RHO",
            description = "Rolling resistance of every contact, m: the lever arm of the torque resisting rolling "
                    + "(not spin about the contact normal); 0 for none (default: ${DEFAULT-VALUE}).")
    float rollingResistance;

    @Option(names = "--torsion", defaultValue = "" + DEFAULT_TORSION, paramLabel = "TAU",
            description = "Torsional resistance of every contact, m: the patch radius whose grip resists spin about "
                    + "the contact normal; 0 for none (default: ${DEFAULT-VALUE}).")
    float torsion;

    @Option(names = "--iterations", defaultValue = "" + DEFAULT_ITERATIONS, paramLabel = "N",
            description = "two-solves: solver iterations per step (default: ${DEFAULT-VALUE}); the push-out solve "
                    + "gets half as many.")
    int iterations;

    @Option(names = "--scheme", defaultValue = Scheme.DEFAULT_LABEL, paramLabel = "S",
            converter = Scheme.Converter.class,
            description = "How a step uses the module: soft-step (the module's step: substeps with soft contacts, "
                    + "one soft and one relax sweep each) or two-solves (a velocity solve and a push-out solve, "
                    + "integrated by the demo) (default: ${DEFAULT-VALUE}).")
    Scheme scheme;

    @Option(names = "--substeps", defaultValue = "" + DEFAULT_SUBSTEPS, paramLabel = "N",
            description = "soft-step: substeps per step, 1 to " + SoftStepSettings.MAX_SUBSTEPS
                    + " (default: ${DEFAULT-VALUE}).")
    int substeps;

    @Option(names = "--contact-hertz", defaultValue = "" + DEFAULT_CONTACT_HERTZ, paramLabel = "HZ",
            description = "soft-step: contact stiffness as a frequency in Hz, at most an eighth of the substep "
                    + "rate; 0 takes that eighth (default: ${DEFAULT-VALUE}).")
    float contactHertz;

    @Option(names = "--colouring-order", defaultValue = "contact", paramLabel = "ORDER",
            description = "soft-step: the order in which each step's manifolds take their colours, contact or hashed "
                    + "(hashed is coloured on a GPU's device; another solve order, so another heap) "
                    + "(default: ${DEFAULT-VALUE}).")
    String colouringOrder;

    @Mixin
    BackendOption backend;

    @Mixin
    DeviceOptions device;

    @Option(names = "--seed", defaultValue = "" + DEFAULT_SEED, paramLabel = "N",
            description = "Random seed of the spheres' sizes, masses and starting places (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--out", defaultValue = "demo-out", paramLabel = "DIR",
            description = "Folder for the pictures and particles.csv (default: ${DEFAULT-VALUE}; created if missing).")
    Path out;

    @Option(names = "--csv", paramLabel = "FILE", description = "Also write the per-step figures to FILE.")
    Path csv;

    /** {@code --particles} and {@code --steps}, or the scene's defaults. */
    private int particles;
    private int steps;

    @Override
    public Integer call() throws Exception {
        String problem = checkOptions();
        if (problem != null) {
            throw new ParameterException(spec.commandLine(), problem);
        }
        // before the simulation, not after it: a bad --out or --csv fails at once
        String outProblem = IoErrors.outputProblem(out, SNAPSHOT, CHART, PARTICLES_CSV);
        outProblem = outProblem == null && csv != null ? IoErrors.fileProblem(csv) : outProblem;
        if (outProblem != null) {
            spec.commandLine().getErr().println("error: " + Quoting.escape(outProblem));
            return ExitCode.FAILURE;
        }
        String picturesProblem = picturesProblem();
        if (picturesProblem != null) {
            spec.commandLine().getErr().println("warning: " + SNAPSHOT + " and " + CHART + " will not be written: "
                    + picturesProblem);
        }
        PrintWriter stdout = spec.commandLine().getOut();
        Simulation simulation = scene.simulation(particles, seed,
                settingsFromOptions());
        ParticleWorld world = simulation.world();
        ContactSolver solver;
        try {
            solver = ContactSolver.create(device.applyTo(SolverConfig.defaults().withBackend(backend.backend())));
        } catch (IllegalStateException e) {
            spec.commandLine().getErr().println("error: " + e.getMessage());
            return ExitCode.FAILURE;
        }
        List<StepFigures> figures = new ArrayList<>(Math.min(steps, 1 << 16));
        DemoScene.RestWatch restWatch = new DemoScene.RestWatch();
        boolean atRest = false;
        long started = System.nanoTime();
        String device;
        try (solver; Progress bar = Progress.open("demo", steps, " steps", spec.commandLine().getErr())) {
            for (int s = 0; s < steps && !atRest; s++) {
                StepFigures step = simulation.step(solver);
                figures.add(step);
                atRest = scene.stopsAtRest() && restWatch.atRest(simulation);
                double elapsed = (System.nanoTime() - started) / 1e9;
                bar.setExtraMessage(String.format(Locale.ROOT, "%.1f steps/s, %,d spheres, %,d contacts/step",
                        (s + 1) / elapsed, step.particles(), step.contacts()));
                bar.step();
            }
            device = solver.description();
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        HeapSlope slope = scene == DemoScene.HEAP ? HeapSlope.measure(world) : null;
        List<Path> written = writeOutputs(world, figures, slope, picturesProblem == null);
        printSummary(stdout, device, simulation, figures, seconds, atRest, restWatch, slope, written);
        return ExitCode.OK;
    }

    private String schemeLine() {
        return scheme == Scheme.SOFT_STEP
                ? "soft step (" + substeps + " substeps of one soft and one relax sweep"
                        + (ColouringOrderOption.parse(colouringOrder) == ColouringOrder.HASHED
                                ? ", manifolds coloured in the hashed order" : "") + ")"
                : "two solves (" + iterations + " velocity and " + TwoSolves.pushIterations(iterations) + " push-out iterations)";
    }

    /** The simulation's settings from the options. */
    private Simulation.Settings settingsFromOptions() {
        Simulation.Settings settings = Simulation.Settings.of(timeStep, restitution, iterations)
                .withFriction(friction, rollingResistance).withTorsion(torsion);
        return scheme == Scheme.SOFT_STEP ? settings.withSoftStep(substeps, contactHertz)
                .withColouringOrder(ColouringOrderOption.parse(colouringOrder)) : settings.withScheme(scheme);
    }

    /**
     * The first thing wrong with the options, or null; fills in the scene's defaults. An option the
     * chosen scheme or backend ignores is refused (ParameterException), and so are two outputs
     * that would be one file.
     */
    private String checkOptions() {
        particles = particlesOption != null ? particlesOption : scene.defaultParticles;
        steps = stepsOption != null ? stepsOption : scene.defaultSteps;
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
        if (!(friction >= 0.0f) || !Float.isFinite(friction)) {
            return "--friction must be finite and at least 0, got " + friction;
        }
        if (!(rollingResistance >= 0.0f) || !Float.isFinite(rollingResistance)) {
            return "--rolling-resistance must be finite and at least 0 m, got " + rollingResistance;
        }
        if (!(torsion >= 0.0f) || !Float.isFinite(torsion)) {
            return "--torsion must be finite and at least 0 m, got " + torsion;
        }
        if (ColouringOrderOption.parse(colouringOrder) == null) {
            return ColouringOrderOption.refusal(colouringOrder);
        }
        if (!(contactHertz >= 0.0f) || !Float.isFinite(contactHertz)) {
            return "--contact-hertz must be finite and at least 0, got " + contactHertz;
        }
        if (substeps < 1 || substeps > SoftStepSettings.MAX_SUBSTEPS) {
            return "--substeps must be in [1, " + SoftStepSettings.MAX_SUBSTEPS + "], got " + substeps;
        }
        if (iterations < 1) {
            return "--iterations must be at least 1, got " + iterations;
        }
        if (substeps >= 1 && substeps <= SoftStepSettings.MAX_SUBSTEPS && timeStep > 0.0f && Float.isFinite(timeStep)) {
            float highest = SolveSettings.softStep().withSubsteps(substeps).highestContactHertz(timeStep);
            if (contactHertz > highest) {
                return "--contact-hertz " + contactHertz + " is above the stiffest the substep rate allows, " + highest
                        + " Hz at --dt " + timeStep + " and --substeps " + substeps + ": stiffer contacts gain energy; "
                        + "lower it, or take more substeps";
            }
        }
        try {
            Simulation.checkTimeStep(settingsFromOptions());
        } catch (IllegalArgumentException refused) {
            return "--dt " + timeStep + ": " + refused.getMessage();
        }
        boolean soft = scheme == Scheme.SOFT_STEP;
        ModeOptions.refuseUnused(spec, soft, "--scheme two-solves", "--scheme soft-step", "--substeps",
                "--contact-hertz", "--colouring-order");
        ModeOptions.refuseUnused(spec, !soft, "--scheme soft-step", "--scheme two-solves", "--iterations");
        ModeOptions.refuseUnused(spec, backend.backend() != Backend.CPU, "--backend cpu", "--backend opencl or auto",
                "--device");
        // every file the demo writes, so that none is written over another (one file's content lost)
        Map<String, Path> outputs = new LinkedHashMap<>();
        outputs.put("--out " + out, out); // the folder itself: a --csv there could not be written
        for (String name : new String[] {SNAPSHOT, CHART, PARTICLES_CSV}) {
            outputs.put("--out " + out + " (its " + name + ")", out.resolve(name));
        }
        if (csv != null) {
            outputs.put("--csv " + csv, csv);
        }
        return IoErrors.sameFileProblem(outputs);
    }

    /**
     * Why this Java runtime cannot draw the pictures, as the end of a one-line warning, or null when
     * it can: it lacks {@code java.desktop}, or it cannot draw text. Asked before the run.
     */
    private static String picturesProblem() {
        if (!DesktopModule.present()) {
            return "this Java runtime (" + Quoting.escape(DesktopModule.runtime()) + ") lacks the " + DesktopModule.NAME
                    + " module; run on a runtime with it to get them";
        }
        String text = TextDrawing.problem();
        return text == null ? null : "this Java runtime cannot draw text (" + Quoting.escape(text) + "); install its "
                + "font libraries (freetype, harfbuzz, fontconfig) to get them";
    }

    /**
     * The pictures (where {@code pictures}) and the CSVs, all written or none (see
     * {@link AtomicFiles}); returns their paths.
     */
    private List<Path> writeOutputs(ParticleWorld world, List<StepFigures> figures, HeapSlope slope, boolean pictures)
            throws IOException {
        StepFigures last = figures.get(figures.size() - 1);
        String snapshotTitle = String.format(Locale.ROOT, "%,d spheres after %,d steps (%.2f s), side view, "
                + "coloured by speed", world.count, last.step(), last.time());
        String chartTitle = String.format(Locale.ROOT, "%,d spheres, dt %s s, restitution %s, friction %s, "
                + "rolling resistance %s m, torsion %s m", world.count, timeStep, restitution, friction, rollingResistance,
                torsion);
        List<Output> outputs = new ArrayList<>();
        if (pictures) {
            outputs.add(new Output(out.resolve(SNAPSHOT), png -> DemoPictures.snapshot(world, snapshotTitle, slope,
                    png)));
            outputs.add(new Output(out.resolve(CHART), png -> DemoPictures.energyAndContacts(figures, chartTitle,
                    png)));
        }
        outputs.add(Output.text(out.resolve(PARTICLES_CSV), text -> writeParticles(world, text)));
        if (csv != null) {
            outputs.add(Output.text(csv, text -> StepFigures.writeCsv(figures, text)));
        }
        AtomicFiles.write(outputs);
        return outputs.stream().map(Output::target).toList();
    }

    /**
     * The final state, one row per sphere in the world in index order:
     * {@value #PARTICLES_CSV_HEADER}, y up; floats print with {@link Float#toString}, which reads back
     * to the same bits.
     */
    static void writeParticles(ParticleWorld world, Writer out) throws IOException {
        out.append(PARTICLES_CSV_HEADER).append('\n');
        StringBuilder row = new StringBuilder(160);
        for (int i = 0; i < world.count; i++) {
            row.setLength(0);
            row.append(i).append(',').append(world.x[i]).append(',').append(world.y[i]).append(',').append(world.z[i])
                    .append(',').append(world.radius[i]).append(',').append(world.vx[i]).append(',')
                    .append(world.vy[i]).append(',').append(world.vz[i]).append(',').append(world.wx[i]).append(',')
                    .append(world.wy[i]).append(',').append(world.wz[i]).append('\n');
            out.append(row);
        }
    }

    private static String restLine(Simulation simulation, StepFigures last, boolean atRest, DemoScene.RestWatch watch) {
        if (atRest) {
            return String.format(Locale.ROOT, "at rest after %,d steps (%.2f s): %s", last.step(), last.time(),
                    watch.reason());
        }
        String poured = simulation.allPoured() ? "" : String.format(Locale.ROOT, " (%,d of %,d spheres poured)",
                last.particles(), simulation.world().capacity());
        return String.format(Locale.ROOT, "not at rest after the %,d-step cap%s", last.step(), poured);
    }

    private static String slopeLine(HeapSlope slope) {
        if (slope.flat()) {
            return String.format(Locale.ROOT, "heap: spread flat, angle of repose %.1f degrees (no flank: the surface "
                    + "stands %.1f mm high at most; line fitted over every ring, %.3f to %.3f m from the axis)",
                    slope.degrees(), slope.peakHeight() * 1e3, slope.innerRadius(), slope.outerRadius());
        }
        return String.format(Locale.ROOT, "heap: angle of repose %.1f degrees (flank fitted over %d rings, %.3f to "
                + "%.3f m from the axis), %.1f mm high", slope.degrees(), slope.rings(), slope.innerRadius(),
                slope.outerRadius(), slope.peakHeight() * 1e3);
    }

    private void printSummary(PrintWriter stdout, String device, Simulation simulation, List<StepFigures> figures,
            double seconds, boolean atRest, DemoScene.RestWatch watch, HeapSlope slope, List<Path> written) {
        StepFigures first = figures.get(0);
        StepFigures last = figures.get(figures.size() - 1);
        long solveNanos = figures.stream().mapToLong(StepFigures::solveNanos).sum();
        long contactCount = figures.stream().mapToLong(StepFigures::contacts).sum();
        stdout.printf(Locale.ROOT, "demo: %s, %,d spheres, %,d steps of %s s (%.2f s simulated), restitution %s, "
                + "friction %s, rolling resistance %s m, torsion %s m, %s, stepped in %.1f s (%.1f steps/s)%n",
                scene.label(), last.particles(), figures.size(), timeStep, last.time(), restitution, friction,
                rollingResistance, torsion, schemeLine(), seconds, figures.size() / seconds);
        stdout.println("backend: " + device);
        // both solves of a step (velocity and push-out) count as its solve time
        long contactIterations = figures.stream().mapToLong(StepFigures::contactIterations).sum();
        stdout.printf(Locale.ROOT, "solve: %.2f ms per step on average, %,.0f contacts per second, %,.0f "
                + "contact-iterations per second (%,d contacts and %.1f iterations per step on average, "
                + (scheme == Scheme.SOFT_STEP ? "every soft, relax and restitution sweep of the substeps"
                        : "the velocity and push-out solves together") + ")%n", solveNanos / 1e6 / figures.size(),
                contactCount / (solveNanos / 1e9), contactIterations / (solveNanos / 1e9),
                contactCount / figures.size(), contactIterations / (double) Math.max(1, contactCount));
        stdout.printf(Locale.ROOT, "kinetic energy: %.4g J after the first step, %.4g J after the last%n",
                first.kineticEnergy(), last.kineticEnergy());
        stdout.printf(Locale.ROOT, "largest remaining approach velocity: %.3g m/s; deepest overlap %.3g mm; "
                + "fastest sphere %.3g m/s%n", last.largestApproach(), last.deepestOverlap() * 1e3, last.maxSpeed());
        if (scene.stopsAtRest()) {
            stdout.println(restLine(simulation, last, atRest, watch));
        }
        if (slope != null) {
            stdout.println(slopeLine(slope));
        }
        stdout.println("wrote " + String.join(", ", written.stream().map(Path::toString).toList()));
    }
}
