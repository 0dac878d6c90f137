package io.contactsolver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.contactsolver.core.ParallelRunner;
import io.contactsolver.core.SolverBackend;
import io.contactsolver.opencl.OpenClTestAccess;
import io.contactsolver.scene.Scene;
import io.contactsolver.scene.SceneGenerator;
import io.contactsolver.testing.Backends;
import io.contactsolver.testing.Bits;
import org.joml.Vector3f;
import org.junit.jupiter.api.Test;

/**
 * For a GPU the OpenCL backend stages the arrays the host builds for a solve in pinned host memory,
 * which the GPU copies by DMA, and copies large arrays in and out of it on the host's threads; for
 * a CPU device it stages in plain direct buffers on one thread. The GPU's way is forced here on any
 * device: the solves give the CPU's bits through it, and closing the solver releases the memory.
 * (Here, beside {@link ChunkingTest}, because only this package may hand a solver its backend.)
 */
class PinnedStagingTest {
    private static final RigidSettings ITERATIVE = SolveSettings.iterative(10);

    @Test
    void aGpusStagingIsPinnedHostMemoryAndCloseGivesItBack() {
        OpenClTestAccess.requireDevice();
        Scene scene = SceneGenerator.randomGraph(7, 400, 1600);
        SolverBackend[] opened = new SolverBackend[1];
        try (ParallelRunner threads = new ParallelRunner(2);
                ContactSolver cpu = Backends.cpu();
                ContactSolver device = ContactSolver.create(SolverConfig.defaults().withBackend(Backend.OPENCL),
                        selector -> opened[0] = OpenClTestAccess.openStagingAsForAGpu(selector, threads, 1 << 18))) {
            SolveResult expected = cpu.solve(scene.bodies(), scene.contacts(), ITERATIVE, new SolveResult());
            SolveResult actual = device.solve(scene.bodies(), scene.contacts(), ITERATIVE, new SolveResult());
            assertEquals(Backend.OPENCL, actual.backend());
            // the iterative solve stages its row order and colour boundaries
            assertTrue(OpenClTestAccess.pinnedStagingBytes(opened[0]) > 0, "no pinned staging was made");
            Bits.assertIdentical(expected, actual, "staged through pinned memory");
        }
        assertEquals(0, OpenClTestAccess.pinnedStagingBytes(opened[0]), "closing the solver releases the pinned staging");
    }

    @Test
    void theDefaultPinsStagingForAGpuOnly() {
        OpenClTestAccess.requireDevice();
        Scene scene = SceneGenerator.randomGraph(8, 400, 1600);
        SolverBackend[] opened = new SolverBackend[1];
        try (ContactSolver device = ContactSolver.create(SolverConfig.defaults().withBackend(Backend.OPENCL),
                selector -> opened[0] = OpenClTestAccess.open(selector))) {
            device.solve(scene.bodies(), scene.contacts(), ITERATIVE, new SolveResult());
            assertEquals(OpenClTestAccess.isOffload(opened[0]), OpenClTestAccess.pinnedStagingBytes(opened[0]) > 0,
                    "pinned staging where the device is a GPU or an accelerator, and only there");
        }
    }

    /**
     * Copies split over two threads in ranges of 64 elements: an iterative solve and four soft
     * steps, each warm-started from its own last result, one body pushed by the caller before the
     * third (the bodies' fields go up through staging, all of them and then the velocity's alone;
     * the results come back through it), give the CPU's bits.
     */
    @Test
    void copiesSplitOverTheHostsThreadsGiveTheSameBits() {
        stepsBesideTheCpu(Long.MAX_VALUE);
    }

    /**
     * With runs of a block's fields over 100 KB going straight from and into the block, as runs over
     * {@code Transfers.BLOCK_STAGING_LIMIT} do: the 3,000 bodies' 20 fields (240 KB) and their 13
     * next-state fields (156 KB) go past staging, their velocity (36 KB) and the deltas (72 KB)
     * through it; the same bits.
     */
    @Test
    void blocksOverTheStagingLimitGoStraightAndGiveTheSameBits() {
        stepsBesideTheCpu(100_000);
    }

    private static void stepsBesideTheCpu(long blockLimit) {
        OpenClTestAccess.requireDevice();
        Vector3f gravity = new Vector3f(0.0f, -9.81f, 0.0f);
        try (ParallelRunner threads = new ParallelRunner(2);
                ContactSolver cpu = Backends.cpu();
                ContactSolver device = ContactSolver.create(SolverConfig.defaults().withBackend(Backend.OPENCL),
                        selector -> OpenClTestAccess.openStagingAsForAGpu(selector, threads, 64, blockLimit))) {
            Scene scene = SceneGenerator.pileWithContacts(3, 3000, 0.2f);
            Bits.assertIdentical(cpu.solve(scene.bodies(), scene.contacts(), ITERATIVE, new SolveResult()),
                    device.solve(scene.bodies(), scene.contacts(), ITERATIVE, new SolveResult()), "iterative");
            Scene onCpu = SceneGenerator.pileWithContacts(5, 3000, 0.2f);
            Scene onDevice = SceneGenerator.pileWithContacts(5, 3000, 0.2f);
            SolveHistory cpuHistory = new SolveHistory();
            SolveHistory deviceHistory = new SolveHistory();
            for (int step = 0; step < 4; step++) {
                if (step == 2) { // one body pushed by the caller: its velocity fields alone go up again, mid-block
                    onCpu.bodies().setLinearVelocity(7, 0.5f, 0.25f, -0.5f);
                    onDevice.bodies().setLinearVelocity(7, 0.5f, 0.25f, -0.5f);
                }
                SolveResult expected = cpu.step(onCpu.bodies(), onCpu.contacts(), SolveSettings.softStep(), gravity,
                        0.002f, cpuHistory);
                SolveResult actual = device.step(onDevice.bodies(), onDevice.contacts(), SolveSettings.softStep(),
                        gravity, 0.002f, deviceHistory);
                assertEquals(Backend.OPENCL, actual.backend());
                Bits.assertIdentical(expected, actual, "soft step " + step);
                Bits.assertIdentical(onCpu.bodies(), onDevice.bodies(), "bodies after soft step " + step);
            }
        }
    }
}
