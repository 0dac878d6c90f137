/*
 * Contact recycling on the device: the OpenCL twin of core/Recycler.java, statement for statement,
 * for the parts of it a device runs (docs/physics.md, "Contact recycling"; docs/twins.md):
 *
 *   recycle_manifolds        one work-item per manifold: its solved points written, kept from the
 *                            previous step's manifold or taken fresh (Recycler.write)
 *   report_contact_impulses  one work-item per manifold: its contacts' impulses (Recycler.report)
 *
 * The host plans the step (Recycler.plan: each manifold's previous manifold match[m], its fate
 * fates[m], fresh, RECYCLE_KEPT or RECYCLE_EITHER, and its solved points [pointStart[m],
 * pointStart[m + 1])); recycle_manifolds writes what the host's write pass would: the points'
 * geometry (GEOM_*, structure of arrays with stride `points`), warm normal impulses, the manifolds'
 * warm vectors (MVEC_*, stride `manifolds`), and the next cache's captures (CAPTURE_*, CAPTURE_COUNT
 * floats a point, array of structures) and ids. It reads the previous step's cache as that step
 * left it on the device: captures, ids, normal impulses, vectors (stride `oldManifolds`) and point
 * starts, and each previous contact's reported impulses (IMPULSE_*, stride `oldContacts`); a fresh
 * point's previous contact is its own index where `sameOrder`, else previousOf[c] (-1 for none).
 * A manifold the host kept (RECYCLE_KEPT) is tested again here for its drifts, with the same bits.
 *
 * Layout: every name below comes from the build options (KernelSource.java); bodies and contacts
 * structure of arrays with strides `bodyStride` and `contactStride`, links LINK_A/LINK_B likewise.
 * Manifold m's contacts are [contactStart[m], contactStart[m + 1]); a solved point's id ids[p] and
 * normal impulse normal[p]; the impulses written (IMPULSE_*) structure of arrays with stride
 * `contacts`.
 *
 * Names: Recycler.java's turned, turnSince, holds, keepManifold, takeFresh, sameIds, contactOf,
 * pointOf, tally and contactImpulses are turned, turn_since, holds, keep_manifold, take_fresh,
 * same_ids, contact_of, point_of, report_tally and contact_impulses here, in that order (the kernel
 * recycle_manifolds is Recycler.writeManifold's loop); the tally (ReportTally, TALLY_*) is a
 * private array of the work-item.
 *
 * Precision: the recycling test is in double, as on the host (a body at rest turns by amounts
 * whose float products are subnormal); the kernels that need it are built only where the device
 * has double precision, and elsewhere the host writes the points. Bit-exactness as in common.cl.
 * Determinism: each work-item writes only its own manifold's points and contacts; the count of
 * kept points is an integer sum.
 */

#ifdef cl_khr_fp64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

/* Math.min(a, b) of the JVM for doubles: NaN if either is NaN, -0 below +0 (OpenCL's fmin promises neither). */
double java_min_double(const double a, const double b)
{
    if (a != a) {
        return a;
    }
    if (b != b) {
        return b;
    }
    if (a == 0.0 && b == 0.0) {
        return signbit(a) ? a : b;
    }
    return a <= b ? a : b;
}

/* Row `row` (0, 3 or 6) of the turn matrix at turns[at] times (x, y, z). */
double turned(const double* turns, const int at, const int row, const double x, const double y, const double z)
{
    return (turns[at + row] * x + turns[at + row + 1] * y) + turns[at + row + 2] * z;
}

/*
 * The body's turn since the capture, d = q q0^-1 (q0 at old[at], w first), as a row-major rotation
 * matrix at out[to]; returns d_w^2 (1 for the world, whose orientation is the identity).
 */
double turn_since(__global const float* bodies, const int bodyStride, const int body, __global const float* old,
            const int at, double* out, const int to)
{
    const double w0 = old[at];
    const double x0 = old[at + 1];
    const double y0 = old[at + 2];
    const double z0 = old[at + 3];
    double w = 1.0;
    double x = 0.0;
    double y = 0.0;
    double z = 0.0;
    if (body >= 0) {
        w = bodies[BODY_QW * bodyStride + body];
        x = bodies[BODY_QX * bodyStride + body];
        y = bodies[BODY_QY * bodyStride + body];
        z = bodies[BODY_QZ * bodyStride + body];
    }
    const double dw = ((w * w0 + x * x0) + y * y0) + z * z0;
    const double dx = ((x * w0 - w * x0) - y * z0) + z * y0;
    const double dy = ((y * w0 - w * y0) - z * x0) + x * z0;
    const double dz = ((z * w0 - w * z0) - x * y0) + y * x0;
    const double xx = dx * dx;
    const double yy = dy * dy;
    const double zz = dz * dz;
    const double xy = dx * dy;
    const double xz = dx * dz;
    const double yz = dy * dz;
    const double wx = dw * dx;
    const double wy = dw * dy;
    const double wz = dw * dz;
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

/*
 * Whether every point of the previous manifold j still holds for the bodies of contact c: neither
 * body turned too far since it was taken, and each point's anchors drifted apart by at most `limit`
 * (squared) and the arm's share. Leaves each point's g at gaps[gapAt + 3 i] (rounded to float),
 * where it got that far.
 */
int holds(__global const float* bodies, const int bodyStride, __global const int* movable, __global const float* old,
          __global const int* oldPointStart, const int j, const int c, __global const int* links,
          const int contactStride, const float limit, double* turns, float* gaps, const int gapAt)
{
    const int a = links[LINK_A * contactStride + c];
    const int b = links[LINK_B * contactStride + c];
    const int from = oldPointStart[j];
    const int to = oldPointStart[j + 1];
    /* a manifold's points were taken together: its first point's orientations are all of theirs */
    const int first = from * CAPTURE_COUNT;
    if (!(turn_since(bodies, bodyStride, a, old, first + CAPTURE_QAW, turns, RECYCLE_TURN_A) > RECYCLE_MIN_HALF_TURN_COS2)
        || !(turn_since(bodies, bodyStride, b, old, first + CAPTURE_QBW, turns, RECYCLE_TURN_B)
             > RECYCLE_MIN_HALF_TURN_COS2)) {
        return 0;
    }
    const double dx = (double) (b < 0 ? 0.0f : bodies[BODY_X * bodyStride + b])
                      - (a < 0 ? 0.0f : bodies[BODY_X * bodyStride + a]);
    const double dy = (double) (b < 0 ? 0.0f : bodies[BODY_Y * bodyStride + b])
                      - (a < 0 ? 0.0f : bodies[BODY_Y * bodyStride + a]);
    const double dz = (double) (b < 0 ? 0.0f : bodies[BODY_Z * bodyStride + b])
                      - (a < 0 ? 0.0f : bodies[BODY_Z * bodyStride + a]);
    const int movesA = a >= 0 && movable[a] != 0;
    const int movesB = b >= 0 && movable[b] != 0;
    for (int p = from; p < to; p++) {
        const int o = p * CAPTURE_COUNT;
        const double rax = old[o + CAPTURE_RAX];
        const double ray = old[o + CAPTURE_RAY];
        const double raz = old[o + CAPTURE_RAZ];
        const double rbx = old[o + CAPTURE_RBX];
        const double rby = old[o + CAPTURE_RBY];
        const double rbz = old[o + CAPTURE_RBZ];
        const double gx = dx + (turned(turns, RECYCLE_TURN_B, 0, rbx, rby, rbz) - turned(turns, RECYCLE_TURN_A, 0, rax, ray, raz));
        const double gy = dy + (turned(turns, RECYCLE_TURN_B, 3, rbx, rby, rbz) - turned(turns, RECYCLE_TURN_A, 3, rax, ray, raz));
        const double gz = dz + (turned(turns, RECYCLE_TURN_B, 6, rbx, rby, rbz) - turned(turns, RECYCLE_TURN_A, 6, rax, ray, raz));
        const int k = gapAt + 3 * (p - from);
        gaps[k] = gx;
        gaps[k + 1] = gy;
        gaps[k + 2] = gz;
        const double drift = (gx * gx + gy * gy) + gz * gz;
        double arm = (double) INFINITY;
        if (movesA) {
            arm = (rax * rax + ray * ray) + raz * raz;
        }
        if (movesB) {
            arm = java_min_double(arm, (rbx * rbx + rby * rby) + rbz * rbz);
        }
        if (!(drift <= limit && drift <= RECYCLE_ARM_SHARE_SQUARED * arm)) {
            return 0;
        }
    }
    return 1;
}
/* Point at's anchors and normal into the geometry (stride `stride`) from its captures at at * CAPTURE_COUNT. */
void place_captured(__global const float* captures, const int at, __global float* geometry, const int stride)
{
    const int o = at * CAPTURE_COUNT;
    geometry[GEOM_RAX * stride + at] = captures[o + CAPTURE_RAX];
    geometry[GEOM_RAY * stride + at] = captures[o + CAPTURE_RAY];
    geometry[GEOM_RAZ * stride + at] = captures[o + CAPTURE_RAZ];
    geometry[GEOM_RBX * stride + at] = captures[o + CAPTURE_RBX];
    geometry[GEOM_RBY * stride + at] = captures[o + CAPTURE_RBY];
    geometry[GEOM_RBZ * stride + at] = captures[o + CAPTURE_RBZ];
    geometry[GEOM_NX * stride + at] = captures[o + CAPTURE_NX];
    geometry[GEOM_NY * stride + at] = captures[o + CAPTURE_NY];
    geometry[GEOM_NZ * stride + at] = captures[o + CAPTURE_NZ];
}

/* Manifold m recycled from the previous manifold j, whose points' g are at gaps[gapAt ..]. */
void keep_manifold(const int m, __global const float* old, __global const int* oldPointStart,
                   __global const int* oldIds, __global const float* oldNormal, __global const float* oldVectors,
                   const int oldManifolds, const int j, const float* gaps, const int gapAt,
                   __global const int* pointStart, const int points, const int manifolds, const int anchors,
                   __global float* geometry, __global float* warmNormal, __global float* warmVectors,
                   __global float* kept, __global int* keptIds)
{
    const int from = oldPointStart[j];
    const int to = oldPointStart[j + 1];
    const int stride = points;
    /* the manifold's points are consecutive in both caches: their captures go over in one run */
    for (int f = 0; f < (to - from) * CAPTURE_COUNT; f++) {
        kept[pointStart[m] * CAPTURE_COUNT + f] = old[from * CAPTURE_COUNT + f];
    }
    for (int p = from; p < to; p++) {
        const int at = pointStart[m] + (p - from);
        const int o = p * CAPTURE_COUNT;
        const float nx = old[o + CAPTURE_NX];
        const float ny = old[o + CAPTURE_NY];
        const float nz = old[o + CAPTURE_NZ];
        /* the anchors and normal from the captures just kept (always here: the device's rows read them) */
        if (anchors) {
            place_captured(kept, at, geometry, stride);
        }
        const int k = gapAt + 3 * (p - from);
        geometry[GEOM_S * stride + at] = old[o + CAPTURE_S]
                                         + ((nx * gaps[k] + ny * gaps[k + 1]) + nz * gaps[k + 2]);
        keptIds[at] = oldIds[p];
        warmNormal[at] = oldNormal[p];
    }
    for (int field = 0; field < MVEC_COUNT; field++) {
        warmVectors[field * manifolds + m] = oldVectors[field * oldManifolds + j];
    }
}

/*
 * Manifold m taken fresh from contacts [first, end): each point's geometry and capture from the
 * batch and its bodies now, its warm normal impulse the previous contact's of its id, and the
 * manifold's vectors the sums of those contacts' tangential and angular impulses.
 */
void take_fresh(__global const float* bodies, const int bodyStride, __global const float* contacts,
                __global const int* links, const int contactStride, __global const int* contactIds, const int first,
                const int end, const int m, const int sameOrder, __global const int* previousOf,
                __global const float* oldImpulses, const int oldContacts, __global const int* pointStart,
                const int points, const int manifolds, __global float* geometry, __global float* warmNormal,
                __global float* warmVectors, __global float* kept, __global int* keptIds)
{
    const int a = links[LINK_A * contactStride + first];
    const int b = links[LINK_B * contactStride + first];
    const int stride = points;
    float sums[MVEC_COUNT];
    for (int v = 0; v < MVEC_COUNT; v++) {
        sums[v] = 0.0f;
    }
    for (int c = first; c < end; c++) {
        const int at = pointStart[m] + (c - first);
        const int o = at * CAPTURE_COUNT;
        for (int axis = 0; axis < 3; axis++) {
            const float p = contacts[(CONTACT_PX + axis) * contactStride + c];
            const float xa = a < 0 ? 0.0f : bodies[(BODY_X + axis) * bodyStride + a];
            const float xb = b < 0 ? 0.0f : bodies[(BODY_X + axis) * bodyStride + b];
            const float n = contacts[(CONTACT_NX + axis) * contactStride + c];
            geometry[(GEOM_RAX + axis) * stride + at] = p - xa;
            geometry[(GEOM_RBX + axis) * stride + at] = p - xb;
            geometry[(GEOM_NX + axis) * stride + at] = n;
            kept[o + CAPTURE_RAX + axis] = p - xa;
            kept[o + CAPTURE_RBX + axis] = p - xb;
            kept[o + CAPTURE_NX + axis] = n;
        }
        const float s = contacts[CONTACT_SEPARATION * contactStride + c];
        geometry[GEOM_S * stride + at] = s;
        kept[o + CAPTURE_S] = s;
        for (int k = 0; k < 4; k++) {
            kept[o + CAPTURE_QAW + k] = a < 0 ? (k == 0 ? 1.0f : 0.0f) : bodies[(BODY_QW + k) * bodyStride + a];
            kept[o + CAPTURE_QBW + k] = b < 0 ? (k == 0 ? 1.0f : 0.0f) : bodies[(BODY_QW + k) * bodyStride + b];
        }
        keptIds[at] = contactIds[c];
        const int p = sameOrder ? c : previousOf[c];
        if (p < 0) {
            warmNormal[at] = 0.0f;
            continue;
        }
        warmNormal[at] = oldImpulses[IMPULSE_J * oldContacts + p];
        sums[0] += oldImpulses[IMPULSE_TX * oldContacts + p];
        sums[1] += oldImpulses[IMPULSE_TY * oldContacts + p];
        sums[2] += oldImpulses[IMPULSE_TZ * oldContacts + p];
        sums[3] += oldImpulses[IMPULSE_RX * oldContacts + p];
        sums[4] += oldImpulses[IMPULSE_RY * oldContacts + p];
        sums[5] += oldImpulses[IMPULSE_RZ * oldContacts + p];
    }
    warmVectors[MVEC_FX * manifolds + m] = sums[0];
    warmVectors[MVEC_FY * manifolds + m] = sums[1];
    warmVectors[MVEC_FZ * manifolds + m] = sums[2];
    warmVectors[MVEC_AX * manifolds + m] = sums[3];
    warmVectors[MVEC_AY * manifolds + m] = sums[4];
    warmVectors[MVEC_AZ * manifolds + m] = sums[5];
}

__kernel void recycle_manifolds(__global const float* bodies, const int bodyStride, __global const int* movable,
                                __global const float* contacts, __global const int* links, const int contactStride,
                                __global const int* contactIds, __global const int* firsts, const int manifolds,
                                __global const int* match, __global const int* fates, const float limit,
                                __global const int* pointStart, const int points, __global const float* oldCaptures,
                                __global const int* oldPointStart, __global const int* oldIds,
                                __global const float* oldNormal, __global const float* oldVectors,
                                const int oldManifolds, __global const float* oldImpulses, const int oldContacts,
                                const int sameOrder, __global const int* previousOf, __global float* geometry,
                                __global float* warmNormal, __global float* warmVectors, __global float* kept,
                                __global int* keptIds, __global int* keptCount)
{
    const int m = get_global_id(0);
    if (m >= manifolds) {
        return;
    }
    double turns[RECYCLE_SCRATCH];
    float near[3 * MANIFOLD_MAX_POINTS];
    const int j = match[m];
    const int either = fates[m] == RECYCLE_EITHER;
    /* a manifold the host kept is tested again for its drifts, and holds as the host found */
    if (either || fates[m] == RECYCLE_KEPT
        ? holds(bodies, bodyStride, movable, oldCaptures, oldPointStart, j, firsts[m], links, contactStride, limit,
                turns, near, 0)
        : 0) {
        keep_manifold(m, oldCaptures, oldPointStart, oldIds, oldNormal, oldVectors, oldManifolds, j, near, 0,
                      pointStart, points, manifolds, 1, geometry, warmNormal, warmVectors, kept, keptIds);
        atomic_add(&keptCount[0], pointStart[m + 1] - pointStart[m]);
    } else {
        take_fresh(bodies, bodyStride, contacts, links, contactStride, contactIds, firsts[m], firsts[m + 1], m,
                   sameOrder, previousOf, oldImpulses, oldContacts, pointStart, points, manifolds, geometry,
                   warmNormal, warmVectors, kept, keptIds);
    }
}

#endif

/* Whether contacts [first, end) have the ids of solved points [from, to), in that order. */
int same_ids(__global const int* contactIds, const int first, const int end, __global const int* ids, const int from,
             const int to)
{
    if (end - first != to - from) {
        return 0;
    }
    for (int c = first; c < end; c++) {
        if (contactIds[c] != ids[from + (c - first)]) {
            return 0;
        }
    }
    return 1;
}

/* The contact of [first, end) with id `id`, or -1. */
int contact_of(__global const int* contactIds, const int first, const int end, const int id)
{
    for (int c = first; c < end; c++) {
        if (contactIds[c] == id) {
            return c;
        }
    }
    return -1;
}

/* The solved point of manifold m (its points from pointStart[m]) with id `id`, or -1. */
int point_of(__global const int* pointStart, __global const int* ids, const int m, const int id)
{
    for (int p = pointStart[m]; p < pointStart[m + 1]; p++) {
        if (ids[p] == id) {
            return p;
        }
    }
    return -1;
}

/* Manifold m's ReportTally figures (TALLY_*) into tally. */
void report_tally(__global const int* contactStart, __global const int* pointStart, __global const float* normal,
                  __global const int* ids, __global const int* contactIds, const int m, float* tally)
{
    const int first = contactStart[m];
    const int end = contactStart[m + 1];
    /* a fresh manifold's points are its contacts, and so is a recycled one's whose points all persist */
    const int same = same_ids(contactIds, first, end, ids, pointStart[m], pointStart[m + 1]);
    float total = 0.0f;
    float unmatched = 0.0f;
    for (int p = pointStart[m]; p < pointStart[m + 1]; p++) {
        total += normal[p];
        if (!same && contact_of(contactIds, first, end, ids[p]) < 0) {
            unmatched += normal[p];
        }
    }
    tally[TALLY_TOTAL] = total;
    tally[TALLY_SPREAD] = unmatched / (end - first);
    tally[TALLY_SAME] = same ? 1.0f : 0.0f;
}

/* Contact c of manifold m, with m's tally: its impulses into impulses[f * contacts + c]; the vectors with stride `manifolds`. */
void contact_impulses(__global const int* contactStart, __global const int* pointStart, __global const float* normal,
                      __global const float* vectors, const int manifolds, __global const int* ids,
                      __global const int* contactIds, const int m, const int c, const float* tally,
                      __global float* impulses, const int contacts)
{
    const int first = contactStart[m];
    const int count = contactStart[m + 1] - first;
    const int solved = pointStart[m];
    const float total = tally[TALLY_TOTAL];
    float j;
    if (tally[TALLY_SAME] != 0.0f) {
        j = normal[solved + (c - first)];
    } else {
        const int p = point_of(pointStart, ids, m, contactIds[c]);
        j = (p >= 0 ? normal[p] : 0.0f) + tally[TALLY_SPREAD];
    }
    const float share = total > 0.0f ? j / total : 1.0f / count;
    impulses[IMPULSE_J * contacts + c] = j;
    impulses[IMPULSE_TX * contacts + c] = vectors[MVEC_FX * manifolds + m] * share + 0.0f;
    impulses[IMPULSE_TY * contacts + c] = vectors[MVEC_FY * manifolds + m] * share + 0.0f;
    impulses[IMPULSE_TZ * contacts + c] = vectors[MVEC_FZ * manifolds + m] * share + 0.0f;
    impulses[IMPULSE_RX * contacts + c] = vectors[MVEC_AX * manifolds + m] * share + 0.0f;
    impulses[IMPULSE_RY * contacts + c] = vectors[MVEC_AY * manifolds + m] * share + 0.0f;
    impulses[IMPULSE_RZ * contacts + c] = vectors[MVEC_AZ * manifolds + m] * share + 0.0f;
}

__kernel void report_contact_impulses(__global const int* contactStart, __global const int* pointStart,
                                      const int manifolds, __global const float* normal,
                                      __global const float* vectors, __global const int* ids,
                                      __global const int* contactIds, const int contacts, __global float* impulses)
{
    const int m = get_global_id(0);
    if (m >= manifolds) {
        return;
    }
    float tally[TALLY_COUNT];
    report_tally(contactStart, pointStart, normal, ids, contactIds, m, tally);
    for (int c = contactStart[m]; c < contactStart[m + 1]; c++) {
        contact_impulses(contactStart, pointStart, normal, vectors, manifolds, ids, contactIds, m, c, tally, impulses,
                         contacts);
    }
}
