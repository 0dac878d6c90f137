package io.contactsolver.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.contactsolver.layout.BodyField;
import io.contactsolver.layout.ContactBody;
import io.contactsolver.layout.ContactField;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The soft step's colouring in the hashed order: the host's one pass in priority order gives the
 * colours of the parallel rounds a device runs (written out here as the kernels do them, serially),
 * a valid colouring laid out as any other, in tens of rounds where contact order would need as many
 * rounds as a chain is long; kept while the pairs stand in the same order, made again when the
 * order changes; a filler's colour out of range refused.
 */
class ContactColoringHashedTest {

    /** Pairs of two bodies, or a body and the world (-1), on bodies of which a share are static. */
    private record Graph(int bodyCount, int[] a, int[] b, boolean[] isStatic) {
        int count() {
            return a.length;
        }
    }

    private static Graph randomGraph(long seed, int bodyCount, int count) {
        SplittableRandom random = new SplittableRandom(seed);
        int[] a = new int[count];
        int[] b = new int[count];
        for (int r = 0; r < count; r++) {
            a[r] = random.nextInt(bodyCount);
            b[r] = random.nextInt(10) == 0 ? -1 : (a[r] + 1 + random.nextInt(bodyCount - 1)) % bodyCount;
        }
        boolean[] isStatic = new boolean[bodyCount];
        for (int j = 0; j < bodyCount; j++) {
            isStatic[j] = random.nextInt(20) == 0;
        }
        return new Graph(bodyCount, a, b, isStatic);
    }

    /** Rows {@code r} joining bodies {@code r} and {@code r + 1}: in contact order each row waits on the one before. */
    private static Graph chain(int count) {
        int[] a = new int[count];
        int[] b = new int[count];
        for (int r = 0; r < count; r++) {
            a[r] = r;
            b[r] = r + 1;
        }
        return new Graph(count + 1, a, b, new boolean[count + 1]);
    }

    /** A grouping of one contact a manifold over {@code graph}'s pairs, laid, and its bodies classified. */
    private record Grouped(ManifoldGrouping manifolds, MovableBodies movable, FieldBlock links) {
    }

    private static Grouped group(Graph graph, ParallelRunner runner) {
        int count = graph.count();
        FieldBlock links = new FieldBlock(ContactBody.COUNT, count);
        for (int r = 0; r < count; r++) {
            links.setInt(ContactBody.A.ordinal(), r, graph.a()[r]);
            links.setInt(ContactBody.B.ordinal(), r, graph.b()[r]);
        }
        FieldBlock bodies = new FieldBlock(BodyField.COUNT, graph.bodyCount());
        for (int j = 0; j < graph.bodyCount(); j++) {
            bodies.setFloat(BodyField.QW.ordinal(), j, 1.0f);
            if (!graph.isStatic()[j]) {
                bodies.setFloat(BodyField.INV_MASS.ordinal(), j, 1.0f);
                for (BodyField inertia : new BodyField[] {BodyField.INV_IXX, BodyField.INV_IYY, BodyField.INV_IZZ}) {
                    bodies.setFloat(inertia.ordinal(), j, 1.0f);
                }
            }
        }
        MovableBodies movable = new MovableBodies();
        movable.classify(bodies, graph.bodyCount(), runner);
        int[] alone = new int[count];
        Arrays.fill(alone, ManifoldGrouping.NONE);
        ManifoldGrouping manifolds = new ManifoldGrouping();
        manifolds.build(alone, new FieldBlock(ContactField.COUNT, count), links, count, runner);
        manifolds.layPairs(links, runner);
        return new Grouped(manifolds, movable, links);
    }

    /** The rounds as the kernels run them, one after the other: each row's colour, and the rounds taken. */
    private record Rounds(int[] colours, int rounds) {
    }

    private static Rounds rounds(Graph graph, MovableBodies movable, int budget) {
        int count = graph.count();
        int[] colours = new int[count];
        Arrays.fill(colours, -1);
        long[] masks = new long[graph.bodyCount()];
        int[] lowest = new int[graph.bodyCount()];
        long allowed = budget == 64 ? -1L : (1L << budget) - 1;
        int done = 0;
        int rounds = 0;
        while (done < count) {
            rounds++;
            Arrays.fill(lowest, -1);
            for (int r = 0; r < count; r++) {
                if (colours[r] < 0) {
                    int p = ContactColoring.priority(r);
                    for (int body : new int[] {graph.a()[r], graph.b()[r]}) {
                        if (body >= 0 && movable.isMovable(body) && Integer.compareUnsigned(p, lowest[body]) < 0) {
                            lowest[body] = p;
                        }
                    }
                }
            }
            List<Integer> ready = new ArrayList<>();
            for (int r = 0; r < count; r++) {
                if (colours[r] < 0) {
                    int p = ContactColoring.priority(r);
                    boolean first = true;
                    for (int body : new int[] {graph.a()[r], graph.b()[r]}) {
                        first &= body < 0 || !movable.isMovable(body) || lowest[body] == p;
                    }
                    if (first) {
                        ready.add(r);
                    }
                }
            }
            assertTrue(!ready.isEmpty(), "a round colours the lowest uncoloured row at least");
            for (int r : ready) {
                int a = graph.a()[r];
                int b = graph.b()[r];
                boolean moveA = a >= 0 && movable.isMovable(a);
                boolean moveB = b >= 0 && movable.isMovable(b);
                long free = ~((moveA ? masks[a] : 0L) | (moveB ? masks[b] : 0L)) & allowed;
                if (free == 0L) {
                    colours[r] = budget;
                } else {
                    colours[r] = Long.numberOfTrailingZeros(free);
                    masks[moveA ? a : 0] |= moveA ? 1L << colours[r] : 0L;
                    masks[moveB ? b : 0] |= moveB ? 1L << colours[r] : 0L;
                }
            }
            done += ready.size();
        }
        return new Rounds(colours, rounds);
    }

    /** Each row's colour as the laid-out rows give it ({@code budget} for the overflow). */
    private static int[] coloursOf(ContactColoring coloring, int budget) {
        int[] colours = new int[coloring.rowCount()];
        for (int k = 0; k <= coloring.colourCount(); k++) {
            int end = k < coloring.colourCount() ? coloring.colourStart(k + 1) : coloring.rowCount();
            for (int row = coloring.colourStart(k); row < end; row++) {
                colours[coloring.order()[row]] = k < coloring.colourCount() ? k : budget;
            }
        }
        return colours;
    }

    private static ContactColoring colourHashed(Grouped grouped, int budget, ParallelRunner runner) {
        ContactColoring coloring = new ContactColoring();
        coloring.colour(grouped.manifolds(), grouped.movable(), budget, ContactColoring.HashedColouring::colourOnHost);
        coloring.lay(runner);
        return coloring;
    }

    @Test
    void thePriorityIsABijectionThatScattersNeighbours() {
        int count = 1 << 20;
        Set<Integer> seen = new HashSet<>(2 * count);
        int inOrder = 0;
        for (int r = 0; r < count; r++) {
            assertTrue(seen.add(ContactColoring.priority(r)), "two rows share priority " + ContactColoring.priority(r));
            if (r > 0 && Integer.compareUnsigned(ContactColoring.priority(r - 1), ContactColoring.priority(r)) < 0) {
                inOrder++;
            }
        }
        // a scattered order: a row comes after its neighbour in memory about half the time
        assertTrue(Math.abs(inOrder - count / 2) < count / 100, "rows after their neighbour: " + inOrder);
    }

    @Test
    void theHostsPassGivesTheColoursOfTheParallelRounds() {
        try (ParallelRunner runner = new ParallelRunner(2)) {
            for (int budget : new int[] {3, 8, 32, 64}) {
                Graph graph = randomGraph(budget, 3_000, 12_000);
                Grouped grouped = group(graph, runner);
                ContactColoring coloring = colourHashed(grouped, budget, runner);
                Rounds expected = rounds(graph, grouped.movable(), budget);
                assertArrayEquals(expected.colours(), coloursOf(coloring, budget), "budget " + budget);
                if (budget == 3) {
                    assertTrue(coloring.overflowCount() > 0, "three colours cannot hold every row");
                }
            }
        }
    }

    @Test
    void theRowsOfAColourShareNoMovableBodyAndComeInIndexOrder() {
        Graph graph = randomGraph(11, 2_000, 10_000);
        try (ParallelRunner runner = new ParallelRunner(2)) {
            Grouped grouped = group(graph, runner);
            ContactColoring coloring = colourHashed(grouped, 32, runner);
            assertEquals(0, coloring.overflowCount());
            for (int k = 0; k < coloring.colourCount(); k++) {
                Set<Integer> bodies = new HashSet<>();
                int previous = -1;
                for (int row = coloring.colourStart(k); row < coloring.colourStart(k + 1); row++) {
                    int r = coloring.order()[row];
                    assertTrue(r > previous, "rows of a colour in increasing index order");
                    previous = r;
                    for (int body : new int[] {graph.a()[r], graph.b()[r]}) {
                        if (body >= 0 && grouped.movable().isMovable(body)) {
                            assertTrue(bodies.add(body), "colour " + k + " moves body " + body + " twice");
                        }
                    }
                }
            }
        }
    }

    /**
     * A chain of 10,000 rows, each sharing a body with the next: in contact order a row could take
     * its colour only after the one before it (10,000 rounds); in the hashed order a few tens do.
     */
    @Test
    void aChainIsColouredInTensOfRoundsNotInAsManyAsItHasRows() {
        Graph graph = chain(10_000);
        try (ParallelRunner runner = new ParallelRunner(1)) {
            Grouped grouped = group(graph, runner);
            Rounds rounds = rounds(graph, grouped.movable(), 32);
            assertTrue(rounds.rounds() <= 40, "rounds: " + rounds.rounds());
            ContactColoring coloring = colourHashed(grouped, 32, runner);
            assertArrayEquals(rounds.colours(), coloursOf(coloring, 32));
            assertTrue(coloring.colourCount() <= 3, "a chain needs at most three colours: " + coloring.colourCount());
        }
    }

    @Test
    void keptWhileThePairsStandInTheSameOrderAndMadeAgainWhenTheOrderChanges() {
        Graph graph = randomGraph(5, 1_000, 4_000);
        try (ParallelRunner runner = new ParallelRunner(2)) {
            Grouped grouped = group(graph, runner);
            ContactColoring coloring = new ContactColoring();
            int[] fills = {0};
            java.util.function.Consumer<ContactColoring.HashedColouring> host = hashed -> {
                fills[0]++;
                hashed.colourOnHost();
            };
            coloring.colour(grouped.manifolds(), grouped.movable(), 32, host);
            coloring.lay(runner);
            long hashed = coloring.version();
            int[] hashedColours = coloursOf(coloring, 32);
            assertTrue(coloring.wouldKeep(grouped.manifolds(), grouped.movable(), 32, true));
            coloring.colour(grouped.manifolds(), grouped.movable(), 32, host);
            coloring.lay(runner);
            assertEquals(hashed, coloring.version(), "the same pairs, the same order: kept");
            assertEquals(1, fills[0], "a kept colouring is not filled in again");

            assertTrue(!coloring.wouldKeep(grouped.manifolds(), grouped.movable(), 32, false));
            coloring.colour(grouped.manifolds(), grouped.movable(), 32);
            coloring.lay(runner);
            assertEquals(hashed + 1, coloring.version(), "contact order: made again");
            assertNotEquals(Arrays.toString(hashedColours), Arrays.toString(coloursOf(coloring, 32)),
                    "the two orders colour differently");

            coloring.colour(grouped.manifolds(), grouped.movable(), 32, host);
            coloring.lay(runner);
            assertEquals(hashed + 2, coloring.version(), "back to the hashed order: made again");
            assertArrayEquals(hashedColours, coloursOf(coloring, 32), "to the same colours");
        }
    }

    @Test
    void aFillersColourOutsideTheBudgetIsRefusedNamingTheRow() {
        Graph graph = randomGraph(6, 100, 400);
        try (ParallelRunner runner = new ParallelRunner(1)) {
            Grouped grouped = group(graph, runner);
            ContactColoring coloring = new ContactColoring();
            IllegalStateException refused = assertThrows(IllegalStateException.class,
                    () -> coloring.colour(grouped.manifolds(), grouped.movable(), 8, hashed -> {
                        hashed.colourOnHost();
                        hashed.colours()[17] = 9;
                    }));
            assertEquals("hashed colouring: row 17 has colour 9, outside [0, 8]", refused.getMessage());
            refused = assertThrows(IllegalStateException.class,
                    () -> coloring.colour(grouped.manifolds(), grouped.movable(), 8, hashed -> { }));
            assertTrue(refused.getMessage().contains("row 0"), refused.getMessage());
        }
    }
}
