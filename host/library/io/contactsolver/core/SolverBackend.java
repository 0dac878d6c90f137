package io.contactsolver.core;

/** One implementation of the solves: the CPU or an OpenCL device. */
public interface SolverBackend extends AutoCloseable {
    /** One line naming the backend and its device or thread count. */
    String description();

    /**
     * Lends the backend the solver's threads for its own host work (a device backend's staging
     * copies); a backend that owns none yet uses one thread. The CPU backend is built with them.
     */
    default void shareThreads(ParallelRunner runner) {
    }

    /**
     * Whether {@link #solveSinglePass} reads {@link SinglePassJob#index()}; if not, the host does not
     * build it.
     */
    default boolean usesBodyContactIndex() {
        return true;
    }

    /**
     * Whether {@link #softStep} writes the recycler's planned points itself ({@code Recycler.plan}
     * done, {@code Recycler.write} not): a device that can does it there, or calls
     * {@code Recycler.write} where it cannot; if not, the host writes them before the step.
     */
    default boolean recyclesOnDevice() {
        return false;
    }

    /**
     * Whether {@link #softStep}'s rows ask the recycler for a kept manifold's anchors and normal
     * where they read them ({@code Recycler.placeAnchors}), so that the host's write of the points
     * may leave them in the captures ({@code Recycler.writeLeavingAnchors}); if not, it writes them.
     */
    default boolean placesKeptAnchors() {
        return false;
    }

    /**
     * Whether {@link #softStep} reads {@link SoftStepJob#bodyRows()} where the host gives it (each
     * movable body's manifold rows, for a warm start body by body rather than colour by colour); if
     * not, the host does not build it.
     */
    default boolean startsSubstepsByBody() {
        return false;
    }

    /**
     * Fills in a soft step's colouring in the hashed order ({@link ContactColoring.HashedColouring}):
     * on the host by default; a GPU's backend colours on its device, to the same colours.
     */
    default void colourHashed(ContactColoring.HashedColouring colouring) {
        colouring.colourOnHost();
    }

    /**
     * The validator's screen of a soft step's batch on the backend's device ({@link InputScreen}),
     * the manifolds' rules with it ({@code manifolds}: each contact's number, which
     * {@code numbering} has noted at its {@code numbersVersion}), the bodies and contacts sent there
     * on the way; null where the backend has no device, or the
     * batch does not fit it, and the host screens it ({@code InputValidator.validate}).
     */
    default InputScreen screen(FieldBlock bodies, int bodyCount, FieldBlock contacts, FieldBlock links,
            int[] manifolds, ManifoldGrouping numbering, int contactCount, SolveMeter clock) {
        return null;
    }

    /**
     * The single pass: each contact's impulse by the impact law of docs/physics.md from the
     * pre-solve velocities, summed per body: writes every
     * impulse and every body's velocity change in {@code job}.
     *
     * @throws BackendFailureException if the device failed; outputs may then be partly written
     */
    void solveSinglePass(SinglePassJob job);

    /**
     * Projected Gauss-Seidel over the job's colouring: all contacts resolved together, every
     * accumulated impulse kept non-negative, each contact's normal velocity driven to at least its
     * target. Writes every impulse and every body's velocity change in {@code job}.
     *
     * @throws BackendFailureException if the device failed; outputs may then be partly written
     */
    IterationOutcome solveIterative(IterativeJob job);

    /**
     * One soft step (docs/physics.md, "Soft step"): rows
     * set up once from the bodies and contacts as given, then the substeps, then restitution.
     * Writes the bodies' state at the end of the step, their deltas and every contact's impulses to
     * the job's outputs; the bodies themselves are not changed. Returns the sweeps done and the
     * largest change of the last.
     *
     * @throws BackendFailureException if the device failed; outputs may then be partly written
     */
    IterationOutcome softStep(SoftStepJob job);

    // Device-resident stepping: a backend that keeps its own copy of the bodies keeps it equal to
    // the host's by the mirror rule, stated once in the API package's Stepper, the one caller of
    // the four methods below. A backend without a device copy does nothing in them.

    /**
     * Device-resident stepping, first call of a step: makes the device copy of the bodies equal to
     * the host's, sending only fields written since they last went up. Returns the bytes sent. A
     * backend without a device copy does nothing.
     */
    default long syncBodies(FieldBlock bodies, int count) {
        return 0;
    }

    /** Applies gravity to the device copy exactly as {@code Integrator.applyGravity} did to the host's. */
    default void mirrorGravity(FieldBlock bodies, int count, float gx, float gy, float gz, float dt) {
    }

    /**
     * Integrates the device copy with the deltas of the solve just done, exactly as
     * {@code Integrator.integrate} did the host's; the copies are then equal again.
     */
    default void mirrorIntegration(FieldBlock bodies, int count, float dt) {
    }

    /**
     * After a soft step: the caller has written the step's {@code nextBodies} into {@code bodies}
     * (stamping those fields). A backend whose device computed them may mark its copy as equal
     * instead of sending them again next step; one without a device copy does nothing.
     */
    default void mirrorSoftStep(FieldBlock bodies, int count) {
    }

    @Override
    void close();
}
