/*
 * The iterative solve: the OpenCL twin of host/io/contactsolver/cpu/Iterative.java.
 *
 *   prepare_rows        one work-item per row: a contact, in colour order, at pre-solve velocities
 *   apply_warm_start    one work-item per row of a colour (or one for the overflow): starting impulses
 *   solve_colour        one work-item per row of a colour: one projected Gauss-Seidel step
 *   solve_overflow      one work-item for all overflow rows, in order
 *   write_state_deltas  one work-item per body; scatter_impulses one per row (a chunk's rows, for a cut batch)
 *
 * Rows are ROW_COUNT floats, structure of arrays with stride `rows`; the state is STATE_STRIDE
 * floats a body, array of structures; slot `worldSlot` stands for the world and every immovable
 * body and is never written. No two rows of a colour share a written body, so a colour needs no
 * atomics on floats. The residual of an iteration, the largest change of any accumulated impulse,
 * is kept as float bits in residuals[iteration % RESIDUAL_SLOTS] (a ring the host reads back and
 * clears a window at a time, so it does not grow with the iteration cap): non-negative floats
 * order like their bits, so an integer atomic_max gives the exact maximum whatever the order. Once
 * an iteration's residual is at or below the tolerance, the kernels of later iterations do
 * nothing, as the CPU stops there.
 */

/* Scales the pair (lambda[i], lambda[k]) back onto the disk of radius limit >= 0 if it lies outside. */
void project_onto_disk(__global float* lambda, const int i, const int k, const float limit)
{
    const float x = lambda[i];
    const float y = lambda[k];
    const float squared = x * x + y * y;
    if (squared > limit * limit) {
        const float scale = limit / sqrt(squared);
        lambda[i] = x * scale;
        lambda[k] = y * scale;
    }
}

/* Starts a pair at the warm vector's components along the row's tangents, inside the disk of radius limit. */
void warm_pair(__global const float* warm, const int warmStride, const int c, const int first, const float* scratch,
               __global float* lambda, const int rows, const int r, const int first1, const int first2,
               const float limit)
{
    const float x = warm[first * warmStride + c];
    const float y = warm[(first + 1) * warmStride + c];
    const float z = warm[(first + 2) * warmStride + c];
    lambda[first1 * rows + r] = x * scratch[ROW_T1X] + y * scratch[ROW_T1Y] + z * scratch[ROW_T1Z];
    lambda[first2 * rows + r] = x * scratch[ROW_T2X] + y * scratch[ROW_T2Y] + z * scratch[ROW_T2Z];
    project_onto_disk(lambda, first1 * rows + r, first2 * rows + r, limit);
}

/* value clamped into [-limit, limit] (limit >= 0); a NaN stays NaN. */
float clamp_magnitude(const float value, const float limit)
{
    return value > limit ? limit : value < -limit ? -limit : value;
}

/* Starts the twist at the warm angular vector's component along the row's normal, clamped into [-limit, limit]. */
void warm_twist(__global const float* warm, const int warmStride, const int c, const float* scratch,
                __global float* lambda, const int rows, const int r, const float limit)
{
    const float x = warm[IMPULSE_RX * warmStride + c];
    const float y = warm[IMPULSE_RY * warmStride + c];
    const float z = warm[IMPULSE_RZ * warmStride + c];
    lambda[ACC_TW * rows + r] = clamp_magnitude(x * scratch[ROW_NX] + y * scratch[ROW_NY] + z * scratch[ROW_NZ],
                                                limit);
}

/*
 * Fills row r from contact order[r] at the pre-solve velocities; or, with `direct`, from contact r,
 * when the host has laid the contacts of a chunk out in row order itself (for batches larger than
 * the device's largest allocation). Its accumulated impulses start from the warm start
 * (ImpulseField layout, the contacts' stride), or 0 for a contact neither of whose bodies can move:
 * the normal impulse as it was, the friction and rolling vectors projected onto this row's tangents
 * (what a turned normal has moved out of the tangent plane is dropped) and scaled back into this
 * row's disks, the twist the angular vector's component along this row's normal, clamped into its
 * limit. Every row gets its TAU, a frictionless one 0.
 */
__kernel void prepare_rows(__global const float* contacts, __global const int* links, const int contactStride,
                           __global const int* order, const int direct, const int rows, const int worldRecord,
                           __global const float* prepared, const float restitutionThreshold,
                           const float inverseTimeStep, const float biasFactor, const float slop,
                           const int useFriction, __global const float* warm, const int useWarm,
                           __global float* row, __global float* lambda)
{
    const int r = get_global_id(0);
    if (r >= rows) {
        return;
    }
    const int c = direct ? r : order[r];
    __global const float* bodyA = record(prepared, links[LINK_A * contactStride + c], worldRecord);
    __global const float* bodyB = record(prepared, links[LINK_B * contactStride + c], worldRecord);
    float scratch[ROW_COUNT];
    float work[WORK_COUNT];
    evaluate_contact(contacts, contactStride, c, bodyA, bodyB, restitutionThreshold, inverseTimeStep, biasFactor,
                     slop, scratch);
    const float mu = useFriction ? contacts[CONTACT_FRICTION * contactStride + c] : 0.0f;
    const float rho = useFriction ? contacts[CONTACT_ROLLING_RESISTANCE * contactStride + c] : 0.0f;
    const float tau = useFriction ? contacts[CONTACT_TORSION * contactStride + c] : 0.0f;
    scratch[ROW_MU] = mu;
    scratch[ROW_RHO] = rho;
    scratch[ROW_TAU] = tau;
    const int frictional = mu > 0.0f || rho > 0.0f || tau > 0.0f;
    if (frictional) {
        evaluate_friction(contacts, contactStride, c, bodyA, bodyB, scratch, work);
        evaluate_twist(bodyA, bodyB, scratch);
    }
    const int fields = frictional ? ROW_COUNT : ROW_FRICTIONLESS_COUNT;
    for (int field = 0; field < fields; field++) {
        row[field * rows + r] = scratch[field];
    }
    row[ROW_TAU * rows + r] = scratch[ROW_TAU];
    const int movable = scratch[ROW_K] > 0.0f;
    const int warmed = useWarm && movable;
    lambda[ACC_N * rows + r] = warmed ? warm[IMPULSE_J * contactStride + c] : 0.0f;
    lambda[ACC_T1 * rows + r] = 0.0f;
    lambda[ACC_T2 * rows + r] = 0.0f;
    lambda[ACC_R1 * rows + r] = 0.0f;
    lambda[ACC_R2 * rows + r] = 0.0f;
    lambda[ACC_TW * rows + r] = 0.0f;
    if (warmed && scratch[ROW_MU] > 0.0f) {
        warm_pair(warm, contactStride, c, IMPULSE_TX, scratch, lambda, rows, r, ACC_T1, ACC_T2,
                  scratch[ROW_MU] * lambda[ACC_N * rows + r]);
    }
    if (warmed && scratch[ROW_RHO] > 0.0f) {
        warm_pair(warm, contactStride, c, IMPULSE_RX, scratch, lambda, rows, r, ACC_R1, ACC_R2,
                  scratch[ROW_RHO] * lambda[ACC_N * rows + r]);
    }
    if (warmed && scratch[ROW_TAU] > 0.0f) {
        warm_twist(warm, contactStride, c, scratch, lambda, rows, r, scratch[ROW_TAU] * lambda[ACC_N * rows + r]);
    }
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
 * Adds to the body at state offset s the velocity change of impulses impulse1 t1 + impulse2 t2: the
 * side's inverse mass at field inverseMass, its I^-1 (r x t_i) at dirt1 and dirt2 (x, y, z triples).
 */
void add_tangential(__global const float* row, const int rows, const int r, const int s, const float impulse1,
                    const float impulse2, const int inverseMass, const int dirt1, const int dirt2,
                    __global float* state)
{
    const float linear1 = impulse1 * row[inverseMass * rows + r];
    const float linear2 = impulse2 * row[inverseMass * rows + r];
    state[s + STATE_DVX] += linear1 * row[ROW_T1X * rows + r] + linear2 * row[ROW_T2X * rows + r];
    state[s + STATE_DVY] += linear1 * row[ROW_T1Y * rows + r] + linear2 * row[ROW_T2Y * rows + r];
    state[s + STATE_DVZ] += linear1 * row[ROW_T1Z * rows + r] + linear2 * row[ROW_T2Z * rows + r];
    state[s + STATE_DWX] += impulse1 * row[dirt1 * rows + r] + impulse2 * row[dirt2 * rows + r];
    state[s + STATE_DWY] += impulse1 * row[(dirt1 + 1) * rows + r] + impulse2 * row[(dirt2 + 1) * rows + r];
    state[s + STATE_DWZ] += impulse1 * row[(dirt1 + 2) * rows + r] + impulse2 * row[(dirt2 + 2) * rows + r];
}

/* Adds the velocity change of tangential impulses applied1 t1 + applied2 t2: - on a, + on b. */
void apply_tangents(__global const float* row, const int rows, const int r, const int a, const int b,
                    const float applied1, const float applied2, __global float* state, const int world)
{
    if (a != world) {
        add_tangential(row, rows, r, a, -applied1, -applied2, ROW_INV_MASS_A, ROW_DIRT1_AX, ROW_DIRT2_AX, state);
    }
    if (b != world) {
        add_tangential(row, rows, r, b, applied1, applied2, ROW_INV_MASS_B, ROW_DIRT1_BX, ROW_DIRT2_BX, state);
    }
}

/* Adds the angular velocity change of rolling impulses applied1 t1 + applied2 t2: - on a, + on b. */
void apply_rolling(__global const float* row, const int rows, const int r, const int a, const int b,
                   const float applied1, const float applied2, __global float* state, const int world)
{
    if (a != world) {
        const float impulse1 = -applied1;
        const float impulse2 = -applied2;
        state[a + STATE_DWX] += impulse1 * row[ROW_ROLL1_AX * rows + r] + impulse2 * row[ROW_ROLL2_AX * rows + r];
        state[a + STATE_DWY] += impulse1 * row[ROW_ROLL1_AY * rows + r] + impulse2 * row[ROW_ROLL2_AY * rows + r];
        state[a + STATE_DWZ] += impulse1 * row[ROW_ROLL1_AZ * rows + r] + impulse2 * row[ROW_ROLL2_AZ * rows + r];
    }
    if (b != world) {
        const float impulse1 = applied1;
        const float impulse2 = applied2;
        state[b + STATE_DWX] += impulse1 * row[ROW_ROLL1_BX * rows + r] + impulse2 * row[ROW_ROLL2_BX * rows + r];
        state[b + STATE_DWY] += impulse1 * row[ROW_ROLL1_BY * rows + r] + impulse2 * row[ROW_ROLL2_BY * rows + r];
        state[b + STATE_DWZ] += impulse1 * row[ROW_ROLL1_BZ * rows + r] + impulse2 * row[ROW_ROLL2_BZ * rows + r];
    }
}

/* Adds the angular velocity change of a twist impulse `applied` about n: - on a, + on b. */
void apply_twist(__global const float* row, const int rows, const int r, const int a, const int b,
                 const float applied, __global float* state, const int world)
{
    if (a != world) {
        const float impulseA = -applied;
        state[a + STATE_DWX] += impulseA * row[ROW_TWIST_AX * rows + r];
        state[a + STATE_DWY] += impulseA * row[ROW_TWIST_AY * rows + r];
        state[a + STATE_DWZ] += impulseA * row[ROW_TWIST_AZ * rows + r];
    }
    if (b != world) {
        const float impulseB = applied;
        state[b + STATE_DWX] += impulseB * row[ROW_TWIST_BX * rows + r];
        state[b + STATE_DWY] += impulseB * row[ROW_TWIST_BY * rows + r];
        state[b + STATE_DWZ] += impulseB * row[ROW_TWIST_BZ * rows + r];
    }
}

/*
 * The relative contact velocity along one tangent: the row's tangent at field t, its r x t of each
 * side at rxtA and rxtB (x, y, z triples), its starting velocity at v0.
 */
float tangent_velocity(__global const float* row, const int rows, const int r, const int a, const int b,
                       __global const float* state, const int t, const int rxtA, const int rxtB, const int v0)
{
    const float dvx = state[b + STATE_DVX] - state[a + STATE_DVX];
    const float dvy = state[b + STATE_DVY] - state[a + STATE_DVY];
    const float dvz = state[b + STATE_DVZ] - state[a + STATE_DVZ];
    const float linear = dvx * row[t * rows + r] + dvy * row[(t + 1) * rows + r] + dvz * row[(t + 2) * rows + r];
    const float angularB = row[rxtB * rows + r] * state[b + STATE_DWX]
            + row[(rxtB + 1) * rows + r] * state[b + STATE_DWY]
            + row[(rxtB + 2) * rows + r] * state[b + STATE_DWZ];
    const float angularA = row[rxtA * rows + r] * state[a + STATE_DWX]
            + row[(rxtA + 1) * rows + r] * state[a + STATE_DWY]
            + row[(rxtA + 2) * rows + r] * state[a + STATE_DWZ];
    return row[v0 * rows + r] + ((linear + angularB) - angularA);
}

/* The tangent pair's new accumulated impulses, stepped and projected onto the disk, not yet applied. */
void step_tangents(__global const float* row, const int rows, const int r, const int a, const int b,
                   __global float* lambda, __global const float* state, const float limit)
{
    const float vt1 = tangent_velocity(row, rows, r, a, b, state, ROW_T1X, ROW_RXT1_AX, ROW_RXT1_BX, ROW_VT1_0);
    const float vt2 = tangent_velocity(row, rows, r, a, b, state, ROW_T2X, ROW_RXT2_AX, ROW_RXT2_BX, ROW_VT2_0);
    const float kt = row[ROW_KT * rows + r];
    const float old1 = lambda[ACC_T1 * rows + r];
    const float old2 = lambda[ACC_T2 * rows + r];
    lambda[ACC_T1 * rows + r] = old1 - vt1 / kt;
    lambda[ACC_T2 * rows + r] = old2 - vt2 / kt;
    project_onto_disk(lambda, ACC_T1 * rows + r, ACC_T2 * rows + r, limit);
}

/* Applies a stepped tangent pair, accumulated at old1, old2 before; returns the larger change. */
float apply_tangents_step(__global const float* row, const int rows, const int r, const int a, const int b,
                          const float old1, const float old2, __global const float* lambda, __global float* state,
                          const int world)
{
    const float applied1 = lambda[ACC_T1 * rows + r] - old1;
    const float applied2 = lambda[ACC_T2 * rows + r] - old2;
    apply_tangents(row, rows, r, a, b, applied1, applied2, state, world);
    const float change1 = fabs(applied1);
    const float change2 = fabs(applied2);
    return change2 > change1 ? change2 : change1;
}

/*
 * The tangent pair: both rows stepped with the one step size k_t from the current relative velocity
 * along t1 and t2, then scaled back onto the disk |lambda_t| <= limit together. Returns the larger
 * change of the two.
 */
float solve_tangents(__global const float* row, const int rows, const int r, const int a, const int b,
                     __global float* lambda, __global float* state, const int world, const float limit)
{
    const float old1 = lambda[ACC_T1 * rows + r];
    const float old2 = lambda[ACC_T2 * rows + r];
    step_tangents(row, rows, r, a, b, lambda, state, limit);
    return apply_tangents_step(row, rows, r, a, b, old1, old2, lambda, state, world);
}

/* The relative angular velocity w_b - w_a along one axis of the row: the axis at field axis (x, y, z), its starting value at w0. */
float angular_velocity(__global const float* row, const int rows, const int r, const int a, const int b,
                       __global const float* state, const int axis, const int w0)
{
    const float dwx = state[b + STATE_DWX] - state[a + STATE_DWX];
    const float dwy = state[b + STATE_DWY] - state[a + STATE_DWY];
    const float dwz = state[b + STATE_DWZ] - state[a + STATE_DWZ];
    return row[w0 * rows + r] + (dwx * row[axis * rows + r] + dwy * row[(axis + 1) * rows + r]
            + dwz * row[(axis + 2) * rows + r]);
}

/* The rolling pair's new accumulated impulses, stepped and projected onto the disk, not yet applied. */
void step_rolling(__global const float* row, const int rows, const int r, const int a, const int b,
                  __global float* lambda, __global const float* state, const float limit)
{
    const float w1 = angular_velocity(row, rows, r, a, b, state, ROW_T1X, ROW_WT1_0);
    const float w2 = angular_velocity(row, rows, r, a, b, state, ROW_T2X, ROW_WT2_0);
    const float kr = row[ROW_KR * rows + r];
    const float old1 = lambda[ACC_R1 * rows + r];
    const float old2 = lambda[ACC_R2 * rows + r];
    lambda[ACC_R1 * rows + r] = old1 - w1 / kr;
    lambda[ACC_R2 * rows + r] = old2 - w2 / kr;
    project_onto_disk(lambda, ACC_R1 * rows + r, ACC_R2 * rows + r, limit);
}

/* Applies a stepped rolling pair, accumulated at old1, old2 before; returns the larger change. */
float apply_rolling_step(__global const float* row, const int rows, const int r, const int a, const int b,
                         const float old1, const float old2, __global const float* lambda, __global float* state,
                         const int world)
{
    const float applied1 = lambda[ACC_R1 * rows + r] - old1;
    const float applied2 = lambda[ACC_R2 * rows + r] - old2;
    apply_rolling(row, rows, r, a, b, applied1, applied2, state, world);
    const float change1 = fabs(applied1);
    const float change2 = fabs(applied2);
    return change2 > change1 ? change2 : change1;
}

/* The rolling pair: as solve_tangents, on the relative angular velocity, with step size k_r. */
float solve_rolling(__global const float* row, const int rows, const int r, const int a, const int b,
                    __global float* lambda, __global float* state, const int world, const float limit)
{
    const float old1 = lambda[ACC_R1 * rows + r];
    const float old2 = lambda[ACC_R2 * rows + r];
    step_rolling(row, rows, r, a, b, lambda, state, limit);
    return apply_rolling_step(row, rows, r, a, b, old1, old2, lambda, state, world);
}

/* The twist's new accumulated impulse, stepped and clamped into [-limit, limit], not yet applied. */
void step_twist(__global const float* row, const int rows, const int r, const int a, const int b,
                __global float* lambda, __global const float* state, const float limit)
{
    const float spin = angular_velocity(row, rows, r, a, b, state, ROW_NX, ROW_WN_0);
    const float old = lambda[ACC_TW * rows + r];
    lambda[ACC_TW * rows + r] = clamp_magnitude(old - spin / row[ROW_KTW * rows + r], limit);
}

/* Applies a stepped twist, accumulated at old before; returns its change. */
float apply_twist_step(__global const float* row, const int rows, const int r, const int a, const int b,
                       const float old, __global const float* lambda, __global float* state, const int world)
{
    const float applied = lambda[ACC_TW * rows + r] - old;
    apply_twist(row, rows, r, a, b, applied, state, world);
    return fabs(applied);
}

/*
 * The twist stage of a row visit of a batch with torsional resistance, after its friction stages,
 * the normal row having left next accumulated: where tau > 0, the twist stepped with step size k_tw
 * from the current relative angular velocity along n, then clamped into |lambda_tw| <= tau next.
 * Returns the larger of change and its change.
 */
float solve_twist(__global const float* row, const int rows, const int r, const int a, const int b,
                  __global float* lambda, __global float* state, const int world, const float next,
                  const float change)
{
    const float tau = row[ROW_TAU * rows + r];
    if (!(tau > 0.0f)) {
        return change;
    }
    const float old = lambda[ACC_TW * rows + r];
    step_twist(row, rows, r, a, b, lambda, state, tau * next);
    const float twisting = apply_twist_step(row, rows, r, a, b, old, lambda, state, world);
    return twisting > change ? twisting : change;
}

/* The row's current normal velocity: VN0 plus what the bodies' velocity changes add along n. */
float normal_velocity(__global const float* row, const int rows, const int r, const int a, const int b,
                      __global const float* state)
{
    const float dvx = state[b + STATE_DVX] - state[a + STATE_DVX];
    const float dvy = state[b + STATE_DVY] - state[a + STATE_DVY];
    const float dvz = state[b + STATE_DVZ] - state[a + STATE_DVZ];
    const float linear = dvx * row[ROW_NX * rows + r] + dvy * row[ROW_NY * rows + r] + dvz * row[ROW_NZ * rows + r];
    const float angularB = row[ROW_RXN_BX * rows + r] * state[b + STATE_DWX]
            + row[ROW_RXN_BY * rows + r] * state[b + STATE_DWY]
            + row[ROW_RXN_BZ * rows + r] * state[b + STATE_DWZ];
    const float angularA = row[ROW_RXN_AX * rows + r] * state[a + STATE_DWX]
            + row[ROW_RXN_AY * rows + r] * state[a + STATE_DWY]
            + row[ROW_RXN_AZ * rows + r] * state[a + STATE_DWZ];
    return row[ROW_VN0 * rows + r] + ((linear + angularB) - angularA);
}

/*
 * The normal row's accumulation and clamp without applying it: the impulse that brings v_n to the
 * target, accumulated at lambda and clamped at zero. Returns the impulse to apply.
 */
float normal_impulse(__global const float* row, const int rows, const int r, __global float* lambda, const int a,
                     const int b, __global const float* state)
{
    const float vn = normal_velocity(row, rows, r, a, b, state);
    const float old = lambda[ACC_N * rows + r];
    float next = old + (row[ROW_TARGET * rows + r] - vn) / row[ROW_K * rows + r];
    if (next < 0.0f) {
        next = 0.0f;
    }
    lambda[ACC_N * rows + r] = next;
    return next - old;
}

/*
 * The friction stages of a row visit after its normal row, which left next accumulated: the
 * tangent pair (disk mu next) where mu > 0, then the rolling pair (disk rho next) where rho > 0.
 * Returns the largest of change and their changes.
 */
float solve_friction_pairs(__global const float* row, const int rows, const int r, const int a, const int b,
                           __global float* lambda, __global float* state, const int world, const float next,
                           float change)
{
    const float mu = row[ROW_MU * rows + r];
    if (mu > 0.0f) {
        const float tangential = solve_tangents(row, rows, r, a, b, lambda, state, world, mu * next);
        change = tangential > change ? tangential : change;
    }
    const float rho = row[ROW_RHO * rows + r];
    if (rho > 0.0f) {
        const float rolling = solve_rolling(row, rows, r, a, b, lambda, state, world, rho * next);
        change = rolling > change ? rolling : change;
    }
    return change;
}


/*
 * The rest of a row visit once its normal impulse `applied` is known: the normal impulse applied,
 * then, with `frictional`, the friction stages and, with `twist` (the batch has torsional
 * resistance), the twist, on the disks of the normal impulse now accumulated. Returns the largest
 * change.
 */
float finish_row(__global const float* row, const int rows, const int r, __global float* lambda, const int a,
                 const int b, __global float* state, const int world, const float applied, const int frictional,
                 const int twist)
{
    apply_impulse(row, rows, r, a, b, applied, state, world);
    float change = fabs(applied);
    if (frictional) {
        change = solve_friction_pairs(row, rows, r, a, b, lambda, state, world, lambda[ACC_N * rows + r], change);
    }
    if (twist) {
        change = solve_twist(row, rows, r, a, b, lambda, state, world, lambda[ACC_N * rows + r], change);
    }
    return change;
}

/* The normal row alone (K > 0), applied to both bodies (state offsets a, b): the row update without its friction stages. */
float solve_normal(__global const float* row, const int rows, const int r, __global float* lambda, const int a,
                   const int b, __global float* state, const int world)
{
    return finish_row(row, rows, r, lambda, a, b, state, world, normal_impulse(row, rows, r, lambda, a, b, state), 0,
                      0);
}

/*
 * The row update: one projected Gauss-Seidel visit of row r: its normal impulse (normal_impulse),
 * then the rest of the visit (finish_row). Returns the largest change of any of its accumulated
 * impulses, 0 for a row neither of whose bodies can move. Rows here always carry the friction and
 * rolling fields (0 where unused), so every visit takes the friction stages; the twist only with
 * `twist` (the batch has torsional resistance), so that a batch without it never reads TAU.
 */
float solve_row(__global const float* row, const int rows, const int r, __global const int* slots,
                __global float* lambda, __global float* state, const int worldSlot, const int twist)
{
    if (!(row[ROW_K * rows + r] > 0.0f)) {
        return 0.0f;
    }
    const int a = slots[LINK_A * rows + r] * STATE_STRIDE;
    const int b = slots[LINK_B * rows + r] * STATE_STRIDE;
    const int world = worldSlot * STATE_STRIDE;
    return finish_row(row, rows, r, lambda, a, b, state, world, normal_impulse(row, rows, r, lambda, a, b, state), 1,
                      twist);
}

/* Applies row r's starting impulses (the warm start) to its bodies; the twist only with `twist`. */
void apply_warm_start_row(__global const float* row, const int rows, const int r, __global const int* slots,
                          __global const float* lambda, __global float* state, const int worldSlot, const int twist)
{
    const int a = slots[LINK_A * rows + r] * STATE_STRIDE;
    const int b = slots[LINK_B * rows + r] * STATE_STRIDE;
    const int world = worldSlot * STATE_STRIDE;
    apply_impulse(row, rows, r, a, b, lambda[ACC_N * rows + r], state, world);
    if (row[ROW_MU * rows + r] > 0.0f) {
        apply_tangents(row, rows, r, a, b, lambda[ACC_T1 * rows + r], lambda[ACC_T2 * rows + r], state, world);
    }
    if (row[ROW_RHO * rows + r] > 0.0f) {
        apply_rolling(row, rows, r, a, b, lambda[ACC_R1 * rows + r], lambda[ACC_R2 * rows + r], state, world);
    }
    if (twist && row[ROW_TAU * rows + r] > 0.0f) {
        apply_twist(row, rows, r, a, b, lambda[ACC_TW * rows + r], state, world);
    }
}

/* A colour in parallel, one row a work-item; or, with `serial`, the overflow rows in order on one work-item. */
__kernel void apply_warm_start(__global const float* row, const int rows, __global const int* slots,
                               __global const float* lambda, const int twist, __global float* state,
                               const int worldSlot, const int first, const int count, const int serial)
{
    const int i = get_global_id(0);
    const int begin = serial ? first : first + i;
    const int end = serial ? first + count : first + i + 1;
    if ((serial && i != 0) || (!serial && i >= count)) {
        return;
    }
    for (int r = begin; r < end; r++) {
        apply_warm_start_row(row, rows, r, slots, lambda, state, worldSlot, twist);
    }
}

/* True once an earlier iteration met the tolerance: the CPU has stopped there. Uniform across the launch. */
int converged(__global const int* residuals, const int iteration, const int toleranceBits)
{
    return iteration > 0 && residuals[(iteration - 1) % RESIDUAL_SLOTS] <= toleranceBits;
}

/*
 * One work-item a row of the colour. The group's largest change is gathered with a local
 * atomic_max of the bits (two barriers, where a tree would take one per halving: on a CPU device
 * each barrier is another pass over the group's work-items); the maximum does not depend on order.
 */
__kernel void solve_colour(__global const float* row, const int rows, __global const int* slots,
                           __global float* lambda, const int twist, __global float* state, const int worldSlot,
                           const int first, const int count, __global int* residuals, const int iteration,
                           const int toleranceBits, __local int* largest)
{
    if (converged(residuals, iteration, toleranceBits)) {
        return;
    }
    const int i = get_global_id(0);
    const int lid = get_local_id(0);
    if (lid == 0) {
        largest[0] = 0;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (i < count) {
        const int change = as_int(solve_row(row, rows, first + i, slots, lambda, state, worldSlot, twist));
        if (change > 0) {
            atomic_max(&largest[0], change);
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0 && largest[0] > 0) {
        atomic_max(&residuals[iteration % RESIDUAL_SLOTS], largest[0]);
    }
}

__kernel void solve_overflow(__global const float* row, const int rows, __global const int* slots,
                             __global float* lambda, const int twist, __global float* state, const int worldSlot,
                             const int first, const int count, __global int* residuals, const int iteration,
                             const int toleranceBits)
{
    if (get_global_id(0) != 0 || converged(residuals, iteration, toleranceBits)) {
        return;
    }
    /* the maximum of the bits, as the colours take it: a NaN change (positive, from fabs) wins, as on the CPU */
    int largest = 0;
    for (int r = first; r < first + count; r++) {
        largest = max(largest, as_int(solve_row(row, rows, r, slots, lambda, state, worldSlot, twist)));
    }
    if (largest > 0) {
        atomic_max(&residuals[iteration % RESIDUAL_SLOTS], largest);
    }
}

/*
 * The whole iterative solve of a small batch in one work-group: the warm start (with `warm`) and
 * every iteration, colour after colour, the group's work-items sharing each colour and meeting at a
 * barrier before the next, work-item 0 solving the overflow rows in order. A small batch spends its
 * time launching kernels otherwise: two a colour an iteration. The same rows in the same order
 * of colours as solve_colour and solve_overflow, so the same bits; the residual is the maximum of
 * the change bits, as theirs. Writes the iterations used and the last residual's bits to outcome.
 * Requires a power-of-two work-group size and one group; `scratch` holds one int per work-item.
 */
__kernel void solve_small_batch(__global const float* row, const int rows, __global const int* slots,
                                __global float* lambda, const int twist, __global float* state,
                                const int worldSlot,
                                __global const int* starts, const int colours, const int warm,
                                const int iterations, const int toleranceBits, __global int* outcome,
                                __local int* scratch)
{
    const int lid = get_local_id(0);
    const int size = get_local_size(0);
    if (warm) {
        for (int k = 0; k < colours; k++) {
            for (int r = starts[k] + lid; r < starts[k + 1]; r += size) {
                apply_warm_start_row(row, rows, r, slots, lambda, state, worldSlot, twist);
            }
            barrier(CLK_GLOBAL_MEM_FENCE);
        }
        if (lid == 0) {
            for (int r = starts[colours]; r < rows; r++) {
                apply_warm_start_row(row, rows, r, slots, lambda, state, worldSlot, twist);
            }
        }
        barrier(CLK_GLOBAL_MEM_FENCE);
    }
    int used = iterations;
    int residual = 0;
    for (int iteration = 0; iteration < iterations; iteration++) {
        int change = 0;
        for (int k = 0; k < colours; k++) {
            for (int r = starts[k] + lid; r < starts[k + 1]; r += size) {
                change = max(change, as_int(solve_row(row, rows, r, slots, lambda, state, worldSlot, twist)));
            }
            barrier(CLK_GLOBAL_MEM_FENCE);
        }
        if (lid == 0) {
            for (int r = starts[colours]; r < rows; r++) {
                change = max(change, as_int(solve_row(row, rows, r, slots, lambda, state, worldSlot, twist)));
            }
        }
        scratch[lid] = change;
        barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
        for (int span = size / 2; span > 0; span /= 2) {
            if (lid < span) {
                scratch[lid] = max(scratch[lid], scratch[lid + span]);
            }
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        residual = scratch[0];
        barrier(CLK_LOCAL_MEM_FENCE); /* all have read scratch[0] before the next iteration writes it */
        if (residual <= toleranceBits) {
            used = iteration + 1;
            break;
        }
    }
    if (lid == 0) {
        outcome[0] = used;
        outcome[1] = residual;
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

/* Writes s1 t1 + s2 t2 (+0 for a zero pair) at at, at + stride, at + 2 stride. */
void write_vector(__global const float* row, const int rows, const int r, const float s1, const float s2,
                  __global float* out, const int at, const int stride)
{
    if (s1 == 0.0f && s2 == 0.0f) {
        out[at] = 0.0f;
        out[at + stride] = 0.0f;
        out[at + 2 * stride] = 0.0f;
        return;
    }
    out[at] = (s1 * row[ROW_T1X * rows + r] + s2 * row[ROW_T2X * rows + r]) + 0.0f;
    out[at + stride] = (s1 * row[ROW_T1Y * rows + r] + s2 * row[ROW_T2Y * rows + r]) + 0.0f;
    out[at + 2 * stride] = (s1 * row[ROW_T1Z * rows + r] + s2 * row[ROW_T2Z * rows + r]) + 0.0f;
}

/* Writes the angular vector s1 t1 + s2 t2 + twist n at at, at + stride, at + 2 stride: without a twist exactly write_vector's bits. */
void write_angular(__global const float* row, const int rows, const int r, const float s1, const float s2,
                   const float twist, __global float* out, const int at, const int stride)
{
    if (twist == 0.0f) {
        write_vector(row, rows, r, s1, s2, out, at, stride);
        return;
    }
    out[at] = ((s1 * row[ROW_T1X * rows + r] + s2 * row[ROW_T2X * rows + r]) + twist * row[ROW_NX * rows + r]) + 0.0f;
    out[at + stride] = ((s1 * row[ROW_T1Y * rows + r] + s2 * row[ROW_T2Y * rows + r])
            + twist * row[ROW_NY * rows + r]) + 0.0f;
    out[at + 2 * stride] = ((s1 * row[ROW_T1Z * rows + r] + s2 * row[ROW_T2Z * rows + r])
            + twist * row[ROW_NZ * rows + r]) + 0.0f;
}

/*
 * Writes row r's impulses as contact order[r]'s ImpulseFields (or contact r's, with `direct`, into a
 * chunk's own array): the normal impulse, and the tangential and angular vectors on b in world
 * space, the angular one the rolling pair's and, with `twist`, the twist's together (exactly +0 for
 * what the contact does not have; adding +0 turns a -0 into +0).
 */
__kernel void scatter_impulses(__global const float* row, const int rows, __global const float* lambda,
                               const int twist, __global const int* order, const int direct, const int stride,
                               __global float* impulses)
{
    const int r = get_global_id(0);
    if (r >= rows) {
        return;
    }
    const int c = direct ? r : order[r];
    impulses[IMPULSE_J * stride + c] = lambda[ACC_N * rows + r];
    float t1 = 0.0f;
    float t2 = 0.0f;
    if (row[ROW_MU * rows + r] > 0.0f) {
        t1 = lambda[ACC_T1 * rows + r];
        t2 = lambda[ACC_T2 * rows + r];
    }
    float r1 = 0.0f;
    float r2 = 0.0f;
    if (row[ROW_RHO * rows + r] > 0.0f) {
        r1 = lambda[ACC_R1 * rows + r];
        r2 = lambda[ACC_R2 * rows + r];
    }
    float tw = 0.0f;
    if (twist && row[ROW_TAU * rows + r] > 0.0f) {
        tw = lambda[ACC_TW * rows + r];
    }
    write_vector(row, rows, r, t1, t2, impulses, IMPULSE_TX * stride + c, stride);
    write_angular(row, rows, r, r1, r2, tw, impulses, IMPULSE_RX * stride + c, stride);
}
