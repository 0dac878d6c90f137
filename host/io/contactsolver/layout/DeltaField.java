package io.contactsolver.layout;

import io.contactsolver.layout.DeltaField;
import java.util.Locale;

/**
 * The per-body output fields of a solve, in storage order: the change of linear velocity and the
 * change of angular velocity, world space. Stored structure of arrays in {@code SolveResult}, and
 * the same six-float order is used for each side's share of a contact inside the solvers.
 */
public enum DeltaField {
    DVX, DVY, DVZ,
    DWX, DWY, DWZ;

    /** Number of float fields per body. */
    public static final int COUNT = values().length;

    /** The column name used in {@code deltas.csv}. */
    public String column() {
        return name().toLowerCase(Locale.ROOT);
    }
}
