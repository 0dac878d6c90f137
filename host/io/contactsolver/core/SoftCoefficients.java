package io.contactsolver.core;

/**
 * The soft step's constants of one step (docs/physics.md, "Soft step: substeps, soft contacts, a
 * relax sweep"): the substep {@code h}, and the soft contact's coefficients from integrating a
 * spring-damper contact of frequency {@code f} and damping ratio {@code zeta} implicitly over one
 * substep, with {@code omega = 2 pi f}: {@code a1 = 2 zeta + h omega}, {@code a2 = h omega a1},
 * {@code a3 = 1 / (1 + a2)}; {@code biasRate = omega / a1}, {@code massScale = a2 a3},
 * {@code impulseScale = a3}. Computed once on the host and handed to either backend, so both use
 * the same bits.
 *
 * @param substeps substeps per step
 * @param substep the substep {@code h = dt / substeps}, seconds
 * @param inverseSubstep {@code 1 / h}
 * @param biasRate how fast overlap is pushed out, per second
 * @param massScale share of the rigid impulse the soft row applies
 * @param impulseScale share of the accumulated impulse the soft row takes back (the spring's give)
 * @param maxPushOut the fastest push-out, m/s
 */
public record SoftCoefficients(int substeps, float substep, float inverseSubstep, float biasRate, float massScale,
        float impulseScale, float maxPushOut) {

    /** The coefficients of a step {@code dt} split into {@code substeps}, stiffness capped at a quarter of the substep rate. */
    public static SoftCoefficients of(float dt, int substeps, float hertz, float dampingRatio, float maxPushOut) {
        float h = dt / substeps;
        // a spring faster than a quarter of the substep rate is not resolved by the substeps: cap it
        float frequency = Math.min(hertz, 0.25f / h);
        float omega = (float) (2.0 * Math.PI) * frequency;
        float a1 = 2.0f * dampingRatio + h * omega;
        float a2 = h * omega * a1;
        float a3 = 1.0f / (1.0f + a2);
        return new SoftCoefficients(substeps, h, 1.0f / h, omega / a1, a2 * a3, a3, maxPushOut);
    }

    /**
     * The first of the substep and the coefficients that float cannot carry, as
     * {@code "name = value is why"}, or null if all are finite and normal: a zero or subnormal one
     * would switch the soft contact off, or keep too few digits, without a word.
     */
    public String degenerateQuantity() {
        String[] names = {"substep h = dt / " + substeps, "1 / h", "bias rate", "mass scale", "impulse scale"};
        float[] values = {substep, inverseSubstep, biasRate, massScale, impulseScale};
        for (int q = 0; q < values.length; q++) {
            float value = values[q];
            if (!Float.isFinite(value)) {
                return names[q] + " = " + value + " is not finite";
            }
            if (!(value >= Float.MIN_NORMAL)) {
                return names[q] + " = " + value + (value == 0.0f ? " is zero" : " is subnormal (below "
                        + Float.MIN_NORMAL + ")");
            }
        }
        return null;
    }
}
