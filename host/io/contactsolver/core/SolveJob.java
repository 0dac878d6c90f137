package io.contactsolver.core;

/**
 * Everything a backend reads and writes in one solve, as raw structure-of-arrays blocks: bodies
 * ({@code BodyField} layout), contact floats ({@code ContactField}), contact body references
 * ({@code ContactBody}), the per-body output ({@code DeltaField}) and one impulse per contact.
 * Inputs have been validated and {@code index} built for them before a backend sees the job.
 */
public record SolveJob(
        FieldBlock bodies, int bodyCount,
        FieldBlock contacts, FieldBlock links, int contactCount,
        BodyContactIndex index,
        FieldBlock deltas, FieldBlock impulses) {
}
