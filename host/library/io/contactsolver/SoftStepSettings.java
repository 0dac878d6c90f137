package io.contactsolver;

import io.contactsolver.core.SoftCoefficients;
import java.util.Objects;
import java.util.function.Consumer;
import org.joml.Vector3fc;

/**
 * The soft step's settings ({@link SolveSettings#softStep()}; {@code ContactSolver#step} only;
 * docs/physics.md, "Soft step"): the step split into substeps, each with soft sweeps, the bodies
 * moved, and relax sweeps over the contact manifolds set up once a step. Immutable; each
 * {@code with} method returns a changed copy and refuses a bad value at the call, naming it.
 *
 * <ul>
 *   <li>{@code substeps}: the step is split into this many substeps (default
 *       {@value #DEFAULT_SUBSTEPS});</li>
 *   <li>{@code iterations}: the soft sweeps of each substep (default {@value #DEFAULT_ITERATIONS});</li>
 *   <li>{@code relaxIterations}: the relax sweeps of each substep, which take the push-out out of
 *       the velocities (default {@value #DEFAULT_RELAX_ITERATIONS});</li>
 *   <li>{@code contactHertz}: contact stiffness as the frequency of the contact spring, in Hz
 *       (default 0: follows the substep rate, an eighth of it up to 240 Hz, 30 Hz at 60 Hz and 4
 *       substeps, rising to a quarter from 1,920 Hz, 500 Hz for a step of 2 ms in 4 substeps; a step
 *       refuses more than that; contacts with a body that cannot move are twice as stiff, within a
 *       quarter of the substep rate);</li>
 *   <li>{@code dampingRatio}: the contact spring's damping ratio, dimensionless, at most
 *       {@value #MAX_DAMPING_RATIO} (default {@value #DEFAULT_DAMPING_RATIO}: heavily over-damped,
 *       so overlap is pushed out without bounce);</li>
 *   <li>{@code pushOutSpeed}: the fastest the soft contact pushes overlapping bodies apart, in m/s
 *       (default {@value #DEFAULT_PUSH_OUT_SPEED});</li>
 *   <li>{@code recycleDistance}: contact recycling, in metres (default
 *       {@value #DEFAULT_RECYCLE_DISTANCE}): a manifold whose points persist keeps the anchors and
 *       normal it was taken with while its bodies have moved apart at its points by at most this
 *       and by at most a twentieth of the point's lever arm, and neither has turned by more than 10
 *       degrees; 0 takes every contact fresh;</li>
 *   <li>{@code restitutionThreshold}: a contact approaching slower than this (m/s) does not bounce
 *       (default 0);</li>
 *   <li>{@code colourBudget}: the most colours of the manifolds' partition (default
 *       {@value #DEFAULT_COLOUR_BUDGET}, at most 64); manifolds that do not fit are solved one after
 *       the other after the colours;</li>
 *   <li>{@code colouringOrder}: the order in which the manifolds take their colours (default
 *       {@link ColouringOrder#CONTACT}; {@link ColouringOrder#HASHED} is coloured on a GPU);</li>
 *   <li>{@code friction} (default on);</li>
 *   <li>{@code deltas} and {@code impulses}: whether the step writes each body's velocity change and
 *       each contact's impulses into its {@link SolveResult} (default both). A caller who reads only
 *       the bodies' new state switches them off and pays for neither; the bodies move to the same
 *       bits either way, and the next step warm starts from the result just the same.</li>
 * </ul>
 *
 * <p>The soft step has no positional-correction setting: its soft contacts push overlap out
 * themselves, and it ignores no contact's separation.
 */
public final class SoftStepSettings implements SolveSettings {
    /** The default number of substeps a step. */
    public static final int DEFAULT_SUBSTEPS = 4;
    /** The most substeps a step takes. */
    public static final int MAX_SUBSTEPS = 64;
    /** The default soft sweeps of each substep. */
    public static final int DEFAULT_ITERATIONS = 1;
    /** The default relax sweeps of each substep. */
    public static final int DEFAULT_RELAX_ITERATIONS = 1;
    /**
     * The default contact stiffness: 0, which follows the substep rate (the stiffest a step allows,
     * {@link #highestContactHertz}).
     */
    public static final float DEFAULT_CONTACT_HERTZ = 0.0f;
    /** The default contact recycling distance, in metres (Box3D's: ten linear slops of 5 mm). */
    public static final float DEFAULT_RECYCLE_DISTANCE = 0.05f;
    /** The default damping ratio of the contact spring, dimensionless. */
    public static final float DEFAULT_DAMPING_RATIO = 10.0f;

    /**
     * The largest damping ratio accepted: above it the contact is nearly rigid while its spring still
     * pushes, and a resting column with friction gains energy (measured at 20 and 100 on 1 to 16
     * substeps, docs/physics.md, "Stiffness and stability").
     */
    public static final float MAX_DAMPING_RATIO = 10.0f;

    /**
     * The lowest substep rate a step may take, Hz: below it the contact, an eighth of the rate, is so
     * soft that a resting column with friction rocks and topples (5 unit boxes at 30 Hz in 1
     * substep fell over; at 60 Hz every damping ratio settles, docs/physics.md).
     */
    public static final float MIN_SUBSTEP_RATE = 60.0f;
    /** The default fastest push-out of overlapping bodies, in m/s. */
    public static final float DEFAULT_PUSH_OUT_SPEED = 3.0f;
    /** The default most colours of the manifolds' partition, the iterative solver's. */
    public static final int DEFAULT_COLOUR_BUDGET = IterativeSettings.DEFAULT_COLOUR_BUDGET;

    /** Every setting at its default. */
    static final SoftStepSettings DEFAULTS = new SoftStepSettings(new Draft());

    private final int substeps;
    private final int iterations;
    private final int relaxIterations;
    private final float contactHertz;
    private final float dampingRatio;
    private final float pushOutSpeed;
    private final float recycleDistance;
    private final float restitutionThreshold;
    private final int colourBudget;
    private final ColouringOrder colouringOrder;
    private final boolean friction;
    private final boolean deltas;
    private final boolean impulses;

    /**
     * The settings being made by a {@code with} method: a copy of the settings it was called on,
     * changed by name, field by field, before the new settings are made from it. Never handed out.
     */
    private static final class Draft {
        int substeps = DEFAULT_SUBSTEPS;
        int iterations = DEFAULT_ITERATIONS;
        int relaxIterations = DEFAULT_RELAX_ITERATIONS;
        float contactHertz = DEFAULT_CONTACT_HERTZ;
        float dampingRatio = DEFAULT_DAMPING_RATIO;
        float pushOutSpeed = DEFAULT_PUSH_OUT_SPEED;
        float recycleDistance = DEFAULT_RECYCLE_DISTANCE;
        float restitutionThreshold;
        int colourBudget = DEFAULT_COLOUR_BUDGET;
        ColouringOrder colouringOrder = ColouringOrder.CONTACT;
        boolean friction = true;
        boolean deltas = true;
        boolean impulses = true;

        /** Every setting at its default. */
        Draft() {
        }

        /** Every setting as {@code from} has it. */
        Draft(SoftStepSettings from) {
            substeps = from.substeps;
            iterations = from.iterations;
            relaxIterations = from.relaxIterations;
            contactHertz = from.contactHertz;
            dampingRatio = from.dampingRatio;
            pushOutSpeed = from.pushOutSpeed;
            recycleDistance = from.recycleDistance;
            restitutionThreshold = from.restitutionThreshold;
            colourBudget = from.colourBudget;
            colouringOrder = from.colouringOrder;
            friction = from.friction;
            deltas = from.deltas;
            impulses = from.impulses;
        }
    }

    private SoftStepSettings(Draft draft) {
        substeps = draft.substeps;
        iterations = draft.iterations;
        relaxIterations = draft.relaxIterations;
        contactHertz = draft.contactHertz;
        dampingRatio = draft.dampingRatio;
        pushOutSpeed = draft.pushOutSpeed;
        recycleDistance = draft.recycleDistance;
        restitutionThreshold = draft.restitutionThreshold;
        colourBudget = draft.colourBudget;
        colouringOrder = draft.colouringOrder;
        friction = draft.friction;
        deltas = draft.deltas;
        impulses = draft.impulses;
    }

    /** A copy with what {@code change} sets, by name, changed; the {@code with} methods validate first. */
    private SoftStepSettings with(Consumer<Draft> change) {
        Draft draft = new Draft(this);
        change.accept(draft);
        return new SoftStepSettings(draft);
    }

    @Override
    public SolverKind kind() {
        return SolverKind.SOFT_STEP;
    }

    /**
     * The substeps a step is split into (default {@value #DEFAULT_SUBSTEPS}).
     *
     * @param newSubsteps from 1 to {@value #MAX_SUBSTEPS}
     * @return a copy with the new substep count
     * @throws IllegalArgumentException if {@code newSubsteps} is out of that range
     */
    public SoftStepSettings withSubsteps(int newSubsteps) {
        if (newSubsteps < 1 || newSubsteps > MAX_SUBSTEPS) {
            throw new IllegalArgumentException("substeps must be in [1, " + MAX_SUBSTEPS + "], got " + newSubsteps);
        }
        return with(draft -> draft.substeps = newSubsteps);
    }

    /**
     * The soft sweeps of each substep (default {@value #DEFAULT_ITERATIONS}).
     *
     * @param newIterations at least 1
     * @return a copy with the new sweep count
     * @throws IllegalArgumentException if {@code newIterations < 1}
     */
    public SoftStepSettings withIterations(int newIterations) {
        int checked = SettingChecks.iterations(newIterations);
        return with(draft -> draft.iterations = checked);
    }

    /**
     * The relax sweeps of each substep (default {@value #DEFAULT_RELAX_ITERATIONS}).
     *
     * @param newRelaxIterations at least 1
     * @return a copy with the new relax sweep count
     * @throws IllegalArgumentException if {@code newRelaxIterations < 1}
     */
    public SoftStepSettings withRelaxIterations(int newRelaxIterations) {
        if (newRelaxIterations < 1) {
            throw new IllegalArgumentException("relax iterations must be at least 1, got " + newRelaxIterations);
        }
        return with(draft -> draft.relaxIterations = newRelaxIterations);
    }

    /**
     * The contact stiffness as the frequency of the contact spring, in Hz, finite and not negative;
     * 0 (the default) follows the substep rate ({@link #highestContactHertz}). A step refuses a
     * frequency above that (stiffer contacts gain energy, or topple tall stacks), naming it;
     * contacts with a body that cannot move use twice the frequency, within a quarter of the substep
     * rate, and half the damping ratio.
     *
     * @param newHertz the frequency of the contact spring in Hz, or 0 to follow the substep rate
     * @return a copy with the new frequency
     * @throws IllegalArgumentException if {@code newHertz} is negative or not finite
     */
    public SoftStepSettings withContactHertz(float newHertz) {
        if (!(newHertz >= 0.0f) || !Float.isFinite(newHertz)) {
            throw new IllegalArgumentException("contact hertz must be finite and not negative (0 follows the substep "
                    + "rate), got " + newHertz);
        }
        return with(draft -> draft.contactHertz = newHertz + 0.0f);
    }

    /**
     * The contact's damping ratio, in {@code [0, }{@value #MAX_DAMPING_RATIO}{@code ]} (default
     * {@value #DEFAULT_DAMPING_RATIO}).
     *
     * @param newRatio the damping ratio of the contact spring, dimensionless; 1 is critically
     *     damped, larger is over-damped
     * @return a copy with the new damping ratio
     * @throws IllegalArgumentException if {@code newRatio} is negative, above
     *     {@value #MAX_DAMPING_RATIO} or not finite
     */
    public SoftStepSettings withDampingRatio(float newRatio) {
        if (!(newRatio >= 0.0f) || !Float.isFinite(newRatio)) {
            throw new IllegalArgumentException("damping ratio must be finite and not negative, got " + newRatio);
        }
        if (newRatio > MAX_DAMPING_RATIO) {
            throw new IllegalArgumentException("damping ratio must be at most " + MAX_DAMPING_RATIO + ", got " + newRatio
                    + ": a stiffer-damped contact gains energy in a resting stack with friction");
        }
        return with(draft -> draft.dampingRatio = newRatio + 0.0f);
    }

    /**
     * The fastest push-out of overlap in m/s, positive and finite (default
     * {@value #DEFAULT_PUSH_OUT_SPEED}). It also caps the force a point holds at rest,
     * {@code v_push m_eff omega (2 zeta + h omega)}: a slow push-out suits light loads only, as a
     * point carrying more sinks step after step (docs/physics.md, "What a contact can carry": at
     * 0.03 m/s a column of unit boxes holds 6 at the default stiffness, at 3 m/s about 590).
     *
     * @param newSpeed the fastest the soft contact pushes overlapping bodies apart, in m/s
     * @return a copy with the new push-out speed
     * @throws IllegalArgumentException if {@code newSpeed} is not positive or not finite
     */
    public SoftStepSettings withPushOutSpeed(float newSpeed) {
        if (!(newSpeed > 0.0f) || !Float.isFinite(newSpeed)) {
            throw new IllegalArgumentException("push-out speed must be positive and finite, got " + newSpeed);
        }
        return with(draft -> draft.pushOutSpeed = newSpeed);
    }

    /**
     * Contact recycling: the most the bodies of a persisting manifold may have moved apart at its
     * points, in metres, finite and not negative (default {@value #DEFAULT_RECYCLE_DISTANCE}). A
     * manifold whose points all persist (the same ids between the same bodies) keeps the anchors and
     * normal it was taken with, its separation following the bodies' motion, while each point's
     * anchors have drifted apart by at most this and by at most a twentieth of its shorter lever arm
     * on a body that moves, and neither body has turned by more than 10 degrees; then it is taken
     * fresh again. Fresh points jitter from step to step, and that jitter topples tall stacks; 0
     * takes every contact fresh each step.
     *
     * @param newDistance the recycle distance in metres, or 0 to switch recycling off
     * @return a copy with the new distance
     * @throws IllegalArgumentException if {@code newDistance} is negative or not finite
     */
    public SoftStepSettings withRecycleDistance(float newDistance) {
        if (!(newDistance >= 0.0f) || !Float.isFinite(newDistance)) {
            throw new IllegalArgumentException("recycle distance must be finite and not negative (0 switches recycling "
                    + "off), got " + newDistance);
        }
        return with(draft -> draft.recycleDistance = newDistance + 0.0f);
    }

    @Override
    public SoftStepSettings withRestitutionThreshold(float threshold) {
        float checked = SettingChecks.restitutionThreshold(threshold);
        return with(draft -> draft.restitutionThreshold = checked);
    }

    /**
     * The most colours of the manifolds' partition (default {@value #DEFAULT_COLOUR_BUDGET});
     * manifolds that do not fit are solved one after the other after the colours
     * ({@link SolveResult#overflowCount()}).
     *
     * @param newBudget from 1 to 64
     * @return a copy with the new budget
     * @throws IllegalArgumentException if {@code newBudget} is out of that range
     */
    public SoftStepSettings withColourBudget(int newBudget) {
        int checked = SettingChecks.colourBudget(newBudget);
        return with(draft -> draft.colourBudget = checked);
    }

    /**
     * The order in which the manifolds take their colours (default {@link ColouringOrder#CONTACT}).
     * {@link ColouringOrder#HASHED} is the one a GPU colours on the device when the manifolds' pairs
     * change, instead of the host's sequential pass; the CPU makes the same colours. The two orders
     * colour differently, so they solve in different orders and give different bits (either is the
     * same on both backends).
     *
     * @param order the order, not null
     * @return a copy with the order
     * @throws NullPointerException if {@code order} is null
     */
    public SoftStepSettings withColouringOrder(ColouringOrder order) {
        Objects.requireNonNull(order, "colouring order");
        return with(draft -> draft.colouringOrder = order);
    }

    @Override
    public SoftStepSettings withFriction(boolean useFriction) {
        return with(draft -> draft.friction = useFriction);
    }

    /**
     * Whether a step writes every body's velocity change into its result (default on). Off, the
     * result holds none ({@link SolveResult#hasDeltas()}; reading one throws), the CPU writes none
     * and a device sends none back; the bodies move to the same bits.
     *
     * @param write whether to write them
     * @return a copy with the choice
     */
    public SoftStepSettings withDeltas(boolean write) {
        return with(draft -> draft.deltas = write);
    }

    /**
     * Whether a step's result holds every contact's impulses (default on). They are written into
     * the result at its first read of one ({@link SolveResult}): a simulation that never reads them
     * pays little for them. Off, the result
     * holds none ({@link SolveResult#hasImpulses()}; reading one throws) and no time goes into
     * spreading the manifolds' impulses over their contacts; the bodies move to the same bits, and
     * the next soft step still warm starts from the result (from the manifolds it keeps). An
     * iterative solve cannot warm start from such a result.
     *
     * @param write whether to write them
     * @return a copy with the choice
     */
    public SoftStepSettings withImpulses(boolean write) {
        return with(draft -> draft.impulses = write);
    }

    /**
     * Whether a step writes the bodies' velocity changes.
     *
     * @return true unless {@link #withDeltas} switched them off
     */
    public boolean writesDeltas() {
        return deltas;
    }

    /**
     * Whether a step writes the contacts' impulses.
     *
     * @return true unless {@link #withImpulses} switched them off
     */
    public boolean writesImpulses() {
        return impulses;
    }

    /**
     * Substeps per step.
     *
     * @return from 1 to {@value #MAX_SUBSTEPS}
     */
    public int substeps() {
        return substeps;
    }

    /**
     * Soft sweeps per substep.
     *
     * @return at least 1
     */
    public int iterations() {
        return iterations;
    }

    /**
     * Relax sweeps per substep.
     *
     * @return at least 1
     */
    public int relaxIterations() {
        return relaxIterations;
    }

    /**
     * The contact stiffness in Hz, as set.
     *
     * @return Hz; 0 follows the substep rate ({@link #highestContactHertz})
     */
    public float contactHertz() {
        return contactHertz;
    }

    /**
     * The stiffest contact frequency a step of {@code timeStep} seconds in these settings' substeps
     * allows: what a contact frequency of 0 (the default) takes, and the most
     * {@link #withContactHertz} may ask for such a step. A share {@code s} of the substep rate
     * {@code r = substeps / timeStep}, {@code s = (1/8) cbrt(r / 240 Hz)} clamped to
     * {@code [1/8, 1/4]}: an eighth up to 240 Hz (30 Hz at 60 Hz and 4 substeps, Box3D's budget,
     * where tall stacks stand only that soft), a quarter from 1,920 Hz (500 Hz for a step of 2 ms in
     * 4 substeps, where a granular pile needs it to keep its overlap within 2% of a diameter).
     *
     * @param timeStep the step in seconds, positive
     * @return {@code s r}, Hz
     */
    public float highestContactHertz(float timeStep) {
        return SoftCoefficients.highestHertz(timeStep, substeps);
    }

    /**
     * The contact's damping ratio.
     *
     * @return dimensionless, {@code >= 0}
     */
    public float dampingRatio() {
        return dampingRatio;
    }

    /**
     * The fastest push-out in m/s.
     *
     * @return m/s, positive
     */
    public float pushOutSpeed() {
        return pushOutSpeed;
    }

    /**
     * The contact recycling distance.
     *
     * @return metres; 0 when recycling is off
     */
    public float recycleDistance() {
        return recycleDistance;
    }

    @Override
    public float restitutionThreshold() {
        return restitutionThreshold;
    }

    /**
     * The most colours of the manifolds' partition.
     *
     * @return from 1 to 64
     */
    public int colourBudget() {
        return colourBudget;
    }

    /**
     * The order in which the manifolds take their colours.
     *
     * @return {@link ColouringOrder#CONTACT} unless {@link #withColouringOrder} chose another
     */
    public ColouringOrder colouringOrder() {
        return colouringOrder;
    }

    @Override
    public boolean friction() {
        return friction;
    }

    /**
     * {@inheritDoc} For the soft step the substep rate {@code substeps / timeStep} must also be at
     * least {@value #MIN_SUBSTEP_RATE} Hz under gravity, the contact frequency at most
     * {@link #highestContactHertz} (stiffer contacts gain energy or topple tall stacks), and the substep {@code h = dt / substeps}, its
     * inverse and the soft contact's coefficients (docs/physics.md, "Soft step") must be finite and
     * normal.
     *
     * @throws IllegalArgumentException naming the time step and the quantity that float cannot
     *     carry, or the contact frequency and the highest this step allows
     */
    @Override
    public void checkStep(float timeStep, Vector3fc gravity) {
        SettingChecks.step(timeStep, gravity);
        float substepRate = substeps / timeStep;
        boolean underGravity = gravity.x() != 0.0f || gravity.y() != 0.0f || gravity.z() != 0.0f;
        if (underGravity && substepRate < MIN_SUBSTEP_RATE * 0.9999f) {
            double needed = Math.ceil(timeStep * MIN_SUBSTEP_RATE * 0.9999);
            throw new IllegalArgumentException("time step dt = " + timeStep + " s in " + substeps + " substeps is "
                    + substepRate + " substeps a second, below " + MIN_SUBSTEP_RATE + ": under gravity contacts that "
                    + "soft let a resting stack rock and topple; " + (needed <= MAX_SUBSTEPS ? "take at least "
                    + (int) needed + " substeps, or a shorter step" : "take a step of at most "
                    + MAX_SUBSTEPS / MIN_SUBSTEP_RATE + " s in " + MAX_SUBSTEPS + " substeps"));
        }
        String tooStiff = SoftCoefficients.stiffnessProblem(timeStep, substeps, contactHertz);
        if (tooStiff != null) {
            throw new IllegalArgumentException(tooStiff);
        }
        SoftCoefficients coefficients = softCoefficients(timeStep);
        String degenerate = coefficients.degenerateQuantity();
        if (degenerate != null) {
            throw new IllegalArgumentException("time step dt = " + timeStep + " s over " + substeps
                    + " substeps: the soft step's " + degenerate + " (contact hertz " + coefficients.hertz()
                    + (contactHertz > 0.0f ? "" : ", following the substep rate") + ", damping ratio "
                    + dampingRatio + ")");
        }
    }

    /** The per-substep constants for a step of {@code dt} seconds. */
    SoftCoefficients softCoefficients(float dt) {
        return SoftCoefficients.of(dt, substeps, contactHertz, dampingRatio, pushOutSpeed);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof SoftStepSettings that && substeps == that.substeps && iterations == that.iterations
                && relaxIterations == that.relaxIterations && Float.compare(contactHertz, that.contactHertz) == 0
                && Float.compare(dampingRatio, that.dampingRatio) == 0
                && Float.compare(pushOutSpeed, that.pushOutSpeed) == 0
                && Float.compare(recycleDistance, that.recycleDistance) == 0
                && Float.compare(restitutionThreshold, that.restitutionThreshold) == 0
                && colourBudget == that.colourBudget && colouringOrder == that.colouringOrder
                && friction == that.friction && deltas == that.deltas
                && impulses == that.impulses;
    }

    @Override
    public int hashCode() {
        return Objects.hash(substeps, iterations, relaxIterations, contactHertz, dampingRatio, pushOutSpeed,
                recycleDistance, restitutionThreshold, colourBudget, colouringOrder, friction, deltas, impulses);
    }

    /**
     * The settings by name, as {@code SoftStepSettings[substeps=4, iterations=1, relaxIterations=1,
     * contactHertz=auto, dampingRatio=10.0, pushOutSpeed=3.0, recycleDistance=0.05,
     * restitutionThreshold=0.0, colourBudget=32]}.
     */
    @Override
    public String toString() {
        return "SoftStepSettings[substeps=" + substeps + ", iterations=" + iterations + ", relaxIterations="
                + relaxIterations + ", contactHertz=" + (contactHertz > 0.0f ? Float.toString(contactHertz) : "auto")
                + ", dampingRatio=" + dampingRatio + ", pushOutSpeed=" + pushOutSpeed + ", recycleDistance="
                + recycleDistance + ", restitutionThreshold=" + restitutionThreshold + ", colourBudget="
                + colourBudget + (colouringOrder == ColouringOrder.CONTACT ? "" : ", colouringOrder=" + colouringOrder)
                + (friction ? "" : ", friction off") + (deltas ? "" : ", no deltas")
                + (impulses ? "" : ", no impulses") + "]";
    }
}
