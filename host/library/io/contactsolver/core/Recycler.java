package io.contactsolver.core;

import static io.contactsolver.core.FieldOffsets.*;

import io.contactsolver.layout.ImpulseField;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The points a soft step solves, manifold by manifold, with contact recycling (docs/physics.md,
 * "Contact recycling"): a manifold of the batch whose body pair was a manifold in the previous step
 * is solved with the points that step solved, their anchors and normal kept from when they were
 * taken and their separation following the bodies' motion since, while the two bodies have moved
 * little relative to each other; otherwise it is solved with the batch's points, taken fresh.
 * Fresh points from collision detection jitter from step to step (a face's clipped corners come and
 * go, which face is the reference flips), and with them the points' warm starts: that jitter topples
 * tall stacks, and kept points do not.
 *
 * <p>A manifold is matched to the previous step's by its body pair (the k-th manifold of a pair in
 * this batch to the k-th of that pair in the last step). It is recycled when every point the last
 * step solved for it still holds: neither body has turned by more than {@link #MAX_TURN_DEGREES}
 * since the manifold was taken, and each point's anchors have drifted apart by at most the recycle
 * distance and by at most {@link #ARM_SHARE} of its shorter anchor on a body that moves:
 * {@code g = (x_b - x_a) + R(q_b q_b0^-1) r_b0 - R(q_a q_a0^-1) r_a0},
 * {@code |g| <= min(distance, ARM_SHARE |r|)} ({@code g} is 0 when taken, as both anchors meet at
 * the point then). A recycled point keeps {@code r_a0}, {@code r_b0}, {@code n0}, its separation is
 * {@code s0 + n0 . g}, and it starts from its last normal impulse; the manifold starts from its last
 * friction and angular vectors. A fresh point's anchors are {@code p - x_a}, {@code p - x_b} (the
 * world's position is 0, its orientation the identity), its normal and separation the batch's, its
 * warm start the previous result's impulses of the contact with its id, and the manifold's vectors
 * the sums of its points'.
 *
 * <p>The share keeps small bodies' contacts fresh enough: a 1 cm sphere's after a quarter of a
 * millimetre, a metre box's after about 4 cm, close to Box3D's 5 cm for such boxes.
 *
 * <p>{@link #plan} prepares the next result's {@link ManifoldCache}; {@link #write} puts the solved
 * points' ids and captures straight into it, and the backend its points' normal impulses and
 * manifolds' vectors ({@link ManifoldCache#normal}, {@link ManifoldCache#vectors}); {@link #report}
 * then gives each contact of the batch its impulses, and {@link #keep} completes the cache. The
 * plan and {@link #keep} run on the host for either backend; the OpenCL soft step writes the points
 * and reports on its device, with the twins in {@code kernels/recycling.cl}, so both solve and
 * report the same bits.
 */
public final class Recycler {
    /** The most a point's anchors may drift apart, as a share of its shorter anchor on a body that moves. */
    public static final float ARM_SHARE = 0.05f;
    /** {@link #ARM_SHARE} squared, in double as the test compares it. */
    public static final double ARM_SHARE_SQUARED = (double) ARM_SHARE * ARM_SHARE;
    /** The most either body may have turned since a manifold was taken for it to be recycled. */
    public static final float MAX_TURN_DEGREES = 10.0f;
    /** {@code cos^2} of half {@link #MAX_TURN_DEGREES}: a turn {@code d} is within it when {@code d_w^2} exceeds it. */
    public static final float MIN_HALF_TURN_COS2 = (float) (Math.cos(Math.toRadians(MAX_TURN_DEGREES / 2.0))
            * Math.cos(Math.toRadians(MAX_TURN_DEGREES / 2.0)));

    private static final int VECTOR = ManifoldVectorField.COUNT;
    private static final int CAPTURE = CaptureField.COUNT;
    /**
     * A manifold's scratch: each side's turn as a matrix (9 each); also the sums of {@link #takeFresh}
     * ({@link ManifoldVectorField}s) and after them a previous contact's impulses with their scratch
     * ({@link #REPORTED}).
     */
    public static final int SCRATCH = 18;
    public static final int TURN_A = 0;
    public static final int TURN_B = 9;

    private int manifoldCount;
    private int pointCount;
    private int recycledPoints;
    /** Per manifold: its first solved point (and the point count at {@code manifoldCount}). */
    private int[] pointStart = new int[1];
    private long pointStartVersion;
    /** Whether the last {@link #plan} ran to its end (its point starts are what their version says). */
    private boolean planSettled = true;
    private boolean matchIsIdentity;
    /** How many of {@link #previous} hold their own index from an earlier plan (each manifold its own previous one). */
    private int identityUpTo;
    private int uniformFate = MIXED;
    /**
     * The grouping, firsts version and count {@link #pointStart} was last copied from, null where a
     * plan wrote it otherwise since: while they stand, it holds those firsts without a compare.
     */
    private ManifoldGrouping pointStartFrom;
    private long pointStartFromVersion;
    private int pointStartFromCount;
    /** How many leading {@link #fate}s hold {@link #fateFill}, from a plan that gave every manifold one fate; none written since. */
    private int fateFilledUpTo;
    private byte fateFill;
    /** Per manifold: the previous step's manifold it was matched to, or -1. */
    private int[] previous = new int[0];
    /** Per manifold, before the points are written: {@link #FRESH}, {@link #KEPT}, or {@link #EITHER} (as many points either way). */
    private byte[] fate = new byte[0];
    public static final byte FRESH = 0;
    public static final byte KEPT = 1;
    public static final byte EITHER = 2;
    /** {@link #uniformFate()} where the manifolds' fates differ (or there are none). */
    public static final int MIXED = -1;
    /** A range's fate not merged yet. */
    private static final int UNSET = -2;
    /** Per solved point: its geometry ({@link GeometryField}, stride {@code pointCount}) and warm normal impulse. */
    private float[] geometry = new float[0];
    private float[] warmNormal = new float[0];
    /** Per manifold: its warm friction and angular vectors ({@link ManifoldVectorField}, stride {@code manifoldCount}). */
    private float[] warmVectors = new float[0];
    /** The previous step's manifolds by body: the first with that key body, and the next after each. */
    private int[] head = new int[0];
    private int[] next = new int[0];
    private boolean[] claimed = new boolean[0];
    /**
     * Per manifold, once the host wrote the points: the previous manifold whose points it kept, or
     * -1 where it took them fresh (or matched none).
     */
    private int[] keptFrom = new int[0];
    /**
     * The host's last write ({@link #write}): a number no other write of any recycler has, the cache
     * it wrote and that cache's version then; -1 and null where a device wrote the last points.
     */
    private long writeLineage = -1;
    private ManifoldCache writtenCache;
    /** Whether the last write left the kept manifolds' anchors and normals in their captures ({@link #placeAnchors}). */
    private boolean anchorsLeft;
    private long writtenCacheVersion;
    /**
     * The lineage of the write whose points this write's kept manifolds repeat, or -1: where the
     * previous step's cache is the one the host last wrote, unchanged since.
     */
    private long keptLineage = -1;
    private static final AtomicLong LINEAGES = new AtomicLong();
    /** Each previous point's {@code g} (3 floats), where {@link #holds} got that far before the layout was known. */
    private float[] gaps = new float[0];

    /**
     * What the previous step left: each current contact's previous contact by id
     * ({@link WarmStart#previousOf(int, int[])} of {@code matched}, -1 for none), the previous
     * impulses ({@code ImpulseField}, structure of arrays with stride {@code stride}; null where that
     * result holds none), the previous contacts' ids, and the previous manifolds. A previous soft
     * step's impulses are read from its manifolds ({@link #reportedImpulses}), the same bits as its
     * result's, so that a step warm starts alike whether or not that result wrote them.
     */
    public record Previous(WarmStart matched, FloatBuffer impulses, int stride, int[] contactIds, ManifoldCache cache) {
    }

    /**
     * Plans how every manifold of the batch is solved: each manifold matched to the previous step's
     * ({@link #previousManifolds()}), its fate ({@link #fates()}: kept, fresh, or either as its points
     * hold, which {@link #write} decides), and so its solved points ({@link #pointStart()});
     * {@code nextCache} prepared for them. The points, their starting impulses, ids and captures are
     * not written until {@link #write}, or a device writes them ({@link #writtenElsewhere}).
     *
     * @param last what the previous step left, or null for none
     * @param distance the recycle distance, m; 0 takes every manifold fresh
     * @param nextCache the cache this step's result keeps, not the previous one
     */
    public void plan(FieldBlock bodies, int bodyCount, FieldBlock contacts, FieldBlock links, int[] contactIds,
            int contactCount, ManifoldGrouping manifolds, MovableBodies movable, Previous last, float distance,
            ManifoldCache nextCache, ParallelRunner runner) {
        ManifoldCache cache = last == null ? null : last.cache();
        int count = manifolds.count();
        int[] firsts = manifolds.firsts();
        // the point starts' version covers their count too: more manifolds than the last plan's are new
        // values; and a plan that threw part way left starts its version does not stand for
        boolean recount = count != manifoldCount || !planSettled;
        planSettled = false;
        manifoldCount = count;
        boolean grown = previous.length < count;
        if (grown) {
            int room = Math.max(count, previous.length + (previous.length >> 1));
            previous = new int[room];
            identityUpTo = 0;
            fate = new byte[room];
            fateFilledUpTo = 0;
            pointStart = new int[room + 1];
        }
        boolean recycling = cache != null && cache.isValid() && distance > 0.0f;
        match(manifolds, bodyCount, recycling ? cache : null, runner);
        // which manifolds recycle, and so how many points each solves
        float limit = distance * distance;
        int[] match = previous;
        if (recycling && gaps.length < 3L * cache.pointCount()) {
            gaps = new float[3 * Math.max(cache.pointCount(), gaps.length / 3 * 3 / 2)];
        }
        float[] drifts = gaps;
        byte[] fates = fate;
        // every manifold fresh, or each its own last one with as many points as it has contacts now
        // (the last step solved its contacts, which were these manifolds'): one fate for all, and
        // each manifold's points are its contacts
        byte common = !recycling ? FRESH : matchIsIdentity && cache.holdsFirstsOf(manifolds)
                && cache.pointsAreContacts() ? EITHER : -1;
        if (common >= 0) {
            // a steady scene plans this every step: the fill and the compare of a million entries are skipped
            // where the last plan left the same
            if (fateFill != common || fateFilledUpTo < count) {
                Arrays.fill(fate, 0, count, common);
                fateFill = common;
                fateFilledUpTo = count;
            }
            uniformFate = count == 0 ? MIXED : common;
            boolean holdsFirsts = pointStartFrom == manifolds && pointStartFromVersion == manifolds.firstsVersion()
                    && pointStartFromCount == count;
            if (grown || recount || !holdsFirsts && !Arrays.equals(pointStart, 0, count + 1, firsts, 0, count + 1)) {
                System.arraycopy(firsts, 0, pointStart, 0, count + 1);
                pointStartVersion++;
            }
            pointStartFrom = manifolds;
            pointStartFromVersion = manifolds.firstsVersion();
            pointStartFromCount = count;
            finishPlan(bodies, contacts, links, contactIds, firsts, movable, last, distance, nextCache, runner);
            return;
        }
        // a manifold that solves as many points kept as fresh is tested where it is written, in one
        // pass over its captures; the others are tested first, for the layout to be known. Most
        // manifolds are the first kind, a compare of two counts (the box pyramid's 14,950: 0.10 ms on
        // 1 thread, 0.13 on a team of 2), so a team forms only from 16,384 a member
        AtomicInteger sharedFate = new AtomicInteger(UNSET);
        fateFilledUpTo = 0;
        pointStartFrom = null;
        runner.forRange(count, 1 << 14, (from, to) -> {
            double[] turns = new double[SCRATCH];
            float[] captured = new float[CAPTURE * ManifoldGrouping.MAX_POINTS];
            for (int m = from; m < to; m++) {
                int j = match[m];
                if (j < 0) {
                    fates[m] = FRESH;
                } else if (cache.pointStart()[j + 1] - cache.pointStart()[j] == firsts[m + 1] - firsts[m]) {
                    fates[m] = EITHER;
                } else {
                    fates[m] = holds(bodies.floats(), bodies.stride(), movable, capturesOf(cache, j, captured),
                            cache.pointStart(), j, firsts[m], links.ints(), links.stride(), limit, turns, drifts,
                            3 * cache.pointStart()[j]) ? KEPT : FRESH;
                }
            }
            // whether the range's manifolds share one fate, merged in any order to the same answer
            int shared = fates[from];
            for (int m = from + 1; m < to && shared != MIXED; m++) {
                shared = fates[m] == shared ? shared : MIXED;
            }
            int mine = shared;
            sharedFate.accumulateAndGet(mine, (x, y) -> x == UNSET ? y : x == y ? x : MIXED);
        });
        uniformFate = count == 0 ? MIXED : sharedFate.get();
        if (PrefixSums.exclusiveChanges(count, m -> fates[m] == KEPT
                ? cache.pointStart()[match[m] + 1] - cache.pointStart()[match[m]] : firsts[m + 1] - firsts[m],
                pointStart, runner) || grown || recount) {
            pointStartVersion++;
        }
        finishPlan(bodies, contacts, links, contactIds, firsts, movable, last, distance, nextCache, runner);
    }

    /** The plan's points counted, {@code nextCache} prepared for them, and what {@link #write} needs kept. */
    private void finishPlan(FieldBlock bodies, FieldBlock contacts, FieldBlock links, int[] contactIds, int[] firsts,
            MovableBodies movable, Previous last, float distance, ManifoldCache nextCache, ParallelRunner runner) {
        int points = pointStart[manifoldCount];
        pointCount = points;
        nextCache.prepare(manifoldCount, points);
        pending = new Plan(bodies, contacts, links, contactIds, firsts, movable, last, distance * distance, nextCache,
                runner);
        plannedCache = nextCache;
        planSettled = true;
    }

    /** What {@link #plan} leaves {@link #write}: the step's inputs, the cache it writes, the threads it writes on. */
    private record Plan(FieldBlock bodies, FieldBlock contacts, FieldBlock links, int[] contactIds, int[] firsts,
            MovableBodies movable, Previous last, float limit, ManifoldCache nextCache, ParallelRunner runner) {
    }

    /** The cache the last {@link #plan} prepared for this step's points. */
    private ManifoldCache plannedCache;

    /** The plan whose points are not written yet, or null. */
    private Plan pending;

    /**
     * The points {@link #plan} planned, on the host: every manifold's points written, kept or
     * fresh, with their geometry and warm start, and their ids and captures into the planned cache.
     * Does nothing where the points are written already.
     */
    public void write() {
        writePoints(true);
    }

    /**
     * {@link #write}, but a kept manifold's anchors and normal stay where they are already, in its
     * captures in the planned cache, and go into {@link #geometry} only when a reader asks for
     * them ({@link #placeAnchors}): for a backend whose rows read them only where the row cannot
     * stand as the last step left it, as the CPU's (nine of a kept point's ten geometry stores saved
     * where nearly every manifold is kept).
     */
    public void writeLeavingAnchors() {
        writePoints(false);
    }

    /** {@link #write}, a kept manifold's anchors and normal into the geometry or not. */
    private void writePoints(boolean anchors) {
        Plan plan = pending;
        if (plan == null) {
            return;
        }
        ParallelRunner runner = plan.runner();
        int count = manifoldCount;
        int points = pointCount;
        if (warmNormal.length < points) {
            int room = (int) Math.min(Integer.MAX_VALUE / GeometryField.COUNT - 8,
                    Math.max((long) points, warmNormal.length + (long) (warmNormal.length >> 1)));
            warmNormal = new float[room];
            geometry = new float[GeometryField.COUNT * room];
        }
        if (warmVectors.length < VECTOR * count) {
            warmVectors = new float[VECTOR * Math.max(count, warmVectors.length / VECTOR * 3 / 2)];
        }
        if (keptFrom.length < count) {
            keptFrom = new int[Math.max(count, keptFrom.length + (keptFrom.length >> 1))];
        }
        ManifoldCache lastCache = plan.last() == null ? null : plan.last().cache();
        keptLineage = lastCache != null && lastCache == writtenCache && lastCache.version() == writtenCacheVersion
                ? writeLineage : -1;
        AtomicInteger kept = new AtomicInteger(); // a sum of ints: the same whatever the order
        runner.forRange(count, 1 << 10, (from, to) -> {
            int keptHere = 0;
            float[] scratch = new float[SCRATCH];
            double[] turns = new double[SCRATCH];
            float[] near = new float[3 * ManifoldGrouping.MAX_POINTS];
            float[] captured = new float[CAPTURE * ManifoldGrouping.MAX_POINTS];
            for (int m = from; m < to; m++) {
                keptHere += writeManifold(plan, m, anchors, turns, near, scratch, captured);
            }
            kept.addAndGet(keptHere);
        });
        recycledPoints = kept.get();
        pending = null;
        writeLineage = LINEAGES.incrementAndGet();
        writtenCache = plan.nextCache();
        writtenCacheVersion = writtenCache.version();
        anchorsLeft = !anchors;
    }

    /**
     * Kept manifold {@code m}'s anchors and normal into {@link #geometry}, from its captures in the
     * cache the last write wrote, where that write left them there ({@link #writeLeavingAnchors});
     * else nothing. Manifolds apart may be placed at once.
     */
    public void placeAnchors(int m) {
        if (!anchorsLeft || keptFrom[m] < 0) {
            return;
        }
        FloatBuffer captures = writtenCache.captures();
        for (int at = pointStart[m]; at < pointStart[m + 1]; at++) {
            placeCaptured(captures, at, geometry, pointCount);
        }
    }

    /**
     * Manifold {@code m}'s points, kept or fresh as its fate and its points' drift decide: returns
     * how many were kept. A manifold kept by {@link #plan}'s test has its drifts in {@link #gaps};
     * one that may go either way is tested here, its drifts in {@code near}.
     */
    private int writeManifold(Plan plan, int m, boolean anchors, double[] turns, float[] near, float[] scratch,
            float[] captured) {
        ManifoldCache cache = plan.last() == null ? null : plan.last().cache();
        int j = previous[m];
        int[] firsts = plan.firsts();
        boolean either = fate[m] == EITHER;
        FloatBuffer bodies = plan.bodies().floats();
        int bodyStride = plan.bodies().stride();
        IntBuffer links = plan.links().ints();
        int contactStride = plan.links().stride();
        ManifoldCache next = plan.nextCache();
        if (fate[m] != FRESH) {
            capturesOf(cache, j, captured);
        }
        if (either ? holds(bodies, bodyStride, plan.movable(), captured, cache.pointStart(), j, firsts[m], links,
                contactStride, plan.limit(), turns, near, 0) : fate[m] == KEPT) {
            keepManifold(m, captured, cache.pointStart(), cache.ids(), cache.normal(), cache.vectors(),
                    cache.manifoldCount(), j, either ? near : gaps, either ? 0 : 3 * cache.pointStart()[j], pointStart,
                    pointCount, manifoldCount, anchors, geometry, warmNormal, warmVectors, next.captures(), next.ids());
            keptFrom[m] = j;
            return pointStart[m + 1] - pointStart[m];
        }
        keptFrom[m] = -1;
        takeFresh(bodies, bodyStride, plan.contacts().floats(), links, contactStride, plan.contactIds(), firsts[m],
                firsts[m + 1], m, plan.last(), scratch, pointStart, pointCount, manifoldCount, geometry, warmNormal,
                warmVectors, next.captures(), next.ids());
        return 0;
    }

    /**
     * The captures of the previous manifold {@code j}'s points into {@code dest} from index 0, in
     * one bulk read (a direct buffer read a float at a time costs several times more): what
     * {@link #holds} and {@link #keepManifold} read. Returns {@code dest}.
     */
    private static float[] capturesOf(ManifoldCache cache, int j, float[] dest) {
        int from = cache.pointStart()[j];
        int to = cache.pointStart()[j + 1];
        cache.captures().get(from * CAPTURE, dest, 0, (to - from) * CAPTURE);
        return dest;
    }

    /** Whether {@link #plan} has run and the points are not written yet. */
    public boolean writePending() {
        return pending != null;
    }

    /**
     * A device wrote the planned points (the twin of {@link #write}), {@code recycled} of them kept:
     * its geometry and warm values stay there, and this recycler's own are not this step's.
     */
    public void writtenElsewhere(int recycled) {
        recycledPoints = recycled;
        pending = null;
        writeLineage = -1;
        writtenCache = null;
        keptLineage = -1;
        anchorsLeft = false;
    }

    /**
     * The host's last {@link #write}: a number no other write of any recycler had, or -1 where a
     * device wrote the last points. The geometry {@link #geometry} holds is that write's.
     */
    public long writeLineage() {
        return writeLineage;
    }

    /**
     * Where the host wrote this step's points and the previous step's were the host's last write
     * before, unchanged since: that write's {@link #writeLineage}, else -1. A manifold then kept
     * from previous manifold {@code j} ({@link #keptFrom}) has the anchors and normal, to the bit,
     * that that write gave {@code j}: both are the captures the points were taken with.
     */
    public long keptLineage() {
        return keptLineage;
    }

    /** Per manifold of the host's last write: the previous manifold whose points it kept, or -1. */
    public int[] keptFrom() {
        return keptFrom;
    }

    /** Each manifold's previous manifold, or -1, as {@link #plan} matched them. */
    public int[] previousManifolds() {
        return previous;
    }

    /** The cache the last {@link #plan} prepared, which this step's points go to. */
    public ManifoldCache plannedCache() {
        return plannedCache;
    }

    /** Each manifold's fate as {@link #plan} decided it: {@link #FRESH}, {@link #KEPT} or {@link #EITHER}. */
    public byte[] fates() {
        return fate;
    }

    /** The squared recycle distance of the planned step, m^2. */
    public float plannedLimit() {
        return pending == null ? 0.0f : pending.limit();
    }

    /** The previous step's manifolds and impulses of the planned step, or null. */
    public Previous plannedPrevious() {
        return pending == null ? null : pending.last();
    }

    /**
     * Matches each manifold (its pair from its first contact) to the previous step's manifold of
     * the same pair, the k-th of a pair to the k-th, into {@link #previous}; -1 without one. In
     * order, on one thread: the k-th depends on the manifolds before; but where every manifold's
     * pair is the last step's at its own index, a check and a fill on the team.
     */
    private void match(ManifoldGrouping manifolds, int bodyCount, ManifoldCache cache, ParallelRunner runner) {
        manifolds.requirePairs(); // their version is only what it says once laid for this build
        int count = manifolds.count();
        matchIsIdentity = false;
        if (cache == null) {
            Arrays.fill(previous, 0, count, -1);
            identityUpTo = 0;
            return;
        }
        int old = cache.manifoldCount();
        int[] pairA = manifolds.pairA();
        int[] pairB = manifolds.pairB();
        if (samePairs(manifolds, cache)) {
            // the k-th manifold of a pair is the k-th of that pair in the last step: here, itself
            if (identityUpTo < count) {
                int[] match = previous;
                runner.forRange(count, 1 << 16, (from, to) -> {
                    for (int m = from; m < to; m++) {
                        match[m] = m;
                    }
                });
                identityUpTo = count;
            }
            matchIsIdentity = true;
            return;
        }
        // unmatched until a chain gives a manifold its previous one
        Arrays.fill(previous, 0, count, -1);
        identityUpTo = 0;
        if (head.length < bodyCount + 1) {
            head = new int[bodyCount + 1];
        }
        Arrays.fill(head, 0, bodyCount + 1, -1);
        if (next.length < old) {
            next = new int[Math.max(old, next.length + (next.length >> 1))];
            claimed = new boolean[next.length];
        }
        int[] oldA = cache.bodyA();
        int[] oldB = cache.bodyB();
        // chains in the previous step's order: filled back to front
        for (int j = old - 1; j >= 0; j--) {
            int key = keyBody(oldA[j], oldB[j]);
            claimed[j] = false;
            if (key < bodyCount) {
                next[j] = head[key + 1];
                head[key + 1] = j;
            } else {
                next[j] = -1;
            }
        }
        for (int m = 0; m < count; m++) {
            int a = pairA[m];
            int b = pairB[m];
            for (int j = head[keyBody(a, b) + 1]; j >= 0; j = next[j]) {
                if (!claimed[j] && oldA[j] == a && oldB[j] == b) {
                    claimed[j] = true;
                    previous[m] = j;
                    break;
                }
            }
        }
    }

    /**
     * Whether the batch's manifolds join the same body pairs as the last step's, in the same order
     * (a scene whose collision detection found the same pairs again): then each is matched to the
     * manifold at its own index, as the chains would match it, without building them. Where the
     * cache was kept from this grouping's pairs as they are, without a read.
     */
    private static boolean samePairs(ManifoldGrouping manifolds, ManifoldCache cache) {
        int count = manifolds.count();
        if (cache.manifoldCount() != count) {
            return false;
        }
        return cache.holdsPairsOf(manifolds) || Arrays.equals(manifolds.pairA(), 0, count, cache.bodyA(), 0, count)
                && Arrays.equals(manifolds.pairB(), 0, count, cache.bodyB(), 0, count);
    }

    /** The body a pair is chained under: the larger index, so the world ({@code -1}) only when both are. */
    private static int keyBody(int a, int b) {
        return Math.max(a, b);
    }

    /** Row {@code row} (0, 3 or 6) of the turn matrix at {@code at} times {@code (x, y, z)}. */
    private static double turned(double[] turns, int at, int row, double x, double y, double z) {
        return (turns[at + row] * x + turns[at + row + 1] * y) + turns[at + row + 2] * z;
    }

    /**
     * The body's turn since the capture, {@code d = q q0^-1} ({@code q0} at {@code old[at]}, w
     * first), as a row-major rotation matrix at {@code out[to]}; returns {@code d_w^2}, the squared
     * cosine of half the turn (1 for the world, whose orientation is the identity).
     */
    private static double turnSince(FloatBuffer bodies, int bodyStride, int body, float[] old, int at, double[] out,
            int to) {
        double w0 = old[at];
        double x0 = old[at + 1];
        double y0 = old[at + 2];
        double z0 = old[at + 3];
        double w = 1.0;
        double x = 0.0;
        double y = 0.0;
        double z = 0.0;
        if (body >= 0) {
            w = bodies.get(BODY_QW * bodyStride + body);
            x = bodies.get(BODY_QX * bodyStride + body);
            y = bodies.get(BODY_QY * bodyStride + body);
            z = bodies.get(BODY_QZ * bodyStride + body);
        }
        double dw = ((w * w0 + x * x0) + y * y0) + z * z0;
        double dx = ((x * w0 - w * x0) - y * z0) + z * y0;
        double dy = ((y * w0 - w * y0) - z * x0) + x * z0;
        double dz = ((z * w0 - w * z0) - x * y0) + y * x0;
        double xx = dx * dx;
        double yy = dy * dy;
        double zz = dz * dz;
        double xy = dx * dy;
        double xz = dx * dz;
        double yz = dy * dz;
        double wx = dw * dx;
        double wy = dw * dy;
        double wz = dw * dz;
        out[to] = 1.0 - 2.0 * (yy + zz);
        out[to + 1] = 2.0 * (xy - wz);
        out[to + 2] = 2.0 * (xz + wy);
        out[to + 3] = 2.0 * (xy + wz);
        out[to + 4] = 1.0 - 2.0 * (xx + zz);
        out[to + 5] = 2.0 * (yz - wx);
        out[to + 6] = 2.0 * (xz - wy);
        out[to + 7] = 2.0 * (yz + wx);
        out[to + 8] = 1.0 - 2.0 * (xx + yy);
        return dw * dw;
    }

    /**
     * Whether every point of the previous manifold {@code j} still holds for the bodies of contact
     * {@code c}: neither body turned too far since it was taken, and each point's anchors drifted
     * apart by at most {@code limit} (squared) and the arm's share. Leaves each point's {@code g} at
     * {@code gaps[gapAt + 3 i]} for the manifold's {@code i}-th point (rounded to float), where it got that far.
     * The manifold's captures are {@code old} from index 0 ({@link #capturesOf}).
     *
     * <p>In double: a body at rest turns by next to nothing, its orientation's vector part drifts to
     * 1e-20 and below, and float products of such numbers are subnormal, which the CPU computes on a
     * slow path (the test took 13 ms a step on a settling lattice of 1,019,200 contacts, then 136 ms
     * nine steps later). In double every such product is a normal number; the test's inputs are the
     * floats as stored and its one output that enters a solve, {@code g}, is rounded to float.
     */
    private static boolean holds(FloatBuffer bodies, int bodyStride, MovableBodies movable, float[] old,
            int[] oldPointStart, int j, int c, IntBuffer links, int contactStride, float limit, double[] turns,
            float[] gaps, int gapAt) {
        int a = links.get(LINK_A * contactStride + c);
        int b = links.get(LINK_B * contactStride + c);
        int from = oldPointStart[j];
        int to = oldPointStart[j + 1];
        // a manifold's points were taken together: its first point's orientations are all of theirs
        int first = 0;
        if (!(turnSince(bodies, bodyStride, a, old, first + CAPTURE_QAW, turns, TURN_A) > MIN_HALF_TURN_COS2)
                || !(turnSince(bodies, bodyStride, b, old, first + CAPTURE_QBW, turns, TURN_B) > MIN_HALF_TURN_COS2)) {
            return false;
        }
        double dx = (double) (b < 0 ? 0.0f : bodies.get(BODY_X * bodyStride + b))
                - (a < 0 ? 0.0f : bodies.get(BODY_X * bodyStride + a));
        double dy = (double) (b < 0 ? 0.0f : bodies.get(BODY_Y * bodyStride + b))
                - (a < 0 ? 0.0f : bodies.get(BODY_Y * bodyStride + a));
        double dz = (double) (b < 0 ? 0.0f : bodies.get(BODY_Z * bodyStride + b))
                - (a < 0 ? 0.0f : bodies.get(BODY_Z * bodyStride + a));
        boolean movesA = a >= 0 && movable.isMovable(a);
        boolean movesB = b >= 0 && movable.isMovable(b);
        for (int p = from; p < to; p++) {
            int o = (p - from) * CAPTURE;
            double rax = old[o + CAPTURE_RAX];
            double ray = old[o + CAPTURE_RAY];
            double raz = old[o + CAPTURE_RAZ];
            double rbx = old[o + CAPTURE_RBX];
            double rby = old[o + CAPTURE_RBY];
            double rbz = old[o + CAPTURE_RBZ];
            double gx = dx + (turned(turns, TURN_B, 0, rbx, rby, rbz) - turned(turns, TURN_A, 0, rax, ray, raz));
            double gy = dy + (turned(turns, TURN_B, 3, rbx, rby, rbz) - turned(turns, TURN_A, 3, rax, ray, raz));
            double gz = dz + (turned(turns, TURN_B, 6, rbx, rby, rbz) - turned(turns, TURN_A, 6, rax, ray, raz));
            int k = gapAt + 3 * (p - from);
            gaps[k] = (float) gx;
            gaps[k + 1] = (float) gy;
            gaps[k + 2] = (float) gz;
            double drift = (gx * gx + gy * gy) + gz * gz;
            double arm = Double.POSITIVE_INFINITY;
            if (movesA) {
                arm = (rax * rax + ray * ray) + raz * raz;
            }
            if (movesB) {
                arm = Math.min(arm, (rbx * rbx + rby * rby) + rbz * rbz);
            }
            if (!(drift <= limit && drift <= ARM_SHARE_SQUARED * arm)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Point {@code at}'s anchors and normal into {@code geometry} (structure of arrays with stride
     * {@code stride}) from its captures in {@code captures}, at {@code at * CAPTURE}.
     */
    private static void placeCaptured(FloatBuffer captures, int at, float[] geometry, int stride) {
        int o = at * CAPTURE;
        geometry[GEOM_RAX * stride + at] = captures.get(o + CAPTURE_RAX);
        geometry[GEOM_RAY * stride + at] = captures.get(o + CAPTURE_RAY);
        geometry[GEOM_RAZ * stride + at] = captures.get(o + CAPTURE_RAZ);
        geometry[GEOM_RBX * stride + at] = captures.get(o + CAPTURE_RBX);
        geometry[GEOM_RBY * stride + at] = captures.get(o + CAPTURE_RBY);
        geometry[GEOM_RBZ * stride + at] = captures.get(o + CAPTURE_RBZ);
        geometry[GEOM_NX * stride + at] = captures.get(o + CAPTURE_NX);
        geometry[GEOM_NY * stride + at] = captures.get(o + CAPTURE_NY);
        geometry[GEOM_NZ * stride + at] = captures.get(o + CAPTURE_NZ);
    }

    /**
     * Manifold {@code m} recycled from the previous manifold {@code j}, whose captures are {@code old}
     * from index 0 ({@link #capturesOf}) and points' {@code g} at {@code gaps[gapAt ..]}; its anchors
     * and normal into {@code geometry} only where {@code anchors} ({@link #writeLeavingAnchors}).
     */
    private static void keepManifold(int m, float[] old, int[] oldPointStart, IntBuffer oldIds, float[] oldNormal,
            float[] oldVectors, int oldManifolds, int j, float[] gaps, int gapAt, int[] pointStart, int points,
            int manifolds, boolean anchors, float[] geometry, float[] warmNormal, float[] warmVectors, FloatBuffer kept,
            IntBuffer keptIds) {
        int from = oldPointStart[j];
        int to = oldPointStart[j + 1];
        int stride = points;
        // the manifold's points are consecutive in both caches: their captures go over at once
        kept.put(pointStart[m] * CAPTURE, old, 0, (to - from) * CAPTURE);
        for (int p = from; p < to; p++) {
            int at = pointStart[m] + (p - from);
            int o = (p - from) * CAPTURE;
            float nx = old[o + CAPTURE_NX];
            float ny = old[o + CAPTURE_NY];
            float nz = old[o + CAPTURE_NZ];
            // the anchors and normal from the captures just kept: left there where the reader places them itself
            if (anchors) {
                placeCaptured(kept, at, geometry, stride);
            }
            int k = gapAt + 3 * (p - from);
            geometry[GEOM_S * stride + at] = old[o + CAPTURE_S]
                    + ((nx * gaps[k] + ny * gaps[k + 1]) + nz * gaps[k + 2]);
            keptIds.put(at, oldIds.get(p));
            warmNormal[at] = oldNormal[p];
        }
        for (int field = 0; field < VECTOR; field++) {
            warmVectors[field * manifolds + m] = oldVectors[field * oldManifolds + j];
        }
    }

    /**
     * Manifold {@code m} taken fresh from contacts {@code [first, end)}: each point's geometry and
     * capture from the batch and its bodies now, its warm normal impulse the previous contact's of
     * its id, and the manifold's vectors the sums of those contacts' tangential and angular impulses.
     */
    private static void takeFresh(FloatBuffer bodies, int bodyStride, FloatBuffer contacts, IntBuffer links,
            int contactStride, int[] contactIds, int first, int end, int m, Previous last, float[] sums,
            int[] pointStart, int points, int manifolds, float[] geometry, float[] warmNormal, float[] warmVectors,
            FloatBuffer kept, IntBuffer keptIds) {
        int a = links.get(LINK_A * contactStride + first);
        int b = links.get(LINK_B * contactStride + first);
        int stride = points;
        Arrays.fill(sums, 0, VECTOR, 0.0f);
        for (int c = first; c < end; c++) {
            int at = pointStart[m] + (c - first);
            int o = at * CAPTURE;
            for (int axis = 0; axis < 3; axis++) {
                float p = contacts.get((CONTACT_PX + axis) * contactStride + c);
                float xa = a < 0 ? 0.0f : bodies.get((BODY_X + axis) * bodyStride + a);
                float xb = b < 0 ? 0.0f : bodies.get((BODY_X + axis) * bodyStride + b);
                float n = contacts.get((CONTACT_NX + axis) * contactStride + c);
                geometry[(GEOM_RAX + axis) * stride + at] = p - xa;
                geometry[(GEOM_RBX + axis) * stride + at] = p - xb;
                geometry[(GEOM_NX + axis) * stride + at] = n;
                kept.put(o + CAPTURE_RAX + axis, p - xa);
                kept.put(o + CAPTURE_RBX + axis, p - xb);
                kept.put(o + CAPTURE_NX + axis, n);
            }
            float s = contacts.get(CONTACT_SEPARATION * contactStride + c);
            geometry[GEOM_S * stride + at] = s;
            kept.put(o + CAPTURE_S, s);
            for (int k = 0; k < 4; k++) {
                kept.put(o + CAPTURE_QAW + k, a < 0 ? (k == 0 ? 1.0f : 0.0f) : bodies.get((BODY_QW + k) * bodyStride + a));
                kept.put(o + CAPTURE_QBW + k, b < 0 ? (k == 0 ? 1.0f : 0.0f) : bodies.get((BODY_QW + k) * bodyStride + b));
            }
            keptIds.put(at, contactIds[c]);
            int p = last == null ? -1 : last.matched().previousOf(c, contactIds);
            if (p < 0 || !last.cache().isValid() && last.impulses() == null) {
                warmNormal[at] = 0.0f;
                continue;
            }
            if (last.cache().isValid()) {
                reportedImpulses(last.cache(), last.contactIds(), p, sums, VECTOR);
            } else {
                FloatBuffer old = last.impulses();
                for (int field = 0; field < IMPULSES; field++) {
                    sums[VECTOR + field] = old.get(field * last.stride() + p);
                }
            }
            warmNormal[at] = sums[VECTOR + IMPULSE_J];
            sums[0] += sums[VECTOR + IMPULSE_TX];
            sums[1] += sums[VECTOR + IMPULSE_TY];
            sums[2] += sums[VECTOR + IMPULSE_TZ];
            sums[3] += sums[VECTOR + IMPULSE_RX];
            sums[4] += sums[VECTOR + IMPULSE_RY];
            sums[5] += sums[VECTOR + IMPULSE_RZ];
        }
        warmVectors[MVEC_FX * manifolds + m] = sums[0];
        warmVectors[MVEC_FY * manifolds + m] = sums[1];
        warmVectors[MVEC_FZ * manifolds + m] = sums[2];
        warmVectors[MVEC_AX * manifolds + m] = sums[3];
        warmVectors[MVEC_AY * manifolds + m] = sums[4];
        warmVectors[MVEC_AZ * manifolds + m] = sums[5];
    }

    /**
     * Writes every contact's impulses ({@code ImpulseField}, structure of arrays with stride
     * {@code impulses.stride()}) from what the step solved, as {@code cache} holds it once
     * {@link #keep} completed it (its points' normal impulses, its manifolds' vectors):
     * {@link #reportedImpulses} for each contact of the step, whose ids are {@code contactIds}.
     */
    public static void report(ManifoldCache cache, int[] contactIds, FieldBlock impulses, ParallelRunner runner) {
        runner.forRange(cache.manifoldCount(), 1 << 10,
                (from, to) -> reportManifolds(cache, contactIds, impulses, from, to));
    }

    /** {@link #report} on the calling thread. */
    public static void reportSerially(ManifoldCache cache, int[] contactIds, FieldBlock impulses) {
        reportManifolds(cache, contactIds, impulses, 0, cache.manifoldCount());
    }

    /** {@link #report} for the contacts of manifolds {@code [from, to)}. */
    private static void reportManifolds(ManifoldCache cache, int[] contactIds, FieldBlock impulses, int from, int to) {
        int[] contactStart = cache.contactStart();
        int[] pointStart = cache.pointStart();
        float[] normal = cache.normal();
        float[] vectors = cache.vectors();
        int[] ids = cache.idArray();
        int manifolds = cache.manifoldCount();
        FloatBuffer out = impulses.floats();
        int stride = impulses.stride();
        float[] scratch = new float[REPORTED];
        for (int m = from; m < to; m++) {
            tally(contactStart, pointStart, normal, ids, contactIds, m, scratch, IMPULSES);
            for (int c = contactStart[m]; c < contactStart[m + 1]; c++) {
                contactImpulses(contactStart, pointStart, normal, vectors, manifolds, ids, contactIds, m, c,
                        scratch, IMPULSES, scratch, 0);
                for (int f = 0; f < IMPULSES; f++) {
                    out.put(f * stride + c, scratch[f]);
                }
            }
        }
    }

    /**
     * Whether {@link #report} is sure to write only finite impulses from {@code cache}, so that a
     * result may leave them to its first read: each manifold's normal impulses sum to a finite
     * total and no vector component's magnitude exceeds {@code 2^126}. A contact's normal impulse
     * is then at most its manifold's total (its point's own plus a share of the points without a
     * contact), its share of the vectors at most that over the total, a rounding or two above 1,
     * and each reported component finite. False (also for a cache that holds no step) leaves the
     * report to be made and scanned now.
     */
    public static boolean reportsFinite(ManifoldCache cache, ParallelRunner runner) {
        int[] pointStart = cache.pointStart();
        float[] normal = cache.normal(); // fetches a device's copy first: the check below must follow it
        float[] vectors = cache.vectors();
        if (!cache.isValid()) {
            return false; // no step's manifolds to report from (a device's copy that could not be fetched)
        }
        int manifolds = cache.manifoldCount();
        AtomicBoolean overflows = new AtomicBoolean(); // set by any range: the same whatever the order
        runner.forRange(manifolds, 1 << 12, (from, to) -> {
            for (int m = from; m < to; m++) {
                float total = 0.0f;
                for (int p = pointStart[m]; p < pointStart[m + 1]; p++) {
                    total += normal[p];
                }
                if (!(Math.abs(total) <= Float.MAX_VALUE)) {
                    overflows.set(true);
                    return;
                }
            }
            for (int field = 0; field < ManifoldVectorField.COUNT; field++) {
                for (int i = field * manifolds + from, end = field * manifolds + to; i < end; i++) {
                    if (!(Math.abs(vectors[i]) <= REPORTABLE_VECTOR)) {
                        overflows.set(true);
                        return;
                    }
                }
            }
        });
        return !overflows.get();
    }

    /** The largest vector component {@link #reportsFinite} lets a result report later: {@code 2^126}. */
    private static final float REPORTABLE_VECTOR = 0x1p126f;

    /**
     * Contact {@code contact}'s impulses, of the step that kept {@code cache} (its contacts' ids
     * {@code contactIds}), into {@code dest[at .. at + ImpulseField.COUNT)} in {@code ImpulseField}
     * order: what {@link #report} writes for it, bit for bit. The {@link #REPORTED} floats from
     * {@code at} on are written, the ones after the impulses as scratch, so no call allocates. A
     * contact gets the normal impulse of the solved point with its id (a fresh manifold's points
     * are its contacts); what a recycled
     * manifold's points without a contact carry is shared equally among its contacts, so a
     * manifold's contacts report all it carries. The vectors go to the contacts in proportion to
     * their normal impulses (equal shares when the manifold carries none). A zero is +0.
     */
    public static void reportedImpulses(ManifoldCache cache, int[] contactIds, int contact, float[] dest, int at) {
        int[] contactStart = cache.contactStart();
        // the manifold holding the contact: the last whose first contact is not above it
        int low = 0;
        int high = cache.manifoldCount() - 1;
        while (low < high) {
            int mid = (low + high + 1) >>> 1;
            if (contactStart[mid] <= contact) {
                low = mid;
            } else {
                high = mid - 1;
            }
        }
        tally(contactStart, cache.pointStart(), cache.normal(), cache.idArray(), contactIds, low, dest, at + IMPULSES);
        contactImpulses(contactStart, cache.pointStart(), cache.normal(), cache.vectors(), cache.manifoldCount(),
                cache.idArray(), contactIds, low, contact, dest, at + IMPULSES, dest, at);
    }

    private static final int IMPULSES = ImpulseField.COUNT;
    /** The floats {@link #reportedImpulses} writes: a contact's {@code ImpulseField}s, then the {@link #tally} it works from. */
    public static final int REPORTED = IMPULSES + ReportTally.COUNT;

    /** Whether contacts {@code [first, end)} have the ids of solved points {@code [from, to)}, in that order. */
    private static boolean sameIds(int[] contactIds, int first, int end, int[] ids, int from, int to) {
        if (end - first != to - from) {
            return false;
        }
        for (int c = first; c < end; c++) {
            if (contactIds[c] != ids[from + (c - first)]) {
                return false;
            }
        }
        return true;
    }

    /** The contact of {@code [first, end)} with id {@code id}, or -1. */
    private static int contactOf(int[] contactIds, int first, int end, int id) {
        for (int c = first; c < end; c++) {
            if (contactIds[c] == id) {
                return c;
            }
        }
        return -1;
    }

    /** The solved point of manifold {@code m} (its points from {@code pointStart[m]}) with id {@code id}, or -1. */
    private static int pointOf(int[] pointStart, int[] ids, int m, int id) {
        for (int p = pointStart[m]; p < pointStart[m + 1]; p++) {
            if (ids[p] == id) {
                return p;
            }
        }
        return -1;
    }

    /**
     * Manifold {@code m}'s {@link ReportTally} figures into {@code tally[at ..]}: its contacts
     * {@code [contactStart[m], contactStart[m + 1])}, its solved points from {@code pointStart[m]}
     * with their normal impulses and ids.
     */
    private static void tally(int[] contactStart, int[] pointStart, float[] normal, int[] ids, int[] contactIds,
            int m, float[] tally, int at) {
        int first = contactStart[m];
        int end = contactStart[m + 1];
        // a fresh manifold's points are its contacts, and so is a recycled one's whose points all persist
        boolean same = sameIds(contactIds, first, end, ids, pointStart[m], pointStart[m + 1]);
        float total = 0.0f;
        float unmatched = 0.0f;
        for (int p = pointStart[m]; p < pointStart[m + 1]; p++) {
            total += normal[p];
            if (!same && contactOf(contactIds, first, end, ids[p]) < 0) {
                unmatched += normal[p];
            }
        }
        tally[at + TALLY_TOTAL] = total;
        tally[at + TALLY_SPREAD] = unmatched / (end - first);
        tally[at + TALLY_SAME] = same ? 1.0f : 0.0f;
    }

    /**
     * Contact {@code c} of manifold {@code m}, its {@link #tally} at {@code tally[t ..]}: its impulses
     * into {@code dest[at ..]}; the manifolds' vectors with stride {@code manifolds}.
     */
    private static void contactImpulses(int[] contactStart, int[] pointStart, float[] normal, float[] vectors,
            int manifolds, int[] ids, int[] contactIds, int m, int c, float[] tally, int t, float[] dest, int at) {
        int first = contactStart[m];
        int count = contactStart[m + 1] - first;
        int solved = pointStart[m];
        float total = tally[t + TALLY_TOTAL];
        float j;
        if (tally[t + TALLY_SAME] != 0.0f) {
            j = normal[solved + (c - first)];
        } else {
            int p = pointOf(pointStart, ids, m, contactIds[c]);
            j = (p >= 0 ? normal[p] : 0.0f) + tally[t + TALLY_SPREAD];
        }
        float share = total > 0.0f ? j / total : 1.0f / count;
        dest[at + IMPULSE_J] = j;
        dest[at + IMPULSE_TX] = vectors[MVEC_FX * manifolds + m] * share + 0.0f;
        dest[at + IMPULSE_TY] = vectors[MVEC_FY * manifolds + m] * share + 0.0f;
        dest[at + IMPULSE_TZ] = vectors[MVEC_FZ * manifolds + m] * share + 0.0f;
        dest[at + IMPULSE_RX] = vectors[MVEC_AX * manifolds + m] * share + 0.0f;
        dest[at + IMPULSE_RY] = vectors[MVEC_AY * manifolds + m] * share + 0.0f;
        dest[at + IMPULSE_RZ] = vectors[MVEC_AZ * manifolds + m] * share + 0.0f;
    }

    /**
     * Completes {@code cache} (which {@link #write} or a device wrote the points' ids and captures into, and
     * the backend their normal impulses and the manifolds' vectors) with each manifold's pair,
     * contacts and points, for the next step; the pairs ({@link ManifoldGrouping#layPairs}),
     * contacts and point starts are copied only where the cache does not hold them as they are.
     */
    public void keep(ManifoldGrouping manifolds, ManifoldCache cache) {
        // a cache kept from this grouping's pairs and firsts as they are holds them already
        if (!cache.holdsPairsOf(manifolds)) {
            System.arraycopy(manifolds.pairA(), 0, cache.bodyA(), 0, manifoldCount);
            System.arraycopy(manifolds.pairB(), 0, cache.bodyB(), 0, manifoldCount);
        }
        if (!cache.holdsFirstsOf(manifolds)) {
            System.arraycopy(manifolds.firsts(), 0, cache.contactStart(), 0, manifoldCount + 1);
        }
        if (!cache.holdsPointStartOf(this)) {
            System.arraycopy(pointStart, 0, cache.pointStart(), 0, manifoldCount + 1);
        }
        // no manifold kept other points than its contacts: each one's points are its contacts
        cache.recordStructure(manifolds, this, uniformFate == FRESH || uniformFate == EITHER);
        cache.finish();
    }

    /** Whether the last {@link #plan} matched every manifold to the previous step's at its own index. */
    public boolean matchIsIdentity() {
        return matchIsIdentity;
    }

    /** The fate every manifold of the last {@link #plan} shares ({@link #FRESH}, {@link #KEPT}, {@link #EITHER}), or {@link #MIXED}. */
    public int uniformFate() {
        return uniformFate;
    }

    /** Moves whenever a {@link #plan} lays other point starts ({@link #pointStart()}) than the plan before. */
    public long pointStartVersion() {
        return pointStartVersion;
    }

    /** The manifolds of the last {@link #plan}. */
    public int manifoldCount() {
        return manifoldCount;
    }

    /** The points the last {@link #plan} chose to solve. */
    public int pointCount() {
        return pointCount;
    }

    /** How many of them were recycled. */
    public int recycledCount() {
        return recycledPoints;
    }

    /** Manifold {@code m}'s solved points are {@code [pointStart()[m], pointStart()[m + 1])}. */
    public int[] pointStart() {
        return pointStart;
    }

    /** Each solved point's {@link GeometryField}s, structure of arrays with stride {@link #pointCount()}. */
    public float[] geometry() {
        return geometry;
    }

    /** Each solved point's starting normal impulse. */
    public float[] warmNormal() {
        return warmNormal;
    }

    /** Each manifold's starting {@link ManifoldVectorField}s, structure of arrays with stride {@link #manifoldCount()}. */
    public float[] warmVectors() {
        return warmVectors;
    }
}
