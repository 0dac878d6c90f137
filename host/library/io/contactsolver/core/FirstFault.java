package io.contactsolver.core;

/**
 * Keeps the fault with the lowest index among those offered by parallel ranges, so that the fault
 * thrown is the same whatever the thread count ({@link InputValidator}, {@link ManifoldGrouping}).
 */
final class FirstFault {
    private InputFault first;

    synchronized void offer(InputFault fault) {
        if (first == null || fault.index() < first.index()) {
            first = fault;
        }
    }

    synchronized void throwIfAny() {
        if (first != null) {
            throw first;
        }
    }
}
