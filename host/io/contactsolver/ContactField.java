package io.contactsolver;

import java.util.Locale;

/**
 * The per-contact float fields, in storage order (structure of arrays, like {@link BodyField}).
 *
 * <p>The two body indices of a contact are integers and live in their own block, see
 * {@link ContactBody}. The normal points from body {@code a} to body {@code b}.
 */
public enum ContactField {
    PX, PY, PZ,
    NX, NY, NZ,
    RESTITUTION;

    /** Number of float fields per contact. */
    public static final int COUNT = values().length;

    /** The column name used in {@code contacts.csv}. */
    public String column() {
        return name().toLowerCase(Locale.ROOT);
    }
}
