package io.contactsolver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.contactsolver.core.SolverBackend;
import io.contactsolver.opencl.OpenClTestAccess;
import io.contactsolver.scene.Scene;
import io.contactsolver.scene.SceneGenerator;
import io.contactsolver.testing.Backends;
import io.contactsolver.testing.Bits;
import org.junit.jupiter.api.Test;

/**
 * The OpenCL backend stages the arrays the host builds for a solve in pinned host memory, which a
 * GPU copies by DMA: the solve gives the CPU's bits through it, and closing the solver releases it.
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
}
