package io.contactsolver.opencl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.contactsolver.Backend;
import io.contactsolver.ContactSolver;
import io.contactsolver.RigidSettings;
import io.contactsolver.SolveResult;
import io.contactsolver.SolveSettings;
import io.contactsolver.scene.Scene;
import io.contactsolver.scene.SceneGenerator;
import io.contactsolver.testing.Backends;
import io.contactsolver.testing.Bits;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

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
    void singlePassIsBitIdenticalOnALargePile() {
        Scene scene = SceneGenerator.pileWithContacts(2024, 120_000, 0.2f);
        try (ContactSolver cpu = Backends.cpu(); ContactSolver openCl = Backends.openClOrSkip()) {
            SolveResult expected = cpu.solve(scene.bodies(), scene.contacts(), new SolveResult());
            Bits.assertIdentical(expected, openCl.solve(scene.bodies(), scene.contacts(), new SolveResult()),
                    "CPU vs OpenCL on a pile");
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

    /**
     * Both device paths: a batch above {@code SMALL_BATCH_ROWS} solved a kernel per colour, and one
     * below it solved whole by one work-group.
     */
    @ParameterizedTest
    @ValueSource(ints = {120_000, 18_000})
    void iterativeSolveIsBitIdenticalWithOverflowWarmStartAndEarlyExit(int contacts) {
        assertEquals(contacts > 100_000, contacts > IterativePipeline.SMALL_BATCH_ROWS, "the path under test");
        Scene scene = SceneGenerator.randomGraph(2025, contacts / 6, contacts);
        try (ContactSolver cpu = Backends.cpu(); ContactSolver openCl = Backends.openClOrSkip()) {
            for (RigidSettings settings : new RigidSettings[] {
                SolveSettings.iterative(25),
                SolveSettings.iterative(25).withColourBudget(6),
                SolveSettings.iterative(15).withRestitutionThreshold(0.5f)}) {
                SolveResult expected = cpu.solve(scene.bodies(), scene.contacts(), settings, new SolveResult());
                SolveResult actual = openCl.solve(scene.bodies(), scene.contacts(), settings, new SolveResult());
                assertEquals(Backend.OPENCL, actual.backend());
                Bits.assertIdentical(expected, actual, settings.toString());
                assertEquals(expected.iterations(), actual.iterations(), "iterations " + settings);
                assertEquals(expected.residual(), actual.residual(), "residual " + settings);
                assertEquals(expected.overflowCount(), actual.overflowCount());
                // the next step, warm-started from this one on each backend
                SolveResult expectedNext = cpu.solve(scene.bodies(), scene.contacts(), settings, expected,
                        new SolveResult());
                SolveResult actualNext = openCl.solve(scene.bodies(), scene.contacts(), settings, actual,
                        new SolveResult());
                Bits.assertIdentical(expectedNext, actualNext, "warm-started " + settings);
            }
        }
    }

    @Test
    void positionalCorrectionIsBitIdentical() {
        Scene scene = SceneGenerator.randomGraph(2026, 5000, 30_000);
        java.util.SplittableRandom random = new java.util.SplittableRandom(1);
        for (int c = 0; c < scene.contacts().size(); c++) {
            scene.contacts().setSeparation(c, (float) (random.nextDouble() * 0.2 - 0.12));
        }
        try (ContactSolver cpu = Backends.cpu(); ContactSolver openCl = Backends.openClOrSkip()) {
            for (RigidSettings settings : new RigidSettings[] {SolveSettings.singlePass(), SolveSettings.iterative(10)}) {
                RigidSettings corrected = settings.withPositionalCorrection(0.2f, 0.005f);
                float dt = 1.0f / 60.0f;
                Bits.assertIdentical(cpu.solve(scene.bodies(), scene.contacts(), corrected, dt, null, new SolveResult()),
                        openCl.solve(scene.bodies(), scene.contacts(), corrected, dt, null, new SolveResult()),
                        corrected.toString());
            }
        }
    }

    /** A pile converges, so the early exit (and the device's skipping of later iterations) is exercised. */
    @Test
    void iterativeEarlyExitStopsBothBackendsAtTheSameIteration() {
        Scene pile = SceneGenerator.pile(5, 300, 0.3f);
        RigidSettings settings = SolveSettings.iterative(2000).withTolerance(1e-4f);
        try (ContactSolver cpu = Backends.cpu(); ContactSolver openCl = Backends.openClOrSkip()) {
            SolveResult expected = cpu.solve(pile.bodies(), pile.contacts(), settings, new SolveResult());
            SolveResult actual = openCl.solve(pile.bodies(), pile.contacts(), settings, new SolveResult());
            assertTrue(expected.iterations() < 2000, "converged early: " + expected.iterations());
            assertTrue(expected.iterations() % 16 != 0, "not on a readback boundary, to test the device skip");
            assertEquals(expected.iterations(), actual.iterations());
            assertEquals(expected.residual(), actual.residual());
            Bits.assertIdentical(expected, actual, "pile with early exit");
        }
    }

    /**
     * The device keeps residuals in a ring of two readback windows: stopping points in many
     * windows (after the ring has wrapped several times) and a cap in the middle of a window give
     * the CPU's iteration count, residual and bits.
     */
    @Test
    void iterationCountsAgreeAcrossManyReadbackWindows() {
        Scene pile = SceneGenerator.pile(5, 300, 0.3f);
        try (ContactSolver cpu = Backends.cpu(); ContactSolver openCl = Backends.openClOrSkip()) {
            java.util.Set<Integer> windows = new java.util.TreeSet<>();
            // on the CPU these stop after 6, 11, 16, 25, 45, 87, 148 and 150 iterations
            for (float tolerance : new float[] {0.5f, 0.125f, 0.0625f, 0.03125f, 0.015625f, 0.0078125f, 0.00390625f, 0.0f}) {
                RigidSettings settings = SolveSettings.iterative(150).withTolerance(tolerance);
                SolveResult expected = cpu.solve(pile.bodies(), pile.contacts(), settings, new SolveResult());
                SolveResult actual = openCl.solve(pile.bodies(), pile.contacts(), settings, new SolveResult());
                assertEquals(expected.iterations(), actual.iterations(), "tolerance " + tolerance);
                assertEquals(expected.residual(), actual.residual(), "tolerance " + tolerance);
                Bits.assertIdentical(expected, actual, "tolerance " + tolerance);
                windows.add((expected.iterations() - 1) / 16);
            }
            assertTrue(windows.size() >= 5 && windows.contains(9), "stops spread over the windows, the cap of "
                    + "150 in the middle of the tenth: " + windows);
        }
    }

    /** The iteration cap costs nothing by itself: 600 million allowed iterations for a contact that needs one. */
    @Test
    void theIterationCapCostsNoMemoryOrTime() {
        Scene pair = SceneGenerator.randomGraph(3, 2, 1);
        RigidSettings settings = SolveSettings.iterative(600_000_000);
        try (ContactSolver cpu = Backends.cpu(); ContactSolver openCl = Backends.openClOrSkip()) {
            SolveResult expected = cpu.solve(pair.bodies(), pair.contacts(), settings, new SolveResult());
            long start = System.nanoTime();
            SolveResult actual = openCl.solve(pair.bodies(), pair.contacts(), settings, new SolveResult());
            double seconds = (System.nanoTime() - start) / 1e9;
            assertTrue(seconds < 1.0, "took " + seconds + " s");
            assertEquals(expected.iterations(), actual.iterations());
            Bits.assertIdentical(expected, actual, "one contact, a huge cap");
        }
    }

    /** Batch fields go up only when written since they last went up; the answer does not change. */
    @Test
    void unchangedFieldsAreNotSentAgain() {
        Scene scene = SceneGenerator.randomGraph(7, 1000, 4000);
        int bodyBytes = 1000 * io.contactsolver.layout.BodyField.COUNT * 4;
        int contactBytes = 4000 * (io.contactsolver.layout.ContactField.COUNT + io.contactsolver.layout.ContactBody.COUNT) * 4;
        int indexBytes;
        try (ContactSolver cpu = Backends.cpu(); ContactSolver openCl = Backends.openClOrSkip()) {
            SolveResult first = openCl.solve(scene.bodies(), scene.contacts(), new SolveResult());
            indexBytes = (int) first.bytesUploaded() - bodyBytes - contactBytes;
            assertTrue(indexBytes > 0, "the index goes up every solve: " + first.bytesUploaded());
            assertEquals(1000 * io.contactsolver.layout.DeltaField.COUNT * 4 + 4000 * 4, first.bytesDownloaded());
            assertTrue(first.deviceNanos(io.contactsolver.layout.SolvePhase.TRANSFER) > 0, "the copies, timed");
            assertTrue(first.deviceNanos(io.contactsolver.layout.SolvePhase.SOLVE) > 0, "the kernels, timed");

            SolveResult again = openCl.solve(scene.bodies(), scene.contacts(), new SolveResult());
            assertEquals(indexBytes, again.bytesUploaded(), "nothing changed: only the index goes up");
            Bits.assertIdentical(first, again, "unchanged inputs");

            scene.bodies().setLinearVelocity(17, 1.0f, 2.0f, 3.0f);
            SolveResult moved = openCl.solve(scene.bodies(), scene.contacts(), new SolveResult());
            assertEquals(indexBytes + 3 * 1000 * 4, moved.bytesUploaded(), "only vx, vy, vz go up");
            Bits.assertIdentical(cpu.solve(scene.bodies(), scene.contacts(), new SolveResult()), moved,
                    "after a change");
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
