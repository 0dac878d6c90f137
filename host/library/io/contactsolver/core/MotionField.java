package io.contactsolver.core;

/**
 * A body's motion so far within a soft step, array of structures, sixteen floats (64 bytes) a
 * body: its displacement {@code dx}, its rotation {@code dq} (a unit quaternion, identity at the
 * start of the step) and {@code R(dq) - 1} as a row-major 3x3 matrix, so that a contact row turns
 * its lever arm with nine products instead of a quaternion rotation. The record after the last
 * body stands for the world: all zero, never written.
 */
public enum MotionField {
    DX, DY, DZ,
    QW, QX, QY, QZ,
    M00, M01, M02,
    M10, M11, M12,
    M20, M21, M22;

    /** Floats per record. */
    public static final int STRIDE = values().length;
}
