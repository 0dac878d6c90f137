package io.contactsolver.core;

/**
 * What the soft step keeps of each contact beside its {@link ContactRowField}s, in storage order:
 * the separation at the start of the step and the lever arms {@code r_a}, {@code r_b} (contact
 * point minus centre of mass, world space, at the start of the step), from which a substep computes
 * the current separation {@code s = s0 + n . (d_b - d_a)} with {@code d = dx + (R(dq) - 1) r}
 * (docs/physics.md, "Soft step: substeps, soft contacts, a relax sweep"). Rows in colour order,
 * each row's fields together ({@code r * COUNT + field}) on the CPU, structure of arrays on a
 * device.
 */
public enum SoftRowField {
    S0,
    RAX, RAY, RAZ,
    RBX, RBY, RBZ;

    public static final int COUNT = values().length;
}
