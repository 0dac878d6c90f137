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
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Box2D v3's own {@code benchmark} program, built by the user from Box2D's public repository (never
 * part of this project), run on this machine between our pyramid runs so that both figures come
 * from the same sitting (docs/performance.md, "Soft step: the box pyramid against Box2D v3").
 *
 * <p>It runs as {@code benchmark -b=large_pyramid -t=1 -w=1 -r=RUNS}: one thread, one worker. Its
 * output names the scene's step count ({@code benchmark: large_pyramid, steps = 500}) and each run's
 * milliseconds ({@code run 0 : 1779.81 (ms)}); a run times every step but the first, which Box2D
 * leaves out of the clock, so a run's milliseconds a step are its figure over {@code steps - 1}. It
 * runs in a fresh temporary folder, deleted afterwards, because it writes its own CSV into the
 * folder it runs in.
 */
final class Box2dBenchmark {
    /** Box2D's benchmark scene that {@code bench --sections pyramid} rebuilds. */
    static final String SCENE = "large_pyramid";
    /** Longest one invocation may take: Box2D runs a 500-step pyramid in seconds. */
    private static final long TIMEOUT_MINUTES = 10;

    private static final Pattern STEPS = Pattern.compile("benchmark: " + SCENE + ", steps = (\\d+)");
    private static final Pattern RUN = Pattern.compile("run (\\d+) : (\\S+) \\(ms\\)");

    private final Path executable;
    private final int runs;

    /**
     * @param executable Box2D's built {@code benchmark} program
     * @param runs       runs of the scene an invocation, {@code >= 1}
     */
    Box2dBenchmark(Path executable, int runs) {
        this.executable = executable;
        this.runs = runs;
    }

    /** The command line, as quoted beside the figures. */
    String commandLine() {
        return executable + " " + String.join(" ", arguments());
    }

    private List<String> arguments() {
        return List.of("-b=" + SCENE, "-t=1", "-w=1", "-r=" + runs);
    }

    /**
     * Why {@code file} cannot be run as Box2D's benchmark, or null when it can be tried: checked
     * before any measurement.
     */
    static String fileProblem(Path file) {
        String unreadable = IoErrors.inputProblem(file);
        if (unreadable != null) {
            return "--box2d-benchmark: " + unreadable;
        }
        return Files.isExecutable(file) ? null : "--box2d-benchmark: " + file + ": not executable";
    }

    /** Runs the program once; returns the milliseconds a step of each of its runs, in run order. */
    List<Double> measure() throws IOException, InterruptedException {
        Path folder = Files.createTempDirectory("box2d-benchmark");
        try {
            List<String> command = new ArrayList<>();
            command.add(executable.toAbsolutePath().toString());
            command.addAll(arguments());
            Process process = new ProcessBuilder(command).directory(folder.toFile()).redirectErrorStream(true).start();
            process.getOutputStream().close();
            String output = readAll(process.getInputStream());
            if (!process.waitFor(TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
                process.destroyForcibly();
                throw new IOException(commandLine() + " did not finish within " + TIMEOUT_MINUTES + " minutes");
            }
            if (process.exitValue() != 0) {
                throw new IOException(commandLine() + " failed with exit status " + process.exitValue() + lastLine(output));
            }
            List<Double> millis = parse(output);
            if (millis.size() != runs) {
                throw new IOException(commandLine() + " printed " + millis.size() + " runs, expected " + runs);
            }
            return millis;
        } finally {
            deleteTree(folder);
        }
    }

    /**
     * The milliseconds a step of each run in Box2D's {@code output}.
     *
     * @throws IOException naming what is missing or malformed, when the output is not a
     *                     {@code large_pyramid} benchmark's
     */
    static List<Double> parse(String output) throws IOException {
        Matcher steps = STEPS.matcher(output);
        if (!steps.find()) {
            throw new IOException("Box2D's benchmark output has no line 'benchmark: " + SCENE + ", steps = N'"
                    + lastLine(output));
        }
        long stepCount = Long.parseLong(steps.group(1));
        if (stepCount < 2) {
            throw new IOException("Box2D's benchmark ran " + stepCount + " steps of " + SCENE
                    + "; it times all but the first, so it needs at least 2 (a Debug build runs 10: build Release)");
        }
        List<Double> millis = new ArrayList<>();
        Matcher run = RUN.matcher(output);
        while (run.find()) {
            double total;
            try {
                total = Double.parseDouble(run.group(2));
            } catch (NumberFormatException e) {
                throw new IOException("Box2D's benchmark run " + run.group(1) + " has no number of milliseconds: '"
                        + run.group(2) + "'");
            }
            if (!(total > 0) || !Double.isFinite(total)) {
                throw new IOException("Box2D's benchmark run " + run.group(1) + " took " + run.group(2)
                        + " ms, not a positive finite time");
            }
            millis.add(total / (stepCount - 1));
        }
        if (millis.isEmpty()) {
            throw new IOException("Box2D's benchmark output has no line 'run N : MS (ms)'" + lastLine(output));
        }
        return millis;
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
