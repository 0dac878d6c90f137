package io.contactsolver.cpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.contactsolver.BodyBatch;
import io.contactsolver.SolveSettings;
import io.contactsolver.testing.Bits;
import org.junit.jupiter.api.Test;

/**
 * A team splits each colour's rows in contiguous shares sized to each member's speed on that colour
 * in the sweeps before. Specified here: the shares tile a colour exactly whatever the cuts, a slower
 * member's share shrinks toward its speed's and never below half an equal one, every member's copy of
 * the cuts agrees, a team run starts from what the last finished one agreed on, and a soft step that
 * learns its splits from real timings gives the bits of one thread.
 */
class ShareBalanceTest {
    private static final int COLOUR = 3;

    @Test
    void theSharesTileAColourExactlyInMemberOrder() {
        ShareBalance balance = new ShareBalance(3);
        beginAll(balance);
        // skew the cuts with a few sweeps in which member 2 is three times slower than the others
        for (int sweep = 0; sweep < 5; sweep++) {
            sweep(balance, 1_000, 1_000, 3_000);
        }
        for (int count : new int[] {0, 1, 2, 767, 768, 10_001}) {
            int first = 40;
            int[] ends = new int[4];
            for (int member = 0; member < 3; member++) {
                int from = balance.start(member, COLOUR, member, first, count);
                int to = balance.start(member, COLOUR, member + 1, first, count);
                assertTrue(from <= to, "share " + member + " of " + count + " runs backwards");
                if (member == 0) {
                    assertEquals(first, from, "the first share starts at the colour's first row");
                } else {
                    assertEquals(ends[member], from, "share " + member + " of " + count + " starts where the last ended");
                }
                ends[member + 1] = to;
            }
            assertEquals(first + count, ends[3], "the last share ends at the colour's end");
        }
    }

    @Test
    void aSlowerMemberGetsLessUntilTheMembersFinishTogether() {
        ShareBalance balance = new ShareBalance(2);
        beginAll(balance);
        assertEquals(0.5, share(balance, 0), 0.0, "equal shares to start");
        // member 0 takes twice as long for the same rows: its speed is half the other's, so its share
        // moves a quarter of the way to a third, and on toward it sweep after sweep
        sweep(balance, 2_000, 1_000);
        assertEquals(0.5 + ShareBalance.GAIN * (1.0 / 3.0 - 0.5), share(balance, 0), 1e-6);
        for (int sweep = 0; sweep < 60; sweep++) {
            double mine = share(balance, 0);
            // times in proportion to each share over each member's speed (member 0 half as fast)
            sweep(balance, Math.round(2e6 * mine), Math.round(1e6 * (1.0 - mine)));
        }
        assertEquals(1.0 / 3.0, share(balance, 0), 1e-3, "member 0 ends with a third, where both finish together");
        assertEquals(share(balance, 0), share(balance, 1, 0), 0.0, "both members' copies agree to the bit");
    }

    @Test
    void noMemberIsStarvedByOneBadSweep() {
        ShareBalance balance = new ShareBalance(2);
        beginAll(balance);
        for (int sweep = 0; sweep < 40; sweep++) {
            sweep(balance, 1_000_000, 1_000); // member 0 preempted: a thousand times slower, sweep after sweep
        }
        assertEquals(ShareBalance.MIN_OF_EQUAL * 0.5, share(balance, 0), 1e-6, "the least a member is given");
    }

    @Test
    void aColourWithoutTimesKeepsItsCuts() {
        ShareBalance balance = withMemberZeroSlowerOnce();
        double before = share(balance, 0);
        sweep(balance, 0, 1_000); // member 0 published no time (the colour was too small to share)
        assertEquals(before, share(balance, 0), 0.0);
    }

    @Test
    void eachTeamRunStartsFromWhatTheLastFinishedRunAgreedOn() {
        ShareBalance balance = withMemberZeroSlowerOnce();
        double learnt = share(balance, 0);
        balance.keep(1); // only member 0's copy is kept: both are the same
        balance.keep(0);
        beginAll(balance);
        assertEquals(learnt, share(balance, 0), 0.0, "a finished run's cuts carry over");
        // a run that throws part way: member 0 learns alone and never keeps
        balance.finished(0, COLOUR, 9_000);
        balance.finished(1, COLOUR, 1_000);
        balance.learn(0, COLOUR);
        balance.nextSweep(0);
        beginAll(balance);
        assertEquals(learnt, share(balance, 0), 0.0, "the next run starts from the agreed cuts");
        assertEquals(learnt, share(balance, 1, 0), 0.0, "on every member");
    }

    /**
     * A pyramid of base 60 (1,830 boxes, 21,480 contact points in over 5,000 manifold rows, six
     * colours) is enough rows for a team of 2 or 3, and each of its sweeps' times moves the shares:
     * the bodies after 20 steps are the bits of one thread. A share that left out one row of each
     * colour failed it.
     */
    @Test
    void aSoftStepThatLearnsItsSharesGivesTheBitsOfOneThread() {
        BodyBatch[] runs = new BodyBatch[3];
        int[] threads = {1, 2, 3};
        for (int t = 0; t < threads.length; t++) {
            runs[t] = PyramidRuns.stepped(threads[t], SolveSettings.softStep(), bodies -> { },
                    last -> assertTrue(last.colourCount() >= 2, "the scene is coloured"));
        }
        Bits.assertIdentical(runs[0], runs[1], "1 against 2 threads");
        Bits.assertIdentical(runs[0], runs[2], "1 against 3 threads");
    }

    /** A team of two that has learnt from one sweep in which member 0 took twice as long. */
    private static ShareBalance withMemberZeroSlowerOnce() {
        ShareBalance balance = new ShareBalance(2);
        beginAll(balance);
        sweep(balance, 2_000, 1_000);
        return balance;
    }

    private static void beginAll(ShareBalance balance) {
        for (int member = 0; member < balance.members(); member++) {
            balance.begin(member);
        }
    }

    /** One sweep of colour {@link #COLOUR} in which each member took {@code nanos[member]}: published, then learnt by all. */
    private static void sweep(ShareBalance balance, long... nanos) {
        for (int member = 0; member < nanos.length; member++) {
            balance.finished(member, COLOUR, nanos[member]);
        }
        for (int member = 0; member < nanos.length; member++) {
            balance.learn(member, COLOUR);
            balance.nextSweep(member);
        }
    }

    /** Member {@code member}'s share of a colour of a million rows, by member 0's copy of the cuts. */
    private static double share(ShareBalance balance, int member) {
        return share(balance, 0, member);
    }

    /** The same by member {@code copy}'s copy. */
    private static double share(ShareBalance balance, int copy, int member) {
        int count = 1_000_000;
        return (balance.start(copy, COLOUR, member + 1, 0, count) - balance.start(copy, COLOUR, member, 0, count))
                / (double) count;
    }
}
