package io.contactsolver.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.contactsolver.layout.BodyField;
import org.junit.jupiter.api.Test;

/**
 * The movable flags follow the bodies' inverse masses and inertias: a classification of the same
 * block whose mass fields were not written since keeps them, and any write to one of those fields
 * (stamped, as every setter stamps) is seen, on the next classification.
 */
class MovableBodiesTest {

    private static FieldBlock bodies(int count) {
        FieldBlock block = new FieldBlock(BodyField.COUNT, count);
        for (int i = 0; i < count; i++) {
            block.setFloat(BodyField.QW.ordinal(), i, 1.0f);
            block.setFloat(BodyField.INV_MASS.ordinal(), i, 1.0f);
        }
        return block;
    }

    @Test
    void aWriteToAMassFieldIsSeenAndOneToTheMotionLeavesTheFlags() {
        FieldBlock block = bodies(50_000);
        MovableBodies movable = new MovableBodies();
        try (ParallelRunner runner = new ParallelRunner(2)) {
            movable.classify(block, 50_000, runner);
            long version = movable.version();
            assertTrue(movable.isMovable(123));

            block.setFloat(BodyField.X.ordinal(), 123, 4.0f);
            block.setFloat(BodyField.VY.ordinal(), 7, -1.0f);
            movable.classify(block, 50_000, runner);
            assertEquals(version, movable.version(), "the motion written: the same flags");

            block.setFloat(BodyField.INV_MASS.ordinal(), 123, 0.0f);
            movable.classify(block, 50_000, runner);
            assertFalse(movable.isMovable(123), "a body made static");
            assertNotEquals(version, movable.version());
            version = movable.version();

            block.setFloat(BodyField.INV_IYZ.ordinal(), 123, 0.5f);
            movable.classify(block, 50_000, runner);
            assertTrue(movable.isMovable(123), "an inertia written: movable again");
            assertNotEquals(version, movable.version());

            // another block of the same values is classified on its own
            FieldBlock other = bodies(50_000);
            other.setFloat(BodyField.INV_MASS.ordinal(), 9, 0.0f);
            movable.classify(other, 50_000, runner);
            assertFalse(movable.isMovable(9));
            assertTrue(movable.isMovable(123));
        }
    }
}
