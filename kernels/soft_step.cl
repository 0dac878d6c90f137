/*
 * The soft step (docs/physics.md, "Soft step: substeps, soft contacts, a relax sweep"): the OpenCL
 * twin of host/io/contactsolver/cpu/SoftStep.java, statement for statement, and of the loops of
 * CpuBackend.softStep that call it.
 *
 *   prepare_soft_rows      one work-item per row: separation and lever arms at the start of the step,
 *                          each side's motion record, the row's peak normal impulse set to 0
 *   reset_motions          one work-item per body, one more for the world's all-zero record
 *   apply_substep_gravity  one work-item per body: v += g h for a movable body with mass
 *   soft_sweep             one work-item per row of a colour, or (`serial`) one for the overflow rows in order
 *   integrate_motions      one work-item per body: the motion record moved on by one substep
 *   soft_restitution       as soft_sweep, for the restitution pass after the substeps
 *   finish_bodies          one work-item per body: the state at the end of the step and the deltas
 * The rows are prepared by prepare_rows, the warm start applied by apply_warm_start and the impulses
 * written by scatter_impulses (iterative.cl), as the CPU reuses Iterative.java.
 *
 * Convention (docs/physics.md): n points from body a to body b, r = p - x; a contact's current
 * separation is s = s0 + n . (d_b - d_a), d = dx + (R(dq) - 1) r.
 *
 * Layout: every name below comes from the Java enums as a build option (KernelSource.java); none is
 * defined here. Rows are as in iterative.cl: ROW_* fields and ACC_* impulses structure of arrays
 * with stride `rows`, the state slots of both sides at LINK_A * rows + r and LINK_B * rows + r. The
 * soft fields (SOFT_*, SoftRowField.java) are structure of arrays with stride `rows` too, and so are
 * the movers: per row and side the body whose motion record that side reads (the body's index, or
 * bodyCount for the world). Motion records (MOTION_*, MotionField.java) are MOTION_STRIDE floats a
 * body, array of structures, the all-zero world record after the last body. The state is
 * STATE_STRIDE floats a body plus the world slot, as in iterative.cl. `movable` is one int a body,
 * 1 where contacts can move it (MovableBodies.java). Bodies and the next bodies are structure of
 * arrays (BODY_* fields, the next bodies only X through WZ, with their own stride), deltas too (DELTA_*).
 *
 * The residual is the CPU's: the largest change of the last relax sweep and of the restitution
 * pass, kept as float bits in residuals[0] by atomic_max (non-negative floats and the NaN that
 * fabs makes order like their bits, so the order of the work-items does not matter).
 *
 * One name differs from the Java: SoftStep.applyGravity is soft_apply_gravity here, because
 * integrate.cl has a kernel named apply_gravity. java_max stands for the JVM's Math.max.
 *
 * Bit-exactness as in common.cl: no contraction (the pragma there covers the whole program), float
 * literals only, no built-in dot or fmax, correctly rounded divide and sqrt from the build options.
 */

/* The soft coefficients of the step (SoftCoefficients.java), as the kernels take them. */
typedef struct {
    float inverseSubstep;
    float biasRate;
    float massScale;
    float impulseScale;
    float maxPushOut;
} soft_coefficients;

/* Math.max(a, b) of the JVM: NaN if either is NaN, +0 above -0 (OpenCL's fmax promises neither). */
float java_max(const float a, const float b)
{
    if (a != a) {
        return a;
    }
    if (b != b) {
        return b;
    }
    if (a == 0.0f && b == 0.0f) {
        return signbit(a) ? b : a;
    }
    return a >= b ? a : b;
}

/* Keeps contact c's separation and lever arms as row r's soft fields. */
void prepare_soft_row(__global const float* contacts, const int contactStride, const int c, const int r,
                      const int rows, __global const float* bodyA, __global const float* bodyB, __global float* soft)
{
    const float px = contacts[CONTACT_PX * contactStride + c];
    const float py = contacts[CONTACT_PY * contactStride + c];
    const float pz = contacts[CONTACT_PZ * contactStride + c];
    soft[SOFT_S0 * rows + r] = contacts[CONTACT_SEPARATION * contactStride + c];
    /* as evaluate_contact computes them, so the arms are the rows' own */
    soft[SOFT_RAX * rows + r] = px - bodyA[PREP_X];
    soft[(SOFT_RAX + 1) * rows + r] = py - bodyA[PREP_X + 1];
    soft[(SOFT_RAX + 2) * rows + r] = pz - bodyA[PREP_X + 2];
    soft[SOFT_RBX * rows + r] = px - bodyB[PREP_X];
    soft[(SOFT_RBX + 1) * rows + r] = py - bodyB[PREP_X + 1];
    soft[(SOFT_RBX + 2) * rows + r] = pz - bodyB[PREP_X + 2];
}

/* Step 1 of a substep: v += g h for a body with mass (at state offset s). */
void soft_apply_gravity(__global float* state, const int s, const float gx, const float gy, const float gz,
                        const float h)
{
    state[s + STATE_DVX] += gx * h;
    state[s + STATE_DVY] += gy * h;
    state[s + STATE_DVZ] += gz * h;
}

/* One component of (R(dq) - 1) r: the matrix row at m of the record at `at`, times the arm at field `arm`. */
float contact_shift(__global const float* motion, const int at, const int m, __global const float* soft,
                    const int arm, const int rows, const int r)
{
    return motion[at + m] * soft[arm * rows + r] + motion[at + m + 1] * soft[(arm + 1) * rows + r]
            + motion[at + m + 2] * soft[(arm + 2) * rows + r];
}

/* The current separation of row r: s0 + n . (d_b - d_a), each side's d from its motion record (ma, mb). */
float separation(__global const float* row, const int rows, const int r, __global const float* soft,
                 __global const float* motion, const int ma, const int mb)
{
    const float dbx = motion[mb + MOTION_DX] + contact_shift(motion, mb, MOTION_M00, soft, SOFT_RBX, rows, r);
    const float dby = motion[mb + MOTION_DX + 1] + contact_shift(motion, mb, MOTION_M00 + 3, soft, SOFT_RBX, rows, r);
    const float dbz = motion[mb + MOTION_DX + 2] + contact_shift(motion, mb, MOTION_M00 + 6, soft, SOFT_RBX, rows, r);
    const float dax = motion[ma + MOTION_DX] + contact_shift(motion, ma, MOTION_M00, soft, SOFT_RAX, rows, r);
    const float day = motion[ma + MOTION_DX + 1] + contact_shift(motion, ma, MOTION_M00 + 3, soft, SOFT_RAX, rows, r);
    const float daz = motion[ma + MOTION_DX + 2] + contact_shift(motion, ma, MOTION_M00 + 6, soft, SOFT_RAX, rows, r);
    return soft[SOFT_S0 * rows + r] + ((dbx - dax) * row[ROW_NX * rows + r] + (dby - day) * row[ROW_NY * rows + r]
            + (dbz - daz) * row[ROW_NZ * rows + r]);
}

/*
 * The soft (or relax) normal row at separation s: a gap may close within the substep (bias = s / h,
 * rigid); overlap is pushed out softly at most at the push-out speed, or not at all when relaxing.
 * Accumulates at lambda, clamped at zero; returns the impulse to apply.
 */
float soft_normal_impulse(__global const float* row, const int rows, const int r, __global float* lambda,
                          const int a, const int b, __global const float* state, const float s,
                          const soft_coefficients coefficients, const int relax)
{
    float bias;
    float massScale;
    float impulseScale;
    if (s > 0.0f) {
        bias = s * coefficients.inverseSubstep;
        massScale = 1.0f;
        impulseScale = 0.0f;
    } else if (relax) {
        bias = 0.0f;
        massScale = 1.0f;
        impulseScale = 0.0f;
    } else {
        bias = java_max(coefficients.biasRate * s, -coefficients.maxPushOut);
        massScale = coefficients.massScale;
        impulseScale = coefficients.impulseScale;
    }
    const float vn = normal_velocity(row, rows, r, a, b, state);
    const float old = lambda[ACC_N * rows + r];
    float next = old + (-(massScale * ((vn + bias) / row[ROW_K * rows + r])) - impulseScale * old);
    if (next < 0.0f) {
        next = 0.0f;
    }
    lambda[ACC_N * rows + r] = next;
    return next - old;
}

/*
 * Visits rows [first, end): the soft normal row (relax 0) or the relax row (1), then the tangent and
 * rolling pairs where the batch has them. Returns the largest change of an accumulated impulse.
 */
float sweep(__global const float* row, const int rows, __global const float* soft, __global const int* slots,
            __global const int* movers, __global float* lambda, __global float* state,
            __global const float* motion, const int worldSlot, const soft_coefficients coefficients,
            const int relax, const int frictional, __global float* peak, const int first, const int end)
{
    const int world = worldSlot * STATE_STRIDE;
    float largest = 0.0f;
    for (int r = first; r < end; r++) {
        if (!(row[ROW_K * rows + r] > 0.0f)) {
            continue;
        }
        const int a = slots[LINK_A * rows + r] * STATE_STRIDE;
        const int b = slots[LINK_B * rows + r] * STATE_STRIDE;
        const float s = separation(row, rows, r, soft, motion, movers[LINK_A * rows + r] * MOTION_STRIDE,
                                   movers[LINK_B * rows + r] * MOTION_STRIDE);
        const float applied = soft_normal_impulse(row, rows, r, lambda, a, b, state, s, coefficients, relax);
        apply_impulse(row, rows, r, a, b, applied, state, world);
        float change = fabs(applied);
        const float next = lambda[ACC_N * rows + r];
        peak[r] = next > peak[r] ? next : peak[r];
        if (frictional) {
            change = solve_friction_pairs(row, rows, r, a, b, lambda, state, world, next, change);
        }
        largest = java_max(largest, change);
    }
    return largest;
}

/*
 * Step 6, rows [first, end): a contact that approached faster than the threshold (its
 * TARGET = -e v_n0 > 0) and carried a normal impulse in this step gets the rigid normal row
 * towards -e v_n0. Returns the largest change.
 */
float restitution(__global const float* row, const int rows, __global const int* slots, __global float* lambda,
                  __global float* state, const int worldSlot, __global const float* peak, const int first,
                  const int end)
{
    const int world = worldSlot * STATE_STRIDE;
    float largest = 0.0f;
    for (int r = first; r < end; r++) {
        if (!(row[ROW_K * rows + r] > 0.0f) || !(row[ROW_TARGET * rows + r] > 0.0f) || !(peak[r] > 0.0f)) {
            continue;
        }
        const float change = solve_normal(row, rows, r, lambda, slots[LINK_A * rows + r] * STATE_STRIDE,
                                          slots[LINK_B * rows + r] * STATE_STRIDE, state, world);
        largest = java_max(largest, change);
    }
    return largest;
}

/*
 * Step 4 for body i: dx += v h and dq turned by w h, renormalised, with R(dq) - 1 refreshed; v is the
 * body's velocity at the start of the step plus its change so far (state offset s, or none for a
 * body contacts cannot move: s < 0).
 */
void integrate(__global const float* bodies, const int stride, const int i, __global const float* state,
               const int s, __global float* motion, const float h)
{
    float vx = bodies[BODY_VX * stride + i];
    float vy = bodies[BODY_VY * stride + i];
    float vz = bodies[BODY_VZ * stride + i];
    float wx = bodies[BODY_WX * stride + i];
    float wy = bodies[BODY_WY * stride + i];
    float wz = bodies[BODY_WZ * stride + i];
    if (s >= 0) {
        vx = vx + state[s + STATE_DVX];
        vy = vy + state[s + STATE_DVY];
        vz = vz + state[s + STATE_DVZ];
        wx = wx + state[s + STATE_DWX];
        wy = wy + state[s + STATE_DWY];
        wz = wz + state[s + STATE_DWZ];
    }
    const int m = i * MOTION_STRIDE;
    motion[m + MOTION_DX] = motion[m + MOTION_DX] + vx * h;
    motion[m + MOTION_DX + 1] = motion[m + MOTION_DX + 1] + vy * h;
    motion[m + MOTION_DX + 2] = motion[m + MOTION_DX + 2] + vz * h;
    if (wx == 0.0f && wy == 0.0f && wz == 0.0f) {
        return;
    }
    float q[4] = {motion[m + MOTION_QW], motion[m + MOTION_QX], motion[m + MOTION_QY], motion[m + MOTION_QZ]};
    turn_orientation(q, wx, wy, wz, 0.5f * h);
    const float qw = q[0];
    const float qx = q[1];
    const float qy = q[2];
    const float qz = q[3];
    motion[m + MOTION_QW] = qw;
    motion[m + MOTION_QX] = qx;
    motion[m + MOTION_QY] = qy;
    motion[m + MOTION_QZ] = qz;
    /* R(q) - 1 with the diagonal written as -2 (..) rather than 1 - 2 (..) - 1: no cancellation */
    const float xx = qx * qx;
    const float yy = qy * qy;
    const float zz = qz * qz;
    const float xy = qx * qy;
    const float xz = qx * qz;
    const float yz = qy * qz;
    const float xw = qw * qx;
    const float yw = qw * qy;
    const float zw = qw * qz;
    motion[m + MOTION_M00] = -2.0f * (yy + zz);
    motion[m + MOTION_M00 + 1] = 2.0f * (xy - zw);
    motion[m + MOTION_M00 + 2] = 2.0f * (xz + yw);
    motion[m + MOTION_M00 + 3] = 2.0f * (xy + zw);
    motion[m + MOTION_M00 + 4] = -2.0f * (xx + zz);
    motion[m + MOTION_M00 + 5] = 2.0f * (yz - xw);
    motion[m + MOTION_M00 + 6] = 2.0f * (xz - yw);
    motion[m + MOTION_M00 + 7] = 2.0f * (yz + xw);
    motion[m + MOTION_M00 + 8] = -2.0f * (xx + yy);
}

/* A fresh motion record for body i: no displacement, identity rotation, R - 1 = 0. */
void reset_motion(__global float* motion, const int i)
{
    const int m = i * MOTION_STRIDE;
    for (int f = 0; f < MOTION_STRIDE; f++) {
        motion[m + f] = 0.0f;
    }
    motion[m + MOTION_QW] = 1.0f;
}

/*
 * The end of the step for body i: x = x0 + dx, q = dq q0 renormalised (a body that never turned
 * keeps its orientation bits), v, w the start's plus the change (state offset s, or none: s < 0),
 * written to next (BODY_* layout, stride nextStride); the change less g dt for a body with mass is
 * its delta.
 */
void finish_body(__global const float* bodies, const int stride, const int i, __global const float* state,
                 const int s, __global const float* motion, const float gx, const float gy, const float gz,
                 const float dt, __global float* next, const int nextStride, __global float* deltas,
                 const int deltaStride)
{
    const int m = i * MOTION_STRIDE;
    for (int axis = 0; axis < 3; axis++) {
        const float x = bodies[(BODY_X + axis) * stride + i];
        next[(BODY_X + axis) * nextStride + i] = x + motion[m + MOTION_DX + axis];
    }
    const float dqw = motion[m + MOTION_QW];
    const float dqx = motion[m + MOTION_QX];
    const float dqy = motion[m + MOTION_QY];
    const float dqz = motion[m + MOTION_QZ];
    float qw = bodies[BODY_QW * stride + i];
    float qx = bodies[BODY_QX * stride + i];
    float qy = bodies[BODY_QY * stride + i];
    float qz = bodies[BODY_QZ * stride + i];
    if (!(dqw == 1.0f && dqx == 0.0f && dqy == 0.0f && dqz == 0.0f)) {
        const float nw = ((dqw * qw - dqx * qx) - dqy * qy) - dqz * qz;
        const float nx = ((dqw * qx + dqx * qw) + dqy * qz) - dqz * qy;
        const float ny = ((dqw * qy - dqx * qz) + dqy * qw) + dqz * qx;
        const float nz = ((dqw * qz + dqx * qy) - dqy * qx) + dqz * qw;
        const float norm = sqrt(nw * nw + nx * nx + ny * ny + nz * nz);
        qw = nw / norm;
        qx = nx / norm;
        qy = ny / norm;
        qz = nz / norm;
    }
    next[BODY_QW * nextStride + i] = qw;
    next[BODY_QX * nextStride + i] = qx;
    next[BODY_QY * nextStride + i] = qy;
    next[BODY_QZ * nextStride + i] = qz;
    const int heavy = bodies[BODY_INV_MASS * stride + i] > 0.0f;
    for (int axis = 0; axis < 3; axis++) {
        const float v = bodies[(BODY_VX + axis) * stride + i];
        const float w = bodies[(BODY_WX + axis) * stride + i];
        const float dv = s >= 0 ? state[s + STATE_DVX + axis] : 0.0f;
        const float dw = s >= 0 ? state[s + STATE_DWX + axis] : 0.0f;
        next[(BODY_VX + axis) * nextStride + i] = s >= 0 ? v + dv : v;
        next[(BODY_WX + axis) * nextStride + i] = s >= 0 ? w + dw : w;
        deltas[(DELTA_DVX + axis) * deltaStride + i] = heavy ? dv - (axis == 0 ? gx : axis == 1 ? gy : gz) * dt : dv;
        deltas[(DELTA_DWX + axis) * deltaStride + i] = dw;
    }
}

/* ---- kernels: the loops of CpuBackend.softStep ------------------------------------------------ */

/* Row r's soft fields from contact order[r], the motion record each side reads, and its peak impulse 0. */
__kernel void prepare_soft_rows(__global const float* contacts, __global const int* links, const int contactStride,
                                __global const int* order, const int rows, const int bodyCount,
                                __global const float* prepared, __global float* soft, __global int* movers,
                                __global float* peak)
{
    const int r = get_global_id(0);
    if (r >= rows) {
        return;
    }
    const int c = order[r];
    const int a = links[LINK_A * contactStride + c];
    const int b = links[LINK_B * contactStride + c];
    prepare_soft_row(contacts, contactStride, c, r, rows, record(prepared, a, bodyCount),
                     record(prepared, b, bodyCount), soft);
    movers[LINK_A * rows + r] = a >= 0 ? a : bodyCount;
    movers[LINK_B * rows + r] = b >= 0 ? b : bodyCount;
    peak[r] = 0.0f;
}

/* Every body's motion record fresh, and the world's record after them all zero (its QW too). */
__kernel void reset_motions(__global float* motion, const int bodyCount)
{
    const int i = get_global_id(0);
    if (i > bodyCount) {
        return;
    }
    if (i < bodyCount) {
        reset_motion(motion, i);
        return;
    }
    for (int f = 0; f < MOTION_STRIDE; f++) {
        motion[i * MOTION_STRIDE + f] = 0.0f;
    }
}

__kernel void apply_substep_gravity(__global const float* bodies, const int stride, const int bodyCount,
                                    __global const int* movable, __global float* state, const float gx,
                                    const float gy, const float gz, const float h)
{
    const int i = get_global_id(0);
    if (i >= bodyCount) {
        return;
    }
    if (movable[i] && bodies[BODY_INV_MASS * stride + i] > 0.0f) {
        soft_apply_gravity(state, i * STATE_STRIDE, gx, gy, gz, h);
    }
}

/*
 * One soft or relax sweep of a colour, one row a work-item, or with `serial` of the overflow rows in
 * order on one work-item. With `record` (the last sweep of the step) the largest change goes into
 * residuals[0].
 */
__kernel void soft_sweep(__global const float* row, const int rows, __global const float* soft,
                         __global const int* slots, __global const int* movers, __global float* lambda,
                         __global float* state, __global const float* motion, const int worldSlot,
                         const float inverseSubstep, const float biasRate, const float massScale,
                         const float impulseScale, const float maxPushOut, const int relax, const int frictional,
                         __global float* peak, const int first, const int count, const int serial,
                         __global int* residuals, const int record)
{
    const int i = get_global_id(0);
    if ((serial && i != 0) || (!serial && i >= count)) {
        return;
    }
    const soft_coefficients coefficients = {inverseSubstep, biasRate, massScale, impulseScale, maxPushOut};
    const int begin = serial ? first : first + i;
    const int end = serial ? first + count : first + i + 1;
    const float largest = sweep(row, rows, soft, slots, movers, lambda, state, motion, worldSlot, coefficients, relax,
                                frictional, peak, begin, end);
    if (record && as_int(largest) > 0) {
        atomic_max(&residuals[0], as_int(largest));
    }
}

__kernel void integrate_motions(__global const float* bodies, const int stride, const int bodyCount,
                                __global const int* movable, __global const float* state, __global float* motion,
                                const float h)
{
    const int i = get_global_id(0);
    if (i >= bodyCount) {
        return;
    }
    integrate(bodies, stride, i, state, movable[i] ? i * STATE_STRIDE : -1, motion, h);
}

/* The restitution pass over a colour (one row a work-item) or the overflow (`serial`); its largest change into residuals[0]. */
__kernel void soft_restitution(__global const float* row, const int rows, __global const int* slots,
                               __global float* lambda, __global float* state, const int worldSlot,
                               __global const float* peak, const int first, const int count, const int serial,
                               __global int* residuals)
{
    const int i = get_global_id(0);
    if ((serial && i != 0) || (!serial && i >= count)) {
        return;
    }
    const int begin = serial ? first : first + i;
    const int end = serial ? first + count : first + i + 1;
    const float largest = restitution(row, rows, slots, lambda, state, worldSlot, peak, begin, end);
    if (as_int(largest) > 0) {
        atomic_max(&residuals[0], as_int(largest));
    }
}

__kernel void finish_bodies(__global const float* bodies, const int stride, const int bodyCount,
                            __global const int* movable, __global const float* state, __global const float* motion,
                            const float gx, const float gy, const float gz, const float dt, __global float* next,
                            const int nextStride, __global float* deltas, const int deltaStride)
{
    const int i = get_global_id(0);
    if (i >= bodyCount) {
        return;
    }
    finish_body(bodies, stride, i, state, movable[i] ? i * STATE_STRIDE : -1, motion, gx, gy, gz, dt, next,
                nextStride, deltas, deltaStride);
}
