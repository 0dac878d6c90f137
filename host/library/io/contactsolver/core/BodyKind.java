package io.contactsolver.core;

import io.contactsolver.layout.BodyField;
import java.nio.FloatBuffer;

/** The one definition of which bodies contacts can move. */
public final class BodyKind {
    static final int[] INVERSE_MASS_FIELDS = {
        BodyField.INV_MASS.ordinal(),
        BodyField.INV_IXX.ordinal(), BodyField.INV_IYY.ordinal(), BodyField.INV_IZZ.ordinal(),
        BodyField.INV_IXY.ordinal(), BodyField.INV_IXZ.ordinal(), BodyField.INV_IYZ.ordinal(),
    };

    private BodyKind() {
    }

    /**
     * Whether the body's inverse mass and inverse inertia are all zero. Such a body (static or
     * kinematic) gets exactly zero velocity change, does not need a per-body sum, and does not
     * count as a conflict when contacts are partitioned for parallel solving.
     */
    public static boolean isImmovable(FloatBuffer bodies, int stride, int body) {
        for (int field : INVERSE_MASS_FIELDS) {
            if (bodies.get(field * stride + body) != 0.0f) {
                return false;
            }
        }
        return true;
    }
}
