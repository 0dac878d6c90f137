package io.contactsolver.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.contactsolver.app.ExitCode;
import io.contactsolver.bench.LatticeBench.Row;
import io.contactsolver.bench.LatticeBench.Settling;
import io.contactsolver.testing.Cli;
import io.contactsolver.testing.Cli.Run;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The lattice section of {@code bench}: a small lattice through the command (its times are not
 * asserted, its contacts, columns and motion are), the options it refuses, and the speed-up's
 * arithmetic on figures worked out by hand.
 */
class LatticeBenchTest {
    private static final List<String> PHASE_COLUMNS = List.of("validate_ms", "set_up_ms", "solve_ms", "output_ms",
            "integrate_ms");

    @TempDir
    Path dir;

    /**
     * 3^3 spheres: 9 floor contacts and 3 * 9 * 2 links, 63 contacts a step. Both rounds and both
     * thread counts end in the same bits, and the lattice rests: over 25 steps (0.05 s) the top
     * layer settles by less than a hundredth of a radius and nothing moves sideways.
     */
    @Test
    void measuresTheLatticeOnOneThreadAndAllCoresAndWritesItsTable() throws IOException {
        Path csv = dir.resolve("out/bench.csv"); // a folder that does not exist yet
        Run run = Cli.inProcess("bench", "--sections", "lattice", "--backends", "cpu", "--lattice-size", "3",
                "--lattice-steps", "20", "--rounds", "2", "--csv", csv.toString());
        assertEquals(ExitCode.OK, run.exitCode(), run.err());
        assertTrue(run.out().contains("(3^3 = 27 touching spheres of radius 5 mm on the floor; 63 contacts a step, "
                + "friction 0.5, rolling resistance 0.5 mm; 4 substeps x (1 soft + 1 relax), dt 2 ms; 20 steps timed after 5 "
                + "untimed; 2 rounds a configuration)"), run.out());
        String head = run.out().lines().filter(line -> line.startsWith("backend ")).findFirst().orElseThrow();
        assertEquals(List.of("backend", "threads", "ms/step", "best", "x", "1", "thread", "best", "x", "validate",
                "set-up", "solve", "output", "integrate", "kernels", "copies", "rebuild", "ms", "sank", "mm", "sideways", "mm"),
                List.of(head.trim().split(" +")));
        assertTrue(run.out().contains("every round and configuration moved the spheres to the same bits"), run.out());
        assertFalse(run.out().contains("warning"), run.out());

        Path table = dir.resolve("out/bench-lattice.csv");
        assertTrue(run.out().contains("wrote " + table), run.out());
        List<String> lines = Files.readAllLines(table);
        List<String> header = List.of(lines.get(0).split(","));
        assertEquals(List.of("size", "spheres", "contacts", "backend", "threads", "warm_up_steps", "timed_steps",
                "rounds", "ms_per_step", "best_ms_per_step", "speed_up", "best_speed_up", "validate_ms", "set_up_ms",
                "solve_ms", "output_ms", "integrate_ms", "device_kernels_ms", "device_copies_ms", "rebuild_ms", "sank_m",
                "sideways_m", "repeatable",
                "same_as_first"), header);
        int cores = Runtime.getRuntime().availableProcessors();
        assertEquals(cores > 1 ? 3 : 2, lines.size(), "1 thread, and all cores where there are more: " + lines);
        Map<String, String> one = row(header, lines.get(1));
        assertEquals("1", one.get("threads"));
        assertEquals("1.0000", one.get("speed_up"), "1 thread over itself");
        for (String line : lines.subList(1, lines.size())) {
            Map<String, String> row = row(header, line);
            assertEquals("3", row.get("size"));
            assertEquals("27", row.get("spheres"));
            assertEquals("63", row.get("contacts"));
            assertEquals("cpu", row.get("backend"));
            assertEquals("5", row.get("warm_up_steps"));
            assertEquals("20", row.get("timed_steps"));
            assertEquals("2", row.get("rounds"));
            double median = Double.parseDouble(row.get("ms_per_step"));
            double best = Double.parseDouble(row.get("best_ms_per_step"));
            assertTrue(best > 0 && best <= median, best + " <= " + median);
            double phases = 0;
            for (String phase : PHASE_COLUMNS) {
                phases += Double.parseDouble(row.get(phase));
            }
            assertTrue(phases > 0 && phases <= Double.parseDouble(row.get("ms_per_step")) * 2 + 1e-3,
                    "the phases are within the step (of the first round, the median of two): " + row);
            assertTrue(Double.parseDouble(row.get("sank_m")) < 0.01 * 0.005, "settled a little: " + row);
            assertEquals(0.0, Double.parseDouble(row.get("sideways_m")), 1e-9, "nothing moved sideways: " + row);
            assertEquals("true", row.get("repeatable"));
            assertEquals("true", row.get("same_as_first"));
            assertEquals("", row.get("device_kernels_ms"), "no device on the CPU");
            assertEquals("", row.get("device_copies_ms"), "no device on the CPU");
        }
    }

    /**
     * Speed-ups over the CPU on 1 thread (median 120 ms, best 100 ms): 2 threads at 70 and 62.5 ms
     * give 120 / 70 = 1.714... and 100 / 62.5 = 1.6; a device at 30 and 25 ms gives 4 and 4.
     */
    @Test
    void theSpeedUpIsOneThreadsTimeOverTheRows() throws IOException {
        List<Row> rows = List.of(row("cpu", 1, 120, 100, true, true), row("cpu", 2, 70, 62.5, true, true),
                row("opencl", 0, 30, 25, true, true));
        String table = table(rows);
        assertTrue(table.matches("(?s).*\ncpu +1 +120\\.00 +100\\.00 +1\\.00 +1\\.00 .*"), table);
        assertTrue(table.matches("(?s).*\ncpu +2 +70\\.00 +62\\.50 +1\\.71 +1\\.60 .*"), table);
        assertTrue(table.matches("(?s).*\nopencl +- +30\\.00 +25\\.00 +4\\.00 +4\\.00 .*"), table);
        // the device's kernels and copies after the host's phases, a dash on the CPU
        assertTrue(table.matches("(?s).*\ncpu +1 +120\\.00 +100\\.00 +1\\.00 +1\\.00( +[0-9.]+){5} +- +- +0\\.25 .*"),
                table);
        assertTrue(table.matches("(?s).*\nopencl +- +30\\.00 +25\\.00 +4\\.00 +4\\.00( +[0-9.]+){5} +2\\.50 +0\\.75 +0\\.25 .*"),
                table);
        assertTrue(table.contains("(2^3 = 8 touching spheres"), table);

        StringWriter csv = new StringWriter();
        LatticeBench.writeCsv(rows, csv);
        List<String> lines = csv.toString().lines().toList();
        List<String> header = List.of(lines.get(0).split(","));
        assertEquals("1.7143", row(header, lines.get(2)).get("speed_up"));
        assertEquals("1.6000", row(header, lines.get(2)).get("best_speed_up"));
        assertEquals("4.0000", row(header, lines.get(3)).get("speed_up"));
        assertEquals("0", row(header, lines.get(3)).get("threads"), "a device's");
        assertEquals("1.5000", row(header, lines.get(1)).get("set_up_ms"));
        assertEquals("", row(header, lines.get(1)).get("device_kernels_ms"));
        assertEquals("2.5000", row(header, lines.get(3)).get("device_kernels_ms"));
        assertEquals("0.7500", row(header, lines.get(3)).get("device_copies_ms"));
        assertEquals("0.0000125", row(header, lines.get(1)).get("sank_m"));
    }

    /** Without a row on 1 thread there is nothing to take a speed-up over: a dash, an empty CSV cell. */
    @Test
    void noSpeedUpWithoutOneThread() throws IOException {
        List<Row> rows = List.of(row("opencl", 0, 30, 25, true, true));
        assertTrue(table(rows).matches("(?s).*\nopencl +- +30\\.00 +25\\.00 +- +- .*"), table(rows));
        StringWriter csv = new StringWriter();
        LatticeBench.writeCsv(rows, csv);
        List<String> lines = csv.toString().lines().toList();
        assertEquals("", row(List.of(lines.get(0).split(",")), lines.get(1)).get("speed_up"));
    }

    /** Rounds or thread counts that end in different bits are named; the line that all agree is then left out. */
    @Test
    void warnsWhereRoundsOrThreadCountsMovedTheSpheresDifferently() {
        String table = table(List.of(row("cpu", 1, 120, 100, false, true), row("cpu", 2, 70, 62.5, true, false)));
        assertTrue(table.contains("warning: the rounds of cpu 1 thread moved the spheres differently\n"), table);
        assertTrue(table.contains("warning: cpu 2 threads moved the spheres differently from cpu 1 thread\n"), table);
        assertFalse(table.contains("same bits"), table);
    }

    /** Asking each step for the bodies alone moves the lattice to the same state, and the report says it asked. */
    /**
     * In turn, each thread count steps a lattice of its own: 1 and 2 threads still end every round
     * in the same bits, and the ratio is printed for each round.
     */
    @Test
    void threadCountsSteppedInTurnEachStepALatticeOfTheirOwn() {
        Run run = Cli.inProcess("bench", "--sections", "lattice", "--backends", "cpu", "--lattice-size", "3",
                "--lattice-steps", "10", "--rounds", "2", "--threads", "2", "--threads-in-turn");
        assertEquals(ExitCode.OK, run.exitCode(), run.err());
        assertTrue(run.out().contains("every round and configuration moved the spheres to the same bits"), run.out());
        assertTrue(run.out().contains("cpu's thread counts stepped lattices of their own step by step in turn"), run.out());
        String ratios = run.out().lines().filter(line -> line.startsWith("cpu: 1 thread's ms a step over 2 threads'"))
                .findFirst().orElseThrow(() -> new AssertionError(run.out()));
        assertEquals(2, ratios.split("x \\(").length - 1, "one ratio a round: " + ratios);
        assertFalse(run.out().contains("warning"), run.out());
    }

    @Test
    void bodiesOnlyStepsTheLatticeAlikeAndSaysSo() {
        String[] common = {"bench", "--sections", "lattice", "--backends", "cpu", "--threads", "1", "--lattice-size", "3",
            "--lattice-steps", "10"};
        Run full = Cli.inProcess(common);
        String[] lean = java.util.Arrays.copyOf(common, common.length + 1);
        lean[common.length] = "--bodies-only";
        Run bodiesOnly = Cli.inProcess(lean);
        assertEquals(ExitCode.OK, bodiesOnly.exitCode(), bodiesOnly.err());
        assertTrue(bodiesOnly.out().contains("--bodies-only: each soft step was asked for the bodies alone, "
                + "SoftStepSettings[") && bodiesOnly.out().contains(", no deltas, no impulses]"), bodiesOnly.out());
        assertFalse(full.out().contains("--bodies-only"), full.out());
        // sank and sideways, the last two columns, to the digits printed
        assertEquals(lastColumns(full.out()), lastColumns(bodiesOnly.out()));
    }

    /** The hashed order colours the lattice's manifolds otherwise: the report says so, and the lattice still settles. */
    @Test
    void theHashedColouringOrderIsUsedAndNamed() {
        Run hashed = Cli.inProcess("bench", "--sections", "lattice", "--backends", "cpu", "--threads", "1",
                "--lattice-size", "3", "--lattice-steps", "10", "--colouring-order", "hashed");
        assertEquals(ExitCode.OK, hashed.exitCode(), hashed.err());
        assertTrue(hashed.out().contains("--colouring-order hashed: each soft step's manifolds coloured in the hashed "
                + "order, SoftStepSettings[") && hashed.out().contains("colouringOrder=HASHED"), hashed.out());
        Run contact = Cli.inProcess("bench", "--sections", "lattice", "--backends", "cpu", "--threads", "1",
                "--lattice-size", "3", "--lattice-steps", "10");
        assertFalse(contact.out().contains("--colouring-order"), contact.out());
    }

    /**
     * More soft sweeps a substep: the title names them, the lattice settles to another depth (0.0088
     * mm against 0.0087 with one: the sweeps ran) and nothing drifts sideways.
     */
    @Test
    void softIterationsAddSweepsAndTheTitleSaysHowMany() {
        String[] common = {"bench", "--sections", "lattice", "--backends", "cpu", "--threads", "1", "--lattice-size", "3",
            "--lattice-steps", "10"};
        String[] more = java.util.Arrays.copyOf(common, common.length + 2);
        more[common.length] = "--soft-iterations";
        more[common.length + 1] = "3";
        Run one = Cli.inProcess(common);
        Run three = Cli.inProcess(more);
        assertEquals(ExitCode.OK, three.exitCode(), three.err());
        assertTrue(three.out().contains("; 4 substeps x (3 soft + 1 relax), dt 2 ms;"), three.out());
        assertTrue(one.out().contains("; 4 substeps x (1 soft + 1 relax), dt 2 ms;"), one.out());
        List<String> settledOne = lastColumns(one.out());
        List<String> settledThree = lastColumns(three.out());
        assertEquals("0.0000", settledThree.get(1), "nothing moved sideways: " + three.out());
        assertTrue(Double.parseDouble(settledThree.get(0)) < 0.05, "settled a little, mm: " + three.out());
        assertFalse(settledOne.get(0).equals(settledThree.get(0)), "the sweeps ran: the top sank another depth, "
                + settledOne + " against " + settledThree);
    }

    private static List<String> lastColumns(String out) {
        String row = out.lines().filter(line -> line.startsWith("cpu ")).findFirst().orElseThrow();
        List<String> columns = List.of(row.trim().split(" +"));
        return columns.subList(columns.size() - 2, columns.size());
    }

    @Test
    void refusesLatticeOptionsOutOfRangeOrWithoutTheSection() {
        assertRefused("--lattice-size must be in [1, 100], got 0", "--sections", "lattice", "--lattice-size", "0");
        assertRefused("--lattice-size must be in [1, 100], got 101", "--sections", "lattice", "--lattice-size", "101");
        assertRefused("--lattice-steps must be in [1, 10000], got 0", "--sections", "lattice", "--lattice-steps", "0");
        assertRefused("--lattice-size does nothing with --sections pyramid: it is for --sections lattice only",
                "--sections", "pyramid", "--lattice-size", "3");
        assertRefused("--lattice-steps does nothing with --sections sweep,step: it is for --sections lattice only",
                "--sections", "sweep,step", "--lattice-steps", "3");
        assertRefused("--rounds does nothing with --sections sweep: it is for --sections pyramid and lattice only",
                "--sections", "sweep", "--rounds", "3");
        assertRefused("--bodies-only does nothing with --sections step: it is for --sections pyramid and lattice only",
                "--sections", "step", "--bodies-only");
        assertRefused("--soft-iterations does nothing with --sections step: it is for --sections pyramid and lattice "
                + "only", "--sections", "step", "--soft-iterations", "2");
        assertRefused("--soft-iterations must be in [1, 100], got 0", "--sections", "lattice", "--soft-iterations", "0");
        assertRefused("--colouring-order does nothing with --sections step: it is for --sections pyramid and lattice "
                + "only", "--sections", "step", "--colouring-order", "hashed");
        assertRefused("--colouring-order must be contact or hashed, got 'random'", "--sections", "lattice",
                "--colouring-order", "random");
        assertRefused("--soft-iterations must be in [1, 100], got 101", "--sections", "lattice", "--soft-iterations",
                "101");
        assertRefused("--sections lattice steps on the cpu and opencl backends, and --backends naive,jbullet has "
                + "neither", "--sections", "lattice", "--backends", "naive,jbullet");
        assertRefused("--plot " + dir.resolve("b-lattice.csv") + " is the same file as --csv " + dir.resolve("b.csv")
                + " (its lattice table): one would overwrite the other", "--sections", "lattice", "--csv",
                dir.resolve("b.csv").toString(), "--plot", dir.resolve("b-lattice.csv").toString());
    }

    private static void assertRefused(String message, String... options) {
        String[] args = new String[options.length + 1];
        args[0] = "bench";
        System.arraycopy(options, 0, args, 1, options.length);
        Run run = Cli.inProcess(args);
        assertEquals(ExitCode.BAD_INPUT, run.exitCode(), run.err());
        assertEquals(List.of("error: " + message + " (see 'contact-solver bench --help')"), run.errLines());
    }

    /** A row of a 2^3 lattice with the given times; phases 1.5 ms of set-up, 0.5 of the rest; sank 12.5 um. */
    private static Row row(String backend, int threads, double median, double best, boolean repeatable,
            boolean sameAsFirst) {
        return new Row(2, 16, backend, threads, 10, "4 substeps x (1 soft + 1 relax)", median, best,
                List.of(0.5, 1.5, 0.5, 0.5, 0.5), threads == 0 ? List.of(2.5, 0.75) : List.of(), 0.25,
                new Settling(0.0000125f, 0.0f), 3, repeatable, sameAsFirst, List.of(median, best, median), false);
    }

    private static String table(List<Row> rows) {
        StringWriter text = new StringWriter();
        LatticeBench.table(rows, new PrintWriter(text, true));
        return text.toString().replace(System.lineSeparator(), "\n");
    }

    private static Map<String, String> row(List<String> header, String line) {
        String[] cells = line.split(",", -1);
        Map<String, String> row = new LinkedHashMap<>();
        for (int i = 0; i < header.size(); i++) {
            row.put(header.get(i), cells[i]);
        }
        return row;
    }
}
