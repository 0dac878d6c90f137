package io.contactsolver.core;

import io.contactsolver.layout.ContactBody;
import java.nio.IntBuffer;
import java.util.Arrays;
import java.util.function.Consumer;

/**
 * A partition of the contacts into colours such that no two contacts of a colour move the same
 * body, so a colour can be solved in parallel without conflicts. Static bodies and the world do
 * not count as conflicts: contacts never move them.
 *
 * <p>Greedy and linear in the number of contacts: each contact, in input order, takes the lowest
 * colour that neither of its movable bodies has used yet (a 64-bit mask per body). A contact that
 * finds no free colour within the budget goes to the overflow set, which is solved serially after
 * the colours, so no contact is ever lost. The rows list contacts colour by colour, in increasing
 * contact order within each, then the overflow; both backends solve in exactly this order.
 *
 * <p>The colouring itself is sequential: {@code O(contacts + bodies)} with a few memory accesses
 * per contact, its cost is reported by the {@code bench} command; laying out the rows, as costly
 * again, runs on a team ({@link #lay}). Where a step's rows join the same bodies in the same order
 * as the last colouring's, with the same movable flags and budget (contacts that persist, in the
 * order a collision pass keeps), the greedy pass would give the same colours: the last colouring
 * is kept and not laid out again, for the price of one read of the rows' bodies, or for the soft
 * step's manifolds of none (their grouping's pairs are at the version last coloured).
 *
 * <p>The soft step's manifolds may instead take their colours in a hashed order
 * ({@link #colour(ManifoldGrouping, MovableBodies, int, Consumer)}): the same greedy pass, visiting
 * the rows in increasing {@link #priority}. Its colours are those of parallel rounds in which a row
 * takes its colour once every row of lower priority on its movable bodies has one (the lowest colour
 * none of them took), which a device can find in a few tens of rounds; a backend fills them in
 * ({@link HashedColouring}), the host's pass or the device's rounds, to the same colours.
 */
public final class ContactColoring {
    /** The most colours a 64-bit mask per body can track. */
    public static final int MAX_COLOURS = Long.SIZE;
    /** The two odd multipliers of {@link #priority}'s mix (MurmurHash3's finaliser), shared with the kernels. */
    public static final int PRIORITY_MIX_A = 0x85ebca6b;
    public static final int PRIORITY_MIX_B = 0xc2b2ae35;
    /** The radix of the hashed order's sort: two passes of 16 bits. */
    private static final int RADIX_BITS = 16;

    private int[] order = new int[0];
    private int[] rowOf = new int[0];
    private int[] slots = new int[0];
    private int[] colourOf = new int[0];
    private long[] used = new long[0];
    private int[] colourStart = new int[MAX_COLOURS + 1];
    private int colourCount;
    private int rowCount;
    /**
     * What the last colouring read, for {@link #colour} to keep it when it would come out the same:
     * each row's bodies (where it read them from links), the movable flags (object and version) and
     * the budget; whether it was laid out, and whether the last call kept it.
     */
    private int[] pairA = new int[0];
    private int[] pairB = new int[0];
    /** The grouping whose pairs the last colouring read, at their version; null where it read links. */
    private ManifoldGrouping colouredGrouping;
    private long colouredPairsVersion;
    private MovableBodies colouredMovable;
    private long colouredMovableVersion;
    private int colouredBudget;
    /** Whether the last colouring took the rows in the hashed order. */
    private boolean colouredHashed;
    /** The hashed order's sort: the rows by the low half of their priority, then by the whole, and the counts. */
    private int[] byLowHalf = new int[0];
    private int[] byPriority = new int[0];
    private int[] radixCounts = new int[0];
    private boolean laid;
    private boolean kept;
    /** Counts the colourings made (not kept): equal versions mean equal rows, order and slots. */
    private long version;

    /**
     * Colours the contacts and lays out the rows ({@link #colour}, then {@link #lay}).
     *
     * @param budget the most colours to use, 1 to {@link #MAX_COLOURS}
     */
    public void build(FieldBlock links, int contactCount, MovableBodies movable, int budget, ParallelRunner runner) {
        colour(links, null, contactCount, movable, budget);
        lay(runner);
    }

    /**
     * Colours groups of contacts that join the same two bodies: group {@code g} is coloured by the
     * bodies of its contact {@code firstOf[g]}, and the rows, order and slots are then the groups'.
     * The colours only: {@link #lay} then lays out the rows, which may run on a team where this
     * greedy pass cannot. The bodies are read once, compared with the last colouring's as they are
     * read: the same, with the same flags and budget, and the last colouring is kept.
     *
     * @param firstOf a contact of each group, or null for groups of one contact each, in order
     * @param budget the most colours to use, 1 to {@link #MAX_COLOURS}
     */
    public void colour(FieldBlock links, int[] firstOf, int contactCount, MovableBodies movable, int budget) {
        requireBudget(budget);
        if (pairA.length < contactCount) {
            pairA = new int[Math.max(contactCount, pairA.length + (pairA.length >> 1))];
            pairB = new int[pairA.length];
            laid = false; // the last colouring's bodies are gone
        }
        IntBuffer ints = links.ints();
        int baseA = ContactBody.A.ordinal() * links.stride();
        int baseB = ContactBody.B.ordinal() * links.stride();
        boolean same = true;
        for (int c = 0; c < contactCount; c++) {
            int at = firstOf == null ? c : firstOf[c];
            int a = ints.get(baseA + at);
            int b = ints.get(baseB + at);
            same &= a == pairA[c] && b == pairB[c];
            pairA[c] = a;
            pairB[c] = b;
        }
        if (same && colouredGrouping == null && stands(contactCount, movable, budget, false)) {
            keep();
            return;
        }
        greedy(pairA, pairB, contactCount, movable, budget);
        colouredGrouping = null;
    }

    /**
     * Colours the soft step's manifolds by their pairs ({@link ManifoldGrouping#layPairs}, laid
     * first). Where the grouping's pairs are at the version this colouring last read (the
     * collision pass found the same pairs again), the last colouring is kept without a read.
     *
     * @param budget the most colours to use, 1 to {@link #MAX_COLOURS}
     */
    public void colour(ManifoldGrouping manifolds, MovableBodies movable, int budget) {
        colour(manifolds, movable, budget, null);
    }

    /**
     * Colours the soft step's manifolds by their pairs, in contact order where {@code hashed} is
     * null, else in the hashed order, whose colours {@code hashed} fills in (a backend: the host's
     * pass, {@link HashedColouring#colourOnHost}, or a device's rounds). Where the grouping's pairs
     * are at the version this colouring last read, in the same order, the last colouring is kept.
     *
     * @param budget the most colours to use, 1 to {@link #MAX_COLOURS}
     * @throws IllegalStateException if {@code hashed} leaves a colour outside {@code [0, budget]}
     */
    public void colour(ManifoldGrouping manifolds, MovableBodies movable, int budget,
            Consumer<HashedColouring> hashed) {
        requireBudget(budget);
        manifolds.requirePairs(); // their version is only what it says once laid for this build
        if (wouldKeep(manifolds, movable, budget, hashed != null)) {
            keep();
            return;
        }
        if (hashed == null) {
            greedy(manifolds.pairA(), manifolds.pairB(), manifolds.count(), movable, budget);
        } else {
            colourHashed(manifolds.pairA(), manifolds.pairB(), manifolds.count(), movable, budget, hashed);
        }
        colouredGrouping = manifolds;
        colouredPairsVersion = manifolds.pairsVersion();
    }

    /**
     * Whether {@link #colour(ManifoldGrouping, MovableBodies, int)} would keep the last colouring
     * (a check only): then it costs nothing, and the caller need not run it beside other work.
     */
    public boolean wouldKeep(ManifoldGrouping manifolds, MovableBodies movable, int budget) {
        return wouldKeep(manifolds, movable, budget, false);
    }

    /** As {@link #wouldKeep(ManifoldGrouping, MovableBodies, int)}, for the contact or the hashed order. */
    public boolean wouldKeep(ManifoldGrouping manifolds, MovableBodies movable, int budget, boolean hashed) {
        return colouredGrouping == manifolds && colouredPairsVersion == manifolds.pairsVersion()
                && stands(manifolds.count(), movable, budget, hashed);
    }

    /**
     * Row {@code row}'s place in the hashed order, read unsigned: a bijection of the 32-bit ints
     * (shifts folded in by exclusive or, and odd multipliers), so no two rows tie, and the order
     * scatters rows that are neighbours in memory, and so in space.
     */
    public static int priority(int row) {
        int h = row;
        h ^= h >>> 16;
        h *= PRIORITY_MIX_A;
        h ^= h >>> 13;
        h *= PRIORITY_MIX_B;
        h ^= h >>> 16;
        return h;
    }

    /**
     * A hashed-order colouring for a backend to fill in: each of the {@link #count} rows joining
     * bodies {@link #pairA} and {@link #pairB} gets its colour in {@link #colours}, from 0 to
     * {@code budget - 1}, or {@code budget} for the overflow. Read-only arrays but {@code colours}.
     */
    public final class HashedColouring {
        private final int[] a;
        private final int[] b;
        private final int count;
        private final MovableBodies movable;
        private final int budget;

        private HashedColouring(int[] a, int[] b, int count, MovableBodies movable, int budget) {
            this.a = a;
            this.b = b;
            this.count = count;
            this.movable = movable;
            this.budget = budget;
        }

        public int[] pairA() {
            return a;
        }

        public int[] pairB() {
            return b;
        }

        public int count() {
            return count;
        }

        public MovableBodies movable() {
            return movable;
        }

        public int budget() {
            return budget;
        }

        /** Where the colours go, row by row; {@link #count} entries. */
        public int[] colours() {
            return colourOf;
        }

        /** The host's pass: the rows sorted by priority, then coloured greedily in that order. */
        public void colourOnHost() {
            greedyPass(a, b, sortByPriority(count), count, movable, budget);
        }
    }

    /** The hashed order's colouring: {@code fill} fills the colours in, then they are counted and checked. */
    private void colourHashed(int[] a, int[] b, int count, MovableBodies movable, int budget,
            Consumer<HashedColouring> fill) {
        prepareColouring(count, movable.bodyCount());
        Arrays.fill(colourOf, 0, count, -1); // a row the filler leaves is refused, not taken from the last colouring
        fill.accept(new HashedColouring(a, b, count, movable, budget));
        int colours = 0;
        for (int r = 0; r < count; r++) {
            int colour = colourOf[r];
            if (colour < 0 || colour > budget) {
                throw new IllegalStateException("hashed colouring: row " + r + " has colour " + colour + ", outside [0, "
                        + budget + "]");
            }
            if (colour < budget) {
                colours = Math.max(colours, colour + 1);
            }
        }
        finishColouring(a, b, count, colours, movable, budget);
        colouredHashed = true;
    }

    /**
     * Rows {@code [0, count)} in increasing unsigned {@link #priority}: a least-significant-digit
     * radix sort, the low 16 bits then the high, each pass stable, the priority worked out again
     * rather than stored.
     */
    private int[] sortByPriority(int count) {
        if (byPriority.length < count) {
            byPriority = new int[count];
            byLowHalf = new int[count];
        }
        if (radixCounts.length == 0) {
            radixCounts = new int[1 << RADIX_BITS];
        }
        int mask = (1 << RADIX_BITS) - 1;
        int[] counts = radixCounts;
        Arrays.fill(counts, 0);
        for (int r = 0; r < count; r++) {
            counts[priority(r) & mask]++;
        }
        toStarts(counts);
        for (int r = 0; r < count; r++) {
            byLowHalf[counts[priority(r) & mask]++] = r;
        }
        Arrays.fill(counts, 0);
        for (int i = 0; i < count; i++) {
            counts[priority(byLowHalf[i]) >>> RADIX_BITS]++;
        }
        toStarts(counts);
        for (int i = 0; i < count; i++) {
            int r = byLowHalf[i];
            byPriority[counts[priority(r) >>> RADIX_BITS]++] = r;
        }
        return byPriority;
    }

    /** Counts to exclusive starts, in place. */
    private static void toStarts(int[] counts) {
        int running = 0;
        for (int k = 0; k < counts.length; k++) {
            int here = counts[k];
            counts[k] = running;
            running += here;
        }
    }

    private static void requireBudget(int budget) {
        if (budget < 1 || budget > MAX_COLOURS) {
            throw new IllegalArgumentException("colour budget must be in [1, " + MAX_COLOURS + "], got " + budget);
        }
    }

    /**
     * Whether the last colouring stands for rows of the same bodies (the caller has found them
     * so): laid out, as many rows, the same movable flags and budget. The greedy pass would give
     * the same colours.
     */
    private boolean stands(int count, MovableBodies movable, int budget, boolean hashed) {
        return laid && count == rowCount && budget == colouredBudget && movable == colouredMovable
                && movable.version() == colouredMovableVersion && hashed == colouredHashed;
    }

    /** Keeps the last colouring: {@link #lay} leaves its rows as they are. */
    private void keep() {
        kept = true;
        pending = null;
    }

    /** Sizes the arrays for {@code count} rows and clears the bodies' masks: a colouring begins. */
    private void prepareColouring(int count, int bodyCount) {
        kept = false;
        laid = false;
        if (used.length < bodyCount) {
            used = new long[bodyCount];
        } else {
            Arrays.fill(used, 0, bodyCount, 0L);
        }
        if (order.length < count) {
            order = new int[count];
            rowOf = new int[count];
            colourOf = new int[count];
            slots = new int[Math.multiplyExact(count, ContactBody.COUNT)];
        }
    }

    /** The greedy pass over {@code count} rows joining bodies {@code a[r]} and {@code b[r]}, in index order. */
    private void greedy(int[] a, int[] b, int count, MovableBodies movable, int budget) {
        prepareColouring(count, movable.bodyCount());
        int colours = greedyPass(a, b, null, count, movable, budget);
        finishColouring(a, b, count, colours, movable, budget);
        colouredHashed = false;
    }

    /**
     * The greedy pass itself, into {@link #colourOf} over cleared masks, visiting the rows in index
     * order or in the order {@code visit} lists them; returns the colours it used.
     */
    private int greedyPass(int[] a, int[] b, int[] visit, int count, MovableBodies movable, int budget) {
        long allowed = budget == MAX_COLOURS ? -1L : (1L << budget) - 1;
        int colours = 0;
        for (int i = 0; i < count; i++) {
            int c = visit == null ? i : visit[i];
            int bodyA = a[c];
            int bodyB = b[c];
            boolean moveA = bodyA >= 0 && movable.isMovable(bodyA);
            boolean moveB = bodyB >= 0 && movable.isMovable(bodyB);
            long taken = (moveA ? used[bodyA] : 0L) | (moveB ? used[bodyB] : 0L);
            long free = ~taken & allowed;
            int colour;
            if (free == 0L) {
                colour = budget; // overflow
            } else {
                colour = Long.numberOfTrailingZeros(free);
                long bit = 1L << colour;
                if (moveA) {
                    used[bodyA] |= bit;
                }
                if (moveB) {
                    used[bodyB] |= bit;
                }
                colours = Math.max(colours, colour + 1);
            }
            colourOf[c] = colour;
        }
        return colours;
    }

    /** What a colouring of {@code count} rows in {@code colours} colours leaves for {@link #lay} and {@link #stands}. */
    private void finishColouring(int[] a, int[] b, int count, int colours, MovableBodies movable, int budget) {
        colourCount = colours;
        rowCount = count;
        colouredMovable = movable;
        colouredMovableVersion = movable.version();
        colouredBudget = budget;
        version++;
        pending = new Pending(a, b, movable, budget);
    }

    /** Counts the colourings made; a call that kept the last one leaves it as it was. */
    public long version() {
        return version;
    }

    /** What {@link #colour} leaves for {@link #lay}: each row's bodies, the flags and the budget. */
    private record Pending(int[] a, int[] b, MovableBodies movable, int budget) {
    }

    private Pending pending;

    /**
     * Lays out the rows of the last {@link #colour}: a counting sort by colour, stable in contact
     * order, the overflow last, and each row's slots. In chunks of {@link PrefixSums#CHUNK}
     * contacts on {@code runner}: each chunk counts its contacts of every colour, the counts are
     * summed colour by colour and chunk by chunk in order, and each chunk then places its contacts
     * from its own cursors; the rows are the serial sort's, whatever the thread count.
     */
    public void lay(ParallelRunner runner) {
        if (kept) {
            return; // the last colouring's rows stand
        }
        Pending in = pending;
        if (in == null) {
            throw new IllegalStateException("lay: no colouring to lay out (colour first)");
        }
        pending = null;
        int count = rowCount;
        int colours = colourCount;
        int budget = in.budget();
        int kinds = colours + 1; // the colours, then the overflow
        int chunks = PrefixSums.chunks(count);
        int[] cursors = new int[Math.max(1, chunks) * kinds];
        int[] colourOfs = colourOf;
        PrefixSums.forEachChunk(count, runner, (k, from, to) -> {
            for (int c = from; c < to; c++) {
                int colour = colourOfs[c];
                cursors[k * kinds + (colour == budget ? colours : colour)]++;
            }
        });
        Arrays.fill(colourStart, 0);
        int running = 0;
        for (int kind = 0; kind < kinds; kind++) {
            colourStart[kind] = running;
            for (int k = 0; k < chunks; k++) {
                int here = cursors[k * kinds + kind];
                cursors[k * kinds + kind] = running;
                running += here;
            }
        }
        int[] pairsA = in.a();
        int[] pairsB = in.b();
        MovableBodies movable = in.movable();
        int worldSlot = movable.bodyCount();
        int[] orders = order;
        int[] rows = rowOf;
        int[] slotsOf = slots;
        PrefixSums.forEachChunk(count, runner, (k, from, to) -> {
            for (int c = from; c < to; c++) {
                int colour = colourOfs[c];
                int row = cursors[k * kinds + (colour == budget ? colours : colour)]++;
                orders[row] = c;
                rows[c] = row;
                int a = pairsA[c];
                int b = pairsB[c];
                slotsOf[ContactBody.A.ordinal() * count + row] = a >= 0 && movable.isMovable(a) ? a : worldSlot;
                slotsOf[ContactBody.B.ordinal() * count + row] = b >= 0 && movable.isMovable(b) ? b : worldSlot;
            }
        });
        laid = true;
    }

    /** Number of colours in use (the overflow not counted). */
    public int colourCount() {
        return colourCount;
    }

    /** First row of colour {@code k}; {@code colourStart(colourCount())} is the first overflow row. */
    public int colourStart(int k) {
        return colourStart[k];
    }

    /** Rows of the overflow set, solved serially after the colours. */
    public int overflowCount() {
        return rowCount - colourStart[colourCount];
    }

    public int rowCount() {
        return rowCount;
    }

    /** The contact index of each row; only the first {@link #rowCount()} are valid. */
    public int[] order() {
        return order;
    }

    /**
     * The row of each contact, the inverse of {@link #order()}: lets a pass that writes per contact
     * (the normal impulses of a frictionless batch) go in contact order, each thread a contiguous block, reading each contact's row
     * where it is.
     */
    public int[] rowOf() {
        return rowOf;
    }

    /**
     * Each row's solver state slot per side, structure of arrays ({@code side * rowCount() + row}):
     * the body index for a movable body, else {@code bodyCount}, the shared zero slot of the world
     * and immovable bodies, which is never written.
     */
    public int[] slots() {
        return slots;
    }

    /** The colour boundaries, {@code colourCount() + 1} valid entries. */
    public int[] colourStarts() {
        return colourStart;
    }
}
