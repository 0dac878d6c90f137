package io.contactsolver.core;

import io.contactsolver.layout.SolvePhase;
import java.util.Arrays;

/**
 * What one solve cost: time per {@link SolvePhase} on two clocks, the host's (each {@link #lap}
 * charges the wall-clock time since the last) and a device's (its own measured times,
 * {@link #addDevice}), and bytes moved to and from a device.
 */
public final class SolveMeter {
    private final long[] hostNanos = new long[SolvePhase.values().length];
    private final long[] deviceNanos = new long[SolvePhase.values().length];
    private long last;
    private long bytesUp;
    private long bytesDown;

    /** Clears everything and starts timing. */
    public void start() {
        Arrays.fill(hostNanos, 0L);
        Arrays.fill(deviceNanos, 0L);
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

    /** Charges the host's time since the previous lap (or the start) to {@code phase}. */
    public void lap(SolvePhase phase) {
        long now = System.nanoTime();
        hostNanos[phase.ordinal()] += now - last;
        last = now;
    }

    /** Charges {@code duration}, measured by a device, to {@code phase}'s device time; the lap mark stays. */
    public void addDevice(SolvePhase phase, long duration) {
        deviceNanos[phase.ordinal()] += duration;
    }

    /** Moves the lap mark to now without charging anything: after a wait for a device. */
    public void skip() {
        last = System.nanoTime();
    }

    public long hostNanos(SolvePhase phase) {
        return hostNanos[phase.ordinal()];
    }

    public long deviceNanos(SolvePhase phase) {
        return deviceNanos[phase.ordinal()];
    }

    /** Copies the host's times into {@code host} and the device's into {@code device}, by phase. */
    public void copyTo(long[] host, long[] device) {
        System.arraycopy(hostNanos, 0, host, 0, hostNanos.length);
        System.arraycopy(deviceNanos, 0, device, 0, deviceNanos.length);
    }
}
