package io.contactsolver.core;

import io.contactsolver.layout.ContactBody;
import java.nio.IntBuffer;

/**
 * For every movable body, the list of its contact sides in increasing contact order (compressed
 * sparse rows): the entries of body {@code i} are {@code entries()[offsets()[i] .. offsets()[i+1])}.
 * The "contacts" may be any items that join two bodies: the soft step indexes its manifold rows so,
 * in row order ({@link #build(MovableBodies, IntBuffer, int, int, ParallelRunner)}).
 *
 * <p>An entry encodes one side of one contact as {@code contact * ContactBody.COUNT + side}, which
 * is also the index of that side's six-float velocity response in the solvers' response arrays.
 * The world ({@code -1}) and immovable bodies get empty lists: their velocity change is zero.
 *
 * <p>Summing a body's responses in this fixed order is what makes results independent of thread
 * count and scheduling. The build is parallel without atomics: each thread owns a contiguous range
 * of bodies, reads all contacts and fills only its own bodies' lists, in contact order.
 */
public final class BodyContactIndex {
    private static final int SIDES = ContactBody.COUNT;

    private int[] offsets = new int[1];
    private int[] entries = new int[0];
    private int[] cursor = new int[0];
    private int bodyCount;

    /** The entry of one side of a contact. */
    public static int entry(int contact, ContactBody side) {
        return contact * SIDES + side.ordinal();
    }

    public static int contactOf(int entry) {
        return entry / SIDES;
    }

    public int bodyCount() {
        return bodyCount;
    }

    /** {@code bodyCount() + 1} offsets into {@link #entries()}; only the first {@code bodyCount() + 1} are valid. */
    public int[] offsets() {
        return offsets;
    }

    /** The entries; only the first {@link #entryCount()} are valid. */
    public int[] entries() {
        return entries;
    }

    public int entryCount() {
        return offsets[bodyCount];
    }

    /** Rebuilds the index for the given contacts; body references must be valid. */
    public void build(MovableBodies movable, FieldBlock links, int contactCount, ParallelRunner runner) {
        build(movable, links.ints(), links.stride(), contactCount, runner);
    }

    /**
     * Rebuilds the index for {@code contactCount} items whose side {@code s} joins body
     * {@code ints.get(s * stride + item)}: a value outside {@code [0, bodyCount)}, or an immovable
     * body, has no list (as {@code ContactColoring.slots()} names the world and the bodies contacts
     * cannot move by {@code bodyCount}).
     */
    public void build(MovableBodies movable, IntBuffer ints, int stride, int contactCount, ParallelRunner runner) {
        int bodyCount = movable.bodyCount();
        this.bodyCount = bodyCount;
        if (offsets.length < bodyCount + 1) {
            offsets = new int[bodyCount + 1];
            cursor = new int[bodyCount];
        }
        if (entries.length < (long) contactCount * SIDES) {
            entries = new int[Math.multiplyExact(contactCount, SIDES)];
        }
        int parts = Math.max(1, Math.min(runner.threads(), bodyCount / 1024));
        runner.forRange(parts, 1, (from, to) -> {
            for (int part = from; part < to; part++) {
                countPart(movable, ints, stride, contactCount, firstBody(part, parts), firstBody(part + 1, parts));
            }
        });
        offsets[0] = 0;
        for (int i = 0; i < bodyCount; i++) {
            offsets[i + 1] += offsets[i];
        }
        runner.forRange(parts, 1, (from, to) -> {
            for (int part = from; part < to; part++) {
                fillPart(movable, ints, stride, contactCount, firstBody(part, parts), firstBody(part + 1, parts));
            }
        });
    }

    private int firstBody(int part, int parts) {
        return (int) ((long) bodyCount * part / parts);
    }

    /** Counts the entries of the bodies of {@code [lo, hi)} into {@code offsets[i + 1]}. */
    private void countPart(MovableBodies movable, IntBuffer ints, int stride, int contactCount, int lo, int hi) {
        for (int i = lo; i < hi; i++) {
            offsets[i + 1] = 0;
        }
        for (int side = 0; side < SIDES; side++) {
            int base = side * stride;
            for (int c = 0; c < contactCount; c++) {
                int body = ints.get(base + c);
                if (body >= lo && body < hi && movable.isMovable(body)) {
                    offsets[body + 1]++;
                }
            }
        }
    }

    /** Writes the entries of the bodies of {@code [lo, hi)} in increasing contact order. */
    private void fillPart(MovableBodies movable, IntBuffer ints, int stride, int contactCount, int lo, int hi) {
        System.arraycopy(offsets, lo, cursor, lo, hi - lo);
        int baseA = ContactBody.A.ordinal() * stride;
        int baseB = ContactBody.B.ordinal() * stride;
        for (int c = 0; c < contactCount; c++) {
            int a = ints.get(baseA + c);
            if (a >= lo && a < hi && movable.isMovable(a)) {
                entries[cursor[a]++] = c * SIDES + ContactBody.A.ordinal();
            }
            int b = ints.get(baseB + c);
            if (b >= lo && b < hi && movable.isMovable(b)) {
                entries[cursor[b]++] = c * SIDES + ContactBody.B.ordinal();
            }
        }
    }
}
