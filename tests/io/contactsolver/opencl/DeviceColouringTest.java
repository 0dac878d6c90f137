package io.contactsolver.opencl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.contactsolver.core.BackendUnavailableException;
import io.contactsolver.core.ContactColoring;
import io.contactsolver.core.FieldBlock;
import io.contactsolver.core.ManifoldGrouping;
import io.contactsolver.core.MovableBodies;
import io.contactsolver.core.ParallelRunner;
import io.contactsolver.layout.BodyField;
import io.contactsolver.layout.ContactBody;
import io.contactsolver.layout.ContactField;
import java.util.Arrays;
import java.util.Optional;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The hashed order's colouring on the device ({@code kernels/colouring.cl}) against the host's pass
 * it stands for: the same colours, so the same rows, colour boundaries and slots, for every budget
 * (overflow included), static bodies and the world, a chain, and no rows at all; forced onto the
 * device here, as a GPU's backend colours by default.
 */
class DeviceColouringTest {

    /** Rows joining two bodies or a body and the world; every {@code staticEvery}-th body static. */
    private static int[][] graph(long seed, int bodyCount, int count) {
        SplittableRandom random = new SplittableRandom(seed);
        int[][] pairs = new int[2][count];
        for (int r = 0; r < count; r++) {
            pairs[0][r] = random.nextInt(bodyCount);
            pairs[1][r] = random.nextInt(10) == 0 ? -1 : (pairs[0][r] + 1 + random.nextInt(bodyCount - 1)) % bodyCount;
        }
        return pairs;
    }

    private static int[][] chain(int count) {
        int[][] pairs = new int[2][count];
        for (int r = 0; r < count; r++) {
            pairs[0][r] = r;
            pairs[1][r] = r + 1;
        }
        return pairs;
    }

    /** A colouring of {@code pairs} in the hashed order, filled in by {@code fill}, and laid out. */
    private static ContactColoring colour(int[][] pairs, int bodyCount, int staticEvery, int budget,
            java.util.function.Consumer<ContactColoring.HashedColouring> fill, ParallelRunner runner) {
        int count = pairs[0].length;
        FieldBlock links = new FieldBlock(ContactBody.COUNT, Math.max(1, count));
        for (int r = 0; r < count; r++) {
            links.setInt(ContactBody.A.ordinal(), r, pairs[0][r]);
            links.setInt(ContactBody.B.ordinal(), r, pairs[1][r]);
        }
        FieldBlock bodies = new FieldBlock(BodyField.COUNT, bodyCount);
        for (int j = 0; j < bodyCount; j++) {
            bodies.setFloat(BodyField.QW.ordinal(), j, 1.0f);
            bodies.setFloat(BodyField.INV_MASS.ordinal(), j, j % staticEvery == 0 ? 0.0f : 1.0f);
        }
        MovableBodies movable = new MovableBodies();
        movable.classify(bodies, bodyCount, runner);
        int[] alone = new int[count];
        Arrays.fill(alone, ManifoldGrouping.NONE);
        ManifoldGrouping manifolds = new ManifoldGrouping();
        manifolds.build(alone, new FieldBlock(ContactField.COUNT, Math.max(1, count)), links, count, runner);
        manifolds.layPairs(links, runner);
        ContactColoring coloring = new ContactColoring();
        coloring.colour(manifolds, movable, budget, fill);
        coloring.lay(runner);
        return coloring;
    }

    private static void assertSameColouring(ContactColoring expected, ContactColoring actual, String what) {
        int rows = expected.rowCount();
        assertEquals(rows, actual.rowCount(), what);
        assertEquals(expected.colourCount(), actual.colourCount(), what + ": colours");
        assertEquals(expected.overflowCount(), actual.overflowCount(), what + ": overflow");
        assertArrayEquals(expected.colourStarts(), actual.colourStarts(), what + ": colour starts");
        assertArrayEquals(Arrays.copyOf(expected.order(), rows), Arrays.copyOf(actual.order(), rows), what + ": rows");
        assertArrayEquals(Arrays.copyOf(expected.slots(), 2 * rows), Arrays.copyOf(actual.slots(), 2 * rows),
                what + ": slots");
    }

    @Test
    void theDeviceColoursAsTheHostsPass() throws BackendUnavailableException {
        OpenClTestAccess.requireDevice();
        try (ParallelRunner runner = new ParallelRunner(2);
                OpenClBackend device = (OpenClBackend) OpenClTestAccess.openColouringOnDevice(Optional.empty())) {
            record Case(String name, int[][] pairs, int bodyCount, int staticEvery, int budget) {
            }
            Case[] cases = {
                new Case("random graph, 32 colours", graph(1, 3_000, 20_000), 3_000, 17, 32),
                new Case("random graph, 3 colours (overflow)", graph(2, 3_000, 20_000), 3_000, 17, 3),
                new Case("random graph, 64 colours", graph(3, 500, 30_000), 500, 1_000, 64),
                new Case("chain", chain(10_000), 10_001, 1_000_000, 32),
                new Case("every body static", graph(4, 50, 400), 50, 1, 8),
                new Case("no rows", new int[2][0], 10, 3, 32),
            };
            for (Case c : cases) {
                ContactColoring host = colour(c.pairs(), c.bodyCount(), c.staticEvery(), c.budget(),
                        ContactColoring.HashedColouring::colourOnHost, runner);
                ContactColoring onDevice = colour(c.pairs(), c.bodyCount(), c.staticEvery(), c.budget(),
                        device::colourHashed, runner);
                assertSameColouring(host, onDevice, c.name());
                if (c.budget() == 3) {
                    assertTrue(host.overflowCount() > 0, c.name());
                }
                int rounds = device.colouringRounds();
                assertTrue(c.pairs()[0].length == 0 ? rounds == 0 : rounds > 0, c.name() + ": rounds " + rounds);
                if (c.name().equals("chain")) {
                    // 10,000 rows each waiting on the one before it in contact order: tens of rounds here
                    assertTrue(rounds <= 48, "chain: rounds " + rounds);
                }
            }
        }
    }

    /** Through staging as for a GPU (pinned, its copies split over two threads): the same colours. */
    @Test
    void throughAGpusStagingTheDeviceColoursAlike() throws BackendUnavailableException {
        OpenClTestAccess.requireDevice();
        int[][] pairs = graph(5, 2_000, 12_000);
        try (ParallelRunner runner = new ParallelRunner(2);
                OpenClBackend device = (OpenClBackend) OpenClTestAccess.colouringOnDevice(
                        OpenClTestAccess.openStagingAsForAGpu(Optional.empty(), runner, 1_000))) {
            ContactColoring host = colour(pairs, 2_000, 13, 32, ContactColoring.HashedColouring::colourOnHost, runner);
            ContactColoring onDevice = colour(pairs, 2_000, 13, 32, device::colourHashed, runner);
            assertSameColouring(host, onDevice, "staged as for a GPU");
            assertTrue(OpenClTestAccess.pinnedStagingBytes(device) > 0, "the pairs and colours went through pinned staging");
        }
    }

    /** The count read after each batch of rounds: a graph that needs more than one batch runs more. */
    @Test
    void theRoundsRunUntilEveryRowHasItsColour() throws BackendUnavailableException {
        OpenClTestAccess.requireDevice();
        // a clique on 12 bodies, many rows a pair: rows wait on each other through every body
        int count = 3_000;
        int[][] pairs = new int[2][count];
        SplittableRandom random = new SplittableRandom(9);
        for (int r = 0; r < count; r++) {
            pairs[0][r] = random.nextInt(12);
            pairs[1][r] = (pairs[0][r] + 1 + random.nextInt(11)) % 12;
        }
        try (ParallelRunner runner = new ParallelRunner(1);
                OpenClBackend device = (OpenClBackend) OpenClTestAccess.openColouringOnDevice(Optional.empty())) {
            ContactColoring host = colour(pairs, 12, 1_000, 64, ContactColoring.HashedColouring::colourOnHost, runner);
            ContactColoring onDevice = colour(pairs, 12, 1_000, 64, device::colourHashed, runner);
            assertSameColouring(host, onDevice, "clique");
            assertTrue(device.colouringRounds() > 8, "more rounds than the first batch: " + device.colouringRounds());
        }
    }
}
