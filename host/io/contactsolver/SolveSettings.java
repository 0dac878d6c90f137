package io.contactsolver;

import io.contactsolver.core.ContactColoring;

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
 *       contacts that do not fit are solved serially after the colours.</li>
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

    private SolveSettings(SolverKind kind, int iterations, float tolerance, float restitutionThreshold,
            int colourBudget) {
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
        this.kind = kind;
        this.iterations = iterations;
        this.tolerance = tolerance + 0.0f; // no -0: the device compares the bits
        this.restitutionThreshold = restitutionThreshold;
        this.colourBudget = colourBudget;
    }

    public static SolveSettings singlePass() {
        return new SolveSettings(SolverKind.SINGLE_PASS, DEFAULT_ITERATIONS, 0.0f, 0.0f, DEFAULT_COLOUR_BUDGET);
    }

    public static SolveSettings iterative(int iterations) {
        return singlePass().withKind(SolverKind.ITERATIVE).withIterations(iterations);
    }

    public SolveSettings withKind(SolverKind newKind) {
        return new SolveSettings(newKind, iterations, tolerance, restitutionThreshold, colourBudget);
    }

    public SolveSettings withIterations(int newIterations) {
        return new SolveSettings(kind, newIterations, tolerance, restitutionThreshold, colourBudget);
    }

    public SolveSettings withTolerance(float newTolerance) {
        return new SolveSettings(kind, iterations, newTolerance, restitutionThreshold, colourBudget);
    }

    public SolveSettings withRestitutionThreshold(float newThreshold) {
        return new SolveSettings(kind, iterations, tolerance, newThreshold, colourBudget);
    }

    public SolveSettings withColourBudget(int newBudget) {
        return new SolveSettings(kind, iterations, tolerance, restitutionThreshold, newBudget);
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
                + ", restitutionThreshold=" + restitutionThreshold + ", colourBudget=" + colourBudget + "]";
    }
}
