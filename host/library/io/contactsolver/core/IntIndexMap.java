package io.contactsolver.core;

import java.util.Arrays;

/**
 * A map from int keys to non-negative int values (indices), open addressing with linear probing,
 * no boxing: for looking up bodies and contacts by id without an object per entry.
 */
public final class IntIndexMap {
    private static final int EMPTY = -1;

    private int[] keys;
    private int[] values;
    private int size;
    private int mask;

    /** A map sized for about {@code expected} entries without growing. */
    public IntIndexMap(int expected) {
        int capacity = Integer.highestOneBit(Math.max(4, expected * 2 - 1)) << 1;
        keys = new int[capacity];
        values = new int[capacity];
        Arrays.fill(values, EMPTY);
        mask = capacity - 1;
    }

    public int size() {
        return size;
    }

    /** Removes all entries, keeping the storage. */
    public void clear() {
        Arrays.fill(values, EMPTY);
        size = 0;
    }

    /** The value of {@code key}, or -1 if absent. */
    public int get(int key) {
        for (int slot = hash(key) & mask; ; slot = (slot + 1) & mask) {
            if (values[slot] == EMPTY) {
                return EMPTY;
            }
            if (keys[slot] == key) {
                return values[slot];
            }
        }
    }

    /**
     * Maps {@code key} to {@code value} unless it is already present.
     *
     * @return -1 if the key was added, else the value already stored (which is kept)
     */
    public int putIfAbsent(int key, int value) {
        if (value < 0) {
            throw new IllegalArgumentException("values must be non-negative: " + value);
        }
        if ((size + 1) * 2 > keys.length) {
            grow();
        }
        for (int slot = hash(key) & mask; ; slot = (slot + 1) & mask) {
            if (values[slot] == EMPTY) {
                keys[slot] = key;
                values[slot] = value;
                size++;
                return EMPTY;
            }
            if (keys[slot] == key) {
                return values[slot];
            }
        }
    }

    private void grow() {
        int[] oldKeys = keys;
        int[] oldValues = values;
        keys = new int[oldKeys.length * 2];
        values = new int[oldKeys.length * 2];
        Arrays.fill(values, EMPTY);
        mask = keys.length - 1;
        size = 0;
        for (int slot = 0; slot < oldKeys.length; slot++) {
            if (oldValues[slot] != EMPTY) {
                putIfAbsent(oldKeys[slot], oldValues[slot]);
            }
        }
    }

    private static int hash(int key) {
        int h = key * 0x9E3779B9;
        return h ^ (h >>> 16);
    }
}
