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

import io.contactsolver.BodyField;
import io.contactsolver.ContactBody;
import io.contactsolver.ContactField;
import io.contactsolver.core.ContactRowField;
import io.contactsolver.core.PreparedBodyField;
import io.contactsolver.core.TargetRule;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;

/**
 * Rigid-body maths shared by the solvers; the Java twin of {@code kernels/common.cl}.
 *
 * <p>Convention (PHYSICS.md): the normal {@code n} points from body a to body b,
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

    private BodyMath() {
    }

    /** Writes body {@code i}'s working record (see {@link PreparedBodyField}) at {@code i * STRIDE}. */
    static void prepareBody(FloatBuffer bodies, int stride, int i, float[] prepared) {
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

        int o = i * STRIDE;
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
     * {@code -e v_n}, and {@code (target - v_n) / K} is the seed's {@code -(1 + e) v_n / K}.
     *
     * <p>The two sides are written out rather than shared through a helper: a helper would return
     * its results in an object, and the JIT keeps such an object in memory, which cost more than
     * half of the single pass's time (CpuKernelsBenchmark: 46 ns a contact against 22).
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
}
