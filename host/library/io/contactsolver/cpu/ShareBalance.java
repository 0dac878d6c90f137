package io.contactsolver.cpu;

import io.contactsolver.core.ContactColoring;

/**
 * How a team's members split each colour's rows: contiguous shares in member order, each sized to its
 * member's speed on that colour in the sweeps before rather than equal. With equal shares the first
 * member at a barrier of the large pyramid's 2-thread sweeps waited 0.78-2.6 ms a frame in all, most
 * of it 10-100 µs at a time, while the members' whole sweeps took as long as each other: one colour's
 * share runs slower on one core, the next colour's on the other (docs/performance.md, "Threads: where
 * a team starts to pay"). How a colour is shared cannot change a bit of any result, as a colour's
 * rows share no body; it decides only which thread solves which row.
 *
 * <p>No lock: every member keeps its own copy of the cuts and works out the next ones from the same
 * published times in the same double arithmetic, so the copies agree to the bit. A member publishes
 * its busy time on a colour before the colour's barrier ({@link #finished}) and every member reads
 * all of them after it ({@link #learn}), in two sweeps' slots, as a member may publish the next
 * sweep's while another still reads this one's. Each team run starts every copy from the cuts the
 * last run that finished agreed on ({@link #begin}, {@link #keep}), so a run that threw part way
 * cannot leave the copies apart; the cuts so carry over from solve to solve while the team's size
 * stays.
 */
final class ShareBalance {
    /** The share of a member's estimate that one sweep's times may move it by: a sweep is noisy. */
    static final double GAIN = 0.25;
    /** The least and most of an equal share a member may be given, so that one bad sweep cannot starve a member. */
    static final double MIN_OF_EQUAL = 0.5;
    static final double MAX_OF_EQUAL = 1.5;
    /** Colours with cuts of their own: as many as a colouring may have. */
    static final int COLOURS = ContactColoring.MAX_COLOURS;

    private final int members;
    /** Per member: its copy of every colour's cuts, {@code members + 1} a colour from 0 to 1. */
    private final double[][] cuts;
    /** Two sweeps' slots of every colour's member busy nanoseconds. */
    private final long[] busy;
    /** Per member: the sweeps it has learnt from, whose parity picks the slots. */
    private final int[] learnt;
    /** Per member: room for the shares while a colour's cuts are rewritten. */
    private final double[][] shares;
    /** The cuts the last team run that finished ended with, each run's start. */
    private final double[] agreed;

    ShareBalance(int members) {
        this.members = members;
        this.cuts = new double[members][COLOURS * (members + 1)];
        this.busy = new long[2 * COLOURS * members];
        this.learnt = new int[members];
        this.shares = new double[members][members];
        this.agreed = new double[COLOURS * (members + 1)];
        for (int k = 0; k < COLOURS; k++) {
            for (int m = 0; m <= members; m++) {
                agreed[k * (members + 1) + m] = (double) m / members;
            }
        }
    }

    /** The team size this balance splits for. */
    int members() {
        return members;
    }

    /** At the start of a team run, on each member: its copy of the cuts is the agreed one. */
    void begin(int member) {
        System.arraycopy(agreed, 0, cuts[member], 0, agreed.length);
        learnt[member] = 0;
    }

    /** At the end of a team run that finished, on member 0: its cuts are the next run's start. */
    void keep(int member) {
        if (member == 0) {
            System.arraycopy(cuts[0], 0, agreed, 0, agreed.length);
        }
    }

    /**
     * The first row of share {@code cut} of colour {@code colour}'s {@code count} rows from
     * {@code first}, by {@code member}'s copy of the cuts ({@code cut = member} starts its own share,
     * {@code member + 1} ends it).
     */
    int start(int member, int colour, int cut, int first, int count) {
        if (cut >= members) {
            return first + count;
        }
        return first + (int) (count * cuts[member][colour * (members + 1) + cut]);
    }

    /** Publishes {@code member}'s busy time on {@code colour} in this sweep, before the colour's barrier. */
    void finished(int member, int colour, long nanos) {
        busy[((learnt[member] & 1) * COLOURS + colour) * members + member] = nanos;
    }

    /**
     * After {@code colour}'s barrier: {@code member}'s copy of that colour's cuts moved toward
     * shares in proportion to each member's speed on it in this sweep (its share over its busy
     * time). A colour on which some member published no time leaves its cuts as they are.
     */
    void learn(int member, int colour) {
        int slot = ((learnt[member] & 1) * COLOURS + colour) * members;
        double[] copy = cuts[member];
        int at = colour * (members + 1);
        double speeds = 0.0;
        for (int m = 0; m < members; m++) {
            long nanos = busy[slot + m];
            if (nanos <= 0) {
                return;
            }
            speeds += (copy[at + m + 1] - copy[at + m]) / nanos;
        }
        double equal = 1.0 / members;
        double total = 0.0;
        double[] share = shares[member];
        for (int m = 0; m < members; m++) {
            double now = copy[at + m + 1] - copy[at + m];
            double target = now / busy[slot + m] / speeds;
            double moved = now + GAIN * (target - now);
            share[m] = Math.min(MAX_OF_EQUAL * equal, Math.max(MIN_OF_EQUAL * equal, moved));
            total += share[m];
        }
        double sum = 0.0;
        for (int m = 0; m < members; m++) {
            copy[at + m] = sum / total;
            sum += share[m];
        }
        copy[at + members] = 1.0;
    }

    /** After a sweep's last barrier, on each member: the next sweep publishes into the other slots. */
    void nextSweep(int member) {
        learnt[member]++;
    }
}
