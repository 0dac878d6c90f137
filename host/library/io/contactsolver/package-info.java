/**
 * The library's API: collision impulses for a batch of rigid-body contacts, with Coulomb friction
 * and rolling resistance, on an OpenCL device or on the CPU.
 *
 * <p>A simulation step with it: put the bodies in a {@link io.contactsolver.BodyBatch} (position,
 * orientation, velocities, inverse mass and inverse inertia), the contacts its collision detection
 * found in a {@link io.contactsolver.ContactBatch} (the two bodies, the point, the normal, the
 * restitution, and optionally friction and rolling resistance), and ask a
 * {@link io.contactsolver.ContactSolver}: {@code solve} writes every body's velocity change and
 * every contact's impulses into a {@link io.contactsolver.SolveResult} for the caller to apply,
 * and {@code step} applies them itself, with gravity, and moves the bodies on by one time step.
 * {@link io.contactsolver.SolveSettings} chooses the solver by its type, with that solver's settings
 * ({@link io.contactsolver.SinglePassSettings} and {@link io.contactsolver.IterativeSettings}, the
 * {@link io.contactsolver.RigidSettings} that {@code solve} takes, and
 * {@link io.contactsolver.SoftStepSettings}, for {@code step} only), {@link io.contactsolver.SolverConfig}
 * the backend, and
 * {@link io.contactsolver.ContactIds} gives contacts the ids that persist from step to step, by
 * which the iterative solver warm-starts.
 *
 * <p>Sign convention: a contact's normal points from body {@code a} to body {@code b}, and its
 * impulse {@code P} acts {@code +P} on {@code b} and {@code -P} on {@code a} at the contact point,
 * so the normal impulse {@code j = P . n} is never negative (contacts push, they never pull).
 *
 * <p>Units are SI: metres, kilograms, seconds, radians. Input is checked when a solve starts and
 * refused with an {@link io.contactsolver.InvalidInputException} that names the body or contact
 * and the field; a result that overflowed float is refused with a
 * {@link io.contactsolver.NonFiniteResultException}. A solver is for one thread at a time.
 *
 * <p>Where the documentation is, in the source repository: {@code docs/api.md} describes the API,
 * with examples; {@code docs/physics.md} states what the solvers compute, formula by formula;
 * {@code docs/backends.md} the backends and devices; {@code docs/formats.md} and
 * {@code docs/cli.md} the CSV files and the command line. The storage layout of
 * bodies, contacts and results is in {@link io.contactsolver.layout}.
 */
package io.contactsolver;
