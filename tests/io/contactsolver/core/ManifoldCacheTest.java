package io.contactsolver.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A cache whose arrays a device kept ({@link ManifoldCache#keepOnDevice}): the host's first read
 * fetches them, once, whichever array it reads and however many threads read at once; a cache
 * prepared or cleared forgets the device's copy; a device that fails leaves the cache empty.
 */
class ManifoldCacheTest {
    private static final int MANIFOLDS = 3;
    private static final int POINTS = 5;

    /** A device's copy that writes recognisable values (point p's id 100 + p, and so on) and counts its reads. */
    private static final class FakeCopy implements ManifoldCache.DeviceCopy {
        final AtomicInteger reads = new AtomicInteger();
        private final boolean works;
        private final CountDownLatch entered = new CountDownLatch(1);
        private final CountDownLatch release;

        FakeCopy(boolean works, CountDownLatch release) {
            this.works = works;
            this.release = release;
        }

        @Override
        public boolean readInto(FloatBuffer captures, IntBuffer ids, float[] normal, float[] vectors) {
            reads.incrementAndGet();
            entered.countDown();
            try {
                release.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (!works) {
                return false;
            }
            for (int p = 0; p < POINTS; p++) {
                ids.put(p, 100 + p);
                normal[p] = 0.5f * p;
                for (int f = 0; f < CaptureField.COUNT; f++) {
                    captures.put(p * CaptureField.COUNT + f, p + f / 100.0f);
                }
            }
            for (int v = 0; v < ManifoldVectorField.COUNT * MANIFOLDS; v++) {
                vectors[v] = -v;
            }
            return true;
        }
    }

    private static ManifoldCache finishedCache(FakeCopy copy) {
        ManifoldCache cache = new ManifoldCache();
        cache.prepare(MANIFOLDS, POINTS);
        cache.keepOnDevice(copy);
        cache.finish();
        return cache;
    }

    @Test
    void theFirstReadFetchesWhatTheDeviceKeptAndLaterReadsDoNot() {
        FakeCopy copy = new FakeCopy(true, new CountDownLatch(0));
        ManifoldCache cache = finishedCache(copy);
        assertTrue(cache.heldOnDevice());
        assertTrue(cache.isValid(), "valid without a fetch: the device recycles from its own copy");
        assertEquals(0, copy.reads.get(), "nothing read before the host asks");
        assertEquals(0.5f * 3, cache.normal()[3]);
        assertFalse(cache.heldOnDevice());
        assertEquals(104, cache.ids().get(4));
        assertEquals(2.07f, cache.captures().get(2 * CaptureField.COUNT + 7));
        assertEquals(-7.0f, cache.vectors()[7]);
        assertArrayEquals(new int[] {100, 101, 102, 103, 104}, java.util.Arrays.copyOf(cache.idArray(), POINTS));
        assertEquals(1, copy.reads.get(), "fetched once");
    }

    @Test
    void eachArrayFetchesOnItsOwn() {
        for (int reader = 0; reader < 5; reader++) {
            FakeCopy copy = new FakeCopy(true, new CountDownLatch(0));
            ManifoldCache cache = finishedCache(copy);
            switch (reader) {
                case 0 -> assertEquals(101, cache.ids().get(1));
                case 1 -> assertEquals(102, cache.idArray()[2]);
                case 2 -> assertEquals(1.0f, cache.captures().get(CaptureField.COUNT));
                case 3 -> assertEquals(1.0f, cache.normal()[2]);
                default -> assertEquals(-5.0f, cache.vectors()[5]);
            }
            assertEquals(1, copy.reads.get(), "reader " + reader);
        }
    }

    @Test
    void aCachePreparedOrClearedForgetsTheDevicesCopy() {
        FakeCopy copy = new FakeCopy(true, new CountDownLatch(0));
        ManifoldCache prepared = finishedCache(copy);
        prepared.prepare(MANIFOLDS, POINTS);
        assertFalse(prepared.heldOnDevice());
        prepared.normal();
        prepared.captures();
        ManifoldCache cleared = finishedCache(copy);
        cleared.clear();
        assertFalse(cleared.heldOnDevice());
        cleared.ids();
        assertEquals(0, copy.reads.get(), "a copy of contents replaced is never read");
    }

    @Test
    void aDeviceThatFailsLeavesTheCacheEmpty() {
        FakeCopy copy = new FakeCopy(false, new CountDownLatch(0));
        ManifoldCache cache = finishedCache(copy);
        long version = cache.version();
        cache.normal();
        assertFalse(cache.isValid(), "the next step takes its contacts fresh");
        assertEquals(0, cache.manifoldCount());
        assertTrue(cache.version() > version, "a device copy of it is no longer current");
        assertFalse(cache.heldOnDevice());
        cache.captures();
        assertEquals(1, copy.reads.get());
    }

    /** Threads that read at once (a parallel pass over the manifolds) wait for the one fetch and then see its values. */
    @Test
    void readersOnSeveralThreadsShareOneFetch() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        FakeCopy copy = new FakeCopy(true, release);
        ManifoldCache cache = finishedCache(copy);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            Future<?>[] readers = new Future<?>[4];
            for (int t = 0; t < readers.length; t++) {
                int p = t;
                readers[t] = pool.submit(() -> assertEquals(p + 2 / 100.0f,
                        cache.captures().get(p * CaptureField.COUNT + 2)));
            }
            assertTrue(copy.entered.await(10, TimeUnit.SECONDS), "one reader fetches");
            release.countDown();
            for (Future<?> reader : readers) {
                reader.get(10, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        assertEquals(1, copy.reads.get());
    }
}
