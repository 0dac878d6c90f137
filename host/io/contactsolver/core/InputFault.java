package io.contactsolver.core;

import java.util.List;

/**
 * An input fault found by the host checks ({@link InputValidator}, {@link WarmStart}): which body
 * or contact, which fields (their column names), and what is wrong. The API turns it into its
 * public {@code InvalidInputException}, so the checks need nothing from the API package.
 */
public final class InputFault extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** Whether a body or a contact is at fault. */
    public enum Kind {
        BODY, CONTACT
    }

    private final Kind kind;
    private final int index;
    private final transient List<String> fields;
    private final String problem;

    public InputFault(Kind kind, int index, List<String> fields, String problem) {
        super(kind.name().toLowerCase(java.util.Locale.ROOT) + " " + index + " " + fields + ": " + problem, null,
                false, false);
        this.kind = kind;
        this.index = index;
        this.fields = List.copyOf(fields);
        this.problem = problem;
    }

    public Kind kind() {
        return kind;
    }

    public int index() {
        return index;
    }

    public List<String> fields() {
        return fields;
    }

    public String problem() {
        return problem;
    }
}
