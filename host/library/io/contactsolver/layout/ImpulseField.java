package io.contactsolver.layout;

import java.util.Locale;

/**
 * The per-contact output fields of a solve, in storage order (structure of arrays in
 * {@code SolveResult}, field {@code f} of contact {@code c} at {@code f.ordinal() * stride + c}).
 *
 * <p>{@link #J} is the normal impulse, {@code >= 0}. {@code TX..TZ} is the tangential (friction)
 * impulse on body b, world space, and {@code RX..RZ} the angular impulse on body b: the rolling
 * resistance's along the tangents plus the torsional resistance's twist along the normal; body a
 * receives the opposite of each. The tangential vector is exactly zero for a contact without
 * friction, the angular one for a contact without rolling and torsional resistance.
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
    /** Angular (rolling and twist) impulse on body b, x, in N m s, world space. */
    RX,
    /** Angular (rolling and twist) impulse on body b, y, in N m s, world space. */
    RY,
    /** Angular (rolling and twist) impulse on body b, z, in N m s, world space. */
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
