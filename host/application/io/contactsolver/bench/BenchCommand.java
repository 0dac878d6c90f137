package io.contactsolver.bench;

import io.contactsolver.ColouringOrder;
import io.contactsolver.ContactBatch;
import io.contactsolver.ContactSolver;
import io.contactsolver.Quoting;
import io.contactsolver.SoftStepSettings;
import io.contactsolver.SolveSettings;
import io.contactsolver.app.ColouringOrderOption;
import io.contactsolver.app.DesktopModule;
import io.contactsolver.app.DeviceOptions;
import io.contactsolver.app.ExitCode;
import io.contactsolver.app.IoErrors;
import io.contactsolver.app.JavaCommand;
import io.contactsolver.app.ModeOptions;
import io.contactsolver.app.Progress;
import io.contactsolver.app.Scheme;
import io.contactsolver.app.TextDrawing;
import io.contactsolver.scene.SphereLattice;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code bench}: measures every backend and the baselines on reproducible scenes. */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = {"Measure the solvers on seeded scenes, on every available backend, beside baselines and peers.",
            "The scenes: a spatially coherent pile and a random contact graph (single pass, iterative, soft step),",
            "Box3D's box pyramids and a lattice of spheres (soft step); the baselines: naive, jbullet and bandwidth.",
            "Each row is printed (and appended to --csv) as it is measured; the table follows at the end.",
            "Run it on a quiet machine; ratios come from rows measured in the same run."})
public final class BenchCommand implements Callable<Integer> {
    /** The bulk section's step: a million contacts, as the promise about bulk data is stated. */
    private static final int BULK_CONTACTS = 1_000_000;
    private static final int BULK_ROUNDS = 5;

    @Spec
    CommandSpec spec;

    @Option(names = "--contacts", split = ",", paramLabel = "N,N,...",
            defaultValue = "1000,10000,100000,1000000,10000000",
            description = "Contact counts to measure, about 4 contacts per body (default: ${DEFAULT-VALUE}).")
    List<Integer> contacts;

    @Option(names = "--scenes", split = ",", paramLabel = "pile,random", defaultValue = "pile,random",
            converter = Choices.SweepScene.Converter.class, description = "Scenes (default: ${DEFAULT-VALUE}).")
    List<Choices.SweepScene> scenes;

    @Option(names = "--backends", split = ",", paramLabel = "NAME,...",
            defaultValue = "cpu,opencl,naive,jbullet,bandwidth", converter = Choices.BenchBackend.Converter.class,
            description = "Rows to measure (default: ${DEFAULT-VALUE}).")
    List<Choices.BenchBackend> backends;

    @Option(names = "--sections", split = ",", paramLabel = "sweep,iterative,step,pyramid,lattice,bulk",
            defaultValue = "sweep,iterative,step", converter = Choices.Section.Converter.class,
            description = "sweep: single pass at every size; iterative: convergence and cost per iteration; "
                    + "step: the soft step (ContactSolver.step) on the pile at every size up to --step-max; "
                    + "pyramid: the box pyramids of Box3D's and Box2D's benchmarks rebuilt, stepped frame by frame; "
                    + "lattice: the soft step on --lattice-size^3 touching spheres on the floor, on 1 thread and all "
                    + "cores; "
                    + "bulk: a 1,000,000-contact step's data through the bulk API beside one solve iteration "
                    + "(default: ${DEFAULT-VALUE}).")
    List<Choices.Section> sections;

    @Option(names = "--step-max", defaultValue = "1000000", paramLabel = "N",
            description = "step: the largest --contacts count the soft step runs at (default: ${DEFAULT-VALUE}; "
                    + "10000000 adds the 10,000,000-contact pile, minutes a backend).")
    int stepMax;

    @Option(names = "--pyramid-scenes", split = ",", paramLabel = "large,many", defaultValue = "large",
            converter = Choices.PyramidSceneConverter.class,
            description = "pyramid: large: the large_pyramid of Box3D and Box2D v3, one wall of --pyramid-base boxes; "
                    + "many: Box3D's many_pyramids, --many-pyramids-grid squared pyramids of --many-pyramids-base "
                    + "(default: ${DEFAULT-VALUE}).")
    List<PyramidBench.Kind> pyramidScenes;

    @Option(names = "--pyramid-base", defaultValue = "100", paramLabel = "N",
            description = "pyramid, large: boxes in the bottom row, 1 to 2000 (default: ${DEFAULT-VALUE}: 5,050 boxes).")
    int pyramidBase;

    @Option(names = "--many-pyramids-grid", defaultValue = "14", paramLabel = "N",
            description = "pyramid, many: N rows of N pyramids, 1 to 50 (default: ${DEFAULT-VALUE}, Box3D's).")
    int manyGrid;

    @Option(names = "--many-pyramids-base", defaultValue = "10", paramLabel = "N",
            description = "pyramid, many: boxes in the bottom row of each pyramid, 1 to 100 (default: ${DEFAULT-VALUE}, "
                    + "Box3D's: 10,780 boxes in all).")
    int manyBase;

    @Option(names = "--frames", defaultValue = "1000", paramLabel = "N",
            description = "pyramid: frames of 1/60 s per configuration, more than " + PyramidBench.WARM_UP_FRAMES
                    + " (default: ${DEFAULT-VALUE}).")
    int frames;

    @Option(names = "--pyramid-iterations", defaultValue = "10", paramLabel = "N",
            description = "pyramid: velocity iterations a frame of the two-solve scheme; its push-out gets half "
                    + "(default: ${DEFAULT-VALUE}).")
    int pyramidIterations;

    @Option(names = "--pyramid-schemes", split = ",", paramLabel = "soft-step,two-solves",
            defaultValue = "soft-step,two-solves", converter = Scheme.Converter.class,
            description = "pyramid: the schemes to step it with (default: ${DEFAULT-VALUE}).")
    List<Scheme> pyramidSchemes;

    @Option(names = "--rounds", defaultValue = "1", paramLabel = "N",
            description = "pyramid, lattice: runs of each configuration, taking turns, reported as their median and "
                    + "best (default: ${DEFAULT-VALUE}).")
    int rounds;

    @Option(names = "--lattice-size", defaultValue = "40", paramLabel = "N",
            description = "lattice: spheres along each side, 1 to " + SphereLattice.MAX_SIZE + " (default: "
                    + "${DEFAULT-VALUE}: 64,000 spheres, 188,800 contacts).")
    int latticeSize;

    @Option(names = "--lattice-steps", defaultValue = "40", paramLabel = "N",
            description = "lattice: timed steps a run, 1 to 10000, after " + LatticeBench.WARM_UP_STEPS
                    + " untimed (default: ${DEFAULT-VALUE}).")
    int latticeSteps;

    @Option(names = "--soft-iterations", defaultValue = "" + SoftStepSettings.DEFAULT_ITERATIONS, paramLabel = "N",
            description = "pyramid (soft step), lattice: soft sweeps a substep, 1 to 100 (SoftStepSettings."
                    + "withIterations; default: ${DEFAULT-VALUE}). Two runs' device kernel times differ by the added "
                    + "sweeps' own.")
    int softIterations;

    @Option(names = "--bodies-only",
            description = "pyramid (soft step), lattice: ask each step for the bodies' new state alone, no deltas and "
                    + "no impulses (SoftStepSettings.withDeltas(false).withImpulses(false)); the same trajectory.")
    boolean bodiesOnly;

    @Option(names = "--colouring-order", paramLabel = "ORDER",
            description = "pyramid (soft step), lattice: the order in which each step's manifolds take their colours, "
                    + "contact or hashed (SoftStepSettings.withColouringOrder; default: ${DEFAULT-VALUE}); hashed is "
                    + "coloured on a GPU's device, and solves in another order.")
    String colouringOrder = "contact";

    @Option(names = "--threads-in-turn",
            description = "pyramid, lattice: the CPU's 1-thread and all-core runs (of a scheme) step their own copies "
                    + "of the scene frame by frame in turn rather than one after the other, so that their ratio comes "
                    + "from the same minutes of a noisy machine; their bodies are checked to end each round with the "
                    + "same bits, and the ratio is printed round by round; the pyramid's peers also run their own "
                    + "scene on as many workers (-t=N -w=N) next to their 1-worker run before each round, and their "
                    + "own ratio is printed beside ours.")
    boolean threadsInTurn;

    @Option(names = "--box3d-benchmark", paramLabel = "FILE",
            description = "pyramid: Box3D's built benchmark program; its own scene (large_pyramid, many_pyramids; "
                    + "1 thread) runs before each of our runs of it and after the last, in a temporary folder, and our "
                    + "times are quoted as multiples of its.")
    Path box3dBenchmark;

    @Option(names = "--box3d-runs", defaultValue = "1", paramLabel = "N",
            description = "pyramid: runs of Box3D's scene each time it runs (its -r; default: ${DEFAULT-VALUE}).")
    int box3dRuns;

    @Option(names = "--box2d-ms", paramLabel = "MS",
            description = "pyramid, large: Box2D's own large_pyramid milliseconds a step measured on this machine, "
                    + "quoted beside the table.")
    Double box2dMillis;

    @Option(names = "--box2d-benchmark", paramLabel = "FILE",
            description = "pyramid, large: Box2D v3's built benchmark program; its large_pyramid (1 thread) runs "
                    + "before each of our runs of the large pyramid and after the last, in a temporary folder, and our "
                    + "times are quoted as multiples of its.")
    Path box2dBenchmark;

    @Option(names = "--box2d-runs", defaultValue = "1", paramLabel = "N",
            description = "pyramid, large: runs of Box2D's scene each time it runs (its -r; default: ${DEFAULT-VALUE}).")
    int box2dRuns;

    @Mixin
    DeviceOptions device;

    @Option(names = "--min-time", paramLabel = "S", defaultValue = "1.0",
            description = "Seconds to spend timing each row at least; each of the module's rows also times at least "
                    + "10 batches, a solve or more each (default: ${DEFAULT-VALUE}).")
    double minSeconds;

    @Option(names = "--warm-up", paramLabel = "S", defaultValue = "0",
            description = "Seconds of untimed solves each of the module's rows (sweep, iterative, step) runs before "
                    + "its timing, beyond the one to three it always runs (default: ${DEFAULT-VALUE}). The host's "
                    + "code runs once a solve, so where solves are long (a 1,000,000-contact step on PoCL) the JIT "
                    + "has seen it little: give 30 or more for its steady cost.")
    double warmUpSeconds;

    @Option(names = "--seed", defaultValue = "1", paramLabel = "N", description = "Scene seed (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--pile-particles", defaultValue = "10000", paramLabel = "N",
            description = "Particles of the pile whose iterations to a residual of 1e-4 are counted (default: ${DEFAULT-VALUE}).")
    int pileParticles;


    @Option(names = "--csv", paramLabel = "FILE", description = "Write one row per measurement, each as it is measured, "
            + "and the iteration-cost table to FILE's stem + -iteration-cost.csv.")
    Path csv;

    @Option(names = "--plot", paramLabel = "FILE.png", description = "Draw the single pass's throughput against "
            + "contact count (needs the java.desktop module).")
    Path plot;

    /** Set in the child JVM that runs the measurements. */
    static final String CHILD_PROPERTY = "contactsolver.bench.child";

    /**
     * Runs the measurements in a child JVM whose heap is committed from the start ({@code -Xms} =
     * {@code -Xmx}, this JVM's maximum). The memory figures need full collections, after which a
     * growable heap is handed back to the system; a baseline that allocates heavily (naive) then
     * pays page faults while it grows again, which measured 7.6 s a solve instead of 0.9 s.
     */
    private int runInChild() throws Exception {
        long heap = Runtime.getRuntime().maxMemory();
        List<String> options = List.of("-Xms" + heap, "-Xmx" + heap, "-D" + CHILD_PROPERTY + "=true",
                // the child's stderr is a pipe: whether to draw a bar is decided here, on the real one
                "-D" + Progress.PROPERTY + "=" + Progress.mode().propertyValue(), "-Djava.awt.headless=true");
        // the application this command runs in (its root command), started again with the same arguments
        List<String> command = JavaCommand.of(options, spec.root().userObject().getClass().getName(),
                spec.commandLine().getParseResult().originalArgs());
        Process child = new ProcessBuilder(command).start();
        child.getOutputStream().close();
        Thread out = forward(child.getInputStream(), spec.commandLine().getOut());
        Thread err = forward(child.getErrorStream(), spec.commandLine().getErr());
        int status = child.waitFor();
        out.join();
        err.join();
        return status;
    }

    /** Copies a child's stream to one of this command's writers as it comes (the progress bar too). */
    private static Thread forward(InputStream from, PrintWriter to) {
        Thread copier = new Thread(() -> {
            try (Reader reader = new InputStreamReader(from, StandardCharsets.UTF_8)) {
                char[] buffer = new char[8192];
                for (int n = reader.read(buffer); n >= 0; n = reader.read(buffer)) {
                    to.write(buffer, 0, n);
                    to.flush();
                }
            } catch (IOException e) {
                to.println("error: lost the benchmark's output: " + e.getMessage());
            }
        }, "bench-output");
        copier.start();
        return copier;
    }

    @Override
    public Integer call() throws Exception {
        PrintWriter err = spec.commandLine().getErr();
        Integer refused = checkOptions(err);
        if (refused != null) {
            return refused;
        }
        if (System.getProperty(CHILD_PROPERTY) == null) {
            return runInChild();
        }
        return measure();
    }

    /** Where the iteration-cost rows go beside {@code csv}: {@code name-iteration-cost.csv}. */
    static Path loopCostFile(Path csv) {
        return sibling(csv, "-iteration-cost.csv");
    }

    /** {@code csv}'s stem with {@code suffix}, beside it. */
    static Path sibling(Path csv, String suffix) {
        String name = csv.getFileName().toString();
        String stem = name.toLowerCase(Locale.ROOT).endsWith(".csv") ? name.substring(0, name.length() - 4) : name;
        return csv.resolveSibling(stem + suffix);
    }

    /**
     * The exit status for outputs that cannot be written, after one line on stderr; null when they
     * are good. A value out of range is refused as its option's (exit 2, with the pointer to the help).
     */
    private Integer checkOptions(PrintWriter err) {
        int mostContacts = Math.min(ContactBatch.MAX_SIZE, ContactSolver.MAX_ITERATIVE_CONTACTS);
        for (int count : contacts) {
            if (count < 8 || count > mostContacts) {
                throw refused("--contacts must be from 8 to " + mostContacts + " (one iterative solve takes at most "
                        + "that many), got " + count);
            }
        }
        if (sections.contains(Choices.Section.STEP) && contacts.stream().noneMatch(count -> count <= stepMax)) {
            throw refused("--step-max " + stepMax + " is below every --contacts count: the step section would measure "
                    + "nothing");
        }
        if (pileParticles < 2) {
            throw refused("--pile-particles must be at least 2, got " + pileParticles);
        }
        if (!(minSeconds > 0) || !Double.isFinite(minSeconds)) {
            throw refused("--min-time must be positive and finite, got " + minSeconds);
        }
        if (!(warmUpSeconds >= 0) || !Double.isFinite(warmUpSeconds)) {
            throw refused("--warm-up must be zero or more seconds and finite, got " + warmUpSeconds);
        }
        if (pyramidBase < 1 || pyramidBase > 2000) {
            throw refused("--pyramid-base must be in [1, 2000], got " + pyramidBase);
        }
        if (manyGrid < 1 || manyGrid > 50) {
            throw refused("--many-pyramids-grid must be in [1, 50], got " + manyGrid);
        }
        if (manyBase < 1 || manyBase > 100) {
            throw refused("--many-pyramids-base must be in [1, 100], got " + manyBase);
        }
        if (frames <= PyramidBench.WARM_UP_FRAMES) {
            throw refused("--frames must exceed " + PyramidBench.WARM_UP_FRAMES + ", got " + frames);
        }
        if (pyramidIterations < 1) {
            throw refused("--pyramid-iterations must be at least 1, got " + pyramidIterations);
        }
        if (box2dMillis != null && (!(box2dMillis > 0) || !Double.isFinite(box2dMillis))) {
            throw refused("--box2d-ms must be positive and finite, got " + box2dMillis);
        }
        if (rounds < 1 || rounds > 100) {
            throw refused("--rounds must be in [1, 100], got " + rounds);
        }
        if (box2dRuns < 1 || box2dRuns > 100) {
            throw refused("--box2d-runs must be in [1, 100], got " + box2dRuns);
        }
        if (box3dRuns < 1 || box3dRuns > 100) {
            throw refused("--box3d-runs must be in [1, 100], got " + box3dRuns);
        }
        if (box2dBenchmark != null && box2dMillis != null) {
            throw refused("--box2d-ms and --box2d-benchmark both give Box2D's figure: pass one");
        }
        for (Map.Entry<EngineBenchmark.Engine, Path> program : peerPrograms().entrySet()) {
            String problem = EngineBenchmark.fileProblem(program.getKey(), program.getValue());
            if (problem != null) {
                throw refused(problem);
            }
        }
        if (latticeSize < 1 || latticeSize > SphereLattice.MAX_SIZE) {
            throw refused("--lattice-size must be in [1, " + SphereLattice.MAX_SIZE + "], got " + latticeSize);
        }
        if (latticeSteps < 1 || latticeSteps > 10_000) {
            throw refused("--lattice-steps must be in [1, 10000], got " + latticeSteps);
        }
        if (softIterations < 1 || softIterations > 100) {
            throw refused("--soft-iterations must be in [1, 100], got " + softIterations);
        }
        boolean pyramid = sections.contains(Choices.Section.PYRAMID);
        boolean lattice = sections.contains(Choices.Section.LATTICE);
        String chosen = "--sections " + Choices.labels(sections);
        ModeOptions.refuseUnused(spec, pyramid, chosen, "--sections pyramid", "--pyramid-scenes", "--pyramid-base",
                "--many-pyramids-grid", "--many-pyramids-base", "--frames", "--pyramid-iterations", "--pyramid-schemes",
                "--box3d-benchmark", "--box3d-runs", "--box2d-ms", "--box2d-benchmark", "--box2d-runs");
        ModeOptions.refuseUnused(spec, lattice, chosen, "--sections lattice", "--lattice-size", "--lattice-steps");
        ModeOptions.refuseUnused(spec, pyramid || lattice, chosen, "--sections pyramid and lattice", "--rounds",
                "--bodies-only", "--soft-iterations", "--threads-in-turn", "--colouring-order");
        if (ColouringOrderOption.parse(colouringOrder) == null) {
            throw refused(ColouringOrderOption.refusal(colouringOrder));
        }
        ModeOptions.refuseUnused(spec, sections.contains(Choices.Section.SWEEP) || sections.contains(Choices.Section.ITERATIVE)
                || sections.contains(Choices.Section.STEP), chosen, "--sections sweep, iterative and step", "--warm-up");
        if (lattice && !backends.contains(Choices.BenchBackend.CPU) && !backends.contains(Choices.BenchBackend.OPENCL)) {
            throw refused("--sections lattice steps on the cpu and opencl backends, and --backends "
                    + Choices.labels(backends) + " has neither");
        }
        String scenes = "--pyramid-scenes " + String.join(",", pyramidScenes.stream().map(kind -> kind.label).toList());
        ModeOptions.refuseUnused(spec, pyramidScenes.contains(PyramidBench.Kind.LARGE), scenes,
                "--pyramid-scenes with large", "--pyramid-base", "--box2d-ms", "--box2d-benchmark", "--box2d-runs");
        ModeOptions.refuseUnused(spec, pyramidScenes.contains(PyramidBench.Kind.MANY), scenes,
                "--pyramid-scenes with many", "--many-pyramids-grid", "--many-pyramids-base");
        ModeOptions.refuseUnused(spec, box3dBenchmark != null, "no --box3d-benchmark", "--box3d-benchmark",
                "--box3d-runs");
        ModeOptions.refuseUnused(spec, box2dBenchmark != null, "no --box2d-benchmark", "--box2d-benchmark",
                "--box2d-runs");
        ModeOptions.refuseUnused(spec, backends.contains(Choices.BenchBackend.OPENCL), "--backends "
                + Choices.labels(backends), "--backends with opencl", "--device");
        ModeOptions.refuseUnused(spec, backends.contains(Choices.BenchBackend.CPU), "--backends "
                + Choices.labels(backends), "--backends with cpu", "--threads-in-turn");
        int threads = device.threads() != null ? device.threads() : Runtime.getRuntime().availableProcessors();
        if (threadsInTurn && threads < 2) {
            throw refused("--threads-in-turn takes turns between 1 thread and more, and the CPU runs on " + threads
                    + " (--threads, or this machine's processors)");
        }
        Map<String, Path> outputs = new LinkedHashMap<>();
        if (csv != null) {
            outputs.put("--csv " + csv, csv);
            outputs.put("--csv " + csv + " (its iteration-cost table)", loopCostFile(csv));
            if (pyramid) {
                outputs.put("--csv " + csv + " (its pyramid table)", sibling(csv, "-pyramid.csv"));
            }
            if (lattice) {
                outputs.put("--csv " + csv + " (its lattice table)", sibling(csv, "-lattice.csv"));
            }
        }
        if (plot != null) {
            outputs.put("--plot " + plot, plot);
        }
        String clash = IoErrors.sameFileProblem(outputs);
        if (clash != null) {
            throw refused(clash);
        }
        for (Path file : outputs.values()) {
            String problem = file == null ? null : IoErrors.fileProblem(file);
            if (problem != null) {
                err.println("error: " + Quoting.escape(problem));
                return ExitCode.FAILURE;
            }
        }
        String noPlot = plot == null ? null : plotUnavailable();
        if (noPlot != null) {
            err.println("error: " + Quoting.escape(noPlot));
            return ExitCode.FAILURE;
        }
        return null;
    }

    /** Writes a table to a writer. */
    @FunctionalInterface
    private interface Table {
        void writeTo(Writer writer) throws IOException;
    }

    /**
     * Writes a section's CSV table to {@code file}, creating its folder if missing, as the check of
     * the outputs promised ({@link IoErrors#outputProblem}).
     */
    private static void writeTable(Path file, Table table) throws IOException {
        Path folder = file.toAbsolutePath().getParent();
        if (folder != null) {
            Files.createDirectories(folder);
        }
        try (Writer writer = Files.newBufferedWriter(file)) {
            table.writeTo(writer);
        }
    }

    /**
     * Why {@code --plot} cannot be honoured on this Java runtime, or null when it can: its boot layer
     * lacks {@code java.desktop} ({@link DesktopModule}), or it cannot draw text ({@link TextDrawing}).
     */
    static String plotUnavailable() {
        if (DesktopModule.present()) {
            String text = TextDrawing.problem();
            return text == null ? null : "--plot: this Java runtime cannot draw text (" + text + "); run without "
                    + "--plot, or install its font libraries (freetype, harfbuzz, fontconfig)";
        }
        return "--plot needs the " + DesktopModule.NAME + " module, which this Java runtime (" + DesktopModule.runtime()
                + ") lacks: run without --plot, or on a runtime with " + DesktopModule.NAME;
    }

    /** The peers' benchmark programs given, Box3D's first. */
    private Map<EngineBenchmark.Engine, Path> peerPrograms() {
        Map<EngineBenchmark.Engine, Path> programs = new LinkedHashMap<>();
        if (box3dBenchmark != null) {
            programs.put(EngineBenchmark.Engine.BOX3D, box3dBenchmark);
        }
        if (box2dBenchmark != null) {
            programs.put(EngineBenchmark.Engine.BOX2D, box2dBenchmark);
        }
        return programs;
    }

    /** The pyramid section's scenes, in the order given, each once. */
    List<PyramidBench.Layout> pyramidLayouts() {
        List<PyramidBench.Layout> layouts = new ArrayList<>();
        for (PyramidBench.Kind kind : new LinkedHashSet<>(pyramidScenes)) {
            layouts.add(kind == PyramidBench.Kind.LARGE ? PyramidBench.Layout.large(pyramidBase)
                    : PyramidBench.Layout.many(manyGrid, manyBase));
        }
        return layouts;
    }

    private ParameterException refused(String message) {
        return new ParameterException(spec.commandLine(), message);
    }

    /** What the options ask {@link Benchmark} to measure, on {@code cores} CPU threads. */
    Benchmark.Plan plan(int cores) {
        return new Benchmark.Plan(List.copyOf(contacts), new LinkedHashSet<>(scenes), new LinkedHashSet<>(backends),
                sections.contains(Choices.Section.SWEEP), sections.contains(Choices.Section.ITERATIVE),
                sections.contains(Choices.Section.STEP), stepMax, cores, seed, minSeconds, warmUpSeconds, device.device(),
                pileParticles);
    }

    private int measure() throws Exception {
        int cores = device.threads() != null ? device.threads() : Runtime.getRuntime().availableProcessors();
        Benchmark.Plan plan = plan(cores);
        PrintWriter out = spec.commandLine().getOut();
        List<Measurement> rows;
        List<LoopCost> loopCosts;
        boolean wroteRows;
        boolean wroteLoopCosts;
        try (Progress bar = Progress.open("bench", 1, "", spec.commandLine().getErr());
                RowLog log = new RowLog(out, bar::clearLine, csv, csv == null ? null : loopCostFile(csv))) {
            List<String> steps = new ArrayList<>();
            Benchmark benchmark = new Benchmark(plan, step -> {
                steps.add(step);
                bar.maxHint(Math.max(bar.max(), steps.size()));
                bar.stepTo(steps.size() - 1);
                bar.setExtraMessage(step);
            }, log);
            bar.maxHint(benchmark.steps());
            rows = benchmark.run();
            loopCosts = benchmark.loopCosts();
            wroteRows = log.wroteRows();
            wroteLoopCosts = log.wroteLoopCosts();
            bar.stepTo(bar.max());
        }
        List<PyramidBench.Row> pyramid = List.of();
        List<String> pyramidNotes = List.of();
        List<PyramidBench.Figure> figures = new ArrayList<>();
        if (box2dMillis != null) {
            figures.add(PyramidBench.Figure.given(EngineBenchmark.Engine.BOX2D, PyramidBench.Kind.LARGE.engineScene,
                    box2dMillis, "--box2d-ms"));
        }
        Path pyramidCsv = null;
        if (sections.contains(Choices.Section.PYRAMID)) {
            List<EngineBenchmark> peers = new ArrayList<>();
            peerPrograms().forEach((engine, program) -> peers.add(new EngineBenchmark(engine, program,
                    engine == EngineBenchmark.Engine.BOX3D ? box3dRuns : box2dRuns)));
            PyramidBench.Result result;
            try (Progress bar = Progress.open("pyramid", 1, "", spec.commandLine().getErr())) {
                result = new PyramidBench(pyramidLayouts(), frames, pyramidIterations, softStep(),
                        bar::setExtraMessage).run(cores,
                        backends.contains(Choices.BenchBackend.CPU), backends.contains(Choices.BenchBackend.OPENCL),
                        device.device(), EnumSet.copyOf(pyramidSchemes), rounds, peers, threadsInTurn);
            } catch (IOException e) {
                spec.commandLine().getErr().println("error: " + Quoting.escape(IoErrors.describe(e)));
                return ExitCode.FAILURE;
            }
            pyramid = result.rows();
            figures.addAll(result.figures());
            pyramidNotes = result.notes();
            if (csv != null && !pyramid.isEmpty()) {
                // written now, so that a later section that fails leaves it
                pyramidCsv = sibling(csv, "-pyramid.csv");
                List<PyramidBench.Row> measured = pyramid;
                writeTable(pyramidCsv, writer -> PyramidBench.writeCsv(measured, figures, writer));
            }
        }
        List<LatticeBench.Row> lattice = List.of();
        Path latticeCsv = null;
        if (sections.contains(Choices.Section.LATTICE)) {
            try (Progress bar = Progress.open("lattice", 1, "", spec.commandLine().getErr())) {
                lattice = new LatticeBench(latticeSize, latticeSteps, softStep(), bar::setExtraMessage).run(cores,
                        backends.contains(Choices.BenchBackend.CPU), backends.contains(Choices.BenchBackend.OPENCL),
                        device.device(), rounds, threadsInTurn);
            }
            if (csv != null && !lattice.isEmpty()) {
                // written now, so that a later section that fails leaves it
                latticeCsv = sibling(csv, "-lattice.csv");
                List<LatticeBench.Row> measured = lattice;
                writeTable(latticeCsv, writer -> LatticeBench.writeCsv(measured, writer));
            }
        }
        BulkIoBench bulk = null;
        if (sections.contains(Choices.Section.BULK)) {
            try (Progress bar = Progress.open("bulk", 1, "", spec.commandLine().getErr())) {
                bar.setExtraMessage("1,000,000 contacts");
                bulk = BulkIoBench.run(BULK_CONTACTS, cores, BULK_ROUNDS, seed);
            }
        }
        if (!rows.isEmpty()) {
            out.println();
        }
        BenchReport.table(rows, out);
        if (bulk != null) {
            bulk.table(out);
        }
        LoopCost.table(loopCosts, out);
        PyramidBench.table(pyramid, figures, out);
        pyramidNotes.forEach(out::println);
        if (pyramidCsv != null) {
            out.println("wrote " + pyramidCsv);
        }
        LatticeBench.table(lattice, out);
        if (latticeCsv != null) {
            out.println("wrote " + latticeCsv);
        }
        if (bodiesOnly && !(pyramid.isEmpty() && lattice.isEmpty())) {
            out.println("--bodies-only: each soft step was asked for the bodies alone, " + softStep());
        }
        if (softStep().colouringOrder() == ColouringOrder.HASHED && !(pyramid.isEmpty() && lattice.isEmpty())) {
            out.println("--colouring-order hashed: each soft step's manifolds coloured in the hashed order, " + softStep());
        }
        List<String> written = new ArrayList<>();
        if (wroteRows) {
            written.add(csv.toString());
        }
        if (wroteLoopCosts) {
            written.add(loopCostFile(csv).toString());
        }
        if (!written.isEmpty()) {
            out.println("wrote " + String.join(" and ", written));
        }
        if (plot != null) {
            ThroughputPlot.draw(rows, plot);
            out.println("wrote " + plot);
        }
        out.printf(Locale.ROOT, "machine: %s, %d processors, %s %s, max heap %d MiB%n", System.getProperty("os.arch"),
                Runtime.getRuntime().availableProcessors(), System.getProperty("java.vm.name"),
                System.getProperty("java.version"), Runtime.getRuntime().maxMemory() >> 20);
        return ExitCode.OK;
    }

    /**
     * The soft step's settings of the pyramid and the lattice: the defaults, with --soft-iterations',
     * --colouring-order's and --bodies-only's choices.
     */
    private SoftStepSettings softStep() {
        SoftStepSettings soft = SolveSettings.softStep().withIterations(softIterations)
                .withColouringOrder(ColouringOrderOption.parse(colouringOrder));
        return bodiesOnly ? soft.withDeltas(false).withImpulses(false) : soft;
    }
}
