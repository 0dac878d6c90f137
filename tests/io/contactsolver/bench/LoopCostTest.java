package io.contactsolver.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** A loop-cost row is made of named parts, and a pair of solves in the wrong order is refused. */
class LoopCostTest {
    private static final LoopCost.Subject PILE = new LoopCost.Subject("pile 1000", "none", "cpu", 2, 1000);

    @Test
    void anIterationIsTheDifferenceOfTheTwoSolvesOverTheirExtraIterations() {
        LoopCost cost = new LoopCost(PILE, new LoopCost.TimedSolve(10, 0.030), new LoopCost.TimedSolve(30, 0.070),
                Double.NaN);
        // (70 - 30) ms over (30 - 10) iterations: 2 ms an iteration; over 1000 contacts 2 us = 2000 ns a
        // contact, 4000 ns of the 2 threads' time; the set-up is what 10 iterations leave of 30 ms: 10 ms
        assertEquals(0.002, cost.secondsPerIteration(), 1e-12);
        assertEquals(2000.0, cost.nanosPerContactIteration(), 1e-6);
        assertEquals(4000.0, cost.nanosPerContactIterationPerThread(), 1e-6);
        assertEquals(0.010, cost.setupSeconds(), 1e-12);
        assertEquals(10, cost.iterations());
        assertEquals(30, cost.longIterations());
    }

    @Test
    void theLongSolveMustRunMoreIterationsThanTheShortOne() {
        IllegalArgumentException swapped = assertThrows(IllegalArgumentException.class, () -> new LoopCost(PILE,
                new LoopCost.TimedSolve(30, 0.070), new LoopCost.TimedSolve(10, 0.030), Double.NaN));
        assertTrue(swapped.getMessage().contains("30 and 10"), swapped.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new LoopCost(PILE, new LoopCost.TimedSolve(10, 0.03),
                new LoopCost.TimedSolve(10, 0.03), Double.NaN));
    }
}
