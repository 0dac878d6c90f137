package io.contactsolver.cpu;

import static io.contactsolver.core.FieldOffsets.*;

import io.contactsolver.core.BodyContactIndex;
import io.contactsolver.core.FieldBlock;
import io.contactsolver.core.PreparedBodyField;
import io.contactsolver.core.TargetRule;
import io.contactsolver.layout.ContactBody;
import io.contactsolver.layout.DeltaField;
import io.contactsolver.layout.ImpulseField;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;

/**
 * The single-pass solve, one element at a time; the Java twin of {@code kernels/single_pass.cl}.
 *
 * <p>Phase 1 ({@link BodyMath#prepareBody}) builds each body's working record. Phase 2
 * ({@link #solveContact}) evaluates one contact from the pre-solve velocities and gives its
 * impulse and both sides' velocity responses. Phase 3 sums each body's responses in increasing
 * contact order. The device does it per body through the {@link BodyContactIndex}
 * ({@code gather_chunk}); here the contacts are swept in order: on one thread, or on several each
 * owning a range of bodies, adding responses as they are computed, or, for scattered contact
 * graphs, after all were written ({@link #accumulateOwned}). Every way adds the same terms in the
 * same order, so the bits agree. Responses and body sums are {@link DeltaField} records, six floats.
 */
final class SinglePass {
    /** Floats per response and per body sum. */
    static final int RESPONSE = DeltaField.COUNT;
    /** An output offset that tells {@link #solveContact} to leave that side out. */
    static final int NONE = -1;

    private SinglePass() {
    }

    private static void store(float[] out, int o, boolean add, float dvx, float dvy, float dvz, float dwx, float dwy,
            float dwz) {
        if (add) {
            out[o + DELTA_DVX] += dvx;
            out[o + DELTA_DVY] += dvy;
            out[o + DELTA_DVZ] += dvz;
            out[o + DELTA_DWX] += dwx;
            out[o + DELTA_DWY] += dwy;
            out[o + DELTA_DWZ] += dwz;
        } else {
            out[o + DELTA_DVX] = dvx;
            out[o + DELTA_DVY] = dvy;
            out[o + DELTA_DVZ] = dvz;
            out[o + DELTA_DWX] = dwx;
            out[o + DELTA_DWY] = dwy;
            out[o + DELTA_DWZ] = dwz;
        }
    }

    /**
     * The velocity change of one side's body from an impulse of {@code impulse} along {@code +n}:
     * {@code (impulse / m) n} and {@code impulse I^-1 (r x n)}, written or added at {@code o}.
     */
    static void respond(float[] out, int o, boolean add, float impulse, float inverseMass, float dirX, float dirY,
            float dirZ, float nx, float ny, float nz) {
        float linear = impulse * inverseMass;
        float dvx = linear * nx;
        float dvy = linear * ny;
        float dvz = linear * nz;
        float dwx = impulse * dirX;
        float dwy = impulse * dirY;
        float dwz = impulse * dirZ;
        store(out, o, add, dvx, dvy, dvz, dwx, dwy, dwz);
    }

    /**
     * The velocity change of one side's body from an impulse vector {@code s} at its lever arm
     * {@code r} ({@code work[at..at+2]}): {@code s / m} and {@code I^-1 (r x s)}, written or added at
     * {@code o}.
     */
    static void respondVector(float[] out, int o, boolean add, float sx, float sy, float sz, float inverseMass,
            float[] records, int ro, float[] work, int at) {
        float rx = work[at];
        float ry = work[at + 1];
        float rz = work[at + 2];
        float torqueX = ry * sz - rz * sy;
        float torqueY = rz * sx - rx * sz;
        float torqueZ = rx * sy - ry * sx;
        float dvx = sx * inverseMass;
        float dvy = sy * inverseMass;
        float dvz = sz * inverseMass;
        float dwx = records[ro + PREP_IXX] * torqueX + records[ro + PREP_IXY] * torqueY + records[ro + PREP_IXZ] * torqueZ;
        float dwy = records[ro + PREP_IXY] * torqueX + records[ro + PREP_IYY] * torqueY + records[ro + PREP_IYZ] * torqueZ;
        float dwz = records[ro + PREP_IXZ] * torqueX + records[ro + PREP_IYZ] * torqueY + records[ro + PREP_IZZ] * torqueZ;
        store(out, o, add, dvx, dvy, dvz, dwx, dwy, dwz);
    }

    /** The single pass's impulses of contact {@code c}: normal, tangential on b, and no rolling impulse. */
    private static void writeImpulses(FieldBlock impulses, int c, float j, float tx, float ty, float tz) {
        FloatBuffer f = impulses.floats();
        int stride = impulses.stride();
        f.put(IMPULSE_J * stride + c, j);
        f.put(IMPULSE_TX * stride + c, tx);
        f.put(IMPULSE_TY * stride + c, ty);
        f.put(IMPULSE_TZ * stride + c, tz);
        f.put(IMPULSE_RX * stride + c, 0.0f);
        f.put(IMPULSE_RY * stride + c, 0.0f);
        f.put(IMPULSE_RZ * stride + c, 0.0f);
    }

    /**
     * Solves contact {@code c}: {@code j = (target - v_n) / K} when the contact is slower than its
     * target (see {@link BodyMath#evaluateContact}; without positional correction: when it
     * approaches), zero otherwise or when neither body can move ({@code K = 0}). Then side a's body
     * gets {@code -j n} and side b's {@code +j n}: their velocity responses are written to (or, with
     * {@code add}, added to) {@code out} at {@code outA} and {@code outB}. A contact with friction
     * gets the impulse vector {@code P} of {@link BodyMath#frictionalImpulse} instead, where that
     * applies: {@code -P} on a, {@code +P} on b.
     *
     * @param records prepared records, with body a's at {@code oa} and body b's at {@code ob}
     * @param row scratch for the contact's row, {@code ContactRowField.COUNT} floats
     * @param work scratch for friction, {@link BodyMath#WORK} floats
     * @param impulses receives the contact's {@code ImpulseField}s at {@code c}, or null
     * @param outA where side a's response goes in {@code out}, or {@link #NONE}
     * @param outB where side b's response goes in {@code out}, or {@link #NONE}
     * @param useFriction false when the solve ignores every contact's friction (a push-out solve)
     */
    static void solveContact(FloatBuffer contacts, int stride, int c, float[] records, int oa, int ob,
            TargetRule rule, boolean useFriction, float[] row, float[] work, FieldBlock impulses, float[] out,
            int outA, int outB, boolean add) {
        BodyMath.evaluateContact(contacts, stride, c, records, oa, ob, rule, row);
        float j = 0.0f;
        boolean frictional = false;
        if (row[ROW_VN0] < row[ROW_TARGET] && row[ROW_K] > 0.0f) {
            j = (row[ROW_TARGET] - row[ROW_VN0]) / row[ROW_K];
            float mu = contacts.get(CONTACT_FRICTION * stride + c);
            frictional = useFriction && mu > 0.0f && BodyMath.frictionalImpulse(contacts, stride, c, records, oa, ob, mu, j, row,
                    work);
        }
        if (!frictional) {
            if (impulses != null) {
                writeImpulses(impulses, c, j, 0.0f, 0.0f, 0.0f);
            }
            if (outA != NONE) {
                respond(out, outA, add, -j, row[ROW_INV_MASS_A], row[ROW_DIR_AX], row[ROW_DIR_AY], row[ROW_DIR_AZ],
                        row[ROW_NX], row[ROW_NY], row[ROW_NZ]);
            }
            if (outB != NONE) {
                respond(out, outB, add, j, row[ROW_INV_MASS_B], row[ROW_DIR_BX], row[ROW_DIR_BY], row[ROW_DIR_BZ],
                        row[ROW_NX], row[ROW_NY], row[ROW_NZ]);
            }
            return;
        }
        float px = work[WORK_PX];
        float py = work[WORK_PY];
        float pz = work[WORK_PZ];
        if (impulses != null) {
            float normal = px * row[ROW_NX] + py * row[ROW_NY] + pz * row[ROW_NZ];
            writeImpulses(impulses, c, normal, px - normal * row[ROW_NX], py - normal * row[ROW_NY],
                    pz - normal * row[ROW_NZ]);
        }
        if (outA != NONE) {
            respondVector(out, outA, add, -px, -py, -pz, row[ROW_INV_MASS_A], records, oa, work, WORK_RAX);
        }
        if (outB != NONE) {
            respondVector(out, outB, add, px, py, pz, row[ROW_INV_MASS_B], records, ob, work, WORK_RBX);
        }
    }

    /**
     * Contacts {@code [first, end)} in order, each solved and its responses added to the sums of
     * those of its bodies that lie in {@code [lo, hi)} (the world never does). With one thread the
     * range is every body; with several, each thread owns a range, solves every contact touching
     * one of its bodies (a contact joining two threads' bodies is solved by both, to the same bits)
     * and only the thread owning body a, or body b for a contact with the world, writes its impulse.
     */
    static void solveAndAccumulate(FloatBuffer contacts, IntBuffer links, int stride, int first, int end,
            int worldRecord, float[] prepared, TargetRule rule, boolean useFriction, float[] row, float[] work,
            FieldBlock impulses, float[] sums, int lo, int hi) {
        for (int c = first; c < end; c++) {
            int a = links.get(LINK_A * stride + c);
            int b = links.get(LINK_B * stride + c);
            boolean ownsA = a >= lo && a < hi;
            boolean ownsB = b >= lo && b < hi;
            if (ownsA || ownsB) {
                solveContact(contacts, stride, c, prepared, BodyMath.record(a, worldRecord),
                        BodyMath.record(b, worldRecord), rule, useFriction, row, work, ownsA || a < 0 ? impulses : null, sums,
                        ownsA ? a * RESPONSE : NONE, ownsB ? b * RESPONSE : NONE, true);
            }
        }
    }

    /** Contacts per batch of gathered records: enough misses in flight, small enough to stay in cache. */
    static final int BATCH = 64;
    /** Where {@link #touchSums} leaves what it read, so the JIT cannot drop the reads. */
    static float touched;

    /**
     * Reads one float of the sum record of each body in {@code [lo, hi)} that contacts
     * {@code [first, first + count)} will add to. The reads are independent, so their cache misses
     * overlap here, and the additions that follow find the records in cache: prefetching, written
     * in plain Java. (Only the loads matter; the sum of what they read is discarded.)
     */
    static void touchSums(IntBuffer links, int stride, int first, int count, float[] sums, int lo, int hi) {
        float any = 0.0f;
        for (int c = first; c < first + count; c++) {
            int a = links.get(LINK_A * stride + c);
            int b = links.get(LINK_B * stride + c);
            if (a >= lo && a < hi) {
                any += sums[a * RESPONSE];
            }
            if (b >= lo && b < hi) {
                any += sums[b * RESPONSE];
            }
        }
        touched = any;
    }

    /**
     * Contacts {@code [first, end)} of a scattered graph, their records gathered a batch at a time
     * ({@link BodyMath#gatherRecords}), each solved with its responses written ({@code add} false, at
     * its index entries) or added to the sums of its bodies ({@code add} true, one thread only).
     *
     * @param batch scratch of {@code 2 BATCH} prepared records
     */
    static void solveGathered(FloatBuffer contacts, IntBuffer links, int stride, int first, int end, int worldRecord,
            float[] prepared, TargetRule rule, boolean useFriction, float[] row, float[] work, float[] batch,
            FieldBlock impulses, float[] out, boolean add) {
        for (int start = first; start < end; start += BATCH) {
            int count = Math.min(BATCH, end - start);
            BodyMath.gatherRecords(links, stride, start, count, worldRecord, prepared, batch);
            if (add) {
                touchSums(links, stride, start, count, out, 0, worldRecord);
            }
            for (int i = 0; i < count; i++) {
                int c = start + i;
                int outA = BodyContactIndex.entry(c, ContactBody.A) * RESPONSE;
                int outB = BodyContactIndex.entry(c, ContactBody.B) * RESPONSE;
                if (add) {
                    int a = links.get(LINK_A * stride + c);
                    int b = links.get(LINK_B * stride + c);
                    outA = a < 0 ? NONE : a * RESPONSE;
                    outB = b < 0 ? NONE : b * RESPONSE;
                }
                solveContact(contacts, stride, c, batch, 2 * i * PreparedBodyField.STRIDE,
                        (2 * i + 1) * PreparedBodyField.STRIDE, rule, useFriction, row, work, impulses, out, outA, outB,
                        add);
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
     * Several threads, after every contact's responses were written (at its index entries): adds
     * the responses of the bodies in {@code [lo, hi)} to their sums, sweeping the contacts in order.
     * Each thread owns a range of bodies, so no two threads write one sum.
     */
    static void accumulateOwned(IntBuffer links, int linkStride, int contactCount, float[] responses, float[] sums,
            int lo, int hi) {
        int baseA = LINK_A * linkStride;
        int baseB = LINK_B * linkStride;
        for (int start = 0; start < contactCount; start += BATCH) {
            int end = Math.min(contactCount, start + BATCH);
            touchSums(links, linkStride, start, end - start, sums, lo, hi);
            for (int c = start; c < end; c++) {
                int a = links.get(baseA + c);
                if (a >= lo && a < hi) {
                    add(responses, BodyContactIndex.entry(c, ContactBody.A) * RESPONSE, sums, a * RESPONSE);
                }
                int b = links.get(baseB + c);
                if (b >= lo && b < hi) {
                    add(responses, BodyContactIndex.entry(c, ContactBody.B) * RESPONSE, sums, b * RESPONSE);
                }
            }
        }
    }

    private static void add(float[] from, int o, float[] sums, int s) {
        sums[s + DELTA_DVX] += from[o + DELTA_DVX];
        sums[s + DELTA_DVY] += from[o + DELTA_DVY];
        sums[s + DELTA_DVZ] += from[o + DELTA_DVZ];
        sums[s + DELTA_DWX] += from[o + DELTA_DWX];
        sums[s + DELTA_DWY] += from[o + DELTA_DWY];
        sums[s + DELTA_DWZ] += from[o + DELTA_DWZ];
    }

    /** Copies body {@code i}'s sum into the deltas (SoA, {@code deltaStride}). */
    static void writeDeltas(float[] sums, int i, FloatBuffer deltas, int deltaStride) {
        int s = i * RESPONSE;
        deltas.put(DELTA_DVX * deltaStride + i, sums[s + DELTA_DVX]);
        deltas.put(DELTA_DVY * deltaStride + i, sums[s + DELTA_DVY]);
        deltas.put(DELTA_DVZ * deltaStride + i, sums[s + DELTA_DVZ]);
        deltas.put(DELTA_DWX * deltaStride + i, sums[s + DELTA_DWX]);
        deltas.put(DELTA_DWY * deltaStride + i, sums[s + DELTA_DWY]);
        deltas.put(DELTA_DWZ * deltaStride + i, sums[s + DELTA_DWZ]);
    }
}
