package io.contactsolver.core;

/**
 * The impulses the soft step accumulates for a manifold beside its points' normal impulses, in
 * storage order: the friction pair at the friction centre (on the manifold's tangents), the twist
 * about the normal and the rolling pair (angular, on the tangents). Together per manifold on the
 * CPU, structure of arrays on a device.
 */
public enum ManifoldImpulse {
    F1, F2,
    TWIST,
    R1, R2;

    public static final int COUNT = values().length;
}
