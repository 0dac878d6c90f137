package io.contactsolver.core;

/**
 * Everything a backend reads and writes in one solve, as raw structure-of-arrays blocks: bodies
 * ({@code BodyField} layout), contact floats ({@code ContactField}), contact body references
 * ({@code ContactBody}), the per-body output ({@code DeltaField}) and the impulses of every
 * contact ({@code ImpulseField}). Inputs have been validated before a backend sees the job.
 *
 * <p>One kind of job per solver, each holding exactly what its solver needs and nothing that is
 * there for another: {@link SinglePassJob} (with the body-contact index) and {@link IterativeJob}
 * (with the colouring, the iteration limits and the warm start). The accessors here are what they
 * share, which is what the backends' common code (sending the bodies, reading the results back)
 * reads. The soft step moves bodies and solves manifolds rather than contacts: its
 * {@link SoftStepJob} is a record of its own.
 */
public sealed interface SolveJob permits SinglePassJob, IterativeJob {
    /** The bodies, {@code BodyField} layout. */
    FieldBlock bodies();

    int bodyCount();

    /** The contacts' floats, {@code ContactField} layout. */
    FieldBlock contacts();

    /** The contacts' body references, {@code ContactBody} layout. */
    FieldBlock links();

    int contactCount();

    /** What friction the contacts have: which impulse fields can be non-zero. */
    FrictionUse friction();

    /** Receives every body's velocity change, {@code DeltaField} layout. */
    FieldBlock deltas();

    /** Receives every contact's impulses, {@code ImpulseField} layout. */
    FieldBlock impulses();

    /** Charged by the backend with the phases it runs. */
    SolveMeter clock();
}
