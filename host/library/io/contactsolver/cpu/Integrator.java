package io.contactsolver.cpu;

import static io.contactsolver.core.FieldOffsets.*;

import io.contactsolver.core.FieldBlock;

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
        if (!(bodies.getFloat(BODY_INV_MASS, i) > 0.0f)) {
            return;
        }
        bodies.setFloat(BODY_VX, i, bodies.getFloat(BODY_VX, i) + gx * dt);
        bodies.setFloat(BODY_VY, i, bodies.getFloat(BODY_VY, i) + gy * dt);
        bodies.setFloat(BODY_VZ, i, bodies.getFloat(BODY_VZ, i) + gz * dt);
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
        float vx = bodies.getFloat(BODY_VX, i) + deltas.getFloat(DELTA_DVX, i);
        float vy = bodies.getFloat(BODY_VY, i) + deltas.getFloat(DELTA_DVY, i);
        float vz = bodies.getFloat(BODY_VZ, i) + deltas.getFloat(DELTA_DVZ, i);
        float wx = bodies.getFloat(BODY_WX, i) + deltas.getFloat(DELTA_DWX, i);
        float wy = bodies.getFloat(BODY_WY, i) + deltas.getFloat(DELTA_DWY, i);
        float wz = bodies.getFloat(BODY_WZ, i) + deltas.getFloat(DELTA_DWZ, i);
        bodies.setVector(BODY_VX, i, vx, vy, vz);
        bodies.setVector(BODY_WX, i, wx, wy, wz);
        bodies.setVector(BODY_X, i, bodies.getFloat(BODY_X, i) + vx * dt,
                bodies.getFloat(BODY_Y, i) + vy * dt, bodies.getFloat(BODY_Z, i) + vz * dt);
        if (wx == 0.0f && wy == 0.0f && wz == 0.0f) {
            return;
        }
        orientation[0] = bodies.getFloat(BODY_QW, i);
        orientation[1] = bodies.getFloat(BODY_QX, i);
        orientation[2] = bodies.getFloat(BODY_QY, i);
        orientation[3] = bodies.getFloat(BODY_QZ, i);
        turn(orientation, 0, wx, wy, wz, 0.5f * dt);
        bodies.setFloat(BODY_QW, i, orientation[0]);
        bodies.setVector(BODY_QX, i, orientation[1], orientation[2], orientation[3]);
    }
}
