package io.contactsolver;

import io.contactsolver.layout.ContactField;
import org.joml.Vector3fc;

/**
 * The settings of a solver that computes one velocity change from the bodies as they are, the
 * single pass or the iterative solver: what {@code ContactSolver.solve} takes (the soft step moves
 * bodies between its substeps, so it is no solve and its settings are not of this type). Both have
 * a restitution threshold, positional correction and the friction switch, kept here once.
 *
 * <p>Positional correction (default off: then every contact's {@link ContactField#SEPARATION} is
 * ignored and each contact only stops its bodies approaching): with it on, the separation is used:
 * a gap may close within the step but not turn into overlap (speculative contacts), and overlap
 * beyond {@code slop} is pushed out at {@code biasFactor} of its depth per step (Baumgarte). It
 * needs the step's time: the settings hold only the bias factor and the slop, and the time step is
 * the call's, {@code ContactSolver.step}'s own or the one given to
 * {@code ContactSolver.solve(bodies, contacts, settings, timeStep, ...)}. There is no second time
 * step that could disagree with it: a solve whose settings ask for positional correction without a
 * time step is refused at the call.
 */
public abstract sealed class RigidSettings implements SolveSettings permits SinglePassSettings, IterativeSettings {
    private final RigidPart rigid;

    RigidSettings(RigidPart rigid) {
        this.rigid = rigid;
    }

    /** The shared settings, for the subclasses' {@code with} methods, {@code equals} and {@code toString}. */
    final RigidPart rigid() {
        return rigid;
    }

    @Override
    public abstract RigidSettings withRestitutionThreshold(float threshold);

    /**
     * Turns positional correction on: contacts then use their {@link ContactField#SEPARATION}, with
     * the time step of the call that solves ({@code step}'s, or the one given to {@code solve}).
     *
     * @param biasFactor the share of overlap beyond the slop pushed out per step, in [0, 1] (0.2 is
     *     a common choice; 0 gives speculative contacts alone)
     * @param slop overlap in metres tolerated without correction, finite and {@code >= 0}, so
     *     resting contacts do not jitter
     * @return a copy with positional correction on
     * @throws IllegalArgumentException if a value is out of its range; the message names it
     */
    public abstract RigidSettings withPositionalCorrection(float biasFactor, float slop);

    /**
     * Turns positional correction off (the default): every contact's separation is then ignored.
     *
     * @return a copy with positional correction off
     */
    public abstract RigidSettings withoutPositionalCorrection();

    @Override
    public abstract RigidSettings withFriction(boolean useFriction);

    @Override
    public final float restitutionThreshold() {
        return rigid.restitutionThreshold();
    }

    /**
     * Whether positional correction is on.
     *
     * @return true after {@link #withPositionalCorrection}, false by default
     */
    public final boolean positionalCorrection() {
        return rigid.positionalCorrection();
    }

    /**
     * The share of overlap beyond the slop pushed out per step (positional correction).
     *
     * @return from 0 to 1; 0 when positional correction is off
     */
    public final float biasFactor() {
        return rigid.biasFactor();
    }

    /**
     * The overlap tolerated without correction (positional correction).
     *
     * @return metres, {@code >= 0}; 0 when positional correction is off
     */
    public final float slop() {
        return rigid.slop();
    }

    @Override
    public final boolean friction() {
        return rigid.friction();
    }

    @Override
    public final void checkStep(float timeStep, Vector3fc gravity) {
        SettingChecks.step(timeStep, gravity);
    }
}
