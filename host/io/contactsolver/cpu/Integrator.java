package io.contactsolver.cpu;

import static io.contactsolver.layout.BodyField.INV_MASS;
import static io.contactsolver.layout.BodyField.QW;
import static io.contactsolver.layout.BodyField.QX;
import static io.contactsolver.layout.BodyField.QY;
import static io.contactsolver.layout.BodyField.QZ;
import static io.contactsolver.layout.BodyField.VX;
import static io.contactsolver.layout.BodyField.VY;
import static io.contactsolver.layout.BodyField.VZ;
import static io.contactsolver.layout.BodyField.WX;
import static io.contactsolver.layout.BodyField.WY;
import static io.contactsolver.layout.BodyField.WZ;
import static io.contactsolver.layout.BodyField.X;
import static io.contactsolver.layout.BodyField.Y;
import static io.contactsolver.layout.BodyField.Z;

import io.contactsolver.core.FieldBlock;
import io.contactsolver.layout.DeltaField;

/**
 * The body updates of a simulation step, one body at a time; the Java twin of
 * {@code kernels/integrate.cl}. Applied to the host's bodies on every backend, and by the OpenCL
 * backend to its device copy too, with the same float operations, so both copies stay equal.
 * Writes go through {@link FieldBlock}'s setters, so the changed fields are stamped.
 */
public final class Integrator {
    private Integrator() {
    }

    /** {@code v += g dt} for a body with mass (inverse mass > 0). */
    public static void applyGravity(FieldBlock bodies, int i, float gx, float gy, float gz, float dt) {
        if (!(bodies.getFloat(INV_MASS.ordinal(), i) > 0.0f)) {
            return;
        }
        bodies.setFloat(VX.ordinal(), i, bodies.getFloat(VX.ordinal(), i) + gx * dt);
        bodies.setFloat(VY.ordinal(), i, bodies.getFloat(VY.ordinal(), i) + gy * dt);
        bodies.setFloat(VZ.ordinal(), i, bodies.getFloat(VZ.ordinal(), i) + gz * dt);
    }

    /**
     * Turns the unit quaternion {@code (w, x, y, z)} at {@code q[at..at + 3]} by the angular velocity
     * {@code w} over a step of {@code 2 halfStep}: {@code q += halfStep (0, w) q}, renormalised. The
     * one orientation update of {@code step} and of the soft step's substeps
     * ({@code turn_orientation} in {@code kernels/integrate.cl}).
     */
    static void turn(float[] q, int at, float wx, float wy, float wz, float halfStep) {
        float qw = q[at];
        float qx = q[at + 1];
        float qy = q[at + 2];
        float qz = q[at + 3];
        float nw = qw + halfStep * -(wx * qx + wy * qy + wz * qz);
        float nx = qx + halfStep * (wx * qw + (wy * qz - wz * qy));
        float ny = qy + halfStep * (wy * qw + (wz * qx - wx * qz));
        float nz = qz + halfStep * (wz * qw + (wx * qy - wy * qx));
        // the float square root correctly rounded, as the device's with correctly rounded divide-sqrt
        float norm = (float) Math.sqrt(nw * nw + nx * nx + ny * ny + nz * nz);
        q[at] = nw / norm;
        q[at + 1] = nx / norm;
        q[at + 2] = ny / norm;
        q[at + 3] = nz / norm;
    }

    /**
     * {@code v += dv, w += dw}, then {@code x += v dt} and the orientation turned by {@code w dt}
     * ({@link #turn}; semi-implicit Euler). A body that does not spin keeps its orientation bits.
     *
     * @param orientation the caller's scratch of at least 4 floats, so that no body allocates
     */
    public static void integrate(FieldBlock bodies, int i, FieldBlock deltas, float dt, float[] orientation) {
        float vx = bodies.getFloat(VX.ordinal(), i) + deltas.getFloat(DeltaField.DVX.ordinal(), i);
        float vy = bodies.getFloat(VY.ordinal(), i) + deltas.getFloat(DeltaField.DVY.ordinal(), i);
        float vz = bodies.getFloat(VZ.ordinal(), i) + deltas.getFloat(DeltaField.DVZ.ordinal(), i);
        float wx = bodies.getFloat(WX.ordinal(), i) + deltas.getFloat(DeltaField.DWX.ordinal(), i);
        float wy = bodies.getFloat(WY.ordinal(), i) + deltas.getFloat(DeltaField.DWY.ordinal(), i);
        float wz = bodies.getFloat(WZ.ordinal(), i) + deltas.getFloat(DeltaField.DWZ.ordinal(), i);
        bodies.setVector(VX.ordinal(), i, vx, vy, vz);
        bodies.setVector(WX.ordinal(), i, wx, wy, wz);
        bodies.setVector(X.ordinal(), i, bodies.getFloat(X.ordinal(), i) + vx * dt,
                bodies.getFloat(Y.ordinal(), i) + vy * dt, bodies.getFloat(Z.ordinal(), i) + vz * dt);
        if (wx == 0.0f && wy == 0.0f && wz == 0.0f) {
            return;
        }
        orientation[0] = bodies.getFloat(QW.ordinal(), i);
        orientation[1] = bodies.getFloat(QX.ordinal(), i);
        orientation[2] = bodies.getFloat(QY.ordinal(), i);
        orientation[3] = bodies.getFloat(QZ.ordinal(), i);
        turn(orientation, 0, wx, wy, wz, 0.5f * dt);
        bodies.setFloat(QW.ordinal(), i, orientation[0]);
        bodies.setVector(QX.ordinal(), i, orientation[1], orientation[2], orientation[3]);
    }
}
