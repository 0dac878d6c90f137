package io.contactsolver.layout;

import io.contactsolver.layout.ImpulseField;
import java.util.Locale;

/**
 * The per-contact output fields of a solve, in storage order (structure of arrays in
 * {@code SolveResult}, field {@code f} of contact {@code c} at {@code f.ordinal() * stride + c}).
 *
 * <p>{@link #J} is the normal impulse, {@code >= 0}. {@code TX..TZ} is the tangential (friction)
 * impulse on body b, world space, and {@code RX..RZ} the rolling-resistance angular impulse on body
 * b; body a receives the opposite of each. Both vectors are exactly zero for a contact without
 * friction or rolling resistance.
 */
public enum ImpulseField {
    J,
    TX, TY, TZ,
    RX, RY, RZ;

    /** Number of float fields per contact. */
    public static final int COUNT = values().length;

    /** The column name used in {@code impulses.csv}. */
    public String column() {
        return name().toLowerCase(Locale.ROOT);
    }
}
