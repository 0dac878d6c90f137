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
 * v += dv, w += dw, then x += v dt and q += (dt / 2) (0, w) q, renormalised (semi-implicit Euler).
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
    const float qw = bodies[BODY_QW * stride + i];
    const float qx = bodies[BODY_QX * stride + i];
    const float qy = bodies[BODY_QY * stride + i];
    const float qz = bodies[BODY_QZ * stride + i];
    const float halfStep = 0.5f * dt;
    const float nw = qw + halfStep * -(wx * qx + wy * qy + wz * qz);
    const float nx = qx + halfStep * (wx * qw + (wy * qz - wz * qy));
    const float ny = qy + halfStep * (wy * qw + (wz * qx - wx * qz));
    const float nz = qz + halfStep * (wz * qw + (wx * qy - wy * qx));
    const float norm = sqrt(nw * nw + nx * nx + ny * ny + nz * nz);
    bodies[BODY_QW * stride + i] = nw / norm;
    bodies[BODY_QX * stride + i] = nx / norm;
    bodies[BODY_QY * stride + i] = ny / norm;
    bodies[BODY_QZ * stride + i] = nz / norm;
}
