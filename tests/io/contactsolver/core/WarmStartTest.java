package io.contactsolver.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.contactsolver.layout.ImpulseField;
import java.nio.FloatBuffer;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Warm starting by id: every current contact starts from the previous impulses of the contact with
 * its id, or zero; repeated ids are refused. The shortcuts (ids seen before, the same order as
 * the previous step) must give what matching id by id gives.
 */
class WarmStartTest {
    private static final int FIELDS = ImpulseField.COUNT;

    /** What matching id by id gives, written out plainly. */
    private static float[] expected(int[] ids, int count, int[] previousIds, float[] previous, int previousCount) {
        float[] out = new float[FIELDS * count];
        for (int c = 0; c < count; c++) {
            for (int p = 0; p < previousCount; p++) {
                if (previousIds[p] == ids[c]) {
                    for (int f = 0; f < FIELDS; f++) {
                        out[f * count + c] = previous[f * previousCount + p];
                    }
                }
            }
        }
        return out;
    }

    /**
     * Distinct ids, spread thin (hashed) or dense ({@code ContactIds}' kind, which index a
     * table), starting below zero either way.
     */
    private static int[] distinctIds(SplittableRandom random, int count, boolean dense) {
        int spread = dense ? 2 * count : 1_000_000;
        return random.ints(-spread / 2, spread / 2).distinct().limit(count).toArray();
    }

    private static float[] impulses(SplittableRandom random, int count) {
        float[] values = new float[FIELDS * count];
        for (int i = 0; i < values.length; i++) {
            values[i] = (float) random.nextDouble(-5.0, 5.0);
        }
        return values;
    }

    private static float[] match(WarmStart warm, int[] ids, int[] previousIds, float[] previous) {
        float[] result = warm.match(ids, ids.length, previousIds, FloatBuffer.wrap(previous), previousIds.length,
                previousIds.length);
        return Arrays.copyOf(result, FIELDS * ids.length);
    }

    private static int[] reversed(int[] ids) {
        int[] out = new int[ids.length];
        for (int i = 0; i < ids.length; i++) {
            out[i] = ids[ids.length - 1 - i];
        }
        return out;
    }

    @ParameterizedTest(name = "dense ids: {0}")
    @ValueSource(booleans = {false, true})
    void contactsInThePreviousOrderGetTheirOwnImpulsesEveryField(boolean dense) {
        SplittableRandom random = new SplittableRandom(5);
        int[] ids = distinctIds(random, 3_000, dense);
        float[] previous = impulses(random, ids.length);
        WarmStart warm = new WarmStart();
        for (int step = 0; step < 3; step++) { // first hashed, then recognised as the same ids
            assertArrayEquals(expected(ids, ids.length, ids, previous, ids.length), match(warm, ids, ids, previous));
        }
    }

    @ParameterizedTest(name = "dense ids: {0}")
    @ValueSource(booleans = {false, true})
    void aReorderedOrChangedContactSetIsMatchedIdByIdAndNewContactsStartAtZero(boolean dense) {
        SplittableRandom random = new SplittableRandom(6);
        int[] ids = distinctIds(random, 2_000, dense);
        float[] previous = impulses(random, ids.length);
        WarmStart warm = new WarmStart();
        match(warm, ids, ids, previous);
        int[] backwards = reversed(ids);
        assertArrayEquals(expected(backwards, ids.length, ids, previous, ids.length),
                match(warm, backwards, ids, previous));
        int[] someNew = ids.clone();
        someNew[7] = 2_000_001; // far outside a dense table's range: the next ids are hashed
        someNew[1_500] = 2_000_002;
        float[] got = match(warm, someNew, ids, previous);
        assertArrayEquals(expected(someNew, ids.length, ids, previous, ids.length), got);
        assertEquals(0.0f, got[7]);
        // the same ids again, now with a previous step in another order
        assertArrayEquals(expected(ids, ids.length, backwards, reverseFields(previous, ids.length), ids.length),
                match(warm, ids, backwards, reverseFields(previous, ids.length)));
    }

    @ParameterizedTest(name = "dense ids: {0}")
    @ValueSource(booleans = {false, true})
    void aRepeatedIdIsRefusedRightAfterTheSameIdsWithoutItAndEveryTimeAfter(boolean dense) {
        SplittableRandom random = new SplittableRandom(7);
        int[] ids = distinctIds(random, 500, dense);
        float[] previous = impulses(random, ids.length);
        WarmStart warm = new WarmStart();
        match(warm, ids, ids, previous);
        int[] repeated = ids.clone();
        repeated[400] = ids[12];
        for (int attempt = 0; attempt < 2; attempt++) {
            InputFault fault = assertThrows(InputFault.class, () -> match(warm, repeated, ids, previous));
            assertEquals(400, fault.index());
            assertTrue(fault.problem().contains("duplicate contact id " + ids[12] + " (also contact 12)"),
                    fault.problem());
        }
        assertArrayEquals(expected(ids, ids.length, ids, previous, ids.length), match(warm, ids, ids, previous));
    }

    /**
     * The check runs on every solve that matches by id, warm or cold, so it must cost no garbage:
     * once its tables have grown, ids that change every call (not the shortcut of ids seen before)
     * are checked, and matched, without allocating.
     */
    @ParameterizedTest(name = "dense ids: {0}")
    @ValueSource(booleans = {false, true})
    void checkingAndMatchingIdsAllocatesNothingOnceWarm(boolean dense) {
        SplittableRandom random = new SplittableRandom(3);
        int[][] idSets = {distinctIds(random, 5000, dense), distinctIds(random, 5000, dense)};
        FloatBuffer previous = FloatBuffer.wrap(impulses(random, 5000));
        WarmStart warm = new WarmStart();
        for (int call = 0; call < 4; call++) { // grow the tables
            warm.requireUniqueIds(idSets[call & 1], 5000);
            warm.match(idSets[call & 1], 5000, idSets[(call + 1) & 1], previous, 5000, 5000);
        }
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        long before = threads.getCurrentThreadAllocatedBytes();
        for (int call = 0; call < 100; call++) {
            warm.requireUniqueIds(idSets[call & 1], 5000);
            warm.match(idSets[call & 1], 5000, idSets[(call + 1) & 1], previous, 5000, 5000);
        }
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        assertTrue(allocated < 4096, allocated + " bytes allocated in 200 calls");
    }

    /**
     * The soft step's lazy matching: each contact's previous one, asked contact by contact, is the
     * one with its id, whether the warm start is the last step's (its ids the last checked, whose
     * index is kept; known so by their version, or compared), the same ids again, or another
     * result's (matched in full).
     */
    @ParameterizedTest(name = "dense ids: {0}")
    @ValueSource(booleans = {false, true})
    void lazyMatchingFindsEachContactsPreviousOneById(boolean dense) {
        SplittableRandom random = new SplittableRandom(11);
        WarmStart warm = new WarmStart();
        int[] previousIds = distinctIds(random, 300, dense);
        warm.requireUniqueIds(previousIds, previousIds.length);
        long checked = warm.idsVersion();
        for (int step = 0; step < 12; step++) {
            int[] ids;
            if (step % 4 == 1) {
                ids = previousIds.clone(); // the same ids again
            } else {
                // some persist (reordered), the rest new
                int[] fresh = distinctIds(random, 300, dense);
                ids = new int[300];
                for (int c = 0; c < ids.length; c++) {
                    ids[c] = c % 3 == 0 ? fresh[c] : previousIds[(c * 7) % previousIds.length];
                }
                ids = Arrays.stream(ids).distinct().toArray();
            }
            int[] warmIds = step % 4 == 3 ? distinctIds(random, 200, dense) : previousIds; // another result's
            // the last step's ids are known checked at the version they were checked at (stale every
            // fourth step, when they are compared instead); another result's are not known
            long known = step % 4 == 3 ? -1 : step % 4 == 2 ? checked - 1 : checked;
            warm.matchIdsLazily(ids, ids.length, -1, warmIds, warmIds.length, known, null); // no ids stamp
            checked = warm.idsVersion();
            for (int c = 0; c < ids.length; c++) {
                int expected = -1;
                for (int p = 0; p < warmIds.length; p++) {
                    if (warmIds[p] == ids[c]) {
                        expected = p;
                    }
                }
                assertEquals(expected, warm.previousOf(c, ids), "step " + step + ", contact " + c);
            }
            previousIds = ids;
        }
    }

    /** A previous step with a repeated id (a single pass's, which checks none) cannot be matched. */
    @Test
    void aPreviousStepWithARepeatedIdIsRefusedNamingBothContacts() {
        int[] previousIds = {4, 5, 6, 5};
        float[] previous = new float[FIELDS * previousIds.length];
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> match(new WarmStart(), new int[] {5, 6}, previousIds, previous));
        assertTrue(refused.getMessage().startsWith("warmStart: its contacts 1 and 3 share id 5,"),
                refused.getMessage());
        assertArrayEquals(new float[FIELDS * 2], match(new WarmStart(), new int[] {7, 8}, previousIds, previous),
                "a repeated id no current contact has matches nothing: nothing to tell apart");
    }

    /** The impulses of a previous step listed backwards, field by field. */
    private static float[] reverseFields(float[] values, int count) {
        float[] out = new float[values.length];
        for (int f = 0; f < FIELDS; f++) {
            for (int p = 0; p < count; p++) {
                out[f * count + p] = values[f * count + count - 1 - p];
            }
        }
        return out;
    }
}
