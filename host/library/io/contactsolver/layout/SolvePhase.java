package io.contactsolver.layout;

/**
 * The stages of a solve or step, the same on every backend, timed on every call and reported by
 * {@code SolveResult#hostNanos} and {@code SolveResult#deviceNanos}.
 *
 * <p>Two clocks. The host's clock charges each stretch of a call, from validation to its last
 * stage, to the phase it belongs to, except the stretches in which the host waits for a solve on an
 * OpenCL device (the wait for its queue to finish, a blocking read of its outcome), which are
 * charged to none: the sum of the host's phases is the time the host spent working on the call.
 * One exception: a rigid step ({@code ContactSolver.step} with the single pass or the iterative
 * solver) waits for the device's updates of its copy of the bodies inside {@link #INTEGRATE}. The
 * device's clock, an OpenCL device's profiling events, times its copies ({@link #TRANSFER}) and its
 * kernels ({@link #SOLVE}); on the CPU it reads 0 everywhere.
 */
public enum SolvePhase {
    /** Input checks on the host: every body and contact, and the contacts' normal rows for overflow. */
    VALIDATE,
    /**
     * What the host sets up for the solver: the warm start matched by contact id, contact recycling
     * (soft step), which bodies contacts can move, the colouring (iterative solver, soft step) or
     * the body-contact index (single pass, where a backend reads it); on the CPU also the per-body
     * working records and every row with its warm start. Host time only: a device's set-up
     * kernels are timed with the others, in {@link #SOLVE}.
     */
    SET_UP,
    /**
     * The solve proper: the single pass, the iterations, or the soft step's substeps. On the CPU
     * host time. On an OpenCL device, its device time is every kernel's (its set-up kernels
     * included), and its host time the host's work between its set-up and its wait for the device:
     * the result made ready, the calls that put the copies and kernels in the device's queue, and
     * the arrays the host builds for them.
     */
    SOLVE,
    /** Copying inputs to an OpenCL device and results back: device time only (0 on the CPU). */
    TRANSFER,
    /**
     * Writing deltas and impulses out (the CPU; a device's impulses read back are put in contact
     * order) and, on any backend, scanning them for overflow. Host time.
     */
    OUTPUT,
    /**
     * {@code ContactSolver#step}: gravity and integration on the host, and the device's copy of the
     * bodies brought along. Host time.
     */
    INTEGRATE
}
