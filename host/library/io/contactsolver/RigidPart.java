package io.contactsolver;

/**
 * The settings the single pass and the iterative solver share ({@link RigidSettings}), kept once:
 * the restitution threshold, positional correction (on or off, its bias factor and slop) and the
 * friction switch. Each {@code with} method checks its value ({@link SettingChecks}).
 */
record RigidPart(float restitutionThreshold, boolean positionalCorrection, float biasFactor, float slop,
        boolean friction) {
    /** Every shared setting at its default: no threshold, no positional correction, friction on. */
    static final RigidPart DEFAULTS = new RigidPart(0.0f, false, 0.0f, 0.0f, true);

    RigidPart withRestitutionThreshold(float threshold) {
        return new RigidPart(SettingChecks.restitutionThreshold(threshold), positionalCorrection, biasFactor, slop,
                friction);
    }

    RigidPart withPositionalCorrection(float newBiasFactor, float newSlop) {
        return new RigidPart(restitutionThreshold, true, SettingChecks.biasFactor(newBiasFactor),
                SettingChecks.slop(newSlop), friction);
    }

    RigidPart withoutPositionalCorrection() {
        return new RigidPart(restitutionThreshold, false, 0.0f, 0.0f, friction);
    }

    RigidPart withFriction(boolean useFriction) {
        return new RigidPart(restitutionThreshold, positionalCorrection, biasFactor, slop, useFriction);
    }

    /** How {@code toString} ends: the positional correction and the friction switch where they are not the defaults. */
    String text() {
        return (positionalCorrection ? ", positional correction bias=" + biasFactor + " slop=" + slop : "")
                + (friction ? "" : ", friction off");
    }
}
