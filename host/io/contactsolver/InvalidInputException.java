package io.contactsolver;

import io.contactsolver.core.InputFault;
import io.contactsolver.layout.BodyField;
import io.contactsolver.layout.ContactBody;
import io.contactsolver.layout.ContactField;
import java.util.List;

/**
 * Input that a solve refuses, naming the body or contact index and the field at fault. Thrown
 * before anything is computed or written. {@link #fields()} are {@link BodyField},
 * {@link ContactField} or {@link ContactBody} column names, so a file reader can point at the
 * line and column the value came from.
 */
public final class InvalidInputException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    /** What kind of record is at fault. */
    public enum Subject {
        BODY, CONTACT;

        String label() {
            return this == BODY ? "body" : "contact";
        }
    }

    private final Subject subject;
    private final int index;
    private final List<String> fields;
    private final String problem;

    public InvalidInputException(Subject subject, int index, List<String> fields, String problem) {
        super(subject.label() + " " + index + ", " + describeFields(fields) + ": " + problem);
        this.subject = subject;
        this.index = index;
        this.fields = List.copyOf(fields);
        this.problem = problem;
    }

    /** The API's form of a fault found by the host checks. */
    static InvalidInputException of(InputFault fault) {
        return new InvalidInputException(fault.kind() == InputFault.Kind.BODY ? Subject.BODY : Subject.CONTACT,
                fault.index(), fault.fields(), fault.problem());
    }

    public Subject subject() {
        return subject;
    }

    /** Index of the body or contact in its batch. */
    public int index() {
        return index;
    }

    /** The column names of the fields at fault, most often one. */
    public List<String> fields() {
        return fields;
    }

    /** What is wrong, without the location. */
    public String problem() {
        return problem;
    }

    /** {@code field 'x'} or {@code fields 'qw', 'qx'} as used in messages. */
    public static String describeFields(List<String> fields) {
        return describe("field", fields);
    }

    /** {@code NOUN 'a'} or {@code NOUNs 'a', 'b'}: names quoted and joined, the noun made plural as needed. */
    public static String describe(String noun, List<String> names) {
        StringBuilder text = new StringBuilder(noun).append(names.size() == 1 ? " " : "s ");
        for (int i = 0; i < names.size(); i++) {
            text.append(i == 0 ? "" : ", ").append('\'').append(names.get(i)).append('\'');
        }
        return text.toString();
    }
}
