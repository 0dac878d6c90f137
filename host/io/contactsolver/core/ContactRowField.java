package io.contactsolver.core;

/**
 * What the iterative solver keeps of each contact between iterations, in storage order. Rows are
 * stored structure of arrays ({@code field * rowStride + row}, rows in colour order), so the
 * work-items of a colour read each field coalesced. Written once per solve, read every iteration.
 */
public enum ContactRowField {
    NX, NY, NZ,
    /** {@code r_a x n} and {@code r_b x n}: how each body's angular velocity change moves {@code v_n}. */
    RXN_AX, RXN_AY, RXN_AZ,
    RXN_BX, RXN_BY, RXN_BZ,
    /** {@code I_a^-1 (r_a x n)}, {@code I_b^-1 (r_b x n)}: angular velocity change per unit impulse. */
    DIR_AX, DIR_AY, DIR_AZ,
    DIR_BX, DIR_BY, DIR_BZ,
    INV_MASS_A, INV_MASS_B,
    /** Effective inverse mass along n; rows with {@code K <= 0} are inert. */
    K,
    /** Normal relative velocity before the solve. */
    VN0,
    /** The normal velocity the contact must at least leave with. */
    TARGET;

    public static final int COUNT = values().length;
}
