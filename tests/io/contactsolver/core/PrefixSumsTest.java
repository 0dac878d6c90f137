package io.contactsolver.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Exclusive prefix sums in chunks on a team are the serial loop's, at every size around the chunk. */
class PrefixSumsTest {
    private static int[] serial(int[] counts, int n) {
        int[] sums = new int[n + 1];
        for (int i = 0; i < n; i++) {
            sums[i + 1] = sums[i] + counts[i];
        }
        return sums;
    }

    @Test
    void chunkedSumsAreTheSerialOnesWhateverTheThreadCount() {
        SplittableRandom random = new SplittableRandom(5);
        int chunk = PrefixSums.CHUNK;
        int[] sizes = {0, 1, 7, chunk - 1, chunk, chunk + 1, 2 * chunk, 5 * chunk + 3, 37 * chunk + 11};
        try (ParallelRunner one = new ParallelRunner(1); ParallelRunner three = new ParallelRunner(3)) {
            for (int n : sizes) {
                int[] counts = new int[n];
                for (int i = 0; i < n; i++) {
                    counts[i] = random.nextInt(5);
                }
                int[] expected = serial(counts, n);
                for (ParallelRunner runner : new ParallelRunner[] {one, three}) {
                    int[] sums = new int[n + 3];
                    int total = PrefixSums.exclusive(n, i -> counts[i], sums, runner);
                    assertEquals(expected[n], total, "total of " + n);
                    int[] head = java.util.Arrays.copyOf(sums, n + 1);
                    assertArrayEquals(expected, head, n + " elements on " + runner.threads() + " threads");
                }
            }
        }
    }

    @Test
    void aTotalBeyondAnIntIsRefused() {
        int n = 3 * PrefixSums.CHUNK;
        try (ParallelRunner one = new ParallelRunner(1); ParallelRunner two = new ParallelRunner(2)) {
            for (ParallelRunner runner : new ParallelRunner[] {one, two}) {
                assertThrows(ArithmeticException.class,
                        () -> PrefixSums.exclusive(n, i -> 1 << 20, new int[n + 1], runner));
            }
        }
    }
}
