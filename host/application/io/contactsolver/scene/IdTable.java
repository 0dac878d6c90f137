package io.contactsolver.scene;

import java.util.Arrays;

/**
 * The ids of a file's records, read whole, and the record each id names: for looking a body up by
 * the id a contact gives, and for finding the first id, in file order, that an earlier record
 * already had. Sorted rather than hashed, since the table is built once and then only read: one
 * long a record (the id above, the record's number below), no object each, which a file of tens
 * of millions of records needs. Ids that are the records' numbers plus a constant, as generated
 * files number them, are looked up without a search.
 */
final class IdTable {
    private static final long RECORD = 0xffff_ffffL;

    /** {@code id << 32 | record}, ascending: by id, and records of one id in file order; null when consecutive. */
    private final long[] sorted;
    /** The id of record 0 where record {@code r}'s id is {@code first + r}. */
    private final long first;
    private final int count;

    private IdTable(long[] sorted, long first, int count) {
        this.sorted = sorted;
        this.first = first;
        this.count = count;
    }

    /** The table of records {@code 0} to {@code count - 1}, record {@code r} having id {@code ids[r]}. */
    static IdTable of(int[] ids, int count) {
        boolean consecutive = true;
        for (int r = 1; r < count && consecutive; r++) {
            consecutive = (long) ids[r] == (long) ids[0] + r;
        }
        if (consecutive) {
            return new IdTable(null, count == 0 ? 0 : ids[0], count);
        }
        long[] sorted = new long[count];
        for (int r = 0; r < count; r++) {
            sorted[r] = (long) ids[r] << 32 | r;
        }
        Arrays.sort(sorted);
        return new IdTable(sorted, 0, count);
    }

    /** The first record, in file order, with id {@code id}, or -1 if none has it. */
    int recordOf(int id) {
        if (sorted == null) {
            long record = id - first;
            return record >= 0 && record < count ? (int) record : -1;
        }
        // the first entry at or above (id, record 0): the id's first record, if it has one
        long key = (long) id << 32;
        int low = 0;
        int high = count;
        while (low < high) {
            int middle = (low + high) >>> 1;
            if (sorted[middle] < key) {
                low = middle + 1;
            } else {
                high = middle;
            }
        }
        return low < count && (int) (sorted[low] >> 32) == id ? (int) (sorted[low] & RECORD) : -1;
    }

    /** The first record, in file order, whose id an earlier record already has, or -1 if every id is unique. */
    int firstRepeat() {
        int repeat = -1;
        for (int i = 1; sorted != null && i < count; i++) {
            // a record after the first of its id: the earliest of them all is the first repeat
            if ((int) (sorted[i] >> 32) == (int) (sorted[i - 1] >> 32)) {
                int record = (int) (sorted[i] & RECORD);
                repeat = repeat < 0 ? record : Math.min(repeat, record);
            }
        }
        return repeat;
    }
}
