/*
 * The soft step's outputs on the device, so the host neither computes nor scans them: the OpenCL
 * twin of Recycler.report (each contact's impulses from what its manifold solved), statement for
 * statement, and of OverflowScan's finiteness scan (the lowest element with a non-finite field).
 *
 *   report_contact_impulses  one work-item per manifold (manifold order): its contacts' impulses
 *   first_non_finite         one work-item per element: atomic_min of its index where a field is not finite,
 *                            into one slot of the step's first non-finite elements
 *
 * Layout: as in Recycler and ManifoldCache (the build options name every field; none is defined
 * here). Manifold m's contacts are [contactStart[m], contactStart[m + 1]) and its solved points
 * [pointStart[m], pointStart[m + 1]); a solved point's id ids[p] and normal impulse normal[p]; the
 * manifolds' vectors (MVEC_*) structure of arrays with stride `manifolds`; the contacts' ids
 * contactIds[c]; the impulses written (IMPULSE_*) structure of arrays with stride `contacts`.
 *
 * Names: Recycler.java's sameIds, contactOf, pointOf, tally and contactImpulses are same_ids,
 * contact_of, point_of, report_tally and contact_impulses here, in that order (docs/twins.md); the
 * tally (ReportTally, TALLY_*) is a private array of the work-item.
 *
 * Determinism: each work-item writes only its own manifold's contacts; the non-finite index is a
 * minimum, the same whatever order the work-items run in. Bit-exactness as in common.cl.
 */

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

/* OverflowScan.firstNonFinite: element i of `count` (fields of stride `stride`), its index into first[slot] by atomic_min where a field is not finite. */
__kernel void first_non_finite(__global const float* values, const int count, const int stride, const int fields,
                               __global int* first, const int slot)
{
    const int i = get_global_id(0);
    if (i >= count) {
        return;
    }
    for (int f = 0; f < fields; f++) {
        if (!isfinite(values[f * stride + i])) {
            atomic_min(&first[slot], i);
            return;
        }
    }
}
