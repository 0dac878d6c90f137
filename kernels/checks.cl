/*
 * The checks of a step's results on the device, so that the host scans only a result known to
 * hold a non-finite value (OverflowScan.java; the host then scans it and names the element):
 *
 *   first_non_finite  one work-item per element: atomic_min of its index where a field is not finite,
 *                     into one slot of the step's first non-finite elements
 *
 * Layout: a result is structure of arrays, field f of element i at f * stride + i. The index kept
 * is a minimum, the same whatever order the work-items run in.
 */

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
