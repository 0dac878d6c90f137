package io.contactsolver.core;

/**
 * How an iterative solve ended.
 *
 * @param iterations iterations run (the last one is the first whose residual met the tolerance, or
 *     the limit)
 * @param residual the largest change of any contact's accumulated impulse in the last iteration
 */
public record IterationOutcome(int iterations, float residual) {
}
