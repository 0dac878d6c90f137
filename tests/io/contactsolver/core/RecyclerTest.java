package io.contactsolver.core;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.contactsolver.layout.ImpulseField;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * When a result may leave its impulses to the first read ({@link Recycler#reportsFinite}): whenever
 * it says so, {@link Recycler#report} writes only finite impulses, even at the edge of float's range
 * and with points whose ids no contact has (their impulses shared out); where a total or a vector
 * could overflow, or the cache holds no step, it says no.
 */
class RecyclerTest {
    private static final int[] MANIFOLD_POINTS = {1, 2, 3, 4, 4, 2};
    /** Two threads: a cache of more manifolds than a range is screened in ranges on both. */
    private static final ParallelRunner RUNNER = new ParallelRunner(2);

    @AfterAll
    static void closeRunner() {
        RUNNER.close();
    }

    /** Manifolds of {@link #MANIFOLD_POINTS} points, one contact a point, ids 10 + point; normals and vectors as given. */
    private static ManifoldCache cache(float[] normal, float[] vectors) {
        int manifolds = MANIFOLD_POINTS.length;
        int points = 0;
        for (int count : MANIFOLD_POINTS) {
            points += count;
        }
        ManifoldCache cache = new ManifoldCache();
        cache.prepare(manifolds, points);
        int at = 0;
        for (int m = 0; m < manifolds; m++) {
            cache.pointStart()[m] = at;
            cache.contactStart()[m] = at;
            at += MANIFOLD_POINTS[m];
        }
        cache.pointStart()[manifolds] = at;
        cache.contactStart()[manifolds] = at;
        for (int p = 0; p < points; p++) {
            cache.ids().put(p, 10 + p);
            cache.normal()[p] = normal[p];
        }
        System.arraycopy(vectors, 0, cache.vectors(), 0, ManifoldVectorField.COUNT * manifolds);
        cache.finish();
        return cache;
    }

    private static int pointCount() {
        int points = 0;
        for (int count : MANIFOLD_POINTS) {
            points += count;
        }
        return points;
    }

    /** The contacts' ids: each point's own, except every third contact's, which no point has. */
    private static int[] contactIds(boolean lost) {
        int[] ids = new int[pointCount()];
        for (int c = 0; c < ids.length; c++) {
            ids[c] = lost && c % 3 == 1 ? 1000 + c : 10 + c;
        }
        return ids;
    }

    /** The report of {@code cache}: every field of every contact, checked finite. */
    private static void assertReportFinite(ManifoldCache cache, int[] contactIds, String what) {
        FieldBlock impulses = new FieldBlock(ImpulseField.COUNT, contactIds.length);
        Recycler.reportSerially(cache, contactIds, impulses);
        for (int f = 0; f < ImpulseField.COUNT; f++) {
            for (int c = 0; c < contactIds.length; c++) {
                float value = impulses.floats().get(f * impulses.stride() + c);
                assertTrue(Float.isFinite(value), what + ": " + ImpulseField.values()[f] + " of contact " + c
                        + " is " + value);
            }
        }
    }

    @Test
    void atTheEdgeOfFloatsRangeWhatItClearsReportsFinite() {
        Random random = new Random(31);
        int points = pointCount();
        int vectorCount = ManifoldVectorField.COUNT * MANIFOLD_POINTS.length;
        for (int trial = 0; trial < 200; trial++) {
            float[] normal = new float[points];
            float[] vectors = new float[vectorCount];
            int at = 0;
            for (int count : MANIFOLD_POINTS) {
                // each manifold's normals sum to at most float's largest value, some points carrying nearly all
                for (int k = 0; k < count; k++) {
                    normal[at + k] = random.nextInt(4) == 0 ? 0.0f
                            : Float.MAX_VALUE / count * (random.nextInt(3) == 0 ? 1.0f : random.nextFloat());
                }
                at += count;
            }
            for (int v = 0; v < vectorCount; v++) {
                float magnitude = random.nextBoolean() ? 0x1p126f : 0x1p126f * random.nextFloat();
                vectors[v] = random.nextBoolean() ? magnitude : -magnitude;
            }
            ManifoldCache cache = cache(normal, vectors);
            assertTrue(Recycler.reportsFinite(cache, RUNNER), "trial " + trial);
            assertReportFinite(cache, contactIds(false), "trial " + trial + ", ids kept");
            assertReportFinite(cache, contactIds(true), "trial " + trial + ", ids lost");
        }
    }

    @Test
    void aTotalOrVectorThatCouldOverflowOrANonFiniteOneIsLeftToTheStep() {
        int points = pointCount();
        float[] vectors = new float[ManifoldVectorField.COUNT * MANIFOLD_POINTS.length];
        float[] normal = new float[points];
        java.util.Arrays.fill(normal, 1.0f);
        assertTrue(Recycler.reportsFinite(cache(normal, vectors), RUNNER), "ordinary values");

        float[] overflowing = normal.clone();
        overflowing[1] = Float.MAX_VALUE; // manifold 1: points 1 and 2, total past float's range
        overflowing[2] = Float.MAX_VALUE;
        assertFalse(Recycler.reportsFinite(cache(overflowing, vectors), RUNNER), "a total past float's range");

        float[] nan = normal.clone();
        nan[5] = Float.NaN;
        assertFalse(Recycler.reportsFinite(cache(nan, vectors), RUNNER), "a NaN normal impulse");

        float[] large = vectors.clone();
        large[large.length - 1] = 0x1p127f;
        assertFalse(Recycler.reportsFinite(cache(normal, large), RUNNER), "a vector component of 2^127");
        large[large.length - 1] = -Float.POSITIVE_INFINITY;
        assertFalse(Recycler.reportsFinite(cache(normal, large), RUNNER), "an infinite vector component");

        ManifoldCache cleared = cache(normal, vectors);
        cleared.clear();
        assertFalse(Recycler.reportsFinite(cleared, RUNNER), "a cache that holds no step");
    }

    /** A cache of {@code manifolds} one-point manifolds, each point's normal impulse 1 and vectors 1. */
    private static ManifoldCache onePointManifolds(int manifolds) {
        ManifoldCache cache = new ManifoldCache();
        cache.prepare(manifolds, manifolds);
        for (int m = 0; m <= manifolds; m++) {
            cache.pointStart()[m] = m;
            cache.contactStart()[m] = m;
        }
        for (int p = 0; p < manifolds; p++) {
            cache.ids().put(p, p);
            cache.normal()[p] = 1.0f;
        }
        java.util.Arrays.fill(cache.vectors(), 0, ManifoldVectorField.COUNT * manifolds, 1.0f);
        cache.finish();
        return cache;
    }

    @Test
    void aLargeCacheIsScreenedWholeOverItsRanges() {
        int manifolds = 50_000;
        assertTrue(Recycler.reportsFinite(onePointManifolds(manifolds), RUNNER), "ordinary values");
        for (int at : new int[] {0, manifolds / 2, manifolds - 1}) {
            ManifoldCache nan = onePointManifolds(manifolds);
            nan.normal()[at] = Float.NaN;
            assertFalse(Recycler.reportsFinite(nan, RUNNER), "a NaN normal impulse at manifold " + at);
            ManifoldCache large = onePointManifolds(manifolds);
            large.vectors()[(ManifoldVectorField.COUNT - 1) * manifolds + at] = 0x1p127f;
            assertFalse(Recycler.reportsFinite(large, RUNNER), "a last vector component of 2^127 at manifold " + at);
        }
    }
}
