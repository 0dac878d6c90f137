package io.contactsolver;

import io.contactsolver.core.ContactColoring;
import io.contactsolver.core.TargetRule;
import io.contactsolver.layout.ContactField;

/**
 * What a solve computes and, for the iterative solver, how long it works. Immutable; the
 * {@code with} methods return a changed copy.
 *
 * <ul>
 *   <li>{@code iterations}: the most iterations (default 100);</li>
 *   <li>{@code tolerance}: stop early once an iteration changes no contact's accumulated impulse by
 *       more than this (default 0: stop only at an exact fixed point);</li>
 *   <li>{@code restitutionThreshold}: a contact approaching slower than this does not bounce
 *       (default 0, so the seed equation is unchanged); applies to both solvers;</li>
 *   <li>{@code colourBudget}: the most colours of the contact partition (default 32, at most 64);
 *       contacts that do not fit are solved serially after the colours;</li>
 *   <li>positional correction (default off, so the seed equation is unchanged): with a time step,
 *       contacts use their {@link ContactField#SEPARATION}: a gap may close within the step but not
 *       turn into overlap (speculative contacts), and overlap beyond {@code slop} is pushed out at
 *       {@code biasFactor} of its depth per step (Baumgarte). See {@code TargetRule}.</li>
 * </ul>
 */
public final class SolveSettings {
    public static final int DEFAULT_ITERATIONS = 100;
    public static final int DEFAULT_COLOUR_BUDGET = 32;

    private final SolverKind kind;
    private final int iterations;
    private final float tolerance;
    private final float restitutionThreshold;
    private final int colourBudget;
    private final float timeStep;
    private final float biasFactor;
    private final float slop;

    private SolveSettings(SolverKind kind, int iterations, float tolerance, float restitutionThreshold,
            int colourBudget, float timeStep, float biasFactor, float slop) {
        if (iterations < 1) {
            throw new IllegalArgumentException("iterations must be at least 1, got " + iterations);
        }
        if (!(tolerance >= 0.0f) || !Float.isFinite(tolerance)) {
            throw new IllegalArgumentException("tolerance must be finite and not negative, got " + tolerance);
        }
        if (!(restitutionThreshold >= 0.0f) || !Float.isFinite(restitutionThreshold)) {
            throw new IllegalArgumentException("restitution threshold must be finite and not negative, got "
                    + restitutionThreshold);
        }
        if (colourBudget < 1 || colourBudget > ContactColoring.MAX_COLOURS) {
            throw new IllegalArgumentException("colour budget must be in [1, " + ContactColoring.MAX_COLOURS
                    + "], got " + colourBudget);
        }
        if (timeStep != 0.0f && (!(timeStep > 0.0f) || !Float.isFinite(timeStep) || !(biasFactor >= 0.0f)
                || !(biasFactor <= 1.0f) || !(slop >= 0.0f) || !Float.isFinite(slop))) {
            throw new IllegalArgumentException("positional correction needs a positive time step, a bias factor in "
                    + "[0, 1] and a slop >= 0; got " + timeStep + ", " + biasFactor + ", " + slop);
        }
        this.kind = kind;
        this.iterations = iterations;
        this.timeStep = timeStep;
        this.biasFactor = biasFactor;
        this.slop = slop;
        this.tolerance = tolerance + 0.0f; // no -0: the device compares the bits
        this.restitutionThreshold = restitutionThreshold;
        this.colourBudget = colourBudget;
    }

    public static SolveSettings singlePass() {
        return new SolveSettings(SolverKind.SINGLE_PASS, DEFAULT_ITERATIONS, 0.0f, 0.0f, DEFAULT_COLOUR_BUDGET, 0.0f,
                0.0f, 0.0f);
    }

    public static SolveSettings iterative(int iterations) {
        return singlePass().withKind(SolverKind.ITERATIVE).withIterations(iterations);
    }

    public SolveSettings withKind(SolverKind newKind) {
        return new SolveSettings(newKind, iterations, tolerance, restitutionThreshold, colourBudget, timeStep, biasFactor, slop);
    }

    public SolveSettings withIterations(int newIterations) {
        return new SolveSettings(kind, newIterations, tolerance, restitutionThreshold, colourBudget, timeStep, biasFactor, slop);
    }

    public SolveSettings withTolerance(float newTolerance) {
        return new SolveSettings(kind, iterations, newTolerance, restitutionThreshold, colourBudget, timeStep, biasFactor, slop);
    }

    public SolveSettings withRestitutionThreshold(float newThreshold) {
        return new SolveSettings(kind, iterations, tolerance, newThreshold, colourBudget, timeStep, biasFactor, slop);
    }

    public SolveSettings withColourBudget(int newBudget) {
        return new SolveSettings(kind, iterations, tolerance, restitutionThreshold, newBudget, timeStep, biasFactor, slop);
    }

    /**
     * Turns positional correction on for contacts that carry a {@link ContactField#SEPARATION}.
     *
     * @param newTimeStep the simulation's time step, positive
     * @param newBiasFactor the share of overlap beyond the slop pushed out per step, in [0, 1]
     *     (0.2 is a common choice)
     * @param newSlop overlap tolerated without correction, so resting contacts do not jitter
     */
    public SolveSettings withPositionalCorrection(float newTimeStep, float newBiasFactor, float newSlop) {
        if (!(newTimeStep > 0.0f)) {
            throw new IllegalArgumentException("time step must be positive, got " + newTimeStep);
        }
        return new SolveSettings(kind, iterations, tolerance, restitutionThreshold, colourBudget, newTimeStep,
                newBiasFactor, newSlop);
    }

    /** Turns positional correction off (the default). */
    public SolveSettings withoutPositionalCorrection() {
        return new SolveSettings(kind, iterations, tolerance, restitutionThreshold, colourBudget, 0.0f, 0.0f, 0.0f);
    }

    /** The time step of positional correction, or 0 when it is off. */
    public float timeStep() {
        return timeStep;
    }

    public float biasFactor() {
        return biasFactor;
    }

    public float slop() {
        return slop;
    }

    /** The target rule the solvers apply (see {@code TargetRule}). */
    TargetRule targetRule() {
        return new TargetRule(restitutionThreshold, timeStep > 0.0f ? 1.0f / timeStep : 0.0f, biasFactor, slop);
    }

    public SolverKind kind() {
        return kind;
    }

    public int iterations() {
        return iterations;
    }

    public float tolerance() {
        return tolerance;
    }

    public float restitutionThreshold() {
        return restitutionThreshold;
    }

    public int colourBudget() {
        return colourBudget;
    }

    @Override
    public String toString() {
        return "SolveSettings[" + kind.label() + ", iterations=" + iterations + ", tolerance=" + tolerance
                + ", restitutionThreshold=" + restitutionThreshold + ", colourBudget=" + colourBudget
                + (timeStep > 0.0f ? ", positional correction dt=" + timeStep + " bias=" + biasFactor + " slop=" + slop : "")
                + "]";
    }
}
