package io.contactsolver.cpu;

import static io.contactsolver.core.ContactRowField.*;

import io.contactsolver.core.AccumulatedImpulse;
import io.contactsolver.core.ContactRowField;
import io.contactsolver.core.FieldBlock;
import io.contactsolver.core.StateField;
import io.contactsolver.core.TargetRule;
import io.contactsolver.layout.ContactBody;
import io.contactsolver.layout.DeltaField;
import io.contactsolver.layout.ImpulseField;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;

/**
 * The iterative solve, one row at a time; the Java twin of {@code kernels/iterative.cl}.
 *
 * <p>Rows are contacts in colour order ({@code ContactColoring}). Unlike the device, which keeps
 * them structure of arrays for coalesced loads, the CPU keeps each row's {@code ContactRowField}s
 * together ({@code r * rowStride + field}) and only as many as the batch needs
 * ({@code FrictionUse.rowFields()}: 20 floats a row without friction, 55 with friction, 70 with
 * rolling resistance); each row's {@code AccumulatedImpulse}s likewise ({@code r * lambdaStride},
 * {@code FrictionUse.accumulatedImpulses()}: 1, 3 or 5), and its two bodies' state offsets
 * side by side ({@code pairs[2 r + side]}, already multiplied by the state stride). A million-row
 * loop streams all of that from memory every iteration, and a frictional row's fields as separate
 * arrays cost a TLB miss each. The layout changes where a value is stored, never how it is
 * computed. The state is each body's velocity change so far ({@code StateField}, eight floats, 32
 * bytes a body, nothing else). Tracking changes rather than velocities makes the first visit of a
 * row exactly the single pass: {@code v_n = vn0 + 0} and {@code (target - v_n) / K} is the seed
 * impulse.
 */
final class Iterative {
    private static final int S_DVX = StateField.DVX.ordinal();
    private static final int S_DVY = StateField.DVY.ordinal();
    private static final int S_DVZ = StateField.DVZ.ordinal();
    private static final int S_DWX = StateField.DWX.ordinal();
    private static final int S_DWY = StateField.DWY.ordinal();
    private static final int S_DWZ = StateField.DWZ.ordinal();
    private static final int STATE = StateField.STRIDE;
    private static final int SIDE_A = ContactBody.A.ordinal();
    private static final int L_N = AccumulatedImpulse.N.ordinal();
    private static final int L_T1 = AccumulatedImpulse.T1.ordinal();
    private static final int L_T2 = AccumulatedImpulse.T2.ordinal();
    private static final int L_R1 = AccumulatedImpulse.R1.ordinal();
    private static final int L_R2 = AccumulatedImpulse.R2.ordinal();
    private static final int W_J = ImpulseField.J.ordinal();
    private static final int W_TX = ImpulseField.TX.ordinal();
    private static final int W_RX = ImpulseField.RX.ordinal();
    private static final int R_MU = ContactRowField.MU.ordinal();
    private static final int R_RHO = ContactRowField.RHO.ordinal();
    private static final int R_T1X = ContactRowField.T1X.ordinal();
    private static final int R_T1Y = ContactRowField.T1Y.ordinal();
    private static final int R_T1Z = ContactRowField.T1Z.ordinal();
    private static final int R_T2X = ContactRowField.T2X.ordinal();
    private static final int R_T2Y = ContactRowField.T2Y.ordinal();
    private static final int R_T2Z = ContactRowField.T2Z.ordinal();
    private static final int SIDE_B = ContactBody.B.ordinal();
    private static final int PAIR = ContactBody.COUNT;
    private static final int R_K = ContactRowField.K.ordinal();

    private Iterative() {
    }

    /**
     * Fills row {@code r} of the row arrays from contact {@code c} at the pre-solve velocities. Its
     * accumulated impulses start from the warm start, or 0 for a contact neither of whose bodies
     * can move: the normal impulse as it was, the friction and rolling vectors projected onto this
     * row's tangents (what a turned normal has moved out of the tangent plane is dropped) and scaled
     * back into this row's disks.
     *
     * @param warm the warm-start impulses ({@code ImpulseField} layout, stride {@code warmStride}),
     *     or null to start from zero
     * @param scratch one contact's row, {@code ContactRowField.COUNT} floats
     * @param work the friction maths' scratch, {@code BodyMath.WORK} floats
     */
    static void prepareRow(FloatBuffer contacts, IntBuffer links, int contactStride, int c, int r, int rowStride,
            int worldRecord, float[] prepared, TargetRule rule, float[] warm, int warmStride, float[] row,
            float[] lambda, int lambdaStride, float[] scratch, float[] work) {
        int oa = BodyMath.record(links.get(ContactBody.A.ordinal() * contactStride + c), worldRecord);
        int ob = BodyMath.record(links.get(ContactBody.B.ordinal() * contactStride + c), worldRecord);
        BodyMath.evaluateContact(contacts, contactStride, c, prepared, oa, ob, rule, scratch);
        float mu = contacts.get(BodyMath.FRICTION * contactStride + c);
        float rho = contacts.get(BodyMath.ROLLING_RESISTANCE * contactStride + c);
        scratch[R_MU] = mu;
        scratch[R_RHO] = rho;
        boolean frictional = mu > 0.0f || rho > 0.0f;
        if (frictional) {
            BodyMath.evaluateFriction(contacts, contactStride, c, prepared, oa, ob, scratch, work);
        }
        // the batch decides how many fields a row keeps: a frictional row's all, a frictionless one's up to RHO
        System.arraycopy(scratch, 0, row, r * rowStride,
                frictional ? rowStride : Math.min(rowStride, ContactRowField.FRICTIONLESS_COUNT));
        int l = r * lambdaStride;
        boolean movable = scratch[K.ordinal()] > 0.0f;
        boolean warmed = warm != null && movable;
        for (int i = 0; i < lambdaStride; i++) {
            lambda[l + i] = 0.0f;
        }
        lambda[l + L_N] = warmed ? warm[W_J * warmStride + c] : 0.0f;
        if (warmed && scratch[R_MU] > 0.0f) {
            warmPair(warm, warmStride, c, W_TX, scratch, lambda, l, L_T1, L_T2,
                    scratch[R_MU] * lambda[l + L_N]);
        }
        if (warmed && scratch[R_RHO] > 0.0f) {
            warmPair(warm, warmStride, c, W_RX, scratch, lambda, l, L_R1, L_R2,
                    scratch[R_RHO] * lambda[l + L_N]);
        }
    }

    /** Starts a pair at the warm vector's components along the row's tangents, inside the disk of radius {@code limit}. */
    private static void warmPair(float[] warm, int warmStride, int c, int first, float[] scratch, float[] lambda,
            int l, int first1, int first2, float limit) {
        float x = warm[first * warmStride + c];
        float y = warm[(first + 1) * warmStride + c];
        float z = warm[(first + 2) * warmStride + c];
        lambda[l + first1] = x * scratch[R_T1X] + y * scratch[R_T1Y] + z * scratch[R_T1Z];
        lambda[l + first2] = x * scratch[R_T2X] + y * scratch[R_T2Y] + z * scratch[R_T2Z];
        projectOntoDisk(lambda, l + first1, l + first2, limit);
    }

    /** Scales the pair {@code (lambda[i], lambda[k])} back onto the disk of radius {@code limit >= 0} if it lies outside. */
    static void projectOntoDisk(float[] lambda, int i, int k, float limit) {
        float x = lambda[i];
        float y = lambda[k];
        float squared = x * x + y * y;
        if (squared > limit * limit) {
            float scale = limit / (float) Math.sqrt(squared);
            lambda[i] = x * scale;
            lambda[k] = y * scale;
        }
    }

    /**
     * Visits rows {@code [first, end)} of one colour of a batch with neither friction nor rolling
     * resistance (rows of {@code ContactRowField.NORMAL_COUNT} fields, one accumulated impulse
     * each) and returns the largest change: the loop a frictionless simulation spends its time in.
     * Rows of a colour move different bodies, so two of them are solved side by side, both read
     * before either is applied: the same bits as one after the other, with two independent chains
     * of arithmetic for the core to overlap (a row alone is one long chain through a division).
     */
    static float sweepNormalColour(float[] row, int[] pairs, float[] lambda, float[] state, int world, int first,
            int end) {
        float largest = 0.0f;
        int r = first;
        for (; r + 1 < end; r += 2) {
            int o0 = r * NORMAL_STRIDE;
            int o1 = o0 + NORMAL_STRIDE;
            int a0 = pairs[PAIR * r + SIDE_A];
            int b0 = pairs[PAIR * r + SIDE_B];
            int a1 = pairs[PAIR * r + PAIR + SIDE_A];
            int b1 = pairs[PAIR * r + PAIR + SIDE_B];
            boolean live0 = row[o0 + R_K] > 0.0f;
            boolean live1 = row[o1 + R_K] > 0.0f;
            float applied0 = live0 ? normalImpulse(row, o0, lambda, r, a0, b0, state) : 0.0f;
            float applied1 = live1 ? normalImpulse(row, o1, lambda, r + 1, a1, b1, state) : 0.0f;
            if (live0) {
                applyImpulse(row, o0, a0, b0, applied0, state, world);
                largest = Math.max(largest, Math.abs(applied0)); // Math.max lets a NaN win, as on the device
            }
            if (live1) {
                applyImpulse(row, o1, a1, b1, applied1, state, world);
                largest = Math.max(largest, Math.abs(applied1));
            }
        }
        return r < end ? Math.max(largest, sweepNormal(row, pairs, lambda, state, world, r, end)) : largest;
    }

    /** Visits rows {@code [first, end)} of a batch with neither friction nor rolling resistance one after the other. */
    static float sweepNormal(float[] row, int[] pairs, float[] lambda, float[] state, int world, int first,
            int end) {
        float largest = 0.0f;
        for (int r = first; r < end; r++) {
            int o = r * NORMAL_STRIDE;
            if (row[o + R_K] > 0.0f) {
                float change = solveNormal(row, o, lambda, r, pairs[PAIR * r + SIDE_A], pairs[PAIR * r + SIDE_B],
                        state, world);
                largest = Math.max(largest, change);
            }
        }
        return largest;
    }

    private static final int NORMAL_STRIDE = ContactRowField.NORMAL_COUNT;

    /** Visits rows {@code [first, end)} of a batch with friction, rolling resistance or both; returns the largest change. */
    static float sweep(float[] row, int rowStride, int[] pairs, float[] lambda, int lambdaStride, float[] state,
            int world, int first, int end) {
        float largest = 0.0f;
        for (int r = first; r < end; r++) {
            float change = solveRow(row, r * rowStride, lambda, r * lambdaStride, pairs[PAIR * r + SIDE_A],
                    pairs[PAIR * r + SIDE_B], state, world);
            largest = Math.max(largest, change);
        }
        return largest;
    }

    /**
     * One projected Gauss-Seidel visit of the row at {@code o} of a frictional batch: the normal
     * row, then, with friction, the tangent pair, then, with rolling resistance, the rolling pair.
     * Returns the largest change of any of its accumulated impulses (at {@code l}).
     */
    static float solveRow(float[] row, int o, float[] lambda, int l, int a, int b, float[] state, int world) {
        if (!(row[o + R_K] > 0.0f)) {
            return 0.0f;
        }
        float change = solveNormal(row, o, lambda, l, a, b, state, world);
        float next = lambda[l + L_N];
        float mu = row[o + MU.ordinal()];
        if (mu > 0.0f) {
            float tangential = solveTangents(row, o, l, a, b, lambda, state, world, mu * next);
            change = tangential > change ? tangential : change;
        }
        float rho = row[o + RHO.ordinal()];
        if (rho > 0.0f) {
            float rolling = solveRolling(row, o, l, a, b, lambda, state, world, rho * next);
            change = rolling > change ? rolling : change;
        }
        return change;
    }

    /**
     * The normal row at {@code o} (with {@code K > 0}) of bodies at state offsets {@code a} and
     * {@code b}: the impulse that brings {@code v_n} to the target, accumulated at {@code lambda[l]}
     * and clamped at zero. Returns the change of the accumulated impulse.
     */
    static float solveNormal(float[] row, int o, float[] lambda, int l, int a, int b, float[] state, int world) {
        float applied = normalImpulse(row, o, lambda, l, a, b, state);
        applyImpulse(row, o, a, b, applied, state, world);
        return Math.abs(applied);
    }

    /** The normal row's accumulation and clamp without applying it: returns the impulse to apply. */
    private static float normalImpulse(float[] row, int o, float[] lambda, int l, int a, int b, float[] state) {
        float k = row[o + R_K];
        float nx = row[o + NX.ordinal()];
        float ny = row[o + NY.ordinal()];
        float nz = row[o + NZ.ordinal()];
        float dvx = state[b + S_DVX] - state[a + S_DVX];
        float dvy = state[b + S_DVY] - state[a + S_DVY];
        float dvz = state[b + S_DVZ] - state[a + S_DVZ];
        float linear = dvx * nx + dvy * ny + dvz * nz;
        float angularB = row[o + RXN_BX.ordinal()] * state[b + S_DWX]
                + row[o + RXN_BY.ordinal()] * state[b + S_DWY]
                + row[o + RXN_BZ.ordinal()] * state[b + S_DWZ];
        float angularA = row[o + RXN_AX.ordinal()] * state[a + S_DWX]
                + row[o + RXN_AY.ordinal()] * state[a + S_DWY]
                + row[o + RXN_AZ.ordinal()] * state[a + S_DWZ];
        float vn = row[o + VN0.ordinal()] + ((linear + angularB) - angularA);
        float old = lambda[l + L_N];
        float next = old + (row[o + TARGET.ordinal()] - vn) / k;
        if (next < 0.0f) {
            next = 0.0f;
        }
        lambda[l + L_N] = next;
        return next - old;
    }

    /**
     * The tangent pair: both rows stepped with the one step size {@code k_t} from the current
     * relative velocity along t1 and t2, then scaled back onto the disk {@code |lambda_t| <= limit}
     * together. Returns the larger change of the two.
     */
    static float solveTangents(float[] row, int o, int l, int a, int b, float[] lambda, float[] state, int world,
            float limit) {
        float dvx = state[b + S_DVX] - state[a + S_DVX];
        float dvy = state[b + S_DVY] - state[a + S_DVY];
        float dvz = state[b + S_DVZ] - state[a + S_DVZ];
        float linear1 = dvx * row[o + T1X.ordinal()] + dvy * row[o + T1Y.ordinal()]
                + dvz * row[o + T1Z.ordinal()];
        float angularB1 = row[o + RXT1_BX.ordinal()] * state[b + S_DWX]
                + row[o + RXT1_BY.ordinal()] * state[b + S_DWY]
                + row[o + RXT1_BZ.ordinal()] * state[b + S_DWZ];
        float angularA1 = row[o + RXT1_AX.ordinal()] * state[a + S_DWX]
                + row[o + RXT1_AY.ordinal()] * state[a + S_DWY]
                + row[o + RXT1_AZ.ordinal()] * state[a + S_DWZ];
        float linear2 = dvx * row[o + T2X.ordinal()] + dvy * row[o + T2Y.ordinal()]
                + dvz * row[o + T2Z.ordinal()];
        float angularB2 = row[o + RXT2_BX.ordinal()] * state[b + S_DWX]
                + row[o + RXT2_BY.ordinal()] * state[b + S_DWY]
                + row[o + RXT2_BZ.ordinal()] * state[b + S_DWZ];
        float angularA2 = row[o + RXT2_AX.ordinal()] * state[a + S_DWX]
                + row[o + RXT2_AY.ordinal()] * state[a + S_DWY]
                + row[o + RXT2_AZ.ordinal()] * state[a + S_DWZ];
        float vt1 = row[o + VT1_0.ordinal()] + ((linear1 + angularB1) - angularA1);
        float vt2 = row[o + VT2_0.ordinal()] + ((linear2 + angularB2) - angularA2);
        float kt = row[o + KT.ordinal()];
        float old1 = lambda[l + L_T1];
        float old2 = lambda[l + L_T2];
        lambda[l + L_T1] = old1 - vt1 / kt;
        lambda[l + L_T2] = old2 - vt2 / kt;
        projectOntoDisk(lambda, l + L_T1, l + L_T2, limit);
        float applied1 = lambda[l + L_T1] - old1;
        float applied2 = lambda[l + L_T2] - old2;
        applyTangents(row, o, a, b, applied1, applied2, state, world);
        float change1 = Math.abs(applied1);
        float change2 = Math.abs(applied2);
        return change2 > change1 ? change2 : change1;
    }

    /** The rolling pair: as {@link #solveTangents}, on the relative angular velocity, with step size {@code k_r}. */
    static float solveRolling(float[] row, int o, int l, int a, int b, float[] lambda, float[] state, int world,
            float limit) {
        float dwx = state[b + S_DWX] - state[a + S_DWX];
        float dwy = state[b + S_DWY] - state[a + S_DWY];
        float dwz = state[b + S_DWZ] - state[a + S_DWZ];
        float w1 = row[o + WT1_0.ordinal()] + (dwx * row[o + T1X.ordinal()]
                + dwy * row[o + T1Y.ordinal()] + dwz * row[o + T1Z.ordinal()]);
        float w2 = row[o + WT2_0.ordinal()] + (dwx * row[o + T2X.ordinal()]
                + dwy * row[o + T2Y.ordinal()] + dwz * row[o + T2Z.ordinal()]);
        float kr = row[o + KR.ordinal()];
        float old1 = lambda[l + L_R1];
        float old2 = lambda[l + L_R2];
        lambda[l + L_R1] = old1 - w1 / kr;
        lambda[l + L_R2] = old2 - w2 / kr;
        projectOntoDisk(lambda, l + L_R1, l + L_R2, limit);
        float applied1 = lambda[l + L_R1] - old1;
        float applied2 = lambda[l + L_R2] - old2;
        applyRolling(row, o, a, b, applied1, applied2, state, world);
        float change1 = Math.abs(applied1);
        float change2 = Math.abs(applied2);
        return change2 > change1 ? change2 : change1;
    }

    /** Adds the velocity change of tangential impulses {@code applied1 t1 + applied2 t2}: {@code -} on a, {@code +} on b. */
    static void applyTangents(float[] row, int o, int a, int b, float applied1, float applied2,
            float[] state, int world) {
        float t1x = row[o + T1X.ordinal()];
        float t1y = row[o + T1Y.ordinal()];
        float t1z = row[o + T1Z.ordinal()];
        float t2x = row[o + T2X.ordinal()];
        float t2y = row[o + T2Y.ordinal()];
        float t2z = row[o + T2Z.ordinal()];
        if (a != world) {
            float impulse1 = -applied1;
            float impulse2 = -applied2;
            float linear1 = impulse1 * row[o + INV_MASS_A.ordinal()];
            float linear2 = impulse2 * row[o + INV_MASS_A.ordinal()];
            state[a + S_DVX] += linear1 * t1x + linear2 * t2x;
            state[a + S_DVY] += linear1 * t1y + linear2 * t2y;
            state[a + S_DVZ] += linear1 * t1z + linear2 * t2z;
            state[a + S_DWX] += impulse1 * row[o + DIRT1_AX.ordinal()]
                    + impulse2 * row[o + DIRT2_AX.ordinal()];
            state[a + S_DWY] += impulse1 * row[o + DIRT1_AY.ordinal()]
                    + impulse2 * row[o + DIRT2_AY.ordinal()];
            state[a + S_DWZ] += impulse1 * row[o + DIRT1_AZ.ordinal()]
                    + impulse2 * row[o + DIRT2_AZ.ordinal()];
        }
        if (b != world) {
            float impulse1 = applied1;
            float impulse2 = applied2;
            float linear1 = impulse1 * row[o + INV_MASS_B.ordinal()];
            float linear2 = impulse2 * row[o + INV_MASS_B.ordinal()];
            state[b + S_DVX] += linear1 * t1x + linear2 * t2x;
            state[b + S_DVY] += linear1 * t1y + linear2 * t2y;
            state[b + S_DVZ] += linear1 * t1z + linear2 * t2z;
            state[b + S_DWX] += impulse1 * row[o + DIRT1_BX.ordinal()]
                    + impulse2 * row[o + DIRT2_BX.ordinal()];
            state[b + S_DWY] += impulse1 * row[o + DIRT1_BY.ordinal()]
                    + impulse2 * row[o + DIRT2_BY.ordinal()];
            state[b + S_DWZ] += impulse1 * row[o + DIRT1_BZ.ordinal()]
                    + impulse2 * row[o + DIRT2_BZ.ordinal()];
        }
    }

    /** Adds the angular velocity change of rolling impulses {@code applied1 t1 + applied2 t2}: {@code -} on a, {@code +} on b. */
    static void applyRolling(float[] row, int o, int a, int b, float applied1, float applied2,
            float[] state, int world) {
        if (a != world) {
            float impulse1 = -applied1;
            float impulse2 = -applied2;
            state[a + S_DWX] += impulse1 * row[o + ROLL1_AX.ordinal()]
                    + impulse2 * row[o + ROLL2_AX.ordinal()];
            state[a + S_DWY] += impulse1 * row[o + ROLL1_AY.ordinal()]
                    + impulse2 * row[o + ROLL2_AY.ordinal()];
            state[a + S_DWZ] += impulse1 * row[o + ROLL1_AZ.ordinal()]
                    + impulse2 * row[o + ROLL2_AZ.ordinal()];
        }
        if (b != world) {
            float impulse1 = applied1;
            float impulse2 = applied2;
            state[b + S_DWX] += impulse1 * row[o + ROLL1_BX.ordinal()]
                    + impulse2 * row[o + ROLL2_BX.ordinal()];
            state[b + S_DWY] += impulse1 * row[o + ROLL1_BY.ordinal()]
                    + impulse2 * row[o + ROLL2_BY.ordinal()];
            state[b + S_DWZ] += impulse1 * row[o + ROLL1_BZ.ordinal()]
                    + impulse2 * row[o + ROLL2_BZ.ordinal()];
        }
    }

    /** Adds the velocity change of an impulse {@code applied} along {@code n}: {@code -} on a, {@code +} on b. */
    static void applyImpulse(float[] row, int o, int a, int b, float applied, float[] state, int world) {
        float nx = row[o + NX.ordinal()];
        float ny = row[o + NY.ordinal()];
        float nz = row[o + NZ.ordinal()];
        if (a != world) {
            float impulseA = -applied;
            float linearA = impulseA * row[o + INV_MASS_A.ordinal()];
            state[a + S_DVX] += linearA * nx;
            state[a + S_DVY] += linearA * ny;
            state[a + S_DVZ] += linearA * nz;
            state[a + S_DWX] += impulseA * row[o + DIR_AX.ordinal()];
            state[a + S_DWY] += impulseA * row[o + DIR_AY.ordinal()];
            state[a + S_DWZ] += impulseA * row[o + DIR_AZ.ordinal()];
        }
        if (b != world) {
            float impulseB = applied;
            float linearB = impulseB * row[o + INV_MASS_B.ordinal()];
            state[b + S_DVX] += linearB * nx;
            state[b + S_DVY] += linearB * ny;
            state[b + S_DVZ] += linearB * nz;
            state[b + S_DWX] += impulseB * row[o + DIR_BX.ordinal()];
            state[b + S_DWY] += impulseB * row[o + DIR_BY.ordinal()];
            state[b + S_DWZ] += impulseB * row[o + DIR_BZ.ordinal()];
        }
    }

    /** Applies the starting impulses (the warm start) of rows {@code [first, end)} to their bodies. */
    static void applyWarmStart(float[] row, int rowStride, int[] pairs, float[] lambda, int lambdaStride,
            float[] state, int world, int first, int end) {
        for (int r = first; r < end; r++) {
            int o = r * rowStride;
            int l = r * lambdaStride;
            int a = pairs[PAIR * r + SIDE_A];
            int b = pairs[PAIR * r + SIDE_B];
            applyImpulse(row, o, a, b, lambda[l + L_N], state, world);
            if (lambdaStride > L_T1 && row[o + MU.ordinal()] > 0.0f) {
                applyTangents(row, o, a, b, lambda[l + L_T1], lambda[l + L_T2], state, world);
            }
            if (lambdaStride > L_R1 && row[o + RHO.ordinal()] > 0.0f) {
                applyRolling(row, o, a, b, lambda[l + L_R1], lambda[l + L_R2], state, world);
            }
        }
    }

    /**
     * Writes row {@code r}'s impulses as contact {@code c}'s {@code ImpulseField}s: the normal
     * impulse, and the tangential and rolling vectors on b in world space (exactly +0 for a pair
     * the contact does not have; adding +0 turns a -0 from a zero impulse into +0).
     */
    static void writeImpulses(float[] row, int rowStride, int r, float[] lambda, int lambdaStride, FieldBlock impulses,
            int c) {
        int o = r * rowStride;
        int l = r * lambdaStride;
        FloatBuffer out = impulses.floats();
        int stride = impulses.stride();
        out.put(ImpulseField.J.ordinal() * stride + c, lambda[l + L_N]);
        float t1 = 0.0f;
        float t2 = 0.0f;
        if (lambdaStride > L_T1 && row[o + MU.ordinal()] > 0.0f) {
            t1 = lambda[l + L_T1];
            t2 = lambda[l + L_T2];
        }
        float r1 = 0.0f;
        float r2 = 0.0f;
        if (lambdaStride > L_R1 && row[o + RHO.ordinal()] > 0.0f) {
            r1 = lambda[l + L_R1];
            r2 = lambda[l + L_R2];
        }
        writeVector(row, o, t1, t2, out, ImpulseField.TX.ordinal() * stride + c, stride);
        writeVector(row, o, r1, r2, out, ImpulseField.RX.ordinal() * stride + c, stride);
    }

    /** Writes {@code s1 t1 + s2 t2} (+0 for a zero pair) at {@code at}, {@code at + stride}, {@code at + 2 stride}. */
    private static void writeVector(float[] row, int o, float s1, float s2, FloatBuffer out, int at,
            int stride) {
        if (s1 == 0.0f && s2 == 0.0f) {
            out.put(at, 0.0f);
            out.put(at + stride, 0.0f);
            out.put(at + 2 * stride, 0.0f);
            return;
        }
        out.put(at, (s1 * row[o + T1X.ordinal()] + s2 * row[o + T2X.ordinal()]) + 0.0f);
        out.put(at + stride, (s1 * row[o + T1Y.ordinal()] + s2 * row[o + T2Y.ordinal()]) + 0.0f);
        out.put(at + 2 * stride, (s1 * row[o + T1Z.ordinal()] + s2 * row[o + T2Z.ordinal()]) + 0.0f);
    }

    /** Copies body {@code i}'s accumulated change into the deltas (SoA, {@code deltaStride}). */
    static void writeDeltas(float[] state, int i, FloatBuffer deltas, int deltaStride) {
        int s = i * STATE;
        deltas.put(DeltaField.DVX.ordinal() * deltaStride + i, state[s + S_DVX]);
        deltas.put(DeltaField.DVY.ordinal() * deltaStride + i, state[s + S_DVY]);
        deltas.put(DeltaField.DVZ.ordinal() * deltaStride + i, state[s + S_DVZ]);
        deltas.put(DeltaField.DWX.ordinal() * deltaStride + i, state[s + S_DWX]);
        deltas.put(DeltaField.DWY.ordinal() * deltaStride + i, state[s + S_DWY]);
        deltas.put(DeltaField.DWZ.ordinal() * deltaStride + i, state[s + S_DWZ]);
    }
}
