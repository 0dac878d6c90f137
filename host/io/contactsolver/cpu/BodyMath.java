package io.contactsolver.cpu;

import static io.contactsolver.core.PreparedBodyField.INV_MASS;
import static io.contactsolver.core.PreparedBodyField.IXX;
import static io.contactsolver.core.PreparedBodyField.IXY;
import static io.contactsolver.core.PreparedBodyField.IXZ;
import static io.contactsolver.core.PreparedBodyField.IYY;
import static io.contactsolver.core.PreparedBodyField.IYZ;
import static io.contactsolver.core.PreparedBodyField.IZZ;
import static io.contactsolver.core.PreparedBodyField.STRIDE;
import static io.contactsolver.core.PreparedBodyField.VX;
import static io.contactsolver.core.PreparedBodyField.VY;
import static io.contactsolver.core.PreparedBodyField.VZ;
import static io.contactsolver.core.PreparedBodyField.WX;
import static io.contactsolver.core.PreparedBodyField.WY;
import static io.contactsolver.core.PreparedBodyField.WZ;
import static io.contactsolver.core.PreparedBodyField.X;
import static io.contactsolver.core.PreparedBodyField.Y;
import static io.contactsolver.core.PreparedBodyField.Z;

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
    private static final int F_X = X.ordinal();
    private static final int F_Y = Y.ordinal();
    private static final int F_Z = Z.ordinal();
    private static final int F_INV_MASS = INV_MASS.ordinal();
    private static final int F_VX = VX.ordinal();
    private static final int F_VY = VY.ordinal();
    private static final int F_VZ = VZ.ordinal();
    private static final int F_WX = WX.ordinal();
    private static final int F_WY = WY.ordinal();
    private static final int F_WZ = WZ.ordinal();
    private static final int F_IXX = IXX.ordinal();
    private static final int F_IYY = IYY.ordinal();
    private static final int F_IZZ = IZZ.ordinal();
    private static final int F_IXY = IXY.ordinal();
    private static final int F_IXZ = IXZ.ordinal();
    private static final int F_IYZ = IYZ.ordinal();
    private static final int PX = ContactField.PX.ordinal();
    private static final int PY = ContactField.PY.ordinal();
    private static final int PZ = ContactField.PZ.ordinal();
    private static final int NX = ContactField.NX.ordinal();
    private static final int NY = ContactField.NY.ordinal();
    private static final int NZ = ContactField.NZ.ordinal();
    private static final int RESTITUTION = ContactField.RESTITUTION.ordinal();
    private static final int SEPARATION = ContactField.SEPARATION.ordinal();
    static final int FRICTION = ContactField.FRICTION.ordinal();
    static final int ROLLING_RESISTANCE = ContactField.ROLLING_RESISTANCE.ordinal();
    private static final int LINK_A = ContactBody.A.ordinal();
    private static final int LINK_B = ContactBody.B.ordinal();
    static final int R_NX = ContactRowField.NX.ordinal();
    static final int R_NY = ContactRowField.NY.ordinal();
    static final int R_NZ = ContactRowField.NZ.ordinal();
    static final int R_RXN_AX = ContactRowField.RXN_AX.ordinal();
    static final int R_RXN_AY = ContactRowField.RXN_AY.ordinal();
    static final int R_RXN_AZ = ContactRowField.RXN_AZ.ordinal();
    static final int R_RXN_BX = ContactRowField.RXN_BX.ordinal();
    static final int R_RXN_BY = ContactRowField.RXN_BY.ordinal();
    static final int R_RXN_BZ = ContactRowField.RXN_BZ.ordinal();
    static final int R_DIR_AX = ContactRowField.DIR_AX.ordinal();
    static final int R_DIR_AY = ContactRowField.DIR_AY.ordinal();
    static final int R_DIR_AZ = ContactRowField.DIR_AZ.ordinal();
    static final int R_DIR_BX = ContactRowField.DIR_BX.ordinal();
    static final int R_DIR_BY = ContactRowField.DIR_BY.ordinal();
    static final int R_DIR_BZ = ContactRowField.DIR_BZ.ordinal();
    static final int R_INV_MASS_A = ContactRowField.INV_MASS_A.ordinal();
    static final int R_INV_MASS_B = ContactRowField.INV_MASS_B.ordinal();
    static final int R_K = ContactRowField.K.ordinal();
    static final int R_VN0 = ContactRowField.VN0.ordinal();
    static final int R_TARGET = ContactRowField.TARGET.ordinal();
    static final int R_MU = ContactRowField.MU.ordinal();
    static final int R_RHO = ContactRowField.RHO.ordinal();
    static final int R_T1X = ContactRowField.T1X.ordinal();
    static final int R_T1Y = ContactRowField.T1Y.ordinal();
    static final int R_T1Z = ContactRowField.T1Z.ordinal();
    static final int R_T2X = ContactRowField.T2X.ordinal();
    static final int R_T2Y = ContactRowField.T2Y.ordinal();
    static final int R_T2Z = ContactRowField.T2Z.ordinal();
    static final int R_KT = ContactRowField.KT.ordinal();
    static final int R_VT1_0 = ContactRowField.VT1_0.ordinal();
    static final int R_VT2_0 = ContactRowField.VT2_0.ordinal();
    static final int R_KR = ContactRowField.KR.ordinal();
    static final int R_WT1_0 = ContactRowField.WT1_0.ordinal();
    static final int R_WT2_0 = ContactRowField.WT2_0.ordinal();

    private BodyMath() {
    }

    /** Writes body {@code i}'s working record (see {@link PreparedBodyField}) at {@code i * STRIDE}. */
    static void prepareBody(FloatBuffer bodies, int stride, int i, float[] prepared) {
        prepareBody(bodies, stride, i, prepared, i * STRIDE);
    }

    /** Writes body {@code i}'s working record at {@code prepared[o]}: for a record kept apart from the others. */
    static void prepareBody(FloatBuffer bodies, int stride, int i, float[] prepared, int o) {
        float qw = bodies.get(BodyField.QW.ordinal() * stride + i);
        float qx = bodies.get(BodyField.QX.ordinal() * stride + i);
        float qy = bodies.get(BodyField.QY.ordinal() * stride + i);
        float qz = bodies.get(BodyField.QZ.ordinal() * stride + i);
        float bxx = bodies.get(BodyField.INV_IXX.ordinal() * stride + i);
        float byy = bodies.get(BodyField.INV_IYY.ordinal() * stride + i);
        float bzz = bodies.get(BodyField.INV_IZZ.ordinal() * stride + i);
        float bxy = bodies.get(BodyField.INV_IXY.ordinal() * stride + i);
        float bxz = bodies.get(BodyField.INV_IXZ.ordinal() * stride + i);
        float byz = bodies.get(BodyField.INV_IYZ.ordinal() * stride + i);

        prepared[o + F_X] = bodies.get(BodyField.X.ordinal() * stride + i);
        prepared[o + F_Y] = bodies.get(BodyField.Y.ordinal() * stride + i);
        prepared[o + F_Z] = bodies.get(BodyField.Z.ordinal() * stride + i);
        prepared[o + F_INV_MASS] = bodies.get(BodyField.INV_MASS.ordinal() * stride + i);
        prepared[o + F_VX] = bodies.get(BodyField.VX.ordinal() * stride + i);
        prepared[o + F_VY] = bodies.get(BodyField.VY.ordinal() * stride + i);
        prepared[o + F_VZ] = bodies.get(BodyField.VZ.ordinal() * stride + i);
        prepared[o + F_WX] = bodies.get(BodyField.WX.ordinal() * stride + i);
        prepared[o + F_WY] = bodies.get(BodyField.WY.ordinal() * stride + i);
        prepared[o + F_WZ] = bodies.get(BodyField.WZ.ordinal() * stride + i);
        if (bxy == 0.0f && bxz == 0.0f && byz == 0.0f && bxx == byy && byy == bzz) {
            // isotropic (a sphere, a particle, a static body): R (k I) R^T = k I, exactly, in every frame
            prepared[o + F_IXX] = bxx;
            prepared[o + F_IYY] = bxx;
            prepared[o + F_IZZ] = bxx;
            prepared[o + F_IXY] = 0.0f;
            prepared[o + F_IXZ] = 0.0f;
            prepared[o + F_IYZ] = 0.0f;
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
        prepared[o + F_IXX] = m00 * r00 + m01 * r01 + m02 * r02;
        prepared[o + F_IYY] = m10 * r10 + m11 * r11 + m12 * r12;
        prepared[o + F_IZZ] = m20 * r20 + m21 * r21 + m22 * r22;
        prepared[o + F_IXY] = m00 * r10 + m01 * r11 + m02 * r12;
        prepared[o + F_IXZ] = m00 * r20 + m01 * r21 + m02 * r22;
        prepared[o + F_IYZ] = m10 * r20 + m11 * r21 + m12 * r22;
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
     * half of the single pass's time (measured with CpuKernelsBenchmark; README.md, "Where the CPU
     * time goes", has the figures of the present code).
     *
     * @param records prepared body records: the whole array, or a batch gathered by {@link #gatherRecords}
     * @param oa the offset of body a's record in {@code records} (the world's for the world)
     * @param ob the offset of body b's record
     */
    static void evaluateContact(FloatBuffer contacts, int stride, int c, float[] records, int oa, int ob,
            TargetRule rule, float[] row) {
        float[] prepared = records;
        float px = contacts.get(PX * stride + c);
        float py = contacts.get(PY * stride + c);
        float pz = contacts.get(PZ * stride + c);
        float nx = contacts.get(NX * stride + c);
        float ny = contacts.get(NY * stride + c);
        float nz = contacts.get(NZ * stride + c);
        float e = contacts.get(RESTITUTION * stride + c);

        // side a: r, r x n, I^-1 (r x n), and the velocity v + w x r of the contact point
        float rax = px - prepared[oa + F_X];
        float ray = py - prepared[oa + F_Y];
        float raz = pz - prepared[oa + F_Z];
        float rxnAX = ray * nz - raz * ny;
        float rxnAY = raz * nx - rax * nz;
        float rxnAZ = rax * ny - ray * nx;
        float dirAX = prepared[oa + F_IXX] * rxnAX + prepared[oa + F_IXY] * rxnAY + prepared[oa + F_IXZ] * rxnAZ;
        float dirAY = prepared[oa + F_IXY] * rxnAX + prepared[oa + F_IYY] * rxnAY + prepared[oa + F_IYZ] * rxnAZ;
        float dirAZ = prepared[oa + F_IXZ] * rxnAX + prepared[oa + F_IYZ] * rxnAY + prepared[oa + F_IZZ] * rxnAZ;
        float velAX = prepared[oa + F_VX] + (prepared[oa + F_WY] * raz - prepared[oa + F_WZ] * ray);
        float velAY = prepared[oa + F_VY] + (prepared[oa + F_WZ] * rax - prepared[oa + F_WX] * raz);
        float velAZ = prepared[oa + F_VZ] + (prepared[oa + F_WX] * ray - prepared[oa + F_WY] * rax);

        // side b, likewise
        float rbx = px - prepared[ob + F_X];
        float rby = py - prepared[ob + F_Y];
        float rbz = pz - prepared[ob + F_Z];
        float rxnBX = rby * nz - rbz * ny;
        float rxnBY = rbz * nx - rbx * nz;
        float rxnBZ = rbx * ny - rby * nx;
        float dirBX = prepared[ob + F_IXX] * rxnBX + prepared[ob + F_IXY] * rxnBY + prepared[ob + F_IXZ] * rxnBZ;
        float dirBY = prepared[ob + F_IXY] * rxnBX + prepared[ob + F_IYY] * rxnBY + prepared[ob + F_IYZ] * rxnBZ;
        float dirBZ = prepared[ob + F_IXZ] * rxnBX + prepared[ob + F_IYZ] * rxnBY + prepared[ob + F_IZZ] * rxnBZ;
        float velBX = prepared[ob + F_VX] + (prepared[ob + F_WY] * rbz - prepared[ob + F_WZ] * rby);
        float velBY = prepared[ob + F_VY] + (prepared[ob + F_WZ] * rbx - prepared[ob + F_WX] * rbz);
        float velBZ = prepared[ob + F_VZ] + (prepared[ob + F_WX] * rby - prepared[ob + F_WY] * rbx);

        float vn = (velBX - velAX) * nx + (velBY - velAY) * ny + (velBZ - velAZ) * nz;
        float inverseMassA = prepared[oa + F_INV_MASS];
        float inverseMassB = prepared[ob + F_INV_MASS];
        float k = inverseMassA + inverseMassB + (rxnAX * dirAX + rxnAY * dirAY + rxnAZ * dirAZ)
                + (rxnBX * dirBX + rxnBY * dirBY + rxnBZ * dirBZ);
        float target = vn < -rule.restitutionThreshold() ? -(e * vn) : 0.0f;
        if (rule.inverseTimeStep() > 0.0f) {
            float separation = contacts.get(SEPARATION * stride + c);
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
        row[R_NX] = nx;
        row[R_NY] = ny;
        row[R_NZ] = nz;
        row[R_RXN_AX] = rxnAX;
        row[R_RXN_AY] = rxnAY;
        row[R_RXN_AZ] = rxnAZ;
        row[R_RXN_BX] = rxnBX;
        row[R_RXN_BY] = rxnBY;
        row[R_RXN_BZ] = rxnBZ;
        row[R_DIR_AX] = dirAX;
        row[R_DIR_AY] = dirAY;
        row[R_DIR_AZ] = dirAZ;
        row[R_DIR_BX] = dirBX;
        row[R_DIR_BY] = dirBY;
        row[R_DIR_BZ] = dirBZ;
        row[R_INV_MASS_A] = inverseMassA;
        row[R_INV_MASS_B] = inverseMassB;
        row[R_K] = k;
        row[R_VN0] = vn;
        row[R_TARGET] = target;
    }

    // ---- single pass with friction (docs/physics.md, "Single pass with friction") -----------------

    /** The friction maths' scratch ({@link FrictionWork}): where each of its groups starts. */
    static final int W_PX = FrictionWork.PX.ordinal();
    static final int W_PY = FrictionWork.PY.ordinal();
    static final int W_PZ = FrictionWork.PZ.ordinal();
    static final int W_RA = FrictionWork.RAX.ordinal();
    static final int W_RB = FrictionWork.RBX.ordinal();
    static final int W_V = FrictionWork.VX.ordinal();
    static final int W_BLOCK_A = FrictionWork.A_XX.ordinal();
    static final int W_BLOCK_B = FrictionWork.B_XX.ordinal();
    static final int WORK = FrictionWork.COUNT;

    /**
     * Writes contact {@code c}'s lever arms {@code r_a}, {@code r_b} and the relative velocity
     * {@code v = v_pb - v_pa} of its contact points into {@code work}, computed as
     * {@link #evaluateContact} computes them.
     */
    static void contactMotion(FloatBuffer contacts, int stride, int c, float[] records, int oa, int ob,
            float[] work) {
        float[] prepared = records;
        float px = contacts.get(PX * stride + c);
        float py = contacts.get(PY * stride + c);
        float pz = contacts.get(PZ * stride + c);
        float rax = px - prepared[oa + F_X];
        float ray = py - prepared[oa + F_Y];
        float raz = pz - prepared[oa + F_Z];
        float velAX = prepared[oa + F_VX] + (prepared[oa + F_WY] * raz - prepared[oa + F_WZ] * ray);
        float velAY = prepared[oa + F_VY] + (prepared[oa + F_WZ] * rax - prepared[oa + F_WX] * raz);
        float velAZ = prepared[oa + F_VZ] + (prepared[oa + F_WX] * ray - prepared[oa + F_WY] * rax);
        float rbx = px - prepared[ob + F_X];
        float rby = py - prepared[ob + F_Y];
        float rbz = pz - prepared[ob + F_Z];
        float velBX = prepared[ob + F_VX] + (prepared[ob + F_WY] * rbz - prepared[ob + F_WZ] * rby);
        float velBY = prepared[ob + F_VY] + (prepared[ob + F_WZ] * rbx - prepared[ob + F_WX] * rbz);
        float velBZ = prepared[ob + F_VZ] + (prepared[ob + F_WX] * rby - prepared[ob + F_WY] * rbx);
        work[W_RA] = rax;
        work[W_RA + 1] = ray;
        work[W_RA + 2] = raz;
        work[W_RB] = rbx;
        work[W_RB + 1] = rby;
        work[W_RB + 2] = rbz;
        work[W_V] = velBX - velAX;
        work[W_V + 1] = velBY - velAY;
        work[W_V + 2] = velBZ - velAZ;
    }

    /**
     * Writes one side's share of the 3x3 matrix {@code K}, {@code -[r]x I^-1 [r]x} (symmetric,
     * positive semi-definite), as xx, yy, zz, xy, xz, yz at {@code work[at]}. Column {@code k} of
     * {@code [r]x} is {@code u_k = r x e_k}, and entry {@code (i, k)} is {@code u_i . I^-1 u_k}.
     */
    static void angularBlock(float[] records, int o, float rx, float ry, float rz, float[] work, int at) {
        float ixx = records[o + F_IXX];
        float iyy = records[o + F_IYY];
        float izz = records[o + F_IZZ];
        float ixy = records[o + F_IXY];
        float ixz = records[o + F_IXZ];
        float iyz = records[o + F_IYZ];
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
        float nx = row[R_NX];
        float ny = row[R_NY];
        float nz = row[R_NZ];
        contactMotion(contacts, stride, c, records, oa, ob, work);
        float rax = work[W_RA];
        float ray = work[W_RA + 1];
        float raz = work[W_RA + 2];
        float rbx = work[W_RB];
        float rby = work[W_RB + 1];
        float rbz = work[W_RB + 2];
        float vx = work[W_V];
        float vy = work[W_V + 1];
        float vz = work[W_V + 2];
        float vn = row[R_VN0];
        float target = row[R_TARGET];

        // K = (1/m_a + 1/m_b) 1 - [r_a]x I_a^-1 [r_a]x - [r_b]x I_b^-1 [r_b]x
        angularBlock(records, oa, rax, ray, raz, work, W_BLOCK_A);
        angularBlock(records, ob, rbx, rby, rbz, work, W_BLOCK_B);
        float linear = row[R_INV_MASS_A] + row[R_INV_MASS_B];
        float kxx = (linear + work[W_BLOCK_A]) + work[W_BLOCK_B];
        float kyy = (linear + work[W_BLOCK_A + 1]) + work[W_BLOCK_B + 1];
        float kzz = (linear + work[W_BLOCK_A + 2]) + work[W_BLOCK_B + 2];
        float kxy = work[W_BLOCK_A + 3] + work[W_BLOCK_B + 3];
        float kxz = work[W_BLOCK_A + 4] + work[W_BLOCK_B + 4];
        float kyz = work[W_BLOCK_A + 5] + work[W_BLOCK_B + 5];

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
        work[W_PX] = impulseX;
        work[W_PY] = impulseY;
        work[W_PZ] = impulseZ;
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
        out[at] = records[o + F_IXX] * ux + records[o + F_IXY] * uy + records[o + F_IXZ] * uz;
        out[at + 1] = records[o + F_IXY] * ux + records[o + F_IYY] * uy + records[o + F_IYZ] * uz;
        out[at + 2] = records[o + F_IXZ] * ux + records[o + F_IYZ] * uy + records[o + F_IZZ] * uz;
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
     * One side's friction terms: {@code r x t_i} and {@code I^-1 (r x t_i)} for both tangents, and
     * {@code I^-1 t_i}, each written as three consecutive row fields from the given first field.
     */
    private static void frictionSide(float[] records, int o, float rx, float ry, float rz, float t1x, float t1y,
            float t1z, float t2x, float t2y, float t2z, float[] row, int rxt1, int dirt1, int rxt2, int dirt2,
            int roll1, int roll2) {
        cross(rx, ry, rz, t1x, t1y, t1z, row, rxt1);
        cross(rx, ry, rz, t2x, t2y, t2z, row, rxt2);
        inertiaTimes(records, o, row[rxt1], row[rxt1 + 1], row[rxt1 + 2], row, dirt1);
        inertiaTimes(records, o, row[rxt2], row[rxt2 + 1], row[rxt2 + 2], row, dirt2);
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
        float nx = row[R_NX];
        float ny = row[R_NY];
        float nz = row[R_NZ];

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
        row[R_T1X] = t1x;
        row[R_T1Y] = t1y;
        row[R_T1Z] = t1z;
        row[R_T2X] = t2x;
        row[R_T2Y] = t2y;
        row[R_T2Z] = t2z;

        // the contact points' motion, as in evaluateContact
        contactMotion(contacts, stride, c, records, oa, ob, work);
        float rax = work[W_RA];
        float ray = work[W_RA + 1];
        float raz = work[W_RA + 2];
        float rbx = work[W_RB];
        float rby = work[W_RB + 1];
        float rbz = work[W_RB + 2];
        float vx = work[W_V];
        float vy = work[W_V + 1];
        float vz = work[W_V + 2];
        float wx = prepared[ob + F_WX] - prepared[oa + F_WX];
        float wy = prepared[ob + F_WY] - prepared[oa + F_WY];
        float wz = prepared[ob + F_WZ] - prepared[oa + F_WZ];

        frictionSide(prepared, oa, rax, ray, raz, t1x, t1y, t1z, t2x, t2y, t2z, row,
                ContactRowField.RXT1_AX.ordinal(), ContactRowField.DIRT1_AX.ordinal(),
                ContactRowField.RXT2_AX.ordinal(), ContactRowField.DIRT2_AX.ordinal(),
                ContactRowField.ROLL1_AX.ordinal(), ContactRowField.ROLL2_AX.ordinal());
        frictionSide(prepared, ob, rbx, rby, rbz, t1x, t1y, t1z, t2x, t2y, t2z, row,
                ContactRowField.RXT1_BX.ordinal(), ContactRowField.DIRT1_BX.ordinal(),
                ContactRowField.RXT2_BX.ordinal(), ContactRowField.DIRT2_BX.ordinal(),
                ContactRowField.ROLL1_BX.ordinal(), ContactRowField.ROLL2_BX.ordinal());

        // [t_i . K t_j] = (1/m_a + 1/m_b) delta_ij + (r_a x t_i) . I_a^-1 (r_a x t_j) + (same for b)
        float linear = row[R_INV_MASS_A] + row[R_INV_MASS_B];
        float k11 = (linear + dotRow(row, ContactRowField.RXT1_AX.ordinal(), ContactRowField.DIRT1_AX.ordinal()))
                + dotRow(row, ContactRowField.RXT1_BX.ordinal(), ContactRowField.DIRT1_BX.ordinal());
        float k22 = (linear + dotRow(row, ContactRowField.RXT2_AX.ordinal(), ContactRowField.DIRT2_AX.ordinal()))
                + dotRow(row, ContactRowField.RXT2_BX.ordinal(), ContactRowField.DIRT2_BX.ordinal());
        float k12 = dotRow(row, ContactRowField.RXT1_AX.ordinal(), ContactRowField.DIRT2_AX.ordinal())
                + dotRow(row, ContactRowField.RXT1_BX.ordinal(), ContactRowField.DIRT2_BX.ordinal());
        float kt = largerEigenvalue(k11, k22, k12);
        row[R_KT] = kt;
        row[R_VT1_0] = vx * t1x + vy * t1y + vz * t1z;
        row[R_VT2_0] = vx * t2x + vy * t2y + vz * t2z;

        // [t_i . (I_a^-1 + I_b^-1) t_j]
        float r11 = dotRow(row, ContactRowField.T1X.ordinal(), ContactRowField.ROLL1_AX.ordinal())
                + dotRow(row, ContactRowField.T1X.ordinal(), ContactRowField.ROLL1_BX.ordinal());
        float r22 = dotRow(row, ContactRowField.T2X.ordinal(), ContactRowField.ROLL2_AX.ordinal())
                + dotRow(row, ContactRowField.T2X.ordinal(), ContactRowField.ROLL2_BX.ordinal());
        float r12 = dotRow(row, ContactRowField.T1X.ordinal(), ContactRowField.ROLL2_AX.ordinal())
                + dotRow(row, ContactRowField.T1X.ordinal(), ContactRowField.ROLL2_BX.ordinal());
        float kr = largerEigenvalue(r11, r22, r12);
        row[R_KR] = kr;
        row[R_WT1_0] = wx * t1x + wy * t1y + wz * t1z;
        row[R_WT2_0] = wx * t2x + wy * t2y + wz * t2z;
        if (!(kt > 0.0f)) {
            row[R_MU] = 0.0f;
        }
        if (!(kr > 0.0f)) {
            row[R_RHO] = 0.0f;
        }
    }
}
