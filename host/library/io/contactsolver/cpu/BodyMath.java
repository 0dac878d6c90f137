package io.contactsolver.cpu;

import static io.contactsolver.core.FieldOffsets.*;
import static io.contactsolver.core.PreparedBodyField.STRIDE;

import io.contactsolver.core.ContactRowField;
import io.contactsolver.core.FrictionWork;
import io.contactsolver.core.PreparedBodyField;
import io.contactsolver.core.TargetRule;
import io.contactsolver.layout.BodyField;
import io.contactsolver.layout.ContactBody;
import io.contactsolver.layout.ContactField;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;

/**
 * Rigid-body maths shared by the solvers; the Java twin of {@code kernels/common.cl}.
 *
 * <p>Convention (docs/physics.md): the normal {@code n} points from body a to body b,
 * {@code r = p - x}, the contact point moves at {@code v + w x r}, and the inverse inertia is
 * rotated into world space as {@code R I_body^-1 R^T}. Every expression is written in the same
 * order as in the OpenCL C, float only, so that the JVM (strict IEEE 754, no fused multiply-add)
 * and an OpenCL device built with {@code FP_CONTRACT OFF} and correctly rounded division produce
 * the same bits.
 */
final class BodyMath {

    private BodyMath() {
    }

    /** Writes body {@code i}'s working record (see {@link PreparedBodyField}) at {@code i * STRIDE}. */
    static void prepareBody(FloatBuffer bodies, int stride, int i, float[] prepared) {
        prepareBody(bodies, stride, i, prepared, i * STRIDE);
    }

    /** Writes body {@code i}'s working record at {@code prepared[o]}: for a record kept apart from the others. */
    static void prepareBody(FloatBuffer bodies, int stride, int i, float[] prepared, int o) {
        float qw = bodies.get(BODY_QW * stride + i);
        float qx = bodies.get(BODY_QX * stride + i);
        float qy = bodies.get(BODY_QY * stride + i);
        float qz = bodies.get(BODY_QZ * stride + i);
        float bxx = bodies.get(BODY_INV_IXX * stride + i);
        float byy = bodies.get(BODY_INV_IYY * stride + i);
        float bzz = bodies.get(BODY_INV_IZZ * stride + i);
        float bxy = bodies.get(BODY_INV_IXY * stride + i);
        float bxz = bodies.get(BODY_INV_IXZ * stride + i);
        float byz = bodies.get(BODY_INV_IYZ * stride + i);

        prepared[o + PREP_X] = bodies.get(BODY_X * stride + i);
        prepared[o + PREP_Y] = bodies.get(BODY_Y * stride + i);
        prepared[o + PREP_Z] = bodies.get(BODY_Z * stride + i);
        prepared[o + PREP_INV_MASS] = bodies.get(BODY_INV_MASS * stride + i);
        prepared[o + PREP_VX] = bodies.get(BODY_VX * stride + i);
        prepared[o + PREP_VY] = bodies.get(BODY_VY * stride + i);
        prepared[o + PREP_VZ] = bodies.get(BODY_VZ * stride + i);
        prepared[o + PREP_WX] = bodies.get(BODY_WX * stride + i);
        prepared[o + PREP_WY] = bodies.get(BODY_WY * stride + i);
        prepared[o + PREP_WZ] = bodies.get(BODY_WZ * stride + i);
        if (bxy == 0.0f && bxz == 0.0f && byz == 0.0f && bxx == byy && byy == bzz) {
            // isotropic (a sphere, a particle, a static body): R (k I) R^T = k I, exactly, in every frame
            prepared[o + PREP_IXX] = bxx;
            prepared[o + PREP_IYY] = bxx;
            prepared[o + PREP_IZZ] = bxx;
            prepared[o + PREP_IXY] = 0.0f;
            prepared[o + PREP_IXZ] = 0.0f;
            prepared[o + PREP_IYZ] = 0.0f;
            return;
        }

        // rotation matrix of the unit quaternion, r<row><column>
        float xx = qx * qx;
        float yy = qy * qy;
        float zz = qz * qz;
        float xy = qx * qy;
        float xz = qx * qz;
        float yz = qy * qz;
        float wx = qw * qx;
        float wy = qw * qy;
        float wz = qw * qz;
        float r00 = 1.0f - 2.0f * (yy + zz);
        float r01 = 2.0f * (xy - wz);
        float r02 = 2.0f * (xz + wy);
        float r10 = 2.0f * (xy + wz);
        float r11 = 1.0f - 2.0f * (xx + zz);
        float r12 = 2.0f * (yz - wx);
        float r20 = 2.0f * (xz - wy);
        float r21 = 2.0f * (yz + wx);
        float r22 = 1.0f - 2.0f * (xx + yy);

        // m = R * B (B symmetric)
        float m00 = r00 * bxx + r01 * bxy + r02 * bxz;
        float m01 = r00 * bxy + r01 * byy + r02 * byz;
        float m02 = r00 * bxz + r01 * byz + r02 * bzz;
        float m10 = r10 * bxx + r11 * bxy + r12 * bxz;
        float m11 = r10 * bxy + r11 * byy + r12 * byz;
        float m12 = r10 * bxz + r11 * byz + r12 * bzz;
        float m20 = r20 * bxx + r21 * bxy + r22 * bxz;
        float m21 = r20 * bxy + r21 * byy + r22 * byz;
        float m22 = r20 * bxz + r21 * byz + r22 * bzz;

        // world = m * R^T; only the upper triangle, so the result is exactly symmetric
        prepared[o + PREP_IXX] = m00 * r00 + m01 * r01 + m02 * r02;
        prepared[o + PREP_IYY] = m10 * r10 + m11 * r11 + m12 * r12;
        prepared[o + PREP_IZZ] = m20 * r20 + m21 * r21 + m22 * r22;
        prepared[o + PREP_IXY] = m00 * r10 + m01 * r11 + m02 * r12;
        prepared[o + PREP_IXZ] = m00 * r20 + m01 * r21 + m02 * r22;
        prepared[o + PREP_IYZ] = m10 * r20 + m11 * r21 + m12 * r22;
    }

    /** The offset of body {@code body}'s prepared record; the world ({@code -1}) has the one after the last body. */
    static int record(int body, int worldRecord) {
        return (body < 0 ? worldRecord : body) * STRIDE;
    }

    /**
     * Copies the prepared records of both bodies of contacts {@code [first, first + count)} side by
     * side into {@code batch} (contact {@code i} of the batch: a at {@code 2 i STRIDE}, b after it).
     * On a scattered contact graph every record is a cache miss; in this short loop the misses of
     * many contacts overlap, where in the long evaluation they would come one contact at a time.
     */
    static void gatherRecords(IntBuffer links, int stride, int first, int count, int worldRecord, float[] prepared,
            float[] batch) {
        for (int i = 0; i < count; i++) {
            int a = links.get(LINK_A * stride + first + i);
            int b = links.get(LINK_B * stride + first + i);
            System.arraycopy(prepared, record(a, worldRecord), batch, 2 * i * STRIDE, STRIDE);
            System.arraycopy(prepared, record(b, worldRecord), batch, (2 * i + 1) * STRIDE, STRIDE);
        }
    }

    /**
     * Evaluates contact {@code c} at the pre-solve velocities into {@code row} (one contact's row,
     * indexed by {@link ContactRowField}): the normal, both sides' {@code r x n} and
     * {@code I^-1 (r x n)} and inverse masses, the effective inverse mass {@code K}, the normal
     * relative velocity {@code v_n = (v_pb - v_pa) . n} and the target it must at least leave with
     * ({@link TargetRule}). Without positional correction an approaching contact targets
     * {@code -e v_n}, and {@code (target - v_n) / K} is the frictionless impulse
     * {@code -(1 + e) v_n / K} of docs/physics.md ("The frictionless impulse").
     *
     * <p>The two sides are written out rather than shared through a helper: a helper would return
     * its results in an object, and the JIT keeps such an object in memory, which cost more than
     * half of the single pass's time (measured with CpuKernelsBenchmark; docs/performance.md, "Where
     * the CPU time goes", has the figures of the present code).
     *
     * @param records prepared body records: the whole array, or a batch gathered by {@link #gatherRecords}
     * @param oa the offset of body a's record in {@code records} (the world's for the world)
     * @param ob the offset of body b's record
     */
    static void evaluateContact(FloatBuffer contacts, int stride, int c, float[] records, int oa, int ob,
            TargetRule rule, float[] row) {
        float[] prepared = records;
        float px = contacts.get(CONTACT_PX * stride + c);
        float py = contacts.get(CONTACT_PY * stride + c);
        float pz = contacts.get(CONTACT_PZ * stride + c);
        float nx = contacts.get(CONTACT_NX * stride + c);
        float ny = contacts.get(CONTACT_NY * stride + c);
        float nz = contacts.get(CONTACT_NZ * stride + c);
        float e = contacts.get(CONTACT_RESTITUTION * stride + c);

        // side a: r, r x n, I^-1 (r x n), and the velocity v + w x r of the contact point
        float rax = px - prepared[oa + PREP_X];
        float ray = py - prepared[oa + PREP_Y];
        float raz = pz - prepared[oa + PREP_Z];
        float rxnAX = ray * nz - raz * ny;
        float rxnAY = raz * nx - rax * nz;
        float rxnAZ = rax * ny - ray * nx;
        float dirAX = prepared[oa + PREP_IXX] * rxnAX + prepared[oa + PREP_IXY] * rxnAY + prepared[oa + PREP_IXZ] * rxnAZ;
        float dirAY = prepared[oa + PREP_IXY] * rxnAX + prepared[oa + PREP_IYY] * rxnAY + prepared[oa + PREP_IYZ] * rxnAZ;
        float dirAZ = prepared[oa + PREP_IXZ] * rxnAX + prepared[oa + PREP_IYZ] * rxnAY + prepared[oa + PREP_IZZ] * rxnAZ;
        float velAX = prepared[oa + PREP_VX] + (prepared[oa + PREP_WY] * raz - prepared[oa + PREP_WZ] * ray);
        float velAY = prepared[oa + PREP_VY] + (prepared[oa + PREP_WZ] * rax - prepared[oa + PREP_WX] * raz);
        float velAZ = prepared[oa + PREP_VZ] + (prepared[oa + PREP_WX] * ray - prepared[oa + PREP_WY] * rax);

        // side b, likewise
        float rbx = px - prepared[ob + PREP_X];
        float rby = py - prepared[ob + PREP_Y];
        float rbz = pz - prepared[ob + PREP_Z];
        float rxnBX = rby * nz - rbz * ny;
        float rxnBY = rbz * nx - rbx * nz;
        float rxnBZ = rbx * ny - rby * nx;
        float dirBX = prepared[ob + PREP_IXX] * rxnBX + prepared[ob + PREP_IXY] * rxnBY + prepared[ob + PREP_IXZ] * rxnBZ;
        float dirBY = prepared[ob + PREP_IXY] * rxnBX + prepared[ob + PREP_IYY] * rxnBY + prepared[ob + PREP_IYZ] * rxnBZ;
        float dirBZ = prepared[ob + PREP_IXZ] * rxnBX + prepared[ob + PREP_IYZ] * rxnBY + prepared[ob + PREP_IZZ] * rxnBZ;
        float velBX = prepared[ob + PREP_VX] + (prepared[ob + PREP_WY] * rbz - prepared[ob + PREP_WZ] * rby);
        float velBY = prepared[ob + PREP_VY] + (prepared[ob + PREP_WZ] * rbx - prepared[ob + PREP_WX] * rbz);
        float velBZ = prepared[ob + PREP_VZ] + (prepared[ob + PREP_WX] * rby - prepared[ob + PREP_WY] * rbx);

        float vn = (velBX - velAX) * nx + (velBY - velAY) * ny + (velBZ - velAZ) * nz;
        float inverseMassA = prepared[oa + PREP_INV_MASS];
        float inverseMassB = prepared[ob + PREP_INV_MASS];
        float k = inverseMassA + inverseMassB + (rxnAX * dirAX + rxnAY * dirAY + rxnAZ * dirAZ)
                + (rxnBX * dirBX + rxnBY * dirBY + rxnBZ * dirBZ);
        float target = vn < -rule.restitutionThreshold() ? -(e * vn) : 0.0f;
        if (rule.inverseTimeStep() > 0.0f) {
            float separation = contacts.get(CONTACT_SEPARATION * stride + c);
            if (separation > 0.0f) {
                target = -(separation * rule.inverseTimeStep());
            } else {
                float depth = -separation - rule.slop();
                if (depth > 0.0f) {
                    float push = rule.biasFactor() * depth * rule.inverseTimeStep();
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

    // ---- single pass with friction (docs/physics.md, "Single pass with friction") -----------------

    /** The friction maths' scratch ({@link FrictionWork}): where each of its groups starts. */
    static final int WORK = FrictionWork.COUNT;

    /**
     * Writes contact {@code c}'s lever arms {@code r_a}, {@code r_b} and the relative velocity
     * {@code v = v_pb - v_pa} of its contact points into {@code work}, computed as
     * {@link #evaluateContact} computes them.
     */
    static void contactMotion(FloatBuffer contacts, int stride, int c, float[] records, int oa, int ob,
            float[] work) {
        float[] prepared = records;
        float px = contacts.get(CONTACT_PX * stride + c);
        float py = contacts.get(CONTACT_PY * stride + c);
        float pz = contacts.get(CONTACT_PZ * stride + c);
        float rax = px - prepared[oa + PREP_X];
        float ray = py - prepared[oa + PREP_Y];
        float raz = pz - prepared[oa + PREP_Z];
        float velAX = prepared[oa + PREP_VX] + (prepared[oa + PREP_WY] * raz - prepared[oa + PREP_WZ] * ray);
        float velAY = prepared[oa + PREP_VY] + (prepared[oa + PREP_WZ] * rax - prepared[oa + PREP_WX] * raz);
        float velAZ = prepared[oa + PREP_VZ] + (prepared[oa + PREP_WX] * ray - prepared[oa + PREP_WY] * rax);
        float rbx = px - prepared[ob + PREP_X];
        float rby = py - prepared[ob + PREP_Y];
        float rbz = pz - prepared[ob + PREP_Z];
        float velBX = prepared[ob + PREP_VX] + (prepared[ob + PREP_WY] * rbz - prepared[ob + PREP_WZ] * rby);
        float velBY = prepared[ob + PREP_VY] + (prepared[ob + PREP_WZ] * rbx - prepared[ob + PREP_WX] * rbz);
        float velBZ = prepared[ob + PREP_VZ] + (prepared[ob + PREP_WX] * rby - prepared[ob + PREP_WY] * rbx);
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

    /**
     * Writes one side's share of the 3x3 matrix {@code K}, {@code -[r]x I^-1 [r]x} (symmetric,
     * positive semi-definite), as xx, yy, zz, xy, xz, yz at {@code work[at]}. Column {@code k} of
     * {@code [r]x} is {@code u_k = r x e_k}, and entry {@code (i, k)} is {@code u_i . I^-1 u_k}.
     */
    static void angularBlock(float[] records, int o, float rx, float ry, float rz, float[] work, int at) {
        float ixx = records[o + PREP_IXX];
        float iyy = records[o + PREP_IYY];
        float izz = records[o + PREP_IZZ];
        float ixy = records[o + PREP_IXY];
        float ixz = records[o + PREP_IXZ];
        float iyz = records[o + PREP_IYZ];
        // I^-1 u_0, u_0 = (0, rz, -ry)
        float a0x = ixy * rz - ixz * ry;
        float a0y = iyy * rz - iyz * ry;
        float a0z = iyz * rz - izz * ry;
        // I^-1 u_1, u_1 = (-rz, 0, rx)
        float a1x = ixz * rx - ixx * rz;
        float a1y = iyz * rx - ixy * rz;
        float a1z = izz * rx - ixz * rz;
        // I^-1 u_2, u_2 = (ry, -rx, 0)
        float a2x = ixx * ry - ixy * rx;
        float a2y = ixy * ry - iyy * rx;
        float a2z = ixz * ry - iyz * rx;
        work[at] = rz * a0y - ry * a0z;
        work[at + 1] = rx * a1z - rz * a1x;
        work[at + 2] = ry * a2x - rx * a2y;
        work[at + 3] = rz * a1y - ry * a1z;
        work[at + 4] = rz * a2y - ry * a2z;
        work[at + 5] = rx * a2z - rz * a2x;
    }

    /** {@code G(P) = P . v + P . K P / 2}: the change of kinetic energy an impulse {@code P} on b (and -P on a) makes. */
    static float energyChange(float px, float py, float pz, float vx, float vy, float vz, float kxx, float kyy,
            float kzz, float kxy, float kxz, float kyz) {
        float kpx = kxx * px + kxy * py + kxz * pz;
        float kpy = kxy * px + kyy * py + kyz * pz;
        float kpz = kxz * px + kyz * py + kzz * pz;
        return (px * vx + py * vy + pz * vz) + 0.5f * (px * kpx + py * kpy + pz * kpz);
    }

    /**
     * The single-pass impulse of an approaching contact with friction {@code mu > 0}, whose
     * frictionless row {@code row} ({@link #evaluateContact}) has {@code K > 0} and {@code v_n} below
     * its target: the sticking impulse if it lies in the cone, else the sliding impulse along the
     * pre-impact tangential direction, unless that would add more energy than the frictionless
     * impulse (the dissipation guard). With the restitution target {@code -e v_n} the sticking
     * impulse {@code K^-1 (target n - v)} is the {@code -K^-1 (v + e v_n n)} of docs/physics.md,
     * "Single pass with friction".
     *
     * @param j0 the frictionless impulse {@code (target - v_n) / K}, which the guard compares with
     * @param work {@link #WORK} floats: receives the impulse on b and both lever arms
     * @return false where the frictionless impulse applies instead (no tangential motion, a
     *     degenerate sliding direction, or the guard)
     */
    static boolean frictionalImpulse(FloatBuffer contacts, int stride, int c, float[] records, int oa, int ob,
            float mu, float j0, float[] row, float[] work) {
        float nx = row[ROW_NX];
        float ny = row[ROW_NY];
        float nz = row[ROW_NZ];
        contactMotion(contacts, stride, c, records, oa, ob, work);
        float rax = work[WORK_RAX];
        float ray = work[WORK_RAX + 1];
        float raz = work[WORK_RAX + 2];
        float rbx = work[WORK_RBX];
        float rby = work[WORK_RBX + 1];
        float rbz = work[WORK_RBX + 2];
        float vx = work[WORK_VX];
        float vy = work[WORK_VX + 1];
        float vz = work[WORK_VX + 2];
        float vn = row[ROW_VN0];
        float target = row[ROW_TARGET];

        // K = (1/m_a + 1/m_b) 1 - [r_a]x I_a^-1 [r_a]x - [r_b]x I_b^-1 [r_b]x
        angularBlock(records, oa, rax, ray, raz, work, WORK_A_XX);
        angularBlock(records, ob, rbx, rby, rbz, work, WORK_B_XX);
        float linear = row[ROW_INV_MASS_A] + row[ROW_INV_MASS_B];
        float kxx = (linear + work[WORK_A_XX]) + work[WORK_B_XX];
        float kyy = (linear + work[WORK_A_XX + 1]) + work[WORK_B_XX + 1];
        float kzz = (linear + work[WORK_A_XX + 2]) + work[WORK_B_XX + 2];
        float kxy = work[WORK_A_XX + 3] + work[WORK_B_XX + 3];
        float kxz = work[WORK_A_XX + 4] + work[WORK_B_XX + 4];
        float kyz = work[WORK_A_XX + 5] + work[WORK_B_XX + 5];

        // sticking: K P = target n - v, by the adjugate of the symmetric K
        float cxx = kyy * kzz - kyz * kyz;
        float cxy = kxz * kyz - kxy * kzz;
        float cxz = kxy * kyz - kxz * kyy;
        float cyy = kxx * kzz - kxz * kxz;
        float cyz = kxy * kxz - kxx * kyz;
        float czz = kxx * kyy - kxy * kxy;
        float det = kxx * cxx + kxy * cxy + kxz * cxz;
        float bx = target * nx - vx;
        float by = target * ny - vy;
        float bz = target * nz - vz;
        float impulseX = 0.0f;
        float impulseY = 0.0f;
        float impulseZ = 0.0f;
        boolean sticks = false;
        if (det > 0.0f) {
            float sx = (cxx * bx + cxy * by + cxz * bz) / det;
            float sy = (cxy * bx + cyy * by + cyz * bz) / det;
            float sz = (cxz * bx + cyz * by + czz * bz) / det;
            float sn = sx * nx + sy * ny + sz * nz;
            float tx = sx - sn * nx;
            float ty = sy - sn * ny;
            float tz = sz - sn * nz;
            float limit = mu * sn;
            if (sn >= 0.0f && tx * tx + ty * ty + tz * tz <= limit * limit) {
                impulseX = sx;
                impulseY = sy;
                impulseZ = sz;
                sticks = true;
            }
        }
        if (!sticks) {
            // sliding along the pre-impact tangential direction t: P = j (n - mu t)
            float vtx = vx - vn * nx;
            float vty = vy - vn * ny;
            float vtz = vz - vn * nz;
            float speed = (float) Math.sqrt(vtx * vtx + vty * vty + vtz * vtz);
            if (!(speed > 0.0f)) {
                return false;
            }
            float dx = nx - mu * (vtx / speed);
            float dy = ny - mu * (vty / speed);
            float dz = nz - mu * (vtz / speed);
            float kdx = kxx * dx + kxy * dy + kxz * dz;
            float kdy = kxy * dx + kyy * dy + kyz * dz;
            float kdz = kxz * dx + kyz * dy + kzz * dz;
            float nkd = nx * kdx + ny * kdy + nz * kdz;
            if (!(nkd > 0.0f)) {
                return false;
            }
            float j = (target - vn) / nkd;
            impulseX = j * dx;
            impulseY = j * dy;
            impulseZ = j * dz;
        }

        // the dissipation guard; a comparison that fails on NaN also falls back
        float gain = energyChange(impulseX, impulseY, impulseZ, vx, vy, vz, kxx, kyy, kzz, kxy, kxz, kyz);
        float gain0 = energyChange(j0 * nx, j0 * ny, j0 * nz, vx, vy, vz, kxx, kyy, kzz, kxy, kxz, kyz);
        if (!(gain <= gain0)) {
            return false;
        }
        work[WORK_PX] = impulseX;
        work[WORK_PY] = impulseY;
        work[WORK_PZ] = impulseZ;
        return true;
    }

    // ---- iterative solver with friction (docs/physics.md, "Iterative solver with friction") ------

    /** Writes {@code u x v} at {@code out[at..at+2]}. */
    private static void cross(float ux, float uy, float uz, float vx, float vy, float vz, float[] out, int at) {
        out[at] = uy * vz - uz * vy;
        out[at + 1] = uz * vx - ux * vz;
        out[at + 2] = ux * vy - uy * vx;
    }

    /** Writes {@code I^-1 u}, with the world-space inverse inertia of the record at {@code o}, at {@code out[at..at+2]}. */
    private static void inertiaTimes(float[] records, int o, float ux, float uy, float uz, float[] out, int at) {
        out[at] = records[o + PREP_IXX] * ux + records[o + PREP_IXY] * uy + records[o + PREP_IXZ] * uz;
        out[at + 1] = records[o + PREP_IXY] * ux + records[o + PREP_IYY] * uy + records[o + PREP_IYZ] * uz;
        out[at + 2] = records[o + PREP_IXZ] * ux + records[o + PREP_IYZ] * uy + records[o + PREP_IZZ] * uz;
    }

    /** The dot product of the three-field groups of {@code row} starting at {@code u} and {@code v}. */
    private static float dotRow(float[] row, int u, int v) {
        return row[u] * row[v] + row[u + 1] * row[v + 1] + row[u + 2] * row[v + 2];
    }

    /** The larger eigenvalue of the symmetric 2x2 matrix {@code [[p, q], [q, s]]}. */
    static float largerEigenvalue(float p, float s, float q) {
        float mean = 0.5f * (p + s);
        float spread = 0.5f * (p - s);
        return mean + (float) Math.sqrt(spread * spread + q * q);
    }

    /**
     * One side's friction terms: {@code r x t_i} and {@code I^-1 (r x t_i)} for both tangents, each
     * written as three consecutive row fields from the given first field.
     */
    private static void frictionSide(float[] records, int o, float rx, float ry, float rz, float t1x, float t1y,
            float t1z, float t2x, float t2y, float t2z, float[] row, int rxt1, int dirt1, int rxt2, int dirt2) {
        cross(rx, ry, rz, t1x, t1y, t1z, row, rxt1);
        cross(rx, ry, rz, t2x, t2y, t2z, row, rxt2);
        inertiaTimes(records, o, row[rxt1], row[rxt1 + 1], row[rxt1 + 2], row, dirt1);
        inertiaTimes(records, o, row[rxt2], row[rxt2 + 1], row[rxt2 + 2], row, dirt2);
    }

    /** One side's rolling terms: {@code I^-1 t_i} for both tangents, from the given first fields. */
    private static void rollingSide(float[] records, int o, float t1x, float t1y, float t1z, float t2x, float t2y,
            float t2z, float[] row, int roll1, int roll2) {
        inertiaTimes(records, o, t1x, t1y, t1z, row, roll1);
        inertiaTimes(records, o, t2x, t2y, t2z, row, roll2);
    }

    /**
     * Adds the friction and rolling fields of a row to {@code row}, which {@link #evaluateContact}
     * has filled for contact {@code c}: the fixed tangents of the normal, each side's lever terms
     * along them, both step sizes and the relative velocities along the tangents. A pair whose block
     * is zero (no body can take that impulse) gets a zero coefficient, so the solve never divides by 0.
     */
    static void evaluateFriction(FloatBuffer contacts, int stride, int c, float[] records, int oa, int ob,
            float[] row, float[] work) {
        float[] prepared = records;
        float nx = row[ROW_NX];
        float ny = row[ROW_NY];
        float nz = row[ROW_NZ];

        // a branchless orthonormal basis (t1, t2) of the plane normal to n
        float flip = Math.copySign(1.0f, nz);
        float a = -1.0f / (flip + nz);
        float b = nx * ny * a;
        float t1x = 1.0f + flip * nx * nx * a;
        float t1y = flip * b;
        float t1z = -flip * nx;
        float t2x = b;
        float t2y = flip + ny * ny * a;
        float t2z = -ny;
        row[ROW_T1X] = t1x;
        row[ROW_T1Y] = t1y;
        row[ROW_T1Z] = t1z;
        row[ROW_T2X] = t2x;
        row[ROW_T2Y] = t2y;
        row[ROW_T2Z] = t2z;

        // the contact points' motion, as in evaluateContact
        contactMotion(contacts, stride, c, records, oa, ob, work);
        float rax = work[WORK_RAX];
        float ray = work[WORK_RAX + 1];
        float raz = work[WORK_RAX + 2];
        float rbx = work[WORK_RBX];
        float rby = work[WORK_RBX + 1];
        float rbz = work[WORK_RBX + 2];
        float vx = work[WORK_VX];
        float vy = work[WORK_VX + 1];
        float vz = work[WORK_VX + 2];
        float wx = prepared[ob + PREP_WX] - prepared[oa + PREP_WX];
        float wy = prepared[ob + PREP_WY] - prepared[oa + PREP_WY];
        float wz = prepared[ob + PREP_WZ] - prepared[oa + PREP_WZ];

        frictionSide(prepared, oa, rax, ray, raz, t1x, t1y, t1z, t2x, t2y, t2z, row,
                ROW_RXT1_AX, ROW_DIRT1_AX,
                ROW_RXT2_AX, ROW_DIRT2_AX);
        frictionSide(prepared, ob, rbx, rby, rbz, t1x, t1y, t1z, t2x, t2y, t2z, row,
                ROW_RXT1_BX, ROW_DIRT1_BX,
                ROW_RXT2_BX, ROW_DIRT2_BX);

        // [t_i . K t_j] = (1/m_a + 1/m_b) delta_ij + (r_a x t_i) . I_a^-1 (r_a x t_j) + (same for b)
        float linear = row[ROW_INV_MASS_A] + row[ROW_INV_MASS_B];
        float k11 = (linear + dotRow(row, ROW_RXT1_AX, ROW_DIRT1_AX))
                + dotRow(row, ROW_RXT1_BX, ROW_DIRT1_BX);
        float k22 = (linear + dotRow(row, ROW_RXT2_AX, ROW_DIRT2_AX))
                + dotRow(row, ROW_RXT2_BX, ROW_DIRT2_BX);
        float k12 = dotRow(row, ROW_RXT1_AX, ROW_DIRT2_AX)
                + dotRow(row, ROW_RXT1_BX, ROW_DIRT2_BX);
        float kt = largerEigenvalue(k11, k22, k12);
        row[ROW_KT] = kt;
        row[ROW_VT1_0] = vx * t1x + vy * t1y + vz * t1z;
        row[ROW_VT2_0] = vx * t2x + vy * t2y + vz * t2z;

        if (!(kt > 0.0f)) {
            row[ROW_MU] = 0.0f;
        }
        if (!(row[ROW_RHO] > 0.0f)) {
            // no rolling resistance: its terms are never read, so they are zeroed rather than computed
            for (int field = ROW_ROLL1_AX; field <= ROW_WT2_0; field++) {
                row[field] = 0.0f;
            }
            return;
        }
        rollingSide(prepared, oa, t1x, t1y, t1z, t2x, t2y, t2z, row, ROW_ROLL1_AX, ROW_ROLL2_AX);
        rollingSide(prepared, ob, t1x, t1y, t1z, t2x, t2y, t2z, row, ROW_ROLL1_BX, ROW_ROLL2_BX);

        // [t_i . (I_a^-1 + I_b^-1) t_j]
        float r11 = dotRow(row, ROW_T1X, ROW_ROLL1_AX)
                + dotRow(row, ROW_T1X, ROW_ROLL1_BX);
        float r22 = dotRow(row, ROW_T2X, ROW_ROLL2_AX)
                + dotRow(row, ROW_T2X, ROW_ROLL2_BX);
        float r12 = dotRow(row, ROW_T1X, ROW_ROLL2_AX)
                + dotRow(row, ROW_T1X, ROW_ROLL2_BX);
        float kr = largerEigenvalue(r11, r22, r12);
        row[ROW_KR] = kr;
        row[ROW_WT1_0] = wx * t1x + wy * t1y + wz * t1z;
        row[ROW_WT2_0] = wx * t2x + wy * t2y + wz * t2z;
        if (!(kr > 0.0f)) {
            row[ROW_RHO] = 0.0f;
        }
    }

    /**
     * Adds the twist fields of a row to {@code row}, which {@link #evaluateContact} has filled for a
     * contact of bodies at {@code oa}, {@code ob} and whose {@code TAU} is set: each side's
     * {@code I^-1 n}, the step size {@code k_tw = n . (I_a^-1 + I_b^-1) n} and the relative angular
     * velocity along n. A twist no body can take ({@code k_tw} zero) switches the row's torsion off,
     * so the solve never divides by 0.
     */
    static void evaluateTwist(float[] records, int oa, int ob, float[] row) {
        float[] prepared = records;
        if (!(row[ROW_TAU] > 0.0f)) {
            // no torsional resistance: its terms are never read, so they are zeroed rather than computed
            for (int field = ROW_TWIST_AX; field <= ROW_WN_0; field++) {
                row[field] = 0.0f;
            }
            return;
        }
        float nx = row[ROW_NX];
        float ny = row[ROW_NY];
        float nz = row[ROW_NZ];
        inertiaTimes(prepared, oa, nx, ny, nz, row, ROW_TWIST_AX);
        inertiaTimes(prepared, ob, nx, ny, nz, row, ROW_TWIST_BX);
        float ktw = dotRow(row, ROW_NX, ROW_TWIST_AX) + dotRow(row, ROW_NX, ROW_TWIST_BX);
        row[ROW_KTW] = ktw;
        float wx = prepared[ob + PREP_WX] - prepared[oa + PREP_WX];
        float wy = prepared[ob + PREP_WY] - prepared[oa + PREP_WY];
        float wz = prepared[ob + PREP_WZ] - prepared[oa + PREP_WZ];
        row[ROW_WN_0] = wx * nx + wy * ny + wz * nz;
        if (!(ktw > 0.0f)) {
            row[ROW_TAU] = 0.0f;
        }
    }
}
