package io.contactsolver.cpu;

import static io.contactsolver.core.FieldOffsets.*;
import io.contactsolver.core.AccumulatedImpulse;
import io.contactsolver.core.ContactRowField;
import io.contactsolver.core.MotionField;
import io.contactsolver.core.PreparedBodyField;
import io.contactsolver.core.SoftCoefficients;
import io.contactsolver.core.SoftRowField;
import io.contactsolver.core.StateField;
import io.contactsolver.layout.BodyField;
import io.contactsolver.layout.ContactBody;
import io.contactsolver.layout.ContactField;
import io.contactsolver.layout.DeltaField;
import java.nio.FloatBuffer;

/**
 * The soft step's arithmetic, one row or one body at a time; the Java twin of
 * {@code kernels/soft_step.cl} (docs/physics.md, "Soft step: substeps, soft contacts, a relax
 * sweep").
 *
 * <p>Rows are the iterative solver's ({@link Iterative}, set up once a step by
 * {@link Iterative#prepareRow}); beside them each row keeps its {@link SoftRowField}s and its two
 * bodies' motion offsets ({@code movers[2 r + side]}, already multiplied by
 * {@link MotionField#STRIDE}; a static body or the world points at the all-zero world record). The
 * state is, as in the iterative solver, each body's velocity change since the start of the step
 * ({@link StateField}), here gravity included, so a row's {@code v_n = VN0 + ...} is the current
 * normal velocity.
 */
final class SoftStep {
    private static final int PAIR = ContactBody.COUNT;
    private static final int SOFT = SoftRowField.COUNT;
    private static final int MOTION = MotionField.STRIDE;

    private SoftStep() {
    }

    /** Keeps contact {@code c}'s separation and lever arms as row {@code r}'s soft fields; {@code prepared} as for the rows. */
    static void prepareSoftRow(FloatBuffer contacts, int contactStride, int c, int r, int oa, int ob,
            float[] prepared, float[] soft) {
        float px = contacts.get(CONTACT_PX * contactStride + c);
        float py = contacts.get(CONTACT_PY * contactStride + c);
        float pz = contacts.get(CONTACT_PZ * contactStride + c);
        int o = r * SOFT;
        soft[o + SOFT_S0] = contacts.get(CONTACT_SEPARATION * contactStride + c);
        // as evaluateContact computes them, so the arms are the rows' own
        soft[o + SOFT_RAX] = px - prepared[oa + PREP_X];
        soft[o + SOFT_RAX + 1] = py - prepared[oa + PREP_X + 1];
        soft[o + SOFT_RAX + 2] = pz - prepared[oa + PREP_X + 2];
        soft[o + SOFT_RBX] = px - prepared[ob + PREP_X];
        soft[o + SOFT_RBX + 1] = py - prepared[ob + PREP_X + 1];
        soft[o + SOFT_RBX + 2] = pz - prepared[ob + PREP_X + 2];
    }

    /** Step 1 of a substep: {@code v += g h} for a body with mass (at state offset {@code s}). */
    static void applyGravity(float[] state, int s, float gx, float gy, float gz, float h) {
        state[s + STATE_DVX] += gx * h;
        state[s + STATE_DVY] += gy * h;
        state[s + STATE_DVZ] += gz * h;
    }

    /** One component of {@code (R(dq) - 1) r}: the matrix row at {@code m} of the record at {@code at}, times the arm at {@code arm}. */
    private static float contactShift(float[] motion, int at, int m, float[] soft, int arm) {
        return motion[at + m] * soft[arm] + motion[at + m + 1] * soft[arm + 1] + motion[at + m + 2] * soft[arm + 2];
    }

    /**
     * The current separation of the row at {@code o}: {@code s0 + n . (d_b - d_a)}, each side's
     * {@code d = dx + (R(dq) - 1) r} from its motion record ({@code ma}, {@code mb}).
     */
    static float separation(float[] row, int o, float[] soft, int so, float[] motion, int ma, int mb) {
        float dbx = motion[mb + MOTION_DX] + contactShift(motion, mb, MOTION_M00, soft, so + SOFT_RBX);
        float dby = motion[mb + MOTION_DX + 1] + contactShift(motion, mb, MOTION_M00 + 3, soft, so + SOFT_RBX);
        float dbz = motion[mb + MOTION_DX + 2] + contactShift(motion, mb, MOTION_M00 + 6, soft, so + SOFT_RBX);
        float dax = motion[ma + MOTION_DX] + contactShift(motion, ma, MOTION_M00, soft, so + SOFT_RAX);
        float day = motion[ma + MOTION_DX + 1] + contactShift(motion, ma, MOTION_M00 + 3, soft, so + SOFT_RAX);
        float daz = motion[ma + MOTION_DX + 2] + contactShift(motion, ma, MOTION_M00 + 6, soft, so + SOFT_RAX);
        return soft[so + SOFT_S0] + ((dbx - dax) * row[o + ROW_NX] + (dby - day) * row[o + ROW_NY]
                + (dbz - daz) * row[o + ROW_NZ]);
    }

    /**
     * The soft (or relax) normal row at separation {@code s}: a gap may close within the substep
     * ({@code bias = s / h}, rigid); overlap is pushed out softly at most at the push-out speed, or
     * not at all when relaxing. Accumulates at {@code lambda[l]}, clamped at zero; returns the
     * impulse to apply.
     */
    static float softNormalImpulse(float[] row, int o, float[] lambda, int l, int a, int b, float[] state, float s,
            SoftCoefficients coefficients, boolean relax) {
        float bias;
        float massScale;
        float impulseScale;
        if (s > 0.0f) {
            bias = s * coefficients.inverseSubstep();
            massScale = 1.0f;
            impulseScale = 0.0f;
        } else if (relax) {
            bias = 0.0f;
            massScale = 1.0f;
            impulseScale = 0.0f;
        } else {
            bias = Math.max(coefficients.biasRate() * s, -coefficients.maxPushOut());
            massScale = coefficients.massScale();
            impulseScale = coefficients.impulseScale();
        }
        float vn = Iterative.normalVelocity(row, o, a, b, state);
        float old = lambda[l + ACC_N];
        float next = old + (-(massScale * ((vn + bias) / row[o + ROW_K])) - impulseScale * old);
        if (next < 0.0f) {
            next = 0.0f;
        }
        lambda[l + ACC_N] = next;
        return next - old;
    }

    /**
     * Visits rows {@code [first, end)}: the soft normal row ({@code relax} false) or the relax row
     * (true), then the tangent and rolling pairs where the batch has them. Returns the largest
     * change of an accumulated impulse.
     */
    static float sweep(float[] row, int rowStride, float[] soft, int[] pairs, int[] movers, float[] lambda,
            int lambdaStride, float[] state, float[] motion, int world, SoftCoefficients coefficients, boolean relax,
            boolean frictional, float[] peak, int first, int end) {
        float largest = 0.0f;
        for (int r = first; r < end; r++) {
            int o = r * rowStride;
            if (!(row[o + ROW_K] > 0.0f)) {
                continue;
            }
            int l = r * lambdaStride;
            int a = pairs[PAIR * r + LINK_A];
            int b = pairs[PAIR * r + LINK_B];
            float s = separation(row, o, soft, r * SOFT, motion, movers[PAIR * r + LINK_A], movers[PAIR * r + LINK_B]);
            float applied = softNormalImpulse(row, o, lambda, l, a, b, state, s, coefficients, relax);
            Iterative.applyImpulse(row, o, a, b, applied, state, world);
            float change = Math.abs(applied);
            float next = lambda[l + ACC_N];
            peak[r] = next > peak[r] ? next : peak[r];
            if (frictional) {
                change = Iterative.solveFrictionPairs(row, o, l, a, b, lambda, state, world, next, change);
            }
            largest = Math.max(largest, change);
        }
        return largest;
    }

    /**
     * Visits rows {@code [first, end)} of one colour as {@link #sweep} does, two side by side as
     * {@link Iterative#sweepColour} visits them: both rows' separations and normal impulses before
     * either is applied, then both applied, then their friction stages
     * ({@link Iterative#frictionOfTwo}). Rows of a colour move different bodies, so a stage of one
     * row never sees the other's: the same bits as {@link #sweep}, with two independent chains of
     * arithmetic for the core to overlap.
     */
    static float sweepColour(float[] row, int rowStride, float[] soft, int[] pairs, int[] movers, float[] lambda,
            int lambdaStride, float[] state, float[] motion, int world, SoftCoefficients coefficients, boolean relax,
            boolean frictional, float[] peak, int first, int end) {
        float largest = 0.0f;
        int r = first;
        for (; r + 1 < end; r += 2) {
            int o0 = r * rowStride;
            int o1 = o0 + rowStride;
            int l0 = r * lambdaStride;
            int l1 = l0 + lambdaStride;
            int a0 = pairs[PAIR * r + LINK_A];
            int b0 = pairs[PAIR * r + LINK_B];
            int a1 = pairs[PAIR * r + PAIR + LINK_A];
            int b1 = pairs[PAIR * r + PAIR + LINK_B];
            boolean live0 = row[o0 + ROW_K] > 0.0f;
            boolean live1 = row[o1 + ROW_K] > 0.0f;
            float s0 = live0 ? separation(row, o0, soft, r * SOFT, motion, movers[PAIR * r + LINK_A],
                    movers[PAIR * r + LINK_B]) : 0.0f;
            float s1 = live1 ? separation(row, o1, soft, (r + 1) * SOFT, motion, movers[PAIR * r + PAIR + LINK_A],
                    movers[PAIR * r + PAIR + LINK_B]) : 0.0f;
            float applied0 = live0 ? softNormalImpulse(row, o0, lambda, l0, a0, b0, state, s0, coefficients, relax)
                    : 0.0f;
            float applied1 = live1 ? softNormalImpulse(row, o1, lambda, l1, a1, b1, state, s1, coefficients, relax)
                    : 0.0f;
            // an inert row is skipped by sweep: its |0| changes no largest change, as it leaves no peak
            float change0 = Math.abs(applied0);
            float change1 = Math.abs(applied1);
            if (live0) {
                Iterative.applyImpulse(row, o0, a0, b0, applied0, state, world);
                float next = lambda[l0 + ACC_N];
                peak[r] = next > peak[r] ? next : peak[r];
            }
            if (live1) {
                Iterative.applyImpulse(row, o1, a1, b1, applied1, state, world);
                float next = lambda[l1 + ACC_N];
                peak[r + 1] = next > peak[r + 1] ? next : peak[r + 1];
            }
            if (frictional) {
                largest = Math.max(largest, Iterative.frictionOfTwo(row, o0, l0, a0, b0, live0, o1, l1, a1, b1, live1,
                        lambda, lambdaStride, state, world, change0, change1));
            } else {
                largest = Math.max(largest, Math.max(change0, change1));
            }
        }
        return r < end ? Math.max(largest, sweep(row, rowStride, soft, pairs, movers, lambda, lambdaStride, state,
                motion, world, coefficients, relax, frictional, peak, r, end)) : largest;
    }

    /**
     * Step 6, rows {@code [first, end)}: a contact that approached faster than the threshold (its
     * {@code TARGET = -e v_n0 > 0}) and carried a normal impulse in this step gets the rigid normal
     * row towards {@code -e v_n0}. Returns the largest change.
     */
    static float restitution(float[] row, int rowStride, int[] pairs, float[] lambda, int lambdaStride,
            float[] state, int world, float[] peak, int first, int end) {
        float largest = 0.0f;
        for (int r = first; r < end; r++) {
            int o = r * rowStride;
            if (!(row[o + ROW_K] > 0.0f) || !(row[o + ROW_TARGET] > 0.0f) || !(peak[r] > 0.0f)) {
                continue;
            }
            float change = Iterative.solveNormal(row, o, lambda, r * lambdaStride, pairs[PAIR * r + LINK_A],
                    pairs[PAIR * r + LINK_B], state, world);
            largest = Math.max(largest, change);
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
        int m = i * MOTION;
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
        int m = i * MOTION;
        for (int f = 0; f < MOTION; f++) {
            motion[m + f] = 0.0f;
        }
        motion[m + MOTION_QW] = 1.0f;
    }

    /**
     * The end of the step for body {@code i}: {@code x = x0 + dx}, {@code q = dq q0} renormalised
     * (a body that never turned keeps its orientation bits), {@code v}, {@code w} the start's plus the
     * change (state offset {@code s}, or none: {@code s < 0}), written to {@code next}
     * ({@code BodyField} layout, stride {@code nextStride}); the change less {@code g dt} for a body
     * with mass is its delta.
     */
    static void finishBody(FloatBuffer bodies, int stride, int i, float[] state, int s, float[] motion,
            float gx, float gy, float gz, float dt, FloatBuffer next, int nextStride, FloatBuffer deltas,
            int deltaStride) {
        int m = i * MOTION;
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
            deltas.put((DELTA_DVX + axis) * deltaStride + i, heavy ? dv - (axis == 0 ? gx : axis == 1 ? gy : gz) * dt : dv);
            deltas.put((DELTA_DWX + axis) * deltaStride + i, dw);
        }
    }
}
