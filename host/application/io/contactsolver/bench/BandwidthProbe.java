package io.contactsolver.bench;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The benchmark's {@code bandwidth} row: how fast this machine copies memory from Java, over a
 * buffer the size of a scene's data, on one thread or several. A copy reads and writes every byte,
 * so both count: the figure is comparable with a solve's effective GB/s (bytes read plus bytes
 * written per second). Small buffers fit in cache and measure the cache, as a small scene does.
 */
final class BandwidthProbe implements AutoCloseable {
    private final float[] source;
    private final float[] target;
    private final int threads;
    private final ExecutorService pool;

    BandwidthProbe(long bytes, int threads) {
        int floats = (int) Math.min(Integer.MAX_VALUE - 8, Math.max(1024, bytes / Float.BYTES));
        this.source = new float[floats];
        this.target = new float[floats];
        for (int i = 0; i < floats; i++) {
            source[i] = i;
        }
        this.threads = threads;
        this.pool = threads > 1 ? Executors.newFixedThreadPool(threads) : null;
    }

    /** Bytes one {@link #copy()} reads plus writes. */
    long bytesPerCopy() {
        return 2L * source.length * Float.BYTES;
    }

    /** One copy of the whole buffer, split evenly across the threads. */
    void copy() throws Exception {
        if (pool == null) {
            System.arraycopy(source, 0, target, 0, source.length);
            return;
        }
        Future<?>[] parts = new Future<?>[threads];
        for (int t = 0; t < threads; t++) {
            int from = (int) ((long) source.length * t / threads);
            int to = (int) ((long) source.length * (t + 1) / threads);
            parts[t] = pool.submit(() -> System.arraycopy(source, from, target, from, to - from));
        }
        for (Future<?> part : parts) {
            part.get();
        }
    }

    @Override
    public void close() {
        if (pool != null) {
            pool.shutdownNow();
        }
    }
}
