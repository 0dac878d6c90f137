package io.contactsolver.core;

/**
 * A manifold's friction and angular impulse as world-space vectors on body b, in storage order:
 * {@code F}, the friction pair at the centre ({@code f1 t1 + f2 t2}), and {@code A}, the twist and
 * rolling pair ({@code twist n + r1 t1 + r2 t2}). What a soft step starts a manifold from (the warm
 * start, projected onto its tangents) and what it ends with. Structure of arrays, manifold order:
 * field {@code f} of manifold {@code m} at {@code f * count + m}.
 */
public enum ManifoldVectorField {
    FX, FY, FZ,
    AX, AY, AZ;

    public static final int COUNT = values().length;
}
