package io.contactsolver;

import org.joml.Vector3fc;

/**
 * What a solver computes and how long it works: one immutable type a solver, each with only its
 * own settings. The type is the solver:
 *
 * <ul>
 *   <li>{@link SinglePassSettings} ({@link #singlePass()}): each contact's impulse from the
 *       pre-solve velocities alone, summed per body;</li>
 *   <li>{@link IterativeSettings} ({@link #iterative(int)}): all contacts resolved together,
 *       projected Gauss-Seidel;</li>
 *   <li>{@link SoftStepSettings} ({@link #softStep()}): the step split into substeps of soft
 *       contacts, {@code ContactSolver.step} only.</li>
 * </ul>
 *
 * <p>The first two are {@link RigidSettings}, which {@code ContactSolver.solve} takes;
 * {@code ContactSolver.step} takes any. Each {@code with} method returns a changed copy and refuses a
 * bad value at the call, naming it; the factories start from every setting's default, which each
 * type gives as a constant.
 */
public sealed interface SolveSettings permits RigidSettings, SoftStepSettings {

    /**
     * The single pass at its defaults.
     *
     * @return the single pass's settings, restitution threshold 0, friction on, no positional
     *     correction
     */
    static SinglePassSettings singlePass() {
        return SinglePassSettings.DEFAULTS;
    }

    /**
     * The iterative solver with at most {@code iterations} iterations, every other setting at its
     * default.
     *
     * @param iterations the most iterations of a solve, at least 1
     *     ({@value IterativeSettings#DEFAULT_ITERATIONS} is the default of
     *     {@link IterativeSettings#withIterations})
     * @return the iterative solver's settings
     * @throws IllegalArgumentException if {@code iterations < 1}
     */
    static IterativeSettings iterative(int iterations) {
        return IterativeSettings.DEFAULTS.withIterations(iterations);
    }

    /**
     * The soft step at its defaults: 4 substeps, each one solve iteration and one relax sweep,
     * contacts following the substep rate (30 Hz at 60 Hz, 500 Hz at 2 ms), damping ratio 10, push-out at
     * most 3 m/s, contact recycling within 5 cm. For {@code ContactSolver#step} only.
     *
     * @return the soft step's settings
     */
    static SoftStepSettings softStep() {
        return SoftStepSettings.DEFAULTS;
    }

    /**
     * Which solver these settings are for, as its type says: for labels and reports.
     *
     * @return the solver
     */
    SolverKind kind();

    /**
     * The approach speed below which a contact does not bounce: its restitution is taken as 0.
     *
     * @return m/s, {@code >= 0}; 0 (the default) lets every approaching contact bounce
     */
    float restitutionThreshold();

    /**
     * Whether contacts' friction, rolling and torsional resistance take part.
     *
     * @return {@code false} when {@code withFriction(false)} switched them off (default {@code true})
     */
    boolean friction();

    /**
     * A contact approaching slower than this does not bounce: its restitution is taken as 0
     * (default 0, so every approaching contact bounces by its restitution).
     *
     * @param threshold approach speed in m/s, finite and {@code >= 0}
     * @return a copy with the new threshold
     * @throws IllegalArgumentException if {@code threshold} is negative or not finite
     */
    SolveSettings withRestitutionThreshold(float threshold);

    /**
     * Whether contacts' friction, rolling and torsional resistance take part (default
     * {@code true}). With {@code false} every contact is solved frictionless, whatever its
     * coefficients, and its tangential and angular impulses are 0: for a push-out solve that should
     * only separate overlapping bodies, without refilling the coefficients of a batch the velocity
     * solve used. The result is bit for bit that of the same batch with every coefficient set to 0.
     *
     * @param useFriction {@code false} to ignore every contact's friction, rolling and torsional
     *     resistance
     * @return a copy with the switch set
     */
    SolveSettings withFriction(boolean useFriction);

    /**
     * Checks that a step of {@code timeStep} seconds under {@code gravity} can be computed in float
     * with these settings, as {@code ContactSolver.step} does before it reads or changes anything:
     * the time step must be positive, finite and normal (not subnormal, below
     * {@link Float#MIN_NORMAL}), gravity finite, and gravity must not carry a body beyond float's
     * range in one step ({@code |g| dt^2}, with the largest component of {@code g}, at most
     * {@link Float#MAX_VALUE}). The soft step checks its substeps too
     * ({@link SoftStepSettings#checkStep}). For a simulation that wants its time step refused up
     * front, before it builds anything.
     *
     * @param timeStep the step in seconds
     * @param gravity acceleration of every body with mass, m/s^2
     * @throws IllegalArgumentException naming the time step and the quantity that float cannot
     *     carry
     * @throws NullPointerException if {@code gravity} is null
     */
    void checkStep(float timeStep, Vector3fc gravity);
}
