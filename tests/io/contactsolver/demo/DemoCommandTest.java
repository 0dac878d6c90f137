package io.contactsolver.demo;

import io.contactsolver.app.ExitCode;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.contactsolver.testing.Cli.Run;
import io.contactsolver.testing.Cli;
import io.contactsolver.testing.NoFonts;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code demo}: what it prints and writes, and how it refuses bad options. */
class DemoCommandTest {
    @TempDir
    Path dir;

    @Test
    void writesTheSnapshotTheChartAndTheCsvAndPrintsTheSummary() throws IOException {
        Path out = dir.resolve("out");
        Path csv = dir.resolve("figures").resolve("steps.csv");
        Run run = Cli.inProcess("demo", "--scene", "box", "--particles", "250", "--steps", "120", "--dt", "0.0025",
                "--restitution", "0.4", "--iterations", "8", "--scheme", "two-solves", "--backend", "cpu", "--seed", "3",
                "--out", out.toString(), "--csv", csv.toString());
        assertEquals(ExitCode.OK, run.exitCode(), run.err());

        BufferedImage snapshot = ImageIO.read(out.resolve(DemoCommand.SNAPSHOT).toFile());
        assertNotNull(snapshot, "a PNG");
        assertTrue(snapshot.getWidth() >= 1200 && snapshot.getHeight() >= 300, snapshot.toString());
        BufferedImage chart = ImageIO.read(out.resolve(DemoCommand.CHART).toFile());
        assertNotNull(chart, "a PNG");
        assertEquals(1000, chart.getWidth());
        try (Stream<Path> files = Files.list(out)) {
            assertEquals(List.of(DemoCommand.CHART, DemoCommand.PARTICLES_CSV, DemoCommand.SNAPSHOT),
                    files.map(p -> p.getFileName().toString()).sorted().toList(), "no temporary file left");
        }
        assertParticlesCsv(out.resolve(DemoCommand.PARTICLES_CSV), 250);

        List<String> rows = Files.readAllLines(csv);
        assertEquals(StepFigures.CSV_HEADER, rows.get(0));
        assertEquals(121, rows.size(), "a row per step");
        String[] last = rows.get(120).split(",");
        assertEquals(StepFigures.CSV_HEADER.split(",").length, last.length);
        assertEquals("120", last[0]);
        assertEquals(0.3, Double.parseDouble(last[1]), 1e-6, "120 steps of 2.5 ms");
        assertEquals("250", last[2], "spheres in the world");
        assertTrue(Integer.parseInt(last[3]) > 250, "the spheres have landed: " + rows.get(120));
        assertEquals("8", last[6], "iterations used");
        assertEquals("4", last[7], "push-out iterations: half as many");

        List<String> summary = run.out().lines().toList();
        assertTrue(summary.get(0).startsWith("demo: box, 250 spheres, 120 steps of 0.0025 s (0.30 s simulated), "
                + "restitution 0.4, friction 0.5, rolling resistance 0.001 m, torsion 0.001 m, two solves (8 velocity "
                + "and 4 push-out iterations)"), summary.get(0));
        assertTrue(summary.get(1).startsWith("backend: CPU"), summary.get(1));
        assertTrue(summary.get(2).matches("solve: [0-9.]+ ms per step on average, [0-9,]+ contacts per second, "
                + "[0-9,]+ contact-iterations per second \\([0-9,]+ contacts and 1[12]\\.[0-9] iterations per step on "
                + "average, the velocity and push-out solves together\\)"), summary.get(2));
        assertTrue(summary.get(3).matches("kinetic energy: \\S+ J after the first step, \\S+ J after the last"),
                summary.get(3));
        assertTrue(summary.get(4).startsWith("largest remaining approach velocity: "), summary.get(4));
        assertTrue(run.err().contains("120/120 steps") && run.err().contains("contacts/step"), "the progress bar");
    }

    /**
     * A Java runtime whose font libraries cannot be loaded (a trimmed one on a GPU machine had no
     * libharfbuzz) still runs the demo and writes its CSVs; the two pictures are left out with a
     * one-line warning given before the run, not a stack trace after it.
     */
    @Test
    void withoutFontLibrariesWritesTheCsvsAndWarnsOfThePictures() throws IOException, InterruptedException {
        Path out = dir.resolve("out");
        Path csv = dir.resolve("steps.csv");
        Run run = Cli.child(NoFonts.environment(dir), "demo", "--scene",
                "box", "--particles", "50", "--steps", "20", "--backend", "cpu", "--out", out.toString(), "--csv",
                csv.toString());
        assertEquals(ExitCode.OK, run.exitCode(), run.err());
        assertTrue(run.err().contains("warning: particles.png and energy-contacts.png will not be written: this Java "
                + "runtime cannot draw text (UnsatisfiedLinkError: "), run.err());
        assertTrue(run.err().contains("libharfbuzz.so.0") && !run.err().contains("\tat "), run.err());
        try (Stream<Path> files = Files.list(out)) {
            assertEquals(List.of(DemoCommand.PARTICLES_CSV), files.map(p -> p.getFileName().toString()).toList());
        }
        assertParticlesCsv(out.resolve(DemoCommand.PARTICLES_CSV), 50);
        assertEquals(21, Files.readAllLines(csv).size(), "a row per step");
        assertTrue(run.out().contains("wrote " + out.resolve(DemoCommand.PARTICLES_CSV) + ", " + csv), run.out());
    }

    /**
     * A Java runtime linked without {@code java.desktop} (here: {@code --limit-modules}; the GPU
     * machine's trimmed runtime was one) runs the demo and writes its CSVs, warning of the pictures
     * in one line before the run; no AWT class is on its way.
     */
    @Test
    void withoutTheDesktopModuleWritesTheCsvsAndWarnsOfThePictures() throws IOException, InterruptedException {
        Path out = dir.resolve("out");
        Run run = Cli.child(List.of("--limit-modules", "java.base,java.logging,java.management"), Map.of(), "demo",
                "--scene", "box", "--particles", "50", "--steps", "20", "--backend", "cpu", "--out", out.toString());
        assertEquals(ExitCode.OK, run.exitCode(), run.err());
        List<String> warnings = run.errLines().stream().filter(line -> line.startsWith("warning:")).toList();
        assertEquals(List.of("warning: particles.png and energy-contacts.png will not be written: this Java runtime ("
                + System.getProperty("java.home") + ") lacks the java.desktop module; run on a runtime with it to get "
                + "them"), warnings);
        assertFalse(run.err().contains("\tat "), run.err());
        try (Stream<Path> files = Files.list(out)) {
            assertEquals(List.of(DemoCommand.PARTICLES_CSV), files.map(p -> p.getFileName().toString()).toList());
        }
        assertParticlesCsv(out.resolve(DemoCommand.PARTICLES_CSV), 50);
    }

    /** The default scheme: the module's soft step, 4 substeps of a soft and a relax sweep, no push-out solve. */
    @Test
    void stepsOnTheSoftStepByDefault(@TempDir Path dir) throws IOException {
        Path csv = dir.resolve("steps.csv");
        Run run = Cli.inProcess("demo", "--scene", "box", "--particles", "200", "--steps", "60", "--backend", "cpu",
                "--seed", "3", "--out", dir.resolve("out").toString(), "--csv", csv.toString());
        assertEquals(ExitCode.OK, run.exitCode(), run.err());
        String[] last = Files.readAllLines(csv).get(60).split(",");
        assertEquals("8", last[6], "sweeps a step: 4 substeps x (soft + relax)");
        assertEquals("0", last[7], "no push-out solve");
        String first = run.out().lines().findFirst().orElseThrow();
        assertTrue(first.contains("soft step (4 substeps of one soft and one relax sweep)"), first);
        Run refused = Cli.inProcess("demo", "--scheme", "jacobi", "--steps", "1");
        assertEquals(ExitCode.BAD_INPUT, refused.exitCode());
        assertTrue(refused.err().contains("unknown scheme 'jacobi' (one of soft-step, two-solves)"), refused.err());
        Run tooMany = Cli.inProcess("demo", "--substeps", "65", "--steps", "1");
        assertEquals(ExitCode.BAD_INPUT, tooMany.exitCode());
        assertTrue(tooMany.err().contains("--substeps must be in [1, 64], got 65"), tooMany.err());
    }

    /**
     * The hashed colouring order: the first line says so, the box fills to the same number of
     * sweeps a step, and the spheres come to rest elsewhere (another solve order).
     */
    @Test
    void theHashedColouringOrderIsNamedAndStepsTheBoxOtherwise(@TempDir Path dir) throws IOException {
        String[] common = {"demo", "--scene", "box", "--particles", "200", "--steps", "60", "--backend", "cpu",
            "--seed", "3"};
        Run contact = Cli.inProcess(concat(common, "--out", dir.resolve("contact").toString()));
        Run hashed = Cli.inProcess(concat(common, "--out", dir.resolve("hashed").toString(), "--colouring-order",
                "hashed"));
        assertEquals(ExitCode.OK, hashed.exitCode(), hashed.err());
        String first = hashed.out().lines().findFirst().orElseThrow();
        assertTrue(first.contains("soft step (4 substeps of one soft and one relax sweep, manifolds coloured in the "
                + "hashed order)"), first);
        assertTrue(!contact.out().lines().findFirst().orElseThrow().contains("hashed"), contact.out());
        assertNotEquals(Files.readAllLines(dir.resolve("contact").resolve(DemoCommand.PARTICLES_CSV)),
                Files.readAllLines(dir.resolve("hashed").resolve(DemoCommand.PARTICLES_CSV)));
    }

    @Test
    void theSameSeedWritesTheSameFiguresOnEveryRun() throws IOException {
        String[] common = {"demo", "--scene", "box", "--particles", "150", "--steps", "60", "--backend", "cpu",
            "--seed", "11"};
        for (String name : new String[] {"a", "b"}) {
            Run run = Cli.inProcess(concat(common, "--out", dir.resolve(name).toString(), "--csv",
                    dir.resolve(name + ".csv").toString()));
            assertEquals(ExitCode.OK, run.exitCode(), run.err());
        }
        assertEquals(withoutTimings(Files.readAllLines(dir.resolve("a.csv"))),
                withoutTimings(Files.readAllLines(dir.resolve("b.csv"))));
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({
        "--particles, 0, --particles must be between 1 and",
        "--particles, 2000001, --particles must be between 1 and",
        "--steps, 0, --steps must be at least 1",
        "--dt, 0, --dt must be greater than 0 and at most 0.1 s",
        "--dt, NaN, --dt must be greater than 0 and at most 0.1 s",
        "--dt, 0.5, --dt must be greater than 0 and at most 0.1 s",
        "--restitution, 1.5, --restitution must be between 0 and 1",
        "--restitution, -0.1, --restitution must be between 0 and 1",
        "--iterations, 0, --iterations must be at least 1",
        "--friction, -0.1, --friction must be finite and at least 0",
        "--friction, NaN, --friction must be finite and at least 0",
        "--friction, Infinity, --friction must be finite and at least 0",
        "--rolling-resistance, -0.001, --rolling-resistance must be finite and at least 0 m",
        "--rolling-resistance, NaN, --rolling-resistance must be finite and at least 0 m",
        "--rolling-resistance, Infinity, --rolling-resistance must be finite and at least 0 m",
        "--torsion, -0.001, --torsion must be finite and at least 0 m",
        "--torsion, NaN, --torsion must be finite and at least 0 m",
        "--colouring-order, random, --colouring-order must be contact or hashed, got 'random'"})
    void refusesABadOptionWithOneLineAndWritesNothing(String option, String value, String message) {
        Path out = dir.resolve("out");
        assertRefusedAsAnOption(Cli.inProcess("demo", option, value, "--out", out.toString(), "--backend", "cpu"),
                message, out);
    }

    /** Exit 2, one line that starts with {@code message} and ends with the help pointer, nothing written. */
    private static void assertRefusedAsAnOption(Run run, String message, Path out) {
        assertEquals(ExitCode.BAD_INPUT, run.exitCode(), run.err());
        assertEquals(1, run.errLines().size(), run.err());
        assertTrue(run.errLines().get(0).startsWith("error: " + message), run.err());
        assertTrue(run.errLines().get(0).endsWith("(see 'contact-solver demo --help')"), run.err());
        assertEquals("", run.out());
        assertTrue(Files.notExists(out), "nothing written");
    }

    /**
     * A time step inside the option's range that float cannot carry (its substep or its inverse
     * underflow or overflow) is refused as the option's, at parsing, with the reason: exit 2, one
     * line, the help pointer, nothing written; not exit 1 from inside the simulation.
     */
    @ParameterizedTest(name = "{0} --dt {1}")
    @CsvSource({
        "soft-step, 1e-45, --dt 1.4E-45: time step dt = 1.4E-45 s is subnormal",
        "soft-step, 1e-39, --dt 1.0E-39: time step dt = 1.0E-39 s is subnormal",
        "soft-step, 1e-38, --dt 1.0E-38: time step dt = 1.0E-38 s is subnormal",
        "soft-step, 4e-38, --dt 4.0E-38: time step dt = 4.0E-38 s over 4 substeps: the soft step's substep h = dt / 4 "
            + "= 1.0E-38 is subnormal",
        "two-solves, 1e-45, --dt 1.4E-45: time step dt = 1.4E-45 s is subnormal",
        "two-solves, 1e-38, --dt 1.0E-38: time step dt = 1.0E-38 s is subnormal"})
    void refusesATimeStepFloatCannotCarryAsTheOptions(String scheme, String dt, String message) {
        Path out = dir.resolve("out");
        assertRefusedAsAnOption(Cli.inProcess("demo", "--scheme", scheme, "--dt", dt, "--out", out.toString(),
                "--backend", "cpu"), message, out);
    }

    /**
     * Every pairing of {@code --csv} with a file the demo writes into {@code --out} (and with the
     * folder itself), however the path reaches it ({@code ..}, a symbolic link, another case, as
     * on macOS and Windows), is refused before anything runs: exit 2, one line naming both
     * options; the earlier file there is kept as it was.
     */
    @ParameterizedTest(name = "--csv {0}")
    @CsvSource({
        "out/particles.csv, out (its particles.csv)",
        "out/particles.png, out (its particles.png)",
        "out/energy-contacts.png, out (its energy-contacts.png)",
        "out/../out/particles.csv, out (its particles.csv)",
        "out/missing/../particles.png, out (its particles.png)",
        "link/particles.csv, out (its particles.csv)",
        "out/Particles.CSV, out (its particles.csv)",
        "out, out"})
    void refusesACsvThatIsOneOfTheFilesOfOut(String csv, String clash) throws IOException {
        Path out = Files.createDirectories(dir.resolve("out"));
        Files.writeString(out.resolve(DemoCommand.PARTICLES_CSV), "earlier\n");
        Files.createSymbolicLink(dir.resolve("link"), out);
        Run run = Cli.inProcess("demo", "--scene", "box", "--particles", "20", "--steps", "2", "--backend", "cpu",
                "--out", out.toString(), "--csv", dir.resolve(csv).toString());
        assertEquals(ExitCode.BAD_INPUT, run.exitCode(), run.err());
        assertEquals(List.of("error: --csv " + dir.resolve(csv) + " is the same file as --out " + dir.resolve(clash)
                + ": one would overwrite the other (see 'contact-solver demo --help')"), run.errLines());
        assertEquals("", run.out());
        assertEquals("earlier\n", Files.readString(out.resolve(DemoCommand.PARTICLES_CSV)), "the earlier file kept");
        try (Stream<Path> files = Files.list(out)) {
            assertEquals(1, files.count(), "nothing written");
        }
    }

    /** A --csv beside the outputs, not one of them, is written with them. */
    @Test
    void aCsvBesideTheOutputsIsWritten() throws IOException {
        Path out = dir.resolve("out");
        Run run = Cli.inProcess("demo", "--scene", "box", "--particles", "20", "--steps", "2", "--backend", "cpu",
                "--out", out.toString(), "--csv", out.resolve("steps.csv").toString());
        assertEquals(ExitCode.OK, run.exitCode(), run.err());
        assertEquals(3, Files.readAllLines(out.resolve("steps.csv")).size(), "a header and a row per step");
        assertParticlesCsv(out.resolve(DemoCommand.PARTICLES_CSV), 20);
    }

    /**
     * An option the chosen scheme or backend does not use is refused, not dropped without a word:
     * exit 2, one line naming it and what it is for.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = ';', value = {
        "--scheme two-solves --substeps 8; --substeps does nothing with --scheme two-solves: it is for --scheme "
            + "soft-step only",
        "--scheme two-solves --contact-hertz 60; --contact-hertz does nothing with --scheme two-solves: it is for "
            + "--scheme soft-step only",
        "--scheme two-solves --colouring-order hashed; --colouring-order does nothing with --scheme two-solves: it "
            + "is for --scheme soft-step only",
        "--iterations 5; --iterations does nothing with --scheme soft-step: it is for --scheme two-solves only",
        "--backend cpu --device 0; --device does nothing with --backend cpu: it is for --backend opencl or auto only"})
    void refusesAnOptionTheChosenModeIgnores(String options, String message) {
        Path out = dir.resolve("out");
        List<String> args = new java.util.ArrayList<>(List.of("demo", "--steps", "1", "--out", out.toString()));
        args.addAll(List.of(options.split(" ")));
        assertRefusedAsAnOption(Cli.inProcess(args.toArray(String[]::new)), message + " (see", out);
    }

    /**
     * A small heap, the default scene: poured, run until at rest, its angle measured and printed, particles.csv holding
     * every poured sphere, and the snapshot written.
     */
    @Test
    void poursAHeapUntilAtRestAndPrintsItsAngle() throws IOException {
        Path out = dir.resolve("heap");
        Run run = Cli.inProcess("demo", "--particles", "300", "--steps", "1500", "--backend", "cpu",
                "--out", out.toString());
        assertEquals(ExitCode.OK, run.exitCode(), run.err());
        List<String> summary = run.out().lines().toList();
        assertTrue(summary.get(0).startsWith("demo: heap, 300 spheres, "), summary.get(0));
        assertTrue(summary.stream().anyMatch(line -> line.matches("at rest after [0-9,]+ steps .*")), run.out());
        assertTrue(summary.stream().anyMatch(line -> line.matches("heap: .*angle of repose -?[0-9.]+ degrees .*")),
                run.out());
        assertParticlesCsv(out.resolve(DemoCommand.PARTICLES_CSV), 300);
        assertNotNull(ImageIO.read(out.resolve(DemoCommand.SNAPSHOT).toFile()), "a PNG");
    }

    @Test
    void refusesAnUnknownSceneBackendOrANumberThatIsNotOne() {
        Run scene = Cli.inProcess("demo", "--scene", "pile");
        assertEquals(ExitCode.BAD_INPUT, scene.exitCode());
        assertTrue(scene.errLines().get(0).contains("--scene"), scene.err());
        Run backend = Cli.inProcess("demo", "--backend", "gpu");
        assertEquals(ExitCode.BAD_INPUT, backend.exitCode());
        assertTrue(backend.errLines().get(0).contains("--backend"), backend.err());
        Run particles = Cli.inProcess("demo", "--particles", "many");
        assertEquals(ExitCode.BAD_INPUT, particles.exitCode());
        assertTrue(particles.errLines().get(0).contains("--particles") && particles.errLines().get(0).contains("many"),
                particles.err());
    }

    /** particles.csv: the header, then a row of 11 numbers per sphere, ids in order, radii in range. */
    private static void assertParticlesCsv(Path file, int spheres) throws IOException {
        List<String> rows = Files.readAllLines(file);
        assertEquals("id,x,y,z,radius,vx,vy,vz,wx,wy,wz", rows.get(0));
        assertEquals(spheres + 1, rows.size(), "a row per sphere");
        for (int i = 1; i < rows.size(); i++) {
            String[] fields = rows.get(i).split(",");
            assertEquals(11, fields.length, rows.get(i));
            assertEquals(i - 1, Integer.parseInt(fields[0]), rows.get(i));
            float radius = Float.parseFloat(fields[4]);
            assertTrue(radius >= ParticleWorld.MIN_RADIUS && radius <= ParticleWorld.MAX_RADIUS, rows.get(i));
            for (int f = 1; f < fields.length; f++) {
                assertTrue(Float.isFinite(Float.parseFloat(fields[f])), rows.get(i));
            }
            assertTrue(Float.parseFloat(fields[2]) > 0.0f, "y is up, the spheres above the floor: " + rows.get(i));
        }
    }

    /** The CSV without its solve-time column, the one figure that depends on the machine. */
    private static List<String> withoutTimings(List<String> rows) {
        int column = List.of(StepFigures.CSV_HEADER.split(",")).indexOf("solve_ms");
        return rows.stream().map(row -> {
            String[] fields = row.split(",");
            fields[column] = "";
            return String.join(",", fields);
        }).toList();
    }

    private static String[] concat(String[] first, String... more) {
        String[] all = new String[first.length + more.length];
        System.arraycopy(first, 0, all, 0, first.length);
        System.arraycopy(more, 0, all, first.length, more.length);
        return all;
    }
}
