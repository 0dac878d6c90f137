package io.contactsolver.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.contactsolver.Backend;
import io.contactsolver.ContactSolver;
import io.contactsolver.SolveSettings;
import io.contactsolver.SolverConfig;
import io.contactsolver.app.ExitCode;
import io.contactsolver.app.Scheme;
import io.contactsolver.bench.EngineBenchmark.Engine;
import io.contactsolver.bench.PyramidBench.Layout;
import io.contactsolver.bench.PyramidBench.Motion;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The pyramid section of {@code bench}: the peers' own benchmarks (Box3D's, Box2D v3's) run beside
 * ours in one sitting, read from their output, and the ratios quoted only for each peer's own scene;
 * the many-pyramids scene standing at the defaults. Stand-in shell scripts play the peers' programs
 * here; the real ones are built from the peers' repositories outside this project.
 */
class PyramidBenchTest {
    @TempDir
    Path dir;

    /**
     * Each peer runs its own scene before each of our runs of it and once after the scene's last:
     * scene by scene, Box3D then Box2D, each call in a folder of its own that is gone afterwards.
     * The stand-ins print {@code n} ms a step on the {@code n}-th call of the sitting.
     */
    @Test
    void eachPeerRunsItsSceneBeforeEachOfOurRunsAndAfterTheLastInAFolderOfItsOwn() throws IOException {
        Path log = dir.resolve("calls.log");
        Path box3d = standIn("fake-box3d", "box3d", log);
        Path box2d = standIn("fake-box2d", "box2d", log);
        Path csv = dir.resolve("bench.csv");
        Run run = Cli.inProcess("bench", "--sections", "pyramid", "--backends", "cpu", "--threads", "1",
                "--pyramid-scenes", "large,many", "--pyramid-base", "3", "--many-pyramids-grid", "1",
                "--many-pyramids-base", "2", "--frames", "52", "--pyramid-schemes", "soft-step", "--rounds", "2",
                "--box3d-benchmark", box3d.toString(), "--box2d-benchmark", box2d.toString(), "--csv", csv.toString());
        assertEquals(ExitCode.OK, run.exitCode(), run.err());

        List<String> calls = Files.readAllLines(log);
        // Box3D's program is asked for its own profile of each step (-s), Box2D's is not
        String large = " -b=large_pyramid -t=1 -w=1 -r=1 in ";
        String largeProfiled = " -b=large_pyramid -t=1 -w=1 -r=1 -s in ";
        String many = " -b=many_pyramids -t=1 -w=1 -r=1 -s in ";
        List<String> expected = List.of("box3d" + largeProfiled, "box2d" + large, "box3d" + largeProfiled,
                "box2d" + large, "box3d" + largeProfiled, "box2d" + large, "box3d" + many, "box3d" + many,
                "box3d" + many);
        assertEquals(expected, calls.stream().map(call -> call.substring(0, call.indexOf(" in ") + 4)).toList(),
                "before each of the two rounds of each scene and after its last: " + calls);
        Path here = Paths.get("").toAbsolutePath();
        for (String call : calls) {
            Path folder = Paths.get(call.substring(call.indexOf(" in ") + 4));
            assertFalse(folder.equals(here), "not in the working folder: " + call);
            assertFalse(Files.exists(folder), "its folder and CSV are gone: " + call);
        }
        assertFalse(Files.exists(here.resolve("large_pyramid.csv")), "the peers' CSV stays out of the working folder");
        // calls 1, 3, 5 were Box3D's large_pyramid, 2, 4, 6 Box2D's, 7, 8, 9 Box3D's many_pyramids
        assertTrue(run.out().contains("Box3D large_pyramid, whole step (collision included), 1 thread, its steps 2 to "
                + "11 a run, measured in this run, interleaved with ours (" + box3d + " -b=large_pyramid -t=1 -w=1 -r=1 -s): "
                + "best 1.00 ms, median 3.00 ms over 3 runs"), run.out());
        // its profiles: n ms a step, n in its solver and 1 in its collision on the n-th call, the first
        // step's 99 left out; the median over calls 1, 3, 5
        assertTrue(run.out().contains("Box3D large_pyramid, its own profile of a step (-s; each figure the median over "
                + "its timed steps, then over its 3 invocations): step 3.00 ms, of which its constraint solver 3.00"),
                run.out());
        assertTrue(run.out().contains("and its collision 1.00"), run.out());
        assertFalse(run.out().contains("Box2D v3 large_pyramid, its own profile"), "Box2D's is not asked for: "
                + run.out());
        assertTrue(run.out().contains("Box2D v3 large_pyramid, whole step (collision included), 1 thread, its steps 2 "
                + "to 11 a run, measured in this run, interleaved with ours (" + box2d
                + " -b=large_pyramid -t=1 -w=1 -r=1): best 2.00 ms, median 4.00 ms over 3 runs"), run.out());
        assertTrue(run.out().contains("Box3D many_pyramids, whole step (collision included), 1 thread, its steps 2 to "
                + "11 a run, measured in this run, interleaved with ours (" + box3d + " -b=many_pyramids -t=1 -w=1 -r=1 -s): "
                + "best 7.00 ms, median 8.00 ms over 3 runs"), run.out());
        assertTrue(run.out().contains("no ratios to Box3D: its large_pyramid has 5,050 boxes, this one 6"), run.out());
        assertTrue(run.out().contains("no ratios to Box2D v3: its large_pyramid has 5,050 boxes, this one 6"),
                run.out());
        assertTrue(run.out().contains("no ratios to Box3D: its many_pyramids has 10,780 boxes, this one 3"), run.out());
        assertTrue(run.out().contains("2 rounds a configuration"), run.out());

        List<String> rows = Files.readAllLines(dir.resolve("bench-pyramid.csv"));
        List<String> header = List.of(rows.get(0).split(","));
        assertEquals(3, rows.size(), "one row a scene: " + rows);
        Map<String, String> largeRow = row(header, rows.get(1));
        assertEquals("large", largeRow.get("scene"));
        assertEquals("6", largeRow.get("boxes"));
        assertEquals("2", largeRow.get("rounds"));
        assertEquals("3.0000", largeRow.get("box3d_median_ms"));
        assertEquals("1.0000", largeRow.get("box3d_best_ms"));
        assertEquals("3.0000", largeRow.get("box3d_solver_ms"));
        assertEquals("1.0000", largeRow.get("box3d_collision_ms"));
        assertEquals("4.0000", largeRow.get("box2d_median_ms"));
        assertEquals("2.0000", largeRow.get("box2d_best_ms"));
        assertEquals("", largeRow.get("box2d_solver_ms"), "no profile of Box2D's");
        Map<String, String> manyRow = row(header, rows.get(2));
        assertEquals("many", manyRow.get("scene"));
        assertEquals("3", manyRow.get("boxes"));
        assertEquals("8.0000", manyRow.get("box3d_median_ms"));
        assertEquals("7.0000", manyRow.get("box3d_best_ms"));
        assertEquals("8.0000", manyRow.get("box3d_solver_ms"));
        assertEquals("", manyRow.get("box2d_median_ms"), "Box2D has no such scene");
        for (Map<String, String> row : List.of(largeRow, manyRow)) {
            double median = Double.parseDouble(row.get("solver_ms_per_frame"));
            double best = Double.parseDouble(row.get("best_solver_ms_per_frame"));
            assertTrue(best > 0 && best <= median, best + " <= " + median);
            assertEquals("true", row.get("stands"), row.toString());
        }
        assertFalse(run.out().contains("moved the boxes differently"), "the rounds step the same bits: " + run.out());
    }

    /**
     * On Box3D's own scene the table quotes our times over Box3D's: the stand-in's runs take 1.0 and
     * 2.0 ms a step (199 and 398 ms over the 199 steps it times), so the ratio is our median over
     * 1.5 ms and our best over 1.0 ms, recomputed here from the CSV's figures.
     */
    @Test
    void ourTimeOnBox3dsOwnSceneIsQuotedAsAMultipleOfBox3ds() throws IOException {
        Path log = dir.resolve("calls.log");
        Path box3d = script("fake-box3d", """
                #!/bin/sh
                echo "$*" >> '%s'
                n=$(wc -l < '%s')
                echo "benchmark: large_pyramid, steps = 200"
                echo "run 0 : $((n * 199)) (ms)"
                echo "body 5051 / shape 5051 / contact 14950 / joint 0 / stack 0"
                echo "1 0 0 1 0 0 0" > large_pyramid_t1.dat
                echo "1 0 0 1 0 0 0" >> large_pyramid_t1.dat
                """.formatted(log, log));
        Path csv = dir.resolve("bench.csv");
        Run run = Cli.inProcess("bench", "--sections", "pyramid", "--backends", "cpu", "--threads", "1",
                "--frames", "51", "--pyramid-schemes", "soft-step", "--box3d-benchmark", box3d.toString(),
                "--csv", csv.toString());
        assertEquals(ExitCode.OK, run.exitCode(), run.err());
        List<String> rows = Files.readAllLines(dir.resolve("bench-pyramid.csv"));
        Map<String, String> row = row(List.of(rows.get(0).split(",")), rows.get(1));
        assertEquals("5050", row.get("boxes"));
        assertEquals("1.5000", row.get("box3d_median_ms"));
        double ours = Double.parseDouble(row.get("solver_ms_per_frame"));
        String line = run.out().lines().filter(text -> text.startsWith("soft-step ")).findFirst().orElseThrow();
        String[] columns = line.trim().split(" +");
        // scheme, backend, threads, solver ms/frame, best, x Box3D, best x
        assertEquals(ours, Double.parseDouble(columns[3]), 0.005, line);
        assertEquals(ours / 1.5, Double.parseDouble(columns[5]), 0.01, line);
        assertEquals(ours / 1.0, Double.parseDouble(columns[6]), 0.01, line);
        assertTrue(run.out().contains("x Box3D: our median over Box3D's median; best x: our best over its best"),
                run.out());
    }

    @Test
    void aFailingPeerIsOneLineNamingItAndNoTableIsWritten() throws IOException {
        Path box3d = script("crashing-box3d", """
                #!/bin/sh
                echo "benchmark: large_pyramid, steps = 200"
                echo "Segmentation fault" >&2
                exit 3
                """);
        assertFailsInOneLine(box3d, "--box3d-benchmark", box3d + " -b=large_pyramid -t=1 -w=1 -r=1 -s failed with "
                + "exit status 3; its last line: Segmentation fault");
        Path unprofiled = script("unprofiled-box3d", """
                #!/bin/sh
                echo "benchmark: large_pyramid, steps = 200"
                echo "run 0 : 2700 (ms)"
                echo "body 5051 / shape 5051 / contact 14950 / joint 0 / stack 0"
                """);
        assertFailsInOneLine(unprofiled, "--box3d-benchmark", unprofiled + " -b=large_pyramid -t=1 -w=1 -r=1 -s wrote "
                + "no large_pyramid_t1.dat (its profile of each step)");
        Path debug = script("debug-box3d", """
                #!/bin/sh
                echo "benchmark: large_pyramid, steps = 10"
                echo "run 0 : 12.5 (ms)"
                echo "body 211 / shape 211 / contact 580 / joint 0 / stack 0"
                """);
        assertFailsInOneLine(debug, "--box3d-benchmark", "build Release");
        Path box2d = script("crashing-box2d", "#!/bin/sh\necho 'Segmentation fault' >&2\nexit 3\n");
        assertFailsInOneLine(box2d, "--box2d-benchmark", "failed with exit status 3; its last line: Segmentation fault");
    }

    private void assertFailsInOneLine(Path program, String option, String message) throws IOException {
        Path csv = dir.resolve("bench.csv");
        Run run = Cli.inProcess("bench", "--sections", "pyramid", "--backends", "cpu", "--threads", "1",
                "--pyramid-base", "3", "--frames", "52", "--pyramid-schemes", "soft-step", option, program.toString(),
                "--csv", csv.toString());
        assertEquals(ExitCode.FAILURE, run.exitCode(), run.err());
        List<String> errors = run.errLines().stream().filter(line -> line.startsWith("error:")).toList();
        assertEquals(1, errors.size(), run.err());
        assertTrue(errors.get(0).contains(message), errors.get(0));
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
    void refusesAPeerProgramItCannotRunAndOptionsThatWouldDoNothing() throws IOException {
        Path text = Files.writeString(dir.resolve("notes.txt"), "not a program");
        for (String option : List.of("--box3d-benchmark", "--box2d-benchmark")) {
            assertRefused(option + ": " + dir.resolve("absent") + ": no such file or directory", option,
                    dir.resolve("absent").toString());
            assertRefused(option + ": " + dir + ": is a folder, not a file", option, dir.toString());
            assertRefused(option + ": " + text + ": not executable", option, text.toString());
        }
        Path program = script("peer", "#!/bin/sh\nexit 0\n");
        assertRefused("pass one", "--box2d-benchmark", program.toString(), "--box2d-ms", "3.3");
        assertRefused("--rounds must be in [1, 100], got 0", "--rounds", "0");
        assertRefused("--box2d-runs must be in [1, 100], got 0", "--box2d-runs", "0");
        assertRefused("--box3d-runs must be in [1, 100], got 101", "--box3d-runs", "101");
        assertRefused("--many-pyramids-grid must be in [1, 50], got 0", "--many-pyramids-grid", "0");
        assertRefused("--many-pyramids-base must be in [1, 100], got 101", "--many-pyramids-base", "101");
        assertRefused("unknown scheme 'fast' (one of soft-step, two-solves)", "--pyramid-schemes", "fast");
        assertRefused("unknown pyramid scene 'tall' (one of large, many)", "--pyramid-scenes", "tall");
        assertRefused("--box2d-benchmark does nothing with --pyramid-scenes many: it is for --pyramid-scenes with "
                + "large only", "--pyramid-scenes", "many", "--box2d-benchmark", program.toString());
        assertRefused("--pyramid-base does nothing with --pyramid-scenes many", "--pyramid-scenes", "many",
                "--pyramid-base", "20");
        assertRefused("--many-pyramids-grid does nothing with --pyramid-scenes large: it is for --pyramid-scenes "
                + "with many only", "--many-pyramids-grid", "2");
        assertRefused("--box3d-runs does nothing with no --box3d-benchmark", "--box3d-runs", "3");
        assertRefused("--threads-in-turn takes turns between 1 thread and more, and the CPU runs on 1 (--threads",
                "--threads-in-turn", "--threads", "1");
        assertRefused("--threads-in-turn does nothing with --backends opencl", "--threads-in-turn", "--backends",
                "opencl");
        assertRefused("--warm-up does nothing with --sections pyramid: it is for --sections sweep, iterative and step "
                + "only", "--warm-up", "5");
    }

    /** The ratios are ours over each peer's: median over median, best over best, on the peer's own scene only. */
    @Test
    void quotesOurTimesAsMultiplesOfEachPeersOnlyForItsOwnScene() {
        List<PyramidBench.Figure> figures = List.of(
                new PyramidBench.Figure(Engine.BOX3D, "large_pyramid", List.of(13.5, 12.0, 15.0), 199, "test"),
                new PyramidBench.Figure(Engine.BOX2D, "large_pyramid", List.of(4.0, 2.0, 3.0), 499, "test"),
                new PyramidBench.Figure(Engine.BOX3D, "many_pyramids", List.of(30.0), 99, "test"));
        String table = table(row(Layout.large(BoxScene.LARGE_PYRAMID_BASE), 27.0, 18.0), figures);
        // Box3D: 27 / 13.5 and 18 / 12; Box2D: 27 / 3 and 18 / 2
        assertTrue(table.matches("(?s).*soft-step +cpu +2 +27\\.00 +18\\.00 +2\\.00 +1\\.50 +9\\.00 +9\\.00 .*"),
                table);
        assertTrue(table.contains("Box3D large_pyramid, whole step (collision included), 1 thread, its steps 2 to 200 "
                + "a run, test: best 12.00 ms, median 13.50 ms over 3 runs"), table);
        assertTrue(table.contains("best 2.00 ms, median 3.00 ms over 3 runs"), table);
        assertFalse(table.contains("30.00"), "many_pyramids' figure is not the large pyramid's: " + table);
        String small = table(row(Layout.large(20), 27.0, 18.0), figures);
        assertFalse(small.contains("1.50") || small.contains("9.00"), small);
        assertTrue(small.contains("no ratios to Box3D: its large_pyramid has 5,050 boxes, this one 210"), small);
        String many = table(row(Layout.many(14, 10), 60.0, 45.0), figures);
        assertTrue(many.matches("(?s).*soft-step +cpu +2 +60\\.00 +45\\.00 +2\\.00 +1\\.50 .*"), many);
        assertTrue(many.contains("14 x 14 pyramids of base 10, 10,780 unit boxes"), many);
        assertFalse(many.contains("Box2D"), many);
    }

    /**
     * Box3D's many_pyramids, scaled down to 2 x 2 pyramids of base 4, stands 300 frames on the soft
     * step at its defaults, its points recycled.
     */
    @Test
    void aSmallManyPyramidsSceneStandsAtTheDefaults() {
        Layout layout = Layout.many(2, 4);
        PyramidBench.Row row;
        try (ContactSolver solver = ContactSolver.create(SolverConfig.defaults().withBackend(Backend.CPU)
                .withThreads(1))) {
            row = new PyramidBench(List.of(layout), 300, 10, SolveSettings.softStep(), step -> { }).run(layout, Scheme.SOFT_STEP, solver, 1);
        }
        Motion motion = row.motion();
        assertEquals(40, row.layout().boxes());
        assertTrue(row.stands(), motion.toString());
        assertTrue(motion.outOfPlane() < 0.01f && motion.tiltDegrees() < 1.0f, motion.toString());
        // the contacts are springs: the tops settle a little, by less than a centimetre
        assertTrue(motion.topSink() > 0.0f && motion.mostSink() >= motion.topSink() && motion.mostSink() < 0.01f,
                motion.toString());
        assertTrue(row.recycledShare() > 0.9, "resting boxes keep their manifolds: " + row.recycledShare());
    }

    /**
     * Configurations stepped in turn each step their own copy of the scene: 1 and 2 threads end with
     * the same bits as each other and as 1 thread stepped alone, and each row is its own
     * configuration's.
     */
    @Test
    void configurationsSteppedInTurnEachStepTheirOwnCopyToTheSameBits() {
        Layout layout = Layout.large(12);
        PyramidBench bench = new PyramidBench(List.of(layout), 80, 10, SolveSettings.softStep(), step -> { });
        PyramidBench.Row alone;
        try (ContactSolver solver = ContactSolver.create(SolverConfig.defaults().withBackend(Backend.CPU)
                .withThreads(1))) {
            alone = bench.run(layout, Scheme.SOFT_STEP, solver, 1);
        }
        PyramidBench.InTurn inTurn;
        try (ContactSolver one = ContactSolver.create(SolverConfig.defaults().withBackend(Backend.CPU).withThreads(1));
                ContactSolver two = ContactSolver.create(SolverConfig.defaults().withBackend(Backend.CPU)
                        .withThreads(2))) {
            inTurn = bench.runInTurn(layout, Scheme.SOFT_STEP, List.of(one, two), List.of(1, 2));
        }
        assertTrue(inTurn.sameBits());
        assertEquals(2, inTurn.rows().size());
        assertEquals(1, inTurn.rows().get(0).threads());
        assertEquals(2, inTurn.rows().get(1).threads());
        for (PyramidBench.Row row : inTurn.rows()) {
            // a shared scene would have been stepped twice a frame, and moved otherwise
            assertTrue(row.motion().sameBits(alone.motion()), row.motion() + " against " + alone.motion());
            assertEquals(alone.meanContacts(), row.meanContacts());
            assertTrue(row.stepMillis() > 0.0 && row.recycledShare() > 0.9, row.toString());
        }
    }

    /**
     * With the thread counts in turn, a peer also runs its own scene on as many workers as our
     * other thread count, next to its 1-worker run before each round (the 1-worker run first in
     * the first round, last in the second), and its own scaling is printed round by round beside
     * ours; its 1-worker runs alone make its figure. The stand-in takes 30 ms a step on 1 worker
     * and 20 on more (its solver 24 and 12), so 1.50x for the step and 2.00x for the solver.
     */
    @Test
    void aPeerAlsoRunsOnAsManyWorkersBeforeEachRoundInTurnAndItsScalingIsPrinted() throws IOException {
        Path log = dir.resolve("calls.log");
        Path box3d = script("fake-box3d", """
                #!/bin/sh
                echo "$*" >> '%s'
                case "$3" in
                  -w=1) ms=300; solver=24 ;;
                  *) ms=200; solver=12 ;;
                esac
                echo "benchmark: large_pyramid, steps = 11"
                echo "run 0 : $ms (ms)"
                echo "body 5051 / shape 5051 / contact 0 / joint 0 / stack 0"
                profile="large_pyramid_t${3#-w=}.dat"
                echo "99 0 99 99 0 0 0" > "$profile"
                for i in 1 2 3; do echo "30 0 1 $solver 0 0 0" >> "$profile"; done
                """.formatted(log));
        Run run = Cli.inProcess("bench", "--sections", "pyramid", "--backends", "cpu", "--threads", "2",
                "--threads-in-turn", "--pyramid-scenes", "large", "--pyramid-base", "3", "--frames", "52",
                "--pyramid-schemes", "soft-step", "--rounds", "2", "--box3d-benchmark", box3d.toString());
        assertEquals(ExitCode.OK, run.exitCode(), run.err());
        List<String> calls = Files.readAllLines(log);
        String one = "-b=large_pyramid -t=1 -w=1 -r=1 -s";
        String two = "-b=large_pyramid -t=2 -w=2 -r=1 -s";
        assertEquals(List.of(one, two, two, one, one), calls, "round 1, round 2, after the last");
        assertTrue(run.out().contains("Box3D large_pyramid, its own benchmark on 1 worker and on 2 (run next to each "
                + "other before each round, the 1-worker run first in odd rounds): 1 worker's ms a step over 2 workers', "
                + "round by round, the whole step (collision included): 1.50x (30.00 / 20.00) 1.50x (30.00 / 20.00); its "
                + "constraint solver alone (its -s profile): 2.00x (24.00 / 12.00) 2.00x (24.00 / 12.00)"), run.out());
        // the figure beside ours is the 1-worker runs' alone
        assertTrue(run.out().contains("best 30.00 ms, median 30.00 ms over 3 runs"), run.out());
        assertTrue(run.out().contains("the large pyramid, soft-step: 1 thread's ms a frame over 2 threads', round by "
                + "round:"), run.out());
    }

    /** The rule can fail: each of its three measures alone, and boxes that fall through everything. */
    @Test
    void thePyramidStandsOnlyWithinAllThreeLimits() {
        float height = 100.0f;
        assertTrue(new Motion(0.02f, 1.0f, 0.3f, 0.68f, 0.83f).stands(height));
        assertFalse(new Motion(0.1f, 1.0f, 0.3f, 0.68f, 0.83f).stands(height), "out of its plane");
        assertFalse(new Motion(0.02f, 5.0f, 0.3f, 0.68f, 0.83f).stands(height), "turned");
        assertFalse(new Motion(0.02f, 1.0f, 0.3f, 0.68f, 2.0f).stands(height), "sank 2% of its height on the way");
        assertFalse(new Motion(0.02f, 1.0f, 0.3f, 0.1f, -2.5f).stands(height), "thrown up");
        assertFalse(new Motion(0.0f, 0.0f, 0.0f, 1389.0f, 1389.0f).stands(height), "fell with no contact");
        assertTrue(new Motion(0.0f, 0.0f, 40.0f, 0.0f, 0.0f).stands(height),
                "sliding in its plane is reported, not judged");
    }

    private static Map<String, String> row(List<String> header, String line) {
        List<String> values = List.of(line.split(",", -1));
        assertEquals(header.size(), values.size(), line);
        Map<String, String> row = new LinkedHashMap<>();
        for (int i = 0; i < header.size(); i++) {
            row.put(header.get(i), values.get(i));
        }
        return row;
    }

    private static PyramidBench.Row row(Layout layout, double median, double best) {
        return new PyramidBench.Row(layout, "soft-step", "cpu", 2, 59_300, 300, median, best, 17.0, 0.98,
                new Motion(0.01f, 0.5f, 0.2f, 0.68f, 0.7f), true, "4 substeps x (1 soft + 1 relax)", "", 3, true);
    }

    private static String table(PyramidBench.Row row, List<PyramidBench.Figure> figures) {
        StringWriter text = new StringWriter();
        PyramidBench.table(List.of(row), figures, new PrintWriter(text, true));
        return text.toString();
    }

    /**
     * A stand-in for a peer's benchmark program: logs {@code name args in folder}, prints the
     * scene's Release body count and {@code n} ms a step on the {@code n}-th logged call (10 timed
     * steps), and writes its CSV where it runs, as the real ones do; asked for its profile
     * ({@code -s}), writes it as Box3D's does, {@code n} ms a timed step, {@code n} of them in its
     * solver and 1 in its collision, after a first step of 99.
     */
    private Path standIn(String file, String name, Path log) throws IOException {
        return script(file, """
                #!/bin/sh
                echo "%s $* in $PWD" >> '%s'
                n=$(wc -l < '%s')
                case "$1" in
                  -b=large_pyramid) scene=large_pyramid; bodies=5051 ;;
                  -b=many_pyramids) scene=many_pyramids; bodies=10781 ;;
                  *) echo "No benchmark named $1"; exit 1 ;;
                esac
                echo "benchmark: $scene, steps = 11"
                echo "thread count: 1"
                echo "run 0 : ${n}0 (ms)"
                echo "body $bodies / shape $bodies / contact 0 / joint 0 / stack 0"
                echo "threads,ms" > "$scene.csv"
                case " $* " in
                  *" -s "*)
                    echo "99 0 99 99 0 0 0" > "${scene}_t1.dat"
                    for i in 1 2 3 4 5 6 7 8 9 10; do echo "$n 0 1 $n 0.5 0 0" >> "${scene}_t1.dat"; done ;;
                esac
                """.formatted(name, log, log));
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
