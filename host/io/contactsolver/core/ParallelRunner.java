package io.contactsolver.core;

import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RecursiveAction;

/**
 * Runs loops over index ranges on a fixed number of threads.
 *
 * <p>Every parallel loop in this project writes each output element from exactly one index and
 * never combines floating-point values across ranges, so the way a range is split (and with it
 * the thread count) cannot change any result.
 */
public final class ParallelRunner implements AutoCloseable {
    /** The body of a loop over {@code [from, to)}. */
    @FunctionalInterface
    public interface RangeTask {
        void run(int from, int to);
    }

    private final int threads;
    private final ForkJoinPool pool;

    public ParallelRunner(int threads) {
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be at least 1, got " + threads);
        }
        this.threads = threads;
        this.pool = threads == 1 ? null : new ForkJoinPool(threads);
    }

    public int threads() {
        return threads;
    }

    /**
     * Runs {@code task} over {@code [0, count)} in ranges of at least {@code grain} indices, and
     * returns when all ranges are done. Exceptions thrown by the task propagate to the caller.
     */
    public void forRange(int count, int grain, RangeTask task) {
        if (count <= 0) {
            return;
        }
        if (pool == null || count <= grain) {
            task.run(0, count);
            return;
        }
        // a few ranges per thread balance uneven work without making ranges tiny
        int pieces = threads * 4;
        int size = Math.max(grain, (count + pieces - 1) / pieces);
        pool.invoke(new Split(task, 0, count, size));
    }

    @Override
    public void close() {
        if (pool != null) {
            pool.shutdownNow();
        }
    }

    private static final class Split extends RecursiveAction {
        private static final long serialVersionUID = 1L;
        private final transient RangeTask task;
        private final int from;
        private final int to;
        private final int size;

        Split(RangeTask task, int from, int to, int size) {
            this.task = task;
            this.from = from;
            this.to = to;
            this.size = size;
        }

        @Override
        protected void compute() {
            if (to - from <= size) {
                task.run(from, to);
                return;
            }
            int middle = from + ((to - from) / size / 2) * size;
            if (middle == from) {
                middle = from + size;
            }
            invokeAll(new Split(task, from, middle, size), new Split(task, middle, to, size));
        }
    }
}
