package io.contactsolver.core;

import static io.contactsolver.core.FieldOffsets.*;

import io.contactsolver.layout.ContactBody;
import io.contactsolver.layout.ImpulseField;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.util.Arrays;

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
 * since the point was taken, and its anchors have drifted apart by at most the recycle distance and
 * by at most {@link #ARM_SHARE} of its shorter anchor on a body that moves:
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
 * <p>After the solve, {@link #report} gives each contact of the batch its impulses, and
 * {@link #keep} stores the solved manifolds in the result for the next step. Runs on the host before
 * either backend, so both solve the same bits.
 */
public final class Recycler {
    /** The most a point's anchors may drift apart, as a share of its shorter anchor on a body that moves. */
    public static final float ARM_SHARE = 0.05f;
    /** The most either body may have turned since a manifold was taken for it to be recycled. */
    public static final float MAX_TURN_DEGREES = 10.0f;
    /** {@code cos^2} of half {@link #MAX_TURN_DEGREES}: a turn {@code dq} is within it when {@code (q . q0)^2} exceeds it. */
    static final float MIN_HALF_TURN_COS2 = (float) (Math.cos(Math.toRadians(MAX_TURN_DEGREES / 2.0))
            * Math.cos(Math.toRadians(MAX_TURN_DEGREES / 2.0)));

    private static final int VECTOR = ManifoldVectorField.COUNT;
    /** {@link #gap}'s scratch (g, the two cosines, then each side's turned anchor), and the sums of {@link #takeFresh}. */
    private static final int SCRATCH = 11;

    private int manifoldCount;
    private int pointCount;
    private int recycledPoints;
    /** Per manifold: its first solved point (and the point count at {@code manifoldCount}). */
    private int[] pointStart = new int[1];
    /** Per manifold: the previous step's manifold it was matched to, or -1; then whether it is recycled. */
    private int[] previous = new int[0];
    private boolean[] recycled = new boolean[0];
    /** Per solved point: its geometry ({@link GeometryField}, stride {@code pointCount}), warm normal impulse, id, capture. */
    private float[] geometry = new float[0];
    private float[] warmNormal = new float[0];
    private int[] ids = new int[0];
    private float[] captures = new float[0];
    /** Per manifold: its warm friction and angular vectors ({@link ManifoldVectorField}, stride {@code manifoldCount}). */
    private float[] warmVectors = new float[0];
    /** The previous step's manifolds by body: the first with that key body, and the next after each. */
    private int[] head = new int[0];
    private int[] next = new int[0];
    private boolean[] claimed = new boolean[0];

    /**
     * Chooses the points of every manifold of the batch and their starting impulses.
     *
     * @param warm the previous result's impulses matched by id ({@code ImpulseField}, structure of
     *     arrays with stride {@code contactCount}), or null
     * @param cache the previous step's manifolds, or null (or not valid) for none
     * @param distance the recycle distance, m; 0 takes every manifold fresh
     */
    public void prepare(FieldBlock bodies, int bodyCount, FieldBlock contacts, FieldBlock links, int[] contactIds,
            int contactCount, ManifoldGrouping manifolds, MovableBodies movable, float[] warm, ManifoldCache cache,
            float distance, ParallelRunner runner) {
        int count = manifolds.count();
        int[] firsts = manifolds.firsts();
        manifoldCount = count;
        if (previous.length < count) {
            int room = Math.max(count, previous.length + (previous.length >> 1));
            previous = new int[room];
            recycled = new boolean[room];
            pointStart = new int[room + 1];
        }
        boolean recycling = cache != null && cache.isValid() && distance > 0.0f;
        match(links, firsts, count, bodyCount, recycling ? cache : null);
        // which manifolds recycle, and so how many points each solves
        float limit = distance * distance;
        int[] match = previous;
        boolean[] keep = recycled;
        runner.forRange(count, 1 << 10, (from, to) -> {
            float[] scratch = new float[SCRATCH];
            for (int m = from; m < to; m++) {
                keep[m] = match[m] >= 0 && holds(bodies, movable, cache, match[m], firsts[m], links, limit, scratch);
            }
        });
        int points = 0;
        int kept = 0;
        for (int m = 0; m < count; m++) {
            pointStart[m] = points;
            int solved = keep[m] ? cache.pointStart()[match[m] + 1] - cache.pointStart()[match[m]]
                    : firsts[m + 1] - firsts[m];
            points += solved;
            kept += keep[m] ? solved : 0;
        }
        pointStart[count] = points;
        pointCount = points;
        recycledPoints = kept;
        if (ids.length < points) {
            int room = (int) Math.min(Integer.MAX_VALUE / CaptureField.COUNT - 8,
                    Math.max((long) points, ids.length + (long) (ids.length >> 1)));
            ids = new int[room];
            warmNormal = new float[room];
            geometry = new float[GeometryField.COUNT * room];
            captures = new float[CaptureField.COUNT * room];
        }
        if (warmVectors.length < VECTOR * count) {
            warmVectors = new float[VECTOR * Math.max(count, warmVectors.length / VECTOR * 3 / 2)];
        }
        runner.forRange(count, 1 << 10, (from, to) -> {
            float[] scratch = new float[SCRATCH];
            for (int m = from; m < to; m++) {
                if (keep[m]) {
                    keepManifold(bodies, links, firsts[m], m, cache, match[m], scratch);
                } else {
                    takeFresh(bodies, contacts, links, contactIds, contactCount, firsts[m], firsts[m + 1], m, warm,
                            scratch);
                }
            }
        });
    }

    /**
     * Matches each manifold (its pair from its first contact) to the previous step's manifold of
     * the same pair, the k-th of a pair to the k-th, into {@link #previous}; -1 without one. In
     * order, on one thread: the k-th depends on the manifolds before.
     */
    private void match(FieldBlock links, int[] firsts, int count, int bodyCount, ManifoldCache cache) {
        Arrays.fill(previous, 0, count, -1);
        if (cache == null) {
            return;
        }
        int old = cache.manifoldCount();
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
        IntBuffer ints = links.ints();
        for (int m = 0; m < count; m++) {
            int a = ints.get(ContactBody.A.ordinal() * links.stride() + firsts[m]);
            int b = ints.get(ContactBody.B.ordinal() * links.stride() + firsts[m]);
            for (int j = head[keyBody(a, b) + 1]; j >= 0; j = next[j]) {
                if (!claimed[j] && oldA[j] == a && oldB[j] == b) {
                    claimed[j] = true;
                    previous[m] = j;
                    break;
                }
            }
        }
    }

    /** The body a pair is chained under: the larger index, so the world ({@code -1}) never is unless both are. */
    private static int keyBody(int a, int b) {
        return Math.max(a, b);
    }

    /**
     * Whether every point of the previous manifold {@code j} still holds for the bodies of contact
     * {@code c}: neither body turned too far, and its anchors' drift within {@code limit} (squared)
     * and the arm's share.
     */
    private static boolean holds(FieldBlock bodies, MovableBodies movable, ManifoldCache cache, int j, int c,
            FieldBlock links, float limit, float[] scratch) {
        IntBuffer ints = links.ints();
        int a = ints.get(ContactBody.A.ordinal() * links.stride() + c);
        int b = ints.get(ContactBody.B.ordinal() * links.stride() + c);
        int[] starts = cache.pointStart();
        float[] old = cache.captures();
        int stride = cache.pointCount();
        for (int p = starts[j]; p < starts[j + 1]; p++) {
            gap(bodies, a, b, old, stride, p, scratch);
            if (!(scratch[3] > MIN_HALF_TURN_COS2 && scratch[4] > MIN_HALF_TURN_COS2)) {
                return false;
            }
            float drift = (scratch[0] * scratch[0] + scratch[1] * scratch[1]) + scratch[2] * scratch[2];
            if (!(drift <= limit && drift <= armLimit(movable, a, b, old, stride, p))) {
                return false;
            }
        }
        return true;
    }

    /**
     * {@code (ARM_SHARE |r|)^2} for capture {@code p}: {@code |r|} the shorter of its anchors on a
     * body that moves, or infinity if neither moves.
     */
    private static float armLimit(MovableBodies movable, int a, int b, float[] old, int stride, int p) {
        float shorter = Float.POSITIVE_INFINITY;
        for (int side = 0; side < 2; side++) {
            int body = side == 0 ? a : b;
            if (body >= 0 && movable.isMovable(body)) {
                int anchor = side == 0 ? CAPTURE_RAX : CAPTURE_RBX;
                float x = old[anchor * stride + p];
                float y = old[(anchor + 1) * stride + p];
                float z = old[(anchor + 2) * stride + p];
                shorter = Math.min(shorter, (x * x + y * y) + z * z);
            }
        }
        return ARM_SHARE * ARM_SHARE * shorter;
    }

    /**
     * {@code g} of capture {@code p} for bodies {@code a}, {@code b} now, into {@code out[0..2]}, and
     * each body's {@code (q . q0)^2} into {@code out[3]}, {@code out[4]}; the turned anchors go to
     * {@code out[5..7]} (a) and {@code out[8..10]} (b).
     */
    private static void gap(FieldBlock bodies, int a, int b, float[] old, int stride, int p, float[] out) {
        float cosA = turned(bodies, a, old, stride, p, CAPTURE_QAW, CAPTURE_RAX, out, 5);
        float cosB = turned(bodies, b, old, stride, p, CAPTURE_QBW, CAPTURE_RBX, out, 8);
        FloatBuffer f = bodies.floats();
        int s = bodies.stride();
        for (int axis = 0; axis < 3; axis++) {
            float xa = a < 0 ? 0.0f : f.get((BODY_X + axis) * s + a);
            float xb = b < 0 ? 0.0f : f.get((BODY_X + axis) * s + b);
            out[axis] = (xb - xa) + (out[8 + axis] - out[5 + axis]);
        }
        out[3] = cosA * cosA;
        out[4] = cosB * cosB;
    }

    /**
     * Turns capture {@code p}'s anchor (at field {@code anchor}) by the body's rotation since the
     * capture, {@code d = q q0^-1}, into {@code out[at .. at+2]}; returns {@code q . q0}, the cosine
     * of half that turn (1 for the world, whose orientation is the identity).
     */
    private static float turned(FieldBlock bodies, int body, float[] old, int stride, int p, int q0Field, int anchor,
            float[] out, int at) {
        float rx = old[anchor * stride + p];
        float ry = old[(anchor + 1) * stride + p];
        float rz = old[(anchor + 2) * stride + p];
        float w0 = old[q0Field * stride + p];
        float x0 = old[(q0Field + 1) * stride + p];
        float y0 = old[(q0Field + 2) * stride + p];
        float z0 = old[(q0Field + 3) * stride + p];
        float w = 1.0f;
        float x = 0.0f;
        float y = 0.0f;
        float z = 0.0f;
        if (body >= 0) {
            FloatBuffer f = bodies.floats();
            int s = bodies.stride();
            w = f.get(BODY_QW * s + body);
            x = f.get(BODY_QX * s + body);
            y = f.get(BODY_QY * s + body);
            z = f.get(BODY_QZ * s + body);
        }
        float dw = ((w * w0 + x * x0) + y * y0) + z * z0;
        float dx = ((x * w0 - w * x0) - y * z0) + z * y0;
        float dy = ((y * w0 - w * y0) - z * x0) + x * z0;
        float dz = ((z * w0 - w * z0) - x * y0) + y * x0;
        // R(d) r = r + 2 dw (v x r) + 2 v x (v x r), v = (dx, dy, dz)
        float cx = dy * rz - dz * ry;
        float cy = dz * rx - dx * rz;
        float cz = dx * ry - dy * rx;
        out[at] = rx + 2.0f * (dw * cx + (dy * cz - dz * cy));
        out[at + 1] = ry + 2.0f * (dw * cy + (dz * cx - dx * cz));
        out[at + 2] = rz + 2.0f * (dw * cz + (dx * cy - dy * cx));
        return dw;
    }

    /** Manifold {@code m} recycled from the previous manifold {@code j}: its points, their impulses and its vectors. */
    private void keepManifold(FieldBlock bodies, FieldBlock links, int c, int m, ManifoldCache cache, int j,
            float[] scratch) {
        IntBuffer ints = links.ints();
        int a = ints.get(ContactBody.A.ordinal() * links.stride() + c);
        int b = ints.get(ContactBody.B.ordinal() * links.stride() + c);
        float[] old = cache.captures();
        int oldStride = cache.pointCount();
        int from = cache.pointStart()[j];
        int to = cache.pointStart()[j + 1];
        int stride = pointCount;
        for (int p = from; p < to; p++) {
            int at = pointStart[m] + (p - from);
            gap(bodies, a, b, old, oldStride, p, scratch);
            for (int field = 0; field < CaptureField.COUNT; field++) {
                captures[field * stride + at] = old[field * oldStride + p];
            }
            for (int axis = 0; axis < 3; axis++) {
                geometry[(GEOM_RAX + axis) * stride + at] = old[(CAPTURE_RAX + axis) * oldStride + p];
                geometry[(GEOM_RBX + axis) * stride + at] = old[(CAPTURE_RBX + axis) * oldStride + p];
                geometry[(GEOM_NX + axis) * stride + at] = old[(CAPTURE_NX + axis) * oldStride + p];
            }
            float nx = old[CAPTURE_NX * oldStride + p];
            float ny = old[CAPTURE_NY * oldStride + p];
            float nz = old[CAPTURE_NZ * oldStride + p];
            geometry[GEOM_S * stride + at] = old[CAPTURE_S * oldStride + p]
                    + ((nx * scratch[0] + ny * scratch[1]) + nz * scratch[2]);
            ids[at] = cache.ids()[p];
            warmNormal[at] = cache.normal()[p];
        }
        for (int field = 0; field < VECTOR; field++) {
            warmVectors[field * manifoldCount + m] = cache.vectors()[field * cache.manifoldCount() + j];
        }
    }

    /**
     * Manifold {@code m} taken fresh from contacts {@code [first, end)}: each point's geometry and
     * capture from the batch and its bodies now, its warm normal impulse from {@code warm}, and the
     * manifold's vectors the sums of its points' tangential and angular impulses.
     */
    private void takeFresh(FieldBlock bodies, FieldBlock contacts, FieldBlock links, int[] contactIds,
            int contactCount, int first, int end, int m, float[] warm, float[] sums) {
        IntBuffer ints = links.ints();
        int a = ints.get(ContactBody.A.ordinal() * links.stride() + first);
        int b = ints.get(ContactBody.B.ordinal() * links.stride() + first);
        FloatBuffer f = contacts.floats();
        int cs = contacts.stride();
        FloatBuffer bf = bodies.floats();
        int bs = bodies.stride();
        int stride = pointCount;
        Arrays.fill(sums, 0, VECTOR, 0.0f);
        for (int c = first; c < end; c++) {
            int at = pointStart[m] + (c - first);
            for (int axis = 0; axis < 3; axis++) {
                float p = f.get((CONTACT_PX + axis) * cs + c);
                float xa = a < 0 ? 0.0f : bf.get((BODY_X + axis) * bs + a);
                float xb = b < 0 ? 0.0f : bf.get((BODY_X + axis) * bs + b);
                float n = f.get((CONTACT_NX + axis) * cs + c);
                geometry[(GEOM_RAX + axis) * stride + at] = p - xa;
                geometry[(GEOM_RBX + axis) * stride + at] = p - xb;
                geometry[(GEOM_NX + axis) * stride + at] = n;
                captures[(CAPTURE_RAX + axis) * stride + at] = p - xa;
                captures[(CAPTURE_RBX + axis) * stride + at] = p - xb;
                captures[(CAPTURE_NX + axis) * stride + at] = n;
            }
            float s = f.get(CONTACT_SEPARATION * cs + c);
            geometry[GEOM_S * stride + at] = s;
            captures[CAPTURE_S * stride + at] = s;
            for (int k = 0; k < 4; k++) {
                captures[(CAPTURE_QAW + k) * stride + at] = a < 0 ? (k == 0 ? 1.0f : 0.0f) : bf.get((BODY_QW + k) * bs + a);
                captures[(CAPTURE_QBW + k) * stride + at] = b < 0 ? (k == 0 ? 1.0f : 0.0f) : bf.get((BODY_QW + k) * bs + b);
            }
            ids[at] = contactIds[c];
            warmNormal[at] = warm != null ? warm[IMPULSE_J * contactCount + c] : 0.0f;
            if (warm != null) {
                for (int field = 0; field < VECTOR; field++) {
                    sums[field] += warm[(IMPULSE_TX + field) * contactCount + c];
                }
            }
        }
        for (int field = 0; field < VECTOR; field++) {
            warmVectors[field * manifoldCount + m] = sums[field];
        }
    }

    /**
     * Writes every contact's impulses ({@code ImpulseField}, structure of arrays with stride
     * {@code stride}) from what the step solved: per solved point its normal impulse
     * ({@code normal}, stride of the solved points), per manifold its vectors ({@code vectors},
     * {@link ManifoldVectorField}, stride {@link #manifoldCount()}). A contact gets the normal
     * impulse of the solved point with its id (a fresh manifold's points are its contacts); what a
     * recycled manifold's points without a contact carry is shared equally among its contacts, so a
     * manifold's contacts report all it carries. The vectors go to the contacts in proportion to
     * their normal impulses (equal shares when the manifold carries none). A zero is written +0.
     */
    public void report(ManifoldGrouping manifolds, int[] contactIds, float[] normal, float[] vectors, FieldBlock impulses,
            ParallelRunner runner) {
        int[] firsts = manifolds.firsts();
        FloatBuffer out = impulses.floats();
        int stride = impulses.stride();
        runner.forRange(manifoldCount, 1 << 10, (from, to) -> {
            for (int m = from; m < to; m++) {
                int first = firsts[m];
                int end = firsts[m + 1];
                int count = end - first;
                float total = 0.0f;
                float unmatched = 0.0f;
                for (int p = pointStart[m]; p < pointStart[m + 1]; p++) {
                    total += normal[p];
                    if (recycled[m] && contactOf(contactIds, first, end, ids[p]) < 0) {
                        unmatched += normal[p];
                    }
                }
                float spread = unmatched / count;
                for (int c = first; c < end; c++) {
                    float j;
                    if (recycled[m]) {
                        int p = pointOf(m, contactIds[c]);
                        j = (p >= 0 ? normal[p] : 0.0f) + spread;
                    } else {
                        j = normal[pointStart[m] + (c - first)];
                    }
                    float share = total > 0.0f ? j / total : 1.0f / count;
                    out.put(IMPULSE_J * stride + c, j);
                    for (int field = 0; field < VECTOR; field++) {
                        out.put((IMPULSE_TX + field) * stride + c, vectors[field * manifoldCount + m] * share + 0.0f);
                    }
                }
            }
        });
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

    /** The solved point of manifold {@code m} with id {@code id}, or -1. */
    private int pointOf(int m, int id) {
        for (int p = pointStart[m]; p < pointStart[m + 1]; p++) {
            if (ids[p] == id) {
                return p;
            }
        }
        return -1;
    }

    /**
     * Stores the solved manifolds in {@code cache} for the next step: each manifold's pair, its
     * points' ids, captures and normal impulses ({@code normal}) and its vectors ({@code vectors}).
     */
    public void keep(FieldBlock links, ManifoldGrouping manifolds, float[] normal, float[] vectors, ManifoldCache cache) {
        cache.prepare(manifoldCount, pointCount);
        int[] firsts = manifolds.firsts();
        IntBuffer ints = links.ints();
        for (int m = 0; m < manifoldCount; m++) {
            cache.bodyA()[m] = ints.get(ContactBody.A.ordinal() * links.stride() + firsts[m]);
            cache.bodyB()[m] = ints.get(ContactBody.B.ordinal() * links.stride() + firsts[m]);
        }
        System.arraycopy(pointStart, 0, cache.pointStart(), 0, manifoldCount + 1);
        for (int field = 0; field < VECTOR; field++) {
            System.arraycopy(vectors, field * manifoldCount, cache.vectors(), field * manifoldCount, manifoldCount);
        }
        System.arraycopy(ids, 0, cache.ids(), 0, pointCount);
        System.arraycopy(normal, 0, cache.normal(), 0, pointCount);
        for (int field = 0; field < CaptureField.COUNT; field++) {
            System.arraycopy(captures, field * pointCount, cache.captures(), field * pointCount, pointCount);
        }
        cache.finish();
    }

    /** The manifolds of the last {@link #prepare}. */
    public int manifoldCount() {
        return manifoldCount;
    }

    /** The points the last {@link #prepare} chose to solve. */
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
