package io.contactsolver.core;

/**
 * The scratch a contact's friction maths works in (Java: {@code BodyMath}, OpenCL C: the
 * {@code WORK_*} build options), one float each: the single pass's impulse on body b, both lever
 * arms and the relative velocity of the contact points ({@code BodyMath.contactMotion}), and each
 * side's share of the 3x3 matrix {@code K} (xx, yy, zz, xy, xz, yz).
 */
public enum FrictionWork {
    PX, PY, PZ,
    RAX, RAY, RAZ,
    RBX, RBY, RBZ,
    VX, VY, VZ,
    A_XX, A_YY, A_ZZ, A_XY, A_XZ, A_YZ,
    B_XX, B_YY, B_ZZ, B_XY, B_XZ, B_YZ;

    /** Floats of scratch. */
    public static final int COUNT = values().length;
}
