package io.contactsolver.core;

/**
 * What a backend did with a soft step's outputs beyond the job's own, so that the host does not do
 * it again: a device that reports every contact's impulses ({@link Recycler#report}, the same bits)
 * and finds the results and the next bodies finite (and the next orientations unit) where they lie
 * says so here, and the host skips the report and those scans; the CPU screens the next bodies and
 * the deltas as it writes them. A backend that does neither leaves everything false, and the host
 * does all of it. Cleared before each step; set only by a backend whose step
 * has completed.
 */
public final class StepOutputs {
    private boolean impulsesReported;
    private boolean impulsesLeftOnDevice;
    private boolean deltasLeftOnDevice;
    private boolean resultFinite;
    private boolean nextBodiesFinite;
    private boolean nextOrientationsUnit;
    private boolean nextBodiesCommitted;

    /** Nothing done yet: the host reports and scans everything. */
    public void clear() {
        impulsesReported = false;
        impulsesLeftOnDevice = false;
        deltasLeftOnDevice = false;
        resultFinite = false;
        nextBodiesFinite = false;
        nextOrientationsUnit = false;
        nextBodiesCommitted = false;
    }

    /**
     * What a completed step did.
     *
     * @param reported the job's impulses were written as {@link Recycler#report} writes them
     * @param finite every value of the results the step wrote (the impulses where it reported
     *     them and they were asked for, the deltas where asked for) is finite; impulses the host
     *     reports itself are the host's to scan
     * @param bodiesFinite every field of the next bodies is finite
     * @param orientationsUnit every next body's orientation passed the validator's screen of a unit
     *     quaternion ({@code InputValidator.NORM2_LOW} to {@code NORM2_HIGH}, summed in float), so
     *     its norm is within tolerance
     */
    public void record(boolean reported, boolean finite, boolean bodiesFinite, boolean orientationsUnit) {
        this.impulsesReported = reported;
        this.resultFinite = finite;
        this.nextBodiesFinite = bodiesFinite;
        this.nextOrientationsUnit = orientationsUnit;
    }

    /**
     * The completed step found every result and next body sound ({@link #record}, all true) and wrote
     * the next state straight into the bodies' first {@link SoftStepJob#BODY_STATE_FIELDS} fields,
     * stamped, instead of into the job's {@code nextBodies}: nothing of the step can fail after it.
     */
    public void recordCommitted() {
        if (!resultFinite || !nextBodiesFinite || !nextOrientationsUnit) {
            throw new IllegalStateException("a step's next state committed before it was found sound");
        }
        nextBodiesCommitted = true;
    }

    /** Whether the backend wrote the checked next state into the bodies themselves ({@link #recordCommitted}). */
    public boolean nextBodiesCommitted() {
        return nextBodiesCommitted;
    }

    /**
     * The completed step reported every contact's impulses on the device ({@link Recycler#report},
     * the same bits), found them finite, and left them there for the kept manifolds' device copy to
     * read when the result is first read ({@code ManifoldCache.readReportedImpulses}).
     */
    public void recordImpulsesLeftOnDevice() {
        if (impulsesReported || !resultFinite) {
            throw new IllegalStateException("a step's impulses left on the device after they were read, or unchecked");
        }
        impulsesLeftOnDevice = true;
    }

    /** Whether the backend left every contact's impulses, checked finite, on the device ({@link #recordImpulsesLeftOnDevice}). */
    public boolean impulsesLeftOnDevice() {
        return impulsesLeftOnDevice;
    }

    /**
     * The completed step found every body's velocity change finite on the device and left them there
     * for the kept manifolds' device copy to read when the result is first read
     * ({@code ManifoldCache.readDeltas}).
     */
    public void recordDeltasLeftOnDevice() {
        if (!resultFinite) {
            throw new IllegalStateException("a step's velocity changes left on the device unchecked");
        }
        deltasLeftOnDevice = true;
    }

    /** Whether the backend left every body's velocity change, checked finite, on the device ({@link #recordDeltasLeftOnDevice}). */
    public boolean deltasLeftOnDevice() {
        return deltasLeftOnDevice;
    }

    /** Whether the backend wrote every contact's impulses. */
    public boolean impulsesReported() {
        return impulsesReported;
    }

    /** Whether the backend found every impulse and delta it was asked for finite. */
    public boolean resultFinite() {
        return resultFinite;
    }

    /** Whether the backend found every field of the next bodies finite. */
    public boolean nextBodiesFinite() {
        return nextBodiesFinite;
    }

    /** Whether the backend's screen cleared every next body's orientation as a unit quaternion. */
    public boolean nextOrientationsUnit() {
        return nextOrientationsUnit;
    }
}
