package io.contactsolver.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Teams: every member runs, barriers order the phases, a member's failure reaches the caller.
 * Split loops: every index once, on the team's threads, claimed as they come, or forked on the pool
 * inside a team.
 * Crews: a smaller team on the first members' threads, the others sitting out.
 */
class ParallelRunnerTest {
    @Test
    void everyMemberRunsOnceOnItsOwnThreadAndTheCallerIsMemberZero() {
        try (ParallelRunner runner = new ParallelRunner(3)) {
            Thread[] seen = new Thread[3];
            runner.team((member, team) -> seen[member] = Thread.currentThread());
            assertSame(Thread.currentThread(), seen[0]);
            assertEquals(3, Arrays.stream(seen).distinct().count());
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
                Arrays.fill(cells, 0);
                Arrays.fill(sums, 0);
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

    @Test
    void aCrewRunsOnTheFirstMembersOnlyAndTheRestSitOut() {
        try (ParallelRunner runner = new ParallelRunner(4)) {
            Thread[] whole = new Thread[4];
            runner.team((member, team) -> whole[member] = Thread.currentThread());
            ParallelRunner crew = runner.crew(2);
            assertEquals(2, crew.threads());
            assertSame(crew, runner.crew(2), "one crew a size");
            assertSame(runner, runner.crew(9), "a crew is at most the whole team");
            assertEquals(1, runner.crew(0).threads(), "a crew has at least one member");
            for (int run = 0; run < 200; run++) { // crews of every size in turn on the same helpers
                int size = 1 + run % 4;
                Thread[] seen = new Thread[4];
                int[] sizes = new int[4];
                AtomicInteger members = new AtomicInteger();
                runner.crew(size).team((member, team) -> {
                    seen[member] = Thread.currentThread();
                    sizes[member] = team.members();
                    members.incrementAndGet();
                    team.await(); // waits for the crew alone: a member sitting out would hang it
                });
                assertEquals(size, members.get(), "crew of " + size);
                for (int m = 0; m < size; m++) {
                    assertSame(whole[m], seen[m], "crew of " + size + ", member " + m + " on its team thread");
                    assertEquals(size, sizes[m], "crew of " + size + ", members() seen by member " + m);
                }
            }
        }
    }

    @Test
    void aCrewSplitsALoopOverItsOwnMembers() {
        try (ParallelRunner runner = new ParallelRunner(4)) {
            Thread[] members = new Thread[4];
            runner.team((member, team) -> members[member] = Thread.currentThread());
            Set<Thread> threads = ConcurrentHashMap.newKeySet();
            int[] visited = visits(runner.crew(2), 10_000, 100, threads);
            int[] once = new int[10_000];
            Arrays.fill(once, 1);
            assertArrayEquals(once, visited);
            assertTrue(Set.of(members[0], members[1]).containsAll(threads), "the crew's two threads only");
            runner.crew(3).close(); // a crew's close leaves the runner's threads alone
            Set<Thread> all = ConcurrentHashMap.newKeySet();
            assertArrayEquals(once, visits(runner, 10_000, 100, all));
            assertTrue(Arrays.asList(members).containsAll(all), "the team's threads");
        }
    }

    /** Counts the visits of every index of {@code [0, count)} by {@code runner.forRange}, and the threads that ran them. */
    private static int[] visits(ParallelRunner runner, int count, int grain, Set<Thread> threads) {
        int[] visited = new int[count];
        runner.forRange(count, grain, (from, to) -> {
            threads.add(Thread.currentThread());
            for (int i = from; i < to; i++) {
                visited[i]++;
            }
        });
        return visited;
    }

    @Test
    void aSplitLoopVisitsEveryIndexOnceOnTheTeamsThreads() {
        try (ParallelRunner runner = new ParallelRunner(3)) {
            Thread[] members = new Thread[3];
            runner.team((member, team) -> members[member] = Thread.currentThread());
            for (int count : new int[] {1, 99, 100, 101, 250, 100_003}) {
                Set<Thread> threads = ConcurrentHashMap.newKeySet();
                int[] visited = visits(runner, count, 100, threads);
                int[] once = new int[count];
                Arrays.fill(once, 1);
                assertArrayEquals(once, visited, count + " indices");
                // at most one member a grain, and only the team's threads
                assertTrue(threads.size() <= Math.min(3, (count + 99) / 100), count + " indices");
                if (count <= 100) {
                    assertEquals(Set.of(Thread.currentThread()), threads, "a loop of one grain runs on the caller");
                }
                assertTrue(Arrays.asList(members).containsAll(threads), count + " indices");
            }
        }
    }

    /**
     * The members of a split loop claim its ranges as they come: a helper held up in its first
     * range (as one that was parked is, until it wakes) leaves the rest to the caller, instead of
     * a fixed half that the caller would wait for.
     */
    @Test
    void aHelperThatIsLateLeavesTheRestOfTheLoopToTheCaller() {
        try (ParallelRunner runner = new ParallelRunner(2)) {
            Thread caller = Thread.currentThread();
            AtomicInteger byCaller = new AtomicInteger();
            AtomicInteger byHelper = new AtomicInteger();
            AtomicInteger heldByHelper = new AtomicInteger();
            CountDownLatch callerDone = new CountDownLatch(1);
            int count = 10_000;
            runner.forRange(count, 1_000, (from, to) -> {
                if (Thread.currentThread() == caller) {
                    // whichever of the two adds last sees the whole loop claimed
                    if (byCaller.addAndGet(to - from) + heldByHelper.get() == count) {
                        callerDone.countDown();
                    }
                    return;
                }
                try {
                    // held until the caller has done every other range (10 s at most)
                    if (heldByHelper.addAndGet(to - from) + byCaller.get() != count) {
                        callerDone.await(10, TimeUnit.SECONDS);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                byHelper.addAndGet(to - from);
            });
            assertEquals(count, byCaller.get() + byHelper.get());
            assertTrue(byHelper.get() <= count / 4, "the helper ran " + byHelper.get() + " of " + count);
        }
    }

    @Test
    void aSplitLoopInsideATeamTaskForksOnThePoolInstead() {
        try (ParallelRunner runner = new ParallelRunner(2)) {
            int[][] visited = new int[2][];
            runner.team((member, team) -> visited[member] = visits(runner, 50_000, 1_000,
                    ConcurrentHashMap.newKeySet()));
            int[] once = new int[50_000];
            Arrays.fill(once, 1);
            assertArrayEquals(once, visited[0], "member 0's loop");
            assertArrayEquals(once, visited[1], "member 1's loop");
        }
    }

    @Test
    void aFailingRangeReachesTheCallerAndTheRunnerGoesOn() {
        try (ParallelRunner runner = new ParallelRunner(2)) {
            IllegalArgumentException thrown = assertThrows(IllegalArgumentException.class, () ->
                    runner.forRange(10_000, 100, (from, to) -> {
                        if (from > 0) {
                            throw new IllegalArgumentException("range from " + from);
                        }
                    }));
            // every range but the first fails: one of theirs reaches the caller
            int from = Integer.parseInt(thrown.getMessage().substring("range from ".length()));
            assertTrue(from > 0 && from < 10_000, thrown.getMessage());
            int[] once = new int[10_000];
            Arrays.fill(once, 1);
            assertArrayEquals(once, visits(runner, 10_000, 100, ConcurrentHashMap.newKeySet()));
        }
    }

    /** The team's compare finds a difference wherever it lies, and none in equal arrays, on any number of threads. */
    @Test
    void sameIntsFindsADifferenceWhereverItLies() {
        int count = 300_000;
        int[] a = new int[count];
        for (int i = 0; i < count; i++) {
            a[i] = i * 31;
        }
        for (int threads : new int[] {1, 3}) {
            try (ParallelRunner runner = new ParallelRunner(threads)) {
                assertTrue(runner.sameInts(a, a.clone(), count), threads + " threads");
                for (int at : new int[] {0, 65_535, 65_536, 150_001, count - 1}) {
                    int[] b = a.clone();
                    b[at]++;
                    assertFalse(runner.sameInts(a, b, count), threads + " threads, at " + at);
                    assertTrue(runner.sameInts(a, b, Math.min(at, count)),
                            "before it, " + at);
                }
            }
        }
    }
}
