package io.contactsolver.opencl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.contactsolver.core.BackendUnavailableException;
import io.contactsolver.opencl.OpenClDevices.Device;
import io.contactsolver.testing.Backends;
import io.contactsolver.testing.Cli;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.jocl.cl_context;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Contexts may be created and released on many threads at once: JOCL's own table of contexts,
 * which its native code changes without a lock, is changed one thread at a time. The race runs
 * in a child JVM, so that a crash in native code fails this test rather than the test run.
 */
class ContextsTest {
    private static final int THREADS = 8;
    private static final int CONTEXTS_A_THREAD = 150;

    @Test
    void threadsCreatingAndReleasingContextsTogetherDoNotCrashTheJvm(@TempDir Path crashReports) throws Exception {
        try {
            OpenClDevices.list();
        } catch (BackendUnavailableException | RuntimeException | LinkageError e) {
            Backends.skipOrFail("no OpenCL device: " + e.getMessage());
        }
        Cli.Run run = Cli.childMain(Racer.class, List.of("-XX:ErrorFile=" + crashReports.resolve("hs_err_%p.log")),
                Map.of());
        try (Stream<Path> reports = Files.list(crashReports)) {
            assertEquals(List.of(), reports.toList(), "no crash report; the child's stderr:\n" + run.err());
        }
        assertEquals(0, run.exitCode(), run.err());
        assertEquals(List.of("released " + THREADS * CONTEXTS_A_THREAD + ", live 0"), run.out().lines().toList(),
                run.err());
        assertFalse(run.err().contains("failed: "), run.err());
    }

    /** {@link #THREADS} threads released together, each creating and releasing contexts on device 0. */
    public static final class Racer {
        private Racer() {
        }

        public static void main(String[] args) throws Exception {
            Device device = OpenClDevices.list().get(0);
            CyclicBarrier start = new CyclicBarrier(THREADS);
            AtomicInteger released = new AtomicInteger();
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                Thread thread = new Thread(() -> {
                    try {
                        start.await();
                        for (int i = 0; i < CONTEXTS_A_THREAD; i++) {
                            cl_context context = Contexts.create(device);
                            Contexts.release(context);
                            released.incrementAndGet();
                        }
                    } catch (Exception e) {
                        System.err.println("failed: " + e);
                    }
                }, "context-racer-" + t);
                threads.add(thread);
                thread.start();
            }
            for (Thread thread : threads) {
                thread.join();
            }
            System.out.println("released " + released.get() + ", live " + Contexts.live());
        }
    }
}
