package io.contactsolver.core;

/**
 * Everything a backend reads and writes in one soft step (docs/physics.md, "Soft step: substeps,
 * soft contacts, a relax sweep"): the bodies and contacts as validated raw blocks, the colouring,
 * the warm start, the step's constants, and three outputs: each body's state at the end of the step
 * ({@code nextBodies}, the first {@link #BODY_STATE_FIELDS} {@code BodyField}s: position,
 * orientation, linear and angular velocity), each body's velocity change from the contacts
 * ({@code DeltaField}: the whole change less {@code g dt} for a body with mass) and each contact's
 * accumulated impulses at the end of the last substep ({@code ImpulseField}). The caller commits
 * {@code nextBodies} to the bodies only once it has checked them, so a failed step leaves the
 * bodies as they were.
 *
 * @param restitution the restitution rule ({@code TargetRule} with no positional correction)
 * @param iterations soft solve sweeps per substep
 * @param relaxIterations relax sweeps per substep
 * @param gx gravity, x (m/s^2; likewise {@code gy}, {@code gz})
 * @param timeStep the whole step, seconds
 * @param warmImpulses starting impulses as in {@link IterativeJob#warmImpulses()}, or null
 */
public record SoftStepJob(
        FieldBlock bodies, int bodyCount,
        FieldBlock contacts, FieldBlock links, int contactCount,
        TargetRule restitution, FrictionUse friction, MovableBodies movable, ContactColoring coloring,
        int iterations, int relaxIterations, SoftCoefficients coefficients,
        float gx, float gy, float gz, float timeStep,
        float[] warmImpulses,
        FieldBlock nextBodies, FieldBlock deltas, FieldBlock impulses,
        SolveMeter clock) implements SolveJob {
    /** The body fields a step changes: {@code X} through {@code WZ}. */
    public static final int BODY_STATE_FIELDS = io.contactsolver.layout.BodyField.WZ.ordinal() + 1;
}
