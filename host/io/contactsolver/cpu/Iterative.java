package io.contactsolver.cpu;

import static io.contactsolver.core.ContactRowField.DIR_AX;
import static io.contactsolver.core.ContactRowField.DIR_AY;
import static io.contactsolver.core.ContactRowField.DIR_AZ;
import static io.contactsolver.core.ContactRowField.DIR_BX;
import static io.contactsolver.core.ContactRowField.DIR_BY;
import static io.contactsolver.core.ContactRowField.DIR_BZ;
import static io.contactsolver.core.ContactRowField.INV_MASS_A;
import static io.contactsolver.core.ContactRowField.INV_MASS_B;
import static io.contactsolver.core.ContactRowField.K;
import static io.contactsolver.core.ContactRowField.NX;
import static io.contactsolver.core.ContactRowField.NY;
import static io.contactsolver.core.ContactRowField.NZ;
import static io.contactsolver.core.ContactRowField.RXN_AX;
import static io.contactsolver.core.ContactRowField.RXN_AY;
import static io.contactsolver.core.ContactRowField.RXN_AZ;
import static io.contactsolver.core.ContactRowField.RXN_BX;
import static io.contactsolver.core.ContactRowField.RXN_BY;
import static io.contactsolver.core.ContactRowField.RXN_BZ;
import static io.contactsolver.core.ContactRowField.TARGET;
import static io.contactsolver.core.ContactRowField.VN0;

import io.contactsolver.ContactBody;
import io.contactsolver.DeltaField;
import io.contactsolver.core.ContactRowField;
import io.contactsolver.core.StateField;
import io.contactsolver.core.TargetRule;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;

/**
 * The iterative solve, one row at a time; the Java twin of {@code kernels/iterative.cl}.
 *
 * <p>Rows are contacts in colour order ({@code ContactColoring}), stored structure of arrays with
 * stride {@code rows} ({@code ContactRowField}). The state is each body's velocity change so far
 * ({@code StateField}, eight floats a body). Tracking changes rather than velocities makes the
 * first visit of a row exactly the single pass: {@code v_n = vn0 + 0} and
 * {@code (target - v_n) / K} is the seed impulse.
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
    private static final int SIDE_B = ContactBody.B.ordinal();

    private Iterative() {
    }

    /**
     * Fills row {@code r} of the row arrays from contact {@code c} at the pre-solve velocities; its
     * impulse starts at {@code warm}, or 0 for a contact neither of whose bodies can move.
     *
     * @param scratch one contact's row, {@code ContactRowField.COUNT} floats
     */
    static void prepareRow(FloatBuffer contacts, IntBuffer links, int contactStride, int c, int r, int rows,
            int worldRecord, float[] prepared, TargetRule rule, float warm, float[] row, float[] lambda,
            float[] scratch) {
        BodyMath.evaluateContact(contacts, contactStride, c, prepared,
                BodyMath.record(links.get(ContactBody.A.ordinal() * contactStride + c), worldRecord),
                BodyMath.record(links.get(ContactBody.B.ordinal() * contactStride + c), worldRecord), rule, scratch);
        for (int field = 0; field < ContactRowField.COUNT; field++) {
            row[field * rows + r] = scratch[field];
        }
        lambda[r] = scratch[K.ordinal()] > 0.0f ? warm : 0.0f;
    }

    /**
     * One projected Gauss-Seidel step on row {@code r}: the impulse that brings {@code v_n} to the
     * target, accumulated and clamped at zero. Returns how much the accumulated impulse changed.
     */
    static float solveRow(float[] row, int rows, int r, int[] slots, float[] lambda, float[] state, int worldSlot) {
        float k = row[K.ordinal() * rows + r];
        if (!(k > 0.0f)) {
            return 0.0f;
        }
        int a = slots[SIDE_A * rows + r] * STATE;
        int b = slots[SIDE_B * rows + r] * STATE;
        float nx = row[NX.ordinal() * rows + r];
        float ny = row[NY.ordinal() * rows + r];
        float nz = row[NZ.ordinal() * rows + r];
        float dvx = state[b + S_DVX] - state[a + S_DVX];
        float dvy = state[b + S_DVY] - state[a + S_DVY];
        float dvz = state[b + S_DVZ] - state[a + S_DVZ];
        float linear = dvx * nx + dvy * ny + dvz * nz;
        float angularB = row[RXN_BX.ordinal() * rows + r] * state[b + S_DWX]
                + row[RXN_BY.ordinal() * rows + r] * state[b + S_DWY]
                + row[RXN_BZ.ordinal() * rows + r] * state[b + S_DWZ];
        float angularA = row[RXN_AX.ordinal() * rows + r] * state[a + S_DWX]
                + row[RXN_AY.ordinal() * rows + r] * state[a + S_DWY]
                + row[RXN_AZ.ordinal() * rows + r] * state[a + S_DWZ];
        float vn = row[VN0.ordinal() * rows + r] + ((linear + angularB) - angularA);
        float old = lambda[r];
        float next = old + (row[TARGET.ordinal() * rows + r] - vn) / k;
        if (next < 0.0f) {
            next = 0.0f;
        }
        float applied = next - old;
        lambda[r] = next;
        applyImpulse(row, rows, r, a, b, applied, state, worldSlot * STATE);
        return Math.abs(applied);
    }

    /** Adds the velocity change of an impulse {@code applied} along {@code n}: {@code -} on a, {@code +} on b. */
    static void applyImpulse(float[] row, int rows, int r, int a, int b, float applied, float[] state, int world) {
        float nx = row[NX.ordinal() * rows + r];
        float ny = row[NY.ordinal() * rows + r];
        float nz = row[NZ.ordinal() * rows + r];
        if (a != world) {
            float impulseA = -applied;
            float linearA = impulseA * row[INV_MASS_A.ordinal() * rows + r];
            state[a + S_DVX] += linearA * nx;
            state[a + S_DVY] += linearA * ny;
            state[a + S_DVZ] += linearA * nz;
            state[a + S_DWX] += impulseA * row[DIR_AX.ordinal() * rows + r];
            state[a + S_DWY] += impulseA * row[DIR_AY.ordinal() * rows + r];
            state[a + S_DWZ] += impulseA * row[DIR_AZ.ordinal() * rows + r];
        }
        if (b != world) {
            float impulseB = applied;
            float linearB = impulseB * row[INV_MASS_B.ordinal() * rows + r];
            state[b + S_DVX] += linearB * nx;
            state[b + S_DVY] += linearB * ny;
            state[b + S_DVZ] += linearB * nz;
            state[b + S_DWX] += impulseB * row[DIR_BX.ordinal() * rows + r];
            state[b + S_DWY] += impulseB * row[DIR_BY.ordinal() * rows + r];
            state[b + S_DWZ] += impulseB * row[DIR_BZ.ordinal() * rows + r];
        }
    }

    /** Applies row {@code r}'s starting impulse (the warm start) to its bodies. */
    static void applyWarmStart(float[] row, int rows, int r, int[] slots, float[] lambda, float[] state,
            int worldSlot) {
        applyImpulse(row, rows, r, slots[SIDE_A * rows + r] * STATE, slots[SIDE_B * rows + r] * STATE, lambda[r],
                state, worldSlot * STATE);
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
