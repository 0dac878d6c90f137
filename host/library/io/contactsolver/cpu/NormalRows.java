package io.contactsolver.cpu;

import static io.contactsolver.core.FieldOffsets.*;

import io.contactsolver.core.ContactRowField;
import io.contactsolver.core.FieldBlock;
import io.contactsolver.core.ParallelRunner;
import io.contactsolver.core.PreparedBodyField;
import io.contactsolver.core.TargetRule;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Contacts' normal rows evaluated on the host, before any backend runs: the inverse effective mass
 * {@code K} and the normal velocity {@code v_n} of each, computed by the very functions every
 * solver computes them with ({@link BodyMath#prepareBody}, {@link BodyMath#evaluateContact}, whose
 * OpenCL twins give the same bits). A row with either not finite would be switched off by one
 * solver and overflow in another, so the caller refuses it instead, the same way on every backend.
 */
public final class NormalRows {
    private static final int GRAIN = 1 << 12;
    private static final int RECORD = PreparedBodyField.STRIDE;
    /** In a contact's scratch: body a's record, body b's, then the all-zero record of the world. */
    private static final int WORLD = 2 * RECORD;

    private NormalRows() {
    }

    /** The lowest contact whose {@code K} or {@code v_n} is not finite, or -1. */
    public static int firstNonFinite(FieldBlock bodies, FieldBlock contacts, FieldBlock links, int contactCount,
            ParallelRunner runner) {
        AtomicInteger first = new AtomicInteger(Integer.MAX_VALUE);
        runner.forRange(contactCount, GRAIN, (from, to) -> {
            float[] records = new float[3 * RECORD];
            float[] row = new float[ContactRowField.COUNT];
            for (int c = from; c < to && c < first.get(); c++) {
                evaluate(bodies, contacts, links, c, records, row);
                if (!Float.isFinite(row[ROW_K]) || !Float.isFinite(row[ROW_VN0])) {
                    first.accumulateAndGet(c, Math::min);
                    return;
                }
            }
        });
        return first.get() == Integer.MAX_VALUE ? -1 : first.get();
    }

    /** Contact {@code c}'s {@code K}. */
    public static float effectiveInverseMass(FieldBlock bodies, FieldBlock contacts, FieldBlock links, int c) {
        return evaluate(bodies, contacts, links, c)[ROW_K];
    }

    /** Contact {@code c}'s {@code v_n}. */
    public static float normalVelocity(FieldBlock bodies, FieldBlock contacts, FieldBlock links, int c) {
        return evaluate(bodies, contacts, links, c)[ROW_VN0];
    }

    private static float[] evaluate(FieldBlock bodies, FieldBlock contacts, FieldBlock links, int c) {
        float[] row = new float[ContactRowField.COUNT];
        evaluate(bodies, contacts, links, c, new float[3 * RECORD], row);
        return row;
    }

    /** Fills {@code row} as the solvers fill contact {@code c}'s (the target aside, which neither field needs). */
    private static void evaluate(FieldBlock bodies, FieldBlock contacts, FieldBlock links, int c, float[] records,
            float[] row) {
        int a = links.ints().get(LINK_A * links.stride() + c);
        int b = links.ints().get(LINK_B * links.stride() + c);
        int oa = a < 0 ? WORLD : 0;
        int ob = b < 0 ? WORLD : RECORD;
        if (a >= 0) {
            BodyMath.prepareBody(bodies.floats(), bodies.stride(), a, records, oa);
        }
        if (b >= 0) {
            BodyMath.prepareBody(bodies.floats(), bodies.stride(), b, records, ob);
        }
        BodyMath.evaluateContact(contacts.floats(), contacts.stride(), c, records, oa, ob, TargetRule.DEFAULT, row);
    }
}
