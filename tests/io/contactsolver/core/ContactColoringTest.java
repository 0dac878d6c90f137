package io.contactsolver.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.contactsolver.layout.BodyField;
import io.contactsolver.layout.ContactBody;
import io.contactsolver.scene.Scene;
import io.contactsolver.scene.SceneGenerator;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ContactColoringTest {

    private record Built(ContactColoring coloring, MovableBodies movable, Scene scene) {
    }

    /** The scene's bodies as a block of {@code BodyField}s. */
    private static FieldBlock bodyBlock(Scene scene) {
        FieldBlock bodies = new FieldBlock(BodyField.COUNT, scene.bodies().size());
        for (BodyField field : BodyField.values()) {
            for (int i = 0; i < scene.bodies().size(); i++) {
                bodies.setFloat(field.ordinal(), i, scene.bodies().get(field, i));
            }
        }
        return bodies;
    }

    /** The scene's contacts' bodies as a block of links. */
    private static FieldBlock linkBlock(Scene scene) {
        FieldBlock links = new FieldBlock(ContactBody.COUNT, scene.contacts().size());
        for (int c = 0; c < scene.contacts().size(); c++) {
            for (ContactBody side : ContactBody.values()) {
                links.setInt(side.ordinal(), c, scene.contacts().body(side, c));
            }
        }
        return links;
    }

    private static Built color(Scene scene, int budget) {
        return color(scene, budget, 1);
    }

    /** {@code scene} coloured with {@code budget} colours, its rows laid out on {@code threads} threads. */
    private static Built color(Scene scene, int budget, int threads) {
        FieldBlock bodies = bodyBlock(scene);
        FieldBlock links = linkBlock(scene);
        MovableBodies movable = new MovableBodies();
        ContactColoring coloring = new ContactColoring();
        try (ParallelRunner runner = new ParallelRunner(threads)) {
            movable.classify(bodies, scene.bodies().size(), runner);
            coloring.build(links, scene.contacts().size(), movable, budget, runner);
        }
        return new Built(coloring, movable, scene);
    }

    @Test
    void noTwoContactsOfAColourMoveTheSameBody() {
        Built built = color(SceneGenerator.randomGraph(1, 3000, 20_000), 32);
        ContactColoring coloring = built.coloring();
        assertEquals(0, coloring.overflowCount(), "a sparse graph fits the budget");
        for (int k = 0; k < coloring.colourCount(); k++) {
            Set<Integer> bodies = new HashSet<>();
            int previous = -1;
            for (int r = coloring.colourStart(k); r < coloring.colourStart(k + 1); r++) {
                int c = coloring.order()[r];
                assertTrue(c > previous, "rows of a colour in increasing contact order");
                previous = c;
                for (ContactBody side : ContactBody.values()) {
                    int body = built.scene().contacts().body(side, c);
                    if (body >= 0 && built.movable().isMovable(body)) {
                        assertTrue(bodies.add(body), "colour " + k + " moves body " + body + " twice");
                    }
                }
            }
        }
    }

    @Test
    void everyContactHasExactlyOneRowAndItsSlotsPointAtMovableBodiesOrTheWorldSlot() {
        Scene scene = SceneGenerator.randomGraph(2, 500, 6000);
        Built built = color(scene, 5);
        ContactColoring coloring = built.coloring();
        int rows = coloring.rowCount();
        assertEquals(6000, rows);
        boolean[] seen = new boolean[rows];
        for (int r = 0; r < rows; r++) {
            int c = coloring.order()[r];
            assertTrue(!seen[c], "contact " + c + " twice");
            seen[c] = true;
            for (ContactBody side : ContactBody.values()) {
                int body = scene.contacts().body(side, c);
                int slot = coloring.slots()[side.ordinal() * rows + r];
                boolean movable = body >= 0 && built.movable().isMovable(body);
                assertEquals(movable ? body : scene.bodies().size(), slot, "slot of row " + r);
            }
        }
        assertTrue(coloring.overflowCount() > 0, "a budget of 5 overflows here");
        assertEquals(5, coloring.colourCount());
        int overflowStart = coloring.colourStart(coloring.colourCount());
        for (int r = overflowStart + 1; r < rows; r++) {
            assertTrue(coloring.order()[r] > coloring.order()[r - 1], "overflow rows in contact order");
        }
    }

    @Test
    void staticBodiesAndTheWorldDoNotConflict() {
        io.contactsolver.BodyBatch bodies = new io.contactsolver.BodyBatch();
        int ground = bodies.add(); // static
        int[] ids = new int[41];
        io.contactsolver.ContactBatch contacts = new io.contactsolver.ContactBatch();
        for (int i = 0; i < 40; i++) {
            int ball = bodies.add();
            bodies.setParticle(ball, 1.0f);
            contacts.add(ground, ball, 0, 0, 0, 0, 1, 0, 0);
            contacts.add(io.contactsolver.ContactBatch.WORLD, ball, 0, 0, 0, 0, 1, 0, 0);
        }
        Built built = color(new Scene(bodies, ids, contacts), 2);
        assertEquals(2, built.coloring().colourCount(), "each ball needs two colours, the ground none");
        assertEquals(0, built.coloring().overflowCount());
    }

    /**
     * Each movable body's rows, for the soft step's warm start body by body: a
     * {@link BodyContactIndex} over the colouring's slots lists every row's every movable side once
     * under its body, a body's rows in increasing row order (the order the colours and then the
     * overflow visit them), nothing for the world's and the static bodies' slot, on any number of
     * threads.
     */
    @Test
    void theIndexOverTheSlotsListsEachMovableBodysRowsInRowOrder() {
        Scene scene = SceneGenerator.randomGraph(3, 4000, 20_000);
        Built built = color(scene, 5);
        ContactColoring coloring = built.coloring();
        assertTrue(coloring.overflowCount() > 0, "a budget of 5 overflows here: its rows come last");
        int bodies = scene.bodies().size();
        int rows = coloring.rowCount();
        for (int threads : new int[] {1, 3}) {
            BodyContactIndex index = new BodyContactIndex();
            try (ParallelRunner runner = new ParallelRunner(threads)) {
                index.build(built.movable(), java.nio.IntBuffer.wrap(coloring.slots()), rows, rows, runner);
            }
            int[] start = index.offsets();
            int[] entries = index.entries();
            int[] listed = new int[2 * rows];
            java.util.Arrays.fill(listed, -1);
            assertEquals(0, start[0]);
            for (int body = 0; body < bodies; body++) {
                assertTrue(start[body] <= start[body + 1], "starts never go down");
                if (!built.movable().isMovable(body)) {
                    assertEquals(start[body], start[body + 1], "a body that does not move has no rows");
                }
                for (int k = start[body]; k < start[body + 1]; k++) {
                    int row = BodyContactIndex.contactOf(entries[k]);
                    int side = entries[k] - row * ContactBody.COUNT;
                    if (k > start[body]) {
                        assertTrue(row > BodyContactIndex.contactOf(entries[k - 1]),
                                "body " + body + "'s rows in increasing order, " + threads + " threads");
                    }
                    assertEquals(body, coloring.slots()[side * rows + row], "entry " + k + " names its body's side");
                    assertEquals(-1, listed[side * rows + row], "row " + row + " side " + side + " listed twice");
                    listed[side * rows + row] = body;
                }
            }
            for (int i = 0; i < 2 * rows; i++) {
                int slot = coloring.slots()[i];
                assertEquals(slot < bodies ? slot : -1, listed[i], "side " + i / rows + " of row " + i % rows);
            }
        }
    }

    /**
     * The rows are laid out in chunks on a team (each chunk places its contacts from cursors summed
     * chunk by chunk): the same rows, slots and colour boundaries as on one thread, over many chunks,
     * with overflow.
     */
    @Test
    void theRowsAreTheSameOnOneThreadAndOnFour() {
        Scene scene = SceneGenerator.randomGraph(4, 20_000, 150_000);
        for (int budget : new int[] {6, 64}) {
            ContactColoring one = color(scene, budget, 1).coloring();
            ContactColoring four = color(scene, budget, 4).coloring();
            int rows = one.rowCount();
            assertEquals(150_000, rows);
            assertEquals(one.colourCount(), four.colourCount());
            assertEquals(budget == 6, one.overflowCount() > 0, "a budget of 6 overflows, 64 does not");
            assertEquals(java.util.Arrays.toString(java.util.Arrays.copyOf(one.colourStarts(), one.colourCount() + 1)),
                    java.util.Arrays.toString(java.util.Arrays.copyOf(four.colourStarts(), four.colourCount() + 1)));
            assertTrue(java.util.Arrays.equals(one.order(), 0, rows, four.order(), 0, rows), "order");
            assertTrue(java.util.Arrays.equals(one.rowOf(), 0, rows, four.rowOf(), 0, rows), "rows");
            assertTrue(java.util.Arrays.equals(one.slots(), 0, 2 * rows, four.slots(), 0, 2 * rows), "slots");
        }
    }

    /**
     * A colouring of rows that join the same bodies, with the same flags and budget, is kept (no
     * new version, the same rows); a changed row's bodies, a body that stops moving, or another
     * budget give a new colouring, the same as a fresh one's.
     */
    @Test
    void theSameRowsKeepTheirColouringAndAChangeColoursAfresh() {
        Scene scene = SceneGenerator.randomGraph(2, 2000, 12_000);
        FieldBlock bodies = bodyBlock(scene);
        int count = scene.contacts().size();
        FieldBlock links = linkBlock(scene);
        MovableBodies movable = new MovableBodies();
        ContactColoring coloring = new ContactColoring();
        try (ParallelRunner runner = new ParallelRunner(2)) {
            movable.classify(bodies, scene.bodies().size(), runner);
            coloring.build(links, count, movable, 32, runner);
            long first = coloring.version();
            int[] rows = java.util.Arrays.copyOf(coloring.order(), count);
            movable.classify(bodies, scene.bodies().size(), runner);
            coloring.build(links, count, movable, 32, runner);
            assertEquals(first, coloring.version(), "the same rows and flags: kept");
            assertTrue(java.util.Arrays.equals(rows, 0, count, coloring.order(), 0, count));

            // one row's body b changed: coloured again, as a fresh colouring of the same rows
            int other = links.getInt(ContactBody.B.ordinal(), 5) == 0 ? 1 : 0;
            links.setInt(ContactBody.B.ordinal(), 5, other);
            coloring.build(links, count, movable, 32, runner);
            assertEquals(first + 1, coloring.version(), "a row changed: coloured again");
            assertSameAsFresh(coloring, links, count, movable, 32, runner);

            // a body made static (inverse mass and inertia 0): the flags changed
            int body = links.getInt(ContactBody.A.ordinal(), 7);
            for (BodyField field : new BodyField[] {BodyField.INV_MASS, BodyField.INV_IXX, BodyField.INV_IYY,
                BodyField.INV_IZZ, BodyField.INV_IXY, BodyField.INV_IXZ, BodyField.INV_IYZ}) {
                bodies.setFloat(field.ordinal(), body, 0.0f);
            }
            movable.classify(bodies, scene.bodies().size(), runner);
            coloring.build(links, count, movable, 32, runner);
            assertEquals(first + 2, coloring.version(), "a flag changed: coloured again");
            assertSameAsFresh(coloring, links, count, movable, 32, runner);

            coloring.build(links, count, movable, 16, runner);
            assertEquals(first + 3, coloring.version(), "another budget: coloured again");
            assertSameAsFresh(coloring, links, count, movable, 16, runner);
        }
    }

    /**
     * The soft step's manifolds are coloured by their grouping's pairs: kept while the pairs are at
     * the version last coloured (no read of them), coloured afresh, as a fresh colouring, when
     * they change.
     */
    @Test
    void theManifoldsKeepTheirColouringWhileTheirPairsStayAtTheirVersion() {
        Scene scene = SceneGenerator.randomGraph(5, 2000, 12_000);
        FieldBlock bodies = bodyBlock(scene);
        int count = scene.contacts().size();
        FieldBlock links = linkBlock(scene);
        int[] alone = new int[count];
        java.util.Arrays.fill(alone, ManifoldGrouping.NONE);
        FieldBlock contacts = new FieldBlock(io.contactsolver.layout.ContactField.COUNT, count);
        MovableBodies movable = new MovableBodies();
        ManifoldGrouping manifolds = new ManifoldGrouping();
        ContactColoring coloring = new ContactColoring();
        try (ParallelRunner runner = new ParallelRunner(2)) {
            movable.classify(bodies, scene.bodies().size(), runner);
            manifolds.build(alone, contacts, links, count, runner);
            manifolds.layPairs(links, runner);
            coloring.colour(manifolds, movable, 32);
            coloring.lay(runner);
            long first = coloring.version();
            assertSameAsFresh(coloring, links, count, movable, 32, runner);

            manifolds.build(alone, contacts, links, count, runner);
            manifolds.layPairs(links, runner);
            coloring.colour(manifolds, movable, 32);
            coloring.lay(runner);
            assertEquals(first, coloring.version(), "the same pairs: kept");

            int other = links.getInt(ContactBody.B.ordinal(), 9) == 0 ? 1 : 0;
            links.setInt(ContactBody.B.ordinal(), 9, other);
            manifolds.build(alone, contacts, links, count, runner);
            manifolds.layPairs(links, runner);
            coloring.colour(manifolds, movable, 32);
            coloring.lay(runner);
            assertEquals(first + 1, coloring.version(), "a pair changed: coloured again");
            assertSameAsFresh(coloring, links, count, movable, 32, runner);

            // a new build whose pairs are not laid yet cannot be coloured by them
            manifolds.build(alone, contacts, links, count, runner);
            assertThrows(IllegalStateException.class, () -> coloring.colour(manifolds, movable, 32));
            manifolds.layPairs(links, runner);

            // coloured from links in between: the grouping's next colouring is made afresh
            coloring.build(links, count, movable, 32, runner);
            coloring.colour(manifolds, movable, 32);
            coloring.lay(runner);
            assertEquals(first + 3, coloring.version(), "the last colouring was another's: made again");
            assertSameAsFresh(coloring, links, count, movable, 32, runner);
        }
    }

    private static void assertSameAsFresh(ContactColoring coloring, FieldBlock links, int count, MovableBodies movable,
            int budget, ParallelRunner runner) {
        ContactColoring fresh = new ContactColoring();
        fresh.build(links, count, movable, budget, runner);
        assertEquals(fresh.colourCount(), coloring.colourCount());
        assertTrue(java.util.Arrays.equals(fresh.order(), 0, count, coloring.order(), 0, count), "order");
        assertTrue(java.util.Arrays.equals(fresh.slots(), 0, 2 * count, coloring.slots(), 0, 2 * count), "slots");
        assertTrue(java.util.Arrays.equals(fresh.colourStarts(), coloring.colourStarts()), "colour starts");
    }

    @Test
    void layingOutNeedsAColouring() {
        assertThrows(IllegalStateException.class, () -> {
            try (ParallelRunner runner = new ParallelRunner(1)) {
                new ContactColoring().lay(runner);
            }
        });
    }

    @Test
    void theBudgetIsChecked() {
        Scene scene = SceneGenerator.randomGraph(3, 10, 10);
        assertThrows(IllegalArgumentException.class, () -> color(scene, 0));
        assertThrows(IllegalArgumentException.class, () -> color(scene, 65));
        assertEquals(0, color(scene, 64).coloring().overflowCount());
    }
}
