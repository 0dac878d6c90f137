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

    private BodyMath() {
    }

    /** What one side of a contact contributes, seen from that side's body. */
    static final class ContactSide {
        /** {@code r x n}. */
        float rxnX, rxnY, rxnZ;
        /** {@code I^-1 (r x n)}: change of angular velocity per unit impulse along {@code +n}. */
        float dirX, dirY, dirZ;
        /** {@code v + w x r}: velocity of the contact point on this body. */
        float velX, velY, velZ;
        float inverseMass;
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
        if (bxx == 0.0f && byy == 0.0f && bzz == 0.0f && bxy == 0.0f && bxz == 0.0f && byz == 0.0f) {
            // a particle or a static body: nothing to rotate (exact zeros, where rotating gives +-0)
            prepared[o + F_IXX] = 0.0f;
            prepared[o + F_IYY] = 0.0f;
            prepared[o + F_IZZ] = 0.0f;
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

    /** Describes the side of a contact at point p with normal n that belongs to {@code record}. */
    static void describeSide(float[] prepared, int record, float px, float py, float pz,
            float nx, float ny, float nz, ContactSide side) {
        int o = record * STRIDE;
        float rx = px - prepared[o + F_X];
        float ry = py - prepared[o + F_Y];
        float rz = pz - prepared[o + F_Z];
        float rxnX = ry * nz - rz * ny;
        float rxnY = rz * nx - rx * nz;
        float rxnZ = rx * ny - ry * nx;
        float ixx = prepared[o + F_IXX];
        float iyy = prepared[o + F_IYY];
        float izz = prepared[o + F_IZZ];
        float ixy = prepared[o + F_IXY];
        float ixz = prepared[o + F_IXZ];
        float iyz = prepared[o + F_IYZ];
        float wx = prepared[o + F_WX];
        float wy = prepared[o + F_WY];
        float wz = prepared[o + F_WZ];
        side.rxnX = rxnX;
        side.rxnY = rxnY;
        side.rxnZ = rxnZ;
        side.dirX = ixx * rxnX + ixy * rxnY + ixz * rxnZ;
        side.dirY = ixy * rxnX + iyy * rxnY + iyz * rxnZ;
        side.dirZ = ixz * rxnX + iyz * rxnY + izz * rxnZ;
        side.velX = prepared[o + F_VX] + (wy * rz - wz * ry);
        side.velY = prepared[o + F_VY] + (wz * rx - wx * rz);
        side.velZ = prepared[o + F_VZ] + (wx * ry - wy * rx);
        side.inverseMass = prepared[o + F_INV_MASS];
    }

    /** {@code (r x n) . I^-1 (r x n)}: this side's angular share of the effective inverse mass. */
    static float angularInverseMass(ContactSide side) {
        return side.rxnX * side.dirX + side.rxnY * side.dirY + side.rxnZ * side.dirZ;
    }

    /** One contact seen from both bodies at the pre-solve velocities. */
    static final class ContactEvaluation {
        final ContactSide sideA = new ContactSide();
        final ContactSide sideB = new ContactSide();
        int a;
        int b;
        float nx, ny, nz;
        /** Normal relative velocity {@code (v_pb - v_pa) . n}; negative when approaching. */
        float vn;
        /** Effective inverse mass along {@code n}; zero when neither body can move. */
        float k;
        /** The normal velocity the contact must at least leave with ({@link TargetRule}). */
        float target;
        /** The single pass's impulse, once computed. */
        float impulse;
    }

    /**
     * Evaluates contact {@code c} and its target normal velocity by the {@link TargetRule}. Without
     * positional correction an approaching contact targets {@code -e v_n} and
     * {@code (target - v_n) / K} is the seed's {@code -(1 + e) v_n / K}.
     */
    static void evaluateContact(FloatBuffer contacts, IntBuffer links, int stride, int c, int worldRecord,
            float[] prepared, TargetRule rule, ContactEvaluation out) {
        int a = links.get(LINK_A * stride + c);
        int b = links.get(LINK_B * stride + c);
        float px = contacts.get(PX * stride + c);
        float py = contacts.get(PY * stride + c);
        float pz = contacts.get(PZ * stride + c);
        float nx = contacts.get(NX * stride + c);
        float ny = contacts.get(NY * stride + c);
        float nz = contacts.get(NZ * stride + c);
        float e = contacts.get(RESTITUTION * stride + c);
        ContactSide sideA = out.sideA;
        ContactSide sideB = out.sideB;
        describeSide(prepared, a < 0 ? worldRecord : a, px, py, pz, nx, ny, nz, sideA);
        describeSide(prepared, b < 0 ? worldRecord : b, px, py, pz, nx, ny, nz, sideB);
        float relX = sideB.velX - sideA.velX;
        float relY = sideB.velY - sideA.velY;
        float relZ = sideB.velZ - sideA.velZ;
        float vn = relX * nx + relY * ny + relZ * nz;
        out.a = a;
        out.b = b;
        out.nx = nx;
        out.ny = ny;
        out.nz = nz;
        out.vn = vn;
        out.k = sideA.inverseMass + sideB.inverseMass + angularInverseMass(sideA) + angularInverseMass(sideB);
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
        out.target = target;
    }
}
