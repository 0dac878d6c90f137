package io.contactsolver.opencl;

import static org.jocl.CL.CL_COMPLETE;
import static org.jocl.CL.clCreateUserEvent;
import static org.jocl.CL.clEnqueueMarkerWithWaitList;
import static org.jocl.CL.clReleaseEvent;
import static org.jocl.CL.clSetUserEventStatus;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.contactsolver.ContactSolver;
import io.contactsolver.RigidSettings;
import io.contactsolver.SolveResult;
import io.contactsolver.SolveSettings;
import io.contactsolver.core.SolveMeter;
import io.contactsolver.layout.SolvePhase;
import io.contactsolver.scene.Scene;
import io.contactsolver.scene.SceneGenerator;
import io.contactsolver.testing.Backends;
import java.util.Optional;
import org.jocl.cl_event;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The host's time of a solve on a device (every phase's {@code SolveResult.hostNanos}) leaves out
 * the host's waits for the device: its work up to a wait is charged to {@code SOLVE}, the wait to no
 * phase, and the device's own times are apart ({@code deviceNanos}). The bench's {@code host ms} is
 * that sum.
 */
class HostTimeTest {
    /** How long the device is held busy: far longer than anything the host does around the wait. */
    private static final long HOLD_MILLIS = 400;

    @AfterEach
    void clearProperty() {
        System.clearProperty(LaunchPolicy.PROPERTY);
    }

    /** The wait that ends every solve: the device held busy by a user event for a known time. */
    @Test
    void theWaitAtTheEndOfASolveIsInNoPhase() throws Exception {
        OpenClTestAccess.requireDevice();
        OpenClDevices.Device device = OpenClDevices.select(OpenClDevices.list(), Optional.empty());
        try (OpenClProgram cl = new OpenClProgram(device, KernelSource.load());
                DeviceMemory memory = new DeviceMemory(cl)) {
            cl_event gate = clCreateUserEvent(cl.context, null);
            clEnqueueMarkerWithWaitList(cl.queue, 1, new cl_event[] {gate}, null);
            Thread release = new Thread(() -> {
                try {
                    Thread.sleep(HOLD_MILLIS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                clSetUserEventStatus(gate, CL_COMPLETE);
            });
            SolveMeter clock = new SolveMeter();
            clock.start();
            long start = System.nanoTime();
            release.start();
            memory.awaitSolve(clock);
            long waited = System.nanoTime() - start;
            release.join();
            clReleaseEvent(gate);
            assertTrue(waited >= HOLD_MILLIS * 1_000_000L, "the solve waited for the device: " + waited + " ns");
            long charged = hostNanos(clock);
            assertTrue(charged < HOLD_MILLIS * 1_000_000L / 4, "the host's phases hold " + charged + " ns of a "
                    + waited + " ns call that waited " + HOLD_MILLIS + " ms for the device");
        }
    }

    /**
     * The iterative solve in one launch reads its outcome with a blocking read, which waits for every
     * iteration: the host's time stays far below the device's, and within the call's.
     */
    @Test
    void theBlockingReadOfTheIterativeSolveIsInNoPhase() {
        System.setProperty(LaunchPolicy.PROPERTY, "one-group");
        Scene scene = SceneGenerator.randomGraph(5, 1000, 3000);
        RigidSettings settings = SolveSettings.iterative(1000).withTolerance(0.0f);
        try (ContactSolver openCl = Backends.openClOrSkip()) {
            openCl.solve(scene.bodies(), scene.contacts(), settings, new SolveResult()); // kernels' first runs
            long start = System.nanoTime();
            SolveResult result = openCl.solve(scene.bodies(), scene.contacts(), settings, new SolveResult());
            long wall = System.nanoTime() - start;
            long host = 0;
            for (SolvePhase phase : SolvePhase.values()) {
                host += result.hostNanos(phase);
            }
            long kernels = result.deviceNanos(SolvePhase.SOLVE);
            long enqueueing = result.hostNanos(SolvePhase.SOLVE);
            assertTrue(enqueueing > 0, "the host's enqueueing is timed");
            assertTrue(host <= wall, host + " ns of host phases in a " + wall + " ns call");
            assertTrue(enqueueing < kernels / 2, "enqueueing " + enqueueing + " ns beside " + kernels
                    + " ns of kernels: the wait for them is not in it");
        }
    }

    private static long hostNanos(SolveMeter clock) {
        long total = 0;
        for (SolvePhase phase : SolvePhase.values()) {
            total += clock.hostNanos(phase);
        }
        return total;
    }
}
