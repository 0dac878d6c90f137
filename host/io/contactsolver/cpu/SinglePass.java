package io.contactsolver.cpu;

import io.contactsolver.ContactBody;
import io.contactsolver.ContactField;
import io.contactsolver.DeltaField;
import io.contactsolver.core.BodyContactIndex;
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
    private static final int PX = ContactField.PX.ordinal();
    private static final int PY = ContactField.PY.ordinal();
    private static final int PZ = ContactField.PZ.ordinal();
    private static final int NX = ContactField.NX.ordinal();
    private static final int NY = ContactField.NY.ordinal();
    private static final int NZ = ContactField.NZ.ordinal();
    private static final int RESTITUTION = ContactField.RESTITUTION.ordinal();
    private static final int LINK_A = ContactBody.A.ordinal();
    private static final int LINK_B = ContactBody.B.ordinal();
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
     * Computes contact {@code c}: {@code j = (target - v_n) / K} with {@code target = -e v_n} for an
     * approaching contact ({@code v_n < 0}), which is the seed's {@code -(1 + e) v_n / K}; zero for a
     * separating or resting contact, or when neither body can move ({@code K = 0}).
     *
     * @param worldRecord index of the all-zero prepared record standing for the world
     */
    static void solveContact(FloatBuffer contacts, IntBuffer links, int stride, int c, int worldRecord,
            float[] prepared, FloatBuffer impulses, float[] responses, ContactSide sideA, ContactSide sideB) {
        int a = links.get(LINK_A * stride + c);
        int b = links.get(LINK_B * stride + c);
        float px = contacts.get(PX * stride + c);
        float py = contacts.get(PY * stride + c);
        float pz = contacts.get(PZ * stride + c);
        float nx = contacts.get(NX * stride + c);
        float ny = contacts.get(NY * stride + c);
        float nz = contacts.get(NZ * stride + c);
        float e = contacts.get(RESTITUTION * stride + c);
        BodyMath.describeSide(prepared, a < 0 ? worldRecord : a, px, py, pz, nx, ny, nz, sideA);
        BodyMath.describeSide(prepared, b < 0 ? worldRecord : b, px, py, pz, nx, ny, nz, sideB);

        float relX = sideB.velX - sideA.velX;
        float relY = sideB.velY - sideA.velY;
        float relZ = sideB.velZ - sideA.velZ;
        float vn = relX * nx + relY * ny + relZ * nz;
        float j = 0.0f;
        if (vn < 0.0f) {
            float k = sideA.inverseMass + sideB.inverseMass
                    + BodyMath.angularInverseMass(sideA) + BodyMath.angularInverseMass(sideB);
            if (k > 0.0f) {
                float target = -(e * vn);
                j = (target - vn) / k;
            }
        }
        impulses.put(c, j);
        writeResponse(responses, BodyContactIndex.entry(c, ContactBody.A), -j, sideA, nx, ny, nz);
        writeResponse(responses, BodyContactIndex.entry(c, ContactBody.B), j, sideB, nx, ny, nz);
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
