package io.contactsolver.core;

/**
 * The impulses the iterative solver accumulates for each row, in storage order: the normal impulse,
 * the tangent pair on the row's fixed tangents, the rolling pair along the same tangents and the
 * twist about the normal. The
 * device keeps them structure of arrays like its rows ({@code field * rows + row}); the CPU keeps
 * a row's together and only the leading ones its batch needs ({@code FrictionUse.accumulatedImpulses}).
 */
public enum AccumulatedImpulse {
    N,
    T1, T2,
    R1, R2,
    TW;

    public static final int COUNT = values().length;
    /** The impulses of a row with friction but no rolling resistance: the leading three. */
    public static final int FRICTION_COUNT = R1.ordinal();
    /** The impulses of a row with rolling but no torsional resistance: all but the twist. */
    public static final int ROLLING_COUNT = TW.ordinal();
    /** The impulse of a row with none of them: the normal impulse alone. */
    public static final int NORMAL_COUNT = T1.ordinal();
}
