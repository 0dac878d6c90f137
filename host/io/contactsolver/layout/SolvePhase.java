package io.contactsolver.layout;

/**
 * The stages of a solve, timed on every solve and reported by {@code SolveResult#phaseNanos}.
 * Host stages come first; a backend uses the ones that apply to it.
 */
public enum SolvePhase {
    /** Input checks on the host. */
    VALIDATE,
    /** Which bodies contacts can move. */
    CLASSIFY,
    /** Single pass: the body-to-contact index. */
    INDEX,
    /** Iterative: the colouring of the contact graph. */
    COLOUR,
    /** Iterative and soft step: matching the warm-start impulses by contact id. */
    WARM_START,
    /** Soft step: contact recycling, each contact's geometry kept from its capture or taken fresh. */
    RECYCLE,
    /** OpenCL: copying inputs to the device. */
    UPLOAD,
    /**
     * CPU: per-body working records. Zero on OpenCL, which charges all its kernels, this step's
     * included, to {@link #KERNELS}.
     */
    PREPARE,
    /** CPU single pass: the impulse of every contact. */
    CONTACTS,
    /** CPU single pass: per-body sums. */
    GATHER,
    /** CPU iterative: row set-up and the warm start. */
    ROWS,
    /** CPU iterative: the iterations. */
    ITERATE,
    /** CPU: writing deltas and impulses out. */
    OUTPUT,
    /** OpenCL: running the kernels, measured to their completion. */
    KERNELS,
    /** OpenCL: copying deltas and impulses back. */
    READBACK,
    /** {@code ContactSolver#step}: gravity and integration, on the host and on the device copy. */
    INTEGRATE;

    /**
     * Whether this stage is done on the host before a device sees the job: what the benchmark calls
     * packing.
     *
     * @return true for {@link #VALIDATE} up to and including {@link #RECYCLE}
     */
    public boolean isHostPacking() {
        return ordinal() <= RECYCLE.ordinal();
    }
}
