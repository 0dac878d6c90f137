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

    /** A contact with a non-finite row or impulse field, or a body with a non-finite velocity change or state. */
    public Subject subject() {
        return subject;
    }

    /** Index of the contact or body in its batch. */
    public int index() {
        return index;
    }

    /**
     * The {@link ImpulseField}, {@link DeltaField} or (after a step) {@link io.contactsolver.layout.BodyField}
     * column name at fault, or {@link #EFFECTIVE_MASS}, {@link #NORMAL_VELOCITY} or {@link #ORIENTATION_NORM}.
     */
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
