package io.contactsolver.core;

/**
 * The soft step's constants of one step (docs/physics.md, "Soft step"): the substep {@code h}, and
 * the soft contact's coefficients from integrating a spring-damper contact of frequency {@code f}
 * and damping ratio {@code zeta} implicitly over one substep, with {@code omega = 2 pi f}:
 * {@code a1 = 2 zeta + h omega}, {@code a2 = h omega a1}, {@code a3 = 1 / (1 + a2)};
 * {@code biasRate = omega / a1}, {@code massScale = a2 a3}, {@code impulseScale = a3}. A manifold
 * one of whose sides cannot move uses the static set, of twice the frequency and half the damping
 * ratio, so that bodies resting on the ground sink half as far under their load. Computed once on
 * the host and handed to either backend, so both use the same bits.
 *
 * @param substeps substeps per step
 * @param substep the substep {@code h = dt / substeps}, seconds
 * @param inverseSubstep {@code 1 / h}
 * @param hertz the contact frequency used, Hz
 * @param biasRate how fast overlap is pushed out, per second
 * @param massScale share of the rigid impulse the soft row applies
 * @param impulseScale share of the accumulated impulse the soft row takes back (the spring's give)
 * @param staticBiasRate {@code biasRate} of the static set
 * @param staticMassScale {@code massScale} of the static set
 * @param staticImpulseScale {@code impulseScale} of the static set
 * @param maxPushOut the fastest push-out, m/s
 */
public record SoftCoefficients(int substeps, float substep, float inverseSubstep, float hertz, float biasRate,
        float massScale, float impulseScale, float staticBiasRate, float staticMassScale, float staticImpulseScale,
        float maxPushOut) {

    /**
     * The share of the substep rate {@code r = 1 / h} the contact frequency takes by default, and the
     * most it may take, up to {@link #GAME_SUBSTEP_RATE}: an eighth, so that the static set, at twice
     * the frequency, stays within a quarter. Measured (docs/physics.md, "Stiffness and stability"): a
     * resting column with friction comes to rest at an eighth on 1 to 16 substeps and every accepted
     * damping ratio (0 to 10), and the 100-row one-box-thick pyramid stands at 60 Hz in 4 substeps.
     */
    public static final float GAME_SHARE_OF_SUBSTEP_RATE = 0.125f;

    /** The substep rate, Hz, of Box2D's and Box3D's budget (60 Hz in 4 substeps), up to which the share is an eighth. */
    public static final float GAME_SUBSTEP_RATE = 240.0f;

    /**
     * The largest share of the substep rate any frequency, the static set's included, may take: a
     * quarter. Above it a resting column with friction gains energy (the ground at half the rate
     * gained in every case tried).
     */
    public static final float HIGHEST_SHARE_OF_SUBSTEP_RATE = 0.25f;

    /**
     * The contact frequency a step of {@code dt} in {@code substeps} takes by default, and the most it
     * allows: {@code s r} with {@code r = substeps / dt} the substep rate and the share
     * {@code s = (1/8) cbrt(r / 240 Hz)}, clamped to {@code [1/8, 1/4]}: an eighth up to Box3D's
     * budget (30 Hz at 60 Hz and 4 substeps), a quarter from 1,920 Hz (500 Hz for a granular step of
     * 2 ms in 4 substeps). Fine substeps carry small bodies, whose piles need the stiffer contact to
     * keep their overlap small; coarse ones carry tall stacks of large bodies, which stand only at an
     * eighth. StrictMath keeps the bits the same on every machine.
     */
    public static float highestHertz(float dt, int substeps) {
        float rate = substeps / dt;
        float share = (float) (GAME_SHARE_OF_SUBSTEP_RATE * StrictMath.cbrt((double) rate / GAME_SUBSTEP_RATE));
        share = Math.min(Math.max(share, GAME_SHARE_OF_SUBSTEP_RATE), HIGHEST_SHARE_OF_SUBSTEP_RATE);
        return share / (dt / substeps);
    }

    /**
     * The coefficients of a step {@code dt} split into {@code substeps}, whatever float makes of
     * them: {@link #stiffnessProblem} and {@link #degenerateQuantity} say whether a step may use them.
     *
     * @param hertz the contact frequency, Hz, or 0 for {@link #highestHertz}
     */
    public static SoftCoefficients of(float dt, int substeps, float hertz, float dampingRatio, float maxPushOut) {
        float h = dt / substeps;
        float frequency = hertz > 0.0f ? hertz : highestHertz(dt, substeps);
        float[] dynamic = soft(frequency, dampingRatio, h);
        // twice as stiff, within the quarter (at the game share exactly twice: 2 (r/8) is r/4 to the bit)
        float staticFrequency = Math.min(2.0f * frequency, HIGHEST_SHARE_OF_SUBSTEP_RATE / h);
        float[] fixed = soft(staticFrequency, 0.5f * dampingRatio, h);
        return new SoftCoefficients(substeps, h, 1.0f / h, frequency, dynamic[0], dynamic[1], dynamic[2], fixed[0],
                fixed[1], fixed[2], maxPushOut);
    }

    /**
     * Why a contact frequency of {@code hertz} is too stiff for a step of {@code dt} in
     * {@code substeps}, or null if it is not: above {@link #highestHertz} (within a ten-thousandth,
     * so that a frequency taken from the bound passes despite rounding).
     */
    public static String stiffnessProblem(float dt, int substeps, float hertz) {
        float highest = highestHertz(dt, substeps);
        if (!(hertz > highest * 1.0001f)) {
            return null;
        }
        return "contact hertz " + hertz + " is above the stiffest a step allows, " + highest + " Hz for a step of "
                + dt + " s in " + substeps + " substeps (an eighth of the substep rate up to 240 Hz, a quarter from "
                + "1920 Hz): stiffer contacts gain energy or topple tall stacks; lower it, or take more substeps";
    }

    /** {@code biasRate}, {@code massScale}, {@code impulseScale} of a spring of {@code frequency} Hz and damping ratio {@code zeta}. */
    private static float[] soft(float frequency, float zeta, float h) {
        float omega = (float) (2.0 * Math.PI) * frequency;
        float a1 = 2.0f * zeta + h * omega;
        float a2 = h * omega * a1;
        float a3 = 1.0f / (1.0f + a2);
        return new float[] {omega / a1, a2 * a3, a3};
    }

    /**
     * The first of the substep and the coefficients that float cannot carry, as
     * {@code "name = value is why"}, or null if all are finite and normal: a zero or subnormal one
     * would switch the soft contact off, or keep too few digits, without a word.
     */
    public String degenerateQuantity() {
        String[] names = {"substep h = dt / " + substeps, "1 / h", "bias rate", "mass scale", "impulse scale",
            "static bias rate", "static mass scale", "static impulse scale"};
        float[] values = {substep, inverseSubstep, biasRate, massScale, impulseScale, staticBiasRate, staticMassScale,
            staticImpulseScale};
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
