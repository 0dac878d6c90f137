/*
 * Rigid-body maths shared by the kernels: the OpenCL twin of
 * host/io/contactsolver/cpu/BodyMath.java, statement for statement.
 *
 * Convention (docs/physics.md): the normal n points from body a to body b, r = p - x, the contact
 * point moves at v + w x r, the inverse inertia is rotated into world space as R I_body^-1 R^T.
 *
 * Layout: every BODY_*, CONTACT_*, LINK_*, DELTA_* and PREP_* name below is a build option
 * generated from the Java enums (KernelSource.java); none is defined here. Input records are
 * structure of arrays (field f of element i at f * stride + i); prepared body records are
 * PREP_STRIDE floats each, array of structures.
 *
 * Bit-exactness with the JVM: no contraction into fused multiply-add, float literals only (a
 * double literal would promote the expression), no built-in dot/cross (their order and fusing
 * are unspecified), and the host adds -cl-fp32-correctly-rounded-divide-sqrt where supported.
 */
#pragma OPENCL FP_CONTRACT OFF

void prepare_body(__global const float* bodies, const int stride, const int i, __global float* prepared)
{
    const float qw = bodies[BODY_QW * stride + i];
    const float qx = bodies[BODY_QX * stride + i];
    const float qy = bodies[BODY_QY * stride + i];
    const float qz = bodies[BODY_QZ * stride + i];
    const float bxx = bodies[BODY_INV_IXX * stride + i];
    const float byy = bodies[BODY_INV_IYY * stride + i];
    const float bzz = bodies[BODY_INV_IZZ * stride + i];
    const float bxy = bodies[BODY_INV_IXY * stride + i];
    const float bxz = bodies[BODY_INV_IXZ * stride + i];
    const float byz = bodies[BODY_INV_IYZ * stride + i];

    __global float* out = prepared + i * PREP_STRIDE;
    out[PREP_X] = bodies[BODY_X * stride + i];
    out[PREP_Y] = bodies[BODY_Y * stride + i];
    out[PREP_Z] = bodies[BODY_Z * stride + i];
    out[PREP_INV_MASS] = bodies[BODY_INV_MASS * stride + i];
    out[PREP_VX] = bodies[BODY_VX * stride + i];
    out[PREP_VY] = bodies[BODY_VY * stride + i];
    out[PREP_VZ] = bodies[BODY_VZ * stride + i];
    out[PREP_WX] = bodies[BODY_WX * stride + i];
    out[PREP_WY] = bodies[BODY_WY * stride + i];
    out[PREP_WZ] = bodies[BODY_WZ * stride + i];
    if (bxy == 0.0f && bxz == 0.0f && byz == 0.0f && bxx == byy && byy == bzz) {
        /* isotropic (a sphere, a particle, a static body): R (k I) R^T = k I, exactly, in every frame */
        out[PREP_IXX] = bxx;
        out[PREP_IYY] = bxx;
        out[PREP_IZZ] = bxx;
        out[PREP_IXY] = 0.0f;
        out[PREP_IXZ] = 0.0f;
        out[PREP_IYZ] = 0.0f;
        return;
    }

    /* rotation matrix of the unit quaternion, r<row><column> */
    const float xx = qx * qx;
    const float yy = qy * qy;
    const float zz = qz * qz;
    const float xy = qx * qy;
    const float xz = qx * qz;
    const float yz = qy * qz;
    const float wx = qw * qx;
    const float wy = qw * qy;
    const float wz = qw * qz;
    const float r00 = 1.0f - 2.0f * (yy + zz);
    const float r01 = 2.0f * (xy - wz);
    const float r02 = 2.0f * (xz + wy);
    const float r10 = 2.0f * (xy + wz);
    const float r11 = 1.0f - 2.0f * (xx + zz);
    const float r12 = 2.0f * (yz - wx);
    const float r20 = 2.0f * (xz - wy);
    const float r21 = 2.0f * (yz + wx);
    const float r22 = 1.0f - 2.0f * (xx + yy);

    /* m = R * B (B symmetric) */
    const float m00 = r00 * bxx + r01 * bxy + r02 * bxz;
    const float m01 = r00 * bxy + r01 * byy + r02 * byz;
    const float m02 = r00 * bxz + r01 * byz + r02 * bzz;
    const float m10 = r10 * bxx + r11 * bxy + r12 * bxz;
    const float m11 = r10 * bxy + r11 * byy + r12 * byz;
    const float m12 = r10 * bxz + r11 * byz + r12 * bzz;
    const float m20 = r20 * bxx + r21 * bxy + r22 * bxz;
    const float m21 = r20 * bxy + r21 * byy + r22 * byz;
    const float m22 = r20 * bxz + r21 * byz + r22 * bzz;

    /* world = m * R^T; only the upper triangle, so the result is exactly symmetric */
    out[PREP_IXX] = m00 * r00 + m01 * r01 + m02 * r02;
    out[PREP_IYY] = m10 * r10 + m11 * r11 + m12 * r12;
    out[PREP_IZZ] = m20 * r20 + m21 * r21 + m22 * r22;
    out[PREP_IXY] = m00 * r10 + m01 * r11 + m02 * r12;
    out[PREP_IXZ] = m00 * r20 + m01 * r21 + m02 * r22;
    out[PREP_IYZ] = m10 * r20 + m11 * r21 + m12 * r22;
}

/* Body `body`'s prepared record; the world (-1) has the one after the last body. */
__global const float* record(__global const float* prepared, const int body, const int worldRecord)
{
    return prepared + (body < 0 ? worldRecord : body) * PREP_STRIDE;
}

/*
 * Evaluates contact c at the pre-solve velocities into `row` (one contact's row, indexed by the
 * ROW_* fields): the normal, both sides' r x n and I^-1 (r x n) and inverse masses, the effective
 * inverse mass K, the normal relative velocity v_n = (v_pb - v_pa) . n and the target it must at
 * least leave with (TargetRule.java). Without positional correction (inverseTimeStep = 0) an
 * approaching contact targets -e v_n, and (target - v_n) / K is the frictionless impulse
 * -(1 + e) v_n / K of docs/physics.md ("The frictionless impulse").
 * The two sides are written out, as in the Java twin (which measures why).
 */
void evaluate_contact(__global const float* contacts, const int stride, const int c, __global const float* bodyA,
                      __global const float* bodyB, const float restitutionThreshold, const float inverseTimeStep,
                      const float biasFactor, const float slop, float* row)
{
    const float px = contacts[CONTACT_PX * stride + c];
    const float py = contacts[CONTACT_PY * stride + c];
    const float pz = contacts[CONTACT_PZ * stride + c];
    const float nx = contacts[CONTACT_NX * stride + c];
    const float ny = contacts[CONTACT_NY * stride + c];
    const float nz = contacts[CONTACT_NZ * stride + c];
    const float e = contacts[CONTACT_RESTITUTION * stride + c];

    /* side a: r, r x n, I^-1 (r x n), and the velocity v + w x r of the contact point */
    const float rax = px - bodyA[PREP_X];
    const float ray = py - bodyA[PREP_Y];
    const float raz = pz - bodyA[PREP_Z];
    const float rxnAX = ray * nz - raz * ny;
    const float rxnAY = raz * nx - rax * nz;
    const float rxnAZ = rax * ny - ray * nx;
    const float dirAX = bodyA[PREP_IXX] * rxnAX + bodyA[PREP_IXY] * rxnAY + bodyA[PREP_IXZ] * rxnAZ;
    const float dirAY = bodyA[PREP_IXY] * rxnAX + bodyA[PREP_IYY] * rxnAY + bodyA[PREP_IYZ] * rxnAZ;
    const float dirAZ = bodyA[PREP_IXZ] * rxnAX + bodyA[PREP_IYZ] * rxnAY + bodyA[PREP_IZZ] * rxnAZ;
    const float velAX = bodyA[PREP_VX] + (bodyA[PREP_WY] * raz - bodyA[PREP_WZ] * ray);
    const float velAY = bodyA[PREP_VY] + (bodyA[PREP_WZ] * rax - bodyA[PREP_WX] * raz);
    const float velAZ = bodyA[PREP_VZ] + (bodyA[PREP_WX] * ray - bodyA[PREP_WY] * rax);

    /* side b, likewise */
    const float rbx = px - bodyB[PREP_X];
    const float rby = py - bodyB[PREP_Y];
    const float rbz = pz - bodyB[PREP_Z];
    const float rxnBX = rby * nz - rbz * ny;
    const float rxnBY = rbz * nx - rbx * nz;
    const float rxnBZ = rbx * ny - rby * nx;
    const float dirBX = bodyB[PREP_IXX] * rxnBX + bodyB[PREP_IXY] * rxnBY + bodyB[PREP_IXZ] * rxnBZ;
    const float dirBY = bodyB[PREP_IXY] * rxnBX + bodyB[PREP_IYY] * rxnBY + bodyB[PREP_IYZ] * rxnBZ;
    const float dirBZ = bodyB[PREP_IXZ] * rxnBX + bodyB[PREP_IYZ] * rxnBY + bodyB[PREP_IZZ] * rxnBZ;
    const float velBX = bodyB[PREP_VX] + (bodyB[PREP_WY] * rbz - bodyB[PREP_WZ] * rby);
    const float velBY = bodyB[PREP_VY] + (bodyB[PREP_WZ] * rbx - bodyB[PREP_WX] * rbz);
    const float velBZ = bodyB[PREP_VZ] + (bodyB[PREP_WX] * rby - bodyB[PREP_WY] * rbx);

    const float vn = (velBX - velAX) * nx + (velBY - velAY) * ny + (velBZ - velAZ) * nz;
    const float inverseMassA = bodyA[PREP_INV_MASS];
    const float inverseMassB = bodyB[PREP_INV_MASS];
    const float k = inverseMassA + inverseMassB + (rxnAX * dirAX + rxnAY * dirAY + rxnAZ * dirAZ)
            + (rxnBX * dirBX + rxnBY * dirBY + rxnBZ * dirBZ);
    float target = vn < -restitutionThreshold ? -(e * vn) : 0.0f;
    if (inverseTimeStep > 0.0f) {
        const float separation = contacts[CONTACT_SEPARATION * stride + c];
        if (separation > 0.0f) {
            target = -(separation * inverseTimeStep);
        } else {
            const float depth = -separation - slop;
            if (depth > 0.0f) {
                const float push = biasFactor * depth * inverseTimeStep;
                target = push > target ? push : target;
            }
        }
    }
    row[ROW_NX] = nx;
    row[ROW_NY] = ny;
    row[ROW_NZ] = nz;
    row[ROW_RXN_AX] = rxnAX;
    row[ROW_RXN_AY] = rxnAY;
    row[ROW_RXN_AZ] = rxnAZ;
    row[ROW_RXN_BX] = rxnBX;
    row[ROW_RXN_BY] = rxnBY;
    row[ROW_RXN_BZ] = rxnBZ;
    row[ROW_DIR_AX] = dirAX;
    row[ROW_DIR_AY] = dirAY;
    row[ROW_DIR_AZ] = dirAZ;
    row[ROW_DIR_BX] = dirBX;
    row[ROW_DIR_BY] = dirBY;
    row[ROW_DIR_BZ] = dirBZ;
    row[ROW_INV_MASS_A] = inverseMassA;
    row[ROW_INV_MASS_B] = inverseMassB;
    row[ROW_K] = k;
    row[ROW_VN0] = vn;
    row[ROW_TARGET] = target;
}

/*
 * ---- single pass with friction (docs/physics.md, "Single pass with friction") ------------------
 * Its scratch is WORK_COUNT floats laid out by the WORK_* build options (FrictionWork.java): the
 * impulse on b, both lever arms, the relative velocity, both sides' K blocks.
 */

/*
 * Writes contact c's lever arms r_a, r_b and the relative velocity v = v_pb - v_pa of its contact
 * points into work, computed as evaluate_contact computes them.
 */
void contact_motion(__global const float* contacts, const int stride, const int c, __global const float* bodyA,
                    __global const float* bodyB, float* work)
{
    const float px = contacts[CONTACT_PX * stride + c];
    const float py = contacts[CONTACT_PY * stride + c];
    const float pz = contacts[CONTACT_PZ * stride + c];
    const float rax = px - bodyA[PREP_X];
    const float ray = py - bodyA[PREP_Y];
    const float raz = pz - bodyA[PREP_Z];
    const float velAX = bodyA[PREP_VX] + (bodyA[PREP_WY] * raz - bodyA[PREP_WZ] * ray);
    const float velAY = bodyA[PREP_VY] + (bodyA[PREP_WZ] * rax - bodyA[PREP_WX] * raz);
    const float velAZ = bodyA[PREP_VZ] + (bodyA[PREP_WX] * ray - bodyA[PREP_WY] * rax);
    const float rbx = px - bodyB[PREP_X];
    const float rby = py - bodyB[PREP_Y];
    const float rbz = pz - bodyB[PREP_Z];
    const float velBX = bodyB[PREP_VX] + (bodyB[PREP_WY] * rbz - bodyB[PREP_WZ] * rby);
    const float velBY = bodyB[PREP_VY] + (bodyB[PREP_WZ] * rbx - bodyB[PREP_WX] * rbz);
    const float velBZ = bodyB[PREP_VZ] + (bodyB[PREP_WX] * rby - bodyB[PREP_WY] * rbx);
    work[WORK_RAX] = rax;
    work[WORK_RAX + 1] = ray;
    work[WORK_RAX + 2] = raz;
    work[WORK_RBX] = rbx;
    work[WORK_RBX + 1] = rby;
    work[WORK_RBX + 2] = rbz;
    work[WORK_VX] = velBX - velAX;
    work[WORK_VX + 1] = velBY - velAY;
    work[WORK_VX + 2] = velBZ - velAZ;
}

/*
 * Writes one side's share of the 3x3 matrix K, -[r]x I^-1 [r]x (symmetric, positive semi-definite),
 * as xx, yy, zz, xy, xz, yz at work[at]. Column k of [r]x is u_k = r x e_k, and entry (i, k) is
 * u_i . I^-1 u_k.
 */
void angular_block(__global const float* body, const float rx, const float ry, const float rz, float* work,
                   const int at)
{
    const float ixx = body[PREP_IXX];
    const float iyy = body[PREP_IYY];
    const float izz = body[PREP_IZZ];
    const float ixy = body[PREP_IXY];
    const float ixz = body[PREP_IXZ];
    const float iyz = body[PREP_IYZ];
    /* I^-1 u_0, u_0 = (0, rz, -ry) */
    const float a0x = ixy * rz - ixz * ry;
    const float a0y = iyy * rz - iyz * ry;
    const float a0z = iyz * rz - izz * ry;
    /* I^-1 u_1, u_1 = (-rz, 0, rx) */
    const float a1x = ixz * rx - ixx * rz;
    const float a1y = iyz * rx - ixy * rz;
    const float a1z = izz * rx - ixz * rz;
    /* I^-1 u_2, u_2 = (ry, -rx, 0) */
    const float a2x = ixx * ry - ixy * rx;
    const float a2y = ixy * ry - iyy * rx;
    const float a2z = ixz * ry - iyz * rx;
    work[at] = rz * a0y - ry * a0z;
    work[at + 1] = rx * a1z - rz * a1x;
    work[at + 2] = ry * a2x - rx * a2y;
    work[at + 3] = rz * a1y - ry * a1z;
    work[at + 4] = rz * a2y - ry * a2z;
    work[at + 5] = rx * a2z - rz * a2x;
}

/* G(P) = P . v + P . K P / 2: the change of kinetic energy an impulse P on b (and -P on a) makes. */
float energy_change(const float px, const float py, const float pz, const float vx, const float vy, const float vz,
                    const float kxx, const float kyy, const float kzz, const float kxy, const float kxz,
                    const float kyz)
{
    const float kpx = kxx * px + kxy * py + kxz * pz;
    const float kpy = kxy * px + kyy * py + kyz * pz;
    const float kpz = kxz * px + kyz * py + kzz * pz;
    return (px * vx + py * vy + pz * vz) + 0.5f * (px * kpx + py * kpy + pz * kpz);
}

/*
 * The single-pass impulse of an approaching contact with friction mu > 0, whose frictionless row
 * (evaluate_contact) has K > 0 and v_n below its target: the sticking impulse if it lies in the
 * cone, else the sliding impulse along the pre-impact tangential direction, unless that would add
 * more energy than the frictionless impulse j0 n (the dissipation guard). Returns 0 where the
 * frictionless impulse applies instead; otherwise work holds the impulse on b and both lever arms.
 */
int frictional_impulse(__global const float* contacts, const int stride, const int c, __global const float* bodyA,
                       __global const float* bodyB, const float mu, const float j0, const float* row, float* work)
{
    const float nx = row[ROW_NX];
    const float ny = row[ROW_NY];
    const float nz = row[ROW_NZ];
    contact_motion(contacts, stride, c, bodyA, bodyB, work);
    const float rax = work[WORK_RAX];
    const float ray = work[WORK_RAX + 1];
    const float raz = work[WORK_RAX + 2];
    const float rbx = work[WORK_RBX];
    const float rby = work[WORK_RBX + 1];
    const float rbz = work[WORK_RBX + 2];
    const float vx = work[WORK_VX];
    const float vy = work[WORK_VX + 1];
    const float vz = work[WORK_VX + 2];
    const float vn = row[ROW_VN0];
    const float target = row[ROW_TARGET];

    /* K = (1/m_a + 1/m_b) 1 - [r_a]x I_a^-1 [r_a]x - [r_b]x I_b^-1 [r_b]x */
    angular_block(bodyA, rax, ray, raz, work, WORK_A_XX);
    angular_block(bodyB, rbx, rby, rbz, work, WORK_B_XX);
    const float linear = row[ROW_INV_MASS_A] + row[ROW_INV_MASS_B];
    const float kxx = (linear + work[WORK_A_XX]) + work[WORK_B_XX];
    const float kyy = (linear + work[WORK_A_XX + 1]) + work[WORK_B_XX + 1];
    const float kzz = (linear + work[WORK_A_XX + 2]) + work[WORK_B_XX + 2];
    const float kxy = work[WORK_A_XX + 3] + work[WORK_B_XX + 3];
    const float kxz = work[WORK_A_XX + 4] + work[WORK_B_XX + 4];
    const float kyz = work[WORK_A_XX + 5] + work[WORK_B_XX + 5];

    /* sticking: K P = target n - v, by the adjugate of the symmetric K */
    const float cxx = kyy * kzz - kyz * kyz;
    const float cxy = kxz * kyz - kxy * kzz;
    const float cxz = kxy * kyz - kxz * kyy;
    const float cyy = kxx * kzz - kxz * kxz;
    const float cyz = kxy * kxz - kxx * kyz;
    const float czz = kxx * kyy - kxy * kxy;
    const float det = kxx * cxx + kxy * cxy + kxz * cxz;
    const float bx = target * nx - vx;
    const float by = target * ny - vy;
    const float bz = target * nz - vz;
    float impulseX = 0.0f;
    float impulseY = 0.0f;
    float impulseZ = 0.0f;
    int sticks = 0;
    if (det > 0.0f) {
        const float sx = (cxx * bx + cxy * by + cxz * bz) / det;
        const float sy = (cxy * bx + cyy * by + cyz * bz) / det;
        const float sz = (cxz * bx + cyz * by + czz * bz) / det;
        const float sn = sx * nx + sy * ny + sz * nz;
        const float tx = sx - sn * nx;
        const float ty = sy - sn * ny;
        const float tz = sz - sn * nz;
        const float limit = mu * sn;
        if (sn >= 0.0f && tx * tx + ty * ty + tz * tz <= limit * limit) {
            impulseX = sx;
            impulseY = sy;
            impulseZ = sz;
            sticks = 1;
        }
    }
    if (!sticks) {
        /* sliding along the pre-impact tangential direction t: P = j (n - mu t) */
        const float vtx = vx - vn * nx;
        const float vty = vy - vn * ny;
        const float vtz = vz - vn * nz;
        const float speed = sqrt(vtx * vtx + vty * vty + vtz * vtz);
        if (!(speed > 0.0f)) {
            return 0;
        }
        const float dx = nx - mu * (vtx / speed);
        const float dy = ny - mu * (vty / speed);
        const float dz = nz - mu * (vtz / speed);
        const float kdx = kxx * dx + kxy * dy + kxz * dz;
        const float kdy = kxy * dx + kyy * dy + kyz * dz;
        const float kdz = kxz * dx + kyz * dy + kzz * dz;
        const float nkd = nx * kdx + ny * kdy + nz * kdz;
        if (!(nkd > 0.0f)) {
            return 0;
        }
        const float j = (target - vn) / nkd;
        impulseX = j * dx;
        impulseY = j * dy;
        impulseZ = j * dz;
    }

    /* the dissipation guard; a comparison that fails on NaN also falls back */
    const float gain = energy_change(impulseX, impulseY, impulseZ, vx, vy, vz, kxx, kyy, kzz, kxy, kxz, kyz);
    const float gain0 = energy_change(j0 * nx, j0 * ny, j0 * nz, vx, vy, vz, kxx, kyy, kzz, kxy, kxz, kyz);
    if (!(gain <= gain0)) {
        return 0;
    }
    work[WORK_PX] = impulseX;
    work[WORK_PY] = impulseY;
    work[WORK_PZ] = impulseZ;
    return 1;
}

/* ---- iterative solver with friction (docs/physics.md, "Iterative solver with friction") -------- */

/* Writes u x v at out[at..at+2]. */
void cross_into(const float ux, const float uy, const float uz, const float vx, const float vy, const float vz,
                float* out, const int at)
{
    out[at] = uy * vz - uz * vy;
    out[at + 1] = uz * vx - ux * vz;
    out[at + 2] = ux * vy - uy * vx;
}

/* Writes I^-1 u, with the body's world-space inverse inertia, at out[at..at+2]. */
void inertia_times(__global const float* body, const float ux, const float uy, const float uz, float* out,
                   const int at)
{
    out[at] = body[PREP_IXX] * ux + body[PREP_IXY] * uy + body[PREP_IXZ] * uz;
    out[at + 1] = body[PREP_IXY] * ux + body[PREP_IYY] * uy + body[PREP_IYZ] * uz;
    out[at + 2] = body[PREP_IXZ] * ux + body[PREP_IYZ] * uy + body[PREP_IZZ] * uz;
}

/* The dot product of the three-field groups of row starting at u and v. */
float dot_row(const float* row, const int u, const int v)
{
    return row[u] * row[v] + row[u + 1] * row[v + 1] + row[u + 2] * row[v + 2];
}

/* The larger eigenvalue of the symmetric 2x2 matrix [[p, q], [q, s]]. */
float larger_eigenvalue(const float p, const float s, const float q)
{
    const float mean = 0.5f * (p + s);
    const float spread = 0.5f * (p - s);
    return mean + sqrt(spread * spread + q * q);
}

/*
 * One side's friction terms: r x t_i and I^-1 (r x t_i) for both tangents, each written as three
 * consecutive row fields from the given first field.
 */
void friction_side(__global const float* body, const float rx, const float ry, const float rz, const float t1x,
                   const float t1y, const float t1z, const float t2x, const float t2y, const float t2z, float* row,
                   const int rxt1, const int dirt1, const int rxt2, const int dirt2)
{
    cross_into(rx, ry, rz, t1x, t1y, t1z, row, rxt1);
    cross_into(rx, ry, rz, t2x, t2y, t2z, row, rxt2);
    inertia_times(body, row[rxt1], row[rxt1 + 1], row[rxt1 + 2], row, dirt1);
    inertia_times(body, row[rxt2], row[rxt2 + 1], row[rxt2 + 2], row, dirt2);
}

/* One side's rolling terms: I^-1 t_i for both tangents, from the given first fields. */
void rolling_side(__global const float* body, const float t1x, const float t1y, const float t1z, const float t2x,
                  const float t2y, const float t2z, float* row, const int roll1, const int roll2)
{
    inertia_times(body, t1x, t1y, t1z, row, roll1);
    inertia_times(body, t2x, t2y, t2z, row, roll2);
}

/*
 * Adds the friction and rolling fields of a row to `row`, which evaluate_contact has filled for
 * contact c: the fixed tangents of the normal, each side's lever terms along them, both step sizes
 * and the relative velocities along the tangents. A pair whose block is zero (no body can take that
 * impulse) gets a zero coefficient, so the solve never divides by 0.
 */
void evaluate_friction(__global const float* contacts, const int stride, const int c, __global const float* bodyA,
                       __global const float* bodyB, float* row, float* work)
{
    const float nx = row[ROW_NX];
    const float ny = row[ROW_NY];
    const float nz = row[ROW_NZ];

    /* a branchless orthonormal basis (t1, t2) of the plane normal to n */
    const float flip = copysign(1.0f, nz);
    const float a = -1.0f / (flip + nz);
    const float b = nx * ny * a;
    const float t1x = 1.0f + flip * nx * nx * a;
    const float t1y = flip * b;
    const float t1z = -flip * nx;
    const float t2x = b;
    const float t2y = flip + ny * ny * a;
    const float t2z = -ny;
    row[ROW_T1X] = t1x;
    row[ROW_T1Y] = t1y;
    row[ROW_T1Z] = t1z;
    row[ROW_T2X] = t2x;
    row[ROW_T2Y] = t2y;
    row[ROW_T2Z] = t2z;

    /* the contact points' motion, as in evaluate_contact */
    contact_motion(contacts, stride, c, bodyA, bodyB, work);
    const float rax = work[WORK_RAX];
    const float ray = work[WORK_RAX + 1];
    const float raz = work[WORK_RAX + 2];
    const float rbx = work[WORK_RBX];
    const float rby = work[WORK_RBX + 1];
    const float rbz = work[WORK_RBX + 2];
    const float vx = work[WORK_VX];
    const float vy = work[WORK_VX + 1];
    const float vz = work[WORK_VX + 2];
    const float wx = bodyB[PREP_WX] - bodyA[PREP_WX];
    const float wy = bodyB[PREP_WY] - bodyA[PREP_WY];
    const float wz = bodyB[PREP_WZ] - bodyA[PREP_WZ];

    friction_side(bodyA, rax, ray, raz, t1x, t1y, t1z, t2x, t2y, t2z, row, ROW_RXT1_AX, ROW_DIRT1_AX, ROW_RXT2_AX,
                  ROW_DIRT2_AX);
    friction_side(bodyB, rbx, rby, rbz, t1x, t1y, t1z, t2x, t2y, t2z, row, ROW_RXT1_BX, ROW_DIRT1_BX, ROW_RXT2_BX,
                  ROW_DIRT2_BX);

    /* [t_i . K t_j] = (1/m_a + 1/m_b) delta_ij + (r_a x t_i) . I_a^-1 (r_a x t_j) + (same for b) */
    const float linear = row[ROW_INV_MASS_A] + row[ROW_INV_MASS_B];
    const float k11 = (linear + dot_row(row, ROW_RXT1_AX, ROW_DIRT1_AX)) + dot_row(row, ROW_RXT1_BX, ROW_DIRT1_BX);
    const float k22 = (linear + dot_row(row, ROW_RXT2_AX, ROW_DIRT2_AX)) + dot_row(row, ROW_RXT2_BX, ROW_DIRT2_BX);
    const float k12 = dot_row(row, ROW_RXT1_AX, ROW_DIRT2_AX) + dot_row(row, ROW_RXT1_BX, ROW_DIRT2_BX);
    const float kt = larger_eigenvalue(k11, k22, k12);
    row[ROW_KT] = kt;
    row[ROW_VT1_0] = vx * t1x + vy * t1y + vz * t1z;
    row[ROW_VT2_0] = vx * t2x + vy * t2y + vz * t2z;

    if (!(kt > 0.0f)) {
        row[ROW_MU] = 0.0f;
    }
    if (!(row[ROW_RHO] > 0.0f)) {
        /* no rolling resistance: its terms are never read, so they are zeroed rather than computed */
        for (int field = ROW_ROLL1_AX; field <= ROW_WT2_0; field++) {
            row[field] = 0.0f;
        }
        return;
    }
    rolling_side(bodyA, t1x, t1y, t1z, t2x, t2y, t2z, row, ROW_ROLL1_AX, ROW_ROLL2_AX);
    rolling_side(bodyB, t1x, t1y, t1z, t2x, t2y, t2z, row, ROW_ROLL1_BX, ROW_ROLL2_BX);

    /* [t_i . (I_a^-1 + I_b^-1) t_j] */
    const float r11 = dot_row(row, ROW_T1X, ROW_ROLL1_AX) + dot_row(row, ROW_T1X, ROW_ROLL1_BX);
    const float r22 = dot_row(row, ROW_T2X, ROW_ROLL2_AX) + dot_row(row, ROW_T2X, ROW_ROLL2_BX);
    const float r12 = dot_row(row, ROW_T1X, ROW_ROLL2_AX) + dot_row(row, ROW_T1X, ROW_ROLL2_BX);
    const float kr = larger_eigenvalue(r11, r22, r12);
    row[ROW_KR] = kr;
    row[ROW_WT1_0] = wx * t1x + wy * t1y + wz * t1z;
    row[ROW_WT2_0] = wx * t2x + wy * t2y + wz * t2z;
    if (!(kr > 0.0f)) {
        row[ROW_RHO] = 0.0f;
    }
}

/*
 * Adds the twist fields of a row to `row`, which evaluate_contact has filled for a contact of bodyA
 * and bodyB and whose TAU is set: each side's I^-1 n, the step size k_tw = n . (I_a^-1 + I_b^-1) n
 * and the relative angular velocity along n. A twist no body can take (k_tw zero) switches the
 * row's torsion off, so the solve never divides by 0.
 */
void evaluate_twist(__global const float* bodyA, __global const float* bodyB, float* row)
{
    if (!(row[ROW_TAU] > 0.0f)) {
        /* no torsional resistance: its terms are never read, so they are zeroed rather than computed */
        for (int field = ROW_TWIST_AX; field <= ROW_WN_0; field++) {
            row[field] = 0.0f;
        }
        return;
    }
    const float nx = row[ROW_NX];
    const float ny = row[ROW_NY];
    const float nz = row[ROW_NZ];
    inertia_times(bodyA, nx, ny, nz, row, ROW_TWIST_AX);
    inertia_times(bodyB, nx, ny, nz, row, ROW_TWIST_BX);
    const float ktw = dot_row(row, ROW_NX, ROW_TWIST_AX) + dot_row(row, ROW_NX, ROW_TWIST_BX);
    row[ROW_KTW] = ktw;
    const float wx = bodyB[PREP_WX] - bodyA[PREP_WX];
    const float wy = bodyB[PREP_WY] - bodyA[PREP_WY];
    const float wz = bodyB[PREP_WZ] - bodyA[PREP_WZ];
    row[ROW_WN_0] = wx * nx + wy * ny + wz * nz;
    if (!(ktw > 0.0f)) {
        row[ROW_TAU] = 0.0f;
    }
}
