package io.contactsolver;

import io.contactsolver.InvalidInputException.Subject;
import io.contactsolver.layout.DeltaField;
import io.contactsolver.layout.ImpulseField;

/**
 * A solve of valid input whose result is not finite: float overflowed inside the solve (velocities
 * near {@code 3e38}, a tiny effective mass with large velocities). Thrown after the backend
 * returns, from a scan of its outputs on the host, so every backend fails the same way: it names
 * the lowest contact index with a non-finite impulse field, else the lowest body index with a
 * non-finite velocity change. The result must not be used; {@code step} leaves the bodies as they
 * were.
 */
public final class NonFiniteResultException extends ArithmeticException {
    private static final long serialVersionUID = 1L;

    private final Subject subject;
    private final int index;
    private final String field;
    private final float value;

    public NonFiniteResultException(Subject subject, int index, String field, float value) {
        super((subject == Subject.BODY ? "body " : "contact ") + index + ": " + problem(subject, field, value));
        this.subject = subject;
        this.index = index;
        this.field = field;
        this.value = value;
    }

    private static String problem(Subject subject, String field, float value) {
        return "the solve overflowed: " + (subject == Subject.BODY ? "velocity change '" : "impulse '") + field
                + "' is " + value + " (velocities or inverse masses too large for float)";
    }

    /** A contact with a non-finite impulse field, or a body with a non-finite velocity change. */
    public Subject subject() {
        return subject;
    }

    /** Index of the contact or body in its batch. */
    public int index() {
        return index;
    }

    /** The {@link ImpulseField} or {@link DeltaField} column name at fault. */
    public String field() {
        return field;
    }

    public float value() {
        return value;
    }

    /** What is wrong, without the location. */
    public String problem() {
        return problem(subject, field, value);
    }
}
