package io.contactsolver;

/**
 * The order in which the soft step's manifolds take their colours
 * ({@link SoftStepSettings#withColouringOrder}). Each manifold takes the lowest colour that no
 * manifold before it on either of its movable bodies took; the order says what "before" means.
 * Both backends colour alike, so a step solves in the same order, to the same bits, on either.
 */
public enum ColouringOrder {
    /**
     * The manifolds' own order (the default): what a collision pass's spatial order makes of it
     * (few colours, each body's rows close in memory). A pass in this order is sequential, made on
     * the host whenever the manifolds' pairs change.
     */
    CONTACT,
    /**
     * The order of a fixed 32-bit hash of each manifold's index. It gives the same colours as
     * parallel rounds in which a manifold takes its colour once every manifold before it on its
     * bodies has one; with the order scattered, a few tens of rounds colour a million manifolds. A
     * GPU colours them so, on the device, where the pairs change; the CPU makes the same colours in
     * one pass on the host. It colours differently from {@link #CONTACT}, so the bits of a step
     * differ between the two orders, not between the backends.
     */
    HASHED
}
