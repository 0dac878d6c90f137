package io.contactsolver;

import java.util.Locale;

/**
 * The name of a solver: what {@code SolveSettings.kind()} and {@code SolveResult.solver()} report,
 * and the command line's spelling of it. The settings' type chooses the solver; this names it.
 */
public enum SolverKind {
    /**
     * Each contact's impulse from the pre-solve velocities alone, by the impact law of
     * docs/physics.md, "The frictionless impulse" (with friction: docs/physics.md, "Single pass with
     * friction"), the velocity changes summed per body: one Jacobi pass.
     */
    SINGLE_PASS,
    /**
     * All contacts resolved together: projected Gauss-Seidel over a colouring of the contact graph
     * (docs/physics.md, "Several contacts: single pass and iterative solver").
     */
    ITERATIVE,
    /**
     * {@code ContactSolver#step} only: the step split into substeps, each with one soft solve and
     * one relax sweep over the contact manifolds set up once a step (docs/physics.md, "Soft step").
     */
    SOFT_STEP;

    /**
     * The command-line spelling: {@code single-pass}, {@code iterative}, {@code soft-step}.
     *
     * @return the constant's name in lower case, with {@code -} for {@code _}
     */
    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /**
     * Parses {@link #label()} (or the constant's name), case-insensitively.
     *
     * @param text such as {@code iterative}, {@code Soft-Step} or {@code SINGLE_PASS}
     * @return the solver that {@code text} names
     * @throws IllegalArgumentException if it names none; the message lists the labels
     */
    public static SolverKind parse(String text) {
        for (SolverKind kind : values()) {
            if (kind.label().equalsIgnoreCase(text) || kind.name().equalsIgnoreCase(text)) {
                return kind;
            }
        }
        throw new IllegalArgumentException("unknown solver '" + text + "' (single-pass, iterative or soft-step)");
    }
}
