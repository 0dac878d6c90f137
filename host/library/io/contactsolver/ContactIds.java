package io.contactsolver;

import java.util.Arrays;

/**
 * Integer contact ids that stay the same for as long as a contact persists from step to step, as
 * the iterative solver's warm start needs: it matches a contact to the impulse the contact with the
 * same id ended the previous step with (see {@link ContactBatch#setId}).
 *
 * <p>Collision detection names each contact by a 64-bit key, built with {@link #key} from the two
 * bodies and a feature number that tells the contact points of one body pair apart, and asks for
 * its id once per step between {@link #beginStep} and {@link #endStep}:
 *
 * <pre>{@code
 * ids.beginStep();
 * for (each contact c found this step) {
 *     contacts.setId(c, ids.idOf(ContactIds.key(a, b, feature)));
 * }
 * ids.endStep();
 * }</pre>
 *
 * <p>A key asked for in consecutive steps keeps its id. A key not asked for during a step is
 * forgotten at the end of that step and its id freed; a freed id is handed out again only in a
 * later step, so a new contact never receives the id, and with it the stale impulse, of a contact
 * of the step before. Ids are non-negative and stay below the largest number of keys alive at once
 * (plus the ids freed in the current step), so they can index arrays.
 *
 * <p>The same sequence of calls gives the same ids on every run. Nothing is allocated per call
 * once the table has grown to the number of live contacts. Not thread-safe: one thread fills a
 * step.
 */
public final class ContactIds {
    /*
     * Storage: open addressing with linear probing, at most half full, no boxing. Each slot is two
     * longs side by side, the key and then the step the key was last seen (high half) with its id
     * (low half), so a probe costs one cache miss; the keys of one body pair sit side by side
     * ({@link #hash}); 0 marks an empty slot (steps never count 0). At
     * the end of a step one pass in slot order deletes the stale entries, each by shifting the rest
     * of its probe run back (no tombstones), which touches memory in order rather than at random.
     */

    private static final int FEATURE_BITS = 10;
    /** 27 bits hold a body index + 1; BodyBatch.MAX_SIZE is below 2^25. */
    private static final int BODY_BITS = 27;
    private static final long EMPTY = 0L;
    /** The feature bits that place a pair's keys side by side: four slots of two longs, a 64-byte line. */
    private static final int NEIGHBOUR_FEATURES = 3;

    /** The largest feature number {@link #key} accepts: 1023. */
    public static final int MAX_FEATURE = (1 << FEATURE_BITS) - 1;
    /** The largest body index {@link #key} accepts: 2^27 - 2, more than a {@link BodyBatch} can hold. */
    public static final int MAX_BODY = (1 << BODY_BITS) - 2;

    private long[] table;
    private int size;
    private int mask;
    private int step;
    private int[] freeIds = new int[64];
    private int freeCount;
    private int nextNewId;
    private boolean inStep;

    /** An empty table with no step begun. */
    public ContactIds() {
        allocate(1024);
    }

    /**
     * The key of a contact between {@code bodyA} and {@code bodyB}, told apart from the other
     * contacts of the same two bodies by {@code feature}. Distinct arguments give distinct keys: the
     * three numbers are packed side by side, {@code bodyA + 1} in the top 27 bits, {@code bodyB + 1}
     * in the next 27 and the feature in the low 10. The order of the bodies counts ({@code (a, b)}
     * and {@code (b, a)} are two keys), so name a pair in one order, say the lower index first, as
     * the contact's body a.
     *
     * <p>The feature should name the same contact point for as long as the bodies stay in contact
     * (a corner, an edge crossing a face), not its position in this step's list, or ids would not
     * persist.
     *
     * @param bodyA body index from {@link ContactBatch#WORLD} (-1) to {@link #MAX_BODY}
     * @param bodyB body index from {@link ContactBatch#WORLD} (-1) to {@link #MAX_BODY}
     * @param feature a number from 0 to {@link #MAX_FEATURE}
     * @return the key, for {@link #idOf}
     * @throws IllegalArgumentException if an argument is out of its range; the message names it
     */
    public static long key(int bodyA, int bodyB, int feature) {
        checkBody("bodyA", bodyA);
        checkBody("bodyB", bodyB);
        if (feature < 0 || feature > MAX_FEATURE) {
            throw new IllegalArgumentException("feature must be in [0, " + MAX_FEATURE + "], got " + feature);
        }
        return ((long) (bodyA + 1) << (BODY_BITS + FEATURE_BITS)) | ((long) (bodyB + 1) << FEATURE_BITS) | feature;
    }

    /**
     * Starts a step: the keys asked for from now until {@link #endStep} are this step's contacts.
     *
     * @throws IllegalStateException if the previous step was not ended
     */
    public void beginStep() {
        if (inStep) {
            throw new IllegalStateException("beginStep: the previous step was not ended (endStep)");
        }
        inStep = true;
        // 0 marks an empty slot, so a step is never numbered 0, even after the counter wraps
        step = step == -1 ? 1 : step + 1;
    }

    /**
     * The id of the contact named {@code key} in the current step: the id it had in the previous
     * step if it was asked for there, else a fresh one. Each key is asked for at most once a step,
     * so the contacts of a step have distinct ids: a key asked for again in the same step (a broad
     * phase that reports a pair twice) is refused here, where it happens, not by the solve that
     * would meet two contacts with one id.
     *
     * @param key any long, usually from {@link #key}
     * @return an id {@code >= 0}
     * @throws IllegalStateException if no step is begun
     * @throws IllegalArgumentException if {@code key} was already asked for in this step; the
     *     message names the key, read as {@link #key}'s bodies and feature, and its id; the table
     *     is left as it was
     */
    public int idOf(long key) {
        if (!inStep) {
            throw new IllegalStateException("idOf: no step begun (beginStep)");
        }
        if ((size + 1) * 2 > slots()) {
            grow();
        }
        int at = find(key);
        int id;
        if (table[at + 1] == EMPTY) {
            table[at] = key;
            id = newId();
            size++;
        } else {
            id = (int) table[at + 1];
            if ((int) (table[at + 1] >>> 32) == step) {
                throw new IllegalArgumentException("idOf: key " + key + " (bodies " + bodyA(key) + " and "
                        + bodyB(key) + ", feature " + feature(key) + ") was already asked for in this step, as id "
                        + id + ": each contact's key once a step (was a pair reported twice?)");
            }
        }
        table[at + 1] = entry(step, id);
        return id;
    }

    /**
     * Ends the current step: forgets the keys not asked for in it and frees their ids, which later
     * steps may hand out again.
     *
     * @throws IllegalStateException if no step is begun
     */
    public void endStep() {
        if (!inStep) {
            throw new IllegalStateException("endStep: no step begun (beginStep)");
        }
        inStep = false;
        int slots = slots();
        // start just after an empty slot, so that no probe run wraps around past the end of the pass
        int empty = 0;
        while (table[2 * empty + 1] != EMPTY) {
            empty++;
        }
        for (int k = 1; k <= slots; k++) {
            int slot = (empty + k) & mask;
            // the shift may bring a later entry into this slot, which is then looked at in turn
            while (table[2 * slot + 1] != EMPTY && (int) (table[2 * slot + 1] >>> 32) != step) {
                freeId((int) table[2 * slot + 1]);
                delete(slot);
                size--;
            }
        }
    }

    /**
     * The number of keys that hold an id now: those asked for in the current or the previous step
     * while a step is open, those of the step just ended after {@link #endStep}.
     *
     * @return the number of keys held, {@code >= 0}
     */
    public int size() {
        return size;
    }

    private static void checkBody(String name, int body) {
        if (body < ContactBatch.WORLD || body > MAX_BODY) {
            throw new IllegalArgumentException(name + " must be in [" + ContactBatch.WORLD + ", " + MAX_BODY
                    + "], got " + body);
        }
    }

    /** {@code bodyA} of {@link #key} that gives {@code key}: every long is one such key. */
    private static int bodyA(long key) {
        return (int) (key >>> (BODY_BITS + FEATURE_BITS)) - 1;
    }

    private static int bodyB(long key) {
        return (int) ((key >>> FEATURE_BITS) & ((1L << BODY_BITS) - 1)) - 1;
    }

    private static int feature(long key) {
        return (int) (key & MAX_FEATURE);
    }

    private static long entry(int seenInStep, int id) {
        return ((long) seenInStep << 32) | (id & 0xFFFF_FFFFL);
    }

    private int slots() {
        return table.length / 2;
    }

    private int newId() {
        return freeCount > 0 ? freeIds[--freeCount] : nextNewId++;
    }

    private void freeId(int id) {
        if (freeCount == freeIds.length) {
            freeIds = Arrays.copyOf(freeIds, freeCount * 2);
        }
        freeIds[freeCount++] = id;
    }

    /** The array index of {@code key}'s slot, or of the empty slot where it would go. */
    private int find(long key) {
        int slot = hash(key) & mask;
        while (table[2 * slot + 1] != EMPTY && table[2 * slot] != key) {
            slot = (slot + 1) & mask;
        }
        return 2 * slot;
    }

    /** Empties {@code slot} and moves later entries of its probe run back so every key stays findable. */
    private void delete(int slot) {
        int hole = slot;
        for (int next = (hole + 1) & mask; table[2 * next + 1] != EMPTY; next = (next + 1) & mask) {
            int home = hash(table[2 * next]) & mask;
            // an entry may move back into the hole only if its home slot is not between the hole and it
            boolean homeAfterHole = hole <= next ? hole < home && home <= next : hole < home || home <= next;
            if (!homeAfterHole) {
                table[2 * hole] = table[2 * next];
                table[2 * hole + 1] = table[2 * next + 1];
                hole = next;
            }
        }
        table[2 * hole] = 0L;
        table[2 * hole + 1] = EMPTY;
    }

    private void grow() {
        long[] old = table;
        allocate(slots() * 2);
        for (int at = 0; at < old.length; at += 2) {
            if (old[at + 1] != EMPTY) {
                int to = find(old[at]);
                table[to] = old[at];
                table[to + 1] = old[at + 1];
            }
        }
    }

    private void allocate(int slotCount) {
        table = new long[2 * slotCount];
        mask = slotCount - 1;
    }

    /**
     * A key's home slot before masking: the body pair's hash plus the feature's low two bits, so
     * that the keys of one pair, which collision detection asks for one after the other, sit in
     * neighbouring slots (one or two cache lines, not one each), while pairs spread as before.
     */
    private static int hash(long key) {
        long h = (key >>> FEATURE_BITS) * 0x9E37_79B9_7F4A_7C15L;
        return (int) (h ^ (h >>> 32)) + (int) (key & NEIGHBOUR_FEATURES);
    }
}
