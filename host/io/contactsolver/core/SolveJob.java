package io.contactsolver.core;

/**
 * Everything a backend reads and writes in one solve, as raw structure-of-arrays blocks: bodies
 * ({@code BodyField} layout), contact floats ({@code ContactField}), contact body references
 * ({@code ContactBody}), the per-body output ({@code DeltaField}) and the impulses of every
 * contact ({@code ImpulseField}).
 * Inputs have been validated before a backend sees the job, and the host-built structures its
 * solver needs are ready: the body-contact {@code index} for the single pass, the {@code coloring}
 * for the iterative solver (the other one is null).
 *
 * @param targets how each contact's target normal velocity is chosen
 * @param friction what friction the contacts have: which impulse fields can be non-zero
 * @param iterations the most iterations of the iterative solver
 * @param tolerance stop once an iteration changes no impulse by more than this
 * @param warmImpulses starting impulses ({@code ImpulseField} layout, field {@code f} of contact {@code c}
 *     at {@code f * contactCount + c}, input order), or null to start from zero
 * @param clock charged by the backend with the phases it runs
 */
public record SolveJob(
        FieldBlock bodies, int bodyCount,
        FieldBlock contacts, FieldBlock links, int contactCount,
        TargetRule targets, FrictionUse friction,
        BodyContactIndex index,
        ContactColoring coloring, int iterations, float tolerance, float[] warmImpulses,
        FieldBlock deltas, FieldBlock impulses,
        SolveMeter clock) {
}
