package io.contactsolver.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import io.contactsolver.BodyBatch;
import io.contactsolver.SolveResult;
import io.contactsolver.layout.BodyField;
import io.contactsolver.layout.DeltaField;
import io.contactsolver.layout.ImpulseField;

/**
 * Bit-for-bit comparison of two results (deltas, every impulse field, ids) or of two body batches
 * (every field), reporting the first difference.
 */
public final class Bits {
    private Bits() {
    }

    public static void assertIdentical(SolveResult expected, SolveResult actual, String what) {
        assertEquals(expected.bodyCount(), actual.bodyCount(), what + ": body count");
        assertEquals(expected.contactCount(), actual.contactCount(), what + ": contact count");
        int differences = 0;
        String first = null;
        for (int c = 0; c < expected.contactCount(); c++) {
            for (ImpulseField field : ImpulseField.values()) {
                float e = expected.impulse(field, c);
                float a = actual.impulse(field, c);
                if (Float.floatToRawIntBits(e) != Float.floatToRawIntBits(a)) {
                    differences++;
                    first = first != null ? first : field + " of contact " + c + ": " + e + " vs " + a;
                }
            }
            if (expected.contactId(c) != actual.contactId(c)) {
                differences++;
                first = first != null ? first : "id of contact " + c;
            }
        }
        for (int i = 0; i < expected.bodyCount(); i++) {
            for (DeltaField field : DeltaField.values()) {
                float e = expected.delta(field, i);
                float a = actual.delta(field, i);
                if (Float.floatToRawIntBits(e) != Float.floatToRawIntBits(a)) {
                    differences++;
                    first = first != null ? first : field + " of body " + i + ": " + e + " vs " + a;
                }
            }
        }
        if (differences > 0) {
            fail(what + ": " + differences + " values differ in their bits; first: " + first);
        }
    }

    public static void assertIdentical(BodyBatch expected, BodyBatch actual, String what) {
        assertEquals(expected.size(), actual.size(), what + ": body count");
        int differences = 0;
        String first = null;
        for (int i = 0; i < expected.size(); i++) {
            for (BodyField field : BodyField.values()) {
                float e = expected.get(field, i);
                float a = actual.get(field, i);
                if (Float.floatToRawIntBits(e) != Float.floatToRawIntBits(a)) {
                    differences++;
                    first = first != null ? first : field + " of body " + i + ": " + e + " vs " + a;
                }
            }
        }
        if (differences > 0) {
            fail(what + ": " + differences + " body fields differ in their bits; first: " + first);
        }
    }
}
