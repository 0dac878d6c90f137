package io.contactsolver.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class IntIndexMapTest {

    @Test
    void behavesLikeAHashMapThroughGrowthAndCollisions() {
        IntIndexMap map = new IntIndexMap(2);
        Map<Integer, Integer> reference = new HashMap<>();
        SplittableRandom random = new SplittableRandom(1);
        for (int i = 0; i < 50_000; i++) {
            int key = random.nextInt(-30_000, 30_000) * 64; // clustered low bits
            Integer previous = reference.putIfAbsent(key, i);
            assertEquals(previous == null ? -1 : previous, map.putIfAbsent(key, i));
        }
        assertEquals(reference.size(), map.size());
        reference.forEach((key, value) -> assertEquals(value, map.get(key)));
        assertEquals(-1, map.get(1));
        map.clear();
        assertEquals(0, map.size());
        assertEquals(-1, map.get(reference.keySet().iterator().next()));
    }
}
