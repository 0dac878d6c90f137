package io.contactsolver.layout;

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
    /** Position of the centre of mass, x, in metres, world space. */
    X,
    /** Position of the centre of mass, y, in metres, world space. */
    Y,
    /** Position of the centre of mass, z, in metres, world space. */
    Z,
    /** Orientation, the scalar part {@code w} of the unit quaternion that rotates body space into world space. */
    QW,
    /** Orientation, the {@code x} of the quaternion's vector part. */
    QX,
    /** Orientation, the {@code y} of the quaternion's vector part. */
    QY,
    /** Orientation, the {@code z} of the quaternion's vector part. */
    QZ,
    /** Linear velocity of the centre of mass, x, in m/s, world space. */
    VX,
    /** Linear velocity of the centre of mass, y, in m/s, world space. */
    VY,
    /** Linear velocity of the centre of mass, z, in m/s, world space. */
    VZ,
    /** Angular velocity, x, in rad/s, world space. */
    WX,
    /** Angular velocity, y, in rad/s, world space. */
    WY,
    /** Angular velocity, z, in rad/s, world space. */
    WZ,
    /** Inverse mass in 1/kg, finite and {@code >= 0}; 0 for a static or kinematic body. */
    INV_MASS,
    /** Inverse inertia tensor, body space, in 1/(kg m^2): the diagonal entry xx. */
    INV_IXX,
    /** Inverse inertia tensor, body space: the diagonal entry yy. */
    INV_IYY,
    /** Inverse inertia tensor, body space: the diagonal entry zz. */
    INV_IZZ,
    /** Inverse inertia tensor, body space: the off-diagonal entry xy (equal to yx). */
    INV_IXY,
    /** Inverse inertia tensor, body space: the off-diagonal entry xz (equal to zx). */
    INV_IXZ,
    /** Inverse inertia tensor, body space: the off-diagonal entry yz (equal to zy). */
    INV_IYZ;

    /** Number of float fields per body. */
    public static final int COUNT = values().length;

    /**
     * The column name used in {@code bodies.csv} (docs/formats.md, "bodies.csv") and in the messages
     * of {@code InvalidInputException}.
     *
     * @return the constant's name in lower case, such as {@code "inv_ixx"}
     */
    public String column() {
        return name().toLowerCase(Locale.ROOT);
    }
}
