package io.contactsolver;

import io.contactsolver.InvalidInputException.Subject;
import io.contactsolver.layout.DeltaField;
import io.contactsolver.layout.ImpulseField;

/**
 * A solve of valid input whose result is not finite: float overflowed inside the solve (velocities
 * near {@code 3e38}, a tiny effective mass with large velocities). Checked on the host, so every
 * backend and solver fails the same way. Before any backend runs: the lowest contact whose normal
 * row cannot be formed in float, its inverse effective mass ({@link #EFFECTIVE_MASS}) or its normal
 * velocity ({@link #NORMAL_VELOCITY}) not finite (lever arms near {@code 1e19}, a huge finite
 * inverse inertia); {@code dest} is then untouched. After the backend returns, from a scan of its
 * outputs: the lowest contact index with a non-finite impulse field, else the lowest body index
 * with a non-finite velocity change. A {@code step} also checks what it integrated: a body whose
 * position, orientation or velocity came out non-finite (its
 * {@link io.contactsolver.layout.BodyField} column), or whose orientation is no longer a unit
 * quaternion ({@link #ORIENTATION_NORM}). The result must not be used; {@code step} leaves the
 * bodies as they were.
 */
public final class NonFiniteResultException extends ArithmeticException {
    private static final long serialVersionUID = 1L;

    /** The {@link #field()} of a body whose orientation is no longer a unit quaternion after a step. */
    public static final String ORIENTATION_NORM = "|q|";
    /**
     * The {@link #field()} of a contact whose inverse effective mass
     * {@code K = 1/m_a + 1/m_b + (r_a x n) . I_a^-1 (r_a x n) + (r_b x n) . I_b^-1 (r_b x n)} is not finite.
     */
    public static final String EFFECTIVE_MASS = "K";
    /** The {@link #field()} of a contact whose normal velocity {@code v_n = (v_pb - v_pa) . n} is not finite. */
    public static final String NORMAL_VELOCITY = "v_n";

    /** Whether a contact's impulse or a body's result is at fault. */
    private final Subject subject;
    /** The index of that contact or body in its batch. */
    private final int index;
    /** The column name at fault, or {@link #ORIENTATION_NORM}. */
    private final String field;
    /** The value found there. */
    private final float value;

    /**
     * An exception whose message names the subject, the index, the field and the value, and says
     * what overflowed.
     *
     * @param subject {@link Subject#CONTACT} for a non-finite impulse field, {@link Subject#BODY} for
     *     a non-finite velocity change or (after a step) integrated state
     * @param index the index of the contact or body in its batch
     * @param field the column name at fault ({@link ImpulseField}, {@link DeltaField} or
     *     {@link io.contactsolver.layout.BodyField}), or {@link #ORIENTATION_NORM}
     * @param value the value found: infinite or NaN, or for {@link #ORIENTATION_NORM} the norm that
     *     is not 1
     */
    public NonFiniteResultException(Subject subject, int index, String field, float value) {
        super((subject == Subject.BODY ? "body " : "contact ") + index + ": " + problem(subject, field, value));
        this.subject = subject;
        this.index = index;
        this.field = field;
        this.value = value;
    }

    private static String problem(Subject subject, String field, float value) {
        if (EFFECTIVE_MASS.equals(field)) {
            return "the solve overflowed: inverse effective mass '" + field + "' is " + value
                    + " (lever arms or inverse inertia too large for float)";
        }
        if (NORMAL_VELOCITY.equals(field)) {
            return "the solve overflowed: normal velocity '" + field + "' is " + value
                    + " (velocities or lever arms too large for float)";
        }
        if (subject == Subject.CONTACT) {
            return "the solve overflowed: impulse '" + field + "' is " + value
                    + " (velocities or inverse masses too large for float)";
        }
        if (isDeltaColumn(field)) {
            return "the solve overflowed: velocity change '" + field + "' is " + value
                    + " (velocities or inverse masses too large for float)";
        }
        if (ORIENTATION_NORM.equals(field)) {
            return "the step overflowed: the orientation's norm came out " + value
                    + ", not 1 (a spin too fast for float over this time step)";
        }
        return "the step overflowed: '" + field + "' came out " + value
                + " (velocities or the time step too large for float)";
    }

    private static boolean isDeltaColumn(String field) {
        for (DeltaField delta : DeltaField.values()) {
            if (delta.column().equals(field)) {
                return true;
            }
        }
        return false;
    }

    /**
     * A contact with a non-finite row or impulse field, or a body with a non-finite velocity change
     * or state.
     *
     * @return {@link Subject#CONTACT} or {@link Subject#BODY}
     */
    public Subject subject() {
        return subject;
    }

    /**
     * Index of the contact or body in its batch.
     *
     * @return an index from 0 to the batch's size - 1
     */
    public int index() {
        return index;
    }

    /**
     * The {@link ImpulseField}, {@link DeltaField} or (after a step) {@link io.contactsolver.layout.BodyField}
     * column name at fault, or {@link #EFFECTIVE_MASS}, {@link #NORMAL_VELOCITY} or
     * {@link #ORIENTATION_NORM}.
     *
     * @return the column name, such as {@code "j"} or {@code "dvx"}
     */
    public String field() {
        return field;
    }

    /**
     * The value found in {@link #field()}.
     *
     * @return infinity or NaN; for {@link #ORIENTATION_NORM}, the orientation's norm, which is not 1
     */
    public float value() {
        return value;
    }

    /**
     * What is wrong, without the location.
     *
     * @return the message's text after the subject and index
     */
    public String problem() {
        return problem(subject, field, value);
    }
}
