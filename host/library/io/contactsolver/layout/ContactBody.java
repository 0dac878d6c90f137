package io.contactsolver.layout;

import java.util.Locale;

/**
 * The two integer body references of a contact, in storage order. A value is a body index into
 * the {@code BodyBatch}, or {@code ContactBatch.WORLD} ({@code -1}) for the static world.
 */
public enum ContactBody {
    /** Body {@code a}, the body the normal points away from. */
    A,
    /** Body {@code b}, the body the normal points towards. */
    B;

    /** Number of integer fields per contact. */
    public static final int COUNT = values().length;

    /**
     * The column name used in {@code contacts.csv} (docs/formats.md, "contacts.csv").
     *
     * @return {@code "a"} or {@code "b"}
     */
    public String column() {
        return name().toLowerCase(Locale.ROOT);
    }
}
