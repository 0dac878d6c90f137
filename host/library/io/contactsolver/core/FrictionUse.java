package io.contactsolver.core;

import io.contactsolver.layout.ImpulseField;
import java.nio.FloatBuffer;

/**
 * Whether any contact of a batch has friction ({@code mu > 0}), rolling resistance
 * ({@code rho > 0}) or torsional resistance ({@code tau > 0}): a batch without them has all-zero
 * tangential or angular impulses, which a device then need not send back. The validator finds a
 * batch's use as it reads its columns ({@link InputMagnitudes#frictionUse}), a device's screen on the
 * device ({@link InputScreen#uses}).
 */
public record FrictionUse(boolean friction, boolean rolling, boolean torsion) {
    /** The bits of {@link #bits()}: friction, rolling resistance, torsional resistance. */
    public static final int FRICTION_BIT = 1;
    public static final int ROLLING_BIT = 2;
    public static final int TORSION_BIT = 4;

    /** The use whose {@link #bits()} are {@code bits}. */
    public static FrictionUse ofBits(int bits) {
        return new FrictionUse((bits & FRICTION_BIT) != 0, (bits & ROLLING_BIT) != 0, (bits & TORSION_BIT) != 0);
    }

    /** This use as bits: {@link #FRICTION_BIT}, {@link #ROLLING_BIT}, {@link #TORSION_BIT}. */
    public int bits() {
        return (friction ? FRICTION_BIT : 0) | (rolling ? ROLLING_BIT : 0) | (torsion ? TORSION_BIT : 0);
    }

    /** No friction, rolling or torsional resistance: what a batch of all-zero coefficients uses. */
    public static final FrictionUse NONE = new FrictionUse(false, false, false);

    /**
     * Whether contacts' coefficients are read at all: false when no contact has friction, rolling
     * or torsional resistance, or the solve switched them off, and then every contact is solved as
     * frictionless whatever its coefficients say.
     */
    public boolean any() {
        return friction || rolling || torsion;
    }

    /**
     * Whether any contact resists turning: rolling or torsional resistance, whose angular impulses
     * share the rolling vector of a result.
     */
    public boolean angular() {
        return rolling || torsion;
    }

    /**
     * How many leading {@code ImpulseField}s can be non-zero: the normal impulse, then the
     * tangential vector with friction, then the angular vector with rolling or torsional
     * resistance.
     */
    public int impulseFields() {
        return angular() ? ImpulseField.COUNT : friction ? ImpulseField.RX.ordinal() : ImpulseField.TX.ordinal();
    }

    /**
     * Writes +0 into the {@code ImpulseField}s this batch cannot make non-zero (those from
     * {@link #impulseFields()} on) of elements {@code [from, to)}, field by field: what a backend
     * writes instead of solving or sending them. Through the raw view, untracked (an output block is
     * never uploaded), so that threads may fill disjoint ranges at once.
     */
    public void zeroUnusedImpulses(FieldBlock impulses, int from, int to) {
        FloatBuffer out = impulses.floats();
        for (int field = impulseFields(); field < ImpulseField.COUNT; field++) {
            for (int c = from; c < to; c++) {
                out.put(field * impulses.stride() + c, 0.0f);
            }
        }
    }

    /**
     * The {@code ContactRowField}s a row of this batch keeps on the CPU, a prefix of them: a
     * million-row batch streams its rows from memory every iteration, so every field saved counts.
     * The twist terms come last, kept only by a batch with torsional resistance (which then keeps
     * the rolling terms too, unused where it has no rolling resistance).
     */
    public int rowFields() {
        return torsion ? ContactRowField.COUNT : rolling ? ContactRowField.ROLLING_COUNT
                : friction ? ContactRowField.FRICTION_COUNT : ContactRowField.NORMAL_COUNT;
    }

    /** The {@code AccumulatedImpulse}s a row of this batch keeps on the CPU, a prefix of them. */
    public int accumulatedImpulses() {
        return torsion ? AccumulatedImpulse.COUNT : rolling ? AccumulatedImpulse.ROLLING_COUNT
                : friction ? AccumulatedImpulse.FRICTION_COUNT : AccumulatedImpulse.NORMAL_COUNT;
    }
}
