package io.contactsolver.core;

import io.contactsolver.SolvePhase;
import java.util.Arrays;

/** Wall-clock time per {@link SolvePhase} of one solve: each {@link #lap} charges the time since the last. */
public final class PhaseClock {
    private final long[] nanos = new long[SolvePhase.values().length];
    private long last;

    /** Clears all phases and starts timing. */
    public void start() {
        Arrays.fill(nanos, 0L);
        last = System.nanoTime();
    }

    /** Charges the time since the previous lap (or the start) to {@code phase}. */
    public void lap(SolvePhase phase) {
        long now = System.nanoTime();
        nanos[phase.ordinal()] += now - last;
        last = now;
    }

    public long nanos(SolvePhase phase) {
        return nanos[phase.ordinal()];
    }

    public void copyTo(long[] dest) {
        System.arraycopy(nanos, 0, dest, 0, nanos.length);
    }
}
