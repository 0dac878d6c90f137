package io.contactsolver.core;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Which bodies contacts can move ({@link BodyKind}), classified once per solve and shared by the
 * body-contact index and the colouring.
 */
public final class MovableBodies {
    private static final int GRAIN = 1 << 14;

    private boolean[] movable = new boolean[0];
    private int bodyCount;
    /** Counts the classifications that changed a flag or the count: what was built on the flags holds while it stays. */
    private long version;

    public void classify(FieldBlock bodies, int count, ParallelRunner runner) {
        boolean changed = count != bodyCount;
        if (movable.length < count) {
            movable = Arrays.copyOf(movable, count);
        }
        bodyCount = count;
        boolean[] flags = movable;
        AtomicBoolean flipped = new AtomicBoolean();
        runner.forRange(count, GRAIN, (from, to) -> {
            boolean here = false;
            for (int i = from; i < to; i++) {
                boolean now = !BodyKind.isImmovable(bodies.floats(), bodies.stride(), i);
                here |= flags[i] != now;
                flags[i] = now;
            }
            if (here) {
                flipped.set(true);
            }
        });
        if (changed || flipped.get()) {
            version++;
        }
    }

    /** Changes whenever a classification changes a flag or the count; equal versions of this object mean equal flags. */
    public long version() {
        return version;
    }

    public int bodyCount() {
        return bodyCount;
    }

    /** Whether body {@code body} (0 .. bodyCount-1; not the world) can be moved by contacts. */
    public boolean isMovable(int body) {
        return movable[body];
    }
}
