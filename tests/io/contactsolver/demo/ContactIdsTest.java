package io.contactsolver.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
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
    void keysOfPairsAndWallsNeverCollide() {
        Set<Long> keys = new HashSet<>();
        for (int a = 0; a < 40; a++) {
            for (int b = a + 1; b < 40; b++) {
                assertTrue(keys.add(ContactIds.pairKey(a, b)));
            }
            for (Wall wall : Wall.values()) {
                assertTrue(keys.add(ContactIds.wallKey(a, wall)));
            }
        }
        assertNotEquals(ContactIds.pairKey(1, Integer.MAX_VALUE), ContactIds.wallKey(1, Wall.FLOOR));
        assertNotEquals(ContactIds.pairKey(0, 1), ContactIds.pairKey(1, 0));
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
            // grow to about 6000 contacts, then churn about 10% per step
            alive.removeIf(key -> random.nextInt(10) == 0);
            int target = Math.min(6000, 200 + step * 60);
            while (alive.size() < target) {
                int a = random.nextInt(3000);
                alive.add(random.nextInt(8) == 0 ? ContactIds.wallKey(a, Wall.values()[random.nextInt(6)])
                        : ContactIds.pairKey(a, a + 1 + random.nextInt(50)));
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

    @Test
    void askingTwiceInAStepGivesTheSameIdAndAContactBackAfterAGapIsNewToTheStepBefore() {
        ContactIds ids = new ContactIds();
        long returning = ContactIds.pairKey(4, 9);
        long staying = ContactIds.wallKey(4, Wall.FLOOR);
        ids.beginStep();
        int first = ids.idOf(returning);
        assertEquals(first, ids.idOf(returning));
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
}
