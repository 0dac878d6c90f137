package io.contactsolver.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.contactsolver.BodyBatch;
import io.contactsolver.SolveResult;
import io.contactsolver.layout.BodyField;
import io.contactsolver.layout.DeltaField;
import io.contactsolver.layout.ImpulseField;
import java.util.Map;

/**
 * A 64-bit fingerprint of the exact bits of a result (every body's deltas and every contact's
 * normal impulse) or of a body batch, for comparing with results recorded from an earlier version
 * of the module: equal fingerprints mean equal bits (barring a 2^-64 accident).
 */
public final class Fingerprint {
    private long hash = 0xcbf29ce484222325L;

    private Fingerprint() {
    }

    private Fingerprint add(float value) {
        int bits = Float.floatToRawIntBits(value);
        for (int shift = 0; shift < 32; shift += 8) {
            hash ^= (bits >>> shift) & 0xff;
            hash *= 0x100000001b3L;
        }
        return this;
    }

    private Fingerprint addDeltas(SolveResult result) {
        for (int i = 0; i < result.bodyCount(); i++) {
            for (DeltaField field : DeltaField.values()) {
                add(result.delta(field, i));
            }
        }
        return this;
    }

    /**
     * Fails unless {@code actual} has exactly the runs of {@code recorded}, each with its recorded
     * fingerprint; a difference names the run.
     */
    public static void assertRecorded(Map<String, Long> recorded, Map<String, Long> actual) {
        assertEquals(recorded.keySet(), actual.keySet());
        for (Map.Entry<String, Long> entry : actual.entrySet()) {
            assertEquals(String.format("%016x", recorded.get(entry.getKey())),
                    String.format("%016x", entry.getValue()), entry.getKey() + ": the bits changed");
        }
    }

    /** Deltas of every body, then the normal impulse of every contact. */
    public static long of(SolveResult result) {
        Fingerprint f = new Fingerprint().addDeltas(result);
        for (int c = 0; c < result.contactCount(); c++) {
            f.add(result.impulse(c));
        }
        return f.hash;
    }

    /** Deltas of every body, then every impulse field of every contact (tangential and rolling too). */
    public static long ofEverything(SolveResult result) {
        Fingerprint f = new Fingerprint().addDeltas(result);
        for (int c = 0; c < result.contactCount(); c++) {
            for (ImpulseField field : ImpulseField.values()) {
                f.add(result.impulse(field, c));
            }
        }
        return f.hash;
    }

    /** Every field of every body. */
    public static long of(BodyBatch bodies) {
        Fingerprint f = new Fingerprint();
        for (int i = 0; i < bodies.size(); i++) {
            for (BodyField field : BodyField.values()) {
                f.add(bodies.get(field, i));
            }
        }
        return f.hash;
    }
}
