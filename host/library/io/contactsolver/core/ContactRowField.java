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
    TARGET,
    /**
     * Friction coefficient and rolling resistance (0 also where the contact cannot take the
     * impulse: a zero tangent or rolling block). A row with both 0 and no torsional resistance is
     * frictionless, and the fields after these are neither written nor read for it, but for its
     * {@link #TAU} (0) in a batch with torsion.
     */
    MU, RHO,
    /** The fixed tangents t1, t2 of the normal (docs/physics.md, "Iterative solver with friction"). */
    T1X, T1Y, T1Z,
    T2X, T2Y, T2Z,
    /** {@code r x t_i} of each side: how its angular velocity change moves {@code v . t_i}. */
    RXT1_AX, RXT1_AY, RXT1_AZ,
    RXT1_BX, RXT1_BY, RXT1_BZ,
    RXT2_AX, RXT2_AY, RXT2_AZ,
    RXT2_BX, RXT2_BY, RXT2_BZ,
    /** {@code I^-1 (r x t_i)} of each side: angular velocity change per unit tangential impulse. */
    DIRT1_AX, DIRT1_AY, DIRT1_AZ,
    DIRT1_BX, DIRT1_BY, DIRT1_BZ,
    DIRT2_AX, DIRT2_AY, DIRT2_AZ,
    DIRT2_BX, DIRT2_BY, DIRT2_BZ,
    /** The larger eigenvalue of the 2x2 block {@code [t_i . K t_j]}: the tangent pair's one step size. */
    KT,
    /** Relative contact velocity along t1 and t2 before the solve. */
    VT1_0, VT2_0,
    /** {@code I^-1 t_i} of each side: angular velocity change per unit rolling impulse. */
    ROLL1_AX, ROLL1_AY, ROLL1_AZ,
    ROLL1_BX, ROLL1_BY, ROLL1_BZ,
    ROLL2_AX, ROLL2_AY, ROLL2_AZ,
    ROLL2_BX, ROLL2_BY, ROLL2_BZ,
    /** The larger eigenvalue of {@code [t_i . (I_a^-1 + I_b^-1) t_j]}: the rolling pair's step size. */
    KR,
    /** Relative angular velocity {@code w_b - w_a} along t1 and t2 before the solve. */
    WT1_0, WT2_0,
    /**
     * Torsional resistance (0 also where the contact cannot take a twist: a zero {@link #KTW}).
     * Written for every row of a batch with torsion, frictionless ones included; the fields after
     * it are read only where it is above 0.
     */
    TAU,
    /** {@code I_a^-1 n}, {@code I_b^-1 n}: angular velocity change per unit twist impulse about n. */
    TWIST_AX, TWIST_AY, TWIST_AZ,
    TWIST_BX, TWIST_BY, TWIST_BZ,
    /** {@code n . (I_a^-1 + I_b^-1) n}: the twist row's step size. */
    KTW,
    /** Relative angular velocity {@code w_b - w_a} along n before the solve. */
    WN_0;

    public static final int COUNT = values().length;
    /** The fields a row of a batch with no friction, rolling or torsional resistance keeps: the normal row alone. */
    public static final int NORMAL_COUNT = MU.ordinal();
    /** The fields a frictionless row of a frictional batch uses: the normal row and its {@link #MU}, {@link #RHO}. */
    public static final int FRICTIONLESS_COUNT = RHO.ordinal() + 1;
    /** The fields a row with friction but no rolling resistance uses: everything before the rolling terms. */
    public static final int FRICTION_COUNT = ROLL1_AX.ordinal();
    /** The fields a row with rolling but no torsional resistance uses: everything before the twist terms. */
    public static final int ROLLING_COUNT = TAU.ordinal();
}
