package io.contactsolver.core;

/**
 * One point of a soft-step manifold ({@link ManifoldField}), in storage order: its anchors
 * {@code r_a}, {@code r_b} (the point minus each body's centre of mass, world space, fixed for the
 * step), {@code RXN_A = r_a x n}, {@code DIR_A = I_a^-1 (r_a x n)} and likewise for b, its
 * separation {@code s0} at the start of the step, its normal mass {@code 1 / K} (0 when {@code K}
 * is not positive), its lever {@code |r_a - c_a|} about the friction centre (the twist limit's
 * arm), its normal velocity {@code v_n0} at the start of the step, its restitution target, and its
 * couplings {@code COUPLING_k = J_(p+k) M^-1 J_p^T} to the k-th point after it in its manifold (the
 * change of that point's normal velocity per unit impulse at this one; 0 past the manifold's last
 * point). A substep's separation is {@code s = s0 + n . (d_b - d_a)}, {@code d = dx + (R(dq) - 1) r}. Points
 * in manifold order, each manifold's points consecutive; each point's fields together on the CPU,
 * structure of arrays on a device.
 */
public enum PointField {
    RAX, RAY, RAZ,
    RBX, RBY, RBZ,
    RXN_AX, RXN_AY, RXN_AZ,
    RXN_BX, RXN_BY, RXN_BZ,
    DIR_AX, DIR_AY, DIR_AZ,
    DIR_BX, DIR_BY, DIR_BZ,
    S0,
    NORMAL_MASS,
    LEVER,
    VN0,
    TARGET,
    COUPLING_1, COUPLING_2, COUPLING_3;

    public static final int COUNT = values().length;
}
