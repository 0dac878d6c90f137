package io.contactsolver.layout;

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
    /** Normal impulse {@code j >= 0}, in N s: body b receives {@code +j n}, body a {@code -j n}. */
    J,
    /** Tangential (friction) impulse on body b, x, in N s, world space. */
    TX,
    /** Tangential (friction) impulse on body b, y, in N s, world space. */
    TY,
    /** Tangential (friction) impulse on body b, z, in N s, world space. */
    TZ,
    /** Rolling-resistance angular impulse on body b, x, in N m s, world space. */
    RX,
    /** Rolling-resistance angular impulse on body b, y, in N m s, world space. */
    RY,
    /** Rolling-resistance angular impulse on body b, z, in N m s, world space. */
    RZ;

    /** Number of float fields per contact. */
    public static final int COUNT = values().length;

    /**
     * The column name used in {@code impulses.csv} (docs/formats.md, "Outputs of `solve`").
     *
     * @return the constant's name in lower case, such as {@code "j"}
     */
    public String column() {
        return name().toLowerCase(Locale.ROOT);
    }
}
