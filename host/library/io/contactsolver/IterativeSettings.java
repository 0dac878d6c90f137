package io.contactsolver;

import java.util.Objects;

/**
 * The iterative solver's settings ({@link SolveSettings#iterative(int)}): all contacts resolved
 * together, projected Gauss-Seidel over a colouring of the contact graph (docs/physics.md, "Several
 * contacts: single pass and iterative solver"). Immutable; each {@code with} method returns a
 * changed copy and refuses a bad value at the call, naming it.
 *
 * <ul>
 *   <li>{@code iterations}: the most iterations of a solve (default
 *       {@value #DEFAULT_ITERATIONS});</li>
 *   <li>{@code tolerance}: stop early once an iteration changes no contact's accumulated impulse by
 *       more than this (default 0: stop only at an exact fixed point);</li>
 *   <li>{@code colourBudget}: the most colours of the contact partition (default
 *       {@value #DEFAULT_COLOUR_BUDGET}, at most 64); contacts that do not fit are solved one after
 *       the other after the colours;</li>
 *   <li>and what every rigid solver has ({@link RigidSettings}): {@code restitutionThreshold}
 *       (default 0), positional correction with {@code biasFactor} and {@code slop} (default off),
 *       {@code friction} (default on).</li>
 * </ul>
 */
public final class IterativeSettings extends RigidSettings {
    /** The default most iterations of a solve. */
    public static final int DEFAULT_ITERATIONS = 100;
    /** The default most colours of the contact partition. */
    public static final int DEFAULT_COLOUR_BUDGET = 32;

    /** Every setting at its default. */
    static final IterativeSettings DEFAULTS = new IterativeSettings(DEFAULT_ITERATIONS, 0.0f, DEFAULT_COLOUR_BUDGET,
            RigidPart.DEFAULTS);

    private final int iterations;
    private final float tolerance;
    private final int colourBudget;

    private IterativeSettings(int iterations, float tolerance, int colourBudget, RigidPart rigid) {
        super(rigid);
        this.iterations = iterations;
        this.tolerance = tolerance;
        this.colourBudget = colourBudget;
    }

    /** These settings with the shared ones replaced by {@code part}. */
    private IterativeSettings with(RigidPart part) {
        return new IterativeSettings(iterations, tolerance, colourBudget, part);
    }

    @Override
    public SolverKind kind() {
        return SolverKind.ITERATIVE;
    }

    /**
     * The most iterations of a solve (default {@value #DEFAULT_ITERATIONS}).
     *
     * @param newIterations at least 1
     * @return a copy with the new limit
     * @throws IllegalArgumentException if {@code newIterations < 1}
     */
    public IterativeSettings withIterations(int newIterations) {
        return new IterativeSettings(SettingChecks.iterations(newIterations), tolerance, colourBudget, rigid());
    }

    /**
     * Lets the solver stop early, once an iteration changes no contact's accumulated impulse by more
     * than {@code newTolerance} (default 0: only at an exact fixed point).
     *
     * @param newTolerance in N s, finite and {@code >= 0}
     * @return a copy with the new tolerance
     * @throws IllegalArgumentException if {@code newTolerance} is negative or not finite
     */
    public IterativeSettings withTolerance(float newTolerance) {
        if (!(newTolerance >= 0.0f) || !Float.isFinite(newTolerance)) {
            throw new IllegalArgumentException("tolerance must be finite and not negative, got " + newTolerance);
        }
        // no -0: the device compares the bits
        return new IterativeSettings(iterations, newTolerance + 0.0f, colourBudget, rigid());
    }

    /**
     * The most colours of the contact partition (default {@value #DEFAULT_COLOUR_BUDGET}); contacts
     * that do not fit are solved one after the other after the colours
     * ({@link SolveResult#overflowCount()}).
     *
     * @param newBudget from 1 to 64
     * @return a copy with the new budget
     * @throws IllegalArgumentException if {@code newBudget} is out of that range
     */
    public IterativeSettings withColourBudget(int newBudget) {
        return new IterativeSettings(iterations, tolerance, SettingChecks.colourBudget(newBudget), rigid());
    }

    @Override
    public IterativeSettings withRestitutionThreshold(float threshold) {
        return with(rigid().withRestitutionThreshold(threshold));
    }

    @Override
    public IterativeSettings withPositionalCorrection(float biasFactor, float slop) {
        return with(rigid().withPositionalCorrection(biasFactor, slop));
    }

    @Override
    public IterativeSettings withoutPositionalCorrection() {
        return with(rigid().withoutPositionalCorrection());
    }

    @Override
    public IterativeSettings withFriction(boolean useFriction) {
        return with(rigid().withFriction(useFriction));
    }

    /**
     * The most iterations of a solve.
     *
     * @return at least 1
     */
    public int iterations() {
        return iterations;
    }

    /**
     * The largest change of an iteration at which the solver stops.
     *
     * @return in N s, {@code >= 0}; 0 stops only at an exact fixed point
     */
    public float tolerance() {
        return tolerance;
    }

    /**
     * The most colours of the contact partition.
     *
     * @return from 1 to 64
     */
    public int colourBudget() {
        return colourBudget;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof IterativeSettings that && iterations == that.iterations
                && Float.compare(tolerance, that.tolerance) == 0 && colourBudget == that.colourBudget
                && rigid().equals(that.rigid());
    }

    @Override
    public int hashCode() {
        return Objects.hash(iterations, tolerance, colourBudget, rigid());
    }

    /**
     * The settings by name, as {@code IterativeSettings[iterations=20, tolerance=0.0,
     * restitutionThreshold=0.0, colourBudget=32, positional correction bias=0.2 slop=0.001]}.
     */
    @Override
    public String toString() {
        return "IterativeSettings[iterations=" + iterations + ", tolerance=" + tolerance + ", restitutionThreshold="
                + restitutionThreshold() + ", colourBudget=" + colourBudget + rigid().text() + "]";
    }
}
