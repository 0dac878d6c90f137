package io.contactsolver.core;

import io.contactsolver.layout.SolvePhase;
import java.util.Arrays;

/**
 * What one solve cost: time per {@link SolvePhase} (each {@link #lap} charges the wall-clock time
 * since the last; a device adds its own measured times) and bytes moved to and from a device.
 */
public final class SolveMeter {
    private final long[] nanos = new long[SolvePhase.values().length];
    private long last;
    private long bytesUp;
    private long bytesDown;

    /** Clears everything and starts timing. */
    public void start() {
        Arrays.fill(nanos, 0L);
        bytesUp = 0;
        bytesDown = 0;
        last = System.nanoTime();
    }

    public void addTransfer(long up, long down) {
        bytesUp += up;
        bytesDown += down;
    }

    public long bytesUp() {
        return bytesUp;
    }

    public long bytesDown() {
        return bytesDown;
    }

    /** Charges the time since the previous lap (or the start) to {@code phase}. */
    public void lap(SolvePhase phase) {
        long now = System.nanoTime();
        nanos[phase.ordinal()] += now - last;
        last = now;
    }

    /** Charges {@code duration} to {@code phase} without moving the lap mark: for times measured elsewhere. */
    public void add(SolvePhase phase, long duration) {
        nanos[phase.ordinal()] += duration;
    }

    /** Moves the lap mark to now without charging anything. */
    public void skip() {
        last = System.nanoTime();
    }

    public long nanos(SolvePhase phase) {
        return nanos[phase.ordinal()];
    }

    public void copyTo(long[] dest) {
        System.arraycopy(nanos, 0, dest, 0, nanos.length);
    }
}
