package io.contactsolver.bench;

import io.contactsolver.app.IoErrors;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A peer engine's own {@code benchmark} program, Box2D v3's or Box3D's, built by the user from the
 * engine's public repository (never part of this project), run on this machine between our
 * pyramid runs so that both figures come from the same sitting (docs/performance.md, "Soft step:
 * the box pyramids against Box3D and Box2D v3").
 *
 * <p>Both programs take the same options and print the same lines. It runs as
 * {@code benchmark -b=SCENE -t=1 -w=1 -r=RUNS}: one thread, one worker, {@code RUNS} runs of the
 * scene; {@link #withWorkers} gives the same program on more ({@code -t=N -w=N}), to set its own
 * scaling beside ours. Its output names the scene and its step count ({@code benchmark: large_pyramid, steps =
 * 200}), each run's milliseconds ({@code run 0 : 2688.59 (ms)}) and the world's counters after the
 * first run ({@code body 5051 / shape 5051 / contact 14950 / ...}).
 *
 * <p>A figure a step: each run makes a new world with the scene, steps it once off the clock (its
 * {@code main.c}: "Initial step can be expensive"), then times the other {@code steps - 1} steps
 * together, each a whole {@code World_Step} at 1/60 s and 4 substeps, collision included; so a
 * run's milliseconds a step are its figure over {@code steps - 1}. A Release build runs 500 steps of
 * Box2D's {@code large_pyramid}, 200 of Box3D's and 100 of Box3D's {@code many_pyramids}; a Debug
 * build runs 10 steps of smaller scenes, which the body count gives away: it must be the scene's
 * boxes and one ground body, else the output is refused.
 *
 * <p>It runs in a fresh temporary folder, deleted afterwards, because it writes its own CSV into the
 * folder it runs in.
 */
final class EngineBenchmark {
    /** The peer engines whose benchmark programs the bench can run. */
    enum Engine {
        BOX2D("Box2D v3", "Box2D", "box2d", false), BOX3D("Box3D", "Box3D", "box3d", true);

        /** The name quoted in the report. */
        final String title;
        /** The name heading a table's column. */
        final String shortTitle;
        /** The stem of its options ({@code --box3d-benchmark}) and CSV columns ({@code box3d_median_ms}). */
        final String key;
        /** Whether its program is asked for its own profile of each step ({@code -s}; tried on Box3D's). */
        final boolean profiles;

        Engine(String title, String shortTitle, String key, boolean profiles) {
            this.title = title;
            this.shortTitle = shortTitle;
            this.key = key;
            this.profiles = profiles;
        }

        /** The option naming the program: {@code --box3d-benchmark}. */
        String option() {
            return "--" + key + "-benchmark";
        }
    }

    /**
     * What one run of the program measured: each run's milliseconds a step, the steps a run timed,
     * and its own profile of a step where it was asked for one (else null).
     */
    record Runs(List<Double> millisPerStep, int timedSteps, Profile profile) {
        Runs {
            millisPerStep = List.copyOf(millisPerStep);
        }

        Runs withProfile(Profile measured) {
            return new Runs(millisPerStep, timedSteps, measured);
        }
    }

    /**
     * The engine's own profile of a step ({@code b3Profile}, which its benchmark with {@code -s}
     * writes a step a line, each figure the least over the runs, to {@code SCENE_tN.dat} for
     * {@code N} workers: step,
     * pairs, collide, constraints, transforms, refit, sleepIslands, ms): the medians over the steps
     * it times (the first, off the clock, left out) of the whole step, its collision and its
     * constraint solver.
     */
    record Profile(double stepMillis, double collideMillis, double solverMillis, int steps) {
    }

    /** Longest one invocation may take: either engine runs one of these scenes in seconds. */
    private static final long TIMEOUT_MINUTES = 10;

    private static final Pattern RUN = Pattern.compile("run (\\d+) : (\\S+) \\(ms\\)");
    private static final Pattern BODIES = Pattern.compile("body (\\d+) / ");

    private final Engine engine;
    private final Path executable;
    private final int runs;
    private final int workers;

    /**
     * The program on one thread and one worker.
     *
     * @param engine     whose program it is
     * @param executable the engine's built {@code benchmark} program
     * @param runs       runs of the scene an invocation, {@code >= 1}
     */
    EngineBenchmark(Engine engine, Path executable, int runs) {
        this(engine, executable, runs, 1);
    }

    private EngineBenchmark(Engine engine, Path executable, int runs, int workers) {
        this.engine = engine;
        this.executable = executable;
        this.runs = runs;
        this.workers = workers;
    }

    /** The same program run on {@code count} threads and as many workers ({@code -t=count -w=count}), {@code >= 1}. */
    EngineBenchmark withWorkers(int count) {
        if (count < 1) {
            throw new IllegalArgumentException("workers must be at least 1, got " + count);
        }
        return new EngineBenchmark(engine, executable, runs, count);
    }

    Engine engine() {
        return engine;
    }

    /** The threads and workers it runs on. */
    int workers() {
        return workers;
    }

    /** The command line for {@code scene}, as quoted beside the figures. */
    String commandLine(String scene) {
        return executable + " " + String.join(" ", arguments(scene));
    }

    private List<String> arguments(String scene) {
        List<String> arguments = new ArrayList<>(List.of("-b=" + scene, "-t=" + workers, "-w=" + workers,
                "-r=" + runs));
        if (engine.profiles) {
            arguments.add("-s");
        }
        return arguments;
    }

    /**
     * Why {@code file} cannot be run as {@code engine}'s benchmark, or null when it can be tried:
     * checked before any measurement.
     */
    static String fileProblem(Engine engine, Path file) {
        String unreadable = IoErrors.inputProblem(file);
        if (unreadable != null) {
            return engine.option() + ": " + unreadable;
        }
        return Files.isExecutable(file) ? null : engine.option() + ": " + file + ": not executable";
    }

    /**
     * Runs the program once on {@code scene}, whose Release build has {@code boxes} boxes on one
     * ground body; returns the milliseconds a step of each of its runs, in run order.
     */
    Runs measure(String scene, long boxes) throws IOException, InterruptedException {
        Path folder = Files.createTempDirectory(engine.key + "-benchmark");
        try {
            List<String> command = new ArrayList<>();
            command.add(executable.toAbsolutePath().toString());
            command.addAll(arguments(scene));
            Process process = new ProcessBuilder(command).directory(folder.toFile()).redirectErrorStream(true).start();
            process.getOutputStream().close();
            String output = readAll(process.getInputStream());
            if (!process.waitFor(TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
                process.destroyForcibly();
                throw new IOException(commandLine(scene) + " did not finish within " + TIMEOUT_MINUTES + " minutes");
            }
            if (process.exitValue() != 0) {
                throw new IOException(commandLine(scene) + " failed with exit status " + process.exitValue()
                        + lastLine(output));
            }
            Runs measured = parse(engine, scene, boxes, output);
            if (measured.millisPerStep().size() != runs) {
                throw new IOException(commandLine(scene) + " printed " + measured.millisPerStep().size()
                        + " runs, expected " + runs);
            }
            if (engine.profiles) {
                Path steps = folder.resolve(scene + "_t" + workers + ".dat");
                if (!Files.isRegularFile(steps)) {
                    throw new IOException(commandLine(scene) + " wrote no " + steps.getFileName()
                            + " (its profile of each step)");
                }
                measured = measured.withProfile(parseProfile(engine, steps.getFileName().toString(),
                        Files.readString(steps, StandardCharsets.UTF_8)));
            }
            return measured;
        } finally {
            deleteTree(folder);
        }
    }

    /**
     * The milliseconds a step of each run of {@code scene} in {@code engine}'s {@code output}, and
     * the steps a run timed.
     *
     * @param boxes the scene's boxes in a Release build; the output must count them and one ground body
     * @throws IOException naming what is missing or malformed, when the output is not that of
     *                     {@code scene}'s Release benchmark
     */
    static Runs parse(Engine engine, String scene, long boxes, String output) throws IOException {
        String name = engine.title + "'s benchmark";
        Matcher steps = Pattern.compile("benchmark: " + Pattern.quote(scene) + ", steps = (\\d+)").matcher(output);
        if (!steps.find()) {
            throw new IOException(name + " output has no line 'benchmark: " + scene + ", steps = N'" + lastLine(output));
        }
        long stepCount = Long.parseLong(steps.group(1));
        if (stepCount < 2) {
            throw new IOException(name + " ran " + stepCount + " steps of " + scene
                    + "; it times all but the first, so it needs at least 2");
        }
        List<Double> millis = new ArrayList<>();
        Matcher run = RUN.matcher(output);
        run.region(steps.end(), output.length());
        while (run.find()) {
            double total;
            try {
                total = Double.parseDouble(run.group(2));
            } catch (NumberFormatException e) {
                throw new IOException(name + " run " + run.group(1) + " has no number of milliseconds: '"
                        + run.group(2) + "'");
            }
            if (!(total > 0) || !Double.isFinite(total)) {
                throw new IOException(name + " run " + run.group(1) + " took " + run.group(2)
                        + " ms, not a positive finite time");
            }
            millis.add(total / (stepCount - 1));
        }
        if (millis.isEmpty()) {
            throw new IOException(name + " output has no line 'run N : MS (ms)'" + lastLine(output));
        }
        Matcher bodies = BODIES.matcher(output);
        if (!bodies.find(steps.end())) {
            throw new IOException(name + " output has no line 'body N / ...' counting the bodies of " + scene
                    + lastLine(output));
        }
        long counted = Long.parseLong(bodies.group(1));
        if (counted != boxes + 1) {
            throw new IOException(String.format(Locale.ROOT, "%s ran %s with %,d bodies, not %,d boxes and the "
                    + "ground: the figure would be for another scene (a Debug build runs smaller ones: build Release)",
                    name, scene, counted, boxes));
        }
        return new Runs(millis, (int) Math.min(Integer.MAX_VALUE, stepCount - 1), null);
    }

    /**
     * The {@link Profile} in {@code text}, {@code engine}'s {@code file}: a line a step, seven
     * numbers (ms) each, the first step left out of the medians as it is off the run's clock.
     *
     * @throws IOException naming the line, when a line is not seven non-negative finite numbers
     *                     or there is no timed step
     */
    static Profile parseProfile(Engine engine, String file, String text) throws IOException {
        List<String> lines = text.lines().filter(line -> !line.isBlank()).toList();
        if (lines.size() < 2) {
            throw new IOException(engine.title + "'s " + file + " has " + lines.size()
                    + " steps; its first is off the clock, so it needs at least 2");
        }
        int timed = lines.size() - 1;
        double[] step = new double[timed];
        double[] collide = new double[timed];
        double[] solver = new double[timed];
        for (int i = 0; i < lines.size(); i++) {
            String[] fields = lines.get(i).strip().split("\\s+");
            double[] values = new double[fields.length];
            boolean sound = fields.length == 7;
            for (int f = 0; sound && f < fields.length; f++) {
                try {
                    values[f] = Double.parseDouble(fields[f]);
                } catch (NumberFormatException e) {
                    sound = false;
                }
                sound &= values[f] >= 0.0 && Double.isFinite(values[f]);
            }
            if (!sound) {
                throw new IOException(engine.title + "'s " + file + " line " + (i + 1)
                        + " is not seven non-negative numbers (step, pairs, collide, constraints, transforms, refit,"
                        + " sleepIslands): '" + lines.get(i).strip() + "'");
            }
            if (i > 0) {
                step[i - 1] = values[0];
                collide[i - 1] = values[2];
                solver[i - 1] = values[3];
            }
        }
        return new Profile(Benchmark.median(step), Benchmark.median(collide), Benchmark.median(solver), timed);
    }

    private static String readAll(InputStream in) throws IOException {
        try (in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** {@code ; its last line: ...} of a program's output, or nothing when it printed nothing. */
    private static String lastLine(String output) {
        List<String> lines = output.lines().filter(line -> !line.isBlank()).toList();
        return lines.isEmpty() ? " (it printed nothing)"
                : "; its last line: " + lines.get(lines.size() - 1).strip();
    }

    private static void deleteTree(Path folder) throws IOException {
        try (Stream<Path> paths = Files.walk(folder)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }
}
