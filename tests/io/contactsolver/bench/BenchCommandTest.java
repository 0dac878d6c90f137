package io.contactsolver.bench;

import io.contactsolver.app.ExitCode;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.contactsolver.ContactSolver;
import io.contactsolver.SolveResult;
import io.contactsolver.opencl.OpenClTestAccess;
import io.contactsolver.scene.Scene;
import io.contactsolver.scene.SceneGenerator;
import io.contactsolver.testing.Backends;
import io.contactsolver.testing.Cli.Run;
import io.contactsolver.testing.Cli;
import io.contactsolver.testing.NoFonts;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The bench command's outputs, on a run small enough for a test (its figures are not asserted). */
class BenchCommandTest {
    @TempDir
    Path dir;

    @Test
    void writesEveryRequiredColumnARowPerMeasurementAndAPlot() throws IOException {
        Path csv = dir.resolve("bench.csv");
        Path plot = dir.resolve("bench.png");
        Run run = Cli.inProcess("bench", "--contacts", "200,400", "--min-time", "0.01", "--backends",
                "cpu,naive,jbullet,bandwidth", "--pile-particles", "60", "--csv", csv.toString(), "--plot",
                plot.toString());
        assertEquals(ExitCode.OK, run.exitCode(), run.err());

        List<String> lines = Files.readAllLines(csv);
        List<String> header = Arrays.asList(lines.get(0).split(","));
        for (String required : List.of("backend", "solver", "contacts", "bodies", "threads", "seconds_per_solve",
                "contacts_per_second", "bytes_per_contact", "effective_gb_per_s", "packing_s", "transfer_s", "kernel_s",
                "setup_s", "host_s", "host_ns_per_contact")) {
            assertTrue(header.contains(required), "column " + required + " in " + header);
        }
        List<List<String>> rows = lines.subList(1, lines.size()).stream().map(l -> Arrays.asList(l.split(",", -1)))
                .collect(Collectors.toList());
        Set<String> backends = rows.stream().map(r -> r.get(header.indexOf("backend"))).collect(Collectors.toSet());
        assertEquals(Set.of("cpu", "naive", "jbullet", "bandwidth"), backends);
        int threads = Runtime.getRuntime().availableProcessors();
        for (String solver : List.of("single-pass", "soft-step")) {
            long pileCpuRows = rows.stream().filter(r -> r.get(0).equals("pile") && r.get(1).equals("cpu")
                    && r.get(2).equals(solver)).count();
            assertEquals(threads > 1 ? 4 : 2, pileCpuRows, solver + ": one thread and all cores, at each of two sizes");
        }
        for (List<String> row : rows) {
            if (row.get(header.indexOf("note")).startsWith("skipped")) {
                continue;
            }
            double seconds = Double.parseDouble(row.get(header.indexOf("seconds_per_solve")));
            double rate = Double.parseDouble(row.get(header.indexOf("contacts_per_second")));
            int contacts = Integer.parseInt(row.get(header.indexOf("contacts")));
            assertTrue(seconds > 0, "a measured time: " + row);
            // measured figures: the columns agree with each other here; the arithmetic of the derived
            // columns is checked on figures worked out by hand in MeasurementTest
            assertEquals(contacts / seconds, rate, rate * 1e-4, "contacts per second is contacts over time");
            double host = Double.parseDouble(row.get(header.indexOf("host_s")));
            double hostPerContact = Double.parseDouble(row.get(header.indexOf("host_ns_per_contact")));
            if (row.get(header.indexOf("backend")).equals("cpu")) {
                // each batch's host time is within its wall time, so their medians are in that order too
                assertTrue(host > 0 && host <= seconds * (1 + 1e-5), "the host's time, within the solve's: " + row);
                assertEquals(host * 1e9 / contacts, hostPerContact, hostPerContact * 1e-4, "host ns a contact");
            } else {
                assertEquals(0.0, host, "a baseline is no solve of the module: " + row);
            }
        }
        assertTrue(rows.stream().anyMatch(r -> r.get(0).equals("stack10") && r.get(2).equals("iterative")
                && Integer.parseInt(r.get(6)) > 10), "iterations of the stack to 1e-4 are reported");
        assertTrue(rows.stream().anyMatch(r -> r.get(0).equals("random") && r.get(1).equals("jbullet")
                && r.get(header.indexOf("note")).startsWith("skipped: JBullet keeps a diagonal")));
        assertTrue(rows.stream().anyMatch(r -> r.get(1).equals("naive")
                && r.get(header.indexOf("note")).startsWith("impulses within")), "naive checked against the module");
        assertTrue(ImageIO.read(plot.toFile()).getWidth() > 500, "a real PNG");
        assertTrue(run.out().contains("xnaive"), run.out());
    }

    /**
     * Each of the module's single-pass and step rows is a median over at least
     * {@link Benchmark#MIN_BATCHES} timed batches, however short {@code --min-time} is: a median
     * of a few lets one stall of the host's thread decide a row whose solve is long.
     */
    @Test
    void timesEachModuleRowOverAtLeastTenBatches() throws IOException {
        Path csv = dir.resolve("batches.csv");
        Run run = Cli.inProcess("bench", "--contacts", "200", "--scenes", "pile", "--min-time", "0.001",
                "--backends", "cpu", "--threads", "1", "--sections", "sweep,step", "--csv", csv.toString());
        assertEquals(ExitCode.OK, run.exitCode(), run.err());

        List<String> lines = Files.readAllLines(csv);
        List<String> header = Arrays.asList(lines.get(0).split(","));
        Set<String> solvers = new java.util.HashSet<>();
        for (String line : lines.subList(1, lines.size())) {
            List<String> row = Arrays.asList(line.split(",", -1));
            if (!row.get(header.indexOf("backend")).equals("cpu")) {
                continue;
            }
            solvers.add(row.get(header.indexOf("solver")));
            assertTrue(Integer.parseInt(row.get(header.indexOf("repeats"))) >= Benchmark.MIN_BATCHES,
                    "timed batches of " + row);
        }
        assertEquals(Set.of("single-pass", "soft-step"), solvers, "the rows measured");
    }

    /** The OpenCL row is set against the device's own limits, measured in the same run. */
    @Test
    void measuresTheLinkAndTheDeviceCopyBesideTheOpenClRow() throws IOException {
        OpenClTestAccess.requireDevice();
        Path csv = dir.resolve("device.csv");
        Run run = Cli.inProcess("bench", "--contacts", "2000", "--scenes", "pile", "--min-time", "0.01",
                "--backends", "opencl,bandwidth", "--sections", "sweep,step", "--csv", csv.toString());
        assertEquals(ExitCode.OK, run.exitCode(), run.err());

        List<String> lines = Files.readAllLines(csv);
        List<String> header = Arrays.asList(lines.get(0).split(","));
        for (String probe : List.of("upload", "readback", "device-copy")) {
            List<String> row = lines.stream().skip(1).map(l -> Arrays.asList(l.split(",", -1)))
                    .filter(r -> r.get(header.indexOf("solver")).equals(probe)).findFirst().orElseThrow();
            assertEquals("bandwidth", row.get(header.indexOf("backend")));
            assertTrue(Double.parseDouble(row.get(header.indexOf("effective_gb_per_s"))) > 0, "measured: " + row);
        }
        assertTrue(run.out().contains("of device copy") && run.out().contains("of upload"), run.out());

        // the single pass and the soft step on the device, each with the host's share of it
        for (String solver : List.of("single-pass", "soft-step")) {
            List<String> row = lines.stream().skip(1).map(l -> Arrays.asList(l.split(",", -1)))
                    .filter(r -> r.get(header.indexOf("backend")).equals("opencl")
                            && r.get(header.indexOf("solver")).equals(solver)).findFirst().orElseThrow();
            double seconds = Double.parseDouble(row.get(header.indexOf("seconds_per_solve")));
            double host = Double.parseDouble(row.get(header.indexOf("host_s")));
            double contacts = Double.parseDouble(row.get(header.indexOf("contacts")));
            assertTrue(Double.parseDouble(row.get(header.indexOf("kernel_s"))) > 0, "the device's time: " + row);
            assertTrue(Double.parseDouble(row.get(header.indexOf("transfer_s"))) > 0, "the device's copies: " + row);
            assertTrue(host > 0 && host <= seconds * (1 + 1e-5), "the host's time, within the solve's: " + row);
            double packing = Double.parseDouble(row.get(header.indexOf("packing_s")));
            assertTrue(packing > 0 && packing <= host * (1 + 1e-5), "the host's packing, within its time: " + row);
            assertEquals(host * 1e9 / contacts, Double.parseDouble(row.get(header.indexOf("host_ns_per_contact"))),
                    host * 1e9 / contacts * 1e-4, "host ns a contact: " + row);
            // and where it goes, phase by phase, beside the device's own time (commas become ';' in the CSV)
            String note = row.get(header.indexOf("note"));
            java.util.regex.Matcher split = java.util.regex.Pattern.compile("host ms: validate ([0-9.]+); set-up "
                    + "([0-9.]+); solve ([0-9.]+); output ([0-9.]+); integrate ([0-9.]+); device ms: kernels ([0-9.]+)")
                    .matcher(note);
            assertTrue(split.find(), "the host's phases in the note: " + note);
            double phases = 0;
            for (int g = 1; g <= 5; g++) {
                phases += Double.parseDouble(split.group(g));
            }
            assertTrue(phases > 0 && Double.parseDouble(split.group(6)) > 0, "measured phases: " + note);
        }
    }

    /**
     * On a Java runtime without {@code java.desktop} (here: {@code --limit-modules}) the bench runs
     * (no AWT or chart class on its way, which such a runtime cannot load), and {@code --plot} is
     * refused in one line before anything is measured. The child measures in its own JVM (the
     * bench's child property), so the limit holds where the measuring is.
     */
    @Test
    void runsWithoutTheDesktopModuleUnlessAPlotIsAsked() throws IOException, InterruptedException {
        List<String> withoutDesktop = List.of("--limit-modules", "java.base,java.logging,java.management",
                "-D" + BenchCommand.CHILD_PROPERTY + "=true");
        Path csv = dir.resolve("plain.csv");
        Run run = Cli.child(withoutDesktop, Map.of(), "bench", "--contacts", "200", "--min-time", "0.01",
                "--backends", "cpu,naive,jbullet,bandwidth", "--sections", "sweep,step", "--csv", csv.toString());
        assertEquals(ExitCode.OK, run.exitCode(), run.err());
        assertTrue(run.out().contains("soft-step") && run.out().contains("xnaive"), run.out());
        assertTrue(Files.readAllLines(csv).size() > 1, "rows written");

        Path plot = dir.resolve("plot.png");
        Run refused = Cli.child(withoutDesktop, Map.of(), "bench", "--contacts", "200", "--min-time", "0.01",
                "--backends", "cpu", "--sections", "sweep", "--plot", plot.toString());
        assertEquals(ExitCode.FAILURE, refused.exitCode(), refused.err());
        List<String> errors = refused.errLines().stream().filter(line -> !line.startsWith("INFO:")).toList();
        assertEquals(List.of("error: --plot needs the java.desktop module, which this Java runtime ("
                + System.getProperty("java.home") + ") lacks: run without --plot, or on a runtime with java.desktop"),
                errors);
        assertEquals("", refused.out(), "nothing measured");
        assertFalse(Files.exists(plot));
    }

    /** A runtime with {@code java.desktop} that cannot draw text refuses {@code --plot} before measuring. */
    @Test
    void refusesAPlotWhereTextCannotBeDrawn() throws IOException, InterruptedException {
        Path plot = dir.resolve("plot.png");
        Run refused = Cli.child(List.of("-D" + BenchCommand.CHILD_PROPERTY + "=true"), NoFonts.environment(dir),
                "bench", "--contacts", "200", "--min-time", "0.01", "--backends", "cpu", "--sections", "sweep",
                "--plot", plot.toString());
        assertEquals(ExitCode.FAILURE, refused.exitCode(), refused.err());
        List<String> errors = refused.errLines().stream().filter(line -> !line.startsWith("INFO:")).toList();
        assertEquals(1, errors.size(), refused.err());
        assertTrue(errors.get(0).startsWith("error: --plot: this Java runtime cannot draw text (UnsatisfiedLinkError: ")
                && errors.get(0).contains("libharfbuzz.so.0") && errors.get(0).endsWith("); run without --plot, or "
                + "install its font libraries (freetype, harfbuzz, fontconfig)"), errors.get(0));
        assertEquals("", refused.out(), "nothing measured");
        assertFalse(Files.exists(plot));
    }

    /** Without the rewrite, repeated solves of one scene would find every field already on the device. */
    @Test
    void everyTimedSolveSendsAllItsInputs() {
        Scene scene = SceneGenerator.randomGraph(3, 500, 2000);
        try (ContactSolver openCl = Backends.openClOrSkip()) {
            long first = openCl.solve(scene.bodies(), scene.contacts(), new SolveResult()).bytesUploaded();
            long unchanged = openCl.solve(scene.bodies(), scene.contacts(), new SolveResult()).bytesUploaded();
            Benchmark.rewriteInputs(scene.bodies(), scene.contacts());
            long rewritten = openCl.solve(scene.bodies(), scene.contacts(), new SolveResult()).bytesUploaded();
            assertTrue(unchanged < first, "the device keeps fields it holds: " + unchanged + " < " + first);
            assertEquals(first, rewritten, "after the rewrite everything goes up again");
        }
    }

    /**
     * One default run gives the single pass, the iterative solver and the soft step; the soft step
     * at each --contacts count up to --step-max, so the default leaves the 10,000,000-contact pile
     * out and the option brings it in; a --step-max below every count is refused.
     */
    @Test
    void theSoftStepRunsAtEachContactCountUpToStepMax() {
        BenchCommand defaults = new BenchCommand();
        new CommandLine(defaults).parseArgs();
        Benchmark.Plan plan = defaults.plan(2);
        assertTrue(plan.sweep() && plan.iterative() && plan.step(), "the default sections");
        assertTrue(plan.contactCounts().contains(10_000_000), "the sweep still goes to 10,000,000");
        assertEquals(List.of(1000, 10_000, 100_000, 1_000_000), plan.stepContactCounts());

        BenchCommand large = new BenchCommand();
        new CommandLine(large).parseArgs("--contacts", "100000,1000000,10000000", "--step-max", "10000000");
        assertEquals(List.of(100_000, 1_000_000, 10_000_000), large.plan(2).stepContactCounts());

        Run refused = Cli.inProcess("bench", "--contacts", "1000,2000", "--step-max", "100");
        assertEquals(ExitCode.BAD_INPUT, refused.exitCode(), refused.err());
        assertEquals(List.of("error: --step-max 100 is below every --contacts count: the step section would measure "
                + "nothing (see 'contact-solver bench --help')"), refused.errLines());
    }

    /**
     * --warm-up keeps each of the module's rows solving untimed for that long before its timing: a
     * run of one row takes at least that; a negative or non-finite one is refused in one line.
     */
    @Test
    void warmsEachRowUpForTheSecondsGiven() {
        BenchCommand defaults = new BenchCommand();
        new CommandLine(defaults).parseArgs();
        assertEquals(0.0, defaults.plan(2).warmUpSeconds(), "by default one untimed solve, no more");

        long start = System.nanoTime();
        Run run = Cli.inProcess("bench", "--contacts", "200", "--scenes", "pile", "--min-time", "0.01", "--backends",
                "cpu", "--threads", "1", "--sections", "sweep", "--warm-up", "1.5");
        double seconds = (System.nanoTime() - start) / 1e9;
        assertEquals(ExitCode.OK, run.exitCode(), run.err());
        assertTrue(run.out().contains("single-pass"), run.out());
        assertTrue(seconds >= 1.5, "the row warmed up for 1.5 s: the run took " + seconds + " s");

        for (String bad : List.of("-1", "NaN", "Infinity")) {
            Run refused = Cli.inProcess("bench", "--warm-up", bad);
            assertEquals(ExitCode.BAD_INPUT, refused.exitCode(), refused.err());
            assertEquals(List.of("error: --warm-up must be zero or more seconds and finite, got "
                    + Double.parseDouble(bad) + " (see 'contact-solver bench --help')"), refused.errLines());
        }
    }

    @Test
    void refusesUnknownBackendsAndScenes() {
        Run backend = Cli.inProcess("bench", "--backends", "cuda");
        assertEquals(ExitCode.BAD_INPUT, backend.exitCode());
        assertTrue(backend.err().contains("unknown backend 'cuda'"), backend.err());
        Run scene = Cli.inProcess("bench", "--scenes", "tower");
        assertEquals(ExitCode.BAD_INPUT, scene.exitCode());
    }
}
