package io.contactsolver.demo;

import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The demo's contact keys: one per sphere pair and per sphere and wall. */
class ContactKeysTest {

    @Test
    void keysOfPairsAndWallsNeverCollide() {
        Set<Long> keys = new HashSet<>();
        for (int a = 0; a < 40; a++) {
            for (int b = a + 1; b < 40; b++) {
                assertTrue(keys.add(ContactKeys.pairKey(a, b)));
            }
            for (Wall wall : Wall.values()) {
                assertTrue(keys.add(ContactKeys.wallKey(a, wall)));
            }
        }
        assertNotEquals(ContactKeys.pairKey(1, Integer.MAX_VALUE), ContactKeys.wallKey(1, Wall.FLOOR));
        assertNotEquals(ContactKeys.pairKey(0, 1), ContactKeys.pairKey(1, 0));
    }
}
