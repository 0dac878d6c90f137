package io.contactsolver.core;

import io.contactsolver.layout.ContactBody;
import io.contactsolver.layout.ContactField;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.util.Arrays;
import java.util.List;

/**
 * The contact manifolds of a batch: maximal runs of consecutive contacts with the same manifold
 * number {@code >= 0}, and every other contact alone (docs/physics.md, "Soft step"). Manifold
 * {@code m} is contacts {@code [first(m), first(m + 1))}; manifolds are numbered in contact order.
 *
 * <p>Checked while grouping (the same rule for every solver, so a batch valid for one is valid for
 * all): a manifold has at most {@link #MAX_POINTS} points, and its points share their two bodies and
 * their normal, restitution, friction, rolling and torsional resistance, bit for bit: a manifold is
 * one body pair touching on one face, and its friction is solved once for all its points. Linear in
 * the contacts, the checks on the solver's threads (a solve's within {@code InputValidator.validate},
 * then {@link #buildChecked}); the arrays only grow.
 */
public final class ManifoldGrouping {
    /** The most points of one manifold, as in Box3D: four points span any contact face. */
    public static final int MAX_POINTS = 4;
    /** The manifold number of a contact alone. */
    public static final int NONE = -1;

    /** The fields a manifold's points must share. */
    private static final ContactField[] SHARED = {ContactField.NX, ContactField.NY, ContactField.NZ,
        ContactField.RESTITUTION, ContactField.FRICTION, ContactField.ROLLING_RESISTANCE, ContactField.TORSION};

    private static final int SHARED_MASK = sharedFieldMask();

    private int[] first = new int[1];
    private int count;
    private int largest;
    private int[] pairA = new int[0];
    private int[] pairB = new int[0];
    /** The manifold count the pairs were last laid for, -1 for never. */
    private int pairedCount = -1;
    private boolean pairsLaid;
    /**
     * The links block the pairs were last laid from (its {@link FieldBlock#id}), its two body
     * columns' stamps then, and the firsts' version: while all stand, the pairs are those links'.
     */
    private long pairsLinks = -1;
    private long pairsStampA;
    private long pairsStampB;
    private long pairsFirsts = -1;
    private long firstsVersion;
    private long pairsVersion;
    /** The numbers last noted ({@link #noteNumbers}), their count and version; the array noted, until a build uses the note. */
    private int[] noted = new int[0];
    private int notedCount = -1;
    /** Whether the numbers noted last were all {@link #NONE}, known so and not copied. */
    private boolean notedAllAlone;
    private long numbersVersion;
    private int[] notedArray;
    /** The numbers' version the firsts were last laid from, -1 where not from noted numbers. */
    private long laidFrom = -1;

    /**
     * Groups the first {@code contactCount} contacts by {@code numbers}, checking each point against
     * the first point of its run on {@code runner}'s threads; the fault of the lowest contact is the
     * one thrown, whatever the thread count.
     *
     * @throws InputFault naming the first contact (lowest index) that breaks a manifold's rules
     */
    public void build(int[] numbers, FieldBlock contacts, FieldBlock links, int contactCount, ParallelRunner runner) {
        boolean noted = takeNote(numbers, contactCount);
        FirstFault lowest = new FirstFault();
        runner.forRange(contactCount, 1 << 13, (from, to) -> {
            Screen screen = new Screen();
            for (int start = from; start < to; start += SLICE) {
                int n = Math.min(SLICE, to - start);
                screen.run(numbers, contacts, links, start, n);
                for (int i = 0; i < n; i++) {
                    InputFault fault = screen.suspect[i] ? check(numbers, contacts, links, start + i) : null;
                    if (fault != null) {
                        lowest.offer(fault);
                        return; // later contacts of this range are higher
                    }
                }
            }
        });
        lowest.throwIfAny();
        layUnlessLaid(numbers, contactCount, noted, runner);
    }

    /**
     * As {@link #build}, where {@code InputValidator.validate} has checked the manifolds' rules
     * with the rest of each contact: lays the manifolds only.
     */
    public void buildChecked(int[] numbers, int contactCount, ParallelRunner runner) {
        boolean noted = takeNote(numbers, contactCount);
        layUnlessLaid(numbers, contactCount, noted, runner);
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
        boolean noted = takeNote(numbers, contactCount);
        FirstFault lowest = new FirstFault();
        runner.forRange(suspects.length, 1 << 12, (from, to) -> {
            for (int k = from; k < to; k++) {
                InputFault fault = check(numbers, contacts, links, suspects[k]);
                if (fault != null) {
                    lowest.offer(fault);
                }
            }
        });
        lowest.throwIfAny();
        layUnlessLaid(numbers, contactCount, noted, runner);
    }

    /**
     * Notes the batch's manifold numbers before it is built: {@link #numbersVersion()} moves where
     * they differ from the numbers noted last (compared on {@code runner}; kept as a copy only when
     * they differ), and the next {@link #build} of these numbers lays no firsts when the last build
     * laid them from the same ones. A device that holds the numbers at this version need not
     * receive them again.
     *
     * @param mayBeNumbered false where the caller knows every number is {@link #NONE} (no contact
     *     was given one): then they are not read
     * @return the numbers' version
     */
    public long noteNumbers(int[] numbers, int contactCount, boolean mayBeNumbered, ParallelRunner runner) {
        boolean same = contactCount == notedCount && (mayBeNumbered
                ? !notedAllAlone && runner.sameInts(numbers, noted, contactCount) : notedAllAlone);
        if (!same) {
            if (mayBeNumbered) {
                if (noted.length < contactCount) {
                    noted = new int[Math.max(contactCount, noted.length + (noted.length >> 1))];
                }
                System.arraycopy(numbers, 0, noted, 0, contactCount);
            }
            notedAllAlone = !mayBeNumbered;
            notedCount = contactCount;
            numbersVersion++;
        }
        notedArray = numbers;
        return numbersVersion;
    }

    /** Drops a note no build used (the batch failed before it was built): the next build lays its firsts. */
    public void forgetNote() {
        notedArray = null;
    }

    /** Moves whenever {@link #noteNumbers} finds other numbers than it noted last. */
    public long numbersVersion() {
        return numbersVersion;
    }

    /**
     * Whether {@code numbers} are the ones just noted ({@link #noteNumbers}, nothing built since);
     * the note is used up either way, so a build that fails leaves none behind. A build's pairs are
     * laid anew ({@link #layPairs}).
     */
    private boolean takeNote(int[] numbers, int contactCount) {
        pairsLaid = false; // a new build: its links may join other bodies
        boolean current = notedArray == numbers && notedCount == contactCount;
        notedArray = null;
        return current;
    }

    /** Lays the firsts, unless the numbers were just noted and the firsts were laid from them at that version. */
    private void layUnlessLaid(int[] numbers, int contactCount, boolean noted, ParallelRunner runner) {
        if (noted && laidFrom == numbersVersion) {
            return;
        }
        lay(numbers, contactCount, runner);
        laidFrom = noted ? numbersVersion : -1;
    }

    /**
     * The manifolds of valid {@code numbers}: each one's first contact, their count and the largest,
     * in chunks of {@link PrefixSums#CHUNK} contacts on {@code runner} (each chunk counts its runs'
     * starts, then lays them from its place), the same whatever the thread count. The firsts are
     * written over the last build's where they lie, and {@link #firstsVersion()} moves only where
     * one of them, or their count, differs.
     */
    private void lay(int[] numbers, int contactCount, ParallelRunner runner) {
        boolean grown = first.length < contactCount + 1;
        if (grown) {
            first = new int[Math.max(contactCount + 1, first.length + (first.length >> 1))];
        }
        int chunks = PrefixSums.chunks(contactCount);
        int[] starts = new int[chunks + 1];
        PrefixSums.forEachChunk(contactCount, runner, (k, from, to) -> {
            int here = 0;
            for (int c = from; c < to; c++) {
                if (startsRun(numbers, c)) {
                    here++;
                }
            }
            starts[k + 1] = here;
        });
        for (int k = 0; k < chunks; k++) {
            starts[k + 1] += starts[k];
        }
        int manifolds = starts[chunks];
        boolean[] differs = new boolean[Math.max(1, chunks)];
        // per chunk: its longest run that starts and ends in it, the contacts before its first start
        // (the end of the last chunk's run) and from its last start on (a run the next chunk ends)
        int[] most = new int[Math.max(1, chunks)];
        int[] lead = new int[Math.max(1, chunks)];
        int[] tail = new int[Math.max(1, chunks)];
        int[] firsts = first;
        PrefixSums.forEachChunk(contactCount, runner, (k, from, to) -> {
            int m = starts[k];
            boolean changed = false;
            int longest = 0;
            int last = -1;
            for (int c = from; c < to; c++) {
                if (startsRun(numbers, c)) {
                    changed |= firsts[m] != c;
                    firsts[m++] = c;
                    if (last >= 0) {
                        longest = Math.max(longest, c - last);
                    } else {
                        lead[k] = c - from;
                    }
                    last = c;
                }
            }
            differs[k] = changed;
            most[k] = longest;
            if (last < 0) {
                lead[k] = to - from; // inside one run: a run is at most MAX_POINTS long, so only a short last chunk
            }
            tail[k] = last < 0 ? 0 : to - last;
        });
        boolean changed = grown || manifolds != count || first[manifolds] != contactCount;
        first[manifolds] = contactCount;
        int longest = 0;
        for (int k = 0; k < chunks; k++) {
            changed |= differs[k];
            longest = Math.max(longest, Math.max(most[k], tail[k] + (k + 1 < chunks ? lead[k + 1] : 0)));
        }
        count = manifolds;
        largest = longest;
        if (changed) {
            firstsVersion++;
        }
    }

    /**
     * Each manifold's bodies (those of its first contact, which all its points share) into
     * {@link #pairA()} and {@link #pairB()}, once a build, on {@code runner}: written over the last
     * ones, and {@link #pairsVersion()} moves only where one of them, or their count, differs. The
     * soft step's colouring and recycling compare versions, not the pairs, to find the last step's
     * manifolds again.
     */
    public void layPairs(FieldBlock links, ParallelRunner runner) {
        if (pairsLaid) {
            return;
        }
        int manifolds = count;
        long stampA = links.stamp(ContactBody.A.ordinal());
        long stampB = links.stamp(ContactBody.B.ordinal());
        if (links.id() == pairsLinks && stampA == pairsStampA && stampB == pairsStampB && firstsVersion == pairsFirsts
                && manifolds == pairedCount) {
            pairsLaid = true; // links unwritten since, the same manifolds: the same pairs, unread
            return;
        }
        boolean grown = pairA.length < manifolds;
        if (grown) {
            int room = Math.max(manifolds, pairA.length + (pairA.length >> 1));
            pairA = new int[room];
            pairB = new int[room];
        }
        IntBuffer ints = links.ints();
        int baseA = ContactBody.A.ordinal() * links.stride();
        int baseB = ContactBody.B.ordinal() * links.stride();
        int[] a = pairA;
        int[] b = pairB;
        int[] firsts = first;
        int chunks = PrefixSums.chunks(manifolds);
        boolean[] differs = new boolean[Math.max(1, chunks)];
        // every contact its own manifold (particles): the pairs are the links' columns, compared and
        // copied whole
        boolean eachAlone = firsts[manifolds] == manifolds;
        PrefixSums.forEachChunk(manifolds, runner, (k, from, to) -> {
            if (eachAlone) {
                int n = to - from;
                boolean changed = ints.slice(baseA + from, n).mismatch(IntBuffer.wrap(a, from, n)) >= 0
                        || ints.slice(baseB + from, n).mismatch(IntBuffer.wrap(b, from, n)) >= 0;
                if (changed) {
                    ints.get(baseA + from, a, from, n);
                    ints.get(baseB + from, b, from, n);
                }
                differs[k] = changed;
                return;
            }
            boolean changed = false;
            for (int m = from; m < to; m++) {
                int bodyA = ints.get(baseA + firsts[m]);
                int bodyB = ints.get(baseB + firsts[m]);
                changed |= a[m] != bodyA || b[m] != bodyB;
                a[m] = bodyA;
                b[m] = bodyB;
            }
            differs[k] = changed;
        });
        boolean changed = grown || manifolds != pairedCount;
        for (boolean d : differs) {
            changed |= d;
        }
        pairedCount = manifolds;
        if (changed) {
            pairsVersion++;
        }
        pairsLinks = links.id();
        pairsStampA = stampA;
        pairsStampB = stampB;
        pairsFirsts = firstsVersion;
        pairsLaid = true;
    }

    /** Body a of each manifold, after {@link #layPairs}; the first {@link #count()} are valid. */
    public int[] pairA() {
        requirePairs();
        return pairA;
    }

    /** Body b of each manifold, after {@link #layPairs}. */
    public int[] pairB() {
        requirePairs();
        return pairB;
    }

    /** Throws unless {@link #layPairs} ran for this build: only then do the pairs and their version stand. */
    void requirePairs() {
        if (!pairsLaid) {
            throw new IllegalStateException("the manifolds' pairs are not laid for this build (layPairs first)");
        }
    }

    /**
     * Moves whenever a build's firsts differ from the last build's (or their count): two builds
     * of one grouping at the same version have the same firsts.
     */
    public long firstsVersion() {
        return firstsVersion;
    }

    /** Moves whenever {@link #layPairs} finds other pairs than the last time (or another count). */
    public long pairsVersion() {
        return pairsVersion;
    }

    /** Contacts the screen takes at once. */
    private static final int SLICE = 1024;

    /**
     * The fast screen of a batch's manifold rules on its own ({@link #build}); a solve screens them
     * with the rest of each contact ({@code InputValidator.validate}) through the same
     * {@link #joins}, {@link #differences} and {@link #markSuspects}, as each column passes.
     */
    private static final class Screen {
        final boolean[] suspect = new boolean[SLICE];
        final int[] join = new int[SLICE + BEFORE];
        final int[] differ = new int[SLICE];
        final int[] bits = new int[SLICE + 1];

        void run(int[] numbers, FieldBlock contacts, FieldBlock links, int start, int n) {
            joins(numbers, start, n, join);
            Arrays.fill(differ, 0, n, 0);
            for (ContactBody side : ContactBody.values()) {
                differences(links.ints(), side.ordinal() * links.stride(), start, n, bits, differ);
            }
            for (ContactField field : SHARED) {
                differences(contacts.ints(), field.ordinal() * contacts.stride(), start, n, bits, differ);
            }
            markSuspects(join, differ, n, suspect);
        }
    }

    /** Contacts before a slice that its screen reads: a fifth point is known by the four joins before it. */
    static final int BEFORE = MAX_POINTS - 1;

    /**
     * The screen's first part, for contacts {@code [start - BEFORE, start + n)}: 1 at
     * {@code join[BEFORE + i]} where contact {@code start + i} continues the run of the contact before
     * it, else 0 (a run's start, and indices before the batch).
     */
    static void joins(int[] numbers, int start, int n, int[] join) {
        for (int i = -BEFORE; i < n; i++) {
            int c = start + i;
            join[BEFORE + i] = c > 0 && numbers[c] != NONE && numbers[c] == numbers[c - 1] ? 1 : 0;
        }
    }

    /**
     * Ors into {@code differ[i]} the bits in which contact {@code start + i}'s value of one field
     * (read as ints from {@code ints} at {@code base}, a float field by its bits) differs from the
     * contact before it's; {@code bits} is scratch of {@code n + 1}. Straight loops over int
     * arrays, which the JIT vectorises.
     */
    static void differences(IntBuffer ints, int base, int start, int n, int[] bits, int[] differ) {
        if (start > 0) {
            ints.get(base + start - 1, bits, 0, n + 1);
        } else {
            bits[0] = 0; // contact 0 starts a run: what it is compared with is not used
            ints.get(base, bits, 1, n);
        }
        for (int i = 0; i < n; i++) {
            differ[i] |= bits[i + 1] ^ bits[i];
        }
    }

    /**
     * Marks in {@code suspect} each contact of the slice that continues a run and differs from the
     * contact before it in a shared field or a body, or is the fifth point of a run or later; the
     * full check ({@link #check}) decides. Every contact that breaks a rule and is the lowest of its
     * run to break it is marked (the points before it equal the first, so it differs from the one
     * before it, or has four joins before it), so the lowest fault of the batch is found.
     * The device's screen ({@code screen_contacts}, one work-item a contact) compares each point
     * with the first of its run instead: it marks every point that breaks a rule.
     */
    static void markSuspects(int[] join, int[] differ, int n, boolean[] suspect) {
        for (int i = 0; i < n; i++) {
            int j = join[BEFORE + i];
            int fifth = j & join[BEFORE + i - 1] & join[BEFORE + i - 2] & join[BEFORE + i - 3];
            suspect[i] = j != 0 && (differ[i] | fifth) != 0;
        }
    }

    /** Whether {@code field} is one a manifold's points share. */
    static boolean isShared(ContactField field) {
        return (SHARED_MASK >> field.ordinal() & 1) != 0;
    }

    /** Whether contact {@code c} starts a manifold: it has no number, or another number than the contact before. */
    private static boolean startsRun(int[] numbers, int c) {
        return c == 0 || numbers[c] == NONE || numbers[c] != numbers[c - 1];
    }

    /**
     * What contact {@code c} breaks of its manifold's rules, against the first point of its run, or
     * null: at most {@link #MAX_POINTS} points, the same bodies, the same shared fields bit for bit.
     */
    static InputFault check(int[] numbers, FieldBlock contacts, FieldBlock links, int c) {
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
