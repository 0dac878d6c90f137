package io.contactsolver.core;

/**
 * Which bodies contacts can move ({@link BodyKind}), classified once per solve and shared by the
 * body-contact index and the colouring.
 */
public final class MovableBodies {
    private static final int GRAIN = 1 << 14;

    private boolean[] movable = new boolean[0];
    private int bodyCount;

    public void classify(FieldBlock bodies, int count, ParallelRunner runner) {
        if (movable.length < count) {
            movable = new boolean[count];
        }
        bodyCount = count;
        boolean[] flags = movable;
        runner.forRange(count, GRAIN, (from, to) -> {
            for (int i = from; i < to; i++) {
                flags[i] = !BodyKind.isImmovable(bodies.floats(), bodies.stride(), i);
            }
        });
    }

    public int bodyCount() {
        return bodyCount;
    }

    /** Whether body {@code body} (0 .. bodyCount-1; not the world) can be moved by contacts. */
    public boolean isMovable(int body) {
        return movable[body];
    }
}
