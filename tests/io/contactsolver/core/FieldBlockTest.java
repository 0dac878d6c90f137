package io.contactsolver.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import org.junit.jupiter.api.Test;

/**
 * A block's bulk field copy: the source's values in place, in ranges on a team, each field it writes
 * stamped and no other.
 */
class FieldBlockTest {
    @Test
    void setFieldsCopiesTheFirstFieldsInRangesAndStampsEachOfThem() {
        int count = 200_003; // several ranges of a team, and not a multiple of one
        FieldBlock source = new FieldBlock(3, count + 5); // another stride than the target's
        FieldBlock target = new FieldBlock(4, count + 11);
        for (int f = 0; f < 3; f++) {
            for (int i = 0; i < count; i++) {
                source.setFloat(f, i, f * 1_000_000.0f + i);
            }
        }
        target.setFloat(2, count, -7.0f); // past the count: kept
        target.setFloat(3, 5, 42.0f); // a field past the copied ones: kept
        long[] before = new long[4];
        for (int f = 0; f < 4; f++) {
            before[f] = target.stamp(f);
        }
        try (ParallelRunner runner = new ParallelRunner(3)) {
            target.setFields(source, 3, count, runner);
        }
        for (int f = 0; f < 3; f++) {
            for (int i = 0; i < count; i++) {
                assertEquals(f * 1_000_000.0f + i, target.getFloat(f, i), "field " + f + " of element " + i);
            }
            assertNotEquals(before[f], target.stamp(f), "field " + f + " is stamped");
        }
        assertEquals(-7.0f, target.getFloat(2, count));
        assertEquals(42.0f, target.getFloat(3, 5));
        assertEquals(before[3], target.stamp(3), "the field not copied keeps its stamp");
    }
}
