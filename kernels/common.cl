/*
 * Rigid-body maths shared by the kernels: the OpenCL twin of
 * host/io/contactsolver/cpu/BodyMath.java, statement for statement.
 *
 * Convention (PHYSICS.md): the normal n points from body a to body b, r = p - x, the contact
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
 * approaching contact targets -e v_n, and (target - v_n) / K is the seed's -(1 + e) v_n / K.
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
