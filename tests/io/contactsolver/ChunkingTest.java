package io.contactsolver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.contactsolver.opencl.OpenClTestAccess;
import io.contactsolver.scene.Scene;
import io.contactsolver.scene.SceneGenerator;
import io.contactsolver.testing.Backends;
import io.contactsolver.testing.Bits;
import org.junit.jupiter.api.Test;

/**
 * Contact batches larger than the device's largest allocation go through in chunks and give the
 * same bits as in one piece. The device's limit is lowered to 128 KiB so that a scene of 9,000
 * contacts is cut into several chunks, while its 1,500 bodies (120 KB) still fit one allocation,
 * as bodies must.
 */
class ChunkingTest {
    private static final long LIMIT = 128 * 1024;

    @Test
    void chunkedSolvesGiveTheSameBitsAsTheCpu() {
        OpenClTestAccess.requireDevice();
        Scene scene = SceneGenerator.randomGraph(31, 1500, 9000);
        // rows are 80 bytes, responses 48: at 128 KiB that is 1638 rows or 2730 contacts per chunk
        RigidSettings[] settings = {SolveSettings.singlePass(), SolveSettings.iterative(12),
            SolveSettings.iterative(12).withColourBudget(4)};
        try (ContactSolver cpu = Backends.cpu();
                ContactSolver chunked = ContactSolver.create(SolverConfig.defaults().withBackend(Backend.OPENCL),
                        selector -> OpenClTestAccess.openWithAllocationLimit(selector, LIMIT))) {
            for (RigidSettings setting : settings) {
                SolveResult expected = cpu.solve(scene.bodies(), scene.contacts(), setting, new SolveResult());
                SolveResult actual = chunked.solve(scene.bodies(), scene.contacts(), setting, new SolveResult());
                assertEquals(Backend.OPENCL, actual.backend(), "chunked, not fallen back");
                Bits.assertIdentical(expected, actual, "chunked " + setting);
                assertEquals(expected.residual(), actual.residual());
                SolveResult warmExpected = cpu.solve(scene.bodies(), scene.contacts(), setting, expected,
                        new SolveResult());
                SolveResult warmActual = chunked.solve(scene.bodies(), scene.contacts(), setting, actual,
                        new SolveResult());
                Bits.assertIdentical(warmExpected, warmActual, "chunked, warm-started " + setting);
            }
            assertTrue(9000L * 80 > 5 * LIMIT, "the rows really span several allocations");
            assertTrue(9000L * 48 > 3 * LIMIT, "and so do the responses");
        }
    }
}
