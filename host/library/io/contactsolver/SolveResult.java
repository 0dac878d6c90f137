package io.contactsolver;

import io.contactsolver.core.BulkRange;
import io.contactsolver.core.ManifoldCache;
import io.contactsolver.core.Recycler;
import io.contactsolver.core.FieldBlock;
import io.contactsolver.core.SolveMeter;
import io.contactsolver.layout.DeltaField;
import io.contactsolver.layout.ImpulseField;
import io.contactsolver.layout.SolvePhase;
import java.nio.FloatBuffer;
import java.util.Objects;
import org.joml.Vector3f;

/**
 * What a solve produces: the velocity change of every body (layout {@link DeltaField}) and the
 * impulses of every contact (layout {@link ImpulseField}: the normal impulse {@code j >= 0}, the
 * friction impulse and the angular impulse of rolling and torsional resistance on body b), in input order, with the
 * contacts' ids. Reused across solves: the storage grows when needed and is otherwise overwritten
 * in place.
 *
 * <p>A result is also the warm start of the next step's iterative solve: pass it back as
 * {@code warmStart} and contacts with the same id start from the impulses they ended with here.
 *
 * <p>A soft step leaves its contacts' impulses where it solved them until the result's first read
 * of an impulse, which writes them all, to the same bits: a simulation that never reads them never
 * pays for them. A device leaves them in its memory, checked finite, until then (or until the
 * solver reuses that memory or closes, when the manifolds they come from are read back), and the
 * bodies' velocity changes likewise (read back with the manifolds); the CPU leaves the impulses in
 * the kept manifolds where sharing them out cannot give a non-finite impulse. Where a check finds a
 * fault, they are written and scanned with the step, as every other solve does.
 *
 * <p>A soft step may be asked to write no deltas or no impulses ({@link SoftStepSettings#withDeltas},
 * {@link SoftStepSettings#withImpulses}); its result then holds none ({@link #hasDeltas()},
 * {@link #hasImpulses()}), and reading them throws {@link IllegalStateException} rather than giving
 * an earlier solve's values.
 */
public final class SolveResult {
    /** What checked {@link #contactIds} unique, at which version (a soft step's {@link #prepare}); null for nothing known. */
    private Object idsChecker;
    private long idsCheckedVersion;
    private final FieldBlock deltas = new FieldBlock(DeltaField.COUNT, 0);
    private final FieldBlock impulses = new FieldBlock(ImpulseField.COUNT, 0);
    private int[] contactIds = new int[0];
    private boolean holdsDeltas = true;
    private boolean holdsImpulses = true;
    /**
     * Whether the impulses are still to be written from {@link #manifolds} ({@link #deferReport}):
     * the first read writes them. Volatile, so that a read on another thread after the step sees it.
     */
    private volatile boolean reportPending;
    /** Whether the deltas are still on the device that ran the step ({@link #deferDeltas}): the first read brings them. */
    private volatile boolean deltasPending;
    /** The manifolds a soft step solved, which the next step may recycle. */
    private final ManifoldCache manifolds = new ManifoldCache();
    private int recycledCount;
    private int bodyCount;
    private int contactCount;
    private Backend backend;
    private SolverKind solver;
    private int iterations;
    private float residual;
    private int colourCount;
    private int overflowCount;
    private final long[] hostNanos = new long[SolvePhase.values().length];
    private final long[] deviceNanos = new long[SolvePhase.values().length];
    private long bytesUploaded;
    private long bytesDownloaded;

    /** An empty result, for a solve or step to fill: no bodies and no contacts until then. */
    public SolveResult() {
    }

    /**
     * The bodies of the solve that wrote this result: the {@code BodyBatch}'s size then.
     *
     * @return the number of body deltas held; 0 before any solve
     */
    public int bodyCount() {
        return bodyCount;
    }

    /**
     * The contacts of the solve that wrote this result: the {@code ContactBatch}'s size then.
     *
     * @return the number of contact impulses held; 0 before any solve
     */
    public int contactCount() {
        return contactCount;
    }

    /**
     * The backend that computed this result: {@link Backend#CPU} or {@link Backend#OPENCL}.
     *
     * @return the backend, or null before a solve has completed into this result (and after one
     *     that threw)
     */
    public Backend backend() {
        return backend;
    }

    /**
     * The solver that computed this result.
     *
     * @return the solver, or null before any solve completed into this result
     */
    public SolverKind solver() {
        return solver;
    }

    /**
     * Iterations the iterative solver ran (at most the limit, fewer on early exit); 1 for the single pass.
     *
     * @return the iterations run; for the soft step, every sweep of the step: substeps times (solve
     *     iterations plus relax sweeps)
     */
    public int iterations() {
        return iterations;
    }

    /**
     * The largest change of any contact's accumulated impulse in the last iteration, the measure
     * the tolerance is compared with; 0 for the single pass.
     *
     * @return the last iteration's largest change of an accumulated impulse (normal, tangential or
     *     rolling), in N s, {@code >= 0}
     */
    public float residual() {
        return residual;
    }

    /**
     * Colours of the iterative solver's contact partition; 0 for the single pass.
     *
     * @return from 0 to the settings' colour budget
     */
    public int colourCount() {
        return colourCount;
    }

    /**
     * Contacts the colour budget could not take, solved serially; 0 for the single pass.
     *
     * @return from 0 to {@link #contactCount()}
     */
    public int overflowCount() {
        return overflowCount;
    }

    /**
     * How many points of a soft step were recycled: solved as an earlier step took them (anchors,
     * normal, separation following the bodies' motion) rather than from the batch
     * ({@link SoftStepSettings#withRecycleDistance}).
     *
     * @return 0 for other solvers, a first step, or recycling off
     */
    public int recycledCount() {
        return recycledCount;
    }

    /**
     * The host's wall-clock nanoseconds the call spent working in {@code phase}, its waits for a
     * device left out ({@link SolvePhase}): the sum over the phases is the host's time of the call.
     *
     * @param phase the stage of the call
     * @return nanoseconds, {@code >= 0}; 0 for a phase the call did not go through
     */
    public long hostNanos(SolvePhase phase) {
        return hostNanos[phase.ordinal()];
    }

    /**
     * An OpenCL device's own nanoseconds in {@code phase}, from its profiling events: its copies
     * ({@link SolvePhase#TRANSFER}) and its kernels ({@link SolvePhase#SOLVE}).
     *
     * @param phase the stage of the call
     * @return nanoseconds, {@code >= 0}; 0 for every phase on the CPU
     */
    public long deviceNanos(SolvePhase phase) {
        return deviceNanos[phase.ordinal()];
    }

    /**
     * Bytes the solve sent to an OpenCL device (0 on the CPU). Batch fields not written since the
     * same solver last sent them are not sent again.
     *
     * @return bytes, {@code >= 0}
     */
    public long bytesUploaded() {
        return bytesUploaded;
    }

    /**
     * Bytes the solve read back from an OpenCL device (0 on the CPU).
     *
     * @return bytes, {@code >= 0}
     */
    public long bytesDownloaded() {
        return bytesDownloaded;
    }

    /**
     * The id of contact {@code contact}, as it was when this result was computed.
     *
     * @param contact the contact's index in its batch
     * @return the id, as {@code ContactBatch.id(contact)} returned it then
     * @throws IndexOutOfBoundsException if {@code contact} is not in {@code 0 .. contactCount()-1}
     */
    public int contactId(int contact) {
        Objects.checkIndex(contact, contactCount);
        return contactIds[contact];
    }

    /**
     * Change of linear velocity of {@code body}, world space.
     *
     * @param body the body's index in its batch
     * @param dest will hold the change, in m/s
     * @return {@code dest}
     * @throws IndexOutOfBoundsException if {@code body} is not in {@code 0 .. bodyCount()-1}
     */
    public Vector3f getLinearDelta(int body, Vector3f dest) {
        return get3(body, DeltaField.DVX, dest);
    }

    /**
     * Change of angular velocity of {@code body}, world space.
     *
     * @param body the body's index in its batch
     * @param dest will hold the change, in rad/s
     * @return {@code dest}
     * @throws IndexOutOfBoundsException if {@code body} is not in {@code 0 .. bodyCount()-1}
     */
    public Vector3f getAngularDelta(int body, Vector3f dest) {
        return get3(body, DeltaField.DWX, dest);
    }

    /**
     * One component of the velocity change of {@code body}.
     *
     * @param field which component, its unit as {@link DeltaField} states
     * @param body the body's index in its batch
     * @return the change, world space
     * @throws IndexOutOfBoundsException if {@code body} is not in {@code 0 .. bodyCount()-1}
     */
    public float delta(DeltaField field, int body) {
        requireDeltas();
        Objects.checkIndex(body, bodyCount);
        return deltas.getFloat(field.ordinal(), body);
    }

    /**
     * Normal impulse of {@code contact}: body a received {@code -j n}, body b {@code +j n}.
     *
     * @param contact the contact's index in its batch
     * @return {@code j >= 0}, in N s
     * @throws IndexOutOfBoundsException if {@code contact} is not in {@code 0 .. contactCount()-1}
     */
    public float impulse(int contact) {
        return impulse(ImpulseField.J, contact);
    }

    /**
     * One component of the impulses of {@code contact}.
     *
     * @param field which component, its meaning and unit as {@link ImpulseField} states
     * @param contact the contact's index in its batch
     * @return the component, world space
     * @throws IndexOutOfBoundsException if {@code contact} is not in {@code 0 .. contactCount()-1}
     */
    public float impulse(ImpulseField field, int contact) {
        requireImpulses();
        Objects.checkIndex(contact, contactCount);
        return impulses.getFloat(field.ordinal(), contact);
    }

    /**
     * Tangential (friction) impulse of {@code contact} on body b, world space; body a received its
     * opposite. Zero for a frictionless contact.
     *
     * @param contact the contact's index in its batch
     * @param dest will hold the impulse, in N s
     * @return {@code dest}
     * @throws IndexOutOfBoundsException if {@code contact} is not in {@code 0 .. contactCount()-1}
     */
    public Vector3f getTangentImpulse(int contact, Vector3f dest) {
        requireImpulses();
        Objects.checkIndex(contact, contactCount);
        return impulses.getVector(ImpulseField.TX.ordinal(), contact, dest);
    }

    /**
     * Angular impulse of {@code contact} on body b, world space: the rolling resistance's along the
     * contact's tangents plus the torsional resistance's twist along its normal; body a received its
     * opposite. Zero without rolling and torsional resistance, and always from the single pass.
     *
     * @param contact the contact's index in its batch
     * @param dest will hold the angular impulse, in N m s
     * @return {@code dest}
     * @throws IndexOutOfBoundsException if {@code contact} is not in {@code 0 .. contactCount()-1}
     */
    public Vector3f getRollingImpulse(int contact, Vector3f dest) {
        requireImpulses();
        Objects.checkIndex(contact, contactCount);
        return impulses.getVector(ImpulseField.RX.ordinal(), contact, dest);
    }

    /**
     * Reads velocity-change field {@code field} of every body into {@code dest[0 .. bodyCount()-1]}.
     *
     * @param field the component to read
     * @param dest receives one value per body; at least {@link #bodyCount()} long
     * @return {@code dest}
     * @throws IndexOutOfBoundsException if {@code dest} is too short
     */
    public float[] get(DeltaField field, float[] dest) {
        return get(field, 0, dest, 0, 1, bodyCount);
    }

    /**
     * Reads impulse field {@code field} of every contact into {@code dest[0 .. contactCount()-1]}.
     *
     * @param field the component to read
     * @param dest receives one value per contact; at least {@link #contactCount()} long
     * @return {@code dest}
     * @throws IndexOutOfBoundsException if {@code dest} is too short
     */
    public float[] get(ImpulseField field, float[] dest) {
        return get(field, 0, dest, 0, 1, contactCount);
    }

    /**
     * Reads velocity-change field {@code field} of bodies {@code firstBody .. firstBody+count-1}
     * into {@code dest}, every {@code destStride}-th element from {@code destOffset} (1: packed; 3
     * with offsets 0, 1, 2 for interleaved {@code dvx dvy dvz}).
     *
     * @param field the component to read
     * @param firstBody index of the first body read
     * @param dest receives the values
     * @param destOffset index in {@code dest} of the first body's value
     * @param destStride distance in {@code dest} between two consecutive bodies' values, at least 1
     * @param count number of bodies read
     * @return {@code dest}
     * @throws IndexOutOfBoundsException if a range does not fit (nothing is written)
     * @throws IllegalArgumentException if {@code destStride} is below 1
     */
    public float[] get(DeltaField field, int firstBody, float[] dest, int destOffset, int destStride, int count) {
        requireDeltas();
        BulkRange.elements("bodies", firstBody, count, bodyCount);
        BulkRange.array("dest", dest.length, destOffset, destStride, count);
        deltas.getFloats(field.ordinal(), firstBody, count, dest, destOffset, destStride);
        return dest;
    }

    /**
     * Reads velocity-change field {@code field} of bodies {@code firstBody .. firstBody+count-1}
     * into {@code dest} from its absolute index {@code destIndex}; its position is left as it was.
     *
     * @param field the component to read
     * @param firstBody index of the first body read
     * @param dest receives the values, in body order
     * @param destIndex absolute index in {@code dest} of the first body's value
     * @param count number of bodies read
     * @return {@code dest}
     * @throws IndexOutOfBoundsException if a range does not fit (nothing is written)
     * @throws IllegalArgumentException if {@code dest} is read-only
     */
    public FloatBuffer get(DeltaField field, int firstBody, FloatBuffer dest, int destIndex, int count) {
        requireDeltas();
        BulkRange.elements("bodies", firstBody, count, bodyCount);
        BulkRange.buffer("dest", dest, destIndex, count, true);
        deltas.getFloats(field.ordinal(), firstBody, count, dest, destIndex);
        return dest;
    }

    /**
     * Reads impulse field {@code field} of contacts {@code firstContact .. firstContact+count-1}
     * into {@code dest}, every {@code destStride}-th element from {@code destOffset} (1: packed).
     *
     * @param field the component to read
     * @param firstContact index of the first contact read
     * @param dest receives the values
     * @param destOffset index in {@code dest} of the first contact's value
     * @param destStride distance in {@code dest} between two consecutive contacts' values, at least 1
     * @param count number of contacts read
     * @return {@code dest}
     * @throws IndexOutOfBoundsException if a range does not fit (nothing is written)
     * @throws IllegalArgumentException if {@code destStride} is below 1
     */
    public float[] get(ImpulseField field, int firstContact, float[] dest, int destOffset, int destStride,
            int count) {
        requireImpulses();
        BulkRange.elements("contacts", firstContact, count, contactCount);
        BulkRange.array("dest", dest.length, destOffset, destStride, count);
        impulses.getFloats(field.ordinal(), firstContact, count, dest, destOffset, destStride);
        return dest;
    }

    /**
     * Reads impulse field {@code field} of contacts {@code firstContact .. firstContact+count-1}
     * into {@code dest} from its absolute index {@code destIndex}; its position is left as it was.
     *
     * @param field the component to read
     * @param firstContact index of the first contact read
     * @param dest receives the values, in contact order
     * @param destIndex absolute index in {@code dest} of the first contact's value
     * @param count number of contacts read
     * @return {@code dest}
     * @throws IndexOutOfBoundsException if a range does not fit (nothing is written)
     * @throws IllegalArgumentException if {@code dest} is read-only
     */
    public FloatBuffer get(ImpulseField field, int firstContact, FloatBuffer dest, int destIndex, int count) {
        requireImpulses();
        BulkRange.elements("contacts", firstContact, count, contactCount);
        BulkRange.buffer("dest", dest, destIndex, count, true);
        impulses.getFloats(field.ordinal(), firstContact, count, dest, destIndex);
        return dest;
    }

    /**
     * A read-only view of the deltas: field {@code f} of body {@code i} is at absolute index
     * {@code f.ordinal() * deltaStride() + i}. The view is invalid after a later solve grows the
     * result.
     *
     * @return a read-only, native-order view; its first {@link #bodyCount()} entries of each field
     *     hold this result
     */
    public FloatBuffer deltas() {
        requireDeltas();
        return deltas.floats().asReadOnlyBuffer();
    }

    /**
     * The distance between two fields in {@link #deltas()}.
     *
     * @return the body capacity of the storage, at least {@link #bodyCount()}
     */
    public int deltaStride() {
        return deltas.stride();
    }

    /**
     * A read-only view of the impulses: field {@code f} of contact {@code c} is at absolute index
     * {@code f.ordinal() * impulseStride() + c} ({@link ImpulseField}). The view is invalid after
     * a later solve grows the result.
     *
     * @return a read-only, native-order view; its first {@link #contactCount()} entries of each
     *     field hold this result
     */
    public FloatBuffer impulses() {
        requireImpulses();
        return impulses.floats().asReadOnlyBuffer();
    }

    /**
     * The distance between two fields in {@link #impulses()}.
     *
     * @return the contact capacity of the storage, at least {@link #contactCount()}
     */
    public int impulseStride() {
        return impulses.stride();
    }

    void prepare(int bodies, int contacts, int[] ids) {
        prepare(bodies, contacts, ids, true, true);
    }

    /**
     * Makes the result ready for a solve of {@code bodies} and {@code contacts} with ids {@code ids}:
     * room for the deltas and impulses it is to hold (none grown for what it is not), the ids
     * copied, the soft step's manifolds forgotten.
     */
    void prepare(int bodies, int contacts, int[] ids, boolean withDeltas, boolean withImpulses) {
        prepare(bodies, contacts, ids, withDeltas, withImpulses, null, -1);
    }

    /**
     * As {@link #prepare(int, int, int[], boolean, boolean)}, where {@code checker} has just checked
     * {@code ids} unique at {@code version} ({@code WarmStart.idsVersion}): recorded, so that a step
     * from this result need not compare them, and not copied again where this result holds them at
     * that version.
     */
    void prepare(int bodies, int contacts, int[] ids, boolean withDeltas, boolean withImpulses, Object checker,
            long version) {
        boolean holdsIds = checker != null && contacts == contactCount && idsCheckedVersion(checker) == version;
        reportPending = false;
        deltasPending = false;
        holdsDeltas = withDeltas;
        holdsImpulses = withImpulses;
        if (withDeltas) {
            deltas.ensureCapacity(bodies, 0);
        }
        if (withImpulses) {
            impulses.ensureCapacity(contacts, 0);
        }
        if (contactIds.length < contacts) {
            contactIds = new int[Math.max(contacts, contactIds.length + (contactIds.length >> 1))];
        }
        if (!holdsIds) {
            System.arraycopy(ids, 0, contactIds, 0, contacts);
        }
        idsChecker = checker;
        idsCheckedVersion = version;
        bodyCount = bodies;
        contactCount = contacts;
        backend = null;
        manifolds.clear();
        recycledCount = 0;
    }

    /**
     * Whether this result holds the bodies' velocity changes: every solve's does, a soft step's
     * unless its settings asked for none ({@link SoftStepSettings#withDeltas}).
     *
     * @return false if reading a delta would throw
     */
    public boolean hasDeltas() {
        return holdsDeltas;
    }

    /**
     * Whether this result holds the contacts' impulses: every solve's does, a soft step's unless its
     * settings asked for none ({@link SoftStepSettings#withImpulses}).
     *
     * @return false if reading an impulse would throw
     */
    public boolean hasImpulses() {
        return holdsImpulses;
    }

    private void requireDeltas() {
        if (!holdsDeltas) {
            throw new IllegalStateException("this result holds no deltas: the soft step that wrote it was asked for "
                    + "none (SoftStepSettings.withDeltas(false))");
        }
        deltasIfPending();
    }

    /** The velocity changes a device left, checked finite, for the first read ({@link #deltasPending}). */
    void deferDeltas() {
        deltasPending = true;
    }

    /**
     * Brings the deltas a device left ({@link #deferDeltas}), once: from the device while it holds
     * the step, else already in the block (the device read them in with its manifolds before
     * reusing its memory or closing).
     */
    private void deltasIfPending() {
        if (deltasPending) {
            synchronized (this) {
                if (deltasPending) {
                    if (!manifolds.readDeltas(deltas, bodyCount)) {
                        requireFetched("velocity changes");
                    }
                    deltasPending = false;
                }
            }
        }
    }

    /**
     * The kept manifolds on the host, fetched from the device that ran the step if it still holds
     * them (a fetch that also brings the deltas it left), or a one-line failure naming {@code what}
     * was left there where that device failed.
     */
    private void requireFetched(String what) {
        manifolds.fetchFromDevice();
        if (!manifolds.isValid()) {
            throw new IllegalStateException("contact solver: this result's " + what + " were left on the device that "
                    + "ran its step, and reading them back failed (see the warning logged)");
        }
    }

    private void requireImpulses() {
        if (!holdsImpulses) {
            throw new IllegalStateException("this result holds no impulses: the soft step that wrote it was asked "
                    + "for none (SoftStepSettings.withImpulses(false))");
        }
        reportIfPending();
    }

    /**
     * Leaves the soft step's impulses to the first read: the step kept its manifolds in this result,
     * and a device left the impulses it reported from them, checked finite, or the host found that
     * writing them from the manifolds cannot give a non-finite one ({@code Recycler.reportsFinite}).
     * A simulation that never reads them never pays for them.
     */
    void deferReport() {
        reportPending = true;
    }

    /**
     * Writes the impulses a soft step left to the first read ({@link #deferReport}), once: as the
     * device that ran the step reported them, where it still holds the step, else from the kept
     * manifolds (the same bits).
     */
    private void reportIfPending() {
        if (reportPending) {
            synchronized (this) {
                if (reportPending) {
                    if (!manifolds.readReportedImpulses(impulses, contactCount)) {
                        requireFetched("impulses");
                        Recycler.reportSerially(manifolds, contactIds, impulses);
                    }
                    reportPending = false;
                }
            }
        }
    }

    /** The version at which {@code checker} checked this result's ids, or -1 where it did not. */
    long idsCheckedVersion(Object checker) {
        return idsChecker != null && idsChecker == checker ? idsCheckedVersion : -1;
    }

    /** The soft step's manifolds, for the next step to recycle; empty for other solvers. */
    ManifoldCache manifoldCache() {
        return manifolds;
    }

    /** How many points of the soft step that made this result were recycled. */
    void setRecycledCount(int points) {
        recycledCount = points;
    }

    void finish(Backend computedBy, SolverKind kind, int iterationCount, float finalResidual, int colours,
            int overflow, SolveMeter clock) {
        clock.copyTo(hostNanos, deviceNanos);
        bytesUploaded = clock.bytesUp();
        bytesDownloaded = clock.bytesDown();
        backend = computedBy;
        solver = kind;
        iterations = iterationCount;
        residual = finalResidual;
        colourCount = colours;
        overflowCount = overflow;
    }

    int[] contactIdArray() {
        return contactIds;
    }

    FieldBlock deltaBlock() {
        return deltas;
    }

    /** The impulses' storage as it is, for a solve to write or scan: a deferred report stays deferred. */
    FieldBlock impulseBlock() {
        return impulses;
    }

    /** The impulses for a reader inside the module: a deferred report is written first. */
    FieldBlock reportedImpulseBlock() {
        requireImpulses();
        return impulses;
    }

    private Vector3f get3(int body, DeltaField first, Vector3f dest) {
        requireDeltas();
        Objects.checkIndex(body, bodyCount);
        return deltas.getVector(first.ordinal(), body, dest);
    }
}
