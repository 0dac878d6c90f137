package io.contactsolver.core;

/**
 * The soft step's constraint of one contact manifold (docs/physics.md, "Soft step"), in storage
 * order: what a substep needs of the manifold as a whole, with every product of an inverse inertia
 * and a fixed direction worked out once a step, so that a sweep only multiplies and adds. Its
 * points are {@link PointField} records of their own. Manifolds in colour order, each manifold's
 * fields together ({@code m * COUNT + field}) on the CPU, structure of arrays on a device.
 *
 * <ul>
 *   <li>{@code N}, {@code T1}, {@code T2}: the manifold's normal (from a to b) and its two tangents;</li>
 *   <li>{@code INV_MASS_A}, {@code INV_MASS_B}: each side's inverse mass, 0 for a side contacts
 *       cannot move;</li>
 *   <li>{@code BIAS_RATE}, {@code MASS_SCALE}, {@code IMPULSE_SCALE}: the soft coefficients the
 *       manifold uses (stiffer where one side cannot move), beside what else a soft sweep reads,
 *       so that on the CPU it reads the start of the record alone;</li>
 *   <li>the friction centre {@code c_a}, {@code c_b} (the mean of the points' anchors on each side):
 *       {@code CXT1_A = c_a x t1}, {@code CXT2_A = c_a x t2} and {@code DIRT1_A = I_a^-1 (c_a x t1)},
 *       {@code DIRT2_A = I_a^-1 (c_a x t2)}, likewise for b;</li>
 *   <li>{@code TM11}, {@code TM12}, {@code TM22}: the tangent mass, the inverse of the 2x2 block
 *       {@code [t_i . K t_j]} at the centre (0 when the block is singular);</li>
 *   <li>{@code TWIST_A = I_a^-1 n}, {@code TWIST_B = I_b^-1 n}, and {@code TWIST_MASS =
 *       1 / (n . (I_a^-1 + I_b^-1) n)} (0 when nothing can turn about n);</li>
 *   <li>{@code TWIST_F1}, {@code TWIST_F2}: the twist's coupling to the friction pair, the change
 *       of the pair's impulses (before their disk) per unit twist impulse: {@code TM} times the
 *       change of the relative velocity at the centre along t1, t2 ({@code TWIST_B . CXT1_B +
 *       TWIST_A . CXT1_A}, likewise for t2);</li>
 *   <li>{@code ROLL1_A = I_a^-1 t1}, {@code ROLL2_A = I_a^-1 t2}, likewise for b, and {@code RM11},
 *       {@code RM12}, {@code RM22}: the rolling mass, the inverse of {@code [t_i . (I_a^-1 + I_b^-1) t_j]}
 *       (all 0 for a manifold without rolling resistance, whose rolling pair stays at zero);</li>
 *   <li>{@code MU}, {@code RHO}, {@code TORSION}: the manifold's friction coefficient, rolling
 *       resistance and torsional resistance (m);</li>
 *   <li>{@code VT1}, {@code VT2}, {@code VTWIST}, {@code VR1}, {@code VR2}: at the start of the step,
 *       the relative velocity at the centre along the tangents, and the relative angular velocity
 *       along n, t1 and t2.</li>
 * </ul>
 */
public enum ManifoldField {
    NX, NY, NZ,
    T1X, T1Y, T1Z,
    T2X, T2Y, T2Z,
    INV_MASS_A, INV_MASS_B,
    BIAS_RATE, MASS_SCALE, IMPULSE_SCALE,
    CXT1_AX, CXT1_AY, CXT1_AZ,
    CXT2_AX, CXT2_AY, CXT2_AZ,
    CXT1_BX, CXT1_BY, CXT1_BZ,
    CXT2_BX, CXT2_BY, CXT2_BZ,
    DIRT1_AX, DIRT1_AY, DIRT1_AZ,
    DIRT2_AX, DIRT2_AY, DIRT2_AZ,
    DIRT1_BX, DIRT1_BY, DIRT1_BZ,
    DIRT2_BX, DIRT2_BY, DIRT2_BZ,
    TM11, TM12, TM22,
    TWIST_AX, TWIST_AY, TWIST_AZ,
    TWIST_BX, TWIST_BY, TWIST_BZ,
    TWIST_MASS,
    TWIST_F1, TWIST_F2,
    ROLL1_AX, ROLL1_AY, ROLL1_AZ,
    ROLL2_AX, ROLL2_AY, ROLL2_AZ,
    ROLL1_BX, ROLL1_BY, ROLL1_BZ,
    ROLL2_BX, ROLL2_BY, ROLL2_BZ,
    RM11, RM12, RM22,
    MU, RHO, TORSION,
    VT1, VT2, VTWIST, VR1, VR2;

    public static final int COUNT = values().length;
}
