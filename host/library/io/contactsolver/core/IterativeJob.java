package io.contactsolver.core;

/**
 * An iterative solve ({@link SolverBackend#solveIterative}): the blocks of {@link SolveJob}, the
 * target rule, the host-built colouring, the iteration limits and the warm start.
 *
 * @param targets how each contact's target normal velocity is chosen
 * @param friction what friction the contacts have: which impulse fields can be non-zero
 * @param coloring the contacts' rows in colour order, built by the host for this batch
 * @param iterations the most iterations
 * @param tolerance stop once an iteration changes no impulse by more than this
 * @param warmImpulses starting impulses ({@code ImpulseField} layout, field {@code f} of contact {@code c}
 *     at {@code f * contactCount + c}, input order), or null to start from zero
 */
public record IterativeJob(
        FieldBlock bodies, int bodyCount,
        FieldBlock contacts, FieldBlock links, int contactCount,
        TargetRule targets, FrictionUse friction,
        ContactColoring coloring, int iterations, float tolerance, float[] warmImpulses,
        FieldBlock deltas, FieldBlock impulses,
        SolveMeter clock) implements SolveJob {
}
