package io.contactsolver.demo;

import java.util.Arrays;

/**
 * Contact ids that stay the same while a contact persists, which is what the module's warm start
 * needs: it hands a contact the impulse that the contact with the same id ended the previous step
 * with.
 *
 * <p>A contact is named by a 64-bit key: the particle in the high half and its partner in the low
 * half, another particle (the higher index of the pair) or {@code -1 - wall} for a wall. Contact
 * ids must be ints, and particle pairs do not fit in one, so this class maps each key to an int id
 * for as long as the key is seen every step. A key missing for a step is forgotten and its id
 * freed; a freed id is handed out again only in a later step, so it can never meet an impulse the
 * old contact left behind (the previous step's result does not hold it). Ids stay below the
 * largest number of contacts alive at once.
 *
 * <p>Storage: open addressing with linear probing, at most half full, no boxing. Each slot is two
 * longs side by side, the key and then the step the key was last seen (high half) with its id
 * (low half), so a probe costs one cache miss; 0 marks an empty slot (steps count from 1). At the
 * end of a step one pass in slot order deletes the stale entries, each by shifting the rest of its
 * probe run back (no tombstones), which touches memory in order rather than at random. Everything
 * runs in one thread in a fixed order, so the same contacts get the same ids on every run.
 */
final class ContactIds {
    private static final long EMPTY = 0L;

    private long[] table;
    private int size;
    private int mask;
    private int step;
    private int[] freeIds = new int[64];
    private int freeCount;
    private int nextNewId;

    ContactIds() {
        allocate(1024);
    }

    /** The key of the contact between particles {@code a} and {@code b}, {@code a < b}. */
    static long pairKey(int a, int b) {
        return ((long) a << 32) | (b & 0xFFFF_FFFFL);
    }

    /** The key of the contact between particle {@code particle} and {@code wall}. */
    static long wallKey(int particle, Wall wall) {
        return pairKey(particle, -1 - wall.ordinal());
    }

    /** Starts a step: the keys asked for from now on are this step's contacts. */
    void beginStep() {
        step++;
    }

    /**
     * The id of the contact named {@code key}: the one it had in the previous step if it was seen
     * there, else a fresh one. Asking twice in one step gives the same id, so each key must be asked
     * for once per step for ids to be unique.
     */
    int idOf(long key) {
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
        }
        table[at + 1] = entry(step, id);
        return id;
    }

    /** Ends a step: forgets the keys not asked for in it and frees their ids for the next step. */
    void endStep() {
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

    /** Contacts alive now (seen in the current or, after {@link #endStep}, the last step). */
    int size() {
        return size;
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

    private static int hash(long key) {
        long h = key * 0x9E37_79B9_7F4A_7C15L;
        return (int) (h ^ (h >>> 32));
    }
}
