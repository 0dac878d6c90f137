package io.contactsolver.opencl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.contactsolver.Backend;
import io.contactsolver.ContactSolver;
import io.contactsolver.SolveResult;
import io.contactsolver.scene.Scene;
import io.contactsolver.scene.SceneGenerator;
import io.contactsolver.testing.Backends;
import io.contactsolver.testing.Bits;
import org.junit.jupiter.api.Test;

/**
 * The OpenCL kernels against the CPU path they mirror: the same bits, not merely close values, on
 * scenes large enough to exercise every code path (many contacts per body, static bodies,
 * particles, the world, separating contacts, shuffled ids).
 */
class CpuOpenClAgreementTest {

    @Test
    void singlePassIsBitIdenticalOnALargeRandomScene() {
        Scene scene = SceneGenerator.randomGraph(2024, 20_000, 120_000);
        try (ContactSolver cpu = Backends.cpu(); ContactSolver openCl = Backends.openClOrSkip()) {
            SolveResult expected = cpu.solve(scene.bodies(), scene.contacts(), new SolveResult());
            SolveResult actual = openCl.solve(scene.bodies(), scene.contacts(), new SolveResult());
            assertEquals(Backend.OPENCL, actual.backend());
            assertNonTrivial(expected);
            Bits.assertIdentical(expected, actual, "CPU vs OpenCL");
        }
    }

    @Test
    void reusedDeviceBuffersGiveTheSameBitsForShrinkingAndGrowingBatches() {
        try (ContactSolver cpu = Backends.cpu(); ContactSolver openCl = Backends.openClOrSkip()) {
            SolveResult fromCpu = new SolveResult();
            SolveResult fromDevice = new SolveResult();
            int[][] sizes = {{3000, 20_000}, {500, 1500}, {1, 0}, {8000, 40_000}};
            for (int[] size : sizes) {
                Scene scene = SceneGenerator.randomGraph(size[0] * 31L + size[1], size[0], size[1]);
                cpu.solve(scene.bodies(), scene.contacts(), fromCpu);
                openCl.solve(scene.bodies(), scene.contacts(), fromDevice);
                Bits.assertIdentical(fromCpu, fromDevice, size[0] + " bodies, " + size[1] + " contacts");
            }
        }
    }

    static void assertNonTrivial(SolveResult result) {
        int pushing = 0;
        for (int c = 0; c < result.contactCount(); c++) {
            pushing += result.impulse(c) > 0 ? 1 : 0;
        }
        assertTrue(pushing > result.contactCount() / 4, "too few approaching contacts: " + pushing);
        assertTrue(pushing < result.contactCount(), "some contacts must be separating");
    }
}
