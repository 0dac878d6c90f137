package io.contactsolver.core;

/**
 * What a soft step keeps of each contact for contact recycling in the next step, in storage order:
 * its anchors {@code r_a}, {@code r_b}, normal and separation as they were when the contact was
 * taken from the batch (its capture), and both bodies' orientations then (the world's is the
 * identity). A result holds them structure of arrays, contact order, beside its impulses.
 */
public enum CaptureField {
    RAX, RAY, RAZ,
    RBX, RBY, RBZ,
    NX, NY, NZ,
    S,
    QAW, QAX, QAY, QAZ,
    QBW, QBX, QBY, QBZ;

    public static final int COUNT = values().length;
}
