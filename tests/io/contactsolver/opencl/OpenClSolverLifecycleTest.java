package io.contactsolver.opencl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.contactsolver.Backend;
import io.contactsolver.ContactSolver;
import io.contactsolver.SolveResult;
import io.contactsolver.SolveSettings;
import io.contactsolver.SolverConfig;
import io.contactsolver.scene.Scene;
import io.contactsolver.scene.SceneGenerator;
import io.contactsolver.testing.Backends;
import io.contactsolver.testing.Cli;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.joml.Vector3f;
import org.junit.jupiter.api.Test;

/**
 * OpenCL solvers made, used and closed one after another hold nothing once closed: every context
 * is released (by the cleaner too, for solvers dropped without closing), and after the first few
 * solvers (which load JOCL and the driver) the library's threads stay where they were, and the
 * process's file descriptors within a few that a driver may open lazily, however many follow. Runs
 * in a child JVM, whose descriptors and threads are its own (Linux: descriptors from /proc/self/fd).
 */
class OpenClSolverLifecycleTest {
    private static final int FIRST = 5;
    private static final int THEN = 60;
    private static final int DROPPED = 5;
    /** Descriptors a driver may open lazily over the later solvers; one a solver would be {@link #THEN}. */
    private static final int SOME_DESCRIPTORS = 8;

    @Test
    void solversMadeAndClosedInTurnLeaveNoDescriptorsOrThreads() throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/fd")), "the descriptors are counted in /proc/self/fd");
        try (ContactSolver probe = Backends.openClOrSkip()) {
            assertEquals(Backend.OPENCL, probe.backend());
        }
        Cli.Run run = Cli.childMain(Cycle.class, List.of(), Map.of());
        assertEquals(0, run.exitCode(), run.err());
        List<String> lines = run.out().lines().toList();
        assertEquals(3, lines.size(), run.out() + run.err());
        for (String line : lines.subList(0, 2)) {
            assertTrue(line.endsWith("library threads 0, contexts not released 0"), line);
        }
        int grew = descriptors(lines.get(1)) - descriptors(lines.get(0));
        assertTrue(grew <= SOME_DESCRIPTORS, "descriptors after " + THEN + " more solvers: " + grew + " more ("
                + lines + ")");
        assertEquals(DROPPED + " dropped unclosed: contexts not released 0", lines.get(2), "the cleaner released them");
    }

    /** The descriptors a line of {@link Cycle#report} counted. */
    private static int descriptors(String line) {
        Matcher m = Pattern.compile("descriptors (\\d+),").matcher(line);
        assertTrue(m.find(), line);
        return Integer.parseInt(m.group(1));
    }

    /**
     * Makes, uses and closes solvers in turn, printing the descriptors, the library's threads and
     * the contexts not released twice; then drops some unclosed and prints what the cleaner left.
     */
    public static final class Cycle {
        private Cycle() {
        }

        public static void main(String[] args) throws Exception {
            Scene pile = SceneGenerator.pileWithContacts(1, 2_000, 0.3f);
            cycle(pile, FIRST);
            report(FIRST);
            cycle(pile, THEN);
            report(FIRST + THEN);
            dropped(pile, DROPPED);
            long deadline = System.nanoTime() + 30_000_000_000L;
            while (Contexts.live() > 0 && System.nanoTime() < deadline) {
                System.gc();
                Thread.sleep(50);
            }
            System.out.println(DROPPED + " dropped unclosed: contexts not released " + Contexts.live());
        }

        /** Solvers used once and dropped without {@code close()}, for the cleaner to release. */
        private static void dropped(Scene pile, int solvers) {
            for (int i = 0; i < solvers; i++) {
                ContactSolver solver = ContactSolver.create(SolverConfig.defaults().withBackend(Backend.OPENCL));
                solver.solve(pile.bodies(), pile.contacts(), new SolveResult());
            }
        }

        private static void cycle(Scene pile, int solvers) {
            for (int i = 0; i < solvers; i++) {
                try (ContactSolver solver = ContactSolver.create(SolverConfig.defaults().withBackend(Backend.OPENCL))) {
                    solver.solve(pile.bodies(), pile.contacts(), new SolveResult());
                    solver.step(pile.bodies(), pile.contacts(), SolveSettings.softStep(), new Vector3f(0, -9.81f, 0),
                            0.002f, null, new SolveResult());
                }
            }
        }

        private static void report(int made) throws Exception {
            long descriptors;
            try (Stream<Path> open = Files.list(Path.of("/proc/self/fd"))) {
                descriptors = open.count();
            }
            long library = Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive)
                    .filter(t -> t.getName().startsWith("contact-solver-")).count();
            System.out.println("after " + made + ": descriptors " + descriptors + ", library threads " + library
                    + ", contexts not released " + Contexts.live());
        }
    }
}
