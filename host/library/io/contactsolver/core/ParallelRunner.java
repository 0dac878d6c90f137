package io.contactsolver.core;

import java.util.Arrays;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RecursiveAction;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * Runs loops over index ranges on a fixed number of threads.
 *
 * <p>Every parallel loop in this project writes each output element from exactly one index and
 * never combines floating-point values across ranges, so the way a range is split (and with it
 * the thread count) cannot change any result.
 *
 * <p>Besides split loops it runs <em>teams</em>: every thread at once on one task, meeting at a
 * barrier between phases. The iterative solver's colours are such phases; a barrier costs well
 * under a microsecond where a fork-join of the pool costs tens, and a solve meets at one per colour
 * per iteration. A split loop runs on the team too, its members claiming a few contiguous ranges
 * each as they come, unless the team is busy (a loop started inside a team task, or from another
 * thread meanwhile): then it forks on the pool.
 *
 * <p>A {@link #crew} is a smaller team on the same threads: a solve too small to pay for every
 * thread's barriers still gets as many as pay, instead of all or one.
 */
public final class ParallelRunner implements AutoCloseable {
    /** The body of a loop over {@code [from, to)}. */
    @FunctionalInterface
    public interface RangeTask {
        void run(int from, int to);
    }

    /** Work that every member of a team runs at once; members meet at {@link Team#await()}. */
    @FunctionalInterface
    public interface TeamTask {
        void run(int member, Team team);
    }

    private final int threads;
    private final ForkJoinPool pool;
    private final Team team;
    /** The runner that owns the threads: this one, or the one this crew was taken from. */
    private final ParallelRunner owner;
    /** The owner's crews by size, made on first use; index {@link #threads} is the owner itself. */
    private final ParallelRunner[] crews;

    public ParallelRunner(int threads) {
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be at least 1, got " + threads);
        }
        this.threads = threads;
        this.pool = threads == 1 ? null : new ForkJoinPool(threads);
        this.team = new Team(threads);
        this.owner = this;
        this.crews = new ParallelRunner[threads + 1];
        this.crews[threads] = this;
    }

    /** A crew of {@code members} of {@code owner}'s team members: its first ones, on their threads. */
    private ParallelRunner(ParallelRunner owner, int members) {
        this.threads = members;
        this.pool = owner.pool;
        this.team = owner.team;
        this.owner = owner;
        this.crews = null;
    }

    /**
     * Whether the first {@code count} of {@code a} and {@code b} are equal, compared in ranges of
     * {@code 1 << 16} on the team (each range a vectorised compare); a range that differs stops the
     * ranges not yet begun.
     */
    public boolean sameInts(int[] a, int[] b, int count) {
        if (count < 2 * COMPARE_GRAIN || threads() == 1) {
            return Arrays.equals(a, 0, count, b, 0, count);
        }
        AtomicBoolean differ = new AtomicBoolean();
        forRange(count, COMPARE_GRAIN, (from, to) -> {
            if (!differ.get() && !Arrays.equals(a, from, to, b, from, to)) {
                differ.set(true);
            }
        });
        return !differ.get();
    }

    /** Pieces a member of a split loop's crew may claim, on average: few, so that each is long. */
    private static final int PIECES_PER_MEMBER = 4;

    /** Elements a thread compares at least in {@link #sameInts}. */
    private static final int COMPARE_GRAIN = 1 << 16;

    public int threads() {
        return threads;
    }

    /**
     * A runner of {@code members} threads (clamped to 1 and {@link #threads()}) that shares this
     * one's threads: its teams are this team's first members, the rest sit out. The same object
     * for the same size; closing it does nothing (close the runner it came from).
     */
    public ParallelRunner crew(int members) {
        int size = Math.max(1, Math.min(members, owner.threads));
        synchronized (owner.crews) {
            ParallelRunner crew = owner.crews[size];
            if (crew == null) {
                // one member needs no helpers: a runner of its own, which never starts a thread
                crew = size == 1 ? new ParallelRunner(1) : new ParallelRunner(owner, size);
                owner.crews[size] = crew;
            }
            return crew;
        }
    }

    /**
     * Runs {@code task} over {@code [0, count)} and returns when all of it is done: on the caller
     * alone where {@code count <= grain}, else split in contiguous ranges among at most one thread a
     * {@code grain}. Which thread runs which range, and how many ranges there are, is not fixed.
     * Exceptions thrown by the task propagate to the caller.
     */
    public void forRange(int count, int grain, RangeTask task) {
        if (count <= 0) {
            return;
        }
        if (pool == null || count <= grain) {
            task.run(0, count);
            return;
        }
        if (!team.running) {
            // On the 2-core development VM a loop forked on the pool ran no faster on two threads
            // than on one (the box pyramid's impulse output, 1.3 ms either way), and the whole
            // soft step went faster once its loops left the pool (the pyramid's frames 50-150 on
            // 2 threads, 29.2 against 32.3 ms at best, within the machine's noise): the team's
            // helpers are still spinning from its last phase, and no idle pool worker competes
            // with them for a core.
            // a crew of as many members as the loop has grains: the others are not woken for it
            int members = (int) Math.min(threads, ((long) count + grain - 1) / grain);
            // The members claim the pieces as they come, so that the caller starts at once and a
            // helper that was parked takes what is left when it wakes, instead of its fixed half:
            // on the 2-core VM a parked helper woke 0.23 ms after the step's first loop began, and
            // the box pyramid's validation took as long on 2 threads as on 1.
            int pieces = members * PIECES_PER_MEMBER;
            int size = (int) (((long) count + pieces - 1) / pieces);
            AtomicInteger claimed = new AtomicInteger();
            team.run((member, ignored) -> {
                for (int piece = claimed.getAndIncrement(); piece < pieces; piece = claimed.getAndIncrement()) {
                    int from = (int) Math.min(count, (long) piece * size);
                    int to = (int) Math.min(count, (long) from + size);
                    if (from < to) {
                        task.run(from, to);
                    }
                }
            }, members);
            return;
        }
        // a few ranges per thread balance uneven work without making ranges tiny
        int pieces = threads * 4;
        int size = Math.max(grain, (count + pieces - 1) / pieces);
        pool.invoke(new Split(task, 0, count, size));
    }

    /**
     * Runs {@code task} on every thread at once, member 0 on the caller's, and returns when all
     * members are done. A member's exception ends the others at their next barrier and propagates
     * to the caller. Not reentrant: a team task must not start another team.
     */
    public void team(TeamTask task) {
        team.run(task, threads);
    }

    @Override
    public void close() {
        if (owner != this) {
            return;
        }
        if (pool != null) {
            pool.shutdownNow();
        }
        team.close();
        ParallelRunner alone = crews[1];
        if (alone != null && alone != this) {
            alone.close();
        }
    }

    /**
     * The members of a team and their barrier. Helper threads are started on first use, spin for
     * a while after each task ({@link #SPIN_NANOS}) and then park; at a barrier members spin
     * briefly, then yield, since phases last microseconds to milliseconds.
     */
    public static final class Team {
        /** Spins before a waiting member starts yielding its core. */
        private static final int SPINS = 1 << 12;
        /**
         * How long an idle helper, or the caller waiting for the helpers, keeps spinning before it
         * parks. A step's parallel loops come between serial stretches of up to half a millisecond,
         * and waking a parked thread costs far more than the loop it is woken for (on the 2-core
         * development VM a loop of 2 x 50 us took 115-150 us once the helper had parked, 51 us
         * while it spun); a count of spins would last 45 us there (a pause of 11 ns) but half a
         * millisecond where a pause is 140 cycles, so the spin is timed.
         */
        private static final long SPIN_NANOS = 1_000_000;

        private final int members;
        /** The members that run the current task (a crew's size); the others sit it out. */
        private volatile int active;
        private final AtomicInteger arrived = new AtomicInteger();
        private volatile int phase;
        private final AtomicReference<Throwable> failure = new AtomicReference<>();
        private Thread[] helpers;
        private volatile TeamTask task;
        /**
         * A task's number (high 32 bits) and its crew's size (low 32), in one field so that a
         * helper sitting a task out never pairs one task's number with another's crew: the caller
         * waits only for the crew, and may have started the next task meanwhile.
         */
        private volatile long ticket;
        private final AtomicInteger finished = new AtomicInteger();
        private volatile boolean closed;
        private volatile Thread caller;
        /** Whether a task is running: a split loop then forks on the pool instead. */
        private volatile boolean running;

        private Team(int members) {
            this.members = members;
            this.active = members;
        }

        /** The members that run the current task, {@code >= 1}. */
        public int members() {
            return active;
        }

        /** Waits until every member has arrived here; what any member wrote before is then visible to all. */
        public void await() {
            int count = active;
            if (count == 1) {
                return;
            }
            int current = phase;
            if (arrived.incrementAndGet() == count) {
                arrived.set(0);
                phase = current + 1;
                return;
            }
            int spins = 0;
            while (phase == current) {
                if (failure.get() != null) {
                    throw new Aborted();
                }
                if (++spins < SPINS) {
                    Thread.onSpinWait();
                } else {
                    Thread.yield();
                }
            }
        }

        /** Runs {@code work} on the first {@code crew} members ({@code 2..members}, or 1 for a team of one). */
        private synchronized void run(TeamTask work, int crew) {
            if (members == 1) {
                work.run(0, this);
                return;
            }
            if (closed) {
                throw new IllegalStateException("the runner is closed");
            }
            startHelpers();
            running = true;
            try {
                failure.set(null);
                arrived.set(0);
                finished.set(0);
                task = work;
                active = crew;
                caller = Thread.currentThread();
                // after the fields above: a helper that reads the ticket sees them
                ticket = ((ticket >>> 32) + 1) << 32 | crew;
                for (int h = 0; h < crew - 1; h++) {
                    LockSupport.unpark(helpers[h]);
                }
                try {
                    work.run(0, this);
                } catch (Aborted e) {
                    // a helper failed; its exception is rethrown below
                } catch (RuntimeException | Error e) {
                    failure.compareAndSet(null, e);
                }
                long spinning = System.nanoTime();
                while (finished.get() < crew - 1) {
                    if (System.nanoTime() - spinning < SPIN_NANOS) {
                        Thread.onSpinWait();
                    } else {
                        LockSupport.parkNanos(this, 10_000);
                    }
                }
                task = null;
            } finally {
                running = false;
            }
            Throwable failed = failure.get();
            if (failed instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (failed instanceof Error error) {
                throw error;
            }
        }

        private void startHelpers() {
            if (helpers != null) {
                return;
            }
            helpers = new Thread[members - 1];
            for (int h = 0; h < helpers.length; h++) {
                int member = h + 1;
                helpers[h] = new Thread(() -> serve(member), "contact-solver-team-" + member);
                helpers[h].setDaemon(true);
                helpers[h].start();
            }
        }

        /** A helper's life: wait for a new task, run its part if it is in the crew and report, repeat. */
        private void serve(int member) {
            long seen = 0;
            long idleSince = System.nanoTime();
            while (true) {
                while (ticket == seen && !closed) {
                    if (System.nanoTime() - idleSince < SPIN_NANOS) {
                        Thread.onSpinWait();
                    } else {
                        LockSupport.park(this);
                    }
                }
                if (closed) {
                    return;
                }
                seen = ticket;
                if (member >= (int) seen) {
                    // not in this crew: the caller does not wait for it, and its idle spin is not
                    // restarted, so that a helper no crew needs parks instead of taking a core
                    continue;
                }
                try {
                    task.run(member, this);
                } catch (Aborted e) {
                    // another member failed
                } catch (RuntimeException | Error e) {
                    failure.compareAndSet(null, e);
                }
                finished.incrementAndGet();
                LockSupport.unpark(caller);
                idleSince = System.nanoTime();
            }
        }

        private void close() {
            closed = true;
            if (helpers != null) {
                for (Thread helper : helpers) {
                    LockSupport.unpark(helper);
                }
            }
        }

        /** Unwinds a member when another has failed. */
        private static final class Aborted extends RuntimeException {
            private static final long serialVersionUID = 1L;

            Aborted() {
                super(null, null, false, false);
            }
        }
    }

    private static final class Split extends RecursiveAction {
        private static final long serialVersionUID = 1L;
        private final transient RangeTask task;
        private final int from;
        private final int to;
        private final int size;

        Split(RangeTask task, int from, int to, int size) {
            this.task = task;
            this.from = from;
            this.to = to;
            this.size = size;
        }

        @Override
        protected void compute() {
            if (to - from <= size) {
                task.run(from, to);
                return;
            }
            int middle = from + ((to - from) / size / 2) * size;
            if (middle == from) {
                middle = from + size;
            }
            invokeAll(new Split(task, from, middle, size), new Split(task, middle, to, size));
        }
    }
}
