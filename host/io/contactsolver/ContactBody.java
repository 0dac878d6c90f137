package io.contactsolver;

import java.util.Locale;

/**
 * The two integer body references of a contact, in storage order. A value is a body index into
 * the {@link BodyBatch}, or {@link ContactBatch#WORLD} ({@code -1}) for the static world.
 */
public enum ContactBody {
    A, B;

    /** Number of integer fields per contact. */
    public static final int COUNT = values().length;

    /** The column name used in {@code contacts.csv}. */
    public String column() {
        return name().toLowerCase(Locale.ROOT);
    }
}
