package io.contactsolver.cpu;

import static io.contactsolver.core.FieldOffsets.*;

import io.contactsolver.core.GeometryField;
import io.contactsolver.core.ManifoldField;
import io.contactsolver.core.ManifoldImpulse;
import io.contactsolver.core.MotionField;
import io.contactsolver.core.PointField;
import io.contactsolver.core.SoftCoefficients;
import io.contactsolver.core.StateField;
import io.contactsolver.core.TargetRule;
import io.contactsolver.core.WarmStartField;
import io.contactsolver.layout.ContactBody;
import java.nio.FloatBuffer;

/**
 * The soft step's arithmetic, one manifold or one body at a time; the Java twin of
 * {@code kernels/soft_step.cl} (docs/physics.md, "Soft step").
 *
 * <p>A manifold row is a {@link ManifoldField} record ({@code man[o + MAN_*]}, {@code o = r * MAN})
 * and its points are {@link PointField} records ({@code pts[q + POINT_*]}, {@code q = p * POINT}) for
 * points {@code [first, end)}; each point's accumulated normal impulse is {@code normal[p]}, its
 * largest of the step {@code peak[p]} and its separation in the current substep
 * {@code separation[p]} (found by the first sweep after the bodies move), the manifold's other
 * impulses are a {@link ManifoldImpulse} record at {@code acc[l]}. The bodies' state is, as in the
 * iterative solver, each body's velocity change since the start of the step ({@link StateField},
 * gravity included; {@code a}, {@code b} are state offsets, {@code world} the shared all-zero record
 * of the world and every body contacts cannot move, never written), and their motion within the
 * step is a {@link MotionField} record ({@code ma}, {@code mb}: motion offsets). A manifold's
 * velocities are read into locals once, updated point by point and stage by stage, and written back
 * once: manifolds of a colour share no body.
 */
final class SoftStep {
    private static final int MAN = ManifoldField.COUNT;
    private static final int POINT = PointField.COUNT;
    private static final int MACC = ManifoldImpulse.COUNT;
    private static final int PAIR = ContactBody.COUNT;
    private static final int WARM = WarmStartField.COUNT;

    private SoftStep() {
    }

    /**
     * Writes {@code out[at ..]}: the inverse inertia of the prepared record at {@code o} times
     * {@code (x, y, z)}.
     */
    private static void inertiaTimes(float[] prepared, int o, float x, float y, float z, float[] out, int at) {
        out[at] = prepared[o + PREP_IXX] * x + prepared[o + PREP_IXY] * y + prepared[o + PREP_IXZ] * z;
        out[at + 1] = prepared[o + PREP_IXY] * x + prepared[o + PREP_IYY] * y + prepared[o + PREP_IYZ] * z;
        out[at + 2] = prepared[o + PREP_IXZ] * x + prepared[o + PREP_IYZ] * y + prepared[o + PREP_IZZ] * z;
    }

    /** {@code man[u ..] . man[v ..]}: the dot product of two vectors of one record. */
    private static float dot(float[] man, int u, int v) {
        return (man[u] * man[v] + man[u + 1] * man[v + 1]) + man[u + 2] * man[v + 2];
    }

    /**
     * Writes the inverse of the symmetric 2x2 matrix {@code [[p, q], [q, s]]} at {@code out[at]}
     * ({@code 11}), {@code out[at + 1]} ({@code 12}) and {@code out[at + 2]} ({@code 22}), or zeros
     * when it is singular or not positive definite: that pair is then switched off.
     */
    private static void inverse2(float p, float s, float q, float[] out, int at) {
        float det = p * s - q * q;
        if (det > 0.0f && p > 0.0f) {
            float inv = 1.0f / det;
            out[at] = s * inv;
            out[at + 1] = -(q * inv);
            out[at + 2] = p * inv;
        } else {
            out[at] = 0.0f;
            out[at + 1] = 0.0f;
            out[at + 2] = 0.0f;
        }
    }

    /** Whether row {@code r}'s rolling pair is as {@code rolling} says: its masses are prepared only where it rolls. */
    static boolean rollingStands(int r, boolean rolling, float[] man) {
        return (man[r * MAN + MAN_RHO] > 0.0f) == rolling;
    }

    /**
     * Whether row {@code r} and its points hold what {@link #prepareGeometry} would write for
     * manifold points {@code [g0, g0 + count)}: its normal, each point's anchors and whether it
     * rolls are the bits the row was prepared from. The caller vouches for the rest of that
     * geometry's inputs: the row's layout and bodies, and their inverse masses and inertia, as they
     * were when it was prepared.
     */
    static boolean geometryStands(float[] geometry, int pointCount, int g0, int count, int r, int first,
            boolean rolling, float[] man, float[] pts) {
        int o = r * MAN;
        if (Float.floatToRawIntBits(man[o + MAN_NX]) != Float.floatToRawIntBits(geometry[GEOM_NX * pointCount + g0])
                || Float.floatToRawIntBits(man[o + MAN_NY]) != Float.floatToRawIntBits(geometry[GEOM_NY * pointCount + g0])
                || Float.floatToRawIntBits(man[o + MAN_NZ]) != Float.floatToRawIntBits(geometry[GEOM_NZ * pointCount + g0])
                || !rollingStands(r, rolling, man)) {
            return false;
        }
        for (int i = 0; i < count; i++) {
            int g = g0 + i;
            int q = (first + i) * POINT;
            if (Float.floatToRawIntBits(pts[q + POINT_RAX]) != Float.floatToRawIntBits(geometry[GEOM_RAX * pointCount + g])
                    || Float.floatToRawIntBits(pts[q + POINT_RAY]) != Float.floatToRawIntBits(geometry[GEOM_RAY * pointCount + g])
                    || Float.floatToRawIntBits(pts[q + POINT_RAZ]) != Float.floatToRawIntBits(geometry[GEOM_RAZ * pointCount + g])
                    || Float.floatToRawIntBits(pts[q + POINT_RBX]) != Float.floatToRawIntBits(geometry[GEOM_RBX * pointCount + g])
                    || Float.floatToRawIntBits(pts[q + POINT_RBY]) != Float.floatToRawIntBits(geometry[GEOM_RBY * pointCount + g])
                    || Float.floatToRawIntBits(pts[q + POINT_RBZ]) != Float.floatToRawIntBits(geometry[GEOM_RBZ * pointCount + g])) {
                return false;
            }
        }
        return true;
    }

    /**
     * Manifold row {@code r} (record at {@code man[r * MAN]}) and its points {@code [first, first +
     * count)}, first part: what depends only on the manifold's geometry, its solved points
     * {@code [g0, g0 + count)} ({@link GeometryField}s, structure of arrays with stride
     * {@code pointCount}), and on the bodies' inverse masses and inertia (their prepared records at
     * {@code oa}, {@code ob}): the tangent basis, each point's levers, normal mass and couplings, the
     * friction centre's, the twist's and, where it {@code rolls}, the rolling pair's masses. The CPU
     * keeps a row's from the last step where {@link #geometryStands}; the device writes every row's
     * every step, the same bits.
     */
    static void prepareGeometry(float[] geometry, int pointCount, int g0, int count, int r, int first,
            float[] prepared, int oa, int ob, boolean rolls, float[] man, float[] pts) {
        int o = r * MAN;
        float nx = geometry[GEOM_NX * pointCount + g0];
        float ny = geometry[GEOM_NY * pointCount + g0];
        float nz = geometry[GEOM_NZ * pointCount + g0];
        // a branchless orthonormal basis (t1, t2) of the plane normal to n
        float flip = Math.copySign(1.0f, nz);
        float basis = -1.0f / (flip + nz);
        float skew = nx * ny * basis;
        float t1x = 1.0f + flip * nx * nx * basis;
        float t1y = flip * skew;
        float t1z = -flip * nx;
        float t2x = skew;
        float t2y = flip + ny * ny * basis;
        float t2z = -ny;
        man[o + MAN_NX] = nx;
        man[o + MAN_NY] = ny;
        man[o + MAN_NZ] = nz;
        man[o + MAN_T1X] = t1x;
        man[o + MAN_T1Y] = t1y;
        man[o + MAN_T1Z] = t1z;
        man[o + MAN_T2X] = t2x;
        man[o + MAN_T2Y] = t2y;
        man[o + MAN_T2Z] = t2z;
        float ima = prepared[oa + PREP_INV_MASS];
        float imb = prepared[ob + PREP_INV_MASS];
        man[o + MAN_INV_MASS_A] = ima;
        man[o + MAN_INV_MASS_B] = imb;

        // the points, and the friction centre as the mean of their anchors; each point's coupling
        // to the points before it (J_j M^-1 J_i^T: the change of this point's normal velocity per
        // unit impulse at an earlier one, which the sweep adds as it goes) into theirs
        float linear = ima + imb;
        float cax = 0.0f;
        float cay = 0.0f;
        float caz = 0.0f;
        float cbx = 0.0f;
        float cby = 0.0f;
        float cbz = 0.0f;
        for (int i = 0; i < count; i++) {
            int g = g0 + i;
            int q = (first + i) * POINT;
            float rax = geometry[GEOM_RAX * pointCount + g];
            float ray = geometry[GEOM_RAY * pointCount + g];
            float raz = geometry[GEOM_RAZ * pointCount + g];
            float rbx = geometry[GEOM_RBX * pointCount + g];
            float rby = geometry[GEOM_RBY * pointCount + g];
            float rbz = geometry[GEOM_RBZ * pointCount + g];
            pts[q + POINT_RAX] = rax;
            pts[q + POINT_RAY] = ray;
            pts[q + POINT_RAZ] = raz;
            pts[q + POINT_RBX] = rbx;
            pts[q + POINT_RBY] = rby;
            pts[q + POINT_RBZ] = rbz;
            float rxnAX = ray * nz - raz * ny;
            float rxnAY = raz * nx - rax * nz;
            float rxnAZ = rax * ny - ray * nx;
            float rxnBX = rby * nz - rbz * ny;
            float rxnBY = rbz * nx - rbx * nz;
            float rxnBZ = rbx * ny - rby * nx;
            pts[q + POINT_RXN_AX] = rxnAX;
            pts[q + POINT_RXN_AY] = rxnAY;
            pts[q + POINT_RXN_AZ] = rxnAZ;
            pts[q + POINT_RXN_BX] = rxnBX;
            pts[q + POINT_RXN_BY] = rxnBY;
            pts[q + POINT_RXN_BZ] = rxnBZ;
            inertiaTimes(prepared, oa, rxnAX, rxnAY, rxnAZ, pts, q + POINT_DIR_AX);
            inertiaTimes(prepared, ob, rxnBX, rxnBY, rxnBZ, pts, q + POINT_DIR_BX);
            float kn = (ima + imb + dot(pts, q + POINT_RXN_AX, q + POINT_DIR_AX)) + dot(pts, q + POINT_RXN_BX,
                    q + POINT_DIR_BX);
            pts[q + POINT_NORMAL_MASS] = kn > 0.0f ? 1.0f / kn : 0.0f;
            pts[q + POINT_COUPLING_1] = 0.0f;
            pts[q + POINT_COUPLING_2] = 0.0f;
            pts[q + POINT_COUPLING_3] = 0.0f;
            for (int earlier = 0; earlier < i; earlier++) {
                int u = (first + earlier) * POINT;
                pts[u + POINT_COUPLING_1 + (i - earlier) - 1] = (linear + ((rxnAX * pts[u + POINT_DIR_AX]
                        + rxnAY * pts[u + POINT_DIR_AY]) + rxnAZ * pts[u + POINT_DIR_AZ]))
                        + ((rxnBX * pts[u + POINT_DIR_BX] + rxnBY * pts[u + POINT_DIR_BY])
                        + rxnBZ * pts[u + POINT_DIR_BZ]);
            }
            cax += rax;
            cay += ray;
            caz += raz;
            cbx += rbx;
            cby += rby;
            cbz += rbz;
        }
        float share = 1.0f / count;
        cax = cax * share;
        cay = cay * share;
        caz = caz * share;
        cbx = cbx * share;
        cby = cby * share;
        cbz = cbz * share;
        for (int i = 0; i < count; i++) {
            int q = (first + i) * POINT;
            float lx = pts[q + POINT_RAX] - cax;
            float ly = pts[q + POINT_RAY] - cay;
            float lz = pts[q + POINT_RAZ] - caz;
            pts[q + POINT_LEVER] = (float) Math.sqrt((lx * lx + ly * ly) + lz * lz);
        }

        // friction at the centre: c x t_i and I^-1 (c x t_i) on each side, and the 2x2 tangent mass
        man[o + MAN_CXT1_AX] = cay * t1z - caz * t1y;
        man[o + MAN_CXT1_AY] = caz * t1x - cax * t1z;
        man[o + MAN_CXT1_AZ] = cax * t1y - cay * t1x;
        man[o + MAN_CXT2_AX] = cay * t2z - caz * t2y;
        man[o + MAN_CXT2_AY] = caz * t2x - cax * t2z;
        man[o + MAN_CXT2_AZ] = cax * t2y - cay * t2x;
        man[o + MAN_CXT1_BX] = cby * t1z - cbz * t1y;
        man[o + MAN_CXT1_BY] = cbz * t1x - cbx * t1z;
        man[o + MAN_CXT1_BZ] = cbx * t1y - cby * t1x;
        man[o + MAN_CXT2_BX] = cby * t2z - cbz * t2y;
        man[o + MAN_CXT2_BY] = cbz * t2x - cbx * t2z;
        man[o + MAN_CXT2_BZ] = cbx * t2y - cby * t2x;
        inertiaTimes(prepared, oa, man[o + MAN_CXT1_AX], man[o + MAN_CXT1_AY], man[o + MAN_CXT1_AZ], man,
                o + MAN_DIRT1_AX);
        inertiaTimes(prepared, oa, man[o + MAN_CXT2_AX], man[o + MAN_CXT2_AY], man[o + MAN_CXT2_AZ], man,
                o + MAN_DIRT2_AX);
        inertiaTimes(prepared, ob, man[o + MAN_CXT1_BX], man[o + MAN_CXT1_BY], man[o + MAN_CXT1_BZ], man,
                o + MAN_DIRT1_BX);
        inertiaTimes(prepared, ob, man[o + MAN_CXT2_BX], man[o + MAN_CXT2_BY], man[o + MAN_CXT2_BZ], man,
                o + MAN_DIRT2_BX);
        float k11 = (linear + dot(man, o + MAN_CXT1_AX, o + MAN_DIRT1_AX)) + dot(man, o + MAN_CXT1_BX, o + MAN_DIRT1_BX);
        float k22 = (linear + dot(man, o + MAN_CXT2_AX, o + MAN_DIRT2_AX)) + dot(man, o + MAN_CXT2_BX, o + MAN_DIRT2_BX);
        float k12 = dot(man, o + MAN_CXT1_AX, o + MAN_DIRT2_AX) + dot(man, o + MAN_CXT1_BX, o + MAN_DIRT2_BX);
        inverse2(k11, k22, k12, man, o + MAN_TM11);

        // twist about n and rolling about the tangents: I^-1 n, I^-1 t_i and their masses
        inertiaTimes(prepared, oa, nx, ny, nz, man, o + MAN_TWIST_AX);
        inertiaTimes(prepared, ob, nx, ny, nz, man, o + MAN_TWIST_BX);
        float kt = (nx * (man[o + MAN_TWIST_AX] + man[o + MAN_TWIST_BX]) + ny * (man[o + MAN_TWIST_AY]
                + man[o + MAN_TWIST_BY])) + nz * (man[o + MAN_TWIST_AZ] + man[o + MAN_TWIST_BZ]);
        man[o + MAN_TWIST_MASS] = kt > 0.0f ? 1.0f / kt : 0.0f;
        // the twist's coupling to the friction pair: the change of v_t1, v_t2 per unit twist impulse,
        // kept as the change it makes to the pair's impulses before their disk
        float twistT1 = dot(man, o + MAN_TWIST_BX, o + MAN_CXT1_BX) + dot(man, o + MAN_TWIST_AX, o + MAN_CXT1_AX);
        float twistT2 = dot(man, o + MAN_TWIST_BX, o + MAN_CXT2_BX) + dot(man, o + MAN_TWIST_AX, o + MAN_CXT2_AX);
        man[o + MAN_TWIST_F1] = man[o + MAN_TM11] * twistT1 + man[o + MAN_TM12] * twistT2;
        man[o + MAN_TWIST_F2] = man[o + MAN_TM12] * twistT1 + man[o + MAN_TM22] * twistT2;
        // without rolling resistance the rolling pair stays at zero: zeros rather than its masses,
        // which only the warm start reads then, times a zero impulse
        if (rolls) {
            inertiaTimes(prepared, oa, t1x, t1y, t1z, man, o + MAN_ROLL1_AX);
            inertiaTimes(prepared, oa, t2x, t2y, t2z, man, o + MAN_ROLL2_AX);
            inertiaTimes(prepared, ob, t1x, t1y, t1z, man, o + MAN_ROLL1_BX);
            inertiaTimes(prepared, ob, t2x, t2y, t2z, man, o + MAN_ROLL2_BX);
            float r11 = dot(man, o + MAN_T1X, o + MAN_ROLL1_AX) + dot(man, o + MAN_T1X, o + MAN_ROLL1_BX);
            float r22 = dot(man, o + MAN_T2X, o + MAN_ROLL2_AX) + dot(man, o + MAN_T2X, o + MAN_ROLL2_BX);
            float r12 = dot(man, o + MAN_T1X, o + MAN_ROLL2_AX) + dot(man, o + MAN_T1X, o + MAN_ROLL2_BX);
            inverse2(r11, r22, r12, man, o + MAN_RM11);
        } else {
            for (int f = MAN_ROLL1_AX; f <= MAN_ROLL2_BZ; f++) {
                man[o + f] = 0.0f;
            }
            inverse2(0.0f, 0.0f, 0.0f, man, o + MAN_RM11);
        }
    }

    /**
     * Manifold row {@code r} for manifold {@code m}, second part, once its geometry is in place
     * ({@link #prepareGeometry}): what changes from step to step. Each point's separation, starting
     * normal velocity, restitution target and warm normal impulse; the manifold's starting
     * velocities, its first contact {@code c0}'s coefficients, and its warm start (impulses at
     * {@code acc[r * MACC]}): its friction, twist and rolling from its warm vectors
     * ({@code ManifoldVectorField}, structure of arrays with stride {@code manifoldCount}) projected
     * onto its tangents, each taken back into its limit. {@code isStatic} picks the stiffer
     * coefficients for a manifold one of whose sides cannot move.
     */
    static void prepareStep(float[] geometry, int pointCount, int g0, int count, float[] warmNormal,
            float[] warmVectors, int manifoldCount, int m, FloatBuffer contacts, int contactStride, int c0, int r,
            int first, float[] prepared, int oa, int ob, boolean isStatic, SoftCoefficients k, TargetRule rule,
            float[] man, float[] pts, float[] normal, float[] peak, float[] acc) {
        int o = r * MAN;
        float nx = man[o + MAN_NX];
        float ny = man[o + MAN_NY];
        float nz = man[o + MAN_NZ];
        float t1x = man[o + MAN_T1X];
        float t1y = man[o + MAN_T1Y];
        float t1z = man[o + MAN_T1Z];
        float t2x = man[o + MAN_T2X];
        float t2y = man[o + MAN_T2Y];
        float t2z = man[o + MAN_T2Z];
        float e = contacts.get(CONTACT_RESTITUTION * contactStride + c0);
        float total = 0.0f;
        float twistArm = 0.0f;
        for (int i = 0; i < count; i++) {
            int g = g0 + i;
            int p = first + i;
            int q = p * POINT;
            pts[q + POINT_S0] = geometry[GEOM_S * pointCount + g];
            // v_n0 = n . ((v_b + w_b x r_b) - (v_a + w_a x r_a)), the angular parts as w . (r x n)
            float vn = (((prepared[ob + PREP_VX] - prepared[oa + PREP_VX]) * nx
                    + (prepared[ob + PREP_VY] - prepared[oa + PREP_VY]) * ny)
                    + (prepared[ob + PREP_VZ] - prepared[oa + PREP_VZ]) * nz)
                    + ((prepared[ob + PREP_WX] * pts[q + POINT_RXN_BX] + prepared[ob + PREP_WY] * pts[q + POINT_RXN_BY])
                    + prepared[ob + PREP_WZ] * pts[q + POINT_RXN_BZ])
                    - ((prepared[oa + PREP_WX] * pts[q + POINT_RXN_AX] + prepared[oa + PREP_WY] * pts[q + POINT_RXN_AY])
                    + prepared[oa + PREP_WZ] * pts[q + POINT_RXN_AZ]);
            pts[q + POINT_VN0] = vn;
            pts[q + POINT_TARGET] = vn < -rule.restitutionThreshold() ? -(e * vn) : 0.0f;
            float warm = warmNormal[g];
            normal[p] = warm;
            peak[p] = 0.0f;
            total += warm;
            twistArm += pts[q + POINT_LEVER] * warm;
        }
        float mu = contacts.get(CONTACT_FRICTION * contactStride + c0);
        float rho = contacts.get(CONTACT_ROLLING_RESISTANCE * contactStride + c0);
        float tau = contacts.get(CONTACT_TORSION * contactStride + c0);
        man[o + MAN_MU] = mu;
        man[o + MAN_RHO] = rho;
        man[o + MAN_TORSION] = tau;

        // the relative velocities at the start of the step: at the centre along t_i, angular along n, t1, t2
        float vx = prepared[ob + PREP_VX] - prepared[oa + PREP_VX];
        float vy = prepared[ob + PREP_VY] - prepared[oa + PREP_VY];
        float vz = prepared[ob + PREP_VZ] - prepared[oa + PREP_VZ];
        float wax = prepared[oa + PREP_WX];
        float way = prepared[oa + PREP_WY];
        float waz = prepared[oa + PREP_WZ];
        float wbx = prepared[ob + PREP_WX];
        float wby = prepared[ob + PREP_WY];
        float wbz = prepared[ob + PREP_WZ];
        man[o + MAN_VT1] = ((vx * t1x + vy * t1y) + vz * t1z)
                + ((wbx * man[o + MAN_CXT1_BX] + wby * man[o + MAN_CXT1_BY]) + wbz * man[o + MAN_CXT1_BZ])
                - ((wax * man[o + MAN_CXT1_AX] + way * man[o + MAN_CXT1_AY]) + waz * man[o + MAN_CXT1_AZ]);
        man[o + MAN_VT2] = ((vx * t2x + vy * t2y) + vz * t2z)
                + ((wbx * man[o + MAN_CXT2_BX] + wby * man[o + MAN_CXT2_BY]) + wbz * man[o + MAN_CXT2_BZ])
                - ((wax * man[o + MAN_CXT2_AX] + way * man[o + MAN_CXT2_AY]) + waz * man[o + MAN_CXT2_AZ]);
        float wx = wbx - wax;
        float wy = wby - way;
        float wz = wbz - waz;
        man[o + MAN_VTWIST] = (wx * nx + wy * ny) + wz * nz;
        man[o + MAN_VR1] = (wx * t1x + wy * t1y) + wz * t1z;
        man[o + MAN_VR2] = (wx * t2x + wy * t2y) + wz * t2z;
        man[o + MAN_BIAS_RATE] = isStatic ? k.staticBiasRate() : k.biasRate();
        man[o + MAN_MASS_SCALE] = isStatic ? k.staticMassScale() : k.massScale();
        man[o + MAN_IMPULSE_SCALE] = isStatic ? k.staticImpulseScale() : k.impulseScale();

        // the warm start: the manifold's vectors projected onto its tangents, kept in their limits
        int l = r * MACC;
        float fx = warmVectors[MVEC_FX * manifoldCount + m];
        float fy = warmVectors[MVEC_FY * manifoldCount + m];
        float fz = warmVectors[MVEC_FZ * manifoldCount + m];
        float ax = warmVectors[MVEC_AX * manifoldCount + m];
        float ay = warmVectors[MVEC_AY * manifoldCount + m];
        float az = warmVectors[MVEC_AZ * manifoldCount + m];
        acc[l + MACC_F1] = (fx * t1x + fy * t1y) + fz * t1z;
        acc[l + MACC_F2] = (fx * t2x + fy * t2y) + fz * t2z;
        Iterative.projectOntoDisk(acc, l + MACC_F1, l + MACC_F2, mu * total);
        float twistLimit = mu * twistArm + tau * total;
        float twist = (ax * nx + ay * ny) + az * nz;
        acc[l + MACC_TWIST] = twist > twistLimit ? twistLimit : twist < -twistLimit ? -twistLimit : twist;
        acc[l + MACC_R1] = (ax * t1x + ay * t1y) + az * t1z;
        acc[l + MACC_R2] = (ax * t2x + ay * t2y) + az * t2z;
        Iterative.projectOntoDisk(acc, l + MACC_R1, l + MACC_R2, rho * total);
    }

    /** Step 1 of a substep: {@code v += g h} for a body with mass (at state offset {@code s}). */
    static void applyGravity(float[] state, int s, float gx, float gy, float gz, float h) {
        state[s + STATE_DVX] += gx * h;
        state[s + STATE_DVY] += gy * h;
        state[s + STATE_DVZ] += gz * h;
    }

    /**
     * Step 2's velocity changes for manifold row {@code r}, worked out from its accumulated
     * impulses (each point's normal impulse at its anchors, the friction pair at the centre, the
     * twist about n and the rolling pair) into its {@link WarmStartField} record at
     * {@code warm[r * WARM]}: the linear and angular change of body a (to subtract) and of body b
     * (to add). Worked out where the impulses are final (the row prepared, or a substep's last
     * sweep, while the row is in cache), so that the warm start ({@link #applyWarmStart}) reads
     * 12 floats a row rather than the whole row and its points.
     */
    static void warmImpulses(float[] man, int r, float[] pts, int first, int end, float[] normal, float[] acc,
            float[] warm) {
        int o = r * MAN;
        int l = r * MACC;
        float nx = man[o + MAN_NX];
        float ny = man[o + MAN_NY];
        float nz = man[o + MAN_NZ];
        float sum = 0.0f;
        float awx = 0.0f;
        float awy = 0.0f;
        float awz = 0.0f;
        float bwx = 0.0f;
        float bwy = 0.0f;
        float bwz = 0.0f;
        for (int p = first; p < end; p++) {
            int q = p * POINT;
            float j = normal[p];
            sum += j;
            awx += j * pts[q + POINT_DIR_AX];
            awy += j * pts[q + POINT_DIR_AY];
            awz += j * pts[q + POINT_DIR_AZ];
            bwx += j * pts[q + POINT_DIR_BX];
            bwy += j * pts[q + POINT_DIR_BY];
            bwz += j * pts[q + POINT_DIR_BZ];
        }
        float f1 = acc[l + MACC_F1];
        float f2 = acc[l + MACC_F2];
        float twist = acc[l + MACC_TWIST];
        float roll1 = acc[l + MACC_R1];
        float roll2 = acc[l + MACC_R2];
        // linear: the normal impulses and the friction pair, P = sum n + f1 t1 + f2 t2
        float px = (sum * nx + f1 * man[o + MAN_T1X]) + f2 * man[o + MAN_T2X];
        float py = (sum * ny + f1 * man[o + MAN_T1Y]) + f2 * man[o + MAN_T2Y];
        float pz = (sum * nz + f1 * man[o + MAN_T1Z]) + f2 * man[o + MAN_T2Z];
        // angular: the points' levers, the friction pair at the centre, the twist and the rolling pair
        awx = (((awx + f1 * man[o + MAN_DIRT1_AX]) + f2 * man[o + MAN_DIRT2_AX]) + twist * man[o + MAN_TWIST_AX])
                + (roll1 * man[o + MAN_ROLL1_AX] + roll2 * man[o + MAN_ROLL2_AX]);
        awy = (((awy + f1 * man[o + MAN_DIRT1_AY]) + f2 * man[o + MAN_DIRT2_AY]) + twist * man[o + MAN_TWIST_AY])
                + (roll1 * man[o + MAN_ROLL1_AY] + roll2 * man[o + MAN_ROLL2_AY]);
        awz = (((awz + f1 * man[o + MAN_DIRT1_AZ]) + f2 * man[o + MAN_DIRT2_AZ]) + twist * man[o + MAN_TWIST_AZ])
                + (roll1 * man[o + MAN_ROLL1_AZ] + roll2 * man[o + MAN_ROLL2_AZ]);
        bwx = (((bwx + f1 * man[o + MAN_DIRT1_BX]) + f2 * man[o + MAN_DIRT2_BX]) + twist * man[o + MAN_TWIST_BX])
                + (roll1 * man[o + MAN_ROLL1_BX] + roll2 * man[o + MAN_ROLL2_BX]);
        bwy = (((bwy + f1 * man[o + MAN_DIRT1_BY]) + f2 * man[o + MAN_DIRT2_BY]) + twist * man[o + MAN_TWIST_BY])
                + (roll1 * man[o + MAN_ROLL1_BY] + roll2 * man[o + MAN_ROLL2_BY]);
        bwz = (((bwz + f1 * man[o + MAN_DIRT1_BZ]) + f2 * man[o + MAN_DIRT2_BZ]) + twist * man[o + MAN_TWIST_BZ])
                + (roll1 * man[o + MAN_ROLL1_BZ] + roll2 * man[o + MAN_ROLL2_BZ]);
        int w = r * WARM;
        warm[w + WARM_VAX] = man[o + MAN_INV_MASS_A] * px;
        warm[w + WARM_VAY] = man[o + MAN_INV_MASS_A] * py;
        warm[w + WARM_VAZ] = man[o + MAN_INV_MASS_A] * pz;
        warm[w + WARM_WAX] = awx;
        warm[w + WARM_WAY] = awy;
        warm[w + WARM_WAZ] = awz;
        warm[w + WARM_VBX] = man[o + MAN_INV_MASS_B] * px;
        warm[w + WARM_VBY] = man[o + MAN_INV_MASS_B] * py;
        warm[w + WARM_VBZ] = man[o + MAN_INV_MASS_B] * pz;
        warm[w + WARM_WBX] = bwx;
        warm[w + WARM_WBY] = bwy;
        warm[w + WARM_WBZ] = bwz;
    }

    /**
     * Step 2 for manifold row {@code r}: applies its accumulated impulses to its bodies (state
     * offsets {@code a}, {@code b}), as {@link #warmImpulses} worked them out into its record.
     */
    static void applyWarmStart(float[] warm, int r, float[] state, int a, int b, int world) {
        int w = r * WARM;
        if (a != world) {
            state[a + STATE_DVX] -= warm[w + WARM_VAX];
            state[a + STATE_DVY] -= warm[w + WARM_VAY];
            state[a + STATE_DVZ] -= warm[w + WARM_VAZ];
            state[a + STATE_DWX] -= warm[w + WARM_WAX];
            state[a + STATE_DWY] -= warm[w + WARM_WAY];
            state[a + STATE_DWZ] -= warm[w + WARM_WAZ];
        }
        if (b != world) {
            state[b + STATE_DVX] += warm[w + WARM_VBX];
            state[b + STATE_DVY] += warm[w + WARM_VBY];
            state[b + STATE_DVZ] += warm[w + WARM_VBZ];
            state[b + STATE_DWX] += warm[w + WARM_WBX];
            state[b + STATE_DWY] += warm[w + WARM_WBY];
            state[b + STATE_DWZ] += warm[w + WARM_WBZ];
        }
    }

    /**
     * Step 2 for one body (state offset {@code s}) of a colouring kept from the last step: its
     * rows' warm starts in row order, its side of each, from its entries {@code [from, to)} of
     * {@code bodyRows} ({@code BodyContactIndex.entry}: row {@code r}'s side {@code k} is
     * {@code r * ContactBody.COUNT + k}). A colour's rows share no body, so each body takes the same operations in
     * the same order as colour by colour: the same bits, with no member waiting for another.
     */
    static void warmBody(float[] warm, int[] bodyRows, int from, int to, float[] state, int s) {
        for (int k = from; k < to; k++) {
            int entry = bodyRows[k];
            int r = entry / ContactBody.COUNT;
            if (entry - r * ContactBody.COUNT == LINK_A) {
                applyWarmStart(warm, r, state, s, -1, -1);
            } else {
                applyWarmStart(warm, r, state, -1, s, -1);
            }
        }
    }

    /**
     * Step 3 (soft, {@code relax} false) or 5 (relax) for manifold row {@code r}, points
     * {@code [first, end)}: each point's normal row at its current separation, then, where
     * {@code friction} (the batch has friction, rolling or torsional resistance, and this sweep
     * applies it), the rolling pair, the twist and the friction pair at the centre, limited by the
     * points' normal impulses just found. Returns the largest change of an accumulated impulse
     * where {@code measure} (the step's last sweep, whose change is the residual), else 0: the
     * running maximum is a chain of dependent steps a point, a tenth of a sweep's time.
     *
     * <p>Separation: {@code s = s0 + n . (dx_b - dx_a) + (M_b^T n) . r_b - (M_a^T n) . r_a}, with
     * {@code M = R(dq) - 1} from each side's motion record ({@code ma}, {@code mb}). Normal row: a
     * gap ({@code s > 0}) may close within the substep ({@code bias = s / h}, rigid); overlap is
     * pushed out softly ({@code bias = max(biasRate s, -maxPushOut)}, the manifold's mass and
     * impulse scales), or not at all when relaxing; {@code lambda' = max(lambda - massScale (v_n +
     * bias) / K - impulseScale lambda, 0)}. Each point's largest impulse of the step goes to
     * {@code peak} where {@code trackPeak} (a row restitution may visit): a load, compare and store
     * a point that the rows without a restitution target are spared, which cost the large pyramid
     * more than they look (about 0.6 ms a frame on 1 thread, docs/performance.md).
     */
    static float solveManifold(float[] man, int r, float[] pts, int first, int end, float[] normal, float[] peak,
            float[] separation, float[] acc, float[] state, int a, int b, int world, float[] motion, int ma, int mb,
            float inverseSubstep, float maxPushOut, boolean relax, boolean friction, boolean measure,
            boolean findSeparation, boolean trackPeak) {
        int o = r * MAN;
        float nx = man[o + MAN_NX];
        float ny = man[o + MAN_NY];
        float nz = man[o + MAN_NZ];
        float ima = man[o + MAN_INV_MASS_A];
        float imb = man[o + MAN_INV_MASS_B];
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
        // the separation's parts shared by the points: n . (dx_b - dx_a), and M^T n on each side
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
        float biasRate = man[o + MAN_BIAS_RATE];
        float softMass = man[o + MAN_MASS_SCALE];
        float softImpulse = man[o + MAN_IMPULSE_SCALE];
        float total = 0.0f;
        float twistArm = 0.0f;
        float largest = 0.0f;
        // the points' normal velocities at the manifold's start, then moved by each point's impulse
        // through its couplings, so that a point waits only on the impulses before it
        float along = ((dvbx - dvax) * nx + (dvby - dvay) * ny) + (dvbz - dvaz) * nz;
        float vn0 = startVelocity(pts, first, along, dwax, dway, dwaz, dwbx, dwby, dwbz);
        float vn1 = first + 1 < end ? startVelocity(pts, first + 1, along, dwax, dway, dwaz, dwbx, dwby, dwbz) : 0.0f;
        float vn2 = first + 2 < end ? startVelocity(pts, first + 2, along, dwax, dway, dwaz, dwbx, dwby, dwbz) : 0.0f;
        float vn3 = first + 3 < end ? startVelocity(pts, first + 3, along, dwax, dway, dwaz, dwbx, dwby, dwbz) : 0.0f;
        float sum = 0.0f;
        for (int p = first; p < end; p++) {
            int q = p * POINT;
            float s;
            if (findSeparation) {
                s = pts[q + POINT_S0] + (moved + (((tbx * pts[q + POINT_RBX] + tby * pts[q + POINT_RBY])
                        + tbz * pts[q + POINT_RBZ]) - ((tax * pts[q + POINT_RAX] + tay * pts[q + POINT_RAY])
                        + taz * pts[q + POINT_RAZ])));
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
                bias = Math.max(biasRate * s, -maxPushOut);
                massScale = softMass;
                impulseScale = softImpulse;
            }
            float old = normal[p];
            // the point's soft normal mass and what its impulse keeps of itself, apart from the chain
            // that runs through the points' velocities: that chain waits on one multiply and subtract
            float weight = massScale * pts[q + POINT_NORMAL_MASS];
            float kept = old - impulseScale * old;
            float next = kept - weight * (vn0 + bias);
            if (next < 0.0f) {
                next = 0.0f;
            }
            normal[p] = next;
            float applied = next - old;
            if (p + 1 < end) {
                // W (next - old) as W next less W old, the latter taken before next is known
                float w1 = pts[q + POINT_COUPLING_1];
                float w2 = pts[q + POINT_COUPLING_2];
                float w3 = pts[q + POINT_COUPLING_3];
                vn0 = (vn1 - w1 * old) + w1 * next;
                vn1 = (vn2 - w2 * old) + w2 * next;
                vn2 = (vn3 - w3 * old) + w3 * next;
            }
            sum += applied;
            dwax -= applied * pts[q + POINT_DIR_AX];
            dway -= applied * pts[q + POINT_DIR_AY];
            dwaz -= applied * pts[q + POINT_DIR_AZ];
            dwbx += applied * pts[q + POINT_DIR_BX];
            dwby += applied * pts[q + POINT_DIR_BY];
            dwbz += applied * pts[q + POINT_DIR_BZ];
            if (friction) {
                total += next;
                twistArm += pts[q + POINT_LEVER] * next;
            }
            if (trackPeak) {
                peak[p] = next > peak[p] ? next : peak[p];
            }
            if (measure) {
                largest = Math.max(largest, Math.abs(applied));
            }
        }
        float pa = ima * sum;
        float pb = imb * sum;
        dvax -= pa * nx;
        dvay -= pa * ny;
        dvaz -= pa * nz;
        dvbx += pb * nx;
        dvby += pb * ny;
        dvbz += pb * nz;
        if (friction) {
            int l = r * MACC;
            float t1x = man[o + MAN_T1X];
            float t1y = man[o + MAN_T1Y];
            float t1z = man[o + MAN_T1Z];
            float t2x = man[o + MAN_T2X];
            float t2y = man[o + MAN_T2Y];
            float t2z = man[o + MAN_T2Z];
            float rho = man[o + MAN_RHO];
            if (rho > 0.0f) {
                // the rolling pair on the relative angular velocity along the tangents
                float wx = dwbx - dwax;
                float wy = dwby - dway;
                float wz = dwbz - dwaz;
                float w1 = man[o + MAN_VR1] + ((wx * t1x + wy * t1y) + wz * t1z);
                float w2 = man[o + MAN_VR2] + ((wx * t2x + wy * t2y) + wz * t2z);
                float old1 = acc[l + MACC_R1];
                float old2 = acc[l + MACC_R2];
                acc[l + MACC_R1] = old1 - (man[o + MAN_RM11] * w1 + man[o + MAN_RM12] * w2);
                acc[l + MACC_R2] = old2 - (man[o + MAN_RM12] * w1 + man[o + MAN_RM22] * w2);
                Iterative.projectOntoDisk(acc, l + MACC_R1, l + MACC_R2, rho * total);
                float d1 = acc[l + MACC_R1] - old1;
                float d2 = acc[l + MACC_R2] - old2;
                dwax -= d1 * man[o + MAN_ROLL1_AX] + d2 * man[o + MAN_ROLL2_AX];
                dway -= d1 * man[o + MAN_ROLL1_AY] + d2 * man[o + MAN_ROLL2_AY];
                dwaz -= d1 * man[o + MAN_ROLL1_AZ] + d2 * man[o + MAN_ROLL2_AZ];
                dwbx += d1 * man[o + MAN_ROLL1_BX] + d2 * man[o + MAN_ROLL2_BX];
                dwby += d1 * man[o + MAN_ROLL1_BY] + d2 * man[o + MAN_ROLL2_BY];
                dwbz += d1 * man[o + MAN_ROLL1_BZ] + d2 * man[o + MAN_ROLL2_BZ];
                if (measure) {
                    largest = Math.max(largest, Math.max(Math.abs(d1), Math.abs(d2)));
                }
            }
            float mu = man[o + MAN_MU];
            float tau = man[o + MAN_TORSION];
            // the friction pair's velocities at the centre before the twist, whose change then moves
            // the pair's impulses through its coupling
            float v1 = 0.0f;
            float v2 = 0.0f;
            float twisted = 0.0f;
            if (mu > 0.0f) {
                float vx = dvbx - dvax;
                float vy = dvby - dvay;
                float vz = dvbz - dvaz;
                v1 = man[o + MAN_VT1] + (((vx * t1x + vy * t1y) + vz * t1z)
                        + (((dwbx * man[o + MAN_CXT1_BX] + dwby * man[o + MAN_CXT1_BY]) + dwbz * man[o + MAN_CXT1_BZ])
                        - ((dwax * man[o + MAN_CXT1_AX] + dway * man[o + MAN_CXT1_AY]) + dwaz * man[o + MAN_CXT1_AZ])));
                v2 = man[o + MAN_VT2] + (((vx * t2x + vy * t2y) + vz * t2z)
                        + (((dwbx * man[o + MAN_CXT2_BX] + dwby * man[o + MAN_CXT2_BY]) + dwbz * man[o + MAN_CXT2_BZ])
                        - ((dwax * man[o + MAN_CXT2_AX] + dway * man[o + MAN_CXT2_AY]) + dwaz * man[o + MAN_CXT2_AZ])));
            }
            if ((mu > 0.0f || tau > 0.0f) && man[o + MAN_TWIST_MASS] > 0.0f) {
                // the twist about n, limited by the grip of the spread points and the torsional resistance
                float spin = man[o + MAN_VTWIST] + (((dwbx - dwax) * nx + (dwby - dway) * ny) + (dwbz - dwaz) * nz);
                float limit = mu * twistArm + tau * total;
                float old = acc[l + MACC_TWIST];
                float next = old - man[o + MAN_TWIST_MASS] * spin;
                next = next > limit ? limit : next < -limit ? -limit : next;
                acc[l + MACC_TWIST] = next;
                float d = next - old;
                dwax -= d * man[o + MAN_TWIST_AX];
                dway -= d * man[o + MAN_TWIST_AY];
                dwaz -= d * man[o + MAN_TWIST_AZ];
                dwbx += d * man[o + MAN_TWIST_BX];
                dwby += d * man[o + MAN_TWIST_BY];
                dwbz += d * man[o + MAN_TWIST_BZ];
                twisted = d;
                if (measure) {
                    largest = Math.max(largest, Math.abs(d));
                }
            }
            if (mu > 0.0f) {
                // the friction pair at the centre, taken back into its disk
                float old1 = acc[l + MACC_F1];
                float old2 = acc[l + MACC_F2];
                float f1 = (old1 - (man[o + MAN_TM11] * v1 + man[o + MAN_TM12] * v2)) - twisted * man[o + MAN_TWIST_F1];
                float f2 = (old2 - (man[o + MAN_TM12] * v1 + man[o + MAN_TM22] * v2)) - twisted * man[o + MAN_TWIST_F2];
                float limit = mu * total;
                float squared = f1 * f1 + f2 * f2;
                if (squared > limit * limit) {
                    float scale = limit / (float) Math.sqrt(squared);
                    f1 = f1 * scale;
                    f2 = f2 * scale;
                }
                acc[l + MACC_F1] = f1;
                acc[l + MACC_F2] = f2;
                float d1 = f1 - old1;
                float d2 = f2 - old2;
                float px = d1 * t1x + d2 * t2x;
                float py = d1 * t1y + d2 * t2y;
                float pz = d1 * t1z + d2 * t2z;
                dvax -= ima * px;
                dvay -= ima * py;
                dvaz -= ima * pz;
                dvbx += imb * px;
                dvby += imb * py;
                dvbz += imb * pz;
                dwax -= d1 * man[o + MAN_DIRT1_AX] + d2 * man[o + MAN_DIRT2_AX];
                dway -= d1 * man[o + MAN_DIRT1_AY] + d2 * man[o + MAN_DIRT2_AY];
                dwaz -= d1 * man[o + MAN_DIRT1_AZ] + d2 * man[o + MAN_DIRT2_AZ];
                dwbx += d1 * man[o + MAN_DIRT1_BX] + d2 * man[o + MAN_DIRT2_BX];
                dwby += d1 * man[o + MAN_DIRT1_BY] + d2 * man[o + MAN_DIRT2_BY];
                dwbz += d1 * man[o + MAN_DIRT1_BZ] + d2 * man[o + MAN_DIRT2_BZ];
                if (measure) {
                    largest = Math.max(largest, Math.max(Math.abs(d1), Math.abs(d2)));
                }
            }
        }
        if (a != world) {
            store(state, a, dvax, dvay, dvaz, dwax, dway, dwaz);
        }
        if (b != world) {
            store(state, b, dvbx, dvby, dvbz, dwbx, dwby, dwbz);
        }
        return largest;
    }

    /** Point {@code p}'s normal velocity: {@code v_n0 + along + w_b . (r_b x n) - w_a . (r_a x n)}. */
    private static float startVelocity(float[] pts, int p, float along, float dwax, float dway, float dwaz, float dwbx,
            float dwby, float dwbz) {
        int q = p * POINT;
        return pts[q + POINT_VN0] + (along + (((dwbx * pts[q + POINT_RXN_BX] + dwby * pts[q + POINT_RXN_BY])
                + dwbz * pts[q + POINT_RXN_BZ]) - ((dwax * pts[q + POINT_RXN_AX] + dway * pts[q + POINT_RXN_AY])
                + dwaz * pts[q + POINT_RXN_AZ])));
    }

    /**
     * Writes a body's velocity change back to its state record at {@code s} (never the world's
     * shared record, which manifolds of one colour share and none may write).
     */
    private static void store(float[] state, int s, float dvx, float dvy, float dvz, float dwx, float dwy, float dwz) {
        state[s + STATE_DVX] = dvx;
        state[s + STATE_DVY] = dvy;
        state[s + STATE_DVZ] = dvz;
        state[s + STATE_DWX] = dwx;
        state[s + STATE_DWY] = dwy;
        state[s + STATE_DWZ] = dwz;
    }

    /**
     * Visits manifold rows {@code [firstRow, endRow)} (points of row {@code r}:
     * {@code [pointStart[r], pointStart[r + 1])}; state offsets {@code pairs[2 r + side]}, motion
     * offsets {@code movers[2 r + side]}) with {@link #solveManifold}, and with {@code warmNext}
     * (the substep's last sweep, another substep to come) each row's warm-start record for the
     * next substep in {@code warm}; each row's peaks tracked where it may bounce ({@code bouncing[r]},
     * the rows {@link #restitution} visits). Returns the largest change where {@code measure}, else 0.
     */
    static float sweep(float[] man, float[] pts, int[] pointStart, int[] pairs, int[] movers, float[] normal,
            float[] peak, float[] separation, float[] acc, float[] state, float[] motion, int world, SoftCoefficients k,
            boolean relax, boolean friction, boolean measure, boolean findSeparation, float[] warm, boolean warmNext,
            boolean[] bouncing, int firstRow, int endRow) {
        float largest = 0.0f;
        for (int r = firstRow; r < endRow; r++) {
            int a = pairs[PAIR * r + LINK_A];
            int b = pairs[PAIR * r + LINK_B];
            if (a == world && b == world) {
                continue;
            }
            float change = solveManifold(man, r, pts, pointStart[r], pointStart[r + 1], normal, peak, separation, acc,
                    state, a, b, world, motion, movers[PAIR * r + LINK_A], movers[PAIR * r + LINK_B], k.inverseSubstep(),
                    k.maxPushOut(), relax, friction, measure, findSeparation, bouncing[r]);
            largest = Math.max(largest, change);
            if (warmNext) {
                warmImpulses(man, r, pts, pointStart[r], pointStart[r + 1], normal, acc, warm);
            }
        }
        return largest;
    }

    /** Whether any of points {@code [first, end)} has a restitution target ({@link #restitution} may act on it). */
    static boolean mayBounce(float[] pts, int first, int end) {
        for (int p = first; p < end; p++) {
            if (pts[p * POINT + POINT_TARGET] > 0.0f) {
                return true;
            }
        }
        return false;
    }

    /**
     * Step 6 for manifold row {@code r}: each point that approached faster than the threshold (its
     * {@code TARGET = -e v_n0 > 0}) and carried a normal impulse in this step gets the rigid normal
     * row towards {@code -e v_n0}. Returns the largest change.
     */
    static float restitution(float[] man, int r, float[] pts, int first, int end, float[] normal, float[] peak,
            float[] state, int a, int b, int world) {
        int o = r * MAN;
        float nx = man[o + MAN_NX];
        float ny = man[o + MAN_NY];
        float nz = man[o + MAN_NZ];
        float ima = man[o + MAN_INV_MASS_A];
        float imb = man[o + MAN_INV_MASS_B];
        float largest = 0.0f;
        for (int p = first; p < end; p++) {
            int q = p * POINT;
            if (!(pts[q + POINT_TARGET] > 0.0f) || !(peak[p] > 0.0f)) {
                continue;
            }
            float vn = pts[q + POINT_VN0] + ((((state[b + STATE_DVX] - state[a + STATE_DVX]) * nx
                    + (state[b + STATE_DVY] - state[a + STATE_DVY]) * ny) + (state[b + STATE_DVZ] - state[a + STATE_DVZ]) * nz)
                    + (((state[b + STATE_DWX] * pts[q + POINT_RXN_BX] + state[b + STATE_DWY] * pts[q + POINT_RXN_BY])
                    + state[b + STATE_DWZ] * pts[q + POINT_RXN_BZ])
                    - ((state[a + STATE_DWX] * pts[q + POINT_RXN_AX] + state[a + STATE_DWY] * pts[q + POINT_RXN_AY])
                    + state[a + STATE_DWZ] * pts[q + POINT_RXN_AZ])));
            float old = normal[p];
            float next = old + (pts[q + POINT_TARGET] - vn) * pts[q + POINT_NORMAL_MASS];
            if (next < 0.0f) {
                next = 0.0f;
            }
            normal[p] = next;
            float applied = next - old;
            if (a != world) {
                float pa = ima * applied;
                state[a + STATE_DVX] -= pa * nx;
                state[a + STATE_DVY] -= pa * ny;
                state[a + STATE_DVZ] -= pa * nz;
                state[a + STATE_DWX] -= applied * pts[q + POINT_DIR_AX];
                state[a + STATE_DWY] -= applied * pts[q + POINT_DIR_AY];
                state[a + STATE_DWZ] -= applied * pts[q + POINT_DIR_AZ];
            }
            if (b != world) {
                float pb = imb * applied;
                state[b + STATE_DVX] += pb * nx;
                state[b + STATE_DVY] += pb * ny;
                state[b + STATE_DVZ] += pb * nz;
                state[b + STATE_DWX] += applied * pts[q + POINT_DIR_BX];
                state[b + STATE_DWY] += applied * pts[q + POINT_DIR_BY];
                state[b + STATE_DWZ] += applied * pts[q + POINT_DIR_BZ];
            }
            largest = Math.max(largest, Math.abs(applied));
        }
        return largest;
    }

    /**
     * Step 4 for body {@code i}: {@code dx += v h} and {@code dq} turned by {@code w h}, renormalised,
     * with {@code R(dq) - 1} refreshed; {@code v} is the body's velocity at the start of the step plus
     * its change so far (state offset {@code s}, or none for a body contacts cannot move: {@code s < 0}).
     */
    static void integrate(FloatBuffer bodies, int stride, int i, float[] state, int s, float[] motion, float h) {
        float vx = bodies.get(BODY_VX * stride + i);
        float vy = bodies.get(BODY_VY * stride + i);
        float vz = bodies.get(BODY_VZ * stride + i);
        float wx = bodies.get(BODY_WX * stride + i);
        float wy = bodies.get(BODY_WY * stride + i);
        float wz = bodies.get(BODY_WZ * stride + i);
        if (s >= 0) {
            vx = vx + state[s + STATE_DVX];
            vy = vy + state[s + STATE_DVY];
            vz = vz + state[s + STATE_DVZ];
            wx = wx + state[s + STATE_DWX];
            wy = wy + state[s + STATE_DWY];
            wz = wz + state[s + STATE_DWZ];
        }
        int m = i * MotionField.STRIDE;
        motion[m + MOTION_DX] = motion[m + MOTION_DX] + vx * h;
        motion[m + MOTION_DX + 1] = motion[m + MOTION_DX + 1] + vy * h;
        motion[m + MOTION_DX + 2] = motion[m + MOTION_DX + 2] + vz * h;
        if (wx == 0.0f && wy == 0.0f && wz == 0.0f) {
            return;
        }
        Integrator.turn(motion, m + MOTION_QW, wx, wy, wz, 0.5f * h);
        float qw = motion[m + MOTION_QW];
        float qx = motion[m + MOTION_QX];
        float qy = motion[m + MOTION_QY];
        float qz = motion[m + MOTION_QZ];
        // R(q) - 1 with the diagonal written as -2 (..) rather than 1 - 2 (..) - 1: no cancellation
        float xx = qx * qx;
        float yy = qy * qy;
        float zz = qz * qz;
        float xy = qx * qy;
        float xz = qx * qz;
        float yz = qy * qz;
        float xw = qw * qx;
        float yw = qw * qy;
        float zw = qw * qz;
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

    /** A fresh motion record for body {@code i}: no displacement, identity rotation, {@code R - 1 = 0}. */
    static void resetMotion(float[] motion, int i) {
        int m = i * MotionField.STRIDE;
        for (int f = 0; f < MotionField.STRIDE; f++) {
            motion[m + f] = 0.0f;
        }
        motion[m + MOTION_QW] = 1.0f;
    }

    /**
     * The end of the step for body {@code i}: {@code x = x0 + dx}, {@code q = dq q0} renormalised
     * (a body that never turned keeps its orientation bits), {@code v}, {@code w} the start's plus the
     * change (state offset {@code s}, or none: {@code s < 0}), written to {@code next}
     * ({@code BodyField} layout, stride {@code nextStride}); the change less {@code g dt} for a body
     * with mass is its delta, written unless {@code deltas} is null (the step was asked for none).
     */
    static void finishBody(FloatBuffer bodies, int stride, int i, float[] state, int s, float[] motion,
            float gx, float gy, float gz, float dt, FloatBuffer next, int nextStride, FloatBuffer deltas,
            int deltaStride) {
        int m = i * MotionField.STRIDE;
        for (int axis = 0; axis < 3; axis++) {
            float x = bodies.get((BODY_X + axis) * stride + i);
            next.put((BODY_X + axis) * nextStride + i, x + motion[m + MOTION_DX + axis]);
        }
        float dqw = motion[m + MOTION_QW];
        float dqx = motion[m + MOTION_QX];
        float dqy = motion[m + MOTION_QY];
        float dqz = motion[m + MOTION_QZ];
        float qw = bodies.get(BODY_QW * stride + i);
        float qx = bodies.get(BODY_QX * stride + i);
        float qy = bodies.get(BODY_QY * stride + i);
        float qz = bodies.get(BODY_QZ * stride + i);
        if (!(dqw == 1.0f && dqx == 0.0f && dqy == 0.0f && dqz == 0.0f)) {
            float nw = ((dqw * qw - dqx * qx) - dqy * qy) - dqz * qz;
            float nx = ((dqw * qx + dqx * qw) + dqy * qz) - dqz * qy;
            float ny = ((dqw * qy - dqx * qz) + dqy * qw) + dqz * qx;
            float nz = ((dqw * qz + dqx * qy) - dqy * qx) + dqz * qw;
            float norm = (float) Math.sqrt(nw * nw + nx * nx + ny * ny + nz * nz);
            qw = nw / norm;
            qx = nx / norm;
            qy = ny / norm;
            qz = nz / norm;
        }
        next.put(BODY_QW * nextStride + i, qw);
        next.put(BODY_QX * nextStride + i, qx);
        next.put(BODY_QY * nextStride + i, qy);
        next.put(BODY_QZ * nextStride + i, qz);
        boolean heavy = bodies.get(BODY_INV_MASS * stride + i) > 0.0f;
        for (int axis = 0; axis < 3; axis++) {
            float v = bodies.get((BODY_VX + axis) * stride + i);
            float w = bodies.get((BODY_WX + axis) * stride + i);
            float dv = s >= 0 ? state[s + STATE_DVX + axis] : 0.0f;
            float dw = s >= 0 ? state[s + STATE_DWX + axis] : 0.0f;
            next.put((BODY_VX + axis) * nextStride + i, s >= 0 ? v + dv : v);
            next.put((BODY_WX + axis) * nextStride + i, s >= 0 ? w + dw : w);
            if (deltas != null) {
                deltas.put((DELTA_DVX + axis) * deltaStride + i, heavy ? dv - (axis == 0 ? gx : axis == 1 ? gy : gz) * dt : dv);
                deltas.put((DELTA_DWX + axis) * deltaStride + i, dw);
            }
        }
    }

    /**
     * Writes manifold row {@code r}'s results for manifold {@code m}: its points' normal impulses
     * to {@code normalOut[g0 ..]} (the solved points' order) and its friction and angular vectors,
     * on b in world space, to {@code vectorsOut} ({@code ManifoldVectorField}, structure of arrays
     * with stride {@code manifoldCount}); a zero is written +0.
     */
    static void writeResults(float[] man, int r, float[] normal, int first, int end, float[] acc, float[] normalOut,
            int g0, float[] vectorsOut, int manifoldCount, int m) {
        int o = r * MAN;
        int l = r * MACC;
        for (int p = first; p < end; p++) {
            normalOut[g0 + (p - first)] = normal[p];
        }
        float f1 = acc[l + MACC_F1];
        float f2 = acc[l + MACC_F2];
        float twist = acc[l + MACC_TWIST];
        float roll1 = acc[l + MACC_R1];
        float roll2 = acc[l + MACC_R2];
        vectorsOut[MVEC_FX * manifoldCount + m] = (f1 * man[o + MAN_T1X] + f2 * man[o + MAN_T2X]) + 0.0f;
        vectorsOut[MVEC_FY * manifoldCount + m] = (f1 * man[o + MAN_T1Y] + f2 * man[o + MAN_T2Y]) + 0.0f;
        vectorsOut[MVEC_FZ * manifoldCount + m] = (f1 * man[o + MAN_T1Z] + f2 * man[o + MAN_T2Z]) + 0.0f;
        vectorsOut[MVEC_AX * manifoldCount + m] = ((twist * man[o + MAN_NX] + roll1 * man[o + MAN_T1X])
                + roll2 * man[o + MAN_T2X]) + 0.0f;
        vectorsOut[MVEC_AY * manifoldCount + m] = ((twist * man[o + MAN_NY] + roll1 * man[o + MAN_T1Y])
                + roll2 * man[o + MAN_T2Y]) + 0.0f;
        vectorsOut[MVEC_AZ * manifoldCount + m] = ((twist * man[o + MAN_NZ] + roll1 * man[o + MAN_T1Z])
                + roll2 * man[o + MAN_T2Z]) + 0.0f;
    }
}
