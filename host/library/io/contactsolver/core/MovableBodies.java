package io.contactsolver.core;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Which bodies contacts can move ({@link BodyKind}), classified once per solve and shared by the
 * body-contact index and the colouring; not again while the same block's inverse masses and
 * inertias carry the stamps they had (a step writes only the bodies' motion).
 */
public final class MovableBodies {
    private static final int GRAIN = 1 << 14;

    private boolean[] movable = new boolean[0];
    private int bodyCount;
    /** Counts the classifications that changed a flag or the count: what was built on the flags holds while it stays. */
    private long version;
    /** The block last classified (its id, -1 for none) and the stamps of its inverse-mass fields then. */
    private long classifiedBlock = -1;
    private final long[] classifiedStamps = new long[BodyKind.INVERSE_MASS_FIELDS.length];

    public void classify(FieldBlock bodies, int count, ParallelRunner runner) {
        // the same block and count, its inverse masses and inertias not written since: the same flags
        if (bodies.id() == classifiedBlock && count == bodyCount && sameStamps(bodies)) {
            return;
        }
        classifiedBlock = -1; // until classified
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
        for (int k = 0; k < BodyKind.INVERSE_MASS_FIELDS.length; k++) {
            classifiedStamps[k] = bodies.stamp(BodyKind.INVERSE_MASS_FIELDS[k]);
        }
        classifiedBlock = bodies.id();
    }

    /** Whether the fields the flags are read from carry the stamps they had when last classified. */
    private boolean sameStamps(FieldBlock bodies) {
        for (int k = 0; k < BodyKind.INVERSE_MASS_FIELDS.length; k++) {
            if (bodies.stamp(BodyKind.INVERSE_MASS_FIELDS[k]) != classifiedStamps[k]) {
                return false;
            }
        }
        return true;
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
