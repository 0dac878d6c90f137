/*
 * Device-resident stepping: the OpenCL twin of host/io/contactsolver/cpu/Integrator.java.
 *
 * The host applies exactly these updates to its own copy of the bodies, so the device copy stays
 * equal to it bit for bit and need not be sent again: between steps only contacts go up and
 * deltas come down. Bodies are structure of arrays (BODY_* fields, stride `stride`), deltas too
 * (DELTA_* fields, stride `deltaStride`).
 */

/* v += g dt for bodies with mass (inverse mass > 0). */
__kernel void apply_gravity(__global float* bodies, const int stride, const int bodyCount, const float gx,
                            const float gy, const float gz, const float dt)
{
    const int i = get_global_id(0);
    if (i >= bodyCount || !(bodies[BODY_INV_MASS * stride + i] > 0.0f)) {
        return;
    }
    bodies[BODY_VX * stride + i] = bodies[BODY_VX * stride + i] + gx * dt;
    bodies[BODY_VY * stride + i] = bodies[BODY_VY * stride + i] + gy * dt;
    bodies[BODY_VZ * stride + i] = bodies[BODY_VZ * stride + i] + gz * dt;
}

/*
 * Turns the unit quaternion q = (w, x, y, z) by the angular velocity w over a step of 2 halfStep:
 * q += halfStep (0, w) q, renormalised. The one orientation update of the step and of the soft
 * step's substeps (Integrator.turn on the host).
 */
void turn_orientation(float* q, const float wx, const float wy, const float wz, const float halfStep)
{
    const float qw = q[0];
    const float qx = q[1];
    const float qy = q[2];
    const float qz = q[3];
    const float nw = qw + halfStep * -(wx * qx + wy * qy + wz * qz);
    const float nx = qx + halfStep * (wx * qw + (wy * qz - wz * qy));
    const float ny = qy + halfStep * (wy * qw + (wz * qx - wx * qz));
    const float nz = qz + halfStep * (wz * qw + (wx * qy - wy * qx));
    const float norm = sqrt(nw * nw + nx * nx + ny * ny + nz * nz);
    q[0] = nw / norm;
    q[1] = nx / norm;
    q[2] = ny / norm;
    q[3] = nz / norm;
}

/*
 * v += dv, w += dw, then x += v dt and q turned by w dt
 * (turn_orientation; semi-implicit Euler).
 * A body that does not spin keeps its orientation bits: renormalising would drift them.
 */
__kernel void integrate_bodies(__global float* bodies, const int stride, const int bodyCount,
                               __global const float* deltas, const int deltaStride, const float dt)
{
    const int i = get_global_id(0);
    if (i >= bodyCount) {
        return;
    }
    const float vx = bodies[BODY_VX * stride + i] + deltas[DELTA_DVX * deltaStride + i];
    const float vy = bodies[BODY_VY * stride + i] + deltas[DELTA_DVY * deltaStride + i];
    const float vz = bodies[BODY_VZ * stride + i] + deltas[DELTA_DVZ * deltaStride + i];
    const float wx = bodies[BODY_WX * stride + i] + deltas[DELTA_DWX * deltaStride + i];
    const float wy = bodies[BODY_WY * stride + i] + deltas[DELTA_DWY * deltaStride + i];
    const float wz = bodies[BODY_WZ * stride + i] + deltas[DELTA_DWZ * deltaStride + i];
    bodies[BODY_VX * stride + i] = vx;
    bodies[BODY_VY * stride + i] = vy;
    bodies[BODY_VZ * stride + i] = vz;
    bodies[BODY_WX * stride + i] = wx;
    bodies[BODY_WY * stride + i] = wy;
    bodies[BODY_WZ * stride + i] = wz;
    bodies[BODY_X * stride + i] = bodies[BODY_X * stride + i] + vx * dt;
    bodies[BODY_Y * stride + i] = bodies[BODY_Y * stride + i] + vy * dt;
    bodies[BODY_Z * stride + i] = bodies[BODY_Z * stride + i] + vz * dt;
    if (wx == 0.0f && wy == 0.0f && wz == 0.0f) {
        return;
    }
    float q[4] = {bodies[BODY_QW * stride + i], bodies[BODY_QX * stride + i], bodies[BODY_QY * stride + i],
                  bodies[BODY_QZ * stride + i]};
    turn_orientation(q, wx, wy, wz, 0.5f * dt);
    bodies[BODY_QW * stride + i] = q[0];
    bodies[BODY_QX * stride + i] = q[1];
    bodies[BODY_QY * stride + i] = q[2];
    bodies[BODY_QZ * stride + i] = q[3];
}
