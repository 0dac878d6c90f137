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
        /** A body of the {@link BodyBatch}; {@link #fields()} are {@link BodyField} column names. */
        BODY,
        /**
         * A contact of the {@link ContactBatch}; {@link #fields()} are {@link ContactField} or
         * {@link ContactBody} column names.
         */
        CONTACT;

        String label() {
            return this == BODY ? "body" : "contact";
        }
    }

    /** Whether a body or a contact is at fault. */
    private final Subject subject;
    /** The index of that body or contact in its batch. */
    private final int index;
    /** The column names of the fields at fault, unmodifiable. */
    private final List<String> fields;
    /** What is wrong, without the location. */
    private final String problem;

    /**
     * An exception whose message is {@code "<subject> <index>, field '<name>': <problem>"}, such as
     * {@code body 3, field 'inv_mass': inverse mass -1.0 is negative}.
     *
     * @param subject whether a body or a contact is at fault
     * @param index the index of the body or contact in its batch
     * @param fields the column names of the fields at fault, most often one; copied
     * @param problem what is wrong, without the location
     * @throws NullPointerException if {@code subject}, {@code fields} or one of its names is null
     */
    public InvalidInputException(Subject subject, int index, List<String> fields, String problem) {
        super(subject.label() + " " + index + ", " + describeFields(fields) + ": " + problem);
        this.subject = subject;
        this.index = index;
        this.fields = List.copyOf(fields);
        this.problem = problem;
    }

    /** The API's form of a fault found by the host checks. */
    static InvalidInputException of(InputFault fault) {
        return new InvalidInputException(fault.isBody() ? Subject.BODY : Subject.CONTACT, fault.index(),
                fault.fields(), fault.problem());
    }

    /**
     * What kind of record is at fault.
     *
     * @return {@link Subject#BODY} or {@link Subject#CONTACT}
     */
    public Subject subject() {
        return subject;
    }

    /**
     * Index of the body or contact in its batch.
     *
     * @return an index from 0 to the batch's size - 1
     */
    public int index() {
        return index;
    }

    /**
     * The column names of the fields at fault, most often one.
     *
     * @return an unmodifiable list, such as {@code ["qw", "qx", "qy", "qz"]} for an orientation
     *     that is not a unit quaternion
     */
    public List<String> fields() {
        return fields;
    }

    /**
     * What is wrong, without the location.
     *
     * @return the message's text after the subject, index and fields
     */
    public String problem() {
        return problem;
    }

    /**
     * {@code field 'x'} or {@code fields 'qw', 'qx'} as used in messages.
     *
     * @param fields column names
     * @return the names quoted and joined, after {@code field} or {@code fields}
     */
    public static String describeFields(List<String> fields) {
        return describe("field", fields);
    }

    /**
     * {@code NOUN 'a'} or {@code NOUNs 'a', 'b'}: names quoted and joined, the noun made plural as needed.
     *
     * @param noun the singular noun, made plural by an {@code s} when there is not exactly one name
     * @param names the names to quote, in order
     * @return the noun, a space and the quoted names separated by {@code ", "}
     */
    public static String describe(String noun, List<String> names) {
        StringBuilder text = new StringBuilder(noun).append(names.size() == 1 ? " " : "s ");
        for (int i = 0; i < names.size(); i++) {
            text.append(i == 0 ? "" : ", ").append('\'').append(names.get(i)).append('\'');
        }
        return text.toString();
    }
}
