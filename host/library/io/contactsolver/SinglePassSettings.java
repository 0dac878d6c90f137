package io.contactsolver;

/**
 * The single pass's settings ({@link SolveSettings#singlePass()}): each contact's impulse from the
 * pre-solve velocities alone, by the impact law of docs/physics.md, "The frictionless impulse" (with
 * friction: "Single pass with friction"), the velocity changes summed per body (one Jacobi pass).
 * Immutable; each {@code with} method returns a changed copy and refuses a bad value at the call,
 * naming it. It has only the settings every rigid solver has ({@link RigidSettings}):
 *
 * <ul>
 *   <li>{@code restitutionThreshold}: a contact approaching slower than this (m/s) does not bounce
 *       (default 0, so the impact law is unchanged);</li>
 *   <li>positional correction, {@code biasFactor} and {@code slop} (default off);</li>
 *   <li>{@code friction} (default on).</li>
 * </ul>
 */
public final class SinglePassSettings extends RigidSettings {
    /** Every setting at its default. */
    static final SinglePassSettings DEFAULTS = new SinglePassSettings(RigidPart.DEFAULTS);

    private SinglePassSettings(RigidPart rigid) {
        super(rigid);
    }

    /** These settings with the shared ones replaced by {@code part}. */
    private SinglePassSettings with(RigidPart part) {
        return new SinglePassSettings(part);
    }

    @Override
    public SolverKind kind() {
        return SolverKind.SINGLE_PASS;
    }

    @Override
    public SinglePassSettings withRestitutionThreshold(float threshold) {
        return with(rigid().withRestitutionThreshold(threshold));
    }

    @Override
    public SinglePassSettings withPositionalCorrection(float biasFactor, float slop) {
        return with(rigid().withPositionalCorrection(biasFactor, slop));
    }

    @Override
    public SinglePassSettings withoutPositionalCorrection() {
        return with(rigid().withoutPositionalCorrection());
    }

    @Override
    public SinglePassSettings withFriction(boolean useFriction) {
        return with(rigid().withFriction(useFriction));
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof SinglePassSettings that && rigid().equals(that.rigid());
    }

    @Override
    public int hashCode() {
        return rigid().hashCode();
    }

    /** The settings by name, as {@code SinglePassSettings[restitutionThreshold=0.0, positional correction bias=0.2 slop=0.005]}. */
    @Override
    public String toString() {
        return "SinglePassSettings[restitutionThreshold=" + restitutionThreshold() + rigid().text() + "]";
    }
}
