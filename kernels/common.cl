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

/* What one side of a contact contributes, seen from that side's body. */
typedef struct {
    float rxnX, rxnY, rxnZ;    /* r x n */
    float dirX, dirY, dirZ;    /* I^-1 (r x n): angular velocity change per unit impulse along +n */
    float velX, velY, velZ;    /* v + w x r: velocity of the contact point on this body */
    float inverseMass;
} ContactSide;

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
    if (bxx == 0.0f && byy == 0.0f && bzz == 0.0f && bxy == 0.0f && bxz == 0.0f && byz == 0.0f) {
        /* a particle or a static body: nothing to rotate (exact zeros, where rotating gives +-0) */
        out[PREP_IXX] = 0.0f;
        out[PREP_IYY] = 0.0f;
        out[PREP_IZZ] = 0.0f;
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

/* Describes the side of a contact at point p with normal n that belongs to prepared record `record`. */
void describe_side(__global const float* prepared, const int record, const float px, const float py,
                   const float pz, const float nx, const float ny, const float nz, ContactSide* side)
{
    __global const float* body = prepared + record * PREP_STRIDE;
    const float rx = px - body[PREP_X];
    const float ry = py - body[PREP_Y];
    const float rz = pz - body[PREP_Z];
    const float rxnX = ry * nz - rz * ny;
    const float rxnY = rz * nx - rx * nz;
    const float rxnZ = rx * ny - ry * nx;
    const float ixx = body[PREP_IXX];
    const float iyy = body[PREP_IYY];
    const float izz = body[PREP_IZZ];
    const float ixy = body[PREP_IXY];
    const float ixz = body[PREP_IXZ];
    const float iyz = body[PREP_IYZ];
    const float wx = body[PREP_WX];
    const float wy = body[PREP_WY];
    const float wz = body[PREP_WZ];
    side->rxnX = rxnX;
    side->rxnY = rxnY;
    side->rxnZ = rxnZ;
    side->dirX = ixx * rxnX + ixy * rxnY + ixz * rxnZ;
    side->dirY = ixy * rxnX + iyy * rxnY + iyz * rxnZ;
    side->dirZ = ixz * rxnX + iyz * rxnY + izz * rxnZ;
    side->velX = body[PREP_VX] + (wy * rz - wz * ry);
    side->velY = body[PREP_VY] + (wz * rx - wx * rz);
    side->velZ = body[PREP_VZ] + (wx * ry - wy * rx);
    side->inverseMass = body[PREP_INV_MASS];
}

/* (r x n) . I^-1 (r x n): this side's angular share of the effective inverse mass. */
float angular_inverse_mass(const ContactSide* side)
{
    return side->rxnX * side->dirX + side->rxnY * side->dirY + side->rxnZ * side->dirZ;
}

/* One contact seen from both bodies at the pre-solve velocities. */
typedef struct {
    ContactSide sideA;
    ContactSide sideB;
    int a;
    int b;
    float nx, ny, nz;
    float vn;        /* (v_pb - v_pa) . n; negative when approaching */
    float k;         /* effective inverse mass along n; zero when neither body can move */
    float target;    /* normal velocity to leave with at least (TargetRule.java) */
} ContactEvaluation;

/*
 * Evaluates contact c and its target normal velocity by the rule of TargetRule.java. Without
 * positional correction (inverseTimeStep = 0) an approaching contact targets -e v_n and
 * (target - v_n) / K is the seed's -(1 + e) v_n / K.
 */
void evaluate_contact(__global const float* contacts, __global const int* links, const int stride, const int c,
                      const int worldRecord, __global const float* prepared, const float restitutionThreshold,
                      const float inverseTimeStep, const float biasFactor, const float slop,
                      ContactEvaluation* out)
{
    const int a = links[LINK_A * stride + c];
    const int b = links[LINK_B * stride + c];
    const float px = contacts[CONTACT_PX * stride + c];
    const float py = contacts[CONTACT_PY * stride + c];
    const float pz = contacts[CONTACT_PZ * stride + c];
    const float nx = contacts[CONTACT_NX * stride + c];
    const float ny = contacts[CONTACT_NY * stride + c];
    const float nz = contacts[CONTACT_NZ * stride + c];
    const float e = contacts[CONTACT_RESTITUTION * stride + c];
    ContactSide* sideA = &out->sideA;
    ContactSide* sideB = &out->sideB;
    describe_side(prepared, a < 0 ? worldRecord : a, px, py, pz, nx, ny, nz, sideA);
    describe_side(prepared, b < 0 ? worldRecord : b, px, py, pz, nx, ny, nz, sideB);
    const float relX = sideB->velX - sideA->velX;
    const float relY = sideB->velY - sideA->velY;
    const float relZ = sideB->velZ - sideA->velZ;
    const float vn = relX * nx + relY * ny + relZ * nz;
    out->a = a;
    out->b = b;
    out->nx = nx;
    out->ny = ny;
    out->nz = nz;
    out->vn = vn;
    out->k = sideA->inverseMass + sideB->inverseMass + angular_inverse_mass(sideA) + angular_inverse_mass(sideB);
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
    out->target = target;
}
