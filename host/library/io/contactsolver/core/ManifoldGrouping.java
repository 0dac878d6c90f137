package io.contactsolver.core;

import io.contactsolver.layout.ContactBody;
import io.contactsolver.layout.ContactField;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The contact manifolds of a batch: maximal runs of consecutive contacts with the same manifold
 * number {@code >= 0}, and every other contact alone (docs/physics.md, "Soft step"). Manifold
 * {@code m} is contacts {@code [first(m), first(m + 1))}; manifolds are numbered in contact order.
 *
 * <p>Checked while grouping (the same rule for every solver, so a batch valid for one is valid for
 * all): a manifold has at most {@link #MAX_POINTS} points, and its points share their two bodies and
 * their normal, restitution, friction, rolling and torsional resistance, bit for bit: a manifold is
 * one body pair touching on one face, and its friction is solved once for all its points. Linear in
 * the contacts, the checks on the solver's threads; the arrays only grow.
 */
public final class ManifoldGrouping {
    /** The most points of one manifold, as in Box3D: four points span any contact face. */
    public static final int MAX_POINTS = 4;
    /** The manifold number of a contact alone. */
    public static final int NONE = -1;

    /** The fields a manifold's points must share. */
    private static final ContactField[] SHARED = {ContactField.NX, ContactField.NY, ContactField.NZ,
        ContactField.RESTITUTION, ContactField.FRICTION, ContactField.ROLLING_RESISTANCE, ContactField.TORSION};

    private int[] first = new int[1];
    private int count;
    private int largest;

    /**
     * Groups the first {@code contactCount} contacts by {@code numbers}, checking each point against
     * the first point of its run on {@code runner}'s threads; the fault of the lowest contact is the
     * one thrown, whatever the thread count.
     *
     * @throws InputFault naming the first contact (lowest index) that breaks a manifold's rules
     */
    public void build(int[] numbers, FieldBlock contacts, FieldBlock links, int contactCount, ParallelRunner runner) {
        if (first.length < contactCount + 1) {
            first = new int[Math.max(contactCount + 1, first.length + (first.length >> 1))];
        }
        AtomicReference<InputFault> lowest = new AtomicReference<>();
        runner.forRange(contactCount, 1 << 13, (from, to) -> {
            Screen screen = new Screen();
            for (int start = from; start < to; start += SLICE) {
                int n = Math.min(SLICE, to - start);
                screen.run(numbers, contacts, links, start, n);
                for (int i = 0; i < n; i++) {
                    InputFault fault = screen.suspect[i] ? check(numbers, contacts, links, start + i) : null;
                    if (fault != null) {
                        lowest.accumulateAndGet(fault, (x, y) -> x == null || y.index() < x.index() ? y : x);
                        return; // later contacts of this range are higher
                    }
                }
            }
        });
        if (lowest.get() != null) {
            throw lowest.get();
        }
        lay(numbers, contactCount);
    }

    /**
     * As {@link #build}, where a device has screened the manifolds' rules ({@code kernels/checks.cl},
     * the twin of {@link Screen}): only the contacts it listed in {@code suspects} (any order) get
     * the full check, and the lowest fault among them is thrown, the one {@link #build} throws.
     *
     * @throws InputFault naming the lowest suspect contact that breaks a manifold's rules
     */
    public void buildScreened(int[] numbers, FieldBlock contacts, FieldBlock links, int contactCount, int[] suspects,
            ParallelRunner runner) {
        if (first.length < contactCount + 1) {
            first = new int[Math.max(contactCount + 1, first.length + (first.length >> 1))];
        }
        AtomicReference<InputFault> lowest = new AtomicReference<>();
        runner.forRange(suspects.length, 1 << 12, (from, to) -> {
            for (int k = from; k < to; k++) {
                InputFault fault = check(numbers, contacts, links, suspects[k]);
                if (fault != null) {
                    lowest.accumulateAndGet(fault, (x, y) -> x == null || y.index() < x.index() ? y : x);
                }
            }
        });
        if (lowest.get() != null) {
            throw lowest.get();
        }
        lay(numbers, contactCount);
    }

    /** The manifolds of valid {@code numbers}: each one's first contact, their count and the largest. */
    private void lay(int[] numbers, int contactCount) {
        int manifolds = 0;
        int most = 0;
        for (int c = 0; c < contactCount; c++) {
            if (startsRun(numbers, c)) {
                if (manifolds > 0) {
                    most = Math.max(most, c - first[manifolds - 1]);
                }
                first[manifolds++] = c;
            }
        }
        first[manifolds] = contactCount;
        count = manifolds;
        largest = manifolds == 0 ? 0 : Math.max(most, contactCount - first[manifolds - 1]);
    }

    /** Contacts the screen takes at once. */
    private static final int SLICE = 1024;

    /**
     * The fast screen of a slice of contacts: the fields {@link #check} compares copied out of the
     * direct buffers (with the {@link #MAX_POINTS} contacts before the slice, where a run may start)
     * and compared in arrays, each point with the first of its run; a contact it cannot clear is
     * {@code suspect}, and only those get the full check. It passes no contact the check would
     * fault (a run too long, other bodies, a shared field's other bits), so the fault found is the
     * same; checked get by get, the pyramid's 45,000 points took 0.7 ms a frame.
     */
    private static final class Screen {
        final boolean[] suspect = new boolean[SLICE];
        /** Each contact's first point of its run, as an index into the copied columns; -1 for a run's start. */
        final int[] runStart = new int[SLICE];
        final int[] a = new int[SLICE + MAX_POINTS];
        final int[] b = new int[SLICE + MAX_POINTS];
        final float[] column = new float[SLICE + MAX_POINTS];

        void run(int[] numbers, FieldBlock contacts, FieldBlock links, int start, int n) {
            int lo = Math.max(0, start - MAX_POINTS);
            int width = start + n - lo;
            for (int i = 0; i < n; i++) {
                int c = start + i;
                suspect[i] = false;
                runStart[i] = -1;
                if (startsRun(numbers, c)) {
                    continue;
                }
                int first = c - 1;
                while (first > lo && c - first < MAX_POINTS && !startsRun(numbers, first)) {
                    first--;
                }
                if (startsRun(numbers, first) && c - first < MAX_POINTS) {
                    runStart[i] = first - lo;
                } else {
                    suspect[i] = true; // a run too long, or one starting before the copied columns
                }
            }
            IntBuffer ints = links.ints();
            ints.get(ContactBody.A.ordinal() * links.stride() + lo, a, 0, width);
            ints.get(ContactBody.B.ordinal() * links.stride() + lo, b, 0, width);
            int at = start - lo;
            for (int i = 0; i < n; i++) {
                int r = runStart[i];
                if (r >= 0) {
                    suspect[i] |= a[at + i] != a[r] || b[at + i] != b[r];
                }
            }
            FloatBuffer f = contacts.floats();
            for (ContactField field : SHARED) {
                f.get(field.ordinal() * contacts.stride() + lo, column, 0, width);
                for (int i = 0; i < n; i++) {
                    int r = runStart[i];
                    if (r >= 0) {
                        suspect[i] |= Float.floatToRawIntBits(column[at + i]) != Float.floatToRawIntBits(column[r]);
                    }
                }
            }
        }
    }

    /** Whether contact {@code c} starts a manifold: it has no number, or another number than the contact before. */
    private static boolean startsRun(int[] numbers, int c) {
        return c == 0 || numbers[c] == NONE || numbers[c] != numbers[c - 1];
    }

    /**
     * What contact {@code c} breaks of its manifold's rules, against the first point of its run, or
     * null: at most {@link #MAX_POINTS} points, the same bodies, the same shared fields bit for bit.
     */
    private static InputFault check(int[] numbers, FieldBlock contacts, FieldBlock links, int c) {
        if (startsRun(numbers, c)) {
            return null;
        }
        // at most MAX_POINTS back: a point further into a longer run leaves the fault to the run's fifth
        int start = c - 1;
        while (!startsRun(numbers, start)) {
            if (c - start == MAX_POINTS) {
                return null;
            }
            start--;
        }
        int number = numbers[c];
        if (c - start == MAX_POINTS) {
            return InputFault.contact(c, List.of("manifold"), "manifold " + number + " has more than " + MAX_POINTS
                    + " points (it starts at contact " + start + ")");
        }
        IntBuffer ints = links.ints();
        int baseA = ContactBody.A.ordinal() * links.stride();
        int baseB = ContactBody.B.ordinal() * links.stride();
        if (ints.get(baseA + c) != ints.get(baseA + start) || ints.get(baseB + c) != ints.get(baseB + start)) {
            return InputFault.contact(c, List.of("a", "b"), "manifold " + number + " joins bodies ("
                    + ints.get(baseA + start) + ", " + ints.get(baseB + start) + ") at its first point, contact "
                    + start + ", but (" + ints.get(baseA + c) + ", " + ints.get(baseB + c) + ") here");
        }
        FloatBuffer f = contacts.floats();
        int stride = contacts.stride();
        for (ContactField field : SHARED) {
            float mine = f.get(field.ordinal() * stride + c);
            float firsts = f.get(field.ordinal() * stride + start);
            if (Float.floatToRawIntBits(mine) != Float.floatToRawIntBits(firsts)) {
                return InputFault.contact(c, List.of(field.column()), "manifold " + number + " has "
                        + field.column().replace('_', ' ') + " " + firsts + " at its first point, contact " + start
                        + ", but " + mine + " here; a manifold's points share it");
            }
        }
        return null;
    }

    /** The fields a manifold's points share ({@link #SHARED}) as a mask of {@code ContactField} ordinals, bit {@code f} for field {@code f}. */
    public static int sharedFieldMask() {
        int mask = 0;
        for (ContactField field : SHARED) {
            mask |= 1 << field.ordinal();
        }
        return mask;
    }

    /** The number of manifolds. */
    public int count() {
        return count;
    }

    /** The most points any manifold has, 0 for no contacts. */
    public int largest() {
        return largest;
    }

    /**
     * The first contact of each manifold and, at {@code count()}, the contact count: manifold
     * {@code m} is contacts {@code [firsts()[m], firsts()[m + 1])}. Only the first {@code count() + 1}
     * entries are valid.
     */
    public int[] firsts() {
        return first;
    }
}
