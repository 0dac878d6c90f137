package io.contactsolver.core;

import io.contactsolver.layout.ImpulseField;
import java.nio.FloatBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Matches the previous step's impulses to this step's contacts by contact id. Persistent contacts
 * (the common case in a simulation) start from their last impulses, all {@link ImpulseField}s: the
 * normal impulse and the friction and rolling vectors in world space (the solver projects those onto
 * the contact's current tangent plane, so a normal that has turned keeps only what still lies in
 * the plane); new contacts start from zero.
 */
public final class WarmStart {
    /**
     * Ids spread over at most this many times their count (plus {@link #DIRECT_SLACK}) are looked
     * up in a table indexed by id, as dense ids ({@code ContactIds} hands out such) allow; wider
     * ones are hashed.
     */
    private static final long DIRECT_SPREAD = 4;
    private static final long DIRECT_SLACK = 1 << 12;

    /** Id to contact index of the ids in {@link #checkedIds}. */
    private IdIndex current = new IdIndex();
    /**
     * The last ids found unique, {@code checkedCount} of them, or none ({@code -1}); while a
     * simulation's contacts persist they come back unchanged, and the map above still serves them.
     */
    private int[] checkedIds = new int[0];
    private int checkedCount = -1;
    /**
     * The stamp of the ids last found unique, where the caller gave one ({@code ContactBatch}'s
     * ids stamp), else -1: ids with that stamp are those ids, known without comparing them.
     */
    private long checkedStamp = -1;
    private float[] impulses = new float[0];
    /** The current contact of each previous one, or -1. */
    private int[] matchOf = new int[0];
    /** The previous contact of each current one, or -1: what the last {@link #match} found. */
    private int[] previousOf = new int[0];
    /** {@code claimGeneration} at a current contact a previous one has matched in this call. */
    private int[] claim = new int[0];
    private int claimGeneration;
    /**
     * The index of the ids checked before the current ones ({@link #matchIdsLazily}), kept when
     * those were a warm start's ids: its id to contact index is the previous contact of an id.
     */
    private IdIndex previous = new IdIndex();
    /** How {@link #previousOf(int, int[])} answers after {@link #matchIdsLazily}: one of the three below. */
    private int lookup = BY_ARRAY;
    private long idsVersion;
    /** Ids versions are drawn from one counter for every instance: no two checks share a version. */
    private static final AtomicLong VERSIONS = new AtomicLong();
    private static final int BY_ARRAY = 0;
    private static final int SAME_ORDER = 1;
    private static final int BY_PREVIOUS_INDEX = 2;

    /**
     * The starting impulses of every current contact.
     *
     * <p>Two shortcuts give the same impulses as matching every id, in a fraction of the time: ids
     * equal to the last ones found unique are not hashed again, and when the previous step's
     * contacts come in the same order as this step's (a collision pass that keeps its contacts'
     * order while they last), each impulse field is copied whole.
     *
     * @param ids current contact ids, {@code count} of them; they must be unique
     * @param previousIds ids of the previous step's contacts
     * @param previous their impulses, same order, {@link ImpulseField} layout with stride
     *     {@code previousStride}
     * @return {@code ImpulseField.COUNT * count} impulses, field {@code f} of contact {@code c} at
     *     {@code f * count + c} (reused between calls)
     * @throws InputFault if two current contacts share an id
     * @throws IllegalArgumentException if two previous contacts share an id that a current contact has
     */
    public float[] match(int[] ids, int count, int[] previousIds, FloatBuffer previous, int previousStride,
            int previousCount) {
        boolean sameOrder = matchIds(ids, count, -1, previousIds, previousCount, null);
        int length = ImpulseField.COUNT * count;
        if (impulses.length < length) {
            impulses = new float[length];
        }
        if (sameOrder) {
            for (int f = 0; f < ImpulseField.COUNT; f++) {
                previous.get(f * previousStride, impulses, f * count, count);
            }
            return impulses;
        }
        Arrays.fill(impulses, 0, length, 0.0f);
        // a field at a time: each pass reads one field's column in order
        for (int f = 0; f < ImpulseField.COUNT; f++) {
            int from = f * previousStride;
            int to = f * count;
            for (int p = 0; p < previousCount; p++) {
                int c = matchOf[p];
                if (c >= 0) {
                    impulses[to + c] = previous.get(from + p);
                }
            }
        }
        return impulses;
    }

    /**
     * Matches the current contacts to the previous ones by id, for {@link #match} and
     * {@link #matchIdsLazily}: the arrays {@code previousOf} and {@code matchOf} then tell each contact's
     * match. The current ids carry {@code stamp} (-1: none; see {@link #requireUniqueIds(int[], int,
     * long, ParallelRunner)}).
     *
     * @return whether the previous ids are the current ones in the same order (each contact its own
     *     previous one)
     * @throws InputFault if two current contacts share an id, or two previous contacts do
     */
    private boolean matchIds(int[] ids, int count, long stamp, int[] previousIds, int previousCount,
            ParallelRunner runner) {
        requireUniqueIds(ids, count, stamp, runner);
        if (previousOf.length < count) {
            previousOf = new int[Math.max(count, previousOf.length + (previousOf.length >> 1))];
        }
        if (previousCount == count && same(previousIds, ids, count, runner)) {
            for (int c = 0; c < count; c++) {
                previousOf[c] = c;
            }
            return true;
        }
        Arrays.fill(previousOf, 0, count, -1);
        if (matchOf.length < previousCount) {
            matchOf = new int[previousCount];
        }
        int generation = nextClaim(count);
        for (int p = 0; p < previousCount; p++) {
            int c = current.contactOf(previousIds[p]);
            if (c >= 0) {
                if (claim[c] == generation) {
                    throw repeatedPrevious(previousIds, p);
                }
                claim[c] = generation;
                previousOf[c] = p;
            }
            matchOf[p] = c;
        }
        return false;
    }

    /**
     * {@link #matchIds} for a solver that reads the previous contacts of only a few current ones
     * (the soft step's manifolds taken fresh), which it then asks {@link #previousOf(int, int[])}
     * for. When the previous ids are the ones the last call found unique (a step's warm start is
     * the last step's result), they cannot repeat, and their index, kept rather than rebuilt for
     * the current ids, answers those few: the pass matching every previous id is skipped. Other
     * previous ids are matched as {@link #matchIds} does, with its faults.
     *
     * @throws InputFault if two current contacts share an id, or two previous contacts do
     */
    public void matchIdsLazily(int[] ids, int count, int[] previousIds, int previousCount) {
        matchIdsLazily(ids, count, -1, previousIds, previousCount, -1, null);
    }

    /**
     * As {@link #matchIdsLazily(int[], int, int[], int)}, where the current ids carry {@code stamp}
     * (-1: none): ids whose stamp is that of the ids last found unique are not compared with them
     * again. The previous ids are known to be the ones checked at {@code previousVersion}
     * ({@link #idsVersion}; -1 where unknown): at the current version they are not compared again.
     * The compares are shared among {@code runner}'s threads (null: this one).
     */
    public void matchIdsLazily(int[] ids, int count, long stamp, int[] previousIds, int previousCount,
            long previousVersion, ParallelRunner runner) {
        boolean previousChecked = previousCount == checkedCount && (previousVersion == idsVersion
                || same(previousIds, checkedIds, previousCount, runner));
        if (!previousChecked) {
            lookup = BY_ARRAY;
            if (matchIds(ids, count, stamp, previousIds, previousCount, runner)) {
                lookup = SAME_ORDER;
            }
            return;
        }
        if (sameAsChecked(ids, count, stamp, runner)) {
            lookup = SAME_ORDER; // the same ids as last time: unique, each contact its own previous one
            return;
        }
        lookup = BY_ARRAY; // until the current ids are indexed (a repeated one throws)
        keepIndexAsPrevious();
        indexUniqueIds(ids, count);
        checkedStamp = stamp;
        lookup = BY_PREVIOUS_INDEX;
    }

    /**
     * Whether {@code ids} are the ids last found unique: known from their stamp where it is theirs
     * (not -1), else compared; a compare that finds them equal records the stamp.
     */
    private boolean sameAsChecked(int[] ids, int count, long stamp, ParallelRunner runner) {
        if (count != checkedCount) {
            return false;
        }
        if (stamp != -1 && stamp == checkedStamp) {
            return true;
        }
        if (same(ids, checkedIds, count, runner)) {
            checkedStamp = stamp;
            return true;
        }
        return false;
    }

    /** Swaps the current ids' index into the previous one's place; the current one is rebuilt next. */
    private void keepIndexAsPrevious() {
        IdIndex kept = previous;
        previous = current;
        current = kept;
    }

    /**
     * Current contact {@code c}'s previous contact (the same id), or -1, after
     * {@link #matchIdsLazily} for {@code ids}.
     */
    public int previousOf(int c, int[] ids) {
        if (lookup == SAME_ORDER) {
            return c;
        }
        if (lookup == BY_ARRAY) {
            return previousOf[c];
        }
        return previous.contactOf(ids[c]);
    }

    /** Whether, after {@link #matchIdsLazily}, each current contact's previous contact is its own index (the same ids in the same order). */
    public boolean previousInSameOrder() {
        return lookup == SAME_ORDER;
    }

    /** {@link #previousOf(int, int[])} of contacts {@code [from, to)} into {@code dest}, after {@link #matchIdsLazily} for {@code ids}. */
    public void previousOf(int[] ids, int from, int to, int[] dest) {
        for (int c = from; c < to; c++) {
            dest[c] = previousOf(c, ids);
        }
    }

    /**
     * Refuses two current contacts with the same id: the check every solve that matches by id
     * makes, warm or cold, since a cold solve's result is the next one's warm start. Ids equal to
     * the last ones found unique are not checked again; nothing is allocated once the tables have
     * grown to the batch.
     *
     * @param ids current contact ids, {@code count} of them
     * @throws InputFault naming the later of the first two contacts found to share an id
     */
    public void requireUniqueIds(int[] ids, int count) {
        requireUniqueIds(ids, count, -1, null);
    }

    /**
     * As {@link #requireUniqueIds(int[], int)}, the ids with their stamp (-1: none; ids whose stamp
     * is that of the ids last found unique are not compared again), the compare with the last ids
     * shared among {@code runner}'s threads (null: this one).
     */
    public void requireUniqueIds(int[] ids, int count, long stamp, ParallelRunner runner) {
        if (!sameAsChecked(ids, count, stamp, runner)) {
            indexUniqueIds(ids, count);
            checkedStamp = stamp;
        }
    }

    /** Whether the first {@code count} of {@code a} and {@code b} are equal, compared on {@code runner} where given. */
    private static boolean same(int[] a, int[] b, int count, ParallelRunner runner) {
        return runner == null ? Arrays.equals(a, 0, count, b, 0, count) : runner.sameInts(a, b, count);
    }

    /**
     * Moves whenever {@link #requireUniqueIds} checks other ids than it last found unique: two checks
     * at the same version were of the same ids, in the same order. Unique across instances.
     */
    public long idsVersion() {
        return idsVersion;
    }

    /** Maps every id to its contact, refusing a repeated one, and keeps the ids as found unique. */
    private void indexUniqueIds(int[] ids, int count) {
        checkedCount = -1;
        checkedStamp = -1; // until the caller, the ids found unique, says whose they are
        idsVersion = VERSIONS.incrementAndGet();
        if (checkedIds.length < count) {
            checkedIds = new int[count];
        }
        // the ids copied as checked in the pass that finds their range (checkedCount marks them only once indexed)
        int[] kept = checkedIds;
        int lowest = Integer.MAX_VALUE;
        int highest = Integer.MIN_VALUE;
        for (int c = 0; c < count; c++) {
            int id = ids[c];
            kept[c] = id;
            lowest = Math.min(lowest, id);
            highest = Math.max(highest, id);
        }
        long span = (long) highest - lowest + 1;
        IdIndex index = current;
        index.dense = count > 0 && span <= DIRECT_SPREAD * count + DIRECT_SLACK;
        if (index.dense) {
            index.lowest = lowest;
            index.highest = highest;
            if (index.table.length < span) {
                index.table = new int[(int) span];
            } else {
                Arrays.fill(index.table, 0, (int) span, 0);
            }
            int[] table = index.table;
            for (int c = 0; c < count; c++) {
                int slot = ids[c] - lowest;
                if (table[slot] != 0) {
                    throw duplicate(ids, c, table[slot] - 1);
                }
                table[slot] = c + 1;
            }
        } else {
            index.hashed.clear();
            for (int c = 0; c < count; c++) {
                int earlier = index.hashed.putIfAbsent(ids[c], c);
                if (earlier >= 0) {
                    throw duplicate(ids, c, earlier);
                }
            }
        }
        checkedCount = count;
    }

    /** A fresh mark for {@link #claim}, which is made to hold {@code count} contacts. */
    private int nextClaim(int count) {
        if (claim.length < count) {
            claim = new int[count];
            claimGeneration = 0;
        }
        if (++claimGeneration == 0) { // wrapped: old marks could match again
            Arrays.fill(claim, 0);
            claimGeneration = 1;
        }
        return claimGeneration;
    }

    /**
     * The previous result has two contacts with one id (a single-pass result: only the solves that
     * match by id check them): which impulse goes to the current contact cannot be told.
     */
    private static IllegalArgumentException repeatedPrevious(int[] previousIds, int p) {
        int earlier = 0;
        while (previousIds[earlier] != previousIds[p]) {
            earlier++;
        }
        return new IllegalArgumentException("warmStart: its contacts " + earlier + " and " + p + " share id "
                + previousIds[p] + ", so their impulses cannot be told apart (the single pass does not check ids; "
                + "a warm start needs distinct ones)");
    }

    private static InputFault duplicate(int[] ids, int c, int earlier) {
        return InputFault.contact(c, List.of("id"),
                "duplicate contact id " + ids[c] + " (also contact " + earlier + "); warm starting matches by id");
    }

    /**
     * Id to contact index of one set of unique ids: a table indexed by id when they are dense
     * (contact index + 1 of id {@code lowest + k} at {@code k}, 0 for none), else hashed.
     */
    private static final class IdIndex {
        private final IntIndexMap hashed = new IntIndexMap(16);
        private int[] table = new int[0];
        private boolean dense;
        private int lowest;
        private int highest;

        /** The contact with id {@code id}, or -1. */
        int contactOf(int id) {
            if (!dense) {
                return hashed.get(id);
            }
            return id >= lowest && id <= highest ? table[id - lowest] - 1 : -1;
        }
    }
}
