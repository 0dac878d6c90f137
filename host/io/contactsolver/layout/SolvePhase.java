package io.contactsolver.layout;

/**
 * The stages of a solve, timed on every solve and reported by {@code SolveResult#phaseNanos}.
 * Host stages come first; a backend uses the ones that apply to it.
 *
 * <p>Every phase but {@link #UPLOAD}, {@link #KERNELS} and {@link #READBACK} is timed on the host's
 * clock: each stretch of a solve's call, from validation to its last stage, is charged to the phase
 * it belongs to, except the stretches in which the host waits for a solve on an OpenCL device
 * (the wait for its queue to finish, a blocking read of its outcome), which are charged to none.
 * One exception: a rigid step ({@code ContactSolver.step} with the single pass or the iterative
 * solver) waits for the device's updates of its copy of the bodies inside {@link #INTEGRATE}.
 * Those three are the device's own times, from its profiling events ({@link #isDeviceTime}).
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
    /** Soft step: contact recycling, the points of every manifold kept from the last step or taken fresh. */
    RECYCLE,
    /**
     * OpenCL: the host's work between its set-up and its wait for the device: the result made
     * ready, the calls that put the copies and kernels in the device's queue, and the arrays the
     * host builds for them (staging), up to the wait. Host time, not the device's.
     */
    ENQUEUE,
    /** OpenCL: copying inputs to the device (device time). */
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
    /**
     * Writing deltas and impulses out (the CPU; OpenCL puts impulses read back in chunks in contact
     * order) and, for a solve on any backend, scanning them for overflow.
     */
    OUTPUT,
    /** OpenCL: running the kernels, measured to their completion (device time). */
    KERNELS,
    /** OpenCL: copying deltas and impulses back (device time). */
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

    /**
     * Whether this stage is timed by an OpenCL device's profiling events rather than the host's
     * clock: the sum of the other phases is the time the host spent working on the solve, its
     * waits for the device left out.
     *
     * @return true for {@link #UPLOAD}, {@link #KERNELS} and {@link #READBACK}
     */
    public boolean isDeviceTime() {
        return this == UPLOAD || this == KERNELS || this == READBACK;
    }
}
