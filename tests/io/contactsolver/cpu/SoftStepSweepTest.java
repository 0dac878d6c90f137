package io.contactsolver.cpu;

import static io.contactsolver.core.FieldOffsets.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.contactsolver.core.GeometryField;
import io.contactsolver.core.ManifoldField;
import io.contactsolver.core.ManifoldImpulse;
import io.contactsolver.core.ManifoldVectorField;
import io.contactsolver.core.MotionField;
import io.contactsolver.core.PointField;
import io.contactsolver.core.PreparedBodyField;
import io.contactsolver.core.SoftCoefficients;
import io.contactsolver.core.StateField;
import io.contactsolver.core.TargetRule;
import io.contactsolver.layout.ContactField;
import java.nio.FloatBuffer;
import org.junit.jupiter.api.Test;

/**
 * A sweep works a manifold out with its points coupled (docs/physics.md, "How a sweep works a
 * manifold out"): each point's normal velocity is the manifold's start's, moved by the impulses
 * before it through {@code W_ji = J_j M^-1 J_i^T}, and the twist moves the friction pair through
 * its coupling. In exact arithmetic that is the point-by-point Gauss-Seidel of the law, which this
 * test writes out in double, row by row from the bodies' velocities, beside the sweep: the two
 * agree to float rounding on a four-point manifold between two turned boxes whose inverse inertias
 * are full matrices, in a soft sweep and in a relax sweep with friction and twist.
 */
class SoftStepSweepTest {
    private static final int POINTS = 4;
    private static final int MAN = ManifoldField.COUNT;
    private static final int POINT = PointField.COUNT;
    private static final int PREP = PreparedBodyField.STRIDE;
    private static final int STATE = StateField.STRIDE;
    /** The bodies' state: a at 0, b after it, the world's all-zero record last. */
    private static final int A = 0;
    private static final int B = STATE;
    private static final int WORLD = 2 * STATE;

    private final float[] man = new float[MAN];
    private final float[] pts = new float[POINT * POINTS];
    private final float[] normal = new float[POINTS];
    private final float[] peak = new float[POINTS];
    private final float[] separation = new float[POINTS];
    private final float[] acc = new float[ManifoldImpulse.COUNT];
    private final float[] state = new float[3 * STATE];
    /** Both bodies' motion records, zero: the bodies have not moved in the step. */
    private final float[] motion = new float[3 * MotionField.STRIDE];
    private final SoftCoefficients k = SoftCoefficients.of(1.0f / 60.0f, 4, 30.0f, 10.0f, 3.0f);

    SoftStepSweepTest() {
        float[] geometry = new float[GeometryField.COUNT * POINTS];
        // a face of box a under box b: the points of a tilted square, overlapping by 1 to 4 mm
        float[][] at = {{0.5f, 0.5f, 0.48f}, {-0.5f, 0.5f, 0.51f}, {-0.5f, -0.5f, 0.5f}, {0.5f, -0.5f, 0.49f}};
        float nx = 0.05f;
        float ny = -0.03f;
        float nz = (float) Math.sqrt(1.0 - nx * nx - ny * ny);
        for (int p = 0; p < POINTS; p++) {
            set(geometry, GEOM_RAX, p, at[p][0] - 0.02f);
            set(geometry, GEOM_RAY, p, at[p][1] + 0.03f);
            set(geometry, GEOM_RAZ, p, at[p][2]);
            set(geometry, GEOM_RBX, p, at[p][0] + 0.01f);
            set(geometry, GEOM_RBY, p, at[p][1] - 0.04f);
            set(geometry, GEOM_RBZ, p, at[p][2] - 1.0f);
            set(geometry, GEOM_NX, p, nx);
            set(geometry, GEOM_NY, p, ny);
            set(geometry, GEOM_NZ, p, nz);
            set(geometry, GEOM_S, p, -0.001f * (p + 1));
        }
        float[] warmNormal = {0.8f, 1.1f, 0.9f, 1.0f};
        float[] warmVectors = new float[ManifoldVectorField.COUNT];
        warmVectors[MVEC_FX] = 0.2f;
        warmVectors[MVEC_FY] = -0.1f;
        warmVectors[MVEC_AZ] = 0.05f;
        FloatBuffer contacts = FloatBuffer.allocate(ContactField.values().length);
        contacts.put(CONTACT_RESTITUTION, 0.0f);
        contacts.put(CONTACT_FRICTION, 0.6f);
        contacts.put(CONTACT_ROLLING_RESISTANCE, 0.0f);
        contacts.put(CONTACT_TORSION, 0.0f);
        float[] prepared = new float[2 * PREP];
        body(prepared, 0, 0.9f, new float[] {0.3f, -0.2f, 0.1f}, new float[] {0.4f, 0.1f, -0.3f},
                new float[] {1.1f, 0.9f, 1.3f, 0.12f, -0.08f, 0.05f});
        body(prepared, PREP, 0.7f, new float[] {-0.1f, 0.2f, -0.6f}, new float[] {-0.2f, 0.5f, 0.2f},
                new float[] {1.4f, 1.2f, 0.8f, -0.1f, 0.06f, 0.09f});
        SoftStep.prepareGeometry(geometry, POINTS, 0, POINTS, 0, 0, prepared, 0, PREP, false, man, pts);
        SoftStep.prepareStep(geometry, POINTS, 0, POINTS, warmNormal, warmVectors, 1, 0, contacts, 1, 0, 0, 0,
                prepared, 0, PREP, false, k, new TargetRule(0.5f, 0.0f, 0.0f, 0.0f), man, pts, normal, peak, acc);
        // the warm start's velocity changes, so the sweep starts from bodies that move
        int[] fields = {STATE_DVX, STATE_DVY, STATE_DVZ, STATE_DWX, STATE_DWY, STATE_DWZ};
        for (int f = 0; f < fields.length; f++) {
            state[A + fields[f]] = 0.01f * (f + 1);
            state[B + fields[f]] = -0.02f * (f - 2);
        }
    }

    @Test
    void aSoftSweepIsThePointByPointSweepToRounding() {
        Reference expected = new Reference();
        expected.normals(false);
        SoftStep.solveManifold(man, 0, pts, 0, POINTS, normal, peak, separation, acc, state, A, B, WORLD, motion,
                0, MotionField.STRIDE, k.inverseSubstep(), k.maxPushOut(), false, false, false, true, true);
        expected.assertMatches(this, false);
    }

    @Test
    void aRelaxSweepWithFrictionAndTwistIsThePointByPointSweepToRounding() {
        Reference expected = new Reference();
        expected.normals(true);
        expected.frictionRows();
        SoftStep.solveManifold(man, 0, pts, 0, POINTS, normal, peak, separation, acc, state, A, B, WORLD, motion,
                0, MotionField.STRIDE, k.inverseSubstep(), k.maxPushOut(), true, true, false, true, true);
        expected.assertMatches(this, true);
        assertTrue(Math.abs(man[MAN_TWIST_F1]) + Math.abs(man[MAN_TWIST_F2]) > 1e-3,
                "the twist moves the friction pair here: " + man[MAN_TWIST_F1] + ", " + man[MAN_TWIST_F2]);
        assertTrue(Math.abs(expected.twist) > 1e-6 && Math.abs(expected.f1) + Math.abs(expected.f2) > 1e-6,
                "the twist and the friction pair act");
    }

    /** The law's sweep in double: each row from the bodies' velocities, each change applied at once. */
    private final class Reference {
        final double[] dv = new double[2 * STATE];
        final double[] lambda = new double[POINTS];
        double twist;
        double f1;
        double f2;

        Reference() {
            for (int f = 0; f < 2 * STATE; f++) {
                dv[f] = state[f];
            }
            for (int p = 0; p < POINTS; p++) {
                lambda[p] = normal[p];
            }
            twist = acc[MACC_TWIST];
            f1 = acc[MACC_F1];
            f2 = acc[MACC_F2];
        }

        void normals(boolean relax) {
            double ima = man[MAN_INV_MASS_A];
            double imb = man[MAN_INV_MASS_B];
            for (int p = 0; p < POINTS; p++) {
                int q = p * POINT;
                double s = pts[q + POINT_S0];
                double bias;
                double massScale = 1.0;
                double impulseScale = 0.0;
                if (s > 0.0) {
                    bias = s * k.inverseSubstep();
                } else if (relax) {
                    bias = 0.0;
                } else {
                    bias = Math.max(man[MAN_BIAS_RATE] * s, -k.maxPushOut());
                    massScale = man[MAN_MASS_SCALE];
                    impulseScale = man[MAN_IMPULSE_SCALE];
                }
                double vn = pts[q + POINT_VN0];
                for (int axis = 0; axis < 3; axis++) {
                    vn += (dv[B + STATE_DVX + axis] - dv[A + STATE_DVX + axis]) * man[MAN_NX + axis]
                            + dv[B + STATE_DWX + axis] * pts[q + POINT_RXN_BX + axis]
                            - dv[A + STATE_DWX + axis] * pts[q + POINT_RXN_AX + axis];
                }
                double next = Math.max(lambda[p] - massScale * (vn + bias) * pts[q + POINT_NORMAL_MASS]
                        - impulseScale * lambda[p], 0.0);
                double applied = next - lambda[p];
                lambda[p] = next;
                for (int axis = 0; axis < 3; axis++) {
                    dv[A + STATE_DVX + axis] -= ima * applied * man[MAN_NX + axis];
                    dv[B + STATE_DVX + axis] += imb * applied * man[MAN_NX + axis];
                    dv[A + STATE_DWX + axis] -= applied * pts[q + POINT_DIR_AX + axis];
                    dv[B + STATE_DWX + axis] += applied * pts[q + POINT_DIR_BX + axis];
                }
            }
        }

        void frictionRows() {
            double total = 0.0;
            double arm = 0.0;
            for (int p = 0; p < POINTS; p++) {
                total += lambda[p];
                arm += pts[p * POINT + POINT_LEVER] * lambda[p];
            }
            double mu = man[MAN_MU];
            // the twist from the relative spin along n
            double spin = man[MAN_VTWIST];
            for (int axis = 0; axis < 3; axis++) {
                spin += (dv[B + STATE_DWX + axis] - dv[A + STATE_DWX + axis]) * man[MAN_NX + axis];
            }
            double limit = mu * arm;
            double nextTwist = Math.max(-limit, Math.min(limit, twist - man[MAN_TWIST_MASS] * spin));
            double d = nextTwist - twist;
            twist = nextTwist;
            for (int axis = 0; axis < 3; axis++) {
                dv[A + STATE_DWX + axis] -= d * man[MAN_TWIST_AX + axis];
                dv[B + STATE_DWX + axis] += d * man[MAN_TWIST_BX + axis];
            }
            // the friction pair at the centre, from the velocities after the twist
            double v1 = man[MAN_VT1];
            double v2 = man[MAN_VT2];
            for (int axis = 0; axis < 3; axis++) {
                double rel = dv[B + STATE_DVX + axis] - dv[A + STATE_DVX + axis];
                v1 += rel * man[MAN_T1X + axis] + dv[B + STATE_DWX + axis] * man[MAN_CXT1_BX + axis]
                        - dv[A + STATE_DWX + axis] * man[MAN_CXT1_AX + axis];
                v2 += rel * man[MAN_T2X + axis] + dv[B + STATE_DWX + axis] * man[MAN_CXT2_BX + axis]
                        - dv[A + STATE_DWX + axis] * man[MAN_CXT2_AX + axis];
            }
            double n1 = f1 - (man[MAN_TM11] * v1 + man[MAN_TM12] * v2);
            double n2 = f2 - (man[MAN_TM12] * v1 + man[MAN_TM22] * v2);
            double length = Math.hypot(n1, n2);
            if (length > mu * total) {
                n1 *= mu * total / length;
                n2 *= mu * total / length;
            }
            double d1 = n1 - f1;
            double d2 = n2 - f2;
            f1 = n1;
            f2 = n2;
            for (int axis = 0; axis < 3; axis++) {
                double p = d1 * man[MAN_T1X + axis] + d2 * man[MAN_T2X + axis];
                dv[A + STATE_DVX + axis] -= man[MAN_INV_MASS_A] * p;
                dv[B + STATE_DVX + axis] += man[MAN_INV_MASS_B] * p;
                dv[A + STATE_DWX + axis] -= d1 * man[MAN_DIRT1_AX + axis] + d2 * man[MAN_DIRT2_AX + axis];
                dv[B + STATE_DWX + axis] += d1 * man[MAN_DIRT1_BX + axis] + d2 * man[MAN_DIRT2_BX + axis];
            }
        }

        void assertMatches(SoftStepSweepTest sweep, boolean friction) {
            for (int p = 0; p < POINTS; p++) {
                assertClose(lambda[p], sweep.normal[p], "normal impulse of point " + p);
                assertTrue(lambda[p] > 0.0, "point " + p + " carries load");
            }
            for (int f = 0; f < 2 * STATE; f++) {
                assertClose(dv[f], sweep.state[f], "velocity change " + f);
            }
            if (friction) {
                assertClose(twist, sweep.acc[MACC_TWIST], "twist");
                assertClose(f1, sweep.acc[MACC_F1], "friction along t1");
                assertClose(f2, sweep.acc[MACC_F2], "friction along t2");
            }
        }
    }

    /** Float rounding of a few dozen operations on numbers of order one: a few parts in a million. */
    private static void assertClose(double expected, float actual, String what) {
        assertEquals(expected, actual, 2e-6 * Math.max(1.0, Math.abs(expected)), what);
    }

    private static void set(float[] geometry, int field, int point, float value) {
        geometry[field * POINTS + point] = value;
    }

    /** A prepared body record: inverse mass, velocity, spin and inverse inertia (xx, yy, zz, xy, xz, yz). */
    private static void body(float[] prepared, int o, float inverseMass, float[] v, float[] w, float[] inertia) {
        prepared[o + PREP_INV_MASS] = inverseMass;
        prepared[o + PREP_VX] = v[0];
        prepared[o + PREP_VY] = v[1];
        prepared[o + PREP_VZ] = v[2];
        prepared[o + PREP_WX] = w[0];
        prepared[o + PREP_WY] = w[1];
        prepared[o + PREP_WZ] = w[2];
        prepared[o + PREP_IXX] = inertia[0];
        prepared[o + PREP_IYY] = inertia[1];
        prepared[o + PREP_IZZ] = inertia[2];
        prepared[o + PREP_IXY] = inertia[3];
        prepared[o + PREP_IXZ] = inertia[4];
        prepared[o + PREP_IYZ] = inertia[5];
    }
}
