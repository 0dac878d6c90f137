package io.contactsolver.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The broad phase finds exactly the pairs an all-pairs search finds, each once, in a fixed order. */
class UniformGridTest {

    /**
     * Spheres scattered densely enough that many pairs are near, some pressed a little through the
     * walls (the grid clamps them into the edge cells) and some exactly on cell boundaries.
     */
    private static ParticleWorld scattered(long seed, int count) {
        SplittableRandom random = new SplittableRandom(seed);
        float width = 0.2f;
        float height = 0.12f;
        float depth = 0.08f;
        ParticleWorld world = new ParticleWorld(count, width, height, depth);
        for (int i = 0; i < count; i++) {
            world.setSphere(i, 0.004f + 0.006f * (float) random.nextDouble(), 1.0f);
            world.x[i] = spread(random, width);
            world.y[i] = spread(random, height);
            world.z[i] = random.nextInt(8) == 0 ? 0.0f : spread(random, depth);
        }
        return world;
    }

    /** A coordinate in the box or up to 3 mm beyond a wall. */
    private static float spread(SplittableRandom random, float extent) {
        return -0.003f + (extent + 0.006f) * (float) random.nextDouble();
    }

    private static List<Long> bruteForce(ParticleWorld world, float margin) {
        List<Long> pairs = new ArrayList<>();
        for (int a = 0; a < world.count; a++) {
            for (int b = a + 1; b < world.count; b++) {
                if (UniformGrid.near(world.x[a], world.y[a], world.z[a], world.radius[a], world.x[b], world.y[b],
                        world.z[b], world.radius[b], margin)) {
                    pairs.add(ContactKeys.pairKey(a, b));
                }
            }
        }
        return pairs;
    }

    private static List<Long> found(UniformGrid grid) {
        List<Long> pairs = new ArrayList<>();
        for (int p = 0; p < grid.pairCount(); p++) {
            assertTrue(grid.pairA(p) < grid.pairB(p), "pair " + p + " lists the lower index first");
            pairs.add(ContactKeys.pairKey(grid.pairA(p), grid.pairB(p)));
        }
        return pairs;
    }

    @ParameterizedTest(name = "{0} spheres, margin {1} m")
    @CsvSource({"1, 0.0", "2, 0.001", "600, 0.0", "600, 0.002", "3000, 0.0005", "3000, 0.01"})
    void findsExactlyThePairsOfABruteForceSearchEachOnce(int count, float margin) {
        ParticleWorld world = scattered(count * 7L + 1, count);
        UniformGrid grid = new UniformGrid();
        grid.findPairs(world, margin);
        List<Long> expected = bruteForce(world, margin);
        List<Long> actual = found(grid);
        assertEquals(actual.size(), actual.stream().distinct().count(), "no pair twice");
        assertEquals(expected.stream().sorted().toList(), actual.stream().sorted().toList());
        if (count >= 600) {
            assertTrue(expected.size() > count / 2, "the scene has many near pairs: " + expected.size());
        }
    }

    @ParameterizedTest(name = "margin {0} m")
    @CsvSource({"0.0", "0.005"})
    void reusedAcrossStepsItGivesTheSameAnswerAsAFreshGrid(float margin) {
        UniformGrid reused = new UniformGrid();
        reused.findPairs(scattered(5, 4000), 0.02f); // a large grid first, then smaller worlds
        for (int round = 0; round < 3; round++) {
            ParticleWorld world = scattered(100 + round, 500 + 400 * round);
            reused.findPairs(world, margin);
            UniformGrid fresh = new UniformGrid();
            fresh.findPairs(world, margin);
            assertEquals(found(fresh), found(reused), "same pairs in the same order, round " + round);
            assertEquals(bruteForce(world, margin).stream().sorted().toList(), found(reused).stream().sorted().toList());
        }
    }
}
