package io.contactsolver.layout;

import java.util.Locale;

/**
 * The per-contact float fields, in storage order (structure of arrays, like {@link BodyField}).
 *
 * <p>The two body indices of a contact are integers and live in their own block, see
 * {@link ContactBody}. The normal points from body {@code a} to body {@code b}.
 * {@link #SEPARATION} is the signed gap between the bodies along the normal (negative: they
 * overlap); the soft step uses it, the single pass and the iterative solver only with positional
 * correction on ({@code RigidSettings#withPositionalCorrection}), and the
 * {@code separation} column of {@code contacts.csv} is optional (default 0). {@link #FRICTION} is
 * the Coulomb coefficient {@code mu >= 0} and {@link #ROLLING_RESISTANCE} the rolling lever arm
 * {@code rho >= 0} in metres (docs/physics.md, "Friction and rolling resistance") and
 * {@link #TORSION} the torsional lever arm {@code tau >= 0} in metres; all three optional in files,
 * default 0, and with all three 0 a contact is solved exactly as a frictionless one.
 */
public enum ContactField {
    /** Contact point, x, in metres, world space. */
    PX,
    /** Contact point, y, in metres, world space. */
    PY,
    /** Contact point, z, in metres, world space. */
    PZ,
    /** Unit normal from body a to body b, x, world space. */
    NX,
    /** Unit normal from body a to body b, y, world space. */
    NY,
    /** Unit normal from body a to body b, z, world space. */
    NZ,
    /** Coefficient of restitution {@code e}, in [0, 1]: 0 does not bounce, 1 bounces without loss. */
    RESTITUTION,
    /** Signed gap between the bodies along the normal, in metres; negative when they overlap. */
    SEPARATION,
    /** Coulomb friction coefficient {@code mu}, finite and {@code >= 0}; 0 is frictionless. */
    FRICTION,
    /** Rolling resistance {@code rho}, a lever arm in metres, finite and {@code >= 0}; 0 resists no rolling. */
    ROLLING_RESISTANCE,
    /**
     * Torsional resistance {@code tau}, a lever arm in metres (the radius of the contact patch's
     * grip), finite and {@code >= 0}: the twist about the normal is limited to {@code tau j}; 0
     * resists no twist beyond what a manifold's spread points give.
     */
    TORSION;

    /** Number of float fields per contact. */
    public static final int COUNT = values().length;

    /**
     * Whether files may leave this column out (its value is then 0).
     *
     * @return true for {@link #SEPARATION}, {@link #FRICTION}, {@link #ROLLING_RESISTANCE} and
     *     {@link #TORSION}
     */
    public boolean isOptional() {
        return this == SEPARATION || this == FRICTION || this == ROLLING_RESISTANCE || this == TORSION;
    }

    /**
     * The column name used in {@code contacts.csv} (docs/formats.md, "contacts.csv") and in the
     * messages of {@code InvalidInputException}.
     *
     * @return the constant's name in lower case, such as {@code "rolling_resistance"}
     */
    public String column() {
        return name().toLowerCase(Locale.ROOT);
    }
}
