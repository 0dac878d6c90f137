package io.contactsolver.cpu;

import io.contactsolver.ContactBody;
import io.contactsolver.DeltaField;
import io.contactsolver.core.BodyContactIndex;
import io.contactsolver.core.StateField;
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
 * velocities and writes the impulse and both sides' velocity responses. Phase 3 sums each body's
 * responses in increasing contact order. The device does it per body through the
 * {@link BodyContactIndex} ({@code gather_deltas}); here the contacts are swept in order
 * ({@link #solveAndAccumulate} on one thread, {@link #accumulateOwned} on several), which needs no
 * index and adds the same terms in the same order, so the bits agree.
 */
final class SinglePass {
    private static final int DVX = DeltaField.DVX.ordinal();
    private static final int DVY = DeltaField.DVY.ordinal();
    private static final int DVZ = DeltaField.DVZ.ordinal();
    private static final int DWX = DeltaField.DWX.ordinal();
    private static final int DWY = DeltaField.DWY.ordinal();
    private static final int DWZ = DeltaField.DWZ.ordinal();
    private static final int RESPONSE = DeltaField.COUNT;
    private static final int LINK_A = ContactBody.A.ordinal();
    private static final int LINK_B = ContactBody.B.ordinal();
    private static final int S_DVX = StateField.DVX.ordinal();
    private static final int S_DVY = StateField.DVY.ordinal();
    private static final int S_DVZ = StateField.DVZ.ordinal();
    private static final int S_DWX = StateField.DWX.ordinal();
    private static final int S_DWY = StateField.DWY.ordinal();
    private static final int S_DWZ = StateField.DWZ.ordinal();
    private static final int STATE = StateField.STRIDE;

    private SinglePass() {
    }

    /**
     * Computes contact {@code c}: {@code j = (target - v_n) / K} when the contact is slower than its
     * target (see {@link BodyMath#evaluateContact}; without positional correction: when it
     * approaches); zero otherwise, or when neither body can move ({@code K = 0}).
     *
     * @param worldRecord index of the all-zero prepared record standing for the world
     * @param impulses receives {@code j} at {@code c}, or null: then only {@code contact.impulse} holds it
     * @param sideA the entry of {@code responses} for side a; side b's follows it
     */
    static void solveContact(FloatBuffer contacts, IntBuffer links, int stride, int c, int worldRecord,
            float[] prepared, TargetRule rule, FloatBuffer impulses, float[] responses, int sideA,
            ContactEvaluation contact) {
        BodyMath.evaluateContact(contacts, links, stride, c, worldRecord, prepared, rule, contact);
        float j = 0.0f;
        if (contact.vn < contact.target && contact.k > 0.0f) {
            j = (contact.target - contact.vn) / contact.k;
        }
        contact.impulse = j;
        if (impulses != null) {
            impulses.put(c, j);
        }
        writeResponse(responses, sideA, -j, contact.sideA, contact.nx, contact.ny, contact.nz);
        writeResponse(responses, sideA + 1, j, contact.sideB, contact.nx, contact.ny, contact.nz);
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

    /**
     * One thread: contact {@code c} computed and its responses added straight to the bodies' sums
     * ({@code StateField} records). Sweeping the contacts in order sums each body's responses in
     * increasing contact order, the order the device's index gives, so the bits agree.
     */
    static void solveAndAccumulate(FloatBuffer contacts, IntBuffer links, int stride, int c, int worldRecord,
            float[] prepared, TargetRule rule, FloatBuffer impulses, float[] scratch, float[] sums,
            ContactEvaluation contact) {
        solveContact(contacts, links, stride, c, worldRecord, prepared, rule, impulses, scratch, 0, contact);
        if (contact.a >= 0) {
            addResponse(scratch, BodyContactIndex.entry(0, ContactBody.A), sums, contact.a);
        }
        if (contact.b >= 0) {
            addResponse(scratch, BodyContactIndex.entry(0, ContactBody.B), sums, contact.b);
        }
    }

    /**
     * Several threads, on scenes where few contacts join bodies of different threads: the thread
     * owning bodies {@code [lo, hi)} sweeps the contacts in order, solves every contact touching one
     * of its bodies and adds that side's response to its sum, so no responses array is written or
     * read. A contact joining two threads' bodies is solved by both, to the same bits; only the
     * thread owning body a (body b, for a contact whose a is the world) writes its impulse.
     */
    static void solveAndAccumulateOwned(FloatBuffer contacts, IntBuffer links, int stride, int contactCount,
            int worldRecord, float[] prepared, TargetRule rule, FloatBuffer impulses, float[] scratch, float[] sums,
            ContactEvaluation contact, int lo, int hi) {
        int baseA = LINK_A * stride;
        int baseB = LINK_B * stride;
        for (int c = 0; c < contactCount; c++) {
            int a = links.get(baseA + c);
            int b = links.get(baseB + c);
            boolean ownsA = a >= lo && a < hi;
            boolean ownsB = b >= lo && b < hi;
            if (!ownsA && !ownsB) {
                continue;
            }
            solveContact(contacts, links, stride, c, worldRecord, prepared, rule, null, scratch, 0, contact);
            if (ownsA || a < 0) {
                impulses.put(c, contact.impulse);
            }
            if (ownsA) {
                addResponse(scratch, BodyContactIndex.entry(0, ContactBody.A), sums, a);
            }
            if (ownsB) {
                addResponse(scratch, BodyContactIndex.entry(0, ContactBody.B), sums, b);
            }
        }
    }

    /**
     * Among contacts {@code [first, end)}, those joining bodies of two different ranges when
     * {@code bodyCount} bodies are cut into {@code parts} ranges.
     */
    static int crossingContacts(IntBuffer links, int stride, int first, int end, int bodyCount, int parts) {
        int crossing = 0;
        for (int c = first; c < end; c++) {
            int a = links.get(LINK_A * stride + c);
            int b = links.get(LINK_B * stride + c);
            if (a >= 0 && b >= 0 && (int) ((long) a * parts / bodyCount) != (int) ((long) b * parts / bodyCount)) {
                crossing++;
            }
        }
        return crossing;
    }

    /**
     * Several threads, after {@link #solveContact} filled {@code responses}: adds the responses of
     * the bodies in {@code [lo, hi)} to their sums, sweeping the contacts in order. Each thread owns
     * a range of bodies, so no two threads write one sum and each sum runs in contact order.
     */
    static void accumulateOwned(IntBuffer links, int linkStride, int contactCount, float[] responses, float[] sums,
            int lo, int hi) {
        int baseA = LINK_A * linkStride;
        int baseB = LINK_B * linkStride;
        for (int c = 0; c < contactCount; c++) {
            int a = links.get(baseA + c);
            if (a >= lo && a < hi) {
                addResponse(responses, BodyContactIndex.entry(c, ContactBody.A), sums, a);
            }
            int b = links.get(baseB + c);
            if (b >= lo && b < hi) {
                addResponse(responses, BodyContactIndex.entry(c, ContactBody.B), sums, b);
            }
        }
    }

    private static void addResponse(float[] responses, int entry, float[] sums, int body) {
        int o = entry * RESPONSE;
        int s = body * STATE;
        sums[s + S_DVX] += responses[o + DVX];
        sums[s + S_DVY] += responses[o + DVY];
        sums[s + S_DVZ] += responses[o + DVZ];
        sums[s + S_DWX] += responses[o + DWX];
        sums[s + S_DWY] += responses[o + DWY];
        sums[s + S_DWZ] += responses[o + DWZ];
    }
}
