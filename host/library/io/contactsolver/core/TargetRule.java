package io.contactsolver.core;

/**
 * How a contact's target normal velocity is chosen, the one rule both solvers and both backends
 * apply (Java: {@code BodyMath.evaluateContact}, OpenCL C: {@code evaluate_contact}).
 *
 * <ul>
 *   <li>Restitution: an approaching contact ({@code v_n < 0}) targets {@code -e v_n}, unless it
 *       approaches slower than {@code restitutionThreshold} (then 0); any other contact targets 0.</li>
 *   <li>Positional correction, only when {@code inverseTimeStep > 0}: a contact with a gap
 *       {@code s > 0} (speculative) targets {@code -s / dt}, so the bodies may close the gap within
 *       the step but not overlap; an overlapping contact ({@code s < 0}) targets at least
 *       {@code biasFactor (-s - slop) / dt} (Baumgarte), pushing the overlap beyond {@code slop}
 *       out over about {@code 1 / biasFactor} steps.</li>
 * </ul>
 *
 * <p>With positional correction off (and no threshold) the impulse {@code (target - v_n) / K} is
 * exactly the frictionless impulse {@code j = -(1 + e) v_n / K} of docs/physics.md ("The frictionless
 * impulse").
 *
 * @param inverseTimeStep {@code 1 / dt}, or 0 for no positional correction
 */
public record TargetRule(float restitutionThreshold, float inverseTimeStep, float biasFactor, float slop) {
    /** The rule of the default settings: no restitution threshold, no positional correction. */
    public static final TargetRule DEFAULT = new TargetRule(0.0f, 0.0f, 0.0f, 0.0f);
}
