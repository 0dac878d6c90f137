package io.contactsolver;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.contactsolver.scene.Scene;
import io.contactsolver.scene.SceneGenerator;
import io.contactsolver.testing.Backends;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.stream.Collectors;
import org.joml.Vector3f;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** A solver used after close or from two threads at once refuses with one clear exception instead of crashing or computing garbage. */
class SolverMisuseTest {

    @ParameterizedTest
    @EnumSource(value = Backend.class, names = {"CPU", "OPENCL"})
    void everyCallOnAClosedSolverIsRefusedAndClosingTwiceIsHarmless(Backend backend) {
        ContactSolver solver = Backends.open(backend);
        solver.close();
        assertDoesNotThrow(solver::close);
        BodyBatch bodies = new BodyBatch();
        bodies.setParticle(bodies.add(), 1.0f);
        ContactBatch contacts = new ContactBatch();
        contacts.add(ContactBatch.WORLD, 0, new Vector3f(), new Vector3f(0, 1, 0), 0.0f);
        IllegalStateException solve = assertThrows(IllegalStateException.class,
                () -> solver.solve(bodies, contacts, new SolveResult()));
        assertTrue(solve.getMessage().contains("closed"), solve.getMessage());
        IllegalStateException step = assertThrows(IllegalStateException.class, () -> solver.step(bodies, contacts,
                SolveSettings.softStep(), new Vector3f(0, -10, 0), 0.01f, null, new SolveResult()));
        assertTrue(step.getMessage().contains("closed"), step.getMessage());
        assertEquals(new Vector3f(), bodies.getPosition(0, new Vector3f()), "nothing moved");
    }

    @ParameterizedTest
    @EnumSource(value = Backend.class, names = {"CPU", "OPENCL"})
    void aSecondThreadInsideACallIsRefusedAndTheFirstCallsResultIsUnharmed(Backend backend) throws Exception {
        Scene scene = SceneGenerator.randomGraph(5, 20_000, 100_000);
        IterativeSettings settings = SolveSettings.iterative(30);
        try (ContactSolver solver = Backends.open(backend); ContactSolver reference = Backends.open(Backend.CPU)) {
            SolveResult expected = reference.solve(scene.bodies(), scene.contacts(), settings, new SolveResult());
            AtomicBoolean done = new AtomicBoolean();
            AtomicInteger refused = new AtomicInteger();
            AtomicInteger intruderFinished = new AtomicInteger();
            AtomicReference<Throwable> unexpected = new AtomicReference<>();
            Thread intruder = new Thread(() -> {
                while (!done.get()) {
                    try {
                        SolveResult result = solver.solve(scene.bodies(), scene.contacts(), settings, new SolveResult());
                        io.contactsolver.testing.Bits.assertIdentical(expected, result, "the other thread's call");
                        intruderFinished.incrementAndGet();
                    } catch (IllegalStateException e) {
                        if (e.getMessage().contains("another call runs")) {
                            refused.incrementAndGet();
                        } else {
                            unexpected.set(e);
                        }
                    } catch (RuntimeException | AssertionError e) {
                        unexpected.set(e);
                    }
                    // leave gaps, so that the test thread also gets calls of its own through
                    LockSupport.parkNanos(2_000_000L);
                }
            });
            intruder.start();
            try {
                // either thread may be the one refused, and either the one whose call runs to its end (a
                // busy machine may let one of them win every race); go on until both were seen
                int finished = 0;
                long deadline = System.nanoTime() + 30_000_000_000L;
                for (int round = 0; (refused.get() == 0 || finished + intruderFinished.get() == 0)
                        && System.nanoTime() < deadline; round++) {
                    try {
                        SolveResult result = solver.solve(scene.bodies(), scene.contacts(), settings, new SolveResult());
                        io.contactsolver.testing.Bits.assertIdentical(expected, result, "round " + round);
                        finished++;
                    } catch (IllegalStateException e) {
                        assertTrue(e.getMessage().contains("another call runs"), e.getMessage());
                        refused.incrementAndGet();
                        LockSupport.parkNanos(1_000_000L);
                    }
                }
                assertTrue(finished + intruderFinished.get() > 0, "a call ran to its end, with the CPU's bits");
            } finally {
                done.set(true);
                intruder.join();
            }
            assertEquals(null, unexpected.get(), "only the clear refusal");
            assertTrue(refused.get() > 0, "the overlapping call was seen and refused");
        }
    }

    /**
     * A solver that is never closed does not keep its threads for ever: once it is unreachable the
     * cleaner releases them (and any device memory), with a warning on the library's logger that it
     * was not closed. Dropped solvers, a collection asked for until the threads are gone, within a
     * bound. The solvers are held until their threads are counted (a collection during the loop that
     * makes them would clean some first), and only their own threads are followed: another test's
     * unclosed solver may be cleaned at any time.
     */
    @Test
    void aSolverNeverClosedReleasesItsThreadsOnceUnreachableWithAWarning() throws InterruptedException {
        Logger log = Logger.getLogger("io.contactsolver");
        List<String> warnings = new CopyOnWriteArrayList<>();
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord record) {
                if (record.getLevel() == java.util.logging.Level.WARNING) {
                    warnings.add(record.getMessage());
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        log.addHandler(capture);
        try {
            Set<Thread> before = solverThreads();
            List<ContactSolver> leaked = leakSolvers(20);
            Set<Thread> theirs = solverThreads();
            theirs.removeAll(before);
            assertTrue(theirs.size() >= 20, "each solver has its helper thread: " + theirs.size());
            leaked.clear(); // dropped, never closed
            long deadline = System.nanoTime() + 30_000_000_000L;
            while (theirs.stream().anyMatch(Thread::isAlive) && System.nanoTime() < deadline) {
                System.gc();
                Thread.sleep(50);
            }
            assertEquals(0, theirs.stream().filter(Thread::isAlive).count(), "the dropped solvers' threads left");
            // at least these 20: a solver another test left unclosed may be cleaned now too
            assertTrue(warnings.stream().filter(w -> w.contains("was not closed")).count() >= 20, warnings.toString());
        } finally {
            log.removeHandler(capture);
        }
    }

    /** Solvers on two threads whose helper threads have started, for the caller to drop without closing. */
    private static List<ContactSolver> leakSolvers(int count) {
        BodyBatch bodies = new BodyBatch();
        for (int i = 0; i < 20_000; i++) { // more than one thread's range of a step's loops: the helper starts
            bodies.setParticle(bodies.add(), 1.0f);
        }
        List<ContactSolver> solvers = new ArrayList<>();
        for (int s = 0; s < count; s++) {
            ContactSolver solver = Backends.cpu(2);
            solver.step(bodies, new ContactBatch(), SolveSettings.singlePass(), new Vector3f(0, -10, 0), 0.01f, null,
                    new SolveResult());
            solvers.add(solver);
        }
        return solvers;
    }

    /** Live threads of solvers' thread teams and pools. */
    private static Set<Thread> solverThreads() {
        return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive)
                .filter(t -> t.getName().startsWith("contact-solver-team-") || t.getName().startsWith("ForkJoinPool-"))
                .collect(Collectors.toCollection(HashSet::new));
    }
}
