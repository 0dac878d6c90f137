package io.contactsolver.core;

/**
 * A contact's geometry as the soft step uses it, after contact recycling ({@code Recycler}): its
 * anchors {@code r_a}, {@code r_b} (world space, from each body's centre of mass), its normal and
 * its separation at the start of the step. A fresh contact's anchors are its point less each
 * body's position and its normal and separation are the batch's; a recycled one's are those kept
 * from when it was taken. Structure of arrays, contact order: field {@code f} of contact {@code c}
 * at {@code f * count + c}.
 */
public enum GeometryField {
    RAX, RAY, RAZ,
    RBX, RBY, RBZ,
    NX, NY, NZ,
    S;

    public static final int COUNT = values().length;
}
