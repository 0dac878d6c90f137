package io.contactsolver.core;

/**
 * Everything a backend reads and writes in one soft step (docs/physics.md, "Soft step"): the bodies
 * and contacts as validated raw blocks, the contacts' manifolds and the points chosen to solve them
 * with ({@link Recycler}: each manifold's points, their geometry and warm start), the colouring of
 * the manifolds, the step's constants, and three outputs: each body's state at the end of the step
 * ({@code nextBodies}, the first {@link #BODY_STATE_FIELDS} {@code BodyField}s: position,
 * orientation, linear and angular velocity), each body's velocity change from the contacts
 * ({@code DeltaField}: the whole change less {@code g dt} for a body with mass), and each solved
 * point's normal impulse and each manifold's friction and angular vectors at the end of the last
 * substep, from which every contact's impulses are written ({@link Recycler#report}: by the host, or
 * by a device that says so in {@link StepOutputs}). The
 * caller commits {@code nextBodies} to the bodies only once it has checked them, so a failed step
 * leaves the bodies as they were; a device that found every output sound may instead read the next
 * state straight into {@code bodies} and say so ({@link StepOutputs#recordCommitted}).
 *
 * @param manifolds the contacts' manifolds: a manifold's coefficients are its first contact's
 * @param points the points of each manifold, in manifold order ({@link Recycler#pointStart}), with
 *     their geometry and warm start
 * @param coloring colours the manifolds: its rows are manifolds
 * @param rowPointStarts each manifold row's first point, as both backends lay the points out: row
 *     {@code r} solves manifold {@code coloring().order()[r]} with that manifold's solved points,
 *     the rows' points consecutive in row order; {@code coloring().rowCount() + 1} entries, the last
 *     the point count
 * @param rowPointStartsVersion moves whenever {@code rowPointStarts} may hold other values than at
 *     the host pipeline's last step, and no other array has it: a device holding them at this
 *     version need not receive them again
 * @param bodyRows each movable body's rows in row order ({@link BodyContactIndex} over
 *     {@code coloring().slots()}), for the colouring of {@code coloring().version()}, where the
 *     backend starts its substeps body by body ({@link SolverBackend#startsSubstepsByBody}) and the
 *     colouring is the last soft step's; else null, and the warm start goes colour by colour
 * @param restitution the restitution rule ({@code TargetRule} with no positional correction)
 * @param friction what friction the contacts have (and the settings use): without any, the sweeps
 *     leave out every friction stage
 * @param iterations soft solve sweeps per substep
 * @param relaxIterations relax sweeps per substep
 * @param gx gravity, x (m/s^2; likewise {@code gy}, {@code gz})
 * @param timeStep the whole step, seconds
 * @param deltas receives each body's {@code DeltaField}s, or null where the step was asked for none
 * @param normalOut receives each solved point's normal impulse, in the order of {@code points}
 * @param vectorsOut receives each manifold's {@link ManifoldVectorField}s, structure of arrays with
 *     stride {@code manifolds.count()}
 * @param impulses where the step was asked for impulses, the block they go to, which a backend may
 *     write itself ({@link StepOutputs}); else null
 * @param contactIds the contacts' ids, {@code contactCount} of them
 * @param contactIdsVersion moves whenever {@code contactIds} may differ from the last step's, and no
 *     other ids have it ({@link WarmStart#idsVersion}), likewise
 * @param outputs where a backend says which outputs it reported and checked itself
 */
public record SoftStepJob(
        FieldBlock bodies, int bodyCount,
        FieldBlock contacts, FieldBlock links, int contactCount,
        ManifoldGrouping manifolds, Recycler points, ContactColoring coloring, int[] rowPointStarts,
        long rowPointStartsVersion, BodyContactIndex bodyRows, TargetRule restitution, FrictionUse friction, MovableBodies movable,
        int iterations, int relaxIterations, SoftCoefficients coefficients,
        float gx, float gy, float gz, float timeStep,
        FieldBlock nextBodies, FieldBlock deltas, float[] normalOut, float[] vectorsOut,
        FieldBlock impulses, int[] contactIds, long contactIdsVersion, StepOutputs outputs,
        SolveMeter clock) {
    /** The body fields a step changes: {@code X} through {@code WZ}. */
    public static final int BODY_STATE_FIELDS = io.contactsolver.layout.BodyField.WZ.ordinal() + 1;

    /**
     * Whether the soft sweeps apply friction, rolling and twist as the relax sweeps do, or leave them
     * to the relax sweeps: false, as in Box3D. Measured both ways (docs/physics.md, "Where friction
     * is solved"): in both sweeps a resting column at the stiffest accepted contacts and low damping
     * gains energy; in the relax sweep alone no accepted setting does.
     */
    public static final boolean FRICTION_IN_SOFT_SWEEP = false;
}
