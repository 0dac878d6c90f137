package io.contactsolver;

import java.util.Optional;

/**
 * The last result of a sequence of solves or steps, which the next one starts warm from: hand the
 * same history to every {@code solve} or {@code step} of a simulation and each call matches its
 * contacts, by id, to the impulses they ended the call before with, and returns its own result.
 *
 * <pre>{@code
 * SolveHistory history = new SolveHistory();
 * for (int frame = 0; frame < frames; frame++) {
 *     // ... fill contacts, with ids that last as long as a contact does (ContactIds)
 *     SolveResult result = solver.step(bodies, contacts, settings, gravity, dt, history);
 * }
 * }</pre>
 *
 * <p>It holds two results and swaps them, so a simulation allocates nothing once they have grown
 * to the scene. The result a call returns stays valid until the second call after it (it is the
 * warm start of the next call, whose result goes into the other one). A call that throws leaves the
 * history as it was, so the next call starts from the last result that completed. Not thread-safe,
 * like a solver; one history belongs to one sequence of steps.
 */
public final class SolveHistory {
    private final SolveResult first = new SolveResult();
    private final SolveResult second = new SolveResult();
    /** One of the two results, or null before the first call and after {@link #clear()}. */
    private SolveResult latest;

    /** An empty history: the next solve or step starts cold (every accumulated impulse from 0). */
    public SolveHistory() {
    }

    /**
     * The result of the last call that completed with this history.
     *
     * @return that result, or empty before the first call and after {@link #clear()}
     */
    public Optional<SolveResult> latest() {
        return Optional.ofNullable(latest);
    }

    /**
     * Forgets the last result, so the next call starts cold: after a teleport, a scene reload, or
     * anything else that breaks the continuity of the contacts' ids.
     *
     * @return this
     */
    public SolveHistory clear() {
        latest = null;
        return this;
    }

    /** The warm start of the next call: the latest result, or null. */
    SolveResult warmStart() {
        return latest;
    }

    /** Where the next call writes: the result that is not the warm start. */
    SolveResult next() {
        return latest == first ? second : first;
    }

    /** Records that the next call completed into {@link #next()}, and returns that result. */
    SolveResult advance() {
        latest = next();
        return latest;
    }
}
