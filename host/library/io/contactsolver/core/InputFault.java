package io.contactsolver.core;

import java.util.List;

/**
 * An input fault found by the host checks ({@link InputValidator}, {@link WarmStart}): which body
 * or contact, which fields (their column names), and what is wrong. The API turns it into its
 * public {@code InvalidInputException}, so the checks need nothing from the API package. Whether a
 * body or a contact is at fault is the API's {@code InvalidInputException.Subject}, the one
 * definition of it; a fault only says which of the two it is ({@link #body(int, List, String)},
 * {@link #contact(int, List, String)}), as the core cannot name the API's types.
 */
public final class InputFault extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final boolean body;
    private final int index;
    private final transient List<String> fields;
    private final String problem;

    private InputFault(boolean body, int index, List<String> fields, String problem) {
        super((body ? "body " : "contact ") + index + " " + fields + ": " + problem, null, false, false);
        this.body = body;
        this.index = index;
        this.fields = List.copyOf(fields);
        this.problem = problem;
    }

    /** A fault of body {@code index}: {@code fields} are {@code BodyField} column names. */
    public static InputFault body(int index, List<String> fields, String problem) {
        return new InputFault(true, index, fields, problem);
    }

    /**
     * A fault of contact {@code index}: {@code fields} are {@code ContactField} or
     * {@code ContactBody} column names, or {@code id}.
     */
    public static InputFault contact(int index, List<String> fields, String problem) {
        return new InputFault(false, index, fields, problem);
    }

    /** Whether a body is at fault; else a contact is. */
    public boolean isBody() {
        return body;
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
