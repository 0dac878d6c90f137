package io.contactsolver.cpu;

import io.contactsolver.ContactBody;
import io.contactsolver.DeltaField;
import io.contactsolver.core.BodyContactIndex;
import io.contactsolver.core.TargetRule;
import io.contactsolver.cpu.BodyMath.ContactEvaluation;
import io.contactsolver.cpu.BodyMath.ContactSide;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;

/**
 * The single-pass solve, one element at a time; the Java twin of {@code kernels/single_pass.cl}.
 *
 * <p>Phase 1 ({@link BodyMath#prepareBody}) builds each body's working record. Phase 2
 * ({@link #solveContact}) evaluates the seed equation for one contact from the pre-solve
 * velocities and writes the impulse and both sides' velocity responses. Phase 3
 * ({@link #gatherBody}) sums a body's responses in the fixed order of the {@link BodyContactIndex}.
 */
final class SinglePass {
    private static final int DVX = DeltaField.DVX.ordinal();
    private static final int DVY = DeltaField.DVY.ordinal();
    private static final int DVZ = DeltaField.DVZ.ordinal();
    private static final int DWX = DeltaField.DWX.ordinal();
    private static final int DWY = DeltaField.DWY.ordinal();
    private static final int DWZ = DeltaField.DWZ.ordinal();
    private static final int RESPONSE = DeltaField.COUNT;

    private SinglePass() {
    }

    /**
     * Computes contact {@code c}: {@code j = (target - v_n) / K} when the contact is slower than its
     * target (see {@link BodyMath#evaluateContact}; without positional correction: when it
     * approaches); zero otherwise, or when neither body can move ({@code K = 0}).
     *
     * @param worldRecord index of the all-zero prepared record standing for the world
     */
    static void solveContact(FloatBuffer contacts, IntBuffer links, int stride, int c, int worldRecord,
            float[] prepared, TargetRule rule, FloatBuffer impulses, float[] responses, ContactEvaluation contact) {
        BodyMath.evaluateContact(contacts, links, stride, c, worldRecord, prepared, rule, contact);
        float j = 0.0f;
        if (contact.vn < contact.target && contact.k > 0.0f) {
            j = (contact.target - contact.vn) / contact.k;
        }
        impulses.put(c, j);
        writeResponse(responses, BodyContactIndex.entry(c, ContactBody.A), -j, contact.sideA, contact.nx, contact.ny,
                contact.nz);
        writeResponse(responses, BodyContactIndex.entry(c, ContactBody.B), j, contact.sideB, contact.nx, contact.ny,
                contact.nz);
    }

    /** The velocity change of one side's body from an impulse of {@code impulse} along {@code +n}. */
    static void writeResponse(float[] responses, int entry, float impulse, ContactSide side,
            float nx, float ny, float nz) {
        int o = entry * RESPONSE;
        float linear = impulse * side.inverseMass;
        responses[o + DVX] = linear * nx;
        responses[o + DVY] = linear * ny;
        responses[o + DVZ] = linear * nz;
        responses[o + DWX] = impulse * side.dirX;
        responses[o + DWY] = impulse * side.dirY;
        responses[o + DWZ] = impulse * side.dirZ;
    }

    /** Sums body {@code i}'s responses in index order into its deltas (SoA, {@code deltaStride}). */
    static void gatherBody(int[] offsets, int[] entries, float[] responses, int i, FloatBuffer deltas,
            int deltaStride) {
        float dvx = 0.0f;
        float dvy = 0.0f;
        float dvz = 0.0f;
        float dwx = 0.0f;
        float dwy = 0.0f;
        float dwz = 0.0f;
        int end = offsets[i + 1];
        for (int k = offsets[i]; k < end; k++) {
            int o = entries[k] * RESPONSE;
            dvx += responses[o + DVX];
            dvy += responses[o + DVY];
            dvz += responses[o + DVZ];
            dwx += responses[o + DWX];
            dwy += responses[o + DWY];
            dwz += responses[o + DWZ];
        }
        deltas.put(DVX * deltaStride + i, dvx);
        deltas.put(DVY * deltaStride + i, dvy);
        deltas.put(DVZ * deltaStride + i, dvz);
        deltas.put(DWX * deltaStride + i, dwx);
        deltas.put(DWY * deltaStride + i, dwy);
        deltas.put(DWZ * deltaStride + i, dwz);
    }
}
