/*
 * The single-pass solve: the OpenCL twin of host/io/contactsolver/cpu/SinglePass.java.
 *
 *   prepare_bodies  one work-item per body (+1 for the all-zero world record): working records
 *   solve_contacts  one work-item per contact of a chunk: impulse j and both sides' responses
 *   gather_chunk    one work-item per body: adds the chunk's responses in the host-built index order
 *
 * No atomics: every output element is written by exactly one work-item, and each body's sum runs
 * in a fixed order, so results do not depend on scheduling. Responses are indexed by the index
 * entry of the contact side, c * LINK_COUNT + LINK_A or LINK_B, DELTA_COUNT floats each, counted
 * from the chunk's first contact. Contact batches larger than the device's largest allocation go
 * through in several chunks; a batch that fits is one chunk.
 */

__kernel void prepare_bodies(__global const float* bodies, const int stride, const int bodyCount,
                             __global float* prepared)
{
    const int i = get_global_id(0);
    if (i < bodyCount) {
        prepare_body(bodies, stride, i, prepared);
    } else if (i == bodyCount) {
        for (int k = 0; k < PREP_STRIDE; k++) {
            prepared[i * PREP_STRIDE + k] = 0.0f;
        }
    }
}

/* The velocity change of one side's body from an impulse of `impulse` along +n. */
void write_response(__global float* responses, const int entry, const float impulse, const ContactSide* side,
                    const float nx, const float ny, const float nz)
{
    __global float* out = responses + entry * DELTA_COUNT;
    const float linear = impulse * side->inverseMass;
    out[DELTA_DVX] = linear * nx;
    out[DELTA_DVY] = linear * ny;
    out[DELTA_DVZ] = linear * nz;
    out[DELTA_DWX] = impulse * side->dirX;
    out[DELTA_DWY] = impulse * side->dirY;
    out[DELTA_DWZ] = impulse * side->dirZ;
}

/*
 * j = (target - v_n) / K when the contact is slower than its target (see evaluate_contact; without
 * positional correction: when it approaches); zero otherwise, or when neither body can move (K = 0).
 */
__kernel void solve_contacts(__global const float* contacts, __global const int* links, const int stride,
                             const int contactCount, const int worldRecord, __global const float* prepared,
                             const float restitutionThreshold, const float inverseTimeStep,
                             const float biasFactor, const float slop, __global float* impulses,
                             __global float* responses)
{
    const int c = get_global_id(0);
    if (c >= contactCount) {
        return;
    }
    ContactEvaluation contact;
    evaluate_contact(contacts, links, stride, c, worldRecord, prepared, restitutionThreshold, inverseTimeStep,
                     biasFactor, slop, &contact);
    float j = 0.0f;
    if (contact.vn < contact.target && contact.k > 0.0f) {
        j = (contact.target - contact.vn) / contact.k;
    }
    impulses[c] = j;
    write_response(responses, c * LINK_COUNT + LINK_A, -j, &contact.sideA, contact.nx, contact.ny, contact.nz);
    write_response(responses, c * LINK_COUNT + LINK_B, j, &contact.sideB, contact.nx, contact.ny, contact.nz);
}

/*
 * Adds to each body's running sum (deltas, initially +0) the responses of the contacts of this
 * chunk, continuing its entry list where the previous chunk stopped (cursor). A body's entries are
 * in increasing contact order, so chunk after chunk the terms are added in exactly the order of one
 * pass over all contacts, and the sums come out the same to the bit however the contacts were cut.
 * The responses of the chunk are indexed by entry - firstEntry.
 */
__kernel void gather_chunk(__global int* cursor, __global const int* offsets, __global const int* entries,
                           __global const float* responses, const int firstEntry, const int endEntry,
                           const int bodyCount, const int deltaStride, __global float* deltas)
{
    const int i = get_global_id(0);
    if (i >= bodyCount) {
        return;
    }
    float dvx = deltas[DELTA_DVX * deltaStride + i];
    float dvy = deltas[DELTA_DVY * deltaStride + i];
    float dvz = deltas[DELTA_DVZ * deltaStride + i];
    float dwx = deltas[DELTA_DWX * deltaStride + i];
    float dwy = deltas[DELTA_DWY * deltaStride + i];
    float dwz = deltas[DELTA_DWZ * deltaStride + i];
    const int end = offsets[i + 1];
    int k = cursor[i];
    for (; k < end && entries[k] < endEntry; k++) {
        __global const float* response = responses + (entries[k] - firstEntry) * DELTA_COUNT;
        dvx += response[DELTA_DVX];
        dvy += response[DELTA_DVY];
        dvz += response[DELTA_DVZ];
        dwx += response[DELTA_DWX];
        dwy += response[DELTA_DWY];
        dwz += response[DELTA_DWZ];
    }
    cursor[i] = k;
    deltas[DELTA_DVX * deltaStride + i] = dvx;
    deltas[DELTA_DVY * deltaStride + i] = dvy;
    deltas[DELTA_DVZ * deltaStride + i] = dvz;
    deltas[DELTA_DWX * deltaStride + i] = dwx;
    deltas[DELTA_DWY * deltaStride + i] = dwy;
    deltas[DELTA_DWZ * deltaStride + i] = dwz;
}
