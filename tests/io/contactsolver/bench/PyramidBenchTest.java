package io.contactsolver.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.contactsolver.app.ExitCode;
import io.contactsolver.scene.BoxScene;
import io.contactsolver.testing.Cli;
import io.contactsolver.testing.Cli.Run;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The pyramid section of {@code bench}: Box2D's own benchmark run beside ours in one sitting, read
 * from its output, and the ratios quoted only for Box2D's own scene. A stand-in shell script plays
 * Box2D's program here; the real one is built from Box2D's repository outside this project.
 */
class PyramidBenchTest {
    @TempDir
    Path dir;

    @Test
    void box2dRunsAreReadAsMillisecondsAStepOverTheStepsItTimes() throws IOException {
        String output = """
                Starting Box2D benchmarks
                ======================================
                benchmark: large_pyramid, steps = 500
                thread count: 1
                run 0 : 1779.81 (ms)
                run 1 : 1996 (ms)
                body 5051 / shape 5051 / contact 14950 / joint 0 / stack 0
                """;
        List<Double> millis = Box2dBenchmark.parse(output);
        // Box2D's clock leaves out the first of the 500 steps
        assertEquals(List.of(1779.81 / 499, 1996.0 / 499), millis);
    }

    @Test
    void outputThatIsNotTheLargePyramidsIsRefusedNamingWhatIsMissing() {
        IOException noScene = assertThrows(IOException.class,
                () -> Box2dBenchmark.parse("benchmark: joint_grid, steps = 500\nrun 0 : 10 (ms)\n"));
        assertTrue(noScene.getMessage().contains("'benchmark: large_pyramid, steps = N'"), noScene.getMessage());
        IOException debug = assertThrows(IOException.class,
                () -> Box2dBenchmark.parse("benchmark: large_pyramid, steps = 1\nrun 0 : 10 (ms)\n"));
        assertTrue(debug.getMessage().contains("at least 2"), debug.getMessage());
        IOException noRuns = assertThrows(IOException.class,
                () -> Box2dBenchmark.parse("benchmark: large_pyramid, steps = 500\nthread count: 1\n"));
        assertTrue(noRuns.getMessage().contains("no line 'run N : MS (ms)'; its last line: thread count: 1"),
                noRuns.getMessage());
        IOException notATime = assertThrows(IOException.class,
                () -> Box2dBenchmark.parse("benchmark: large_pyramid, steps = 500\nrun 3 : nan (ms)\n"));
        assertTrue(notATime.getMessage().contains("run 3 has no number of milliseconds: 'nan'"),
                notATime.getMessage());
        IOException negative = assertThrows(IOException.class,
                () -> Box2dBenchmark.parse("benchmark: large_pyramid, steps = 500\nrun 0 : -5 (ms)\n"));
        assertTrue(negative.getMessage().contains("run 0 took -5 ms, not a positive finite time"),
                negative.getMessage());
    }

    @Test
    void box2dRunsBeforeEachOfOurRunsAndAfterTheLastInAFolderOfItsOwn() throws IOException {
        Path log = dir.resolve("calls.log");
        // runs 1, 2, 3 (ms a step: 10, 20, 30 ms over the 10 timed steps); writes its CSV where it runs
        Path box2d = script("fake-box2d", """
                #!/bin/sh
                echo "$* in $PWD" >> '%s'
                n=$(wc -l < '%s')
                echo "benchmark: large_pyramid, steps = 11"
                echo "thread count: 1"
                echo "run 0 : ${n}0 (ms)"
                echo "threads,ms" > large_pyramid.csv
                """.formatted(log, log));
        Path csv = dir.resolve("bench.csv");
        Run run = Cli.inProcess("bench", "--sections", "pyramid", "--backends", "cpu", "--threads", "1",
                "--pyramid-base", "3", "--frames", "52", "--pyramid-schemes", "soft-step", "--rounds", "2",
                "--box2d-benchmark", box2d.toString(), "--csv", csv.toString());
        assertEquals(ExitCode.OK, run.exitCode(), run.err());

        List<String> calls = Files.readAllLines(log);
        assertEquals(3, calls.size(), "before each of the two rounds and after the last: " + calls);
        Path here = Paths.get("").toAbsolutePath();
        for (String call : calls) {
            assertTrue(call.startsWith("-b=large_pyramid -t=1 -w=1 -r=1 in "), call);
            Path folder = Paths.get(call.substring(call.indexOf(" in ") + 4));
            assertFalse(folder.equals(here), "not in the working folder: " + call);
            assertFalse(Files.exists(folder), "its folder and CSV are gone: " + call);
        }
        assertFalse(Files.exists(here.resolve("large_pyramid.csv")), "Box2D's CSV stays out of the working folder");
        assertTrue(run.out().contains("best 1.00 ms, median 2.00 ms over 3 runs"), run.out());
        assertTrue(run.out().contains("2 rounds a configuration"), run.out());
        assertTrue(run.out().contains("no ratios to Box2D: its large_pyramid has 5,050 boxes, this one 6"), run.out());
        List<String> rows = Files.readAllLines(dir.resolve("bench-pyramid.csv"));
        List<String> header = List.of(rows.get(0).split(","));
        List<String> row = List.of(rows.get(1).split(",", -1));
        assertEquals("2", row.get(header.indexOf("rounds")));
        assertEquals("2.0000", row.get(header.indexOf("box2d_median_ms")));
        assertEquals("1.0000", row.get(header.indexOf("box2d_best_ms")));
        double median = Double.parseDouble(row.get(header.indexOf("module_ms_per_frame")));
        double best = Double.parseDouble(row.get(header.indexOf("best_module_ms_per_frame")));
        assertTrue(best > 0 && best <= median, best + " <= " + median);
        assertFalse(run.out().contains("moved the boxes differently"), "the rounds step the same bits: " + run.out());
    }

    @Test
    void aFailingBox2dIsOneLineNamingItAndNoTableIsWritten() throws IOException {
        Path box2d = script("crashing-box2d", """
                #!/bin/sh
                echo "benchmark: large_pyramid, steps = 500"
                echo "Segmentation fault" >&2
                exit 3
                """);
        Path csv = dir.resolve("bench.csv");
        Run run = Cli.inProcess("bench", "--sections", "pyramid", "--backends", "cpu", "--threads", "1",
                "--pyramid-base", "3", "--frames", "52", "--pyramid-schemes", "soft-step", "--box2d-benchmark",
                box2d.toString(), "--csv", csv.toString());
        assertEquals(ExitCode.FAILURE, run.exitCode(), run.err());
        List<String> errors = run.errLines().stream().filter(line -> line.startsWith("error:")).toList();
        assertEquals(1, errors.size(), run.err());
        assertTrue(errors.get(0).contains(box2d + " -b=large_pyramid -t=1 -w=1 -r=1 failed with exit status 3; "
                + "its last line: Segmentation fault"), errors.get(0));
        assertFalse(Files.exists(csv) || Files.exists(dir.resolve("bench-pyramid.csv")), "nothing half-written");
    }

    /**
     * Rows go out as they are measured: when a later section fails (Box2D crashes in the pyramid),
     * the sweep's rows are already printed and in the CSV file, header once, each row whole.
     */
    @Test
    void aFailureInALaterSectionKeepsTheRowsMeasuredBeforeIt() throws IOException {
        Path box2d = script("crashing-box2d", "#!/bin/sh\necho 'Segmentation fault' >&2\nexit 3\n");
        Path csv = dir.resolve("bench.csv");
        Run run = Cli.inProcess("bench", "--sections", "sweep,pyramid", "--contacts", "200", "--backends", "cpu",
                "--threads", "1", "--min-time", "0.01", "--pyramid-base", "3", "--frames", "52",
                "--pyramid-schemes", "soft-step", "--box2d-benchmark", box2d.toString(), "--csv", csv.toString());
        assertEquals(ExitCode.FAILURE, run.exitCode(), run.err());
        List<String> lines = Files.readAllLines(csv);
        assertEquals(String.join(",", Measurement.COLUMNS), lines.get(0));
        List<String> rows = lines.subList(1, lines.size());
        assertEquals(List.of("pile,cpu,single-pass", "random,cpu,single-pass"),
                rows.stream().map(row -> String.join(",", Arrays.asList(row.split(",")).subList(0, 3))).toList(),
                "the sweep's rows, one thread: " + lines);
        for (String row : rows) {
            assertEquals(Measurement.COLUMNS.size(), row.split(",", -1).length, row);
        }
        assertTrue(run.out().lines().filter(line -> line.matches("(pile|random) +cpu +single-pass .*")).count() == 2,
                "printed as measured: " + run.out());
    }

    @Test
    void refusesABox2dProgramItCannotRunAndTwoBox2dFigures() throws IOException {
        Path text = Files.writeString(dir.resolve("notes.txt"), "not a program");
        assertRefused("--box2d-benchmark: " + dir.resolve("absent") + ": no such file or directory",
                "--box2d-benchmark", dir.resolve("absent").toString());
        assertRefused("--box2d-benchmark: " + dir + ": is a folder, not a file", "--box2d-benchmark", dir.toString());
        assertRefused("--box2d-benchmark: " + text + ": not executable", "--box2d-benchmark", text.toString());
        Path box2d = script("box2d", "#!/bin/sh\nexit 0\n");
        assertRefused("pass one", "--box2d-benchmark", box2d.toString(), "--box2d-ms", "3.3");
        assertRefused("--rounds must be in [1, 100], got 0", "--rounds", "0");
        assertRefused("--box2d-runs must be in [1, 100], got 0", "--box2d-runs", "0");
        assertRefused("unknown scheme 'fast' (one of soft-step, two-solves)", "--pyramid-schemes", "fast");
    }

    /** The ratios are ours over Box2D's: median over median, best over best. */
    @Test
    void quotesOurTimesAsMultiplesOfBox2dsOnlyForItsOwnScene() {
        int large = (int) BoxScene.pyramidBoxCount(BoxScene.LARGE_PYRAMID_BASE);
        PyramidBench.Box2dFigure box2d = new PyramidBench.Box2dFigure(List.of(4.0, 2.0, 3.0), "test");
        String table = table(row(large, 27.0, 18.0), box2d);
        assertTrue(table.matches("(?s).*soft-step +cpu +2 +27\\.00 +18\\.00 +9\\.0 +9\\.0 .*"), table);
        assertTrue(table.contains("best 2.00 ms, median 3.00 ms over 3 runs"), table);
        String small = table(row(210, 27.0, 18.0), box2d);
        assertFalse(small.contains("9.0"), small);
        assertTrue(small.contains("no ratios to Box2D"), small);
    }

    private static PyramidBench.Row row(int boxes, double median, double best) {
        return new PyramidBench.Row("soft-step", "cpu", 2, boxes, 59_300, 300, median, 17.0, 0.5f, 0.7f, false,
                "4 substeps x (1 soft + 1 relax)", "", 3, best, true);
    }

    private static String table(PyramidBench.Row row, PyramidBench.Box2dFigure box2d) {
        StringWriter text = new StringWriter();
        PyramidBench.table(List.of(row), box2d, new PrintWriter(text, true));
        return text.toString();
    }

    private void assertRefused(String message, String... options) {
        String[] args = new String[options.length + 2];
        args[0] = "bench";
        args[1] = "--sections=pyramid";
        System.arraycopy(options, 0, args, 2, options.length);
        Run run = Cli.inProcess(args);
        assertEquals(ExitCode.BAD_INPUT, run.exitCode(), run.err());
        assertTrue(run.err().contains(message), run.err());
    }

    private Path script(String name, String text) throws IOException {
        assumeTrue(FileSystems.getDefault().supportedFileAttributeViews().contains("posix"),
                "stand-in programs are shell scripts: a POSIX file system is needed");
        Path file = dir.resolve(name);
        Files.writeString(file, text);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwx------"));
        return file;
    }
}
