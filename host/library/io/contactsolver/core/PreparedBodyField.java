package io.contactsolver.core;

/**
 * The per-solve working record of a body, in storage order: what a contact needs of each of its
 * bodies, with the inverse inertia already rotated into world space ({@code R I_body^-1 R^T},
 * symmetric, six entries). Sixteen floats make one 64-byte record, so a contact reading a body in
 * random order touches one cache line (CPU) or two 32-byte sectors (GPU). Grouped by four so a
 * device can load it as four float4.
 *
 * <p>Records are stored array of structures: field {@code f} of body {@code i} is at
 * {@code i * STRIDE + f.ordinal()}. One extra all-zero record after the last body stands for the
 * static world, so contacts with the world need no branch.
 */
public enum PreparedBodyField {
    X, Y, Z, INV_MASS,
    VX, VY, VZ, IXX,
    WX, WY, WZ, IYY,
    IZZ, IXY, IXZ, IYZ;

    /** Floats per record. */
    public static final int STRIDE = values().length;
}
