package io.contactsolver;

import java.util.Locale;

/** Which solve to run. */
public enum SolverKind {
    /** The seed equation for each contact from the pre-solve velocities, summed per body (one Jacobi pass). */
    SINGLE_PASS,
    /**
     * All contacts resolved together: projected Gauss-Seidel over a colouring of the contact graph
     * (docs/physics.md, "Several contacts: single pass and iterative solver").
     */
    ITERATIVE,
    /**
     * {@code ContactSolver#step} only: the step split into substeps, each with one soft solve and
     * one relax sweep over the contacts set up once a step (docs/physics.md, "Soft step").
     */
    SOFT_STEP;

    /** The command-line spelling: {@code single-pass}, {@code iterative}, {@code soft-step}. */
    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** Parses {@link #label()} (or the constant's name), case-insensitively. */
    public static SolverKind parse(String text) {
        for (SolverKind kind : values()) {
            if (kind.label().equalsIgnoreCase(text) || kind.name().equalsIgnoreCase(text)) {
                return kind;
            }
        }
        throw new IllegalArgumentException("unknown solver '" + text + "' (single-pass, iterative or soft-step)");
    }
}
