package io.contactsolver.opencl;

import static org.jocl.CL.clEnqueueFillBuffer;
import static org.jocl.CL.clEnqueueReadBuffer;

import io.contactsolver.core.AccumulatedImpulse;
import io.contactsolver.core.ContactColoring;
import io.contactsolver.core.ContactRowField;
import io.contactsolver.core.FieldBlock;
import io.contactsolver.core.IterationOutcome;
import io.contactsolver.core.IterativeJob;
import io.contactsolver.core.StateField;
import io.contactsolver.core.TargetRule;
import io.contactsolver.layout.ContactBody;
import io.contactsolver.layout.ContactField;
import io.contactsolver.layout.DeltaField;
import io.contactsolver.layout.ImpulseField;
import io.contactsolver.layout.SolvePhase;
import java.nio.FloatBuffer;
import java.util.ArrayList;
import java.util.List;
import org.jocl.Pointer;
import org.jocl.Sizeof;
import org.jocl.cl_mem;

/**
 * The iterative solver on the device ({@code kernels/iterative.cl}): rows prepared in colour
 * order, then either, for a batch small enough for the device's {@link LaunchPolicy}, the warm start and
 * every iteration in one launch of one work-group, or the warm start and, per iteration, one launch
 * per colour and one for the overflow rows, with the residual of each iteration kept in a small
 * ring the host reads a window at a time to stop where the CPU stops. Rows beyond the device's
 * largest allocation go in chunks, laid out in row order by the host.
 */
final class IterativePipeline {
    /** Iterations between reading back residuals to see whether the solve has converged. */
    static final int CONVERGENCE_CHECK = 16;
    /**
     * On a CPU device, batches of at most this many rows are solved by one work-group in one launch
     * ({@link LaunchPolicy}): there a launch's fixed cost dominates a small batch, so below this
     * size two launches a colour an iteration cost more than the one group's lack of parallel
     * width: on PoCL, on the main job's heap, 21.6 ns per contact-iteration in one launch against
     * 73.7 with two launches a colour, frictionless (the bench's iteration-cost table, whose command
     * is in docs/performance.md, "Iteration cost").
     */
    static final int SMALL_BATCH_ROWS = 32_768;
    /**
     * Residual slots on the device (the kernels' {@code RESIDUAL_SLOTS}): a ring of two windows of
     * {@link #CONVERGENCE_CHECK} iterations, so the buffer does not grow with the iteration cap.
     */
    static final int RESIDUAL_SLOTS = 2 * CONVERGENCE_CHECK;

    private final OpenClProgram cl;
    private final LaunchPolicy launch;
    private final Kernels kernels;
    private final DeviceMemory memory;
    private final Transfers transfers;
    private final DeviceBuffer order;
    private final DeviceBuffer warm;
    private final DeviceBuffer state;
    private final DeviceBuffer residuals;
    private final DeviceBuffer colourStarts;
    private final DeviceBuffer smallBatchOutcome;
    /** Per chunk of rows: rows, slots, accumulated impulses. */
    private final List<DeviceBuffer[]> rowChunks = new ArrayList<>();
    private int[] slotStaging = new int[0];
    private float[] warmStaging = new float[0];

    IterativePipeline(OpenClProgram cl, DeviceMemory memory) {
        this.cl = cl;
        this.launch = LaunchPolicy.forDevice(cl.device);
        this.kernels = cl.kernels;
        this.memory = memory;
        this.transfers = memory.transfers;
        this.order = memory.buffer("row order");
        this.warm = memory.buffer("warm-start impulses");
        this.state = memory.buffer("velocity state");
        this.residuals = memory.buffer("residuals");
        this.colourStarts = memory.buffer("colour starts");
        this.smallBatchOutcome = memory.buffer("solve outcome");
    }

    /** The device memory of one chunk of rows; a solve whose rows fit one allocation has one chunk. */
    private record RowChunk(int first, Kernels.RowSet rows) {
        int count() {
            return rows.count();
        }

        int end() {
            return first + count();
        }
    }

    IterationOutcome solve(IterativeJob job, Stage stage) {
        stage.enter("upload");
        int bodyCount = job.bodyCount();
        int contactCount = job.contactCount();
        ContactColoring coloring = job.coloring();
        int rowCount = coloring.rowCount();
        int worldSlot = bodyCount;
        DeviceMemory.BodyMemory body = memory.uploadBodies(job);
        cl_mem stateMem = memory.zeroed(state, (long) (bodyCount + 1) * StateField.STRIDE * Sizeof.cl_float);
        cl_mem deltaMem = memory.deltas.require((long) bodyCount * DeltaField.COUNT * Sizeof.cl_float);
        int chunkRows = memory.perAllocation((long) ContactRowField.COUNT * Sizeof.cl_float);
        // (a row's other arrays, impulses and warm start included, are smaller than its fields)
        List<RowChunk> chunks = new ArrayList<>();
        boolean useWarm = job.warmImpulses() != null;
        Kernels.TwistStage twist = new Kernels.TwistStage(job.friction().torsion());

        stage.enter("kernels");
        transfers.kernelsBegin();
        memory.prepareBodies(bodyCount, body);
        for (int first = 0, k = 0; first < rowCount; first += chunkRows, k++) {
            int count = Math.min(chunkRows, rowCount - first);
            chunks.add(prepareChunk(job, k, first, count, chunkRows < rowCount, body.prepared(), useWarm));
        }
        IterationOutcome outcome;
        if (launch.oneGroup(rowCount, chunks.size())) {
            // one launch for the whole solve; its outcome read back once
            RowChunk chunk = chunks.get(0);
            int colours = coloring.colourCount();
            cl_mem startsMem = transfers.uploadInts(colourStarts, coloring.colourStarts(), colours + 1);
            cl_mem outcomeMem = smallBatchOutcome.require(2L * Sizeof.cl_int);
            kernels.solveSmallBatch(chunk.rows(), twist, new Kernels.VelocityState(stateMem, worldSlot),
                    new Kernels.ColourStarts(startsMem, colours), useWarm, job.iterations(), job.tolerance(),
                    outcomeMem);
            int[] result = new int[2];
            job.clock().lap(SolvePhase.SOLVE); // the blocking read waits for the device: charged to no phase
            clEnqueueReadBuffer(cl.queue, outcomeMem, true, 0, 2L * Sizeof.cl_int, Pointer.to(result), 0, null,
                    null);
            job.clock().skip();
            outcome = new IterationOutcome(result[0], Float.intBitsToFloat(result[1]));
        } else {
            outcome = iterateByColour(job, chunks, twist, stateMem, useWarm);
        }
        kernels.writeStateDeltas(bodyCount, stateMem, bodyCount, new Kernels.Strided(deltaMem, bodyCount));
        FloatBuffer rowImpulses = null;
        if (chunks.size() == 1) {
            RowChunk chunk = chunks.get(0);
            cl_mem orderMem = order.require((long) rowCount * Sizeof.cl_int); // sent by prepareChunk
            cl_mem impulseMem = memory.impulses.require((long) contactCount * ImpulseField.COUNT * Sizeof.cl_float);
            kernels.scatterImpulses(rowCount, chunk.rows(), twist, new Kernels.RowOrder(orderMem, false),
                    new Kernels.Strided(impulseMem, contactCount));
            memory.downloadImpulses(impulseMem, job, 0, contactCount, contactCount);
        } else {
            // each chunk's impulses in its row order; the host puts them in contact order
            rowImpulses = transfers.hostFloats(rowCount * ImpulseField.COUNT);
            for (RowChunk chunk : chunks) {
                cl_mem impulseMem = memory.impulses.require((long) chunk.count() * ImpulseField.COUNT * Sizeof.cl_float);
                kernels.scatterImpulses(chunk.count(), chunk.rows(), twist,
                        new Kernels.RowOrder(order.require(Sizeof.cl_int), true),
                        new Kernels.Strided(impulseMem, chunk.count()));
                transfers.downloadFloats(impulseMem, rowImpulses, chunk.first() * ImpulseField.COUNT,
                        chunk.count() * ImpulseField.COUNT);
            }
        }
        transfers.kernelsDone();

        stage.enter("readback");
        memory.readResults(job, deltaMem);
        if (rowImpulses != null) {
            int[] rowOrder = coloring.order();
            FieldBlock out = job.impulses();
            for (RowChunk chunk : chunks) {
                int base = chunk.first() * ImpulseField.COUNT;
                for (int f = 0; f < ImpulseField.COUNT; f++) {
                    for (int r = 0; r < chunk.count(); r++) {
                        out.setFloat(f, rowOrder[chunk.first() + r], rowImpulses.get(base + f * chunk.count() + r));
                    }
                }
            }
        }
        return outcome;
    }

    /**
     * The iterations as a kernel per colour (and one for the overflow) an iteration, the residuals
     * read back every {@link #CONVERGENCE_CHECK} iterations.
     */
    private IterationOutcome iterateByColour(IterativeJob job, List<RowChunk> chunks, Kernels.TwistStage twist,
            cl_mem stateMem, boolean useWarm) {
        cl_mem residualMem = memory.zeroed(residuals, (long) RESIDUAL_SLOTS * Sizeof.cl_int);
        ContactColoring coloring = job.coloring();
        int rowCount = coloring.rowCount();
        Kernels.VelocityState velocity = new Kernels.VelocityState(stateMem, job.bodyCount());
        int[] starts = coloring.colourStarts();
        int colours = coloring.colourCount();
        int overflowStart = starts[colours];
        if (useWarm) {
            for (int k = 0; k < colours; k++) {
                forSegments(chunks, starts[k], starts[k + 1], (chunk, span) -> kernels.applyWarmStart(span.count(),
                        chunk.rows(), twist, velocity, span, false));
            }
            forSegments(chunks, overflowStart, rowCount, (chunk, span) -> kernels.applyWarmStart(1, chunk.rows(),
                    twist, velocity, span, true));
        }
        int[] residualHost = new int[CONVERGENCE_CHECK];
        int used = job.iterations();
        int residualBits = 0;
        for (int iteration = 0; iteration < job.iterations(); iteration++) {
            int it = iteration;
            for (int k = 0; k < colours; k++) {
                forSegments(chunks, starts[k], starts[k + 1], (chunk, span) -> kernels.solveColour(span.count(),
                        chunk.rows(), twist, velocity, span, residualMem, it, job.tolerance()));
            }
            forSegments(chunks, overflowStart, rowCount, (chunk, span) -> kernels.solveOverflow(chunk.rows(),
                    twist, velocity, span, residualMem, it, job.tolerance()));
            boolean last = iteration + 1 == job.iterations();
            if (last || (iteration + 1) % CONVERGENCE_CHECK == 0) {
                // the window of iterations since the last check: CONVERGENCE_CHECK slots of the ring at most
                int windowStart = iteration - iteration % CONVERGENCE_CHECK;
                int length = iteration + 1 - windowStart;
                job.clock().lap(SolvePhase.SOLVE); // the blocking read waits for the device: charged to no phase
                clEnqueueReadBuffer(cl.queue, residualMem, true, (long) (windowStart % RESIDUAL_SLOTS) * Sizeof.cl_int,
                        (long) length * Sizeof.cl_int, Pointer.to(residualHost), 0, null, null);
                job.clock().skip();
                int converged = firstConverged(residualHost, length, job.tolerance());
                if (converged >= 0) {
                    used = windowStart + converged + 1;
                    residualBits = residualHost[converged];
                    break;
                }
                residualBits = residualHost[length - 1];
                if (!last) {
                    // the next window's slots held the window before this one, read back already
                    int next = (windowStart + CONVERGENCE_CHECK) % RESIDUAL_SLOTS;
                    clEnqueueFillBuffer(cl.queue, residualMem, Pointer.to(new int[] {0}), Sizeof.cl_int,
                            (long) next * Sizeof.cl_int, (long) CONVERGENCE_CHECK * Sizeof.cl_int, 0, null, null);
                }
            }
        }
        return new IterationOutcome(used, Float.intBitsToFloat(residualBits));
    }

    /**
     * Sends chunk {@code k} of the rows and fills it: the whole batch with the colouring's order on
     * the device, or, for a batch cut into chunks, the chunk's contacts laid out in row order by
     * the host.
     */
    private RowChunk prepareChunk(IterativeJob job, int k, int first, int count, boolean cut, cl_mem preparedMem,
            boolean useWarm) {
        ContactColoring coloring = job.coloring();
        int rowCount = coloring.rowCount();
        while (rowChunks.size() <= k) {
            rowChunks.add(new DeviceBuffer[] {memory.buffer("rows"), memory.buffer("row slots"),
                memory.buffer("accumulated impulses")});
        }
        DeviceBuffer[] chunkMemory = rowChunks.get(k);
        cl_mem rowMem = chunkMemory[0].require((long) ContactRowField.COUNT * count * Sizeof.cl_float);
        cl_mem slotMem = chunkMemory[1].require((long) ContactBody.COUNT * count * Sizeof.cl_int);
        cl_mem lambdaMem = chunkMemory[2].require((long) count * AccumulatedImpulse.COUNT * Sizeof.cl_float);
        int[] slotArray = coloring.slots();
        if (cut) {
            int[] sideSlots = slotStaging(count);
            for (int side = 0; side < ContactBody.COUNT; side++) {
                System.arraycopy(slotArray, side * rowCount + first, sideSlots, side * count, count);
            }
            transfers.uploadInts(chunkMemory[1], sideSlots, ContactBody.COUNT * count);
        } else {
            transfers.uploadInts(chunkMemory[1], slotArray, ContactBody.COUNT * rowCount);
        }
        int[] rowOrder = coloring.order();
        cl_mem contactMem;
        cl_mem linkMem;
        cl_mem warmMem;
        // the kernel reads a contact's friction or rolling warm start only where it has friction or rolling
        int warmFields = job.friction().impulseFields();
        // cut: the host lays the contacts out in row order and the kernel needs no order
        cl_mem orderMem = cut ? order.require(Sizeof.cl_int) : transfers.uploadInts(order, rowOrder, first, count);
        if (cut) {
            contactMem = transfers.uploadGathered(memory.contacts, job.contacts(), rowOrder, first, count,
                    ContactField.COUNT);
            linkMem = transfers.uploadGathered(memory.links, job.links(), rowOrder, first, count, ContactBody.COUNT);
            warmMem = useWarm ? transfers.uploadFloats(warm, gatherWarm(job.warmImpulses(), job.contactCount(),
                    rowOrder, first, count, warmFields), count * warmFields) : warm.require(Sizeof.cl_float);
        } else {
            contactMem = transfers.uploadBlock(memory.contacts, job.contacts(), job.contactCount(),
                    ContactField.COUNT);
            linkMem = transfers.uploadBlock(memory.links, job.links(), job.contactCount(), ContactBody.COUNT);
            warmMem = useWarm ? transfers.uploadFloats(warm, job.warmImpulses(), job.contactCount() * warmFields)
                    : warm.require(Sizeof.cl_float);
        }
        TargetRule rule = job.targets();
        int contactStride = cut ? count : job.contactCount();
        Kernels.RowSet rows = new Kernels.RowSet(rowMem, count, slotMem, lambdaMem);
        kernels.prepareRows(count, new Kernels.ContactBlock(contactMem, linkMem, contactStride),
                new Kernels.RowOrder(orderMem, cut), new Kernels.PreparedBodies(preparedMem, job.bodyCount()), rule,
                job.friction().any(), warmMem, useWarm, rows);
        return new RowChunk(first, rows);
    }

    private int[] slotStaging(int count) {
        if (slotStaging.length < ContactBody.COUNT * count) {
            slotStaging = new int[ContactBody.COUNT * count];
        }
        return slotStaging;
    }

    /** The first {@code fields} warm-start impulses of rows {@code [first, first + count)}, in row order, with the chunk's stride. */
    private float[] gatherWarm(float[] warmImpulses, int contactCount, int[] rowOrder, int first, int count,
            int fields) {
        if (warmStaging.length < count * fields) {
            warmStaging = new float[count * fields];
        }
        for (int f = 0; f < fields; f++) {
            for (int r = 0; r < count; r++) {
                warmStaging[f * count + r] = warmImpulses[f * contactCount + rowOrder[first + r]];
            }
        }
        return warmStaging;
    }

    /** Work on the rows of {@code span} of one chunk, in the chunk's own numbering. */
    @FunctionalInterface
    private interface Segment {
        void run(RowChunk chunk, Kernels.Span span);
    }

    /** Runs {@code segment} on the part of rows {@code [from, to)} in each chunk, chunks in order. */
    private static void forSegments(List<RowChunk> chunks, int from, int to, Segment segment) {
        for (RowChunk chunk : chunks) {
            int first = Math.max(from, chunk.first());
            int end = Math.min(to, chunk.end());
            if (first < end) {
                segment.run(chunk, new Kernels.Span(first - chunk.first(), end - first));
            }
        }
    }

    /** The first iteration whose residual met the tolerance, or -1: the iteration the CPU stops after. */
    private static int firstConverged(int[] residualBits, int count, float tolerance) {
        for (int i = 0; i < count; i++) {
            if (Float.intBitsToFloat(residualBits[i]) <= tolerance) {
                return i;
            }
        }
        return -1;
    }
}
