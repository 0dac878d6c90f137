package io.contactsolver.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Teams: every member runs, barriers order the phases, a member's failure reaches the caller. */
class ParallelRunnerTest {
    @Test
    void everyMemberRunsOnceOnItsOwnThreadAndTheCallerIsMemberZero() {
        try (ParallelRunner runner = new ParallelRunner(3)) {
            Thread[] seen = new Thread[3];
            runner.team((member, team) -> seen[member] = Thread.currentThread());
            assertSame(Thread.currentThread(), seen[0]);
            assertEquals(3, java.util.Arrays.stream(seen).distinct().count());
        }
    }

    @Test
    void aBarrierMakesEveryPhaseSeeTheWholeOfTheLast() {
        int members = 4;
        int phases = 500;
        try (ParallelRunner runner = new ParallelRunner(members)) {
            int[] cells = new int[members];
            int[] sums = new int[members];
            for (int run = 0; run < 3; run++) { // the helpers are reused between teams
                java.util.Arrays.fill(cells, 0);
                java.util.Arrays.fill(sums, 0);
                runner.team((member, team) -> {
                    for (int phase = 0; phase < phases; phase++) {
                        cells[member] = phase + 1;
                        team.await();
                        int sum = 0;
                        for (int cell : cells) {
                            sum += cell;
                        }
                        sums[member] += sum; // every member must see all cells of this phase
                        team.await();
                    }
                });
                int expected = members * phases * (phases + 1) / 2;
                assertArrayEquals(new int[] {expected, expected, expected, expected}, sums);
            }
        }
    }

    @Test
    void aFailingHelperEndsTheTeamAndItsExceptionReachesTheCaller() {
        try (ParallelRunner runner = new ParallelRunner(2)) {
            IllegalStateException thrown = assertThrows(IllegalStateException.class, () ->
                    runner.team((member, team) -> {
                        if (member == 1) {
                            throw new IllegalStateException("member 1 failed");
                        }
                        for (int phase = 0; phase < 10; phase++) {
                            team.await(); // would wait for ever without the failure check
                        }
                    }));
            assertEquals("member 1 failed", thrown.getMessage());
            AtomicInteger ran = new AtomicInteger();
            runner.team((member, team) -> ran.incrementAndGet());
            assertEquals(2, ran.get(), "the runner works after a failed team");
        }
    }

    @Test
    void aFailingCallerEndsTheHelpersToo() {
        try (ParallelRunner runner = new ParallelRunner(3)) {
            assertThrows(ArithmeticException.class, () -> runner.team((member, team) -> {
                if (member == 0) {
                    throw new ArithmeticException("member 0 failed");
                }
                team.await();
            }));
        }
    }

    @Test
    void oneThreadRunsTheTeamOnTheCaller() {
        try (ParallelRunner runner = new ParallelRunner(1)) {
            Thread[] seen = new Thread[1];
            runner.team((member, team) -> {
                team.await();
                seen[member] = Thread.currentThread();
            });
            assertSame(Thread.currentThread(), seen[0]);
        }
    }
}
