package io.contactsolver.core;

/**
 * The figures of a manifold by which {@link Recycler#report} shares out what it solved among its
 * contacts: scratch, {@link #COUNT} floats a manifold, on the host and on the device alike.
 */
public enum ReportTally {
    /** The sum of the manifold's solved points' normal impulses. */
    TOTAL,
    /** Each contact's share of what the manifold's points without a contact carry. */
    SPREAD,
    /** 1 where the manifold's contacts are its solved points in order, else 0. */
    SAME;

    /** The floats of a tally. */
    public static final int COUNT = values().length;
}
