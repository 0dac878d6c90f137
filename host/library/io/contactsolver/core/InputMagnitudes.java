package io.contactsolver.core;

/**
 * Bounds on the magnitudes in a valid batch, kept by {@link InputValidator}'s screen as it reads
 * every column: enough to bound every contact's normal row, its inverse effective mass
 * {@code K = 1/m_a + 1/m_b + (r_a x n) . I_a^-1 (r_a x n) + (r_b x n) . I_b^-1 (r_b x n)} and its
 * normal velocity {@code v_n = (v_pb - v_pa) . n}, without reading any contact's bodies. Each is at
 * least the largest magnitude of any of its fields (the validator keeps the largest sum of a
 * record's magnitudes, {@code |px| + |py| + |pz|} and so on).
 *
 * @param contactPoint bounds every contact point's coordinates
 * @param position bounds every body position's coordinates
 * @param inverseMass bounds every inverse mass
 * @param inverseInertia bounds every entry of a body-space inverse inertia
 * @param linearVelocity bounds every linear velocity component
 * @param angularVelocity bounds every angular velocity component
 * @param frictionUse which coefficients some contact has above 0: friction, rolling, torsion (read
 *     with the rest of the columns, so that no solve reads them again to know)
 */
public record InputMagnitudes(float contactPoint, float position, float inverseMass, float inverseInertia,
        float linearVelocity, float angularVelocity, FrictionUse frictionUse) {
    /**
     * Whether every contact's {@code K} and {@code v_n}, and every float the solvers compute on the
     * way to them, is surely finite; where not, the rows must be evaluated one by one to know.
     *
     * <p>The bound follows the solvers' arithmetic: a lever arm's coordinates are at most
     * {@code reach = contactPoint + position}; the rotation of a quaternion within the
     * validator's tolerance has entries within 1.001, so a world-space inverse inertia entry is at
     * most 9.1 times the largest body-space one; then {@code r x n} is at most {@code 2.01 reach},
     * {@code I^-1 (r x n)} at most {@code 55 I reach} and each side's term of {@code K} at most
     * {@code 332 I reach^2}; a component of a contact point's velocity {@code v + w x r} is at most
     * {@code v + 2 w reach}, and {@code v_n} at most 6.01 times that. The factors used here, 1024
     * and 8, and half the largest float leave room for rounding.
     *
     * @param velocitySlack how much a linear velocity component may have grown since the batch was
     *     validated (gravity applied by a step), or 0
     */
    public boolean boundNormalRows(double velocitySlack) {
        double reach = (double) contactPoint + (double) position;
        double k = 2.0 * inverseMass + 1024.0 * inverseInertia * reach * reach;
        double vn = 8.0 * ((linearVelocity + velocitySlack) + 2.0 * angularVelocity * reach);
        double limit = Float.MAX_VALUE / 2.0;
        return k <= limit && vn <= limit;
    }
}
