package io.contactsolver;

import io.contactsolver.core.ContactColoring;
import io.contactsolver.core.SoftCoefficients;
import io.contactsolver.core.TargetRule;
import io.contactsolver.layout.ContactField;
import java.util.Locale;
import java.util.Objects;
import org.joml.Vector3fc;

/**
 * What a solve computes and how long it works. Immutable; the {@code with} methods return a
 * changed copy and refuse a bad value at the call, naming it.
 *
 * <p>Every solver:
 * <ul>
 *   <li>{@code restitutionThreshold}: a contact approaching slower than this (m/s) does not bounce
 *       (default 0, so the impact law is unchanged);</li>
 * </ul>
 * The iterative solver and the soft step:
 * <ul>
 *   <li>{@code iterations}: the most iterations of a solve (default 100); for the soft step, the
 *       solve iterations of each substep (default 1);</li>
 *   <li>{@code colourBudget}: the most colours of the contact partition (default 32, at most 64);
 *       contacts that do not fit are solved one after the other after the colours.</li>
 * </ul>
 * The iterative solver:
 * <ul>
 *   <li>{@code tolerance}: stop early once an iteration changes no contact's accumulated impulse by
 *       more than this (default 0: stop only at an exact fixed point);</li>
 *   <li>positional correction (default off: then every contact's {@link ContactField#SEPARATION} is
 *       ignored and each contact only stops its bodies approaching). Turned on with a time step,
 *       the separation is used: a gap may close within the step but not turn into overlap
 *       (speculative contacts), and overlap beyond {@code slop} is pushed out at
 *       {@code biasFactor} of its depth per step (Baumgarte).</li>
 * </ul>
 * The soft step ({@link #softStep()}, {@code ContactSolver#step} only; docs/physics.md,
 * "Soft step"):
 * <ul>
 *   <li>{@code substeps}: the step is split into this many substeps (default 4);</li>
 *   <li>{@code contactHertz}: contact stiffness as the frequency of the contact spring, in Hz
 *       (default 0: an eighth of the substep rate, 30 Hz at 60 Hz and 4 substeps; a step refuses
 *       more than that, which gains energy; contacts with a body that cannot move are twice as
 *       stiff);</li>
 *   <li>{@code recycleDistance}: contact recycling, in metres (default 0.05): a manifold whose
 *       points persist keeps the anchors and normal it was taken with while its bodies have moved
 *       apart at its points by at most this and by at most a twentieth of the point's lever arm,
 *       and neither has turned by more than 10 degrees; 0 takes every contact fresh;</li>
 *   <li>{@code dampingRatio}: the contact spring's damping ratio, dimensionless (default 10:
 *       heavily over-damped, so overlap is pushed out without bounce);</li>
 *   <li>{@code pushOutSpeed}: the fastest the soft contact pushes overlapping bodies apart, in m/s
 *       (default 3);</li>
 *   <li>{@code relaxIterations}: the relax sweeps of each substep, which take the push-out out of
 *       the velocities (default 1).</li>
 * </ul>
 */
public final class SolveSettings {
    /** The iterative solver's default most iterations of a solve. */
    public static final int DEFAULT_ITERATIONS = 100;
    /** The default most colours of the contact partition. */
    public static final int DEFAULT_COLOUR_BUDGET = 32;
    /** The soft step's default number of substeps a step. */
    public static final int DEFAULT_SUBSTEPS = 4;
    /**
     * The soft step's default contact stiffness: 0, which follows the substep rate (an eighth of
     * it, the stiffest a step allows).
     */
    public static final float DEFAULT_CONTACT_HERTZ = 0.0f;
    /** The soft step's default contact recycling distance, in metres (Box3D's: ten linear slops of 5 mm). */
    public static final float DEFAULT_RECYCLE_DISTANCE = 0.05f;
    /** The soft step's default damping ratio of the contact spring, dimensionless. */
    public static final float DEFAULT_DAMPING_RATIO = 10.0f;
    /** The soft step's default fastest push-out of overlapping bodies, in m/s. */
    public static final float DEFAULT_PUSH_OUT_SPEED = 3.0f;
    /** The most substeps a soft step takes. */
    public static final int MAX_SUBSTEPS = 64;

    private final SolverKind kind;
    private final int iterations;
    private final float tolerance;
    private final float restitutionThreshold;
    private final int colourBudget;
    private final float timeStep;
    private final float biasFactor;
    private final float slop;
    private final int substeps;
    private final float contactHertz;
    private final float dampingRatio;
    private final float pushOutSpeed;
    private final int relaxIterations;
    private final float recycleDistance;
    private final boolean friction;

    /**
     * The settings being made by a {@code with} method: a copy of the settings it was called on,
     * changed by name, field by field, before the new settings are made from it. Never handed out.
     */
    private static final class Draft {
        SolverKind kind = SolverKind.SINGLE_PASS;
        int iterations = DEFAULT_ITERATIONS;
        float tolerance;
        float restitutionThreshold;
        int colourBudget = DEFAULT_COLOUR_BUDGET;
        float timeStep;
        float biasFactor;
        float slop;
        int substeps = DEFAULT_SUBSTEPS;
        float contactHertz = DEFAULT_CONTACT_HERTZ;
        float dampingRatio = DEFAULT_DAMPING_RATIO;
        float pushOutSpeed = DEFAULT_PUSH_OUT_SPEED;
        int relaxIterations = 1;
        float recycleDistance = DEFAULT_RECYCLE_DISTANCE;
        boolean friction = true;

        /** Every setting at its default. */
        Draft() {
        }

        /** Every setting as {@code from} has it. */
        Draft(SolveSettings from) {
            kind = from.kind;
            iterations = from.iterations;
            tolerance = from.tolerance;
            restitutionThreshold = from.restitutionThreshold;
            colourBudget = from.colourBudget;
            timeStep = from.timeStep;
            biasFactor = from.biasFactor;
            slop = from.slop;
            substeps = from.substeps;
            contactHertz = from.contactHertz;
            dampingRatio = from.dampingRatio;
            pushOutSpeed = from.pushOutSpeed;
            relaxIterations = from.relaxIterations;
            recycleDistance = from.recycleDistance;
            friction = from.friction;
        }
    }

    private SolveSettings(Draft draft) {
        kind = draft.kind;
        iterations = draft.iterations;
        tolerance = draft.tolerance;
        restitutionThreshold = draft.restitutionThreshold;
        colourBudget = draft.colourBudget;
        timeStep = draft.timeStep;
        biasFactor = draft.biasFactor;
        slop = draft.slop;
        substeps = draft.substeps;
        contactHertz = draft.contactHertz;
        dampingRatio = draft.dampingRatio;
        pushOutSpeed = draft.pushOutSpeed;
        relaxIterations = draft.relaxIterations;
        recycleDistance = draft.recycleDistance;
        friction = draft.friction;
    }

    /** A copy with what {@code change} sets, by name, changed; the {@code with} methods validate first. */
    private SolveSettings with(java.util.function.Consumer<Draft> change) {
        Draft draft = new Draft(this);
        change.accept(draft);
        return new SolveSettings(draft);
    }

    /**
     * The single pass: one impulse per contact from the pre-solve velocities, summed per body.
     * Every other setting at its default.
     *
     * @return the settings of {@link SolverKind#SINGLE_PASS}
     */
    public static SolveSettings singlePass() {
        return new SolveSettings(new Draft());
    }

    /**
     * The iterative solver with at most {@code iterations} iterations. Every other setting at its
     * default.
     *
     * @param iterations the most iterations of a solve, at least 1 ({@value #DEFAULT_ITERATIONS} is
     *     the default of {@link #withIterations})
     * @return the settings of {@link SolverKind#ITERATIVE}
     * @throws IllegalArgumentException if {@code iterations < 1}
     */
    public static SolveSettings iterative(int iterations) {
        return singlePass().withKind(SolverKind.ITERATIVE).withIterations(iterations);
    }

    /**
     * The soft step at its defaults: 4 substeps, each one solve iteration and one relax sweep,
     * contacts at an eighth of the substep rate (30 Hz at 60 Hz), damping ratio 10, push-out at
     * most 3 m/s, contact recycling within 5 cm. For {@code ContactSolver#step} only.
     *
     * @return the settings of {@link SolverKind#SOFT_STEP}
     */
    public static SolveSettings softStep() {
        return singlePass().withKind(SolverKind.SOFT_STEP).withIterations(1);
    }

    /**
     * Chooses the solver; the other settings are kept. {@link #iterative} and {@link #softStep()}
     * are the usual way to start.
     *
     * @param newKind the solver
     * @return a copy with the new solver
     * @throws IllegalArgumentException if {@code newKind} is null
     */
    public SolveSettings withKind(SolverKind newKind) {
        if (newKind == null) {
            throw new IllegalArgumentException("kind must not be null");
        }
        return with(draft -> draft.kind = newKind);
    }

    /**
     * The most iterations of an iterative solve (default {@value #DEFAULT_ITERATIONS}); for the soft
     * step, the solve iterations of each substep (default 1). Ignored by the single pass.
     *
     * @param newIterations at least 1
     * @return a copy with the new limit
     * @throws IllegalArgumentException if {@code newIterations < 1}
     */
    public SolveSettings withIterations(int newIterations) {
        if (newIterations < 1) {
            throw new IllegalArgumentException("iterations must be at least 1, got " + newIterations);
        }
        return with(draft -> draft.iterations = newIterations);
    }

    /**
     * Lets the iterative solver stop early, once an iteration changes no contact's accumulated
     * impulse by more than {@code newTolerance} (default 0: only at an exact fixed point). Ignored by
     * the single pass and the soft step.
     *
     * @param newTolerance in N s, finite and {@code >= 0}
     * @return a copy with the new tolerance
     * @throws IllegalArgumentException if {@code newTolerance} is negative or not finite
     */
    public SolveSettings withTolerance(float newTolerance) {
        if (!(newTolerance >= 0.0f) || !Float.isFinite(newTolerance)) {
            throw new IllegalArgumentException("tolerance must be finite and not negative, got " + newTolerance);
        }
        return with(draft -> draft.tolerance = newTolerance + 0.0f); // no -0: the device compares the bits
    }

    /**
     * A contact approaching slower than this does not bounce: its restitution is taken as 0
     * (default 0, so every approaching contact bounces by its restitution). Every solver.
     *
     * @param newThreshold approach speed in m/s, finite and {@code >= 0}
     * @return a copy with the new threshold
     * @throws IllegalArgumentException if {@code newThreshold} is negative or not finite
     */
    public SolveSettings withRestitutionThreshold(float newThreshold) {
        if (!(newThreshold >= 0.0f) || !Float.isFinite(newThreshold)) {
            throw new IllegalArgumentException("restitution threshold must be finite and not negative, got "
                    + newThreshold);
        }
        return with(draft -> draft.restitutionThreshold = newThreshold + 0.0f);
    }

    /**
     * The most colours of the contact partition of the iterative solver and the soft step (default
     * {@value #DEFAULT_COLOUR_BUDGET}); contacts that do not fit are solved one after the other after
     * the colours ({@link SolveResult#overflowCount()}). Ignored by the single pass.
     *
     * @param newBudget from 1 to 64
     * @return a copy with the new budget
     * @throws IllegalArgumentException if {@code newBudget} is out of that range
     */
    public SolveSettings withColourBudget(int newBudget) {
        if (newBudget < 1 || newBudget > ContactColoring.MAX_COLOURS) {
            throw new IllegalArgumentException("colour budget must be in [1, " + ContactColoring.MAX_COLOURS
                    + "], got " + newBudget);
        }
        return with(draft -> draft.colourBudget = newBudget);
    }

    /**
     * Turns positional correction on (iterative solver and single pass): contacts then use their
     * {@link ContactField#SEPARATION}.
     *
     * @param newTimeStep the simulation's time step in seconds, positive, with a finite inverse
     * @param newBiasFactor the share of overlap beyond the slop pushed out per step, in [0, 1]
     *     (0.2 is a common choice)
     * @param newSlop overlap in metres tolerated without correction, so resting contacts do not jitter
     * @return a copy with positional correction on
     * @throws IllegalArgumentException if a value is out of its range; the message names it
     */
    public SolveSettings withPositionalCorrection(float newTimeStep, float newBiasFactor, float newSlop) {
        if (!(newTimeStep > 0.0f) || !Float.isFinite(newTimeStep) || !Float.isFinite(1.0f / newTimeStep)) {
            throw new IllegalArgumentException("time step must be positive, finite and have a finite inverse, got "
                    + newTimeStep);
        }
        if (!(newBiasFactor >= 0.0f) || !(newBiasFactor <= 1.0f)) {
            throw new IllegalArgumentException("bias factor must be in [0, 1], got " + newBiasFactor);
        }
        if (!(newSlop >= 0.0f) || !Float.isFinite(newSlop)) {
            throw new IllegalArgumentException("slop must be finite and not negative, got " + newSlop);
        }
        return with(draft -> {
            draft.timeStep = newTimeStep;
            draft.biasFactor = newBiasFactor;
            draft.slop = newSlop;
        });
    }

    /**
     * Turns positional correction off (the default): the single pass and the iterative solver then
     * ignore every contact's separation.
     *
     * @return a copy with positional correction off
     */
    public SolveSettings withoutPositionalCorrection() {
        return with(draft -> {
            draft.timeStep = 0.0f;
            draft.biasFactor = 0.0f;
            draft.slop = 0.0f;
        });
    }

    /**
     * Soft step: the substeps a step is split into, in [1, {@value #MAX_SUBSTEPS}] (default 4).
     *
     * @param newSubsteps from 1 to {@value #MAX_SUBSTEPS}
     * @return a copy with the new substep count
     * @throws IllegalArgumentException if {@code newSubsteps} is out of that range
     */
    public SolveSettings withSubsteps(int newSubsteps) {
        if (newSubsteps < 1 || newSubsteps > MAX_SUBSTEPS) {
            throw new IllegalArgumentException("substeps must be in [1, " + MAX_SUBSTEPS + "], got " + newSubsteps);
        }
        return with(draft -> draft.substeps = newSubsteps);
    }

    /**
     * Soft step: the contact stiffness as the frequency of the contact spring, in Hz, finite and
     * not negative; 0 (the default) follows the substep rate, taking an eighth of it. A step
     * refuses a frequency above an eighth of its substep rate (it gains energy: a resting stack
     * never comes to rest), naming the rate; contacts with a body that cannot move use twice the
     * frequency and half the damping ratio.
     *
     * @param newHertz the frequency of the contact spring in Hz, or 0 to follow the substep rate
     * @return a copy with the new frequency
     * @throws IllegalArgumentException if {@code newHertz} is negative or not finite
     */
    public SolveSettings withContactHertz(float newHertz) {
        if (!(newHertz >= 0.0f) || !Float.isFinite(newHertz)) {
            throw new IllegalArgumentException("contact hertz must be finite and not negative (0 follows the substep "
                    + "rate), got " + newHertz);
        }
        return with(draft -> draft.contactHertz = newHertz + 0.0f);
    }

    /**
     * Soft step: contact recycling, the most the bodies of a persisting manifold may have moved
     * apart at its points, in metres, finite and not negative (default
     * {@value #DEFAULT_RECYCLE_DISTANCE}). A manifold whose points all persist (the same ids between
     * the same bodies) keeps the anchors and normal it was taken with, its separation following the
     * bodies' motion, while each point's anchors have drifted apart by at most this and by at most a
     * twentieth of its shorter lever arm on a body that moves, and neither body has turned by more
     * than 10 degrees; then it is taken fresh again. Fresh points jitter from step to step, and that
     * jitter topples tall stacks; 0 takes every contact fresh each step.
     *
     * @param newDistance the recycle distance in metres, or 0 to switch recycling off
     * @return a copy with the new distance
     * @throws IllegalArgumentException if {@code newDistance} is negative or not finite
     */
    public SolveSettings withRecycleDistance(float newDistance) {
        if (!(newDistance >= 0.0f) || !Float.isFinite(newDistance)) {
            throw new IllegalArgumentException("recycle distance must be finite and not negative (0 switches recycling "
                    + "off), got " + newDistance);
        }
        return with(draft -> draft.recycleDistance = newDistance + 0.0f);
    }

    /**
     * Soft step: the contact's damping ratio, finite and not negative (default 10).
     *
     * @param newRatio the damping ratio of the contact spring, dimensionless; 1 is critically
     *     damped, larger is over-damped
     * @return a copy with the new damping ratio
     * @throws IllegalArgumentException if {@code newRatio} is negative or not finite
     */
    public SolveSettings withDampingRatio(float newRatio) {
        if (!(newRatio >= 0.0f) || !Float.isFinite(newRatio)) {
            throw new IllegalArgumentException("damping ratio must be finite and not negative, got " + newRatio);
        }
        return with(draft -> draft.dampingRatio = newRatio + 0.0f);
    }

    /**
     * Soft step: the fastest push-out of overlap in m/s, positive and finite (default 3).
     *
     * @param newSpeed the fastest the soft contact pushes overlapping bodies apart, in m/s
     * @return a copy with the new push-out speed
     * @throws IllegalArgumentException if {@code newSpeed} is not positive or not finite
     */
    public SolveSettings withPushOutSpeed(float newSpeed) {
        if (!(newSpeed > 0.0f) || !Float.isFinite(newSpeed)) {
            throw new IllegalArgumentException("push-out speed must be positive and finite, got " + newSpeed);
        }
        return with(draft -> draft.pushOutSpeed = newSpeed);
    }

    /**
     * Soft step: the relax sweeps of each substep, at least 1 (default 1).
     *
     * @param newRelaxIterations at least 1
     * @return a copy with the new relax sweep count
     * @throws IllegalArgumentException if {@code newRelaxIterations < 1}
     */
    public SolveSettings withRelaxIterations(int newRelaxIterations) {
        if (newRelaxIterations < 1) {
            throw new IllegalArgumentException("relax iterations must be at least 1, got " + newRelaxIterations);
        }
        return with(draft -> draft.relaxIterations = newRelaxIterations);
    }

    /**
     * Whether contacts' friction and rolling resistance take part (default {@code true}). With
     * {@code false} every contact is solved frictionless, whatever its coefficients, and its
     * tangential and rolling impulses are 0: for a push-out solve that should only separate
     * overlapping bodies, without refilling the coefficients of a batch the velocity solve used.
     * The result is bit for bit that of the same batch with every coefficient set to 0.
     *
     * @param useFriction {@code false} to ignore every contact's friction and rolling resistance
     * @return a copy with the switch set
     */
    public SolveSettings withFriction(boolean useFriction) {
        return with(draft -> draft.friction = useFriction);
    }

    /**
     * Whether contacts' friction and rolling resistance take part.
     *
     * @return {@code false} when {@link #withFriction withFriction(false)} switched them off
     */
    public boolean friction() {
        return friction;
    }

    /**
     * The time step of positional correction, or 0 when it is off.
     *
     * @return seconds, {@code > 0} when positional correction is on, else 0
     */
    public float timeStep() {
        return timeStep;
    }

    /**
     * The share of overlap beyond the slop pushed out per step (positional correction).
     *
     * @return from 0 to 1; 0 when positional correction is off
     */
    public float biasFactor() {
        return biasFactor;
    }

    /**
     * The overlap tolerated without correction, in metres (positional correction).
     *
     * @return metres, {@code >= 0}; 0 when positional correction is off
     */
    public float slop() {
        return slop;
    }

    /** The target rule the solvers apply (see {@code TargetRule}). */
    TargetRule targetRule() {
        return new TargetRule(restitutionThreshold, timeStep > 0.0f ? 1.0f / timeStep : 0.0f, biasFactor, slop);
    }

    /**
     * Checks that a step of {@code timeStep} seconds under {@code gravity} can be computed in float
     * with these settings, as {@code ContactSolver.step} does before it reads or changes anything:
     * the time step must be positive, finite and normal (not subnormal, below
     * {@link Float#MIN_NORMAL}), gravity finite, and gravity must not carry a body beyond float's
     * range in one step ({@code |g| dt^2}, with the largest component of {@code g}, at most
     * {@link Float#MAX_VALUE}). For the soft step the contact frequency must be at most an eighth
     * of the substep rate (stiffer contacts gain energy), and the substep {@code h = dt / substeps},
     * its inverse and the soft contact's coefficients (docs/physics.md, "Soft step") must be finite
     * and normal. For a simulation that wants its time step refused up front, before it builds
     * anything.
     *
     * @param timeStep the step in seconds
     * @param gravity acceleration of every body with mass, m/s^2
     * @throws IllegalArgumentException naming the time step and the quantity that float cannot carry,
     *     or the contact frequency and the highest this step allows
     * @throws NullPointerException if {@code gravity} is null
     */
    public void checkStep(float timeStep, Vector3fc gravity) {
        Objects.requireNonNull(gravity, "gravity");
        if (!(timeStep > 0.0f) || !Float.isFinite(timeStep)) {
            throw new IllegalArgumentException("time step must be positive and finite, got " + timeStep);
        }
        if (!gravity.isFinite()) {
            throw new IllegalArgumentException("gravity must be finite, got " + gravity);
        }
        if (timeStep < Float.MIN_NORMAL) {
            throw new IllegalArgumentException("time step dt = " + timeStep + " s is subnormal (below "
                    + Float.MIN_NORMAL + " s): too short for float");
        }
        double g = Math.max(Math.max(Math.abs(gravity.x()), Math.abs(gravity.y())), Math.abs(gravity.z()));
        double fall = g * timeStep * timeStep;
        if (fall > Float.MAX_VALUE) {
            throw new IllegalArgumentException(String.format(Locale.ROOT, "time step dt = %s s is too long for "
                    + "float: gravity of %s m/s^2 would carry a body |g| dt^2 = %.3g m in one step", timeStep,
                    (float) g, fall));
        }
        if (kind == SolverKind.SOFT_STEP) {
            String tooStiff = SoftCoefficients.stiffnessProblem(timeStep, substeps, contactHertz);
            if (tooStiff != null) {
                throw new IllegalArgumentException(tooStiff);
            }
            SoftCoefficients coefficients = softCoefficients(timeStep);
            String degenerate = coefficients.degenerateQuantity();
            if (degenerate != null) {
                throw new IllegalArgumentException("time step dt = " + timeStep + " s over " + substeps
                        + " substeps: the soft step's " + degenerate + " (contact hertz " + coefficients.hertz()
                        + (contactHertz > 0.0f ? "" : ", an eighth of the substep rate") + ", damping ratio "
                        + dampingRatio + ")");
            }
        }
    }

    /** The soft step's per-substep constants for a step of {@code dt} seconds. */
    SoftCoefficients softCoefficients(float dt) {
        return SoftCoefficients.of(dt, substeps, contactHertz, dampingRatio, pushOutSpeed);
    }

    /**
     * Which solve runs.
     *
     * @return the solver, {@link SolverKind#SINGLE_PASS} unless changed
     */
    public SolverKind kind() {
        return kind;
    }

    /**
     * The most iterations of a solve; for the soft step, the solve iterations per substep.
     *
     * @return at least 1
     */
    public int iterations() {
        return iterations;
    }

    /**
     * The largest change of an iteration at which the iterative solver stops.
     *
     * @return in N s, {@code >= 0}; 0 stops only at an exact fixed point
     */
    public float tolerance() {
        return tolerance;
    }

    /**
     * The approach speed (m/s) below which a contact does not bounce.
     *
     * @return m/s, {@code >= 0}
     */
    public float restitutionThreshold() {
        return restitutionThreshold;
    }

    /**
     * The most colours of the contact partition.
     *
     * @return from 1 to 64
     */
    public int colourBudget() {
        return colourBudget;
    }

    /**
     * Soft step: substeps per step.
     *
     * @return from 1 to {@value #MAX_SUBSTEPS}
     */
    public int substeps() {
        return substeps;
    }

    /**
     * Soft step: contact stiffness in Hz, as set.
     *
     * @return Hz; 0 follows the substep rate (an eighth of it)
     */
    public float contactHertz() {
        return contactHertz;
    }

    /**
     * Soft step: the stiffest contact frequency a step of {@code timeStep} seconds in these
     * settings' substeps allows, an eighth of the substep rate: what a contact frequency of 0 (the
     * default) takes, and the most {@link #withContactHertz} may ask for such a step.
     *
     * @param timeStep the step in seconds, positive
     * @return {@code substeps / (8 timeStep)}, Hz
     */
    public float highestContactHertz(float timeStep) {
        return SoftCoefficients.highestHertz(timeStep, substeps);
    }

    /**
     * Soft step: the contact recycling distance.
     *
     * @return metres; 0 when recycling is off
     */
    public float recycleDistance() {
        return recycleDistance;
    }

    /**
     * Soft step: the contact's damping ratio.
     *
     * @return dimensionless, {@code >= 0}
     */
    public float dampingRatio() {
        return dampingRatio;
    }

    /**
     * Soft step: the fastest push-out in m/s.
     *
     * @return m/s, positive
     */
    public float pushOutSpeed() {
        return pushOutSpeed;
    }

    /**
     * Soft step: relax sweeps per substep.
     *
     * @return at least 1
     */
    public int relaxIterations() {
        return relaxIterations;
    }

    @Override
    public String toString() {
        String common = "SolveSettings[" + kind.label() + ", iterations=" + iterations
                + (friction ? "" : ", friction off");
        if (kind == SolverKind.SOFT_STEP) {
            return common + ", relaxIterations=" + relaxIterations + ", substeps=" + substeps + ", contactHertz="
                    + (contactHertz > 0.0f ? Float.toString(contactHertz) : "auto") + ", dampingRatio=" + dampingRatio
                    + ", pushOutSpeed=" + pushOutSpeed + ", recycleDistance=" + recycleDistance
                    + ", restitutionThreshold=" + restitutionThreshold + ", colourBudget=" + colourBudget + "]";
        }
        return common + ", tolerance=" + tolerance + ", restitutionThreshold=" + restitutionThreshold
                + ", colourBudget=" + colourBudget
                + (timeStep > 0.0f ? ", positional correction dt=" + timeStep + " bias=" + biasFactor + " slop=" + slop : "")
                + "]";
    }
}
