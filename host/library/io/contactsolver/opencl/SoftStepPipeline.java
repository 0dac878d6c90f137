package io.contactsolver.opencl;

import static org.jocl.CL.clEnqueueCopyBuffer;
import static org.jocl.CL.clEnqueueFillBuffer;
import static org.jocl.CL.clEnqueueReadBuffer;
import static org.jocl.CL.clEnqueueReadBufferRect;
import static org.jocl.CL.clFinish;

import io.contactsolver.core.BackendFailureException;
import io.contactsolver.core.BodyContactIndex;
import io.contactsolver.core.CaptureField;
import io.contactsolver.core.ContactColoring;
import io.contactsolver.core.FieldBlock;
import io.contactsolver.core.FrictionUse;
import io.contactsolver.core.GeometryField;
import io.contactsolver.core.InputScreen;
import io.contactsolver.core.IterationOutcome;
import io.contactsolver.core.ManifoldField;
import io.contactsolver.core.ManifoldGrouping;
import io.contactsolver.core.ManifoldCache;
import io.contactsolver.core.MagnitudeGroup;
import io.contactsolver.core.ManifoldImpulse;
import io.contactsolver.core.ManifoldVectorField;
import io.contactsolver.core.MotionField;
import io.contactsolver.core.MovableBodies;
import io.contactsolver.core.PointField;
import io.contactsolver.core.PreparedBodyField;
import io.contactsolver.core.Recycler;
import io.contactsolver.core.SoftCoefficients;
import io.contactsolver.core.SoftStepJob;
import io.contactsolver.core.SoftStepSchedule;
import io.contactsolver.core.SolveMeter;
import io.contactsolver.core.StateField;
import io.contactsolver.core.WarmStartField;
import io.contactsolver.layout.BodyField;
import io.contactsolver.layout.ContactBody;
import io.contactsolver.layout.ContactField;
import io.contactsolver.layout.DeltaField;
import io.contactsolver.layout.ImpulseField;
import io.contactsolver.layout.SolvePhase;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.util.Arrays;
import org.jocl.CLException;
import org.jocl.Pointer;
import org.jocl.Sizeof;
import org.jocl.cl_command_queue;
import org.jocl.cl_mem;

/**
 * The soft step on the device ({@code kernels/soft_step.cl}), its stages in the order of
 * {@link SoftStepSchedule}, as the CPU's, with the host's work around them that a device can take:
 *
 * <ul>
 *   <li><b>Screen</b> ({@link #screen}, {@code kernels/checks.cl}): the bodies and contacts go up
 *       (only fields written since they last went up), the validator's screen runs there, and the
 *       suspects and magnitudes come down after one wait, before the host plans the step.</li>
 *   <li><b>Up</b>: what the host prepared of the manifolds (the grouping's first contacts, the
 *       colouring's order and slots and the movable flags where they changed, each row's first
 *       point, the recycling's plan: each manifold's previous manifold, fate and points).</li>
 *   <li><b>Recycling</b> ({@code recycle_manifolds}, {@code kernels/recycling.cl}): the points'
 *       geometry, warm values, captures and ids written from the previous step's cache, which stays
 *       here in one of two {@link RecycleSet}s; where the warm start is not the device's own last
 *       step, the host writes them and they go up.</li>
 *   <li><b>Kernels</b>, enqueued back to back with nothing read in between: the manifold rows
 *       prepared once, every substep (gravity, warm start colour by colour, the soft sweeps, the
 *       motion records, the relax sweeps), the restitution pass, the bodies finished; then every
 *       contact's impulses ({@code report_contact_impulses}) and the lowest non-finite impulse,
 *       delta and next body ({@code first_non_finite}), so that the host neither reports nor scans
 *       them ({@code StepOutputs}).</li>
 *   <li><b>Down</b>, after one wait: the residual and the checks (the impulses and deltas too where
 *       the checks found a fault; else they stay in the step's {@link RecycleSet} until the result
 *       reads them, {@link ManifoldCache#readReportedImpulses}, {@link ManifoldCache#readDeltas});
 *       then, after a second wait, the next bodies: straight into the bodies themselves where
 *       the checks found every output sound and the read cannot leave them half written
 *       ({@code Transfers.readsBlockWhole}; {@code StepOutputs.recordCommitted}), else into the job's
 *       {@code nextBodies} for the host to scan and commit. The solved points' captures, ids and normal impulses and the
 *       manifolds' vectors stay in the step's {@link RecycleSet}, which the next step recycles from:
 *       the cache fetches them only where the host reads it ({@link ManifoldCache#keepOnDevice}),
 *       and the set gives them up before it is written again or released ({@link #fetchKept}).</li>
 * </ul>
 *
 * <p>Launches: per substep one for gravity, one per colour and one for the overflow rows for the
 * warm start and for each sweep, one for the motion records; after the substeps one per colour and
 * one for the overflow for restitution, then one to finish the bodies and one for the results. A
 * colour's manifolds touch different bodies, so each colour is one launch of a work-item a manifold
 * row; the overflow rows share bodies and go on one work-item in row order, as the CPU's member 0
 * does.
 *
 * <p>Rows are not cut into chunks: a batch whose rows or points do not fit the device's largest
 * allocation, or whose indices overflow an int, fails with {@link BackendFailureException}, and the
 * caller steps it on the CPU.
 */
final class SoftStepPipeline {
    private static final System.Logger LOG = System.getLogger("io.contactsolver");
    /** Stands for a plan that matched every manifold to itself, and one whose manifolds share a fate (the version): such an array goes up once. */
    private static final Object IDENTITY_MATCH = new Object();
    private static final Object UNIFORM_FATES = new Object();
    /** The rows' first points and the contact ids, whose versions are unique to each array ({@code SoftStepJob}). */
    private static final Object ROW_POINT_STARTS = new Object();
    private static final Object CONTACT_IDS = new Object();
    private final OpenClProgram cl;
    private final Kernels kernels;
    private final DeviceMemory memory;
    private final Transfers transfers;
    private final DeviceBuffer firsts;
    private final DeviceBuffer order;
    private final DeviceBuffer slots;
    /** Each movable body's rows ({@code SoftStepJob.bodyRows}): where its entries start, and the entries. */
    private final DeviceBuffer bodyRowStarts;
    private final DeviceBuffer bodyRows;
    private final DeviceBuffer geometry;
    private final DeviceBuffer warmNormal;
    private final DeviceBuffer warmVectors;
    private final DeviceBuffer pointStart;
    private final DeviceBuffer manifolds;
    private final DeviceBuffer impulses;
    private final DeviceBuffer warmStarts;
    private final DeviceBuffer points;
    private final DeviceBuffer normal;
    private final DeviceBuffer peaks;
    private final DeviceBuffer separations;
    private final DeviceBuffer movers;
    private final DeviceBuffer state;
    private final DeviceBuffer motion;
    private final DeviceBuffer residual;
    private final DeviceBuffer nextBodies;
    private final DeviceBuffer contactIds;
    private final DeviceBuffer nonFinite;
    private final DeviceBuffer match;
    private final DeviceBuffer fates;
    private final DeviceBuffer previousOf;
    private final DeviceBuffer keptCount;
    /** Stands for the previous cache's buffers where a step has none (every manifold fresh, nothing warm). */
    private final DeviceBuffer nothing;
    /**
     * What a step leaves on the device for the next one's recycling, twice: a step writes one set
     * while it reads the other, which the step before wrote.
     */
    private final RecycleSet[] sets = new RecycleSet[2];
    /** The cache whose step left its set on the device, at the version it had then; null for none. */
    private ManifoldCache residentCache;
    private long residentVersion;
    private int residentSet;
    private int[] previousOfStaging = new int[0];
    private final DeviceBuffer bodySuspects;
    private final DeviceBuffer contactSuspects;
    private final DeviceBuffer bodySuspectCount;
    private final DeviceBuffer contactSuspectCount;
    private final DeviceBuffer screenLargest;
    private final DeviceBuffer numbers;
    private final DeviceBuffer coefficientUses;
    /** The block and count whose next state {@link #nextBodies} holds from the last step, or -1: see {@link #commit}. */
    private long stepBlock = -1;
    private int stepCount = -1;

    SoftStepPipeline(OpenClProgram cl, DeviceMemory memory) {
        this.cl = cl;
        this.kernels = cl.kernels;
        this.memory = memory;
        this.transfers = memory.transfers;
        this.firsts = memory.buffer("manifold first contacts");
        this.order = memory.buffer("manifold row order");
        this.slots = memory.buffer("manifold row slots");
        this.bodyRowStarts = memory.buffer("body row starts");
        this.bodyRows = memory.buffer("body rows");
        this.geometry = memory.buffer("solved point geometry");
        this.warmNormal = memory.buffer("solved point warm normal impulses");
        this.warmVectors = memory.buffer("manifold warm vectors");
        this.pointStart = memory.buffer("manifold row point starts");
        this.manifolds = memory.buffer("manifold rows");
        this.impulses = memory.buffer("manifold accumulated impulses");
        this.warmStarts = memory.buffer("manifold warm-start records");
        this.points = memory.buffer("manifold points");
        this.normal = memory.buffer("point normal impulses");
        this.peaks = memory.buffer("point peak impulses");
        this.separations = memory.buffer("point separations");
        this.movers = memory.buffer("manifold row motion records");
        this.state = memory.buffer("soft velocity state");
        this.motion = memory.buffer("motion records");
        this.residual = memory.buffer("soft residual");
        this.nextBodies = memory.buffer("next bodies");
        this.contactIds = memory.buffer("contact ids");
        this.nonFinite = memory.buffer("first non-finite elements");
        this.match = memory.buffer("manifold previous manifolds");
        this.fates = memory.buffer("manifold recycling fates");
        this.previousOf = memory.buffer("contact previous contacts");
        this.keptCount = memory.buffer("kept point count");
        this.nothing = memory.buffer("no previous manifolds");
        this.bodySuspects = memory.buffer("suspect bodies");
        this.contactSuspects = memory.buffer("suspect contacts");
        this.bodySuspectCount = memory.buffer("suspect body count");
        this.contactSuspectCount = memory.buffer("suspect contact count");
        this.screenLargest = memory.buffer("largest magnitudes");
        this.numbers = memory.buffer("contact manifold numbers");
        this.coefficientUses = memory.buffer("coefficients in use");
        for (int k = 0; k < sets.length; k++) {
            sets[k] = new RecycleSet(memory, k);
        }
    }

    /**
     * One step's manifold cache on the device, as the next step's recycling reads it: the solved
     * points' captures, ids and normal impulses, the manifolds' vectors and point starts, and every
     * contact's impulses as reported ({@code Recycler.report}), {@code contacts} of them.
     */
    private static final class RecycleSet {
        final DeviceBuffer captures;
        final DeviceBuffer ids;
        final DeviceBuffer normal;
        final DeviceBuffer vectors;
        final DeviceBuffer pointStart;
        final DeviceBuffer impulses;
        /** Every body's velocity change, which stays here with the impulses until the result reads it. */
        final DeviceBuffer deltas;
        int contacts;
        /**
         * The cache whose captures, ids, normal impulses and vectors this set holds in the host's
         * stead ({@link ManifoldCache#keepOnDevice}) until it is read, or null: fetched before the set
         * is written again or released.
         */
        ManifoldCache keptFor;

        RecycleSet(DeviceMemory memory, int k) {
            captures = memory.buffer("solved point captures " + k);
            ids = memory.buffer("solved point ids " + k);
            normal = memory.buffer("solved point normal impulses " + k);
            vectors = memory.buffer("manifold vectors " + k);
            pointStart = memory.buffer("manifold solved point starts " + k);
            impulses = memory.buffer("contact impulses " + k);
            deltas = memory.buffer("body deltas " + k);
        }

        /** Fetches what the set holds of {@link #keptFor} for the host (where no read has yet), before the set is reused. */
        void fetchKept() {
            if (keptFor != null) {
                keptFor.fetchFromDevice();
                keptFor = null;
            }
        }
    }

    /**
     * Fetches every cache whose arrays the device still holds for the host: before the buffers are
     * released, so that a result stepped here stays a warm start for any solver.
     */
    void fetchKept() {
        for (RecycleSet set : sets) {
            set.fetchKept();
        }
    }

    /**
     * The validator's screen of a step's batch on the device ({@code screen_bodies},
     * {@code screen_contacts}, which screens the manifolds' rules too): the bodies, contacts and
     * manifold numbers go up here, as the step then finds them
     * already there; the suspects' lists and the groups' largest sums come down after one wait, the
     * lists only where the screen found any. Null where a batch does not fit one allocation (the
     * host screens it).
     */
    InputScreen screen(FieldBlock bodyBlock, int bodyCount, FieldBlock contactBlock, FieldBlock linkBlock,
            int[] manifoldNumbers, ManifoldGrouping numbering, int contactCount, SolveMeter clock, Stage stage) {
        long widest = Math.max((long) BodyField.COUNT * bodyCount, (long) ContactField.COUNT * contactCount);
        if (widest * Sizeof.cl_float > memory.maxAllocation() || widest > Integer.MAX_VALUE) {
            return null;
        }
        stage.enter("screen");
        // a few bytes' fill first: on PoCL the contacts' upload, enqueued first after a wait, held the
        // host 2.2-3.1 ms a step of the 1M lattice, and 0.6-0.9 ms behind such a fill
        cl_mem largest = memory.zeroed(screenLargest, (long) MagnitudeGroup.COUNT * Sizeof.cl_int);
        cl_mem bodyMem = transfers.uploadBlock(memory.bodies, bodyBlock, bodyCount, BodyField.COUNT);
        cl_mem contactMem = transfers.uploadBlock(memory.contacts, contactBlock, contactCount, ContactField.COUNT);
        cl_mem linkMem = transfers.uploadBlock(memory.links, linkBlock, contactCount, ContactBody.COUNT);
        cl_mem numbersMem = contactCount == 0 ? numbers.require(Sizeof.cl_int)
                : transfers.uploadIntsUnlessHeld(numbers, manifoldNumbers, contactCount, numbering,
                        numbering.numbersVersion());
        Kernels.ScreenOutput bodiesOut = new Kernels.ScreenOutput(
                bodySuspects.require((long) Math.max(1, bodyCount) * Sizeof.cl_int),
                memory.zeroed(bodySuspectCount, Sizeof.cl_int), largest);
        Kernels.ScreenOutput contactsOut = new Kernels.ScreenOutput(
                contactSuspects.require((long) Math.max(1, contactCount) * Sizeof.cl_int),
                memory.zeroed(contactSuspectCount, Sizeof.cl_int), largest);
        kernels.screenBodies(bodyMem, bodyCount, bodyCount, bodiesOut);
        cl_mem usesMem = memory.zeroed(coefficientUses, Sizeof.cl_int);
        kernels.screenContacts(new Kernels.ContactBlock(contactMem, linkMem, contactCount), numbersMem, contactCount,
                bodyCount, contactsOut, usesMem);
        IntBuffer found = transfers.hostInts(3 + MagnitudeGroup.COUNT);
        transfers.downloadInts(bodiesOut.suspectCount(), found, 1);
        transfers.downloadInts(contactsOut.suspectCount(), found.slice(1, 1), 1);
        transfers.downloadInts(usesMem, found.slice(2 + MagnitudeGroup.COUNT, 1), 1);
        transfers.downloadInts(largest, found.slice(2, MagnitudeGroup.COUNT), MagnitudeGroup.COUNT);
        clock.lap(SolvePhase.VALIDATE);
        clFinish(cl.queue);
        clock.skip();
        int[] bodies = new int[found.get(0)];
        int[] contacts = new int[found.get(1)];
        if (bodies.length + contacts.length > 0) { // the lists, both after one more wait
            IntBuffer bodyList = suspects(bodiesOut.suspects(), bodies.length);
            IntBuffer contactList = suspects(contactsOut.suspects(), contacts.length);
            clFinish(cl.queue);
            bodyList.get(0, bodies, 0, bodies.length);
            contactList.get(0, contacts, 0, contacts.length);
        }
        float[] sums = new float[MagnitudeGroup.COUNT];
        for (int g = 0; g < sums.length; g++) {
            sums[g] = Float.intBitsToFloat(found.get(2 + g));
        }
        clock.addTransfer(transfers.bytesUp(), transfers.bytesDown());
        return new InputScreen(bodies, contacts, sums, FrictionUse.ofBits(found.get(2 + MagnitudeGroup.COUNT)));
    }

    /** A host buffer the {@code count} indices a screen listed at {@code list} are read back into (in its order), once the queue is waited for. */
    private IntBuffer suspects(cl_mem list, int count) {
        IntBuffer host = transfers.hostInts(Math.max(1, count));
        transfers.downloadInts(list, host, count);
        return host;
    }

    /**
     * Whether the device holds {@code cache} as the last step left it (its set, its version), so
     * that this step can recycle from it there.
     */
    private boolean resident(ManifoldCache cache) {
        return cache != null && cache == residentCache && cache.version() == residentVersion && cache.isValid();
    }

    IterationOutcome step(SoftStepJob job, Stage stage) {
        stepBlock = -1;
        stepCount = -1;
        stage.enter("upload");
        int bodyCount = job.bodyCount();
        int contactCount = job.contactCount();
        ContactColoring coloring = job.coloring();
        ManifoldGrouping grouping = job.manifolds();
        Recycler solved = job.points();
        int rowCount = coloring.rowCount();
        int pointCount = solved.pointCount();
        // the kernels index rows, points and records with ints: refuse (the caller steps on the CPU) what would overflow them
        long widest = Math.max(Math.max((long) ManifoldField.COUNT * rowCount, (long) PointField.COUNT * pointCount),
                Math.max((long) GeometryField.COUNT * pointCount, (long) ContactField.COUNT * contactCount));
        widest = Math.max(widest, (long) (bodyCount + DeviceMemory.WORLD_RECORD_EXTRA)
                * Math.max(MotionField.STRIDE, Math.max(PreparedBodyField.STRIDE, StateField.STRIDE)));
        if (widest > Integer.MAX_VALUE) {
            throw new BackendFailureException("a soft step of " + bodyCount + " bodies, " + rowCount + " manifolds and "
                    + pointCount + " points is too large for the device's int indices", null);
        }
        // Stepper commits the new state with the setters, which stamps X..WZ: they go up again next
        // step unless commit() has marked the device copy equal (it is: the device computed it)
        cl_mem bodyMem = transfers.uploadBlock(memory.bodies, job.bodies(), bodyCount, BodyField.COUNT);
        cl_mem preparedMem = memory.prepared.require(
                (long) (bodyCount + DeviceMemory.WORLD_RECORD_EXTRA) * PreparedBodyField.STRIDE * Sizeof.cl_float);
        cl_mem contactMem = transfers.uploadBlock(memory.contacts, job.contacts(), contactCount, ContactField.COUNT);
        cl_mem linkMem = transfers.uploadBlock(memory.links, job.links(), contactCount, ContactBody.COUNT);
        // the arrays the host made go up only where the device does not hold them as they are (their versions)
        cl_mem firstsMem = transfers.uploadIntsUnlessHeld(firsts, grouping.firsts(), rowCount + 1, grouping,
                grouping.firstsVersion());
        // the colouring's rows and the movable flags likewise, at their own versions
        cl_mem orderMem = transfers.uploadIntsUnlessHeld(order, coloring.order(), rowCount, coloring,
                coloring.version());
        cl_mem slotMem = transfers.uploadIntsUnlessHeld(slots, coloring.slots(), ContactBody.COUNT * rowCount, coloring,
                coloring.version());
        // each body's rows where the host gave them (a colouring kept from the last step): built and
        // sent once a colouring, and each substep then starts in one launch rather than one a colour
        BodyContactIndex byBody = job.bodyRows();
        cl_mem bodyRowStartMem = byBody == null ? null : transfers.uploadIntsUnlessHeld(bodyRowStarts,
                byBody.offsets(), bodyCount + 1, coloring, coloring.version());
        cl_mem bodyRowsMem = byBody == null ? null : transfers.uploadIntsUnlessHeld(bodyRows, byBody.entries(),
                byBody.entryCount(), coloring, coloring.version());
        cl_mem pointStartMem = transfers.uploadIntsUnlessHeld(pointStart, job.rowPointStarts(), rowCount + 1,
                ROW_POINT_STARTS, job.rowPointStartsVersion());
        MovableBodies flags = job.movable();
        cl_mem movableMem = memory.movableFlags(flags, bodyCount);
        cl_mem idsMem = transfers.uploadIntsUnlessHeld(contactIds, job.contactIds(), contactCount, CONTACT_IDS,
                job.contactIdsVersion());
        // the recycled points: written here from the previous step's set where the device holds it,
        // else by the host and sent, with the captures and ids the next step recycles from here
        ManifoldCache nextCache = solved.plannedCache();
        Recycler.Previous last = solved.writePending() ? solved.plannedPrevious() : null;
        boolean deviceWrites = solved.writePending() && kernels.has(Kernels.Signature.RECYCLE_MANIFOLDS)
                && (last == null || resident(last.cache()));
        RecycleSet previousSet = deviceWrites && last != null ? sets[residentSet] : null;
        int current = residentCache == null ? 0 : 1 - residentSet;
        residentCache = null; // until this step has left its set
        RecycleSet out = sets[current];
        out.fetchKept();
        if (!deviceWrites) {
            solved.write();
        }
        cl_mem solvedStartMem = transfers.uploadIntsUnlessHeld(out.pointStart, solved.pointStart(), rowCount + 1,
                solved, solved.pointStartVersion());
        cl_mem geometryMem;
        cl_mem warmNormalMem;
        cl_mem warmVectorsMem;
        cl_mem capturesMem;
        cl_mem solvedIdsMem;
        if (deviceWrites) {
            geometryMem = geometry.require((long) GeometryField.COUNT * pointCount * Sizeof.cl_float);
            warmNormalMem = warmNormal.require((long) pointCount * Sizeof.cl_float);
            warmVectorsMem = warmVectors.require((long) ManifoldVectorField.COUNT * rowCount * Sizeof.cl_float);
            capturesMem = out.captures.require((long) CaptureField.COUNT * pointCount * Sizeof.cl_float);
            solvedIdsMem = out.ids.require((long) pointCount * Sizeof.cl_int);
        } else {
            geometryMem = transfers.uploadFloats(geometry, solved.geometry(), GeometryField.COUNT * pointCount);
            warmNormalMem = transfers.uploadFloats(warmNormal, solved.warmNormal(), pointCount);
            warmVectorsMem = transfers.uploadFloats(warmVectors, solved.warmVectors(),
                    ManifoldVectorField.COUNT * rowCount);
            capturesMem = transfers.uploadDirect(out.captures, nextCache.captures(),
                    (long) CaptureField.COUNT * pointCount * Sizeof.cl_float);
            solvedIdsMem = transfers.uploadDirect(out.ids, nextCache.ids(), (long) pointCount * Sizeof.cl_int);
        }
        Kernels.RecyclePlan plan = null;
        Kernels.RecycleSource source = null;
        if (deviceWrites) {
            plan = new Kernels.RecyclePlan(idsMem, firstsMem, rowCount,
                    transfers.uploadIntsUnlessHeld(match, solved.previousManifolds(), rowCount,
                            solved.matchIsIdentity() ? IDENTITY_MATCH : null, 0),
                    transfers.uploadUnlessHeld(fates, (long) rowCount * Sizeof.cl_int,
                            solved.uniformFate() != Recycler.MIXED ? UNIFORM_FATES : null, solved.uniformFate(),
                            () -> transfers.uploadBytesAsInts(fates, solved.fates(), rowCount)),
                    solved.plannedLimit(),
                    solvedStartMem, pointCount);
            source = previousSet == null ? noPrevious(contactCount)
                    : previous(previousSet, last, job.contactIds(), contactCount);
        }
        cl_mem manifoldMem = manifolds.require((long) ManifoldField.COUNT * rowCount * Sizeof.cl_float);
        cl_mem impulseMem = impulses.require((long) ManifoldImpulse.COUNT * rowCount * Sizeof.cl_float);
        cl_mem warmMem = warmStarts.require((long) WarmStartField.COUNT * rowCount * Sizeof.cl_float);
        cl_mem pointMem = points.require((long) PointField.COUNT * pointCount * Sizeof.cl_float);
        cl_mem normalMem = normal.require((long) pointCount * Sizeof.cl_float);
        cl_mem peakMem = peaks.require((long) pointCount * Sizeof.cl_float);
        cl_mem separationMem = separations.require((long) pointCount * Sizeof.cl_float);
        cl_mem moverMem = movers.require((long) ContactBody.COUNT * rowCount * Sizeof.cl_int);
        cl_mem motionMem = motion.require(
                (long) (bodyCount + DeviceMemory.WORLD_RECORD_EXTRA) * MotionField.STRIDE * Sizeof.cl_float);
        // the small fills before the large one, which a step in balance otherwise enqueues first (see screen)
        cl_mem residualMem = memory.zeroed(residual, Sizeof.cl_int);
        cl_mem keptMem = memory.zeroed(keptCount, Sizeof.cl_int);
        cl_mem stateMem = memory.zeroed(state,
                (long) (bodyCount + DeviceMemory.WORLD_RECORD_EXTRA) * StateField.STRIDE * Sizeof.cl_float);
        cl_mem nextMem = nextBodies.require((long) SoftStepJob.BODY_STATE_FIELDS * bodyCount * Sizeof.cl_float);
        cl_mem deltaMem = out.deltas.require((long) DeltaField.COUNT * bodyCount * Sizeof.cl_float);
        cl_mem normalOutMem = out.normal.require((long) pointCount * Sizeof.cl_float);
        cl_mem vectorsOutMem = out.vectors.require((long) ManifoldVectorField.COUNT * rowCount * Sizeof.cl_float);
        cl_mem reportMem = out.impulses.require((long) ImpulseField.COUNT * contactCount * Sizeof.cl_float);

        stage.enter("kernels");
        transfers.kernelsBegin();
        Kernels.ManifoldSet rows = new Kernels.ManifoldSet(manifoldMem, rowCount, pointStartMem, slotMem, impulseMem,
                warmMem);
        Kernels.PointSet pointSet = new Kernels.PointSet(pointMem, pointCount, normalMem);
        Kernels.BodyBlock bodyBlock = new Kernels.BodyBlock(bodyMem, bodyCount, bodyCount);
        if (deviceWrites) {
            kernels.recycleManifolds(bodyBlock, movableMem, new Kernels.ContactBlock(contactMem, linkMem, contactCount),
                    plan, source, new Kernels.RecycleTarget(geometryMem, warmNormalMem, warmVectorsMem, capturesMem,
                            solvedIdsMem, keptMem));
        }
        SoftCoefficients k = job.coefficients();
        int sweeps = SoftStepSchedule.run(job, new SoftStepSchedule.Stages() {
            @Override
            public void prepareBodies() {
                memory.prepareBodies(bodyCount, new DeviceMemory.BodyMemory(bodyMem, preparedMem));
            }

            @Override
            public void prepareManifolds() {
                kernels.prepareManifolds(rowCount, new Kernels.ContactBlock(contactMem, linkMem, contactCount),
                        new Kernels.ManifoldSource(firstsMem, solvedStartMem, geometryMem, warmNormalMem,
                                warmVectorsMem),
                        orderMem, rows, pointSet, peakMem, moverMem, new Kernels.PreparedBodies(preparedMem, bodyCount),
                        job.restitution(), k);
            }

            @Override
            public void resetMotions() {
                kernels.resetMotions(bodyCount + DeviceMemory.WORLD_RECORD_EXTRA, motionMem, bodyCount);
            }

            @Override
            public void sweeps(SoftStepSchedule.SweepLoop loop) {
                loop.run(new Sweeps(job, coloring, rows, pointSet, peakMem, separationMem, moverMem,
                        new Kernels.VelocityState(stateMem, bodyCount), motionMem, bodyBlock, movableMem, residualMem,
                        bodyRowStartMem, bodyRowsMem));
            }

            @Override
            public void finishBodies() {
                kernels.finishBodies(bodyCount, bodyBlock, movableMem, stateMem, motionMem, job.gx(), job.gy(),
                        job.gz(), job.timeStep(), new Kernels.Strided(nextMem, bodyCount),
                        new Kernels.Strided(deltaMem, bodyCount));
            }

            @Override
            public void writeResults() {
                kernels.writeManifoldResults(rowCount, rows, pointSet, orderMem, solvedStartMem, normalOutMem,
                        vectorsOutMem);
            }
        });
        // every contact's impulses, asked for or not: the next step's fresh points warm start from them here
        kernels.reportContactImpulses(rowCount, firstsMem, solvedStartMem, normalOutMem, vectorsOutMem, solvedIdsMem,
                idsMem, contactCount, reportMem);
        cl_mem nonFiniteMem = check(job, reportMem, nextMem, deltaMem);
        transfers.kernelsDone();

        stage.enter("readback");
        // the impulses stay here, checked, until the result is first read (the kept cache's copy
        // reads them); they come down with the step only where a check found a fault, for the
        // host's scan to name it
        IntBuffer nonFiniteHost = transfers.hostInts(OutputChecks.COUNT);
        transfers.downloadInts(nonFiniteMem, nonFiniteHost, OutputChecks.COUNT);
        // a sound step's next state goes straight into the bodies, once the checks are back, where
        // the read changes them only when it is whole; else into nextBodies for the caller to commit
        boolean mayCommit = transfers.readsBlockWhole(bodyCount, SoftStepJob.BODY_STATE_FIELDS);
        if (!mayCommit) {
            transfers.downloadBlock(nextMem, job.nextBodies(), bodyCount, SoftStepJob.BODY_STATE_FIELDS);
        }
        FloatBuffer residualHost = transfers.hostFloats(1);
        transfers.downloadFloats(residualMem, residualHost, 0, 1);
        IntBuffer keptHost = transfers.hostInts(1);
        if (deviceWrites) {
            transfers.downloadInts(keptMem, keptHost, 1);
        }
        boolean sound = false;
        if (mayCommit) {
            job.clock().lap(SolvePhase.SOLVE);
            clFinish(cl.queue); // the checks, before the bodies' state is read anywhere
            job.clock().skip();
            sound = OutputChecks.noneFound(nonFiniteHost);
            if (sound) {
                stage.enter("commit");
            }
            transfers.downloadBlock(nextMem, sound ? job.bodies() : job.nextBodies(), bodyCount,
                    SoftStepJob.BODY_STATE_FIELDS);
        }
        memory.awaitSolve(job.clock());
        boolean resultFinite = nonFiniteHost.get(OutputChecks.IMPULSES) == OutputChecks.NONE
                && nonFiniteHost.get(OutputChecks.DELTAS) == OutputChecks.NONE;
        boolean impulsesDown = job.impulses() != null && !resultFinite;
        boolean deltasDown = job.deltas() != null && !resultFinite;
        if (impulsesDown) {
            transfers.downloadBlock(reportMem, job.impulses(), contactCount, ImpulseField.COUNT);
        }
        if (deltasDown) {
            transfers.downloadBlock(deltaMem, job.deltas(), bodyCount, DeltaField.COUNT);
        }
        if (impulsesDown || deltasDown) {
            memory.awaitReadbacks();
        }
        if (deviceWrites) {
            solved.writtenElsewhere(keptHost.get(0));
        }
        // the next step recycles from the set here: what the host keeps of it comes down only if it reads it
        nextCache.keepOnDevice(new SetCopy(cl.queue, deviceWrites ? capturesMem : null,
                deviceWrites ? solvedIdsMem : null, normalOutMem, vectorsOutMem, pointCount, rowCount, reportMem,
                contactCount, deltaMem, bodyCount, job.deltas() != null && !deltasDown ? job.deltas() : null));
        out.keptFor = nextCache;
        stepBlock = job.bodies().id();
        stepCount = bodyCount;
        out.contacts = contactCount;
        residentCache = nextCache;
        residentVersion = nextCache.version();
        residentSet = current;
        job.outputs().record(impulsesDown, resultFinite,
                nonFiniteHost.get(OutputChecks.NEXT_BODIES) == OutputChecks.NONE,
                nonFiniteHost.get(OutputChecks.ORIENTATIONS) == OutputChecks.NONE);
        if (job.impulses() != null && !impulsesDown) {
            job.outputs().recordImpulsesLeftOnDevice();
        }
        if (job.deltas() != null && !deltasDown) {
            job.outputs().recordDeltasLeftOnDevice();
        }
        if (sound) {
            job.bodies().stampWritten(SoftStepJob.BODY_STATE_FIELDS);
            job.outputs().recordCommitted();
        }
        return new IterationOutcome(sweeps, residualHost.get(0));
    }

    /**
     * A set's copy of one step's cache ({@link ManifoldCache.DeviceCopy}): the captures and ids where
     * the device wrote them (null where the host did), each point's normal impulse, each manifold's
     * vectors. Read with its own waits, outside any step's transfers and clock.
     */
    private record SetCopy(cl_command_queue queue, cl_mem captures, cl_mem ids, cl_mem normal, cl_mem vectors,
            int pointCount, int manifoldCount, cl_mem impulses, int contactCount, cl_mem deltas, int bodyCount,
            FieldBlock deltaDest) implements ManifoldCache.DeviceCopy {
        @Override
        public boolean readReportedImpulses(FieldBlock dest, int contacts) {
            return contacts == contactCount && readRowsOrWarn(impulses, contacts, ImpulseField.COUNT, dest,
                    "impulses (they are reported from its manifolds instead)");
        }

        @Override
        public boolean readDeltas(FieldBlock dest, int bodies) {
            return bodies == bodyCount && deltaDest != null && readRowsOrWarn(deltas, bodies, DeltaField.COUNT, dest,
                    "velocity changes");
        }

        /** {@link #readRows}; false, with a warning naming {@code what}, where the device fails. */
        private boolean readRowsOrWarn(cl_mem from, int count, int fields, FieldBlock dest, String what) {
            try {
                readRows(from, count, fields, dest);
                return true;
            } catch (CLException e) {
                LOG.log(System.Logger.Level.WARNING, "contact-solver: reading a step's " + what
                        + " back from the device failed: " + e.getMessage());
                return false;
            }
        }

        /** Reads {@code fields} rows of {@code count} floats, {@code count} apart here, into {@code dest}'s rows, and waits. */
        private void readRows(cl_mem from, int count, int fields, FieldBlock dest) {
            if (count > 0) {
                long rowBytes = (long) count * Sizeof.cl_float;
                clEnqueueReadBufferRect(queue, from, true, new long[3], new long[3], new long[] {rowBytes, fields, 1},
                        rowBytes, 0, (long) dest.stride() * Sizeof.cl_float, 0, Pointer.to(dest.floats()), 0, null,
                        null);
            }
        }

        @Override
        public boolean readInto(FloatBuffer capturesDest, IntBuffer idsDest, float[] normalDest, float[] vectorsDest) {
            try {
                if (captures != null) {
                    read(captures, Pointer.to(capturesDest), (long) CaptureField.COUNT * pointCount * Sizeof.cl_float,
                            false);
                    read(ids, Pointer.to(idsDest), (long) pointCount * Sizeof.cl_int, false);
                }
                if (deltaDest != null) {
                    // the result's velocity changes, which it reads from here until the set is reused
                    readRows(deltas, bodyCount, DeltaField.COUNT, deltaDest);
                }
                // into the arrays the host reads: JOCL reads into a Java array only with a blocking read,
                // which also waits for the reads before it
                read(normal, Pointer.to(normalDest), (long) pointCount * Sizeof.cl_float, true);
                read(vectors, Pointer.to(vectorsDest), (long) ManifoldVectorField.COUNT * manifoldCount
                        * Sizeof.cl_float, true);
                clFinish(queue);
                return true;
            } catch (CLException e) {
                LOG.log(System.Logger.Level.WARNING, "contact-solver: reading the manifold cache back from the device "
                        + "failed (" + e.getMessage() + "); the next step takes its contacts fresh");
                return false;
            }
        }

        private void read(cl_mem from, Pointer to, long bytes, boolean blocking) {
            if (bytes > 0) {
                clEnqueueReadBuffer(queue, from, blocking, 0, bytes, to, 0, null, null);
            }
        }
    }

    /**
     * The previous step's cache as its set holds it ({@code last.cache()} is resident), and each
     * current contact's previous contact: its own index where the ids come in the same order, else
     * sent ({@code WarmStart.previousOf}).
     */
    private Kernels.RecycleSource previous(RecycleSet set, Recycler.Previous last, int[] ids, int contactCount) {
        ManifoldCache cache = last.cache();
        int points = cache.pointCount();
        int manifoldCount = cache.manifoldCount();
        boolean sameOrder = last.matched().previousInSameOrder();
        cl_mem previousOfMem;
        if (sameOrder) {
            previousOfMem = nothing.require(Sizeof.cl_int);
        } else {
            if (previousOfStaging.length < contactCount) {
                previousOfStaging = new int[contactCount];
            }
            last.matched().previousOf(ids, 0, contactCount, previousOfStaging);
            previousOfMem = transfers.uploadInts(previousOf, previousOfStaging, contactCount);
        }
        // the sizes the set was written with: require hands back the same buffers
        return new Kernels.RecycleSource(set.captures.require((long) CaptureField.COUNT * points * Sizeof.cl_float),
                set.pointStart.require((long) (manifoldCount + 1) * Sizeof.cl_int),
                set.ids.require((long) points * Sizeof.cl_int), set.normal.require((long) points * Sizeof.cl_float),
                set.vectors.require((long) ManifoldVectorField.COUNT * manifoldCount * Sizeof.cl_float), manifoldCount,
                set.impulses.require((long) ImpulseField.COUNT * set.contacts * Sizeof.cl_float), set.contacts,
                sameOrder, previousOfMem);
    }

    /** No previous step: every manifold fresh, every point's previous contact none (-1). */
    private Kernels.RecycleSource noPrevious(int contactCount) {
        cl_mem none = nothing.require(Sizeof.cl_int);
        cl_mem previousOfMem = previousOf.require((long) Math.max(1, contactCount) * Sizeof.cl_int);
        clEnqueueFillBuffer(cl.queue, previousOfMem, Pointer.to(new int[] {-1}), Sizeof.cl_int, 0,
                (long) Math.max(1, contactCount) * Sizeof.cl_int, 0, null, null);
        return new Kernels.RecycleSource(none, none, none, none, none, 0, none, 0, false, previousOfMem);
    }

    /**
     * The lowest non-finite element of the impulses where asked for, of the deltas where asked
     * for, and of the next bodies, and the lowest next body whose orientation the screen cannot
     * clear ({@link OutputChecks}), so that the host scans only a result known to hold one.
     */
    private cl_mem check(SoftStepJob job, cl_mem reportMem, cl_mem nextMem, cl_mem deltaMem) {
        int contactCount = job.contactCount();
        int bodyCount = job.bodyCount();
        int[] none = new int[OutputChecks.COUNT];
        Arrays.fill(none, OutputChecks.NONE);
        cl_mem nonFiniteMem = transfers.uploadInts(nonFinite, none, OutputChecks.COUNT);
        if (job.impulses() != null) {
            kernels.firstNonFinite(new Kernels.Strided(reportMem, contactCount), contactCount, ImpulseField.COUNT,
                    nonFiniteMem, OutputChecks.IMPULSES);
        }
        if (job.deltas() != null) {
            kernels.firstNonFinite(new Kernels.Strided(deltaMem, bodyCount), bodyCount, DeltaField.COUNT,
                    nonFiniteMem, OutputChecks.DELTAS);
        }
        kernels.firstNonFinite(new Kernels.Strided(nextMem, bodyCount), bodyCount, SoftStepJob.BODY_STATE_FIELDS,
                nonFiniteMem, OutputChecks.NEXT_BODIES);
        kernels.firstUnsoundOrientation(new Kernels.Strided(nextMem, bodyCount), bodyCount, nonFiniteMem,
                OutputChecks.ORIENTATIONS);
        return nonFiniteMem;
    }

    /**
     * The sweeps of one step as kernels, in the order {@link SoftStepSchedule#substeps} asks for
     * them: gravity and integration one launch over the bodies, the warm start with gravity in that
     * launch where the step has each body's rows, and every sweep launched colour by colour and then
     * the overflow rows in order on one work-item, as {@code CpuBackend.sweepColours} visits them.
     */
    private final class Sweeps implements SoftStepSchedule.Sweeps {
        private final SoftStepJob job;
        private final int[] starts;
        private final int colours;
        private final int overflow;
        private final Kernels.ManifoldSet rows;
        private final Kernels.PointSet points;
        private final cl_mem peak;
        private final cl_mem separation;
        private final cl_mem movers;
        private final Kernels.VelocityState velocity;
        private final cl_mem motion;
        private final Kernels.BodyBlock bodies;
        private final cl_mem movable;
        private final SoftCoefficients k;
        private final boolean frictional;
        private final cl_mem residuals;
        /** Each movable body's rows on the device, or null where the step warms colour by colour. */
        private final cl_mem bodyRowStarts;
        private final cl_mem bodyRows;
        /** Whether the bodies moved since the last sweep: as the CPU's {@code MemberSweeps.motionMoved}. */
        private boolean motionMoved = true;

        Sweeps(SoftStepJob job, ContactColoring coloring, Kernels.ManifoldSet rows, Kernels.PointSet points,
                cl_mem peak, cl_mem separation, cl_mem movers, Kernels.VelocityState velocity, cl_mem motion,
                Kernels.BodyBlock bodies, cl_mem movable, cl_mem residuals, cl_mem bodyRowStarts, cl_mem bodyRows) {
            this.job = job;
            this.starts = coloring.colourStarts();
            this.colours = coloring.colourCount();
            this.overflow = rows.count() - starts[colours];
            this.rows = rows;
            this.points = points;
            this.peak = peak;
            this.separation = separation;
            this.movers = movers;
            this.velocity = velocity;
            this.motion = motion;
            this.bodies = bodies;
            this.movable = movable;
            this.k = job.coefficients();
            this.frictional = job.friction().any();
            this.residuals = residuals;
            this.bodyRowStarts = bodyRowStarts;
            this.bodyRows = bodyRows;
        }

        private Kernels.Span colour(int c) {
            return new Kernels.Span(starts[c], starts[c + 1] - starts[c]);
        }

        private Kernels.Span overflowRows() {
            return new Kernels.Span(starts[colours], overflow);
        }

        @Override
        public void startSubstep() {
            if (bodyRows != null) {
                kernels.startSubstep(job.bodyCount(), bodies, movable, velocity.memory(), job.gx(), job.gy(),
                        job.gz(), k.substep(), rows, bodyRowStarts, bodyRows);
                return;
            }
            kernels.applySubstepGravity(job.bodyCount(), bodies, movable, velocity.memory(), job.gx(), job.gy(),
                    job.gz(), k.substep());
            for (int c = 0; c < colours; c++) {
                kernels.warmStartManifolds(rows, velocity, colour(c), false);
            }
            if (overflow > 0) {
                kernels.warmStartManifolds(rows, velocity, overflowRows(), true);
            }
        }

        @Override
        public void solve(boolean record, boolean warmNext) {
            sweep(false, frictional && SoftStepJob.FRICTION_IN_SOFT_SWEEP, record, warmNext);
        }

        @Override
        public void integrate() {
            kernels.integrateMotions(job.bodyCount(), bodies, movable, velocity.memory(), motion, k.substep());
            motionMoved = true;
        }

        @Override
        public void relax(boolean record, boolean warmNext) {
            sweep(true, frictional, record, warmNext);
        }

        /**
         * One soft or relax sweep; with {@code record} its largest change goes into the residual,
         * with {@code warmNext} the rows' warm starts for the next substep into their records.
         */
        private void sweep(boolean relax, boolean friction, boolean record, boolean warmNext) {
            boolean find = motionMoved;
            motionMoved = false;
            for (int c = 0; c < colours; c++) {
                kernels.solveManifolds(rows, points, peak, separation, movers, velocity, motion, k, relax, friction,
                        find, colour(c), false, residuals, record, warmNext);
            }
            if (overflow > 0) {
                kernels.solveManifolds(rows, points, peak, separation, movers, velocity, motion, k, relax, friction,
                        find, overflowRows(), true, residuals, record, warmNext);
            }
        }

        @Override
        public void restitution() {
            for (int c = 0; c < colours; c++) {
                kernels.restituteManifolds(rows, points, peak, velocity, colour(c), false, residuals);
            }
            if (overflow > 0) {
                kernels.restituteManifolds(rows, points, peak, velocity, overflowRows(), true, residuals);
            }
        }
    }

    /** The slots of the step's first non-finite elements, one a result the device checks. */
    static final class OutputChecks {
        /** The slots: the impulses, the deltas, the next bodies, the next bodies' orientations (the screen's). */
        static final int IMPULSES = 0;
        static final int DELTAS = 1;
        static final int NEXT_BODIES = 2;
        static final int ORIENTATIONS = 3;
        static final int COUNT = 4;
        /** A slot's value while no element of its result is found non-finite (or it was not checked, as it was not asked for). */
        static final int NONE = Integer.MAX_VALUE;

        /** Whether no slot of the checks read back into {@code found} names an element: every output is sound. */
        static boolean noneFound(IntBuffer found) {
            for (int slot = 0; slot < COUNT; slot++) {
                if (found.get(slot) != NONE) {
                    return false;
                }
            }
            return true;
        }
    }

    /**
     * The caller has written the last step's next state into {@code block} (X through WZ, with the
     * setters, which stamp those fields): the device copy is brought to the same bits by copying the
     * next state the device computed over it, and recorded as mirroring the block, so the next step
     * sends none of it again. Does nothing (the fields then go up next step) unless the last step was
     * of this block and count, and the device copy still mirrors every other body field, as the
     * host has not written them since: a field the host writes later is stamped again and sent.
     */
    void commit(FieldBlock block, int count) {
        boolean same = stepBlock == block.id() && stepCount == count;
        stepBlock = -1;
        stepCount = -1;
        if (!same || count == 0) {
            return;
        }
        for (int f = SoftStepJob.BODY_STATE_FIELDS; f < BodyField.COUNT; f++) {
            if (!memory.bodies.mirrors(block, count, f)) {
                return;
            }
        }
        // both tight with stride count, X..WZ first: the next state is the device bodies' first fields
        long bytes = (long) SoftStepJob.BODY_STATE_FIELDS * count * Sizeof.cl_float;
        cl_mem bodies = memory.bodies.require((long) BodyField.COUNT * count * Sizeof.cl_float);
        clEnqueueCopyBuffer(cl.queue, nextBodies.require(bytes), bodies, 0, 0, bytes, 0, null, null);
        memory.bodies.recordMirror(block, count, BodyField.COUNT);
    }
}
