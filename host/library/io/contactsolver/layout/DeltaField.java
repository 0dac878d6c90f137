package io.contactsolver.layout;

import java.util.Locale;

/**
 * The per-body output fields of a solve, in storage order: the change of linear velocity and the
 * change of angular velocity, world space. Stored structure of arrays in {@code SolveResult}, and
 * the same six-float order is used for each side's share of a contact inside the solvers.
 */
public enum DeltaField {
    /** Change of linear velocity, x, in m/s, world space. */
    DVX,
    /** Change of linear velocity, y, in m/s, world space. */
    DVY,
    /** Change of linear velocity, z, in m/s, world space. */
    DVZ,
    /** Change of angular velocity, x, in rad/s, world space. */
    DWX,
    /** Change of angular velocity, y, in rad/s, world space. */
    DWY,
    /** Change of angular velocity, z, in rad/s, world space. */
    DWZ;

    /** Number of float fields per body. */
    public static final int COUNT = values().length;

    /**
     * The column name used in {@code deltas.csv} (docs/formats.md, "Outputs of `solve`").
     *
     * @return the constant's name in lower case, such as {@code "dvx"}
     */
    public String column() {
        return name().toLowerCase(Locale.ROOT);
    }
}
