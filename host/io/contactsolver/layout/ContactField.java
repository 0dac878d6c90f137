package io.contactsolver.layout;

import io.contactsolver.layout.BodyField;
import io.contactsolver.layout.ContactBody;
import io.contactsolver.layout.ContactField;
import java.util.Locale;

/**
 * The per-contact float fields, in storage order (structure of arrays, like {@link BodyField}).
 *
 * <p>The two body indices of a contact are integers and live in their own block, see
 * {@link ContactBody}. The normal points from body {@code a} to body {@code b}.
 * {@link #SEPARATION} is the signed gap between the bodies along the normal (negative: they
 * overlap); it matters only when {@code SolveSettings#withPositionalCorrection} is on, and the
 * {@code separation} column of {@code contacts.csv} is optional (default 0). {@link #FRICTION} is
 * the Coulomb coefficient {@code mu >= 0} and {@link #ROLLING_RESISTANCE} the rolling lever arm
 * {@code rho >= 0} in metres (docs/physics.md, "Friction and rolling resistance"); both optional in
 * files, default 0, and with both 0 a contact is solved exactly as a frictionless one.
 */
public enum ContactField {
    PX, PY, PZ,
    NX, NY, NZ,
    RESTITUTION,
    SEPARATION,
    FRICTION,
    ROLLING_RESISTANCE;

    /** Number of float fields per contact. */
    public static final int COUNT = values().length;

    /** Whether files may leave this column out (its value is then 0). */
    public boolean isOptional() {
        return this == SEPARATION || this == FRICTION || this == ROLLING_RESISTANCE;
    }

    /** The column name used in {@code contacts.csv}. */
    public String column() {
        return name().toLowerCase(Locale.ROOT);
    }
}
