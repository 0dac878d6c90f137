package io.contactsolver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Contact ids: unique within a step, kept while a contact persists, never handed to two live contacts. */
class ContactIdsTest {

    @Test
    void distinctBodiesAndFeaturesGiveDistinctKeysTheWorldIncluded() {
        Set<Long> keys = new HashSet<>();
        int[] bodies = {ContactBatch.WORLD, 0, 1, 2, 255, 256, 1023, 1024, 70_000, ContactIds.MAX_BODY - 1,
                ContactIds.MAX_BODY};
        int[] features = {0, 1, 7, 255, 256, ContactIds.MAX_FEATURE};
        for (int a : bodies) {
            for (int b : bodies) {
                for (int feature : features) {
                    assertTrue(keys.add(ContactIds.key(a, b, feature)), a + ", " + b + ", " + feature);
                }
            }
        }
        assertEquals(bodies.length * bodies.length * features.length, keys.size());
        assertNotEquals(ContactIds.key(0, 1, 0), ContactIds.key(1, 0, 0), "the order of the bodies counts");
        assertTrue(ContactIds.MAX_BODY >= BodyBatch.MAX_SIZE - 1, "every body of a batch has a key");
        assertEquals(1023, ContactIds.MAX_FEATURE);
    }

    @Test
    void keysRefuseArgumentsOutOfRangeNamingThem() {
        assertMessageNames("feature", () -> ContactIds.key(0, 1, -1));
        assertMessageNames("feature", () -> ContactIds.key(0, 1, ContactIds.MAX_FEATURE + 1));
        assertMessageNames("bodyA", () -> ContactIds.key(-2, 1, 0));
        assertMessageNames("bodyA", () -> ContactIds.key(ContactIds.MAX_BODY + 1, 1, 0));
        assertMessageNames("bodyB", () -> ContactIds.key(0, -2, 0));
        assertMessageNames("bodyB", () -> ContactIds.key(0, Integer.MAX_VALUE, 0));
    }

    private static void assertMessageNames(String argument, Runnable call) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call::run);
        assertTrue(e.getMessage().startsWith(argument + " "), e.getMessage());
    }

    @Test
    void idsAreAskedForOnlyWithinAStep() {
        ContactIds ids = new ContactIds();
        assertThrows(IllegalStateException.class, () -> ids.idOf(1L));
        assertThrows(IllegalStateException.class, ids::endStep);
        ids.beginStep();
        assertThrows(IllegalStateException.class, ids::beginStep);
        assertEquals(0, ids.idOf(0L), "key 0 is a key like any other");
        ids.endStep();
        assertThrows(IllegalStateException.class, () -> ids.idOf(0L));
    }

    /**
     * Many steps of a churning contact set (most contacts persist, some end, some begin, ending and
     * beginning again), checked against a plain map: ids are unique within each step, a contact that
     * persists keeps its id, and a new contact never gets an id that a contact of the previous step
     * had (a warm start would hand it that contact's impulse).
     */
    @Test
    void idsAreUniquePerStepStableWhilePersistingAndNeverReusedTooSoon() {
        SplittableRandom random = new SplittableRandom(3);
        ContactIds ids = new ContactIds();
        Map<Long, Integer> previous = new HashMap<>();
        Set<Long> alive = new LinkedHashSet<>();
        int largestId = 0;
        for (int step = 0; step < 300; step++) {
            // grow to about 6000 contacts, then churn about 10% per step; features few and many a pair,
            // so that a pair's keys crowd its group of slots and spill past it
            alive.removeIf(key -> random.nextInt(10) == 0);
            int target = Math.min(6000, 200 + step * 60);
            while (alive.size() < target) {
                int a = random.nextInt(3000);
                alive.add(random.nextInt(8) == 0 ? ContactIds.key(ContactBatch.WORLD, a, random.nextInt(8))
                        : ContactIds.key(a, a + 1 + random.nextInt(50),
                                random.nextInt(random.nextBoolean() ? 4 : 720)));
            }
            ids.beginStep();
            Set<Integer> previousIds = new HashSet<>(previous.values());
            Map<Long, Integer> current = new HashMap<>();
            Set<Integer> used = new HashSet<>();
            for (long key : alive) {
                int id = ids.idOf(key);
                assertTrue(id >= 0);
                assertTrue(used.add(id), "step " + step + ": id " + id + " given twice");
                Integer before = previous.get(key);
                if (before != null) {
                    assertEquals(before, id, "step " + step + ": a persisting contact keeps its id");
                } else {
                    assertTrue(!previousIds.contains(id), "step " + step + ": new contact got a live id " + id);
                }
                current.put(key, id);
                largestId = Math.max(largestId, id);
            }
            ids.endStep();
            assertEquals(alive.size(), ids.size(), "stale contacts are forgotten");
            previous = current;
        }
        assertTrue(largestId < 2 * 6000, "ids are recycled: largest " + largestId);
    }

    /** A contact of two bodies, and one of a body with the world. */
    private static final long PAIR = ContactIds.key(4, 9, 2);
    private static final long WALL = ContactIds.key(ContactBatch.WORLD, 4, 0);

    @Test
    void aContactBackAfterAGapIsNewToTheStepBefore() {
        ContactIds ids = new ContactIds();
        long returning = PAIR;
        long staying = WALL;
        ids.beginStep();
        ids.idOf(returning);
        int stayingId = ids.idOf(staying);
        ids.endStep();
        ids.beginStep(); // the pair is apart for a step: its id is freed at the end of it
        assertEquals(stayingId, ids.idOf(staying));
        ids.endStep();
        assertEquals(1, ids.size());
        ids.beginStep();
        int again = ids.idOf(returning);
        assertEquals(stayingId, ids.idOf(staying));
        ids.endStep();
        assertNotEquals(stayingId, again, "never the id of a contact of the step before");
    }

    /**
     * A broad phase that reports a pair twice is caught where it happens: the second request for a
     * key in one step is refused, naming the key, its bodies and feature and its id, and the step
     * goes on as if it had not been made. The next step may ask for the key again, once.
     */
    @Test
    void askingTwiceInAStepIsRefusedNamingTheKey() {
        ContactIds ids = new ContactIds();
        ids.beginStep();
        int first = ids.idOf(PAIR);
        int wallId = ids.idOf(WALL);
        IllegalArgumentException twice = assertThrows(IllegalArgumentException.class, () -> ids.idOf(PAIR));
        assertEquals("idOf: key " + PAIR + " (bodies 4 and 9, feature 2) was already asked for in this step, as id "
                + first + ": each contact's key once a step (was a pair reported twice?)", twice.getMessage());
        IllegalArgumentException world = assertThrows(IllegalArgumentException.class, () -> ids.idOf(WALL));
        assertTrue(world.getMessage().contains("(bodies -1 and 4, feature 0)"), world.getMessage());
        ids.endStep();
        assertEquals(2, ids.size(), "the refused requests added nothing");
        ids.beginStep();
        assertEquals(first, ids.idOf(PAIR), "still the pair's id a step later");
        assertEquals(wallId, ids.idOf(WALL));
        ids.endStep();
    }
}
