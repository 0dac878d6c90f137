package io.contactsolver.cpu;

import static io.contactsolver.core.FieldOffsets.*;
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
 * rolling resistance, 79 with torsional resistance); each row's {@code AccumulatedImpulse}s
 * likewise ({@code r * lambdaStride}, {@code FrictionUse.accumulatedImpulses()}: 1, 3, 5 or 6),
 * and its two bodies' state offsets side by side ({@code pairs[2 r + side]}, already multiplied
 * by the state stride). A million-row loop streams all of that from memory every iteration, and a
 * frictional row's fields as separate arrays cost a TLB miss each. The layout changes where a
 * value is stored, never how it is computed. The state is each body's velocity change so far
 * ({@code StateField}, eight floats, 32 bytes a body, nothing else). Tracking changes rather than
 * velocities makes the first visit of a row exactly the single pass: {@code v_n = vn0 + 0} and
 * {@code (target - v_n) / K} is the single-pass impulse.
 *
 * <p>The row update is written once, {@link #solveRow} ({@link #normalImpulse} then
 * {@link #finishRow}), the twin of {@code solve_row}; the in-order sweep visits rows through it.
 * Two things the device does not need: rows of a colour are visited two at a time, each stage of
 * both rows before the next ({@link #sweepNormalColour}, {@link #sweepColour}: the row update's
 * stages interleaved, written apart because measurably faster), and the steps of a row
 * are methods small enough for C2 to inline into the loop (under {@code FreqInlineSize}, 325 bytes
 * of bytecode; hence the row fields as the int constants of {@code FieldOffsets} and the tangent step
 * in pieces). Neither changes a bit. The methods paired with functions of the kernel come in the kernel's order
 * (docs/twins.md; {@code TwinStructureTest} checks both).
 */
final class Iterative {
    private static final int STATE = StateField.STRIDE;
    private static final int PAIR = ContactBody.COUNT;

    private Iterative() {
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

    /** Starts a pair at the warm vector's components along the row's tangents, inside the disk of radius {@code limit}. */
    private static void warmPair(float[] warm, int warmStride, int c, int first, float[] scratch, float[] lambda,
            int l, int first1, int first2, float limit) {
        float x = warm[first * warmStride + c];
        float y = warm[(first + 1) * warmStride + c];
        float z = warm[(first + 2) * warmStride + c];
        lambda[l + first1] = x * scratch[ROW_T1X] + y * scratch[ROW_T1Y] + z * scratch[ROW_T1Z];
        lambda[l + first2] = x * scratch[ROW_T2X] + y * scratch[ROW_T2Y] + z * scratch[ROW_T2Z];
        projectOntoDisk(lambda, l + first1, l + first2, limit);
    }

    /** {@code value} clamped into {@code [-limit, limit]} ({@code limit >= 0}); a NaN stays NaN. */
    static float clampMagnitude(float value, float limit) {
        return value > limit ? limit : value < -limit ? -limit : value;
    }

    /** Starts the twist at the warm angular vector's component along the row's normal, clamped into {@code [-limit, limit]}. */
    private static void warmTwist(float[] warm, int warmStride, int c, float[] scratch, float[] lambda, int l,
            float limit) {
        float x = warm[IMPULSE_RX * warmStride + c];
        float y = warm[IMPULSE_RY * warmStride + c];
        float z = warm[IMPULSE_RZ * warmStride + c];
        lambda[l + ACC_TW] = clampMagnitude(x * scratch[ROW_NX] + y * scratch[ROW_NY] + z * scratch[ROW_NZ], limit);
    }

    /**
     * Fills row {@code r} of the row arrays from contact {@code c} at the pre-solve velocities. Its
     * accumulated impulses start from the warm start, or 0 for a contact neither of whose bodies
     * can move: the normal impulse as it was, the friction and rolling vectors projected onto this
     * row's tangents (what a turned normal has moved out of the tangent plane is dropped) and scaled
     * back into this row's disks, the twist the angular vector's component along this row's normal,
     * clamped into its limit.
     *
     * @param warm the warm-start impulses ({@code ImpulseField} layout, stride {@code warmStride}),
     *     or null to start from zero
     * @param useFriction false when the solve ignores every contact's friction, rolling and
     *     torsional resistance
     * @param scratch one contact's row, {@code ContactRowField.COUNT} floats
     * @param work the friction maths' scratch, {@code BodyMath.WORK} floats
     */
    static void prepareRow(FloatBuffer contacts, IntBuffer links, int contactStride, int c, int r, int rowStride,
            int worldRecord, float[] prepared, TargetRule rule, boolean useFriction, float[] warm, int warmStride,
            float[] row,
            float[] lambda, int lambdaStride, float[] scratch, float[] work) {
        int oa = BodyMath.record(links.get(LINK_A * contactStride + c), worldRecord);
        int ob = BodyMath.record(links.get(LINK_B * contactStride + c), worldRecord);
        BodyMath.evaluateContact(contacts, contactStride, c, prepared, oa, ob, rule, scratch);
        float mu = useFriction ? contacts.get(CONTACT_FRICTION * contactStride + c) : 0.0f;
        float rho = useFriction ? contacts.get(CONTACT_ROLLING_RESISTANCE * contactStride + c) : 0.0f;
        float tau = useFriction ? contacts.get(CONTACT_TORSION * contactStride + c) : 0.0f;
        scratch[ROW_MU] = mu;
        scratch[ROW_RHO] = rho;
        scratch[ROW_TAU] = tau;
        boolean frictional = mu > 0.0f || rho > 0.0f || tau > 0.0f;
        if (frictional) {
            BodyMath.evaluateFriction(contacts, contactStride, c, prepared, oa, ob, scratch, work);
            BodyMath.evaluateTwist(prepared, oa, ob, scratch);
        }
        // the batch decides how many fields a row keeps: a frictional row's all, a frictionless one's up to RHO
        System.arraycopy(scratch, 0, row, r * rowStride,
                frictional ? rowStride : Math.min(rowStride, ContactRowField.FRICTIONLESS_COUNT));
        if (rowStride > ROW_TAU) {
            // a batch with torsion reads every row's TAU: a frictionless row's says it has none
            row[r * rowStride + ROW_TAU] = scratch[ROW_TAU];
        }
        int l = r * lambdaStride;
        boolean movable = scratch[ROW_K] > 0.0f;
        boolean warmed = warm != null && movable;
        for (int i = 0; i < lambdaStride; i++) {
            lambda[l + i] = 0.0f;
        }
        lambda[l + ACC_N] = warmed ? warm[IMPULSE_J * warmStride + c] : 0.0f;
        if (warmed && scratch[ROW_MU] > 0.0f) {
            warmPair(warm, warmStride, c, IMPULSE_TX, scratch, lambda, l, ACC_T1, ACC_T2,
                    scratch[ROW_MU] * lambda[l + ACC_N]);
        }
        if (warmed && scratch[ROW_RHO] > 0.0f) {
            warmPair(warm, warmStride, c, IMPULSE_RX, scratch, lambda, l, ACC_R1, ACC_R2,
                    scratch[ROW_RHO] * lambda[l + ACC_N]);
        }
        if (warmed && scratch[ROW_TAU] > 0.0f) {
            warmTwist(warm, warmStride, c, scratch, lambda, l, scratch[ROW_TAU] * lambda[l + ACC_N]);
        }
    }

    /** Adds the velocity change of an impulse {@code applied} along {@code n}: {@code -} on a, {@code +} on b. */
    static void applyImpulse(float[] row, int o, int a, int b, float applied, float[] state, int world) {
        float nx = row[o + ROW_NX];
        float ny = row[o + ROW_NY];
        float nz = row[o + ROW_NZ];
        if (a != world) {
            float impulseA = -applied;
            float linearA = impulseA * row[o + ROW_INV_MASS_A];
            state[a + STATE_DVX] += linearA * nx;
            state[a + STATE_DVY] += linearA * ny;
            state[a + STATE_DVZ] += linearA * nz;
            state[a + STATE_DWX] += impulseA * row[o + ROW_DIR_AX];
            state[a + STATE_DWY] += impulseA * row[o + ROW_DIR_AY];
            state[a + STATE_DWZ] += impulseA * row[o + ROW_DIR_AZ];
        }
        if (b != world) {
            float impulseB = applied;
            float linearB = impulseB * row[o + ROW_INV_MASS_B];
            state[b + STATE_DVX] += linearB * nx;
            state[b + STATE_DVY] += linearB * ny;
            state[b + STATE_DVZ] += linearB * nz;
            state[b + STATE_DWX] += impulseB * row[o + ROW_DIR_BX];
            state[b + STATE_DWY] += impulseB * row[o + ROW_DIR_BY];
            state[b + STATE_DWZ] += impulseB * row[o + ROW_DIR_BZ];
        }
    }

    /**
     * Adds to the body at state offset {@code s} the velocity change of impulses {@code impulse1 t1
     * + impulse2 t2}: the side's inverse mass at field {@code inverseMass}, its {@code I^-1 (r x t_i)}
     * at {@code dirt1} and {@code dirt2} (x, y, z triples).
     */
    private static void addTangential(float[] row, int o, int s, float impulse1, float impulse2, int inverseMass,
            int dirt1, int dirt2, float[] state) {
        float linear1 = impulse1 * row[o + inverseMass];
        float linear2 = impulse2 * row[o + inverseMass];
        state[s + STATE_DVX] += linear1 * row[o + ROW_T1X] + linear2 * row[o + ROW_T2X];
        state[s + STATE_DVY] += linear1 * row[o + ROW_T1Y] + linear2 * row[o + ROW_T2Y];
        state[s + STATE_DVZ] += linear1 * row[o + ROW_T1Z] + linear2 * row[o + ROW_T2Z];
        state[s + STATE_DWX] += impulse1 * row[o + dirt1] + impulse2 * row[o + dirt2];
        state[s + STATE_DWY] += impulse1 * row[o + dirt1 + 1] + impulse2 * row[o + dirt2 + 1];
        state[s + STATE_DWZ] += impulse1 * row[o + dirt1 + 2] + impulse2 * row[o + dirt2 + 2];
    }

    /** Adds the velocity change of tangential impulses {@code applied1 t1 + applied2 t2}: {@code -} on a, {@code +} on b. */
    static void applyTangents(float[] row, int o, int a, int b, float applied1, float applied2,
            float[] state, int world) {
        if (a != world) {
            addTangential(row, o, a, -applied1, -applied2, ROW_INV_MASS_A, ROW_DIRT1_AX, ROW_DIRT2_AX, state);
        }
        if (b != world) {
            addTangential(row, o, b, applied1, applied2, ROW_INV_MASS_B, ROW_DIRT1_BX, ROW_DIRT2_BX, state);
        }
    }

    /** Adds the angular velocity change of rolling impulses {@code applied1 t1 + applied2 t2}: {@code -} on a, {@code +} on b. */
    static void applyRolling(float[] row, int o, int a, int b, float applied1, float applied2,
            float[] state, int world) {
        if (a != world) {
            float impulse1 = -applied1;
            float impulse2 = -applied2;
            state[a + STATE_DWX] += impulse1 * row[o + ROW_ROLL1_AX]
                    + impulse2 * row[o + ROW_ROLL2_AX];
            state[a + STATE_DWY] += impulse1 * row[o + ROW_ROLL1_AY]
                    + impulse2 * row[o + ROW_ROLL2_AY];
            state[a + STATE_DWZ] += impulse1 * row[o + ROW_ROLL1_AZ]
                    + impulse2 * row[o + ROW_ROLL2_AZ];
        }
        if (b != world) {
            float impulse1 = applied1;
            float impulse2 = applied2;
            state[b + STATE_DWX] += impulse1 * row[o + ROW_ROLL1_BX]
                    + impulse2 * row[o + ROW_ROLL2_BX];
            state[b + STATE_DWY] += impulse1 * row[o + ROW_ROLL1_BY]
                    + impulse2 * row[o + ROW_ROLL2_BY];
            state[b + STATE_DWZ] += impulse1 * row[o + ROW_ROLL1_BZ]
                    + impulse2 * row[o + ROW_ROLL2_BZ];
        }
    }

    /** Adds the angular velocity change of a twist impulse {@code applied} about n: {@code -} on a, {@code +} on b. */
    static void applyTwist(float[] row, int o, int a, int b, float applied, float[] state, int world) {
        if (a != world) {
            float impulseA = -applied;
            state[a + STATE_DWX] += impulseA * row[o + ROW_TWIST_AX];
            state[a + STATE_DWY] += impulseA * row[o + ROW_TWIST_AY];
            state[a + STATE_DWZ] += impulseA * row[o + ROW_TWIST_AZ];
        }
        if (b != world) {
            float impulseB = applied;
            state[b + STATE_DWX] += impulseB * row[o + ROW_TWIST_BX];
            state[b + STATE_DWY] += impulseB * row[o + ROW_TWIST_BY];
            state[b + STATE_DWZ] += impulseB * row[o + ROW_TWIST_BZ];
        }
    }

    /**
     * The relative contact velocity along one tangent: the row's tangent at field {@code t}, its
     * {@code r x t} of each side at {@code rxtA} and {@code rxtB} (each an x, y, z triple), its
     * starting velocity at {@code v0}. A method of its own so that the tangent step stays small
     * enough for C2 to inline into the loop.
     */
    private static float tangentVelocity(float[] row, int o, int a, int b, float[] state, int t, int rxtA, int rxtB,
            int v0) {
        float dvx = state[b + STATE_DVX] - state[a + STATE_DVX];
        float dvy = state[b + STATE_DVY] - state[a + STATE_DVY];
        float dvz = state[b + STATE_DVZ] - state[a + STATE_DVZ];
        float linear = dvx * row[o + t] + dvy * row[o + t + 1] + dvz * row[o + t + 2];
        float angularB = row[o + rxtB] * state[b + STATE_DWX]
                + row[o + rxtB + 1] * state[b + STATE_DWY]
                + row[o + rxtB + 2] * state[b + STATE_DWZ];
        float angularA = row[o + rxtA] * state[a + STATE_DWX]
                + row[o + rxtA + 1] * state[a + STATE_DWY]
                + row[o + rxtA + 2] * state[a + STATE_DWZ];
        return row[o + v0] + ((linear + angularB) - angularA);
    }

    /** The tangent pair's new accumulated impulses, stepped and projected onto the disk, not yet applied. */
    private static void stepTangents(float[] row, int o, int l, int a, int b, float[] lambda, float[] state,
            float limit) {
        float vt1 = tangentVelocity(row, o, a, b, state, ROW_T1X, ROW_RXT1_AX, ROW_RXT1_BX, ROW_VT1_0);
        float vt2 = tangentVelocity(row, o, a, b, state, ROW_T2X, ROW_RXT2_AX, ROW_RXT2_BX, ROW_VT2_0);
        float kt = row[o + ROW_KT];
        float old1 = lambda[l + ACC_T1];
        float old2 = lambda[l + ACC_T2];
        lambda[l + ACC_T1] = old1 - vt1 / kt;
        lambda[l + ACC_T2] = old2 - vt2 / kt;
        projectOntoDisk(lambda, l + ACC_T1, l + ACC_T2, limit);
    }

    /** Applies a stepped tangent pair, accumulated at {@code old1}, {@code old2} before; returns the larger change. */
    private static float applyTangentsStep(float[] row, int o, int l, int a, int b, float old1, float old2,
            float[] lambda, float[] state, int world) {
        float applied1 = lambda[l + ACC_T1] - old1;
        float applied2 = lambda[l + ACC_T2] - old2;
        applyTangents(row, o, a, b, applied1, applied2, state, world);
        float change1 = Math.abs(applied1);
        float change2 = Math.abs(applied2);
        return change2 > change1 ? change2 : change1;
    }

    /**
     * The tangent pair: both rows stepped with the one step size {@code k_t} from the current
     * relative velocity along t1 and t2, then scaled back onto the disk {@code |lambda_t| <= limit}
     * together. Returns the larger change of the two.
     */
    static float solveTangents(float[] row, int o, int l, int a, int b, float[] lambda, float[] state, int world,
            float limit) {
        float old1 = lambda[l + ACC_T1];
        float old2 = lambda[l + ACC_T2];
        stepTangents(row, o, l, a, b, lambda, state, limit);
        return applyTangentsStep(row, o, l, a, b, old1, old2, lambda, state, world);
    }

    /**
     * The relative angular velocity {@code w_b - w_a} along one axis of the row: the axis at field
     * {@code axis} (an x, y, z triple), its starting value at {@code w0}.
     */
    private static float angularVelocity(float[] row, int o, int a, int b, float[] state, int axis, int w0) {
        float dwx = state[b + STATE_DWX] - state[a + STATE_DWX];
        float dwy = state[b + STATE_DWY] - state[a + STATE_DWY];
        float dwz = state[b + STATE_DWZ] - state[a + STATE_DWZ];
        return row[o + w0] + (dwx * row[o + axis] + dwy * row[o + axis + 1] + dwz * row[o + axis + 2]);
    }

    /** The rolling pair's new accumulated impulses, stepped and projected onto the disk, not yet applied. */
    private static void stepRolling(float[] row, int o, int l, int a, int b, float[] lambda, float[] state,
            float limit) {
        float w1 = angularVelocity(row, o, a, b, state, ROW_T1X, ROW_WT1_0);
        float w2 = angularVelocity(row, o, a, b, state, ROW_T2X, ROW_WT2_0);
        float kr = row[o + ROW_KR];
        float old1 = lambda[l + ACC_R1];
        float old2 = lambda[l + ACC_R2];
        lambda[l + ACC_R1] = old1 - w1 / kr;
        lambda[l + ACC_R2] = old2 - w2 / kr;
        projectOntoDisk(lambda, l + ACC_R1, l + ACC_R2, limit);
    }

    /** Applies a stepped rolling pair, accumulated at {@code old1}, {@code old2} before; returns the larger change. */
    private static float applyRollingStep(float[] row, int o, int l, int a, int b, float old1, float old2,
            float[] lambda, float[] state, int world) {
        float applied1 = lambda[l + ACC_R1] - old1;
        float applied2 = lambda[l + ACC_R2] - old2;
        applyRolling(row, o, a, b, applied1, applied2, state, world);
        float change1 = Math.abs(applied1);
        float change2 = Math.abs(applied2);
        return change2 > change1 ? change2 : change1;
    }

    /** The rolling pair: as {@link #solveTangents}, on the relative angular velocity, with step size {@code k_r}. */
    static float solveRolling(float[] row, int o, int l, int a, int b, float[] lambda, float[] state, int world,
            float limit) {
        float old1 = lambda[l + ACC_R1];
        float old2 = lambda[l + ACC_R2];
        stepRolling(row, o, l, a, b, lambda, state, limit);
        return applyRollingStep(row, o, l, a, b, old1, old2, lambda, state, world);
    }

    /** The twist's new accumulated impulse, stepped and clamped into {@code [-limit, limit]}, not yet applied. */
    private static void stepTwist(float[] row, int o, int l, int a, int b, float[] lambda, float[] state,
            float limit) {
        float spin = angularVelocity(row, o, a, b, state, ROW_NX, ROW_WN_0);
        float old = lambda[l + ACC_TW];
        lambda[l + ACC_TW] = clampMagnitude(old - spin / row[o + ROW_KTW], limit);
    }

    /** Applies a stepped twist, accumulated at {@code old} before; returns its change. */
    private static float applyTwistStep(float[] row, int o, int l, int a, int b, float old, float[] lambda,
            float[] state, int world) {
        float applied = lambda[l + ACC_TW] - old;
        applyTwist(row, o, a, b, applied, state, world);
        return Math.abs(applied);
    }

    /**
     * The twist stage of a row visit of a batch with torsional resistance, after its friction
     * stages, the normal row having left {@code next} accumulated: where {@code tau > 0}, the twist
     * stepped with step size {@code k_tw} from the current relative angular velocity along n, then
     * clamped into {@code |lambda_tw| <= tau next}. Returns the larger of {@code change} and its
     * change.
     */
    static float solveTwist(float[] row, int o, int l, int a, int b, float[] lambda, float[] state, int world,
            float next, float change) {
        float tau = row[o + ROW_TAU];
        if (!(tau > 0.0f)) {
            return change;
        }
        float old = lambda[l + ACC_TW];
        stepTwist(row, o, l, a, b, lambda, state, tau * next);
        float twisting = applyTwistStep(row, o, l, a, b, old, lambda, state, world);
        return twisting > change ? twisting : change;
    }

    /**
     * The row's current normal velocity: {@code VN0} plus what its bodies' velocity changes so far
     * (state offsets {@code a}, {@code b}) add along n.
     */
    static float normalVelocity(float[] row, int o, int a, int b, float[] state) {
        float dvx = state[b + STATE_DVX] - state[a + STATE_DVX];
        float dvy = state[b + STATE_DVY] - state[a + STATE_DVY];
        float dvz = state[b + STATE_DVZ] - state[a + STATE_DVZ];
        float linear = dvx * row[o + ROW_NX] + dvy * row[o + ROW_NY] + dvz * row[o + ROW_NZ];
        float angularB = row[o + ROW_RXN_BX] * state[b + STATE_DWX]
                + row[o + ROW_RXN_BY] * state[b + STATE_DWY]
                + row[o + ROW_RXN_BZ] * state[b + STATE_DWZ];
        float angularA = row[o + ROW_RXN_AX] * state[a + STATE_DWX]
                + row[o + ROW_RXN_AY] * state[a + STATE_DWY]
                + row[o + ROW_RXN_AZ] * state[a + STATE_DWZ];
        return row[o + ROW_VN0] + ((linear + angularB) - angularA);
    }

    /** The normal row's accumulation and clamp without applying it: returns the impulse to apply. */
    private static float normalImpulse(float[] row, int o, float[] lambda, int l, int a, int b, float[] state) {
        float vn = normalVelocity(row, o, a, b, state);
        float old = lambda[l + ACC_N];
        float next = old + (row[o + ROW_TARGET] - vn) / row[o + ROW_K];
        if (next < 0.0f) {
            next = 0.0f;
        }
        lambda[l + ACC_N] = next;
        return next - old;
    }

    /**
     * The friction stages of a row visit after its normal row, which left {@code next} accumulated:
     * the tangent pair (disk {@code mu next}) where {@code mu > 0}, then the rolling pair (disk
     * {@code rho next}) where {@code rho > 0}. Returns the largest of {@code change} and their changes.
     */
    static float solveFrictionPairs(float[] row, int o, int l, int a, int b, float[] lambda, float[] state, int world,
            float next, float change) {
        float mu = row[o + ROW_MU];
        if (mu > 0.0f) {
            float tangential = solveTangents(row, o, l, a, b, lambda, state, world, mu * next);
            change = tangential > change ? tangential : change;
        }
        float rho = row[o + ROW_RHO];
        if (rho > 0.0f) {
            float rolling = solveRolling(row, o, l, a, b, lambda, state, world, rho * next);
            change = rolling > change ? rolling : change;
        }
        return change;
    }

    /**
     * The rest of a row visit once its normal impulse {@code applied} is known: the normal impulse
     * applied, then, in a frictional batch, the friction stages ({@link #solveFrictionPairs}) and,
     * in a batch with torsional resistance ({@code twist}), the twist ({@link #solveTwist}),
     * on the disks of the normal impulse now accumulated. Returns the largest change.
     */
    static float finishRow(float[] row, int o, float[] lambda, int l, int a, int b, float[] state, int world,
            float applied, boolean frictional, boolean twist) {
        applyImpulse(row, o, a, b, applied, state, world);
        float change = Math.abs(applied);
        if (frictional) {
            change = solveFrictionPairs(row, o, l, a, b, lambda, state, world, lambda[l + ACC_N], change);
        }
        if (twist) {
            change = solveTwist(row, o, l, a, b, lambda, state, world, lambda[l + ACC_N], change);
        }
        return change;
    }

    /**
     * The normal row alone at {@code o} (with {@code K > 0}) of bodies at state offsets {@code a}
     * and {@code b}, applied to both: the row update without its friction stages. Returns the
     * change of its accumulated impulse.
     */
    static float solveNormal(float[] row, int o, float[] lambda, int l, int a, int b, float[] state, int world) {
        return finishRow(row, o, lambda, l, a, b, state, world, normalImpulse(row, o, lambda, l, a, b, state), false,
                false);
    }

    /**
     * The row update: one projected Gauss-Seidel visit of the row at {@code o} (accumulated impulses
     * at {@code l}) of bodies at state offsets {@code a} and {@code b}: its normal impulse
     * ({@link #normalImpulse}), then the rest of the visit ({@link #finishRow}). Returns the
     * largest change of any of its accumulated impulses, 0 for a row neither of whose bodies can
     * move. Every sweep visits rows through these two.
     *
     * @param frictional whether the batch's rows have friction and rolling fields (a row of such a
     *     batch may still have neither)
     * @param twist whether they have the twist fields too (the batch has torsional resistance)
     */
    static float solveRow(float[] row, int o, float[] lambda, int l, int a, int b, float[] state, int world,
            boolean frictional, boolean twist) {
        if (!(row[o + ROW_K] > 0.0f)) {
            return 0.0f;
        }
        return finishRow(row, o, lambda, l, a, b, state, world, normalImpulse(row, o, lambda, l, a, b, state),
                frictional, twist);
    }

    /**
     * Visits rows {@code [first, end)} one after the other, as the overflow rows (which may share a
     * body) must be visited; returns the largest change. Rows of {@code rowStride} fields and
     * {@code lambdaStride} accumulated impulses ({@code FrictionUse.rowFields()},
     * {@code accumulatedImpulses()}): a batch with one impulse a row has neither friction nor
     * rolling resistance, and its rows lack the fields of both.
     */
    static float sweep(float[] row, int rowStride, int[] pairs, float[] lambda, int lambdaStride, float[] state,
            int world, int first, int end) {
        boolean frictional = lambdaStride > ACC_T1;
        boolean twist = lambdaStride > ACC_TW;
        float largest = 0.0f;
        for (int r = first; r < end; r++) {
            float change = solveRow(row, r * rowStride, lambda, r * lambdaStride, pairs[PAIR * r + LINK_A],
                    pairs[PAIR * r + LINK_B], state, world, frictional, twist);
            largest = Math.max(largest, change); // Math.max lets a NaN win, as on the device
        }
        return largest;
    }

    /** A frictionless batch's row: its fields up to {@code MU}, one accumulated impulse. */
    private static final int NORMAL_STRIDE = ContactRowField.NORMAL_COUNT;

    /**
     * Visits rows {@code [first, end)} of one colour of a batch with neither friction nor rolling
     * resistance (rows of {@link #NORMAL_STRIDE} fields, one accumulated impulse each) and returns
     * the largest change: the loop a frictionless simulation spends its time in. Rows of a colour
     * move different bodies, so two of them are solved side by side, the second row's normal
     * impulse computed before the first row is finished ({@link #finishRow}): the same bits as
     * {@link #solveRow} one after the other, with two independent chains of arithmetic for the core
     * to overlap (a row alone is one long chain through a division). Written apart from
     * {@link #sweepColour}, with a constant stride, because that is measurably faster
     * (docs/twins.md).
     */
    static float sweepNormalColour(float[] row, int[] pairs, float[] lambda, float[] state, int world, int first,
            int end) {
        float largest = 0.0f;
        int r = first;
        for (; r + 1 < end; r += 2) {
            int o0 = r * NORMAL_STRIDE;
            int o1 = o0 + NORMAL_STRIDE;
            int a0 = pairs[PAIR * r + LINK_A];
            int b0 = pairs[PAIR * r + LINK_B];
            int a1 = pairs[PAIR * r + PAIR + LINK_A];
            int b1 = pairs[PAIR * r + PAIR + LINK_B];
            boolean live0 = row[o0 + ROW_K] > 0.0f;
            boolean live1 = row[o1 + ROW_K] > 0.0f;
            float applied0 = live0 ? normalImpulse(row, o0, lambda, r, a0, b0, state) : 0.0f;
            float applied1 = live1 ? normalImpulse(row, o1, lambda, r + 1, a1, b1, state) : 0.0f;
            if (live0) {
                // Math.max lets a NaN win, as on the device
                largest = Math.max(largest, finishRow(row, o0, lambda, r, a0, b0, state, world, applied0, false,
                        false));
            }
            if (live1) {
                largest = Math.max(largest, finishRow(row, o1, lambda, r + 1, a1, b1, state, world, applied1, false,
                        false));
            }
        }
        return r < end ? Math.max(largest, sweep(row, NORMAL_STRIDE, pairs, lambda, 1, state, world, r, end))
                : largest;
    }

    /**
     * Visits rows {@code [first, end)} of one colour of a frictional batch, two side by side as in
     * {@link #sweepNormalColour}: each stage of the row update ({@link #solveRow}: normal row,
     * tangent pair, rolling pair) of both rows is computed before either is applied, with the
     * stage methods, conditions and disks of {@link #finishRow}, then each row's twist. Rows of a colour move different
     * bodies, so a stage of one row never sees the other's: the same bits as {@link #sweep}.
     * Written apart from the row update because the interleaving pays (docs/twins.md).
     */
    static float sweepColour(float[] row, int rowStride, int[] pairs, float[] lambda, int lambdaStride, float[] state,
            int world, int first, int end) {
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
            float applied0 = live0 ? normalImpulse(row, o0, lambda, l0, a0, b0, state) : 0.0f;
            float applied1 = live1 ? normalImpulse(row, o1, lambda, l1, a1, b1, state) : 0.0f;
            // each row's change is combined as solveRow combines it, then into the largest
            float change0 = Math.abs(applied0);
            float change1 = Math.abs(applied1);
            if (live0) {
                applyImpulse(row, o0, a0, b0, applied0, state, world);
            }
            if (live1) {
                applyImpulse(row, o1, a1, b1, applied1, state, world);
            }
            // an inert row has no friction stages, as in solveRow, which returns before them
            largest = Math.max(largest, frictionOfTwo(row, o0, l0, a0, b0, live0, o1, l1, a1, b1, live1, lambda,
                    lambdaStride, state, world, change0, change1));
        }
        return r < end ? Math.max(largest, sweep(row, rowStride, pairs, lambda, lambdaStride, state, world, r, end))
                : largest;
    }

    /**
     * The friction stages of two rows of one colour whose normal rows are applied (changes so far
     * {@code change0}, {@code change1}), each stage of both rows before the next, as
     * {@link #sweepColour} visits them: the tangent pairs, then the rolling pairs, with the
     * conditions and disks of {@link #solveFrictionPairs}, then, in a batch with torsional
     * resistance, each row's twist ({@link #solveTwist}). Returns the larger of the two rows'
     * largest changes.
     */
    static float frictionOfTwo(float[] row, int o0, int l0, int a0, int b0, boolean live0, int o1, int l1, int a1,
            int b1, boolean live1, float[] lambda, int lambdaStride, float[] state, int world, float change0,
            float change1) {
        float mu0 = live0 ? row[o0 + ROW_MU] : 0.0f;
        float mu1 = live1 ? row[o1 + ROW_MU] : 0.0f;
        float old01 = lambda[l0 + ACC_T1];
        float old02 = lambda[l0 + ACC_T2];
        float old11 = lambda[l1 + ACC_T1];
        float old12 = lambda[l1 + ACC_T2];
        if (mu0 > 0.0f) {
            stepTangents(row, o0, l0, a0, b0, lambda, state, mu0 * lambda[l0 + ACC_N]);
        }
        if (mu1 > 0.0f) {
            stepTangents(row, o1, l1, a1, b1, lambda, state, mu1 * lambda[l1 + ACC_N]);
        }
        if (mu0 > 0.0f) {
            float tangential = applyTangentsStep(row, o0, l0, a0, b0, old01, old02, lambda, state, world);
            change0 = tangential > change0 ? tangential : change0;
        }
        if (mu1 > 0.0f) {
            float tangential = applyTangentsStep(row, o1, l1, a1, b1, old11, old12, lambda, state, world);
            change1 = tangential > change1 ? tangential : change1;
        }
        if (lambdaStride > ACC_R1) {
            float rho0 = live0 ? row[o0 + ROW_RHO] : 0.0f;
            float rho1 = live1 ? row[o1 + ROW_RHO] : 0.0f;
            float roll01 = lambda[l0 + ACC_R1];
            float roll02 = lambda[l0 + ACC_R2];
            float roll11 = lambda[l1 + ACC_R1];
            float roll12 = lambda[l1 + ACC_R2];
            if (rho0 > 0.0f) {
                stepRolling(row, o0, l0, a0, b0, lambda, state, rho0 * lambda[l0 + ACC_N]);
            }
            if (rho1 > 0.0f) {
                stepRolling(row, o1, l1, a1, b1, lambda, state, rho1 * lambda[l1 + ACC_N]);
            }
            if (rho0 > 0.0f) {
                float rolling = applyRollingStep(row, o0, l0, a0, b0, roll01, roll02, lambda, state, world);
                change0 = rolling > change0 ? rolling : change0;
            }
            if (rho1 > 0.0f) {
                float rolling = applyRollingStep(row, o1, l1, a1, b1, roll11, roll12, lambda, state, world);
                change1 = rolling > change1 ? rolling : change1;
            }
        }
        if (lambdaStride > ACC_TW) {
            // the twists one row after the other, through the row update's own stage: a short stage,
            // and rows of a colour share no body, so the same bits as stepping both before applying
            if (live0) {
                change0 = solveTwist(row, o0, l0, a0, b0, lambda, state, world, lambda[l0 + ACC_N], change0);
            }
            if (live1) {
                change1 = solveTwist(row, o1, l1, a1, b1, lambda, state, world, lambda[l1 + ACC_N], change1);
            }
        }
        // an inert row's: |0|, as solveRow returns for it; Math.max lets a NaN win, as on the device
        return Math.max(change0, change1);
    }

    /** Applies the starting impulses (the warm start) of the row at {@code o} (impulses at {@code l}) to its bodies. */
    static void applyWarmStartRow(float[] row, int o, float[] lambda, int l, int lambdaStride, int a, int b,
            float[] state, int world) {
        boolean twist = lambdaStride > ACC_TW;
        applyImpulse(row, o, a, b, lambda[l + ACC_N], state, world);
        if (lambdaStride > ACC_T1 && row[o + ROW_MU] > 0.0f) {
            applyTangents(row, o, a, b, lambda[l + ACC_T1], lambda[l + ACC_T2], state, world);
        }
        if (lambdaStride > ACC_R1 && row[o + ROW_RHO] > 0.0f) {
            applyRolling(row, o, a, b, lambda[l + ACC_R1], lambda[l + ACC_R2], state, world);
        }
        if (twist && row[o + ROW_TAU] > 0.0f) {
            applyTwist(row, o, a, b, lambda[l + ACC_TW], state, world);
        }
    }

    /** Applies the starting impulses (the warm start) of rows {@code [first, end)} to their bodies. */
    static void applyWarmStart(float[] row, int rowStride, int[] pairs, float[] lambda, int lambdaStride,
            float[] state, int world, int first, int end) {
        for (int r = first; r < end; r++) {
            applyWarmStartRow(row, r * rowStride, lambda, r * lambdaStride, lambdaStride, pairs[PAIR * r + LINK_A],
                    pairs[PAIR * r + LINK_B], state, world);
        }
    }

    /** Copies body {@code i}'s accumulated change into the deltas (SoA, {@code deltaStride}). */
    static void writeDeltas(float[] state, int i, FloatBuffer deltas, int deltaStride) {
        int s = i * STATE;
        deltas.put(DELTA_DVX * deltaStride + i, state[s + STATE_DVX]);
        deltas.put(DELTA_DVY * deltaStride + i, state[s + STATE_DVY]);
        deltas.put(DELTA_DVZ * deltaStride + i, state[s + STATE_DVZ]);
        deltas.put(DELTA_DWX * deltaStride + i, state[s + STATE_DWX]);
        deltas.put(DELTA_DWY * deltaStride + i, state[s + STATE_DWY]);
        deltas.put(DELTA_DWZ * deltaStride + i, state[s + STATE_DWZ]);
    }

    /** Writes {@code s1 t1 + s2 t2} (+0 for a zero pair) at {@code out[at]}, {@code out[at + 1]}, {@code out[at + 2]}. */
    private static void writeVector(float[] row, int o, float s1, float s2, float[] out, int at) {
        if (s1 == 0.0f && s2 == 0.0f) {
            out[at] = 0.0f;
            out[at + 1] = 0.0f;
            out[at + 2] = 0.0f;
            return;
        }
        out[at] = (s1 * row[o + ROW_T1X] + s2 * row[o + ROW_T2X]) + 0.0f;
        out[at + 1] = (s1 * row[o + ROW_T1Y] + s2 * row[o + ROW_T2Y]) + 0.0f;
        out[at + 2] = (s1 * row[o + ROW_T1Z] + s2 * row[o + ROW_T2Z]) + 0.0f;
    }

    /**
     * Writes the angular vector {@code s1 t1 + s2 t2 + twist n} at {@code out[at..at+2]}: without a
     * twist exactly {@link #writeVector}'s bits.
     */
    private static void writeAngular(float[] row, int o, float s1, float s2, float twist, float[] out, int at) {
        if (twist == 0.0f) {
            writeVector(row, o, s1, s2, out, at);
            return;
        }
        out[at] = ((s1 * row[o + ROW_T1X] + s2 * row[o + ROW_T2X]) + twist * row[o + ROW_NX]) + 0.0f;
        out[at + 1] = ((s1 * row[o + ROW_T1Y] + s2 * row[o + ROW_T2Y]) + twist * row[o + ROW_NY]) + 0.0f;
        out[at + 2] = ((s1 * row[o + ROW_T1Z] + s2 * row[o + ROW_T2Z]) + twist * row[o + ROW_NZ]) + 0.0f;
    }

    /**
     * Writes row {@code r}'s impulses as a record of {@code ImpulseField}s, field {@code f} at
     * {@code out[at + f]}: the normal impulse, and the tangential and angular vectors on b in world
     * space, the angular one the rolling pair's and the twist's together (exactly +0 for what the
     * contact does not have; adding +0 turns a -0 from a zero impulse into +0).
     */
    static void writeImpulses(float[] row, int rowStride, int r, float[] lambda, int lambdaStride, float[] out,
            int at) {
        int o = r * rowStride;
        int l = r * lambdaStride;
        boolean twist = lambdaStride > ACC_TW;
        out[at + IMPULSE_J] = lambda[l + ACC_N];
        float t1 = 0.0f;
        float t2 = 0.0f;
        if (lambdaStride > ACC_T1 && row[o + ROW_MU] > 0.0f) {
            t1 = lambda[l + ACC_T1];
            t2 = lambda[l + ACC_T2];
        }
        float r1 = 0.0f;
        float r2 = 0.0f;
        if (lambdaStride > ACC_R1 && row[o + ROW_RHO] > 0.0f) {
            r1 = lambda[l + ACC_R1];
            r2 = lambda[l + ACC_R2];
        }
        float tw = 0.0f;
        if (twist && row[o + ROW_TAU] > 0.0f) {
            tw = lambda[l + ACC_TW];
        }
        writeVector(row, o, t1, t2, out, at + IMPULSE_TX);
        writeAngular(row, o, r1, r2, tw, out, at + IMPULSE_RX);
    }

    /**
     * Writes the normal impulses of contacts {@code [from, to)} of a batch with neither friction
     * nor rolling resistance (one accumulated impulse a row), in contact order, from each contact's
     * row; the caller fills the other fields ({@code FrictionUse.zeroUnusedImpulses}).
     */
    static void writeNormalImpulses(float[] lambda, int[] rowOf, FieldBlock impulses, int from, int to) {
        FloatBuffer out = impulses.floats();
        int normal = IMPULSE_J * impulses.stride();
        for (int c = from; c < to; c++) {
            out.put(normal + c, lambda[rowOf[c]]);
        }
    }
}
