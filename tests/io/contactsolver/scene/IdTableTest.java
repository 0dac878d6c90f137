package io.contactsolver.scene;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** A file's ids: each looked up to its first record, and the first repeat in file order found. */
class IdTableTest {
    @Test
    void idsCountingUpByOneAreTheirRecordsPlusAConstant() {
        IdTable table = IdTable.of(new int[] {7, 8, 9, 10, 0}, 4);
        assertEquals(0, table.recordOf(7));
        assertEquals(3, table.recordOf(10));
        assertEquals(-1, table.recordOf(6));
        assertEquals(-1, table.recordOf(11));
        assertEquals(-1, table.recordOf(0), "past the count, not a record");
        assertEquals(-1, table.firstRepeat());
        // at the top of the int range: no wrap to negative ids
        IdTable top = IdTable.of(new int[] {Integer.MAX_VALUE - 1, Integer.MAX_VALUE}, 2);
        assertEquals(1, top.recordOf(Integer.MAX_VALUE));
        assertEquals(-1, top.recordOf(Integer.MIN_VALUE));
        assertEquals(-1, IdTable.of(new int[0], 0).recordOf(0));
    }

    @Test
    void idsInAnyOrderAreFoundAmongNegativeAndLargeOnes() {
        int[] ids = {40, -3, Integer.MIN_VALUE, 12, Integer.MAX_VALUE, 0};
        IdTable table = IdTable.of(ids, ids.length);
        for (int record = 0; record < ids.length; record++) {
            assertEquals(record, table.recordOf(ids[record]), "id " + ids[record]);
        }
        assertEquals(-1, table.recordOf(1));
        assertEquals(-1, table.recordOf(-4));
        assertEquals(-1, table.firstRepeat());
    }

    @Test
    void theFirstRepeatIsTheEarliestRecordWhoseIdCameBefore() {
        // records 0..6: id 5 at 0, 3 and 6; id 2 at 1 and 4; so record 3 repeats first, then 4 and 6
        IdTable table = IdTable.of(new int[] {5, 2, 9, 5, 2, 8, 5}, 7);
        assertEquals(3, table.firstRepeat());
        assertEquals(0, table.recordOf(5), "an id's first record");
        assertEquals(1, table.recordOf(2));
        // the same with the earlier repeat of another id: record 2 repeats id 4 of record 1
        assertEquals(2, IdTable.of(new int[] {6, 4, 4, 6}, 4).firstRepeat());
    }
}
