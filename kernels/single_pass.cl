/*
 * The single-pass solve: the OpenCL twin of host/io/contactsolver/cpu/SinglePass.java.
 *
 *   prepare_bodies  one work-item per body (+1 for the all-zero world record): working records
 *   solve_contacts  one work-item per contact of a chunk: its impulses and both sides' responses
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

/* Writes one side's velocity response at out[o]. */
void store(__global float* out, const int o, const float dvx, const float dvy, const float dvz, const float dwx,
           const float dwy, const float dwz)
{
    out[o + DELTA_DVX] = dvx;
    out[o + DELTA_DVY] = dvy;
    out[o + DELTA_DVZ] = dvz;
    out[o + DELTA_DWX] = dwx;
    out[o + DELTA_DWY] = dwy;
    out[o + DELTA_DWZ] = dwz;
}

/* The velocity change of one side's body from an impulse of `impulse` along +n: (impulse / m) n, impulse I^-1 (r x n). */
void respond(__global float* out, const int o, const float impulse, const float inverseMass, const float dirX,
             const float dirY, const float dirZ, const float nx, const float ny, const float nz)
{
    const float linear = impulse * inverseMass;
    const float dvx = linear * nx;
    const float dvy = linear * ny;
    const float dvz = linear * nz;
    const float dwx = impulse * dirX;
    const float dwy = impulse * dirY;
    const float dwz = impulse * dirZ;
    store(out, o, dvx, dvy, dvz, dwx, dwy, dwz);
}

/* The velocity change of one side's body from an impulse vector s at its lever arm work[at..at+2]: s / m, I^-1 (r x s). */
void respond_vector(__global float* out, const int o, const float sx, const float sy, const float sz,
                    const float inverseMass, __global const float* body, const float* work, const int at)
{
    const float rx = work[at];
    const float ry = work[at + 1];
    const float rz = work[at + 2];
    const float torqueX = ry * sz - rz * sy;
    const float torqueY = rz * sx - rx * sz;
    const float torqueZ = rx * sy - ry * sx;
    const float dvx = sx * inverseMass;
    const float dvy = sy * inverseMass;
    const float dvz = sz * inverseMass;
    const float dwx = body[PREP_IXX] * torqueX + body[PREP_IXY] * torqueY + body[PREP_IXZ] * torqueZ;
    const float dwy = body[PREP_IXY] * torqueX + body[PREP_IYY] * torqueY + body[PREP_IYZ] * torqueZ;
    const float dwz = body[PREP_IXZ] * torqueX + body[PREP_IYZ] * torqueY + body[PREP_IZZ] * torqueZ;
    store(out, o, dvx, dvy, dvz, dwx, dwy, dwz);
}

/* The single pass's impulses of contact c: normal, tangential on b, and no rolling impulse (stride: the chunk's). */
void write_impulses(__global float* impulses, const int stride, const int c, const float j, const float tx,
                    const float ty, const float tz)
{
    impulses[IMPULSE_J * stride + c] = j;
    impulses[IMPULSE_TX * stride + c] = tx;
    impulses[IMPULSE_TY * stride + c] = ty;
    impulses[IMPULSE_TZ * stride + c] = tz;
    impulses[IMPULSE_RX * stride + c] = 0.0f;
    impulses[IMPULSE_RY * stride + c] = 0.0f;
    impulses[IMPULSE_RZ * stride + c] = 0.0f;
}

/*
 * j = (target - v_n) / K when the contact is slower than its target (see evaluate_contact; without
 * positional correction: when it approaches); zero otherwise, or when neither body can move (K = 0).
 * Side a's body gets -j n, side b's +j n. A contact with friction gets the impulse vector P of
 * frictional_impulse instead, where that applies: -P on a, +P on b.
 */
__kernel void solve_contacts(__global const float* contacts, __global const int* links, const int stride,
                             const int contactCount, const int worldRecord, __global const float* prepared,
                             const float restitutionThreshold, const float inverseTimeStep,
                             const float biasFactor, const float slop, const int useFriction,
                             __global float* impulses, __global float* responses)
{
    const int c = get_global_id(0);
    if (c >= contactCount) {
        return;
    }
    __global const float* bodyA = record(prepared, links[LINK_A * stride + c], worldRecord);
    __global const float* bodyB = record(prepared, links[LINK_B * stride + c], worldRecord);
    float row[ROW_COUNT];
    float work[WORK_COUNT];
    evaluate_contact(contacts, stride, c, bodyA, bodyB, restitutionThreshold, inverseTimeStep, biasFactor, slop, row);
    float j = 0.0f;
    int frictional = 0;
    if (row[ROW_VN0] < row[ROW_TARGET] && row[ROW_K] > 0.0f) {
        j = (row[ROW_TARGET] - row[ROW_VN0]) / row[ROW_K];
        const float mu = contacts[CONTACT_FRICTION * stride + c];
        frictional = useFriction && mu > 0.0f && frictional_impulse(contacts, stride, c, bodyA, bodyB, mu, j, row, work);
    }
    const int outA = (c * LINK_COUNT + LINK_A) * DELTA_COUNT;
    const int outB = (c * LINK_COUNT + LINK_B) * DELTA_COUNT;
    if (!frictional) {
        write_impulses(impulses, contactCount, c, j, 0.0f, 0.0f, 0.0f);
        respond(responses, outA, -j, row[ROW_INV_MASS_A], row[ROW_DIR_AX], row[ROW_DIR_AY], row[ROW_DIR_AZ],
                row[ROW_NX], row[ROW_NY], row[ROW_NZ]);
        respond(responses, outB, j, row[ROW_INV_MASS_B], row[ROW_DIR_BX], row[ROW_DIR_BY], row[ROW_DIR_BZ],
                row[ROW_NX], row[ROW_NY], row[ROW_NZ]);
        return;
    }
    const float px = work[WORK_PX];
    const float py = work[WORK_PY];
    const float pz = work[WORK_PZ];
    const float normal = px * row[ROW_NX] + py * row[ROW_NY] + pz * row[ROW_NZ];
    write_impulses(impulses, contactCount, c, normal, px - normal * row[ROW_NX], py - normal * row[ROW_NY],
                   pz - normal * row[ROW_NZ]);
    respond_vector(responses, outA, -px, -py, -pz, row[ROW_INV_MASS_A], bodyA, work, WORK_RAX);
    respond_vector(responses, outB, px, py, pz, row[ROW_INV_MASS_B], bodyB, work, WORK_RBX);
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
