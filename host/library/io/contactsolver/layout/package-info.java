/**
 * The data layouts of the API, one definition each: the fields of bodies, contacts and results in
 * their storage order, and the phases a solve is timed in, the same on every backend.
 *
 * <p>A user reads these enums to address one field of a batch or a result
 * ({@code BodyBatch.get(BodyField, int)}, {@code SolveResult.impulse(ImpulseField, int)}), to read the
 * raw structure-of-arrays buffers ({@code BodyBatch.data()}: field {@code f} of element {@code i} at
 * {@code f.ordinal() * capacity + i}), to name the columns of the CSV files, and to read a solve's
 * timings ({@link io.contactsolver.layout.SolvePhase}). Each constant's comment gives its meaning
 * and unit (SI).
 *
 * <p>Sign convention: a contact's normal points from body {@code a} to body {@code b}; the
 * impulses are those on body {@code b}, and body {@code a} receives their opposite.
 *
 * <p>The model behind the fields is {@code docs/physics.md} in the source repository, the files'
 * columns {@code docs/formats.md}. A leaf package: it depends on nothing of the project, and the
 * API, the backends and the kernels' build options all read the layout from here.
 */
package io.contactsolver.layout;
