package io.contactsolver.core;

/**
 * Exclusive prefix sums of non-negative int counts, on a team: each chunk of {@link #CHUNK}
 * elements sums its counts, the chunks' totals are summed in order, and each chunk then writes its
 * sums from its base. The chunks are fixed by the element count alone and the sums are of ints,
 * so the result is the serial loop's, whatever the thread count.
 *
 * <p>Used where a layout (the solved points of each manifold, the rows' first points) is an
 * offset per element: serial, such a loop over a million manifolds took 1-2.3 ms a step on the
 * development VM, a share of the host's step that more cores never shrank.
 */
public final class PrefixSums {
    /** Elements a chunk sums: below two chunks the sums are taken on the calling thread. */
    static final int CHUNK = 1 << 14;

    private PrefixSums() {
    }

    /** The count of element {@code i}, at least 0. */
    @FunctionalInterface
    public interface Count {
        int of(int i);
    }

    /** A pass over chunk {@code k} of the elements, its elements {@code [from, to)}. */
    @FunctionalInterface
    public interface ChunkTask {
        void run(int k, int from, int to);
    }

    /** The chunks of {@code n} elements: fixed by {@code n} alone, so a pass over them is the same on any team. */
    public static int chunks(int n) {
        return (int) (((long) n + CHUNK - 1) / CHUNK);
    }

    /** Runs {@code task} on every chunk of {@code n} elements, the chunks shared among {@code runner}'s threads. */
    public static void forEachChunk(int n, ParallelRunner runner, ChunkTask task) {
        runner.forRange(chunks(n), 1, (first, end) -> {
            for (int k = first; k < end; k++) {
                task.run(k, k * CHUNK, Math.min(n, (k + 1) * CHUNK));
            }
        });
    }

    /**
     * {@code sums[i] = count(0) + ... + count(i - 1)} for {@code i} in {@code [0, n]}, into
     * {@code sums} (at least {@code n + 1} long).
     *
     * @return the total, {@code sums[n]}
     * @throws ArithmeticException if the total does not fit an int
     */
    public static int exclusive(int n, Count count, int[] sums, ParallelRunner runner) {
        return sums(n, count, sums, runner, null);
    }

    /**
     * As {@link #exclusive}, and whether any of {@code sums[0..n]} now differs from what it held
     * before (each compared as it is written, in the same pass).
     *
     * @throws ArithmeticException if the total does not fit an int
     */
    public static boolean exclusiveChanges(int n, Count count, int[] sums, ParallelRunner runner) {
        boolean[] changed = new boolean[Math.max(1, chunks(n))];
        int total = sums[n];
        boolean totalChanged = sums(n, count, sums, runner, changed) != total;
        for (boolean d : changed) {
            totalChanged |= d;
        }
        return totalChanged;
    }

    /** The sums; with {@code changed}, chunk {@code k} notes there whether it wrote other values than were there. */
    private static int sums(int n, Count count, int[] sums, ParallelRunner runner, boolean[] changed) {
        int chunks = chunks(n);
        if (chunks <= 1 || runner.threads() == 1) {
            long total = 0;
            boolean differs = false;
            for (int i = 0; i < n; i++) {
                differs |= changed != null && sums[i] != (int) total;
                sums[i] = (int) total;
                total += count.of(i);
            }
            if (changed != null) {
                changed[0] = differs;
            }
            return finish(sums, n, total);
        }
        long[] bases = new long[chunks + 1];
        forEachChunk(n, runner, (k, from, to) -> {
            long total = 0;
            for (int i = from; i < to; i++) {
                total += count.of(i);
            }
            bases[k + 1] = total;
        });
        for (int k = 0; k < chunks; k++) {
            bases[k + 1] += bases[k];
        }
        if (bases[chunks] > Integer.MAX_VALUE) {
            throw new ArithmeticException("prefix sums: a total of " + bases[chunks] + " does not fit an int");
        }
        forEachChunk(n, runner, (k, from, to) -> {
            int running = (int) bases[k];
            boolean differs = false;
            for (int i = from; i < to; i++) {
                differs |= changed != null && sums[i] != running;
                sums[i] = running;
                running += count.of(i);
            }
            if (changed != null) {
                changed[k] = differs;
            }
        });
        return finish(sums, n, bases[chunks]);
    }

    private static int finish(int[] sums, int n, long total) {
        if (total > Integer.MAX_VALUE) {
            throw new ArithmeticException("prefix sums: a total of " + total + " does not fit an int");
        }
        sums[n] = (int) total;
        return (int) total;
    }
}
