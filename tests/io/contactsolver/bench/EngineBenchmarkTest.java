package io.contactsolver.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.contactsolver.bench.EngineBenchmark.Engine;
import io.contactsolver.bench.EngineBenchmark.Runs;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Reading the output of the peers' own benchmark programs, Box3D's and Box2D v3's: the same lines,
 * a figure a step over the steps each run times, and the scene checked by its body count.
 */
class EngineBenchmarkTest {
    private static final long LARGE = 5050;
    private static final long MANY = 10780;

    @Test
    void box3dRunsAreReadAsMillisecondsAStepOverTheStepsItTimes() throws IOException {
        String output = """
                Starting benchmarks
                ======================================
                benchmark: large_pyramid, steps = 200
                thread count: 1
                run 0 : 2688.59 (ms)
                run 1 : 2786.1 (ms)
                body 5051 / shape 5051 / contact 14950 / joint 0 / stack 6364816

                ======================================
                All benchmarks complete!
                """;
        Runs runs = EngineBenchmark.parse(Engine.BOX3D, "large_pyramid", LARGE, output);
        // the first of the 200 steps is off the clock: 199 timed
        assertEquals(199, runs.timedSteps());
        // 2688.59 ms = 199 x 13.5 ms + 2.09 ms, and 2.09 / 199 = 0.0105025; 2786.1 ms = 199 x 14 ms + 0.1 ms
        assertMillis(List.of(13.5105025, 14.0005025), runs.millisPerStep());
        Runs many = EngineBenchmark.parse(Engine.BOX3D, "many_pyramids", MANY, """
                benchmark: many_pyramids, steps = 100
                thread count: 1
                run 0 : 3049.16 (ms)
                body 10781 / shape 10781 / contact 28420 / joint 0 / stack 12101552
                """);
        assertEquals(99, many.timedSteps());
        // 3049.16 ms = 99 x 30.8 ms - 0.04 ms, and 0.04 / 99 = 0.0004040
        assertMillis(List.of(30.7995960), many.millisPerStep());
    }

    /**
     * Box3D's own profile of each step ({@code -s}): a line a step, seven figures; the first step
     * is off the clock and left out, the rest give their medians of the whole step, the collision
     * and the constraint solver.
     */
    @Test
    void box3dsProfileIsReadAsTheMediansOfItsTimedSteps() throws IOException {
        EngineBenchmark.Profile profile = EngineBenchmark.parseProfile(Engine.BOX3D, "large_pyramid_t1.dat", """
                40.5 0.3 9 30 0.4 0.1 0
                13.9 0.2 2.25 10.96 0.38 0.05 0
                14.1 0.25 2.3 11.2 0.37 0.04 0
                13.5 0.19 2.1 10.5 0.39 0.06 0
                """);
        assertEquals(3, profile.steps());
        assertEquals(13.9, profile.stepMillis(), 1e-12);
        assertEquals(2.25, profile.collideMillis(), 1e-12);
        assertEquals(10.96, profile.solverMillis(), 1e-12);
        IOException shortLine = assertThrows(IOException.class, () -> EngineBenchmark.parseProfile(Engine.BOX3D,
                "large_pyramid_t1.dat", "1 0 0 1 0 0 0\n13.9 0.2 2.25 10.96 0.38 0.05\n"));
        assertEquals("Box3D's large_pyramid_t1.dat line 2 is not seven non-negative numbers (step, pairs, collide, "
                + "constraints, transforms, refit, sleepIslands): '13.9 0.2 2.25 10.96 0.38 0.05'",
                shortLine.getMessage());
        IOException negative = assertThrows(IOException.class, () -> EngineBenchmark.parseProfile(Engine.BOX3D,
                "f.dat", "1 0 0 1 0 0 0\n1 0 0 -1 0 0 0\n"));
        assertTrue(negative.getMessage().contains("f.dat line 2"), negative.getMessage());
        IOException oneStep = assertThrows(IOException.class, () -> EngineBenchmark.parseProfile(Engine.BOX3D,
                "f.dat", "1 0 0 1 0 0 0\n"));
        assertEquals("Box3D's f.dat has 1 steps; its first is off the clock, so it needs at least 2",
                oneStep.getMessage());
    }

    /** One thread and one worker unless asked for more, and then as many threads as workers. */
    @Test
    void theProgramRunsOnOneWorkerOrOnAsManyThreadsAsWorkers() {
        EngineBenchmark box3d = new EngineBenchmark(Engine.BOX3D, Path.of("benchmark"), 3);
        assertEquals(1, box3d.workers());
        assertEquals("benchmark -b=large_pyramid -t=1 -w=1 -r=3 -s", box3d.commandLine("large_pyramid"));
        EngineBenchmark four = box3d.withWorkers(4);
        assertEquals(4, four.workers());
        assertEquals("benchmark -b=many_pyramids -t=4 -w=4 -r=3 -s", four.commandLine("many_pyramids"));
        assertEquals("benchmark -b=large_pyramid -t=2 -w=2 -r=1",
                new EngineBenchmark(Engine.BOX2D, Path.of("benchmark"), 1).withWorkers(2).commandLine("large_pyramid"));
        IllegalArgumentException none = assertThrows(IllegalArgumentException.class, () -> box3d.withWorkers(0));
        assertEquals("workers must be at least 1, got 0", none.getMessage());
    }

    @Test
    void box2dRunsAreReadTheSameWay() throws IOException {
        String output = """
                Starting Box2D benchmarks
                ======================================
                benchmark: large_pyramid, steps = 500
                thread count: 1
                run 0 : 1779.81 (ms)
                run 1 : 1996 (ms)
                body 5051 / shape 5051 / contact 14950 / joint 0 / stack 0
                """;
        Runs runs = EngineBenchmark.parse(Engine.BOX2D, "large_pyramid", LARGE, output);
        // over the 499 timed steps: 1779.81 ms = 499 x 3.5 ms + 33.31 ms, and 33.31 / 499 = 0.0667535;
        // 1996 ms = 499 x 4 ms
        assertMillis(List.of(3.5667535, 4.0), runs.millisPerStep());
        assertEquals(499, runs.timedSteps());
    }

    @Test
    void outputThatIsNotTheScenesReleaseBenchmarkIsRefusedNamingWhatIsMissing() {
        assertRefused("Box3D's benchmark output has no line 'benchmark: large_pyramid, steps = N'; its last line: "
                + "body 5051 / shape", "benchmark: joint_grid, steps = 500\nrun 0 : 10 (ms)\nbody 5051 / shape\n");
        assertRefused("Box3D's benchmark ran 1 steps of large_pyramid; it times all but the first, so it needs at "
                + "least 2", "benchmark: large_pyramid, steps = 1\nrun 0 : 10 (ms)\nbody 5051 / shape\n");
        assertRefused("no line 'run N : MS (ms)'; its last line: thread count: 1",
                "benchmark: large_pyramid, steps = 200\nthread count: 1\n");
        // a run line before the scene's is another scene's
        assertRefused("no line 'run N : MS (ms)'",
                "run 0 : 10 (ms)\nbenchmark: large_pyramid, steps = 200\nbody 5051 / shape\n");
        assertRefused("Box3D's benchmark run 3 has no number of milliseconds: 'nan'",
                "benchmark: large_pyramid, steps = 200\nrun 3 : nan (ms)\nbody 5051 / shape\n");
        assertRefused("Box3D's benchmark run 0 took -5 ms, not a positive finite time",
                "benchmark: large_pyramid, steps = 200\nrun 0 : -5 (ms)\nbody 5051 / shape\n");
        assertRefused("Box3D's benchmark run 0 took 0 ms, not a positive finite time",
                "benchmark: large_pyramid, steps = 200\nrun 0 : 0 (ms)\nbody 5051 / shape\n");
        assertRefused("no line 'body N / ...' counting the bodies of large_pyramid; its last line: run 0 : 10 (ms)",
                "benchmark: large_pyramid, steps = 200\nrun 0 : 10 (ms)\n");
        // a Debug build: 10 steps of a pyramid with a base of 20
        assertRefused("Box3D's benchmark ran large_pyramid with 211 bodies, not 5,050 boxes and the ground: the figure "
                + "would be for another scene (a Debug build runs smaller ones: build Release)",
                "benchmark: large_pyramid, steps = 10\nrun 0 : 10 (ms)\nbody 211 / shape 211 / contact 0\n");
        assertRefused("it printed nothing", "");
    }

    /** The figures worked out above, to the 7 decimals they are given to. */
    private static void assertMillis(List<Double> expected, List<Double> actual) {
        assertEquals(expected.size(), actual.size(), actual.toString());
        for (int i = 0; i < expected.size(); i++) {
            assertEquals(expected.get(i), actual.get(i), 1e-7, "run " + i + " of " + actual);
        }
    }

    private static void assertRefused(String message, String output) {
        IOException refused = assertThrows(IOException.class,
                () -> EngineBenchmark.parse(Engine.BOX3D, "large_pyramid", LARGE, output));
        assertTrue(refused.getMessage().contains(message), refused.getMessage());
    }
}
