/*
 * The iterative solve: the OpenCL twin of host/io/contactsolver/cpu/Iterative.java.
 *
 *   prepare_rows        one work-item per row: a contact, in colour order, at pre-solve velocities
 *   apply_warm_start    one work-item per row of a colour (or one for the overflow): starting impulses
 *   solve_colour        one work-item per row of a colour: one projected Gauss-Seidel step
 *   solve_overflow      one work-item for all overflow rows, in order
 *   write_state_deltas  one work-item per body; scatter_impulses one per row
 *
 * Rows are ROW_COUNT floats, structure of arrays with stride `rows`; the state is STATE_STRIDE
 * floats a body, array of structures; slot `worldSlot` stands for the world and every immovable
 * body and is never written. No two rows of a colour share a written body, so a colour needs no
 * atomics on floats. The residual of an iteration, the largest change of any accumulated impulse,
 * is kept as float bits in residuals[iteration]: non-negative floats order like their bits, so an
 * integer atomic_max gives the exact maximum whatever the order. Once an iteration's residual is
 * at or below the tolerance, the kernels of later iterations do nothing, as the CPU stops there.
 */

/*
 * Row r holds contact order[r]; or, with `direct`, contact r, when the host has laid the contacts
 * of a chunk out in row order itself (for batches larger than the device's largest allocation).
 */
__kernel void prepare_rows(__global const float* contacts, __global const int* links, const int contactStride,
                           __global const int* order, const int direct, const int rows, const int worldRecord,
                           __global const float* prepared, const float restitutionThreshold,
                           const float inverseTimeStep, const float biasFactor, const float slop,
                           __global const float* warm, const int useWarm,
                           __global float* row, __global float* lambda)
{
    const int r = get_global_id(0);
    if (r >= rows) {
        return;
    }
    const int c = direct ? r : order[r];
    float scratch[ROW_COUNT];
    evaluate_contact(contacts, contactStride, c, record(prepared, links[LINK_A * contactStride + c], worldRecord),
                     record(prepared, links[LINK_B * contactStride + c], worldRecord), restitutionThreshold,
                     inverseTimeStep, biasFactor, slop, scratch);
    for (int field = 0; field < ROW_COUNT; field++) {
        row[field * rows + r] = scratch[field];
    }
    lambda[r] = scratch[ROW_K] > 0.0f ? (useWarm ? warm[c] : 0.0f) : 0.0f;
}

/* Adds the velocity change of an impulse `applied` along n: - on a, + on b. */
void apply_impulse(__global const float* row, const int rows, const int r, const int a, const int b,
                   const float applied, __global float* state, const int world)
{
    const float nx = row[ROW_NX * rows + r];
    const float ny = row[ROW_NY * rows + r];
    const float nz = row[ROW_NZ * rows + r];
    if (a != world) {
        const float impulseA = -applied;
        const float linearA = impulseA * row[ROW_INV_MASS_A * rows + r];
        state[a + STATE_DVX] += linearA * nx;
        state[a + STATE_DVY] += linearA * ny;
        state[a + STATE_DVZ] += linearA * nz;
        state[a + STATE_DWX] += impulseA * row[ROW_DIR_AX * rows + r];
        state[a + STATE_DWY] += impulseA * row[ROW_DIR_AY * rows + r];
        state[a + STATE_DWZ] += impulseA * row[ROW_DIR_AZ * rows + r];
    }
    if (b != world) {
        const float impulseB = applied;
        const float linearB = impulseB * row[ROW_INV_MASS_B * rows + r];
        state[b + STATE_DVX] += linearB * nx;
        state[b + STATE_DVY] += linearB * ny;
        state[b + STATE_DVZ] += linearB * nz;
        state[b + STATE_DWX] += impulseB * row[ROW_DIR_BX * rows + r];
        state[b + STATE_DWY] += impulseB * row[ROW_DIR_BY * rows + r];
        state[b + STATE_DWZ] += impulseB * row[ROW_DIR_BZ * rows + r];
    }
}

/*
 * One projected Gauss-Seidel step on row r: the impulse that brings v_n to the target, accumulated
 * and clamped at zero. Returns how much the accumulated impulse changed.
 */
float solve_row(__global const float* row, const int rows, const int r, __global const int* slots,
                __global float* lambda, __global float* state, const int worldSlot)
{
    const float k = row[ROW_K * rows + r];
    if (!(k > 0.0f)) {
        return 0.0f;
    }
    const int a = slots[LINK_A * rows + r] * STATE_STRIDE;
    const int b = slots[LINK_B * rows + r] * STATE_STRIDE;
    const float nx = row[ROW_NX * rows + r];
    const float ny = row[ROW_NY * rows + r];
    const float nz = row[ROW_NZ * rows + r];
    const float dvx = state[b + STATE_DVX] - state[a + STATE_DVX];
    const float dvy = state[b + STATE_DVY] - state[a + STATE_DVY];
    const float dvz = state[b + STATE_DVZ] - state[a + STATE_DVZ];
    const float linear = dvx * nx + dvy * ny + dvz * nz;
    const float angularB = row[ROW_RXN_BX * rows + r] * state[b + STATE_DWX]
            + row[ROW_RXN_BY * rows + r] * state[b + STATE_DWY]
            + row[ROW_RXN_BZ * rows + r] * state[b + STATE_DWZ];
    const float angularA = row[ROW_RXN_AX * rows + r] * state[a + STATE_DWX]
            + row[ROW_RXN_AY * rows + r] * state[a + STATE_DWY]
            + row[ROW_RXN_AZ * rows + r] * state[a + STATE_DWZ];
    const float vn = row[ROW_VN0 * rows + r] + ((linear + angularB) - angularA);
    const float old = lambda[r];
    float next = old + (row[ROW_TARGET * rows + r] - vn) / k;
    if (next < 0.0f) {
        next = 0.0f;
    }
    const float applied = next - old;
    lambda[r] = next;
    apply_impulse(row, rows, r, a, b, applied, state, worldSlot * STATE_STRIDE);
    return fabs(applied);
}

/* A colour in parallel, one row a work-item; or, with `serial`, the overflow rows in order on one work-item. */
__kernel void apply_warm_start(__global const float* row, const int rows, __global const int* slots,
                               __global const float* lambda, __global float* state, const int worldSlot,
                               const int first, const int count, const int serial)
{
    const int i = get_global_id(0);
    const int begin = serial ? first : first + i;
    const int end = serial ? first + count : first + i + 1;
    if ((serial && i != 0) || (!serial && i >= count)) {
        return;
    }
    for (int r = begin; r < end; r++) {
        apply_impulse(row, rows, r, slots[LINK_A * rows + r] * STATE_STRIDE, slots[LINK_B * rows + r] * STATE_STRIDE,
                      lambda[r], state, worldSlot * STATE_STRIDE);
    }
}

/* True once an earlier iteration met the tolerance: the CPU has stopped there. Uniform across the launch. */
int converged(__global const int* residuals, const int iteration, const int toleranceBits)
{
    return iteration > 0 && residuals[iteration - 1] <= toleranceBits;
}

/* Requires a power-of-two work-group size; `scratch` holds one int per work-item. */
__kernel void solve_colour(__global const float* row, const int rows, __global const int* slots,
                           __global float* lambda, __global float* state, const int worldSlot,
                           const int first, const int count, __global int* residuals, const int iteration,
                           const int toleranceBits, __local int* scratch)
{
    if (converged(residuals, iteration, toleranceBits)) {
        return;
    }
    const int i = get_global_id(0);
    const int lid = get_local_id(0);
    int change = 0;
    if (i < count) {
        change = as_int(solve_row(row, rows, first + i, slots, lambda, state, worldSlot));
    }
    scratch[lid] = change;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int span = get_local_size(0) / 2; span > 0; span /= 2) {
        if (lid < span) {
            scratch[lid] = max(scratch[lid], scratch[lid + span]);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0 && scratch[0] > 0) {
        atomic_max(&residuals[iteration], scratch[0]);
    }
}

__kernel void solve_overflow(__global const float* row, const int rows, __global const int* slots,
                             __global float* lambda, __global float* state, const int worldSlot,
                             const int first, const int count, __global int* residuals, const int iteration,
                             const int toleranceBits)
{
    if (get_global_id(0) != 0 || converged(residuals, iteration, toleranceBits)) {
        return;
    }
    float largest = 0.0f;
    for (int r = first; r < first + count; r++) {
        const float change = solve_row(row, rows, r, slots, lambda, state, worldSlot);
        largest = change > largest ? change : largest;
    }
    if (largest > 0.0f) {
        atomic_max(&residuals[iteration], as_int(largest));
    }
}

__kernel void write_state_deltas(__global const float* state, const int bodyCount, const int deltaStride,
                                 __global float* deltas)
{
    const int i = get_global_id(0);
    if (i >= bodyCount) {
        return;
    }
    __global const float* s = state + i * STATE_STRIDE;
    deltas[DELTA_DVX * deltaStride + i] = s[STATE_DVX];
    deltas[DELTA_DVY * deltaStride + i] = s[STATE_DVY];
    deltas[DELTA_DVZ * deltaStride + i] = s[STATE_DVZ];
    deltas[DELTA_DWX * deltaStride + i] = s[STATE_DWX];
    deltas[DELTA_DWY * deltaStride + i] = s[STATE_DWY];
    deltas[DELTA_DWZ * deltaStride + i] = s[STATE_DWZ];
}

__kernel void scatter_impulses(__global const float* lambda, __global const int* order, const int rows,
                               __global float* impulses)
{
    const int r = get_global_id(0);
    if (r < rows) {
        impulses[order[r]] = lambda[r];
    }
}
