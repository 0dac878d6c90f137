package io.contactsolver.core;

/**
 * The groups of input fields whose magnitudes {@link InputMagnitudes} bounds: per record, the sum
 * of the group's fields' magnitudes, and over the batch the largest such sum. The validator's
 * screen keeps them, on the host or on a device, in this order.
 */
public enum MagnitudeGroup {
    /** A contact's point: {@code |px| + |py| + |pz|}. */
    CONTACT_POINT,
    /** A body's position: {@code |x| + |y| + |z|}. */
    POSITION,
    /** A body's inverse mass. */
    INVERSE_MASS,
    /** A body's inverse inertia, its six entries. */
    INVERSE_INERTIA,
    /** A body's linear velocity. */
    LINEAR_VELOCITY,
    /** A body's angular velocity. */
    ANGULAR_VELOCITY;

    /** The groups. */
    public static final int COUNT = values().length;
}
