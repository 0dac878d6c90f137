package io.contactsolver.opencl;

import static org.jocl.CL.clEnqueueCopyBuffer;

import io.contactsolver.core.AccumulatedImpulse;
import io.contactsolver.core.BackendFailureException;
import io.contactsolver.core.ContactColoring;
import io.contactsolver.core.ContactRowField;
import io.contactsolver.core.FieldBlock;
import io.contactsolver.core.FrictionUse;
import io.contactsolver.core.IterationOutcome;
import io.contactsolver.core.MotionField;
import io.contactsolver.core.MovableBodies;
import io.contactsolver.core.PreparedBodyField;
import io.contactsolver.core.SoftCoefficients;
import io.contactsolver.core.SoftRowField;
import io.contactsolver.core.SoftStepJob;
import io.contactsolver.core.StateField;
import io.contactsolver.layout.BodyField;
import io.contactsolver.layout.ContactBody;
import io.contactsolver.layout.ContactField;
import io.contactsolver.layout.DeltaField;
import io.contactsolver.layout.ImpulseField;
import java.nio.FloatBuffer;
import org.jocl.Sizeof;
import org.jocl.cl_mem;

/**
 * The soft step on the device ({@code kernels/soft_step.cl}), in the order of
 * {@code CpuBackend.softStep}: the bodies (only fields written since they last went up), contacts,
 * colouring, warm start and movable flags go up once; the rows are prepared once; then every
 * substep (gravity, warm start colour by colour, the soft sweeps, the motion records, the relax
 * sweeps) and the restitution pass run as kernels enqueued back to back, with nothing read in
 * between; the next bodies, deltas, impulses and the residual come down at the end, after one wait.
 *
 * <p>Launches: per substep one for gravity, one per colour and one for the overflow rows for the
 * warm start and for each sweep, one for the motion records; after the substeps one per colour and
 * one for the overflow for restitution, then one to finish the bodies and one for the impulses. A
 * colour's rows touch different bodies, so each colour is one launch of a work-item a row; the
 * overflow rows share bodies and go on one work-item in row order, as the CPU's member 0 does.
 *
 * <p>Rows are not cut into chunks: a batch whose rows do not fit the device's largest allocation
 * fails with {@link BackendFailureException}, and the caller steps it on the CPU.
 */
final class SoftStepPipeline {
    private final OpenClProgram cl;
    private final Kernels kernels;
    private final DeviceMemory memory;
    private final Transfers transfers;
    private final DeviceBuffer order;
    private final DeviceBuffer slots;
    private final DeviceBuffer warm;
    private final DeviceBuffer rows;
    private final DeviceBuffer lambda;
    private final DeviceBuffer soft;
    private final DeviceBuffer movers;
    private final DeviceBuffer peaks;
    private final DeviceBuffer state;
    private final DeviceBuffer motion;
    private final DeviceBuffer movable;
    private final DeviceBuffer residual;
    private final DeviceBuffer nextBodies;
    private int[] movableStaging = new int[0];
    /** The block and count whose next state {@link #nextBodies} holds from the last step, or -1: see {@link #commit}. */
    private long stepBlock = -1;
    private int stepCount = -1;

    SoftStepPipeline(OpenClProgram cl, DeviceMemory memory) {
        this.cl = cl;
        this.kernels = cl.kernels;
        this.memory = memory;
        this.transfers = memory.transfers;
        this.order = memory.buffer("soft row order");
        this.slots = memory.buffer("soft row slots");
        this.warm = memory.buffer("soft warm-start impulses");
        this.rows = memory.buffer("soft rows");
        this.lambda = memory.buffer("soft accumulated impulses");
        this.soft = memory.buffer("soft row fields");
        this.movers = memory.buffer("soft row motion records");
        this.peaks = memory.buffer("soft peak impulses");
        this.state = memory.buffer("soft velocity state");
        this.motion = memory.buffer("motion records");
        this.movable = memory.buffer("movable flags");
        this.residual = memory.buffer("soft residual");
        this.nextBodies = memory.buffer("next bodies");
    }

    IterationOutcome step(SoftStepJob job, Stage stage) {
        throw new BackendFailureException("WIP: manifold soft step not on the device yet", null);
    }

    /** What every soft and relax sweep of one step works on: only whether it relaxes and records changes. */
    private record SoftSweep(ContactColoring coloring, Kernels.RowSet rows, cl_mem soft, cl_mem movers,
            Kernels.VelocityState velocity, cl_mem motion, SoftCoefficients k, boolean frictional, cl_mem peak,
            cl_mem residuals) {
    }

    /** One soft or relax sweep: each colour in parallel, then the overflow rows in order on one work-item. */
    private void sweep(SoftSweep s, boolean relax, boolean record) {
        int[] starts = s.coloring().colourStarts();
        int colours = s.coloring().colourCount();
        for (int c = 0; c < colours; c++) {
            kernels.softSweep(s.rows(), s.soft(), s.movers(), s.velocity(), s.motion(), s.k(), relax, s.frictional(),
                    s.peak(), new Kernels.Span(starts[c], starts[c + 1] - starts[c]), false, s.residuals(), record);
        }
        int overflow = s.rows().count() - starts[colours];
        if (overflow > 0) {
            kernels.softSweep(s.rows(), s.soft(), s.movers(), s.velocity(), s.motion(), s.k(), relax, s.frictional(),
                    s.peak(), new Kernels.Span(starts[colours], overflow), true, s.residuals(), record);
        }
    }

    /** The movable flags of the first {@code count} bodies as the kernels take them: 1 or 0 a body. */
    private int[] movableFlags(MovableBodies bodies, int count) {
        if (movableStaging.length < count) {
            movableStaging = new int[count];
        }
        for (int i = 0; i < count; i++) {
            movableStaging[i] = bodies.isMovable(i) ? 1 : 0;
        }
        return movableStaging;
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
