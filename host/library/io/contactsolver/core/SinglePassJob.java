package io.contactsolver.core;

/**
 * A single-pass solve ({@link SolverBackend#solveSinglePass}): the blocks of {@link SolveJob}, the
 * target rule and the host-built body-contact index.
 *
 * @param targets how each contact's target normal velocity is chosen
 * @param friction what friction the contacts have: which impulse fields can be non-zero
 * @param index each body's contacts; the host builds it only for a backend that
 *     {@link SolverBackend#usesBodyContactIndex() uses it}, and a backend that does not never reads it
 */
public record SinglePassJob(
        FieldBlock bodies, int bodyCount,
        FieldBlock contacts, FieldBlock links, int contactCount,
        TargetRule targets, FrictionUse friction,
        BodyContactIndex index,
        FieldBlock deltas, FieldBlock impulses,
        SolveMeter clock) implements SolveJob {
}
