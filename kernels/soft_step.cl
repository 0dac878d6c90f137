/*
 * The soft step on contact manifolds (docs/physics.md, "Soft step"): the OpenCL twin of
 * host/io/contactsolver/cpu/SoftStep.java, statement for statement, and of the stages of
 * CpuBackend's soft step that call it; both backends take the stages in the order of
 * host/io/contactsolver/core/SoftStepSchedule.java.
 *
 *   prepare_manifolds       one work-item per manifold row: the manifold's constraint, its points,
 *                           their warm start, the first substep's warm-start record, the motion
 *                           record each side reads
 *   reset_motions           one work-item per body, one more for the world's all-zero record
 *   apply_substep_gravity   one work-item per body: v += g h for a movable body with mass
 *   warm_start_manifolds    one work-item per manifold row of a colour, or (`serial`) one for the
 *                           overflow rows in order
 *   start_substep           one work-item per body: both of the above, the warm start of the body's
 *                           rows in row order (bodyRows), where the host gives them
 *   solve_manifolds         a soft or relax sweep, as warm_start_manifolds
 *   integrate_motions       one work-item per body: the motion record moved on by one substep
 *   restitute_manifolds     the restitution pass after the substeps, as warm_start_manifolds
 *   finish_bodies           one work-item per body: the state at the end of the step and the deltas
 *   write_manifold_results  one work-item per manifold row: its points' normal impulses and its vectors
 *
 * Convention (docs/physics.md): n points from body a to body b, r = p - x; a point's current
 * separation is s = s0 + n . (d_b - d_a), d = dx + (R(dq) - 1) r.
 *
 * Layout: every name below comes from the Java enums as a build option (KernelSource.java); none is
 * defined here. The host prepares the manifolds backend-neutral (Recycler, ManifoldGrouping,
 * ContactColoring over manifolds; SoftStepJob.java): manifold m's solved points are
 * [solvedStart[m], solvedStart[m + 1]), their geometry (GEOM_*) structure of arrays with stride
 * `points`, their warm normal impulses one a point, the manifolds' warm vectors (MVEC_*) structure
 * of arrays with stride `rows` (a manifold a row). Row r solves manifold order[r] (its first
 * contact firsts[order[r]] gives its bodies and coefficients) and its points [pointStart[r],
 * pointStart[r + 1]), consecutive in row order as on the CPU. Where the CPU keeps a record's fields
 * together, the device keeps structure of arrays: a manifold row's fields (MAN_*) and accumulated
 * impulses (MACC_*) with stride `rows`, a point's fields (POINT_*) with stride `points`; but a
 * row's warm-start record (WARM_*) is WARM_COUNT floats together at r * WARM_COUNT, as on the CPU,
 * since start_substep reads a body's rows' records one row at a time; a point's accumulated normal
 * impulse normal[p], its largest of the step peak[p] and its separation in the current substep
 * separation[p] (found by the first sweep after the bodies move, read by the sweeps after it until
 * they move again). The state slots of both sides are at LINK_A * rows + r and LINK_B * rows + r
 * (the body, or worldSlot for the world and every body contacts cannot move), the movers likewise
 * (the body whose motion record that side reads, or bodyCount for the world). Motion records
 * (MOTION_*) are MOTION_STRIDE floats a body, array of structures, the all-zero world record after
 * the last body; the state is STATE_STRIDE floats a body plus the world slot, as in iterative.cl. A
 * movable body's rows (SoftStepJob.bodyRows, a BodyContactIndex over the rows) are
 * bodyRows[bodyRowStart[i] .. bodyRowStart[i + 1]), each row * LINK_COUNT + side, in increasing row
 * order. `movable` is one int a body, 1 where contacts can move it (MovableBodies.java). Bodies and
 * the next bodies are structure of arrays (BODY_* fields, the next bodies only X through WZ, with
 * their own stride), deltas too (DELTA_*). The results, normalOut (a solved point's normal impulse
 * at its place among the solved points) and vectorsOut (MVEC_*, stride `rows`, manifold order), are
 * what the host reads back.
 *
 * The residual is the CPU's: the largest change of the step's last sweep (its last relax sweep,
 * or its last soft sweep without relax sweeps) and of the restitution pass, kept as float bits in
 * residuals[0] by atomic_max (non-negative floats and the NaN that fabs makes order like their
 * bits, so the order of the work-items does not matter).
 *
 * Names: SoftStep.java's functions are these in snake case, but those whose name another file of
 * the program already has (or OpenCL C's built-in dot) take the prefix soft_: soft_inertia_times,
 * soft_dot, soft_apply_gravity, soft_store. They come in the Java's order; those the Java calls
 * before it defines them are declared first. The disk projection is iterative.cl's project_onto_disk,
 * as SoftStep.java calls Iterative.projectOntoDisk. java_max stands for the JVM's Math.max.
 *
 * Bit-exactness as in common.cl: no contraction (the pragma there covers the whole program), float
 * literals only, no built-in dot or fmax, correctly rounded divide and sqrt from the build options.
 */

/* The soft coefficients of the step a manifold row takes (SoftCoefficients.java), as the kernels hand them on. */
typedef struct {
    float biasRate;
    float massScale;
    float impulseScale;
    float staticBiasRate;
    float staticMassScale;
    float staticImpulseScale;
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

float start_velocity(__global const float* pts, const int points, const int p, const float along, const float dwax,
                     const float dway, const float dwaz, const float dwbx, const float dwby, const float dwbz);
void soft_store(__global float* state, const int s, const float dvx, const float dvy, const float dvz, const float dwx,
                const float dwy, const float dwz);

/*
 * Writes out[at], out[at + stride], out[at + 2 stride]: the inverse inertia of the prepared record
 * `body` times (x, y, z).
 */
void soft_inertia_times(__global const float* body, const float x, const float y, const float z, __global float* out,
                        const int at, const int stride)
{
    out[at] = body[PREP_IXX] * x + body[PREP_IXY] * y + body[PREP_IXZ] * z;
    out[at + stride] = body[PREP_IXY] * x + body[PREP_IYY] * y + body[PREP_IYZ] * z;
    out[at + 2 * stride] = body[PREP_IXZ] * x + body[PREP_IYZ] * y + body[PREP_IZZ] * z;
}

/* The dot product of the vectors at u and v of one structure of arrays whose fields are `stride` apart. */
float soft_dot(__global const float* fields, const int u, const int v, const int stride)
{
    return (fields[u] * fields[v] + fields[u + stride] * fields[v + stride])
            + fields[u + 2 * stride] * fields[v + 2 * stride];
}

/*
 * Writes the inverse of the symmetric 2x2 matrix [[p, q], [q, s]] at out[at] (11),
 * out[at + stride] (12) and out[at + 2 stride] (22), or zeros when it is singular or not positive
 * definite: that pair is then switched off.
 */
void inverse2(const float p, const float s, const float q, __global float* out, const int at, const int stride)
{
    const float det = p * s - q * q;
    if (det > 0.0f && p > 0.0f) {
        const float inv = 1.0f / det;
        out[at] = s * inv;
        out[at + stride] = -(q * inv);
        out[at + 2 * stride] = p * inv;
    } else {
        out[at] = 0.0f;
        out[at + stride] = 0.0f;
        out[at + 2 * stride] = 0.0f;
    }
}

/*
 * Manifold row r and its points [first, first + count), first part: what depends only on the
 * manifold's geometry, its solved points [g0, g0 + count) (with stride `points`), and on the
 * bodies' inverse masses and inertia (their prepared records bodyA, bodyB): the tangent basis, each
 * point's levers, normal mass and couplings, the friction centre's, the twist's and, where it
 * rolls, the rolling pair's masses. The device writes every row's every step; the CPU keeps a row's
 * from the last step where its inputs are the bits it was prepared from, the same bits.
 */
void prepare_geometry(__global const float* geometry, const int points, const int g0, const int count,
                      const int rows, const int r, const int first, __global const float* bodyA,
                      __global const float* bodyB, const int rolls, __global float* man, __global float* pts)
{
    const float nx = geometry[GEOM_NX * points + g0];
    const float ny = geometry[GEOM_NY * points + g0];
    const float nz = geometry[GEOM_NZ * points + g0];
    /* a branchless orthonormal basis (t1, t2) of the plane normal to n */
    const float flip = copysign(1.0f, nz);
    const float basis = -1.0f / (flip + nz);
    const float skew = nx * ny * basis;
    const float t1x = 1.0f + flip * nx * nx * basis;
    const float t1y = flip * skew;
    const float t1z = -flip * nx;
    const float t2x = skew;
    const float t2y = flip + ny * ny * basis;
    const float t2z = -ny;
    man[MAN_NX * rows + r] = nx;
    man[MAN_NY * rows + r] = ny;
    man[MAN_NZ * rows + r] = nz;
    man[MAN_T1X * rows + r] = t1x;
    man[MAN_T1Y * rows + r] = t1y;
    man[MAN_T1Z * rows + r] = t1z;
    man[MAN_T2X * rows + r] = t2x;
    man[MAN_T2Y * rows + r] = t2y;
    man[MAN_T2Z * rows + r] = t2z;
    const float ima = bodyA[PREP_INV_MASS];
    const float imb = bodyB[PREP_INV_MASS];
    man[MAN_INV_MASS_A * rows + r] = ima;
    man[MAN_INV_MASS_B * rows + r] = imb;

    /* the points, and the friction centre as the mean of their anchors; each point's coupling
       to the points before it (J_j M^-1 J_i^T: the change of this point's normal velocity per
       unit impulse at an earlier one, which the sweep adds as it goes) into theirs */
    const float linear = ima + imb;
    float cax = 0.0f;
    float cay = 0.0f;
    float caz = 0.0f;
    float cbx = 0.0f;
    float cby = 0.0f;
    float cbz = 0.0f;
    for (int i = 0; i < count; i++) {
        const int g = g0 + i;
        const int p = first + i;
        const float rax = geometry[GEOM_RAX * points + g];
        const float ray = geometry[GEOM_RAY * points + g];
        const float raz = geometry[GEOM_RAZ * points + g];
        const float rbx = geometry[GEOM_RBX * points + g];
        const float rby = geometry[GEOM_RBY * points + g];
        const float rbz = geometry[GEOM_RBZ * points + g];
        pts[POINT_RAX * points + p] = rax;
        pts[POINT_RAY * points + p] = ray;
        pts[POINT_RAZ * points + p] = raz;
        pts[POINT_RBX * points + p] = rbx;
        pts[POINT_RBY * points + p] = rby;
        pts[POINT_RBZ * points + p] = rbz;
        const float rxnAX = ray * nz - raz * ny;
        const float rxnAY = raz * nx - rax * nz;
        const float rxnAZ = rax * ny - ray * nx;
        const float rxnBX = rby * nz - rbz * ny;
        const float rxnBY = rbz * nx - rbx * nz;
        const float rxnBZ = rbx * ny - rby * nx;
        pts[POINT_RXN_AX * points + p] = rxnAX;
        pts[POINT_RXN_AY * points + p] = rxnAY;
        pts[POINT_RXN_AZ * points + p] = rxnAZ;
        pts[POINT_RXN_BX * points + p] = rxnBX;
        pts[POINT_RXN_BY * points + p] = rxnBY;
        pts[POINT_RXN_BZ * points + p] = rxnBZ;
        soft_inertia_times(bodyA, rxnAX, rxnAY, rxnAZ, pts, POINT_DIR_AX * points + p, points);
        soft_inertia_times(bodyB, rxnBX, rxnBY, rxnBZ, pts, POINT_DIR_BX * points + p, points);
        const float kn = (ima + imb + soft_dot(pts, POINT_RXN_AX * points + p, POINT_DIR_AX * points + p, points))
                + soft_dot(pts, POINT_RXN_BX * points + p, POINT_DIR_BX * points + p, points);
        pts[POINT_NORMAL_MASS * points + p] = kn > 0.0f ? 1.0f / kn : 0.0f;
        pts[POINT_COUPLING_1 * points + p] = 0.0f;
        pts[POINT_COUPLING_2 * points + p] = 0.0f;
        pts[POINT_COUPLING_3 * points + p] = 0.0f;
        for (int earlier = 0; earlier < i; earlier++) {
            const int u = first + earlier;
            pts[(POINT_COUPLING_1 + (i - earlier) - 1) * points + u]
                    = (linear + ((rxnAX * pts[POINT_DIR_AX * points + u]
                    + rxnAY * pts[POINT_DIR_AY * points + u]) + rxnAZ * pts[POINT_DIR_AZ * points + u]))
                    + ((rxnBX * pts[POINT_DIR_BX * points + u] + rxnBY * pts[POINT_DIR_BY * points + u])
                    + rxnBZ * pts[POINT_DIR_BZ * points + u]);
        }
        cax += rax;
        cay += ray;
        caz += raz;
        cbx += rbx;
        cby += rby;
        cbz += rbz;
    }
    const float share = 1.0f / count;
    cax = cax * share;
    cay = cay * share;
    caz = caz * share;
    cbx = cbx * share;
    cby = cby * share;
    cbz = cbz * share;
    for (int i = 0; i < count; i++) {
        const int p = first + i;
        const float lx = pts[POINT_RAX * points + p] - cax;
        const float ly = pts[POINT_RAY * points + p] - cay;
        const float lz = pts[POINT_RAZ * points + p] - caz;
        pts[POINT_LEVER * points + p] = sqrt((lx * lx + ly * ly) + lz * lz);
    }

    /* friction at the centre: c x t_i and I^-1 (c x t_i) on each side, and the 2x2 tangent mass */
    man[MAN_CXT1_AX * rows + r] = cay * t1z - caz * t1y;
    man[MAN_CXT1_AY * rows + r] = caz * t1x - cax * t1z;
    man[MAN_CXT1_AZ * rows + r] = cax * t1y - cay * t1x;
    man[MAN_CXT2_AX * rows + r] = cay * t2z - caz * t2y;
    man[MAN_CXT2_AY * rows + r] = caz * t2x - cax * t2z;
    man[MAN_CXT2_AZ * rows + r] = cax * t2y - cay * t2x;
    man[MAN_CXT1_BX * rows + r] = cby * t1z - cbz * t1y;
    man[MAN_CXT1_BY * rows + r] = cbz * t1x - cbx * t1z;
    man[MAN_CXT1_BZ * rows + r] = cbx * t1y - cby * t1x;
    man[MAN_CXT2_BX * rows + r] = cby * t2z - cbz * t2y;
    man[MAN_CXT2_BY * rows + r] = cbz * t2x - cbx * t2z;
    man[MAN_CXT2_BZ * rows + r] = cbx * t2y - cby * t2x;
    soft_inertia_times(bodyA, man[MAN_CXT1_AX * rows + r], man[MAN_CXT1_AY * rows + r], man[MAN_CXT1_AZ * rows + r],
                       man, MAN_DIRT1_AX * rows + r, rows);
    soft_inertia_times(bodyA, man[MAN_CXT2_AX * rows + r], man[MAN_CXT2_AY * rows + r], man[MAN_CXT2_AZ * rows + r],
                       man, MAN_DIRT2_AX * rows + r, rows);
    soft_inertia_times(bodyB, man[MAN_CXT1_BX * rows + r], man[MAN_CXT1_BY * rows + r], man[MAN_CXT1_BZ * rows + r],
                       man, MAN_DIRT1_BX * rows + r, rows);
    soft_inertia_times(bodyB, man[MAN_CXT2_BX * rows + r], man[MAN_CXT2_BY * rows + r], man[MAN_CXT2_BZ * rows + r],
                       man, MAN_DIRT2_BX * rows + r, rows);
    const float k11 = (linear + soft_dot(man, MAN_CXT1_AX * rows + r, MAN_DIRT1_AX * rows + r, rows))
            + soft_dot(man, MAN_CXT1_BX * rows + r, MAN_DIRT1_BX * rows + r, rows);
    const float k22 = (linear + soft_dot(man, MAN_CXT2_AX * rows + r, MAN_DIRT2_AX * rows + r, rows))
            + soft_dot(man, MAN_CXT2_BX * rows + r, MAN_DIRT2_BX * rows + r, rows);
    const float k12 = soft_dot(man, MAN_CXT1_AX * rows + r, MAN_DIRT2_AX * rows + r, rows)
            + soft_dot(man, MAN_CXT1_BX * rows + r, MAN_DIRT2_BX * rows + r, rows);
    inverse2(k11, k22, k12, man, MAN_TM11 * rows + r, rows);

    /* twist about n and rolling about the tangents: I^-1 n, I^-1 t_i and their masses */
    soft_inertia_times(bodyA, nx, ny, nz, man, MAN_TWIST_AX * rows + r, rows);
    soft_inertia_times(bodyB, nx, ny, nz, man, MAN_TWIST_BX * rows + r, rows);
    const float kt = (nx * (man[MAN_TWIST_AX * rows + r] + man[MAN_TWIST_BX * rows + r]) + ny * (man[MAN_TWIST_AY * rows + r]
            + man[MAN_TWIST_BY * rows + r])) + nz * (man[MAN_TWIST_AZ * rows + r] + man[MAN_TWIST_BZ * rows + r]);
    man[MAN_TWIST_MASS * rows + r] = kt > 0.0f ? 1.0f / kt : 0.0f;
    /* the twist's coupling to the friction pair: the change of v_t1, v_t2 per unit twist impulse,
       kept as the change it makes to the pair's impulses before their disk */
    const float twistT1 = soft_dot(man, MAN_TWIST_BX * rows + r, MAN_CXT1_BX * rows + r, rows)
            + soft_dot(man, MAN_TWIST_AX * rows + r, MAN_CXT1_AX * rows + r, rows);
    const float twistT2 = soft_dot(man, MAN_TWIST_BX * rows + r, MAN_CXT2_BX * rows + r, rows)
            + soft_dot(man, MAN_TWIST_AX * rows + r, MAN_CXT2_AX * rows + r, rows);
    man[MAN_TWIST_F1 * rows + r] = man[MAN_TM11 * rows + r] * twistT1 + man[MAN_TM12 * rows + r] * twistT2;
    man[MAN_TWIST_F2 * rows + r] = man[MAN_TM12 * rows + r] * twistT1 + man[MAN_TM22 * rows + r] * twistT2;
    /* without rolling resistance the rolling pair stays at zero: zeros rather than its masses,
       which only the warm start reads then, times a zero impulse */
    if (rolls) {
        soft_inertia_times(bodyA, t1x, t1y, t1z, man, MAN_ROLL1_AX * rows + r, rows);
        soft_inertia_times(bodyA, t2x, t2y, t2z, man, MAN_ROLL2_AX * rows + r, rows);
        soft_inertia_times(bodyB, t1x, t1y, t1z, man, MAN_ROLL1_BX * rows + r, rows);
        soft_inertia_times(bodyB, t2x, t2y, t2z, man, MAN_ROLL2_BX * rows + r, rows);
        const float r11 = soft_dot(man, MAN_T1X * rows + r, MAN_ROLL1_AX * rows + r, rows)
                + soft_dot(man, MAN_T1X * rows + r, MAN_ROLL1_BX * rows + r, rows);
        const float r22 = soft_dot(man, MAN_T2X * rows + r, MAN_ROLL2_AX * rows + r, rows)
                + soft_dot(man, MAN_T2X * rows + r, MAN_ROLL2_BX * rows + r, rows);
        const float r12 = soft_dot(man, MAN_T1X * rows + r, MAN_ROLL2_AX * rows + r, rows)
                + soft_dot(man, MAN_T1X * rows + r, MAN_ROLL2_BX * rows + r, rows);
        inverse2(r11, r22, r12, man, MAN_RM11 * rows + r, rows);
    } else {
        for (int f = MAN_ROLL1_AX; f <= MAN_ROLL2_BZ; f++) {
            man[f * rows + r] = 0.0f;
        }
        inverse2(0.0f, 0.0f, 0.0f, man, MAN_RM11 * rows + r, rows);
    }
}

/*
 * Manifold row r for manifold m, second part, once its geometry is in place (prepare_geometry):
 * what changes from step to step. Each point's separation, starting normal velocity, restitution
 * target and warm normal impulse; the manifold's starting velocities, its first contact c0's
 * coefficients, and its warm start: its friction, twist and rolling from its warm vectors (stride
 * `rows`) projected onto its tangents, each taken back into its limit. isStatic picks the stiffer
 * coefficients for a manifold one of whose sides cannot move.
 */
void prepare_step(__global const float* geometry, const int points, const int g0, const int count,
                  __global const float* warmNormal, __global const float* warmVectors, const int rows, const int m,
                  __global const float* contacts, const int contactStride, const int c0, const int r,
                  const int first, __global const float* bodyA, __global const float* bodyB, const int isStatic,
                  const soft_coefficients k, const float restitutionThreshold, __global float* man,
                  __global float* pts, __global float* normal, __global float* peak, __global float* acc)
{
    const float nx = man[MAN_NX * rows + r];
    const float ny = man[MAN_NY * rows + r];
    const float nz = man[MAN_NZ * rows + r];
    const float t1x = man[MAN_T1X * rows + r];
    const float t1y = man[MAN_T1Y * rows + r];
    const float t1z = man[MAN_T1Z * rows + r];
    const float t2x = man[MAN_T2X * rows + r];
    const float t2y = man[MAN_T2Y * rows + r];
    const float t2z = man[MAN_T2Z * rows + r];
    const float e = contacts[CONTACT_RESTITUTION * contactStride + c0];
    float total = 0.0f;
    float twistArm = 0.0f;
    for (int i = 0; i < count; i++) {
        const int g = g0 + i;
        const int p = first + i;
        pts[POINT_S0 * points + p] = geometry[GEOM_S * points + g];
        /* v_n0 = n . ((v_b + w_b x r_b) - (v_a + w_a x r_a)), the angular parts as w . (r x n) */
        const float vn = (((bodyB[PREP_VX] - bodyA[PREP_VX]) * nx
                + (bodyB[PREP_VY] - bodyA[PREP_VY]) * ny)
                + (bodyB[PREP_VZ] - bodyA[PREP_VZ]) * nz)
                + ((bodyB[PREP_WX] * pts[POINT_RXN_BX * points + p] + bodyB[PREP_WY] * pts[POINT_RXN_BY * points + p])
                + bodyB[PREP_WZ] * pts[POINT_RXN_BZ * points + p])
                - ((bodyA[PREP_WX] * pts[POINT_RXN_AX * points + p] + bodyA[PREP_WY] * pts[POINT_RXN_AY * points + p])
                + bodyA[PREP_WZ] * pts[POINT_RXN_AZ * points + p]);
        pts[POINT_VN0 * points + p] = vn;
        pts[POINT_TARGET * points + p] = vn < -restitutionThreshold ? -(e * vn) : 0.0f;
        const float warm = warmNormal[g];
        normal[p] = warm;
        peak[p] = 0.0f;
        total += warm;
        twistArm += pts[POINT_LEVER * points + p] * warm;
    }
    const float mu = contacts[CONTACT_FRICTION * contactStride + c0];
    const float rho = contacts[CONTACT_ROLLING_RESISTANCE * contactStride + c0];
    const float tau = contacts[CONTACT_TORSION * contactStride + c0];
    man[MAN_MU * rows + r] = mu;
    man[MAN_RHO * rows + r] = rho;
    man[MAN_TORSION * rows + r] = tau;

    /* the relative velocities at the start of the step: at the centre along t_i, angular along n, t1, t2 */
    const float vx = bodyB[PREP_VX] - bodyA[PREP_VX];
    const float vy = bodyB[PREP_VY] - bodyA[PREP_VY];
    const float vz = bodyB[PREP_VZ] - bodyA[PREP_VZ];
    const float wax = bodyA[PREP_WX];
    const float way = bodyA[PREP_WY];
    const float waz = bodyA[PREP_WZ];
    const float wbx = bodyB[PREP_WX];
    const float wby = bodyB[PREP_WY];
    const float wbz = bodyB[PREP_WZ];
    man[MAN_VT1 * rows + r] = ((vx * t1x + vy * t1y) + vz * t1z)
            + ((wbx * man[MAN_CXT1_BX * rows + r] + wby * man[MAN_CXT1_BY * rows + r]) + wbz * man[MAN_CXT1_BZ * rows + r])
            - ((wax * man[MAN_CXT1_AX * rows + r] + way * man[MAN_CXT1_AY * rows + r]) + waz * man[MAN_CXT1_AZ * rows + r]);
    man[MAN_VT2 * rows + r] = ((vx * t2x + vy * t2y) + vz * t2z)
            + ((wbx * man[MAN_CXT2_BX * rows + r] + wby * man[MAN_CXT2_BY * rows + r]) + wbz * man[MAN_CXT2_BZ * rows + r])
            - ((wax * man[MAN_CXT2_AX * rows + r] + way * man[MAN_CXT2_AY * rows + r]) + waz * man[MAN_CXT2_AZ * rows + r]);
    const float wx = wbx - wax;
    const float wy = wby - way;
    const float wz = wbz - waz;
    man[MAN_VTWIST * rows + r] = (wx * nx + wy * ny) + wz * nz;
    man[MAN_VR1 * rows + r] = (wx * t1x + wy * t1y) + wz * t1z;
    man[MAN_VR2 * rows + r] = (wx * t2x + wy * t2y) + wz * t2z;
    man[MAN_BIAS_RATE * rows + r] = isStatic ? k.staticBiasRate : k.biasRate;
    man[MAN_MASS_SCALE * rows + r] = isStatic ? k.staticMassScale : k.massScale;
    man[MAN_IMPULSE_SCALE * rows + r] = isStatic ? k.staticImpulseScale : k.impulseScale;

    /* the warm start: the manifold's vectors projected onto its tangents, kept in their limits */
    const float fx = warmVectors[MVEC_FX * rows + m];
    const float fy = warmVectors[MVEC_FY * rows + m];
    const float fz = warmVectors[MVEC_FZ * rows + m];
    const float ax = warmVectors[MVEC_AX * rows + m];
    const float ay = warmVectors[MVEC_AY * rows + m];
    const float az = warmVectors[MVEC_AZ * rows + m];
    acc[MACC_F1 * rows + r] = (fx * t1x + fy * t1y) + fz * t1z;
    acc[MACC_F2 * rows + r] = (fx * t2x + fy * t2y) + fz * t2z;
    project_onto_disk(acc, MACC_F1 * rows + r, MACC_F2 * rows + r, mu * total);
    const float twistLimit = mu * twistArm + tau * total;
    const float twist = (ax * nx + ay * ny) + az * nz;
    acc[MACC_TWIST * rows + r] = twist > twistLimit ? twistLimit : twist < -twistLimit ? -twistLimit : twist;
    acc[MACC_R1 * rows + r] = (ax * t1x + ay * t1y) + az * t1z;
    acc[MACC_R2 * rows + r] = (ax * t2x + ay * t2y) + az * t2z;
    project_onto_disk(acc, MACC_R1 * rows + r, MACC_R2 * rows + r, rho * total);
}

/* Step 1 of a substep: v += g h for a body with mass (at state offset s). */
void soft_apply_gravity(__global float* state, const int s, const float gx, const float gy, const float gz,
                        const float h)
{
    state[s + STATE_DVX] += gx * h;
    state[s + STATE_DVY] += gy * h;
    state[s + STATE_DVZ] += gz * h;
}

/*
 * Step 2's velocity changes for manifold row r, worked out from its accumulated impulses (each
 * point's normal impulse at its anchors, the friction pair at the centre, the twist about n and
 * the rolling pair) into its warm-start record (WARM_*, stride `rows`): the linear and angular change
 * of body a (to subtract) and of body b (to add). Worked out where the impulses are final (the row
 * prepared, or a substep's last sweep), so that the warm start reads 12 floats a row.
 */
void warm_impulses(__global const float* man, const int rows, const int r, __global const float* pts, const int points,
                   const int first, const int end, __global const float* normal, __global const float* acc,
                   __global float* warm)
{
    const float nx = man[MAN_NX * rows + r];
    const float ny = man[MAN_NY * rows + r];
    const float nz = man[MAN_NZ * rows + r];
    float sum = 0.0f;
    float awx = 0.0f;
    float awy = 0.0f;
    float awz = 0.0f;
    float bwx = 0.0f;
    float bwy = 0.0f;
    float bwz = 0.0f;
    for (int p = first; p < end; p++) {
        const float j = normal[p];
        sum += j;
        awx += j * pts[POINT_DIR_AX * points + p];
        awy += j * pts[POINT_DIR_AY * points + p];
        awz += j * pts[POINT_DIR_AZ * points + p];
        bwx += j * pts[POINT_DIR_BX * points + p];
        bwy += j * pts[POINT_DIR_BY * points + p];
        bwz += j * pts[POINT_DIR_BZ * points + p];
    }
    const float f1 = acc[MACC_F1 * rows + r];
    const float f2 = acc[MACC_F2 * rows + r];
    const float twist = acc[MACC_TWIST * rows + r];
    const float roll1 = acc[MACC_R1 * rows + r];
    const float roll2 = acc[MACC_R2 * rows + r];
    /* linear: the normal impulses and the friction pair, P = sum n + f1 t1 + f2 t2 */
    const float px = (sum * nx + f1 * man[MAN_T1X * rows + r]) + f2 * man[MAN_T2X * rows + r];
    const float py = (sum * ny + f1 * man[MAN_T1Y * rows + r]) + f2 * man[MAN_T2Y * rows + r];
    const float pz = (sum * nz + f1 * man[MAN_T1Z * rows + r]) + f2 * man[MAN_T2Z * rows + r];
    /* angular: the points' levers, the friction pair at the centre, the twist and the rolling pair */
    awx = (((awx + f1 * man[MAN_DIRT1_AX * rows + r]) + f2 * man[MAN_DIRT2_AX * rows + r])
            + twist * man[MAN_TWIST_AX * rows + r])
            + (roll1 * man[MAN_ROLL1_AX * rows + r] + roll2 * man[MAN_ROLL2_AX * rows + r]);
    awy = (((awy + f1 * man[MAN_DIRT1_AY * rows + r]) + f2 * man[MAN_DIRT2_AY * rows + r])
            + twist * man[MAN_TWIST_AY * rows + r])
            + (roll1 * man[MAN_ROLL1_AY * rows + r] + roll2 * man[MAN_ROLL2_AY * rows + r]);
    awz = (((awz + f1 * man[MAN_DIRT1_AZ * rows + r]) + f2 * man[MAN_DIRT2_AZ * rows + r])
            + twist * man[MAN_TWIST_AZ * rows + r])
            + (roll1 * man[MAN_ROLL1_AZ * rows + r] + roll2 * man[MAN_ROLL2_AZ * rows + r]);
    bwx = (((bwx + f1 * man[MAN_DIRT1_BX * rows + r]) + f2 * man[MAN_DIRT2_BX * rows + r])
            + twist * man[MAN_TWIST_BX * rows + r])
            + (roll1 * man[MAN_ROLL1_BX * rows + r] + roll2 * man[MAN_ROLL2_BX * rows + r]);
    bwy = (((bwy + f1 * man[MAN_DIRT1_BY * rows + r]) + f2 * man[MAN_DIRT2_BY * rows + r])
            + twist * man[MAN_TWIST_BY * rows + r])
            + (roll1 * man[MAN_ROLL1_BY * rows + r] + roll2 * man[MAN_ROLL2_BY * rows + r]);
    bwz = (((bwz + f1 * man[MAN_DIRT1_BZ * rows + r]) + f2 * man[MAN_DIRT2_BZ * rows + r])
            + twist * man[MAN_TWIST_BZ * rows + r])
            + (roll1 * man[MAN_ROLL1_BZ * rows + r] + roll2 * man[MAN_ROLL2_BZ * rows + r]);
    warm[r * WARM_COUNT + WARM_VAX] = man[MAN_INV_MASS_A * rows + r] * px;
    warm[r * WARM_COUNT + WARM_VAY] = man[MAN_INV_MASS_A * rows + r] * py;
    warm[r * WARM_COUNT + WARM_VAZ] = man[MAN_INV_MASS_A * rows + r] * pz;
    warm[r * WARM_COUNT + WARM_WAX] = awx;
    warm[r * WARM_COUNT + WARM_WAY] = awy;
    warm[r * WARM_COUNT + WARM_WAZ] = awz;
    warm[r * WARM_COUNT + WARM_VBX] = man[MAN_INV_MASS_B * rows + r] * px;
    warm[r * WARM_COUNT + WARM_VBY] = man[MAN_INV_MASS_B * rows + r] * py;
    warm[r * WARM_COUNT + WARM_VBZ] = man[MAN_INV_MASS_B * rows + r] * pz;
    warm[r * WARM_COUNT + WARM_WBX] = bwx;
    warm[r * WARM_COUNT + WARM_WBY] = bwy;
    warm[r * WARM_COUNT + WARM_WBZ] = bwz;
}

/*
 * Step 2 for manifold row r: applies its accumulated impulses to its bodies (state offsets a, b),
 * as warm_impulses worked them out.
 */
void soft_apply_warm_start(__global const float* warm, const int r, __global float* state, const int a, const int b,
                           const int world)
{
    if (a != world) {
        state[a + STATE_DVX] -= warm[r * WARM_COUNT + WARM_VAX];
        state[a + STATE_DVY] -= warm[r * WARM_COUNT + WARM_VAY];
        state[a + STATE_DVZ] -= warm[r * WARM_COUNT + WARM_VAZ];
        state[a + STATE_DWX] -= warm[r * WARM_COUNT + WARM_WAX];
        state[a + STATE_DWY] -= warm[r * WARM_COUNT + WARM_WAY];
        state[a + STATE_DWZ] -= warm[r * WARM_COUNT + WARM_WAZ];
    }
    if (b != world) {
        state[b + STATE_DVX] += warm[r * WARM_COUNT + WARM_VBX];
        state[b + STATE_DVY] += warm[r * WARM_COUNT + WARM_VBY];
        state[b + STATE_DVZ] += warm[r * WARM_COUNT + WARM_VBZ];
        state[b + STATE_DWX] += warm[r * WARM_COUNT + WARM_WBX];
        state[b + STATE_DWY] += warm[r * WARM_COUNT + WARM_WBY];
        state[b + STATE_DWZ] += warm[r * WARM_COUNT + WARM_WBZ];
    }
}

/*
 * Step 2 for the body at state offset s, the device's alone: applies the accumulated impulses of
 * its rows, entries [from, to) of bodyRows (row * LINK_COUNT + side, in increasing row order), one
 * side of each row's soft_apply_warm_start: the same operations in the same order as the rows'
 * colours would give the body, so the same bits. No state offset is -1: as the world's, the other
 * side is skipped.
 */
void warm_body(__global const float* warm, __global const int* bodyRows, const int from, const int to,
               __global float* state, const int s)
{
    for (int k = from; k < to; k++) {
        const int entry = bodyRows[k];
        const int r = entry / LINK_COUNT;
        if (entry - r * LINK_COUNT == LINK_A) {
            soft_apply_warm_start(warm, r, state, s, -1, -1);
        } else {
            soft_apply_warm_start(warm, r, state, -1, s, -1);
        }
    }
}

/*
 * Step 3 (soft, relax 0) or 5 (relax 1) for manifold row r, points [first, end): each point's
 * normal row at its current separation, then, where `friction`, the rolling pair, the twist and the
 * friction pair at the centre, limited by the points' normal impulses just found. Returns the
 * largest change of an accumulated impulse where `measure` (the step's last sweep), else 0. The
 * separation and the normal row as SoftStep.java describes them; each point's largest impulse of
 * the step to peak[p] where `trackPeak`.
 */
float solve_manifold(__global const float* man, const int rows, const int r, __global const float* pts,
                     const int points, const int first, const int end, __global float* normal, __global float* peak,
                     __global float* separation, __global float* acc, __global float* state, const int a, const int b,
                     const int world, __global const float* motion, const int ma, const int mb,
                     const float inverseSubstep, const float maxPushOut, const int relax, const int friction,
                     const int measure, const int findSeparation, const int trackPeak)
{
    const float nx = man[MAN_NX * rows + r];
    const float ny = man[MAN_NY * rows + r];
    const float nz = man[MAN_NZ * rows + r];
    const float ima = man[MAN_INV_MASS_A * rows + r];
    const float imb = man[MAN_INV_MASS_B * rows + r];
    float dvax = state[a + STATE_DVX];
    float dvay = state[a + STATE_DVY];
    float dvaz = state[a + STATE_DVZ];
    float dwax = state[a + STATE_DWX];
    float dway = state[a + STATE_DWY];
    float dwaz = state[a + STATE_DWZ];
    float dvbx = state[b + STATE_DVX];
    float dvby = state[b + STATE_DVY];
    float dvbz = state[b + STATE_DVZ];
    float dwbx = state[b + STATE_DWX];
    float dwby = state[b + STATE_DWY];
    float dwbz = state[b + STATE_DWZ];
    /* the separation's parts shared by the points: n . (dx_b - dx_a), and M^T n on each side */
    float moved = 0.0f;
    float tax = 0.0f;
    float tay = 0.0f;
    float taz = 0.0f;
    float tbx = 0.0f;
    float tby = 0.0f;
    float tbz = 0.0f;
    if (findSeparation) {
        moved = ((motion[mb + MOTION_DX] - motion[ma + MOTION_DX]) * nx
                + (motion[mb + MOTION_DY] - motion[ma + MOTION_DY]) * ny)
                + (motion[mb + MOTION_DZ] - motion[ma + MOTION_DZ]) * nz;
        tax = (motion[ma + MOTION_M00] * nx + motion[ma + MOTION_M10] * ny) + motion[ma + MOTION_M20] * nz;
        tay = (motion[ma + MOTION_M01] * nx + motion[ma + MOTION_M11] * ny) + motion[ma + MOTION_M21] * nz;
        taz = (motion[ma + MOTION_M02] * nx + motion[ma + MOTION_M12] * ny) + motion[ma + MOTION_M22] * nz;
        tbx = (motion[mb + MOTION_M00] * nx + motion[mb + MOTION_M10] * ny) + motion[mb + MOTION_M20] * nz;
        tby = (motion[mb + MOTION_M01] * nx + motion[mb + MOTION_M11] * ny) + motion[mb + MOTION_M21] * nz;
        tbz = (motion[mb + MOTION_M02] * nx + motion[mb + MOTION_M12] * ny) + motion[mb + MOTION_M22] * nz;
    }
    const float biasRate = man[MAN_BIAS_RATE * rows + r];
    const float softMass = man[MAN_MASS_SCALE * rows + r];
    const float softImpulse = man[MAN_IMPULSE_SCALE * rows + r];
    float total = 0.0f;
    float twistArm = 0.0f;
    float largest = 0.0f;
    /* the points' normal velocities at the manifold's start, then moved by each point's impulse
       through its couplings, so that a point waits only on the impulses before it */
    const float along = ((dvbx - dvax) * nx + (dvby - dvay) * ny) + (dvbz - dvaz) * nz;
    float vn0 = start_velocity(pts, points, first, along, dwax, dway, dwaz, dwbx, dwby, dwbz);
    float vn1 = first + 1 < end ? start_velocity(pts, points, first + 1, along, dwax, dway, dwaz, dwbx, dwby, dwbz)
                                : 0.0f;
    float vn2 = first + 2 < end ? start_velocity(pts, points, first + 2, along, dwax, dway, dwaz, dwbx, dwby, dwbz)
                                : 0.0f;
    float vn3 = first + 3 < end ? start_velocity(pts, points, first + 3, along, dwax, dway, dwaz, dwbx, dwby, dwbz)
                                : 0.0f;
    float sum = 0.0f;
    for (int p = first; p < end; p++) {
        float s;
        if (findSeparation) {
            s = pts[POINT_S0 * points + p] + (moved + (((tbx * pts[POINT_RBX * points + p]
                    + tby * pts[POINT_RBY * points + p]) + tbz * pts[POINT_RBZ * points + p])
                    - ((tax * pts[POINT_RAX * points + p] + tay * pts[POINT_RAY * points + p])
                    + taz * pts[POINT_RAZ * points + p])));
            separation[p] = s;
        } else {
            s = separation[p];
        }
        float bias;
        float massScale;
        float impulseScale;
        if (s > 0.0f) {
            bias = s * inverseSubstep;
            massScale = 1.0f;
            impulseScale = 0.0f;
        } else if (relax) {
            bias = 0.0f;
            massScale = 1.0f;
            impulseScale = 0.0f;
        } else {
            bias = java_max(biasRate * s, -maxPushOut);
            massScale = softMass;
            impulseScale = softImpulse;
        }
        const float old = normal[p];
        /* the point's soft normal mass and what its impulse keeps of itself, apart from the chain
           that runs through the points' velocities: that chain waits on one multiply and subtract */
        const float weight = massScale * pts[POINT_NORMAL_MASS * points + p];
        const float kept = old - impulseScale * old;
        float next = kept - weight * (vn0 + bias);
        if (next < 0.0f) {
            next = 0.0f;
        }
        normal[p] = next;
        const float applied = next - old;
        if (p + 1 < end) {
            /* W (next - old) as W next less W old, the latter taken before next is known */
            const float w1 = pts[POINT_COUPLING_1 * points + p];
            const float w2 = pts[POINT_COUPLING_2 * points + p];
            const float w3 = pts[POINT_COUPLING_3 * points + p];
            vn0 = (vn1 - w1 * old) + w1 * next;
            vn1 = (vn2 - w2 * old) + w2 * next;
            vn2 = (vn3 - w3 * old) + w3 * next;
        }
        sum += applied;
        dwax -= applied * pts[POINT_DIR_AX * points + p];
        dway -= applied * pts[POINT_DIR_AY * points + p];
        dwaz -= applied * pts[POINT_DIR_AZ * points + p];
        dwbx += applied * pts[POINT_DIR_BX * points + p];
        dwby += applied * pts[POINT_DIR_BY * points + p];
        dwbz += applied * pts[POINT_DIR_BZ * points + p];
        if (friction) {
            total += next;
            twistArm += pts[POINT_LEVER * points + p] * next;
        }
        if (trackPeak) {
            peak[p] = next > peak[p] ? next : peak[p];
        }
        if (measure) {
            largest = java_max(largest, fabs(applied));
        }
    }
    const float pa = ima * sum;
    const float pb = imb * sum;
    dvax -= pa * nx;
    dvay -= pa * ny;
    dvaz -= pa * nz;
    dvbx += pb * nx;
    dvby += pb * ny;
    dvbz += pb * nz;
    if (friction) {
        const float t1x = man[MAN_T1X * rows + r];
        const float t1y = man[MAN_T1Y * rows + r];
        const float t1z = man[MAN_T1Z * rows + r];
        const float t2x = man[MAN_T2X * rows + r];
        const float t2y = man[MAN_T2Y * rows + r];
        const float t2z = man[MAN_T2Z * rows + r];
        const float rho = man[MAN_RHO * rows + r];
        if (rho > 0.0f) {
            /* the rolling pair on the relative angular velocity along the tangents */
            const float wx = dwbx - dwax;
            const float wy = dwby - dway;
            const float wz = dwbz - dwaz;
            const float w1 = man[MAN_VR1 * rows + r] + ((wx * t1x + wy * t1y) + wz * t1z);
            const float w2 = man[MAN_VR2 * rows + r] + ((wx * t2x + wy * t2y) + wz * t2z);
            const float old1 = acc[MACC_R1 * rows + r];
            const float old2 = acc[MACC_R2 * rows + r];
            acc[MACC_R1 * rows + r] = old1 - (man[MAN_RM11 * rows + r] * w1 + man[MAN_RM12 * rows + r] * w2);
            acc[MACC_R2 * rows + r] = old2 - (man[MAN_RM12 * rows + r] * w1 + man[MAN_RM22 * rows + r] * w2);
            project_onto_disk(acc, MACC_R1 * rows + r, MACC_R2 * rows + r, rho * total);
            const float d1 = acc[MACC_R1 * rows + r] - old1;
            const float d2 = acc[MACC_R2 * rows + r] - old2;
            dwax -= d1 * man[MAN_ROLL1_AX * rows + r] + d2 * man[MAN_ROLL2_AX * rows + r];
            dway -= d1 * man[MAN_ROLL1_AY * rows + r] + d2 * man[MAN_ROLL2_AY * rows + r];
            dwaz -= d1 * man[MAN_ROLL1_AZ * rows + r] + d2 * man[MAN_ROLL2_AZ * rows + r];
            dwbx += d1 * man[MAN_ROLL1_BX * rows + r] + d2 * man[MAN_ROLL2_BX * rows + r];
            dwby += d1 * man[MAN_ROLL1_BY * rows + r] + d2 * man[MAN_ROLL2_BY * rows + r];
            dwbz += d1 * man[MAN_ROLL1_BZ * rows + r] + d2 * man[MAN_ROLL2_BZ * rows + r];
            if (measure) {
                largest = java_max(largest, java_max(fabs(d1), fabs(d2)));
            }
        }
        const float mu = man[MAN_MU * rows + r];
        const float tau = man[MAN_TORSION * rows + r];
        /* the friction pair's velocities at the centre before the twist, whose change then moves
           the pair's impulses through its coupling */
        float v1 = 0.0f;
        float v2 = 0.0f;
        float twisted = 0.0f;
        if (mu > 0.0f) {
            const float vx = dvbx - dvax;
            const float vy = dvby - dvay;
            const float vz = dvbz - dvaz;
            v1 = man[MAN_VT1 * rows + r] + (((vx * t1x + vy * t1y) + vz * t1z)
                    + (((dwbx * man[MAN_CXT1_BX * rows + r] + dwby * man[MAN_CXT1_BY * rows + r])
                    + dwbz * man[MAN_CXT1_BZ * rows + r])
                    - ((dwax * man[MAN_CXT1_AX * rows + r] + dway * man[MAN_CXT1_AY * rows + r])
                    + dwaz * man[MAN_CXT1_AZ * rows + r])));
            v2 = man[MAN_VT2 * rows + r] + (((vx * t2x + vy * t2y) + vz * t2z)
                    + (((dwbx * man[MAN_CXT2_BX * rows + r] + dwby * man[MAN_CXT2_BY * rows + r])
                    + dwbz * man[MAN_CXT2_BZ * rows + r])
                    - ((dwax * man[MAN_CXT2_AX * rows + r] + dway * man[MAN_CXT2_AY * rows + r])
                    + dwaz * man[MAN_CXT2_AZ * rows + r])));
        }
        if ((mu > 0.0f || tau > 0.0f) && man[MAN_TWIST_MASS * rows + r] > 0.0f) {
            /* the twist about n, limited by the grip of the spread points and the torsional resistance */
            const float spin = man[MAN_VTWIST * rows + r] + (((dwbx - dwax) * nx + (dwby - dway) * ny)
                    + (dwbz - dwaz) * nz);
            const float limit = mu * twistArm + tau * total;
            const float old = acc[MACC_TWIST * rows + r];
            float next = old - man[MAN_TWIST_MASS * rows + r] * spin;
            next = next > limit ? limit : next < -limit ? -limit : next;
            acc[MACC_TWIST * rows + r] = next;
            const float d = next - old;
            dwax -= d * man[MAN_TWIST_AX * rows + r];
            dway -= d * man[MAN_TWIST_AY * rows + r];
            dwaz -= d * man[MAN_TWIST_AZ * rows + r];
            dwbx += d * man[MAN_TWIST_BX * rows + r];
            dwby += d * man[MAN_TWIST_BY * rows + r];
            dwbz += d * man[MAN_TWIST_BZ * rows + r];
            twisted = d;
            if (measure) {
                largest = java_max(largest, fabs(d));
            }
        }
        if (mu > 0.0f) {
            /* the friction pair at the centre, taken back into its disk */
            const float old1 = acc[MACC_F1 * rows + r];
            const float old2 = acc[MACC_F2 * rows + r];
            float f1 = (old1 - (man[MAN_TM11 * rows + r] * v1 + man[MAN_TM12 * rows + r] * v2))
                    - twisted * man[MAN_TWIST_F1 * rows + r];
            float f2 = (old2 - (man[MAN_TM12 * rows + r] * v1 + man[MAN_TM22 * rows + r] * v2))
                    - twisted * man[MAN_TWIST_F2 * rows + r];
            const float limit = mu * total;
            const float squared = f1 * f1 + f2 * f2;
            if (squared > limit * limit) {
                const float scale = limit / sqrt(squared);
                f1 = f1 * scale;
                f2 = f2 * scale;
            }
            acc[MACC_F1 * rows + r] = f1;
            acc[MACC_F2 * rows + r] = f2;
            const float d1 = f1 - old1;
            const float d2 = f2 - old2;
            const float px = d1 * t1x + d2 * t2x;
            const float py = d1 * t1y + d2 * t2y;
            const float pz = d1 * t1z + d2 * t2z;
            dvax -= ima * px;
            dvay -= ima * py;
            dvaz -= ima * pz;
            dvbx += imb * px;
            dvby += imb * py;
            dvbz += imb * pz;
            dwax -= d1 * man[MAN_DIRT1_AX * rows + r] + d2 * man[MAN_DIRT2_AX * rows + r];
            dway -= d1 * man[MAN_DIRT1_AY * rows + r] + d2 * man[MAN_DIRT2_AY * rows + r];
            dwaz -= d1 * man[MAN_DIRT1_AZ * rows + r] + d2 * man[MAN_DIRT2_AZ * rows + r];
            dwbx += d1 * man[MAN_DIRT1_BX * rows + r] + d2 * man[MAN_DIRT2_BX * rows + r];
            dwby += d1 * man[MAN_DIRT1_BY * rows + r] + d2 * man[MAN_DIRT2_BY * rows + r];
            dwbz += d1 * man[MAN_DIRT1_BZ * rows + r] + d2 * man[MAN_DIRT2_BZ * rows + r];
            if (measure) {
                largest = java_max(largest, java_max(fabs(d1), fabs(d2)));
            }
        }
    }
    if (a != world) {
        soft_store(state, a, dvax, dvay, dvaz, dwax, dway, dwaz);
    }
    if (b != world) {
        soft_store(state, b, dvbx, dvby, dvbz, dwbx, dwby, dwbz);
    }
    return largest;
}

/* Point p's normal velocity: v_n0 + along + w_b . (r_b x n) - w_a . (r_a x n). */
float start_velocity(__global const float* pts, const int points, const int p, const float along, const float dwax,
                     const float dway, const float dwaz, const float dwbx, const float dwby, const float dwbz)
{
    return pts[POINT_VN0 * points + p] + (along + (((dwbx * pts[POINT_RXN_BX * points + p]
            + dwby * pts[POINT_RXN_BY * points + p]) + dwbz * pts[POINT_RXN_BZ * points + p])
            - ((dwax * pts[POINT_RXN_AX * points + p] + dway * pts[POINT_RXN_AY * points + p])
            + dwaz * pts[POINT_RXN_AZ * points + p])));
}

/*
 * Writes a body's velocity change back to its state record at s (never the world's shared record,
 * which manifolds of one colour share and none may write).
 */
void soft_store(__global float* state, const int s, const float dvx, const float dvy, const float dvz, const float dwx,
                const float dwy, const float dwz)
{
    state[s + STATE_DVX] = dvx;
    state[s + STATE_DVY] = dvy;
    state[s + STATE_DVZ] = dvz;
    state[s + STATE_DWX] = dwx;
    state[s + STATE_DWY] = dwy;
    state[s + STATE_DWZ] = dwz;
}

/*
 * Visits manifold rows [firstRow, endRow) with solve_manifold: points of row r
 * [pointStart[r], pointStart[r + 1]), state slots and movers of each side at side * rows + r; with
 * `warmNext` (the substep's last sweep, another substep to come) each row's warm-start record for
 * the next substep; every row's peaks tracked, as restitution visits every row here. Returns the
 * largest change where `measure`, else 0.
 */
float sweep(__global const float* man, const int rows, __global const int* pointStart, __global const int* slots,
            __global const int* movers, __global const float* pts, const int points, __global float* normal,
            __global float* peak, __global float* separation, __global float* acc, __global float* state,
            __global const float* motion, const int worldSlot, const float inverseSubstep, const float maxPushOut,
            const int relax, const int friction, const int measure, const int findSeparation, __global float* warm,
            const int warmNext, const int firstRow, const int endRow)
{
    const int world = worldSlot * STATE_STRIDE;
    float largest = 0.0f;
    for (int r = firstRow; r < endRow; r++) {
        const int a = slots[LINK_A * rows + r] * STATE_STRIDE;
        const int b = slots[LINK_B * rows + r] * STATE_STRIDE;
        if (a == world && b == world) {
            continue;
        }
        const float change = solve_manifold(man, rows, r, pts, points, pointStart[r], pointStart[r + 1], normal, peak,
                                            separation, acc, state, a, b, world, motion,
                                            movers[LINK_A * rows + r] * MOTION_STRIDE,
                                            movers[LINK_B * rows + r] * MOTION_STRIDE, inverseSubstep, maxPushOut,
                                            relax, friction, measure, findSeparation, 1);
        largest = java_max(largest, change);
        if (warmNext) {
            warm_impulses(man, rows, r, pts, points, pointStart[r], pointStart[r + 1], normal, acc, warm);
        }
    }
    return largest;
}

/*
 * Step 6 for manifold row r: each point that approached faster than the threshold (its
 * TARGET = -e v_n0 > 0) and carried a normal impulse in this step gets the rigid normal row towards
 * -e v_n0. Returns the largest change.
 */
float restitution(__global const float* man, const int rows, const int r, __global const float* pts, const int points,
                  const int first, const int end, __global float* normal, __global const float* peak,
                  __global float* state, const int a, const int b, const int world)
{
    const float nx = man[MAN_NX * rows + r];
    const float ny = man[MAN_NY * rows + r];
    const float nz = man[MAN_NZ * rows + r];
    const float ima = man[MAN_INV_MASS_A * rows + r];
    const float imb = man[MAN_INV_MASS_B * rows + r];
    float largest = 0.0f;
    for (int p = first; p < end; p++) {
        if (!(pts[POINT_TARGET * points + p] > 0.0f) || !(peak[p] > 0.0f)) {
            continue;
        }
        const float vn = pts[POINT_VN0 * points + p] + ((((state[b + STATE_DVX] - state[a + STATE_DVX]) * nx
                + (state[b + STATE_DVY] - state[a + STATE_DVY]) * ny) + (state[b + STATE_DVZ] - state[a + STATE_DVZ]) * nz)
                + (((state[b + STATE_DWX] * pts[POINT_RXN_BX * points + p]
                + state[b + STATE_DWY] * pts[POINT_RXN_BY * points + p])
                + state[b + STATE_DWZ] * pts[POINT_RXN_BZ * points + p])
                - ((state[a + STATE_DWX] * pts[POINT_RXN_AX * points + p]
                + state[a + STATE_DWY] * pts[POINT_RXN_AY * points + p])
                + state[a + STATE_DWZ] * pts[POINT_RXN_AZ * points + p])));
        const float old = normal[p];
        float next = old + (pts[POINT_TARGET * points + p] - vn) * pts[POINT_NORMAL_MASS * points + p];
        if (next < 0.0f) {
            next = 0.0f;
        }
        normal[p] = next;
        const float applied = next - old;
        if (a != world) {
            const float pa = ima * applied;
            state[a + STATE_DVX] -= pa * nx;
            state[a + STATE_DVY] -= pa * ny;
            state[a + STATE_DVZ] -= pa * nz;
            state[a + STATE_DWX] -= applied * pts[POINT_DIR_AX * points + p];
            state[a + STATE_DWY] -= applied * pts[POINT_DIR_AY * points + p];
            state[a + STATE_DWZ] -= applied * pts[POINT_DIR_AZ * points + p];
        }
        if (b != world) {
            const float pb = imb * applied;
            state[b + STATE_DVX] += pb * nx;
            state[b + STATE_DVY] += pb * ny;
            state[b + STATE_DVZ] += pb * nz;
            state[b + STATE_DWX] += applied * pts[POINT_DIR_BX * points + p];
            state[b + STATE_DWY] += applied * pts[POINT_DIR_BY * points + p];
            state[b + STATE_DWZ] += applied * pts[POINT_DIR_BZ * points + p];
        }
        largest = java_max(largest, fabs(applied));
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

/*
 * Writes manifold row r's results for manifold m: its points' normal impulses to normalOut[g0 ..]
 * (the solved points' order) and its friction and angular vectors, on b in world space, to
 * vectorsOut (stride `rows`); a zero is written +0.
 */
void write_results(__global const float* man, const int rows, const int r, __global const float* normal,
                   const int first, const int end, __global const float* acc, __global float* normalOut,
                   const int g0, __global float* vectorsOut, const int m)
{
    for (int p = first; p < end; p++) {
        normalOut[g0 + (p - first)] = normal[p];
    }
    const float f1 = acc[MACC_F1 * rows + r];
    const float f2 = acc[MACC_F2 * rows + r];
    const float twist = acc[MACC_TWIST * rows + r];
    const float roll1 = acc[MACC_R1 * rows + r];
    const float roll2 = acc[MACC_R2 * rows + r];
    vectorsOut[MVEC_FX * rows + m] = (f1 * man[MAN_T1X * rows + r] + f2 * man[MAN_T2X * rows + r]) + 0.0f;
    vectorsOut[MVEC_FY * rows + m] = (f1 * man[MAN_T1Y * rows + r] + f2 * man[MAN_T2Y * rows + r]) + 0.0f;
    vectorsOut[MVEC_FZ * rows + m] = (f1 * man[MAN_T1Z * rows + r] + f2 * man[MAN_T2Z * rows + r]) + 0.0f;
    vectorsOut[MVEC_AX * rows + m] = ((twist * man[MAN_NX * rows + r] + roll1 * man[MAN_T1X * rows + r])
            + roll2 * man[MAN_T2X * rows + r]) + 0.0f;
    vectorsOut[MVEC_AY * rows + m] = ((twist * man[MAN_NY * rows + r] + roll1 * man[MAN_T1Y * rows + r])
            + roll2 * man[MAN_T2Y * rows + r]) + 0.0f;
    vectorsOut[MVEC_AZ * rows + m] = ((twist * man[MAN_NZ * rows + r] + roll1 * man[MAN_T1Z * rows + r])
            + roll2 * man[MAN_T2Z * rows + r]) + 0.0f;
}

/* ---- kernels: the stages of SoftStepSchedule, as CpuBackend's soft step runs them ------------- */

/*
 * Manifold row r from manifold order[r]: its constraint and points (prepare_geometry, then
 * prepare_step with the stiffer coefficients where a side's slot is the world's), its warm start for
 * the first substep, and the motion record each side reads.
 */
__kernel void prepare_manifolds(__global const float* contacts, __global const int* links, const int contactStride,
                                __global const int* firsts, __global const int* order, __global float* man,
                                const int rows, __global const int* pointStart, __global const int* slots,
                                __global float* acc, __global float* pts, const int points, __global float* normal,
                                __global float* peak, __global int* movers, __global const float* geometry,
                                __global const float* warmNormal, __global const float* warmVectors,
                                __global const int* solvedStart, const int worldRecord,
                                __global const float* prepared, const float restitutionThreshold,
                                const float biasRate, const float massScale, const float impulseScale,
                                const float staticBiasRate, const float staticMassScale,
                                const float staticImpulseScale, __global float* warm)
{
    const int r = get_global_id(0);
    if (r >= rows) {
        return;
    }
    const soft_coefficients k = {biasRate, massScale, impulseScale, staticBiasRate, staticMassScale,
                                 staticImpulseScale};
    const int m = order[r];
    const int c0 = firsts[m];
    const int a = links[LINK_A * contactStride + c0];
    const int b = links[LINK_B * contactStride + c0];
    const int isStatic = slots[LINK_A * rows + r] == worldRecord || slots[LINK_B * rows + r] == worldRecord;
    const int g0 = solvedStart[m];
    const int count = solvedStart[m + 1] - g0;
    __global const float* bodyA = record(prepared, a, worldRecord);
    __global const float* bodyB = record(prepared, b, worldRecord);
    prepare_geometry(geometry, points, g0, count, rows, r, pointStart[r], bodyA, bodyB,
                     contacts[CONTACT_ROLLING_RESISTANCE * contactStride + c0] > 0.0f, man, pts);
    prepare_step(geometry, points, g0, count, warmNormal, warmVectors, rows, m, contacts, contactStride, c0, r,
                 pointStart[r], bodyA, bodyB, isStatic, k, restitutionThreshold, man, pts, normal, peak, acc);
    warm_impulses(man, rows, r, pts, points, pointStart[r], pointStart[r + 1], normal, acc, warm);
    movers[LINK_A * rows + r] = a >= 0 ? a : worldRecord;
    movers[LINK_B * rows + r] = b >= 0 ? b : worldRecord;
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

/* The warm start of a colour, one manifold row a work-item, or with `serial` of the overflow rows in order. */
__kernel void warm_start_manifolds(__global const float* warm, const int rows, __global const int* slots,
                                   __global float* state, const int worldSlot, const int first, const int count,
                                   const int serial)
{
    const int i = get_global_id(0);
    if ((serial && i != 0) || (!serial && i >= count)) {
        return;
    }
    const int world = worldSlot * STATE_STRIDE;
    const int begin = serial ? first : first + i;
    const int end = serial ? first + count : first + i + 1;
    for (int r = begin; r < end; r++) {
        soft_apply_warm_start(warm, r, state, slots[LINK_A * rows + r] * STATE_STRIDE,
                              slots[LINK_B * rows + r] * STATE_STRIDE, world);
    }
}

/*
 * A substep's start for body i, in one launch rather than apply_substep_gravity and a
 * warm_start_manifolds a colour: gravity where it has mass, then the warm start of its rows.
 */
__kernel void start_substep(__global const float* bodies, const int stride, const int bodyCount,
                            __global const int* movable, __global float* state, const float gx, const float gy,
                            const float gz, const float h, __global const float* warm,
                            __global const int* bodyRowStart, __global const int* bodyRows)
{
    const int i = get_global_id(0);
    if (i >= bodyCount) {
        return;
    }
    if (movable[i]) {
        const int s = i * STATE_STRIDE;
        if (bodies[BODY_INV_MASS * stride + i] > 0.0f) {
            soft_apply_gravity(state, s, gx, gy, gz, h);
        }
        warm_body(warm, bodyRows, bodyRowStart[i], bodyRowStart[i + 1], state, s);
    }
}

/*
 * One soft or relax sweep of a colour, one manifold row a work-item, or with `serial` of the
 * overflow rows in order on one work-item. With `record` (the step's last sweep) the largest change
 * goes into residuals[0]; with `warmNext` each row's warm start for the next substep into `warm`.
 */
__kernel void solve_manifolds(__global const float* man, const int rows, __global const int* pointStart,
                              __global const int* slots, __global float* acc, __global const float* pts,
                              const int points, __global float* normal, __global float* peak,
                              __global float* separation, __global const int* movers, __global float* state,
                              const int worldSlot, __global const float* motion, const float inverseSubstep,
                              const float maxPushOut, const int relax, const int friction,
                              const int findSeparation, const int first, const int count, const int serial,
                              __global int* residuals, const int record, __global float* warm, const int warmNext)
{
    const int i = get_global_id(0);
    if ((serial && i != 0) || (!serial && i >= count)) {
        return;
    }
    const int begin = serial ? first : first + i;
    const int end = serial ? first + count : first + i + 1;
    const float largest = sweep(man, rows, pointStart, slots, movers, pts, points, normal, peak, separation, acc, state,
                                motion, worldSlot, inverseSubstep, maxPushOut, relax, friction, record,
                                findSeparation, warm, warmNext, begin, end);
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

/* The restitution pass over a colour (one manifold row a work-item) or the overflow (`serial`); its largest change into residuals[0]. */
__kernel void restitute_manifolds(__global const float* man, const int rows, __global const int* pointStart,
                                  __global const int* slots, __global const float* pts, const int points,
                                  __global float* normal, __global const float* peak, __global float* state,
                                  const int worldSlot, const int first, const int count, const int serial,
                                  __global int* residuals)
{
    const int i = get_global_id(0);
    if ((serial && i != 0) || (!serial && i >= count)) {
        return;
    }
    const int world = worldSlot * STATE_STRIDE;
    const int begin = serial ? first : first + i;
    const int end = serial ? first + count : first + i + 1;
    float largest = 0.0f;
    for (int r = begin; r < end; r++) {
        largest = java_max(largest, restitution(man, rows, r, pts, points, pointStart[r], pointStart[r + 1], normal,
                                                peak, state, slots[LINK_A * rows + r] * STATE_STRIDE,
                                                slots[LINK_B * rows + r] * STATE_STRIDE, world));
    }
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

/* Each manifold row's results (write_results) for manifold order[r], its points at solvedStart[order[r]]. */
__kernel void write_manifold_results(__global const float* man, const int rows, __global const int* pointStart,
                                     __global const float* acc, __global const float* normal,
                                     __global const int* order, __global const int* solvedStart,
                                     __global float* normalOut, __global float* vectorsOut)
{
    const int r = get_global_id(0);
    if (r >= rows) {
        return;
    }
    const int m = order[r];
    write_results(man, rows, r, normal, pointStart[r], pointStart[r + 1], acc, normalOut, solvedStart[m], vectorsOut,
                  m);
}
