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
 * The OpenCL backend stages the arrays the host builds for a solve in pinned host memory, which a
 * GPU copies by DMA, and on a GPU copies large arrays in and out of it on the host's threads: the
 * solves give the CPU's bits through it, and closing the solver releases it.
 * (Here, beside {@link ChunkingTest}, because only this package may hand a solver its backend.)
 */
class PinnedStagingTest {
    @Test
    void stagingBuffersArePinnedHostMemoryAndCloseGivesThemBack() {
        OpenClTestAccess.requireDevice();
        Scene scene = SceneGenerator.randomGraph(7, 400, 1600);
        SolverBackend[] opened = new SolverBackend[1];
        RigidSettings settings = SolveSettings.iterative(8);
        try (ContactSolver cpu = Backends.cpu();
                ContactSolver device = ContactSolver.create(SolverConfig.defaults().withBackend(Backend.OPENCL),
                        selector -> opened[0] = OpenClTestAccess.open(selector))) {
            SolveResult expected = cpu.solve(scene.bodies(), scene.contacts(), settings, new SolveResult());
            SolveResult actual = device.solve(scene.bodies(), scene.contacts(), settings, new SolveResult());
            assertEquals(Backend.OPENCL, actual.backend());
            // the iterative solve stages its row order and colour boundaries
            assertTrue(OpenClTestAccess.pinnedStagingBytes(opened[0]) > 0, "no pinned staging was made");
            Bits.assertIdentical(expected, actual, "staged through pinned memory");
        }
        assertEquals(0, OpenClTestAccess.pinnedStagingBytes(opened[0]), "closing the solver releases the pinned staging");
    }

    /**
     * On a GPU the host's threads copy large arrays into staging and results out of it in ranges;
     * here forced on PoCL with ranges of 64 elements: an iterative solve and three soft steps, each
     * warm-started from its own last result, give the CPU's bits.
     */
    @Test
    void copiesSplitOverTheHostsThreadsGiveTheSameBits() {
        OpenClTestAccess.requireDevice();
        Vector3f gravity = new Vector3f(0.0f, -9.81f, 0.0f);
        try (ParallelRunner threads = new ParallelRunner(2);
                ContactSolver cpu = Backends.cpu();
                ContactSolver device = ContactSolver.create(SolverConfig.defaults().withBackend(Backend.OPENCL),
                        selector -> OpenClTestAccess.openSplittingCopies(selector, threads, 64))) {
            Scene scene = SceneGenerator.pileWithContacts(3, 3000, 0.2f);
            RigidSettings iterative = SolveSettings.iterative(10);
            Bits.assertIdentical(cpu.solve(scene.bodies(), scene.contacts(), iterative, new SolveResult()),
                    device.solve(scene.bodies(), scene.contacts(), iterative, new SolveResult()), "iterative");
            Scene onCpu = SceneGenerator.pileWithContacts(5, 3000, 0.2f);
            Scene onDevice = SceneGenerator.pileWithContacts(5, 3000, 0.2f);
            SolveHistory cpuHistory = new SolveHistory();
            SolveHistory deviceHistory = new SolveHistory();
            for (int step = 0; step < 3; step++) {
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
