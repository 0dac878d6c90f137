/*
 * The soft step's manifolds coloured in the hashed order (ContactColoring, "HashedColouring"), in
 * rounds. A row joins bodies pairA[r] and pairB[r] (a negative index is the world); only a movable
 * body (movable[j] != 0) is shared. A row takes its colour once its priority is the lowest of the
 * rows still uncoloured on each of its movable bodies: every row before it in the hashed order on
 * those bodies then has its colour, so the row takes the colour ContactColoring.greedyPass gives it
 * visiting the rows in that order, the lowest colour neither body's mask holds, or the budget (the
 * overflow) where none is free within it. No two rows of a round share a movable body, so a round
 * writes each body's mask at most once, without atomics; the colours are the same whatever the
 * order in which work-items run.
 *
 * Layout: colours[r], -1 until row r is coloured; three arrays of body j's lowest priority among
 * its uncoloured rows, unsigned, all ones where it has none, taking turns: a round reads one, its
 * waiting rows claim the next, and it clears the third for the round after; masks[j], the colours
 * body j's rows took, bit k for colour k; done[0], the rows coloured so far.
 */

/* ContactColoring.priority: a bijection of the 32-bit ints, read unsigned. */
uint hashed_priority(uint row) {
    uint h = row;
    h ^= h >> 16;
    h *= PRIORITY_MIX_A;
    h ^= h >> 13;
    h *= PRIORITY_MIX_B;
    h ^= h >> 16;
    return h;
}

bool colour_movable(__global const int* movable, int body) {
    return body >= 0 && movable[body] != 0;
}

/* A waiting row's claim: each of its movable bodies' lowest priority lowered to its own, by atomic minimum. */
void colour_claim_bodies(__global int* lowest, int bodyA, bool moveA, int bodyB, bool moveB, uint priority) {
    if (moveA) {
        atomic_min((volatile __global uint*) (lowest + bodyA), priority);
    }
    if (moveB) {
        atomic_min((volatile __global uint*) (lowest + bodyB), priority);
    }
}

/* The first round's claims: every row lowers its movable bodies' lowest priority to its own. */
__kernel void colour_claim(__global const int* pairA, __global const int* pairB, __global const int* movable,
        const int count, __global int* lowest) {
    int r = get_global_id(0);
    if (r >= count) {
        return;
    }
    int bodyA = pairA[r];
    int bodyB = pairB[r];
    colour_claim_bodies(lowest, bodyA, colour_movable(movable, bodyA), bodyB, colour_movable(movable, bodyB),
            hashed_priority((uint) r));
}

/*
 * One round, over max(count, bodyCount) work-items: every uncoloured row whose priority is the lowest
 * on each of its movable bodies (lowest, this round's claims) takes its colour; every other one
 * claims its bodies for the next round (next, cleared by the round before); and body j's entry of
 * the round after next (cleared) is cleared. The three arrays take turns.
 */
__kernel void colour_round(__global const int* pairA, __global const int* pairB, __global const int* movable,
        const int count, const int budget, const int bodyCount, __global const int* lowest, __global int* next,
        __global int* cleared, __global ulong* masks, __global int* colours, __global int* done) {
    int r = get_global_id(0);
    if (r < bodyCount) {
        cleared[r] = -1; /* all ones: above every priority */
    }
    if (r >= count || colours[r] >= 0) {
        return;
    }
    uint priority = hashed_priority((uint) r);
    int bodyA = pairA[r];
    int bodyB = pairB[r];
    bool moveA = colour_movable(movable, bodyA);
    bool moveB = colour_movable(movable, bodyB);
    if ((moveA && (uint) lowest[bodyA] != priority) || (moveB && (uint) lowest[bodyB] != priority)) {
        /* a row before it on one of its bodies is still uncoloured: it waits, and claims for the next round */
        colour_claim_bodies(next, bodyA, moveA, bodyB, moveB, priority);
        return;
    }
    ulong allowed = budget == COLOUR_MAX ? ~0ul : (1ul << budget) - 1ul;
    ulong taken = (moveA ? masks[bodyA] : 0ul) | (moveB ? masks[bodyB] : 0ul);
    ulong free = ~taken & allowed;
    int colour;
    if (free == 0ul) {
        colour = budget; /* overflow */
    } else {
        colour = COLOUR_MAX - 1 - (int) clz(free & (~free + 1ul)); /* the lowest free colour */
        ulong bit = 1ul << colour;
        if (moveA) {
            masks[bodyA] |= bit;
        }
        if (moveB) {
            masks[bodyB] |= bit;
        }
    }
    colours[r] = colour;
    atomic_inc(done);
}
