package io.contactsolver;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.contactsolver.testing.Backends;
import io.contactsolver.testing.Cli;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Finding the OpenCL devices is safe to race: threads released together to list the devices and
 * create OpenCL solvers all find the same devices and all get an OpenCL backend, never a missing
 * device (nor, under AUTO, a quiet fall back to the CPU for that false reason), nor a crash. The race
 * that matters is the first discovery of a JVM, so each round runs in a fresh child JVM.
 */
class ConcurrentDiscoveryTest {
    private static final int THREADS = 8;
    private static final int FRESH_JVMS = 3;
    private static final int ROUNDS_HERE = 3;

    @Test
    void threadsRacingForTheFirstDevicesOfAJvmAllFindTheSameOnes(@TempDir Path crashReports) throws Exception {
        String expected = outcome(Backend.OPENCL, null, devicesOrSkip());
        for (int jvm = 0; jvm < FRESH_JVMS; jvm++) {
            // a JVM that crashes in the driver writes its report here, not into the working directory
            Cli.Run run = Cli.childMain(Racer.class, List.of("-XX:ErrorFile=" + crashReports.resolve("hs_err_%p.log")),
                    Map.of());
            assertEquals(0, run.exitCode(), "fresh JVM " + jvm + " ended abnormally; its stderr:\n" + run.err());
            assertEquals(THREADS, run.out().lines().count(), run.out());
            for (String line : run.out().lines().toList()) {
                assertEquals(expected, line, "fresh JVM " + jvm);
            }
        }
    }

    @Test
    void threadsRacingInThisJvmAllFindTheSameDevices() throws Exception {
        String expected = outcome(Backend.OPENCL, null, devicesOrSkip());
        for (int round = 0; round < ROUNDS_HERE; round++) {
            for (String line : race()) {
                assertEquals(expected, line, "round " + round);
            }
        }
    }

    private static List<DeviceInfo> devicesOrSkip() {
        try {
            return ContactSolver.devices();
        } catch (IllegalStateException e) {
            Backends.skipOrFail(e.getMessage());
            throw e;
        }
    }

    /**
     * {@link #THREADS} threads released together, each listing the devices and creating an AUTO
     * solver on device 0 (half of them in each order); what each found, as {@link #outcome}.
     */
    static List<String> race() throws InterruptedException {
        CyclicBarrier start = new CyclicBarrier(THREADS);
        String[] outcomes = new String[THREADS];
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            int slot = t;
            Thread thread = new Thread(() -> {
                try {
                    start.await();
                    List<DeviceInfo> devices = slot % 2 == 0 ? ContactSolver.devices() : null;
                    try (ContactSolver solver = ContactSolver.create(SolverConfig.defaults().withBackend(Backend.AUTO)
                            .withDevice("0"))) {
                        devices = devices != null ? devices : ContactSolver.devices();
                        outcomes[slot] = outcome(solver.backend(), solver.fallbackReason().orElse(null), devices);
                    }
                } catch (Exception | LinkageError e) {
                    outcomes[slot] = "failed: " + e;
                }
            }, "racer-" + t);
            threads.add(thread);
            thread.start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        return List.of(outcomes);
    }

    /** One line: the backend a solver got, why it fell back (if it did) and the devices listed. */
    static String outcome(Backend backend, String fallbackReason, List<DeviceInfo> devices) {
        List<String> summaries = devices.stream().map(DeviceInfo::summary).toList();
        return "backend " + backend + (fallbackReason == null ? "" : " (fell back: " + fallbackReason + ")")
                + ", devices " + summaries;
    }

    /** The race in a fresh JVM: one line per thread on standard output. */
    public static final class Racer {
        private Racer() {
        }

        public static void main(String[] args) throws InterruptedException {
            race().forEach(System.out::println);
        }
    }
}
