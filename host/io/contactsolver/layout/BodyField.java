package io.contactsolver.layout;

import io.contactsolver.layout.BodyField;
import java.util.Locale;

/**
 * The per-body input fields, in storage order.
 *
 * <p>A {@code BodyBatch} stores each field as its own contiguous run of floats (structure of
 * arrays): field {@code f} of body {@code i} lives at float index {@code f.ordinal() * stride + i}.
 * This enum is the one definition of that order: the CSV reader takes its column names from
 * {@link #column()}, the validator names faults by them, and the OpenCL kernels receive the
 * ordinals as {@code -DBODY_<NAME>=<ordinal>} build options.
 *
 * <p>Positions, orientations and velocities are in world space; the inverse inertia tensor is in
 * body space (symmetric, six independent entries).
 */
public enum BodyField {
    X, Y, Z,
    QW, QX, QY, QZ,
    VX, VY, VZ,
    WX, WY, WZ,
    INV_MASS,
    INV_IXX, INV_IYY, INV_IZZ, INV_IXY, INV_IXZ, INV_IYZ;

    /** Number of float fields per body. */
    public static final int COUNT = values().length;

    /** The column name used in {@code bodies.csv}. */
    public String column() {
        return name().toLowerCase(Locale.ROOT);
    }
}
