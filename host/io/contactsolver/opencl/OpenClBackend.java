package io.contactsolver.opencl;

import static org.jocl.CL.CL_CONTEXT_PLATFORM;
import static org.jocl.CL.CL_KERNEL_WORK_GROUP_SIZE;
import static org.jocl.CL.CL_PROGRAM_BUILD_LOG;
import static org.jocl.CL.CL_QUEUE_PROFILING_ENABLE;
import static org.jocl.CL.clBuildProgram;
import static org.jocl.CL.clCreateCommandQueue;
import static org.jocl.CL.clCreateContext;
import static org.jocl.CL.clCreateKernel;
import static org.jocl.CL.clCreateProgramWithSource;
import static org.jocl.CL.clEnqueueFillBuffer;
import static org.jocl.CL.clEnqueueNDRangeKernel;
import static org.jocl.CL.clEnqueueReadBuffer;
import static org.jocl.CL.clFinish;
import static org.jocl.CL.clGetKernelWorkGroupInfo;
import static org.jocl.CL.clGetProgramBuildInfo;
import static org.jocl.CL.clReleaseCommandQueue;
import static org.jocl.CL.clReleaseContext;
import static org.jocl.CL.clReleaseKernel;
import static org.jocl.CL.clReleaseProgram;
import static org.jocl.CL.clSetKernelArg;

import io.contactsolver.core.AccumulatedImpulse;
import io.contactsolver.core.BackendFailureException;
import io.contactsolver.core.BackendUnavailableException;
import io.contactsolver.core.BodyContactIndex;
import io.contactsolver.core.ContactColoring;
import io.contactsolver.core.ContactRowField;
import io.contactsolver.core.FieldBlock;
import io.contactsolver.core.IterationOutcome;
import io.contactsolver.core.PreparedBodyField;
import io.contactsolver.core.SolveJob;
import io.contactsolver.core.SolverBackend;
import io.contactsolver.core.StateField;
import io.contactsolver.core.TargetRule;
import io.contactsolver.layout.BodyField;
import io.contactsolver.layout.ContactBody;
import io.contactsolver.layout.ContactField;
import io.contactsolver.layout.DeltaField;
import io.contactsolver.layout.ImpulseField;
import io.contactsolver.layout.SolvePhase;
import io.contactsolver.opencl.OpenClDevices.Device;
import java.nio.FloatBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.jocl.CL;
import org.jocl.CLException;
import org.jocl.Pointer;
import org.jocl.Sizeof;
import org.jocl.cl_command_queue;
import org.jocl.cl_context;
import org.jocl.cl_context_properties;
import org.jocl.cl_device_id;
import org.jocl.cl_kernel;
import org.jocl.cl_mem;
import org.jocl.cl_program;

/**
 * The OpenCL backend: the kernels of {@code kernels/*.cl} on one device.
 *
 * <p>Device buffers are created once per solver and grow when a larger batch arrives. Inputs go up
 * as rectangular copies of the structure-of-arrays blocks (host stride = batch capacity, device
 * stride = count), skipping fields that have not been written since they last went up; the
 * host-built index or colouring goes up through staging buffers; the deltas and impulses come down
 * the same way. All copies are non-blocking and the solve waits once, at the end ({@link Transfers}).
 * An OpenCL error during a solve is reported as a {@link BackendFailureException}; the caller
 * drops this backend and recomputes on the CPU.
 */
public final class OpenClBackend implements SolverBackend {
    /** Work-group size: a power of two, as the residual reduction of {@code solve_colour} requires. */
    private static final int LOCAL_SIZE = 128;
    private static final int WORLD_RECORD_EXTRA = 1;
    /** Iterations between reading back residuals to see whether the solve has converged. */
    private static final int CONVERGENCE_CHECK = 16;
    /**
     * Residual slots on the device (the kernels' {@code RESIDUAL_SLOTS}): a ring of two windows of
     * {@link #CONVERGENCE_CHECK} iterations, so the buffer does not grow with the iteration cap.
     */
    static final int RESIDUAL_SLOTS = 2 * CONVERGENCE_CHECK;

    /** A {@code __local} kernel argument of the given size in bytes. */
    private record Local(long bytes) {
    }

    private final Device device;
    private final cl_context context;
    // not final: a constructor that fails half-way releases what it made through close()
    private cl_command_queue queue;
    private Transfers transfers;
    private cl_program program;
    private final List<cl_kernel> kernels = new ArrayList<>();
    private cl_kernel prepareBodies;
    private cl_kernel solveContacts;
    private cl_kernel gatherChunk;
    private cl_kernel prepareRows;
    private cl_kernel applyWarmStart;
    private cl_kernel solveColour;
    private cl_kernel solveOverflow;
    private cl_kernel writeStateDeltas;
    private cl_kernel scatterImpulses;
    private cl_kernel applyGravity;
    private cl_kernel integrateBodies;
    private final List<DeviceBuffer> buffers = new ArrayList<>();
    private final DeviceBuffer bodies;
    private final DeviceBuffer contacts;
    private final DeviceBuffer links;
    private final DeviceBuffer prepared;
    private final DeviceBuffer impulses;
    private final DeviceBuffer deltas;
    private final DeviceBuffer responses;
    private final DeviceBuffer offsets;
    private final DeviceBuffer entries;
    private final DeviceBuffer cursor;
    private final DeviceBuffer order;
    private final DeviceBuffer warm;
    private final DeviceBuffer state;
    private final DeviceBuffer residuals;
    /** Per chunk of rows: rows, slots, accumulated impulses. */
    private final List<DeviceBuffer[]> rowChunks = new ArrayList<>();
    private int[] slotStaging = new int[0];
    private float[] warmStaging = new float[0];
    private long maxAllocation;
    private Consumer<String> faultHook = stage -> { };
    private boolean closed;

    /**
     * Opens the device chosen by {@code selector} (see {@link OpenClDevices#select}) and builds the
     * kernels on it.
     *
     * @throws BackendUnavailableException no platform, no (matching) device, or the build failed
     * @throws LinkageError if the OpenCL library cannot be loaded
     */
    public static OpenClBackend open(Optional<String> selector) throws BackendUnavailableException {
        return open(selector, KernelSource.load());
    }

    static OpenClBackend open(Optional<String> selector, List<String> sources) throws BackendUnavailableException {
        Device device = OpenClDevices.select(OpenClDevices.list(), selector);
        return new OpenClBackend(device, sources);
    }

    @SuppressWarnings("deprecation") // clCreateCommandQueue: the 1.2 entry point works on every ICD
    private OpenClBackend(Device device, List<String> sources) throws BackendUnavailableException {
        this.device = device;
        this.maxAllocation = device.maxAllocation();
        cl_context_properties properties = new cl_context_properties();
        properties.addProperty(CL_CONTEXT_PLATFORM, device.platform());
        this.context = clCreateContext(properties, 1, new cl_device_id[] {device.id()}, null, null, null);
        try {
            this.queue = clCreateCommandQueue(context, device.id(), CL_QUEUE_PROFILING_ENABLE, null);
            this.transfers = new Transfers(queue);
            this.program = build(sources);
            this.prepareBodies = kernel("prepare_bodies");
            this.solveContacts = kernel("solve_contacts");
            this.gatherChunk = kernel("gather_chunk");
            this.prepareRows = kernel("prepare_rows");
            this.applyWarmStart = kernel("apply_warm_start");
            this.solveColour = kernel("solve_colour");
            this.solveOverflow = kernel("solve_overflow");
            this.writeStateDeltas = kernel("write_state_deltas");
            this.scatterImpulses = kernel("scatter_impulses");
            this.applyGravity = kernel("apply_gravity");
            this.integrateBodies = kernel("integrate_bodies");
        } catch (BackendUnavailableException | RuntimeException e) {
            close();
            throw e;
        }
        this.bodies = buffer("bodies");
        this.contacts = buffer("contacts");
        this.links = buffer("contact links");
        this.prepared = buffer("prepared bodies");
        this.impulses = buffer("impulses");
        this.deltas = buffer("deltas");
        this.responses = buffer("responses");
        this.offsets = buffer("index offsets");
        this.entries = buffer("index entries");
        this.cursor = buffer("index cursors");
        this.order = buffer("row order");
        this.warm = buffer("warm-start impulses");
        this.state = buffer("velocity state");
        this.residuals = buffer("residuals");
    }

    private cl_program build(List<String> sources) throws BackendUnavailableException {
        cl_program built = clCreateProgramWithSource(context, sources.size(), sources.toArray(new String[0]), null,
                null);
        try {
            clBuildProgram(built, 1, new cl_device_id[] {device.id()},
                    KernelSource.buildOptions(device.correctlyRoundedDivide()), null, null);
            return built;
        } catch (CLException e) {
            String log = buildLog(built);
            clReleaseProgram(built);
            throw new BackendUnavailableException("OpenCL kernel build failed on '" + device.name() + "' ("
                    + CL.stringFor_errorCode(e.getStatus()) + "); build log:\n" + log.strip(), e);
        }
    }

    private String buildLog(cl_program built) {
        long[] size = new long[1];
        clGetProgramBuildInfo(built, device.id(), CL_PROGRAM_BUILD_LOG, 0, null, size);
        byte[] bytes = new byte[(int) size[0]];
        clGetProgramBuildInfo(built, device.id(), CL_PROGRAM_BUILD_LOG, bytes.length, Pointer.to(bytes), null);
        return new String(bytes, StandardCharsets.UTF_8).replace("\0", "");
    }

    private cl_kernel kernel(String name) {
        cl_kernel kernel = clCreateKernel(program, name, null);
        kernels.add(kernel);
        return kernel;
    }

    private DeviceBuffer buffer(String name) {
        DeviceBuffer buffer = new DeviceBuffer(context, name, maxAllocation);
        buffers.add(buffer);
        return buffer;
    }

    public Device device() {
        return device;
    }

    @Override
    public String description() {
        return "OpenCL on '" + device.name() + "' (" + device.platformName() + ", " + device.typeName()
                + (device.correctlyRoundedDivide() ? "" : ", division not correctly rounded") + ")";
    }

    /** Test seam: runs before each stage of a solve ("upload", "kernels", "readback"). */
    void setFaultHook(Consumer<String> hook) {
        this.faultHook = hook;
    }

    /** The bodies, uploaded (only changed fields), and the prepared records they are turned into. */
    private record BodyMemory(cl_mem bodies, cl_mem prepared) {
    }

    private BodyMemory uploadBodies(SolveJob job) {
        int bodyCount = job.bodyCount();
        return new BodyMemory(transfers.uploadBlock(bodies, job.bodies(), bodyCount, BodyField.COUNT),
                prepared.require((long) (bodyCount + WORLD_RECORD_EXTRA) * PreparedBodyField.STRIDE * Sizeof.cl_float));
    }

    /**
     * The most elements of a per-contact (or per-row) array that fit the device's largest
     * allocation, for an array of {@code bytesPerElement}: batches above it go through in chunks.
     */
    private int perAllocation(long bytesPerElement) {
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, maxAllocation / bytesPerElement));
    }

    /** Test seam: pretends the device's largest allocation is {@code bytes}, to force chunking. */
    void limitAllocations(long bytes) {
        maxAllocation = bytes;
        for (DeviceBuffer buffer : buffers) {
            buffer.limit(bytes);
        }
    }

    @Override
    public void solveSinglePass(SolveJob job) {
        Stage stage = new Stage();
        try {
            stage.enter("upload");
            int bodyCount = job.bodyCount();
            int contactCount = job.contactCount();
            BodyContactIndex index = job.index();
            BodyMemory body = uploadBodies(job);
            cl_mem offsetMem = transfers.uploadInts(offsets, index.offsets(), bodyCount + 1);
            cl_mem entryMem = transfers.uploadInts(entries, index.entries(), index.entryCount());
            cl_mem cursorMem = transfers.uploadInts(cursor, index.offsets(), bodyCount);
            cl_mem deltaMem = zeroed(deltas, (long) bodyCount * DeltaField.COUNT * Sizeof.cl_float);
            int chunk = perAllocation((long) ContactBody.COUNT * DeltaField.COUNT * Sizeof.cl_float);

            stage.enter("kernels");
            transfers.kernelsBegin();
            run(prepareBodies, bodyCount + WORLD_RECORD_EXTRA, body.bodies(), bodyCount, bodyCount, body.prepared());
            for (int first = 0; first < contactCount; first += chunk) {
                int count = Math.min(chunk, contactCount - first);
                boolean whole = count == contactCount;
                cl_mem contactMem = whole ? transfers.uploadBlock(contacts, job.contacts(), count, ContactField.COUNT)
                        : transfers.uploadRange(contacts, job.contacts(), first, count, ContactField.COUNT);
                cl_mem linkMem = whole ? transfers.uploadBlock(links, job.links(), count, ContactBody.COUNT)
                        : transfers.uploadRange(links, job.links(), first, count, ContactBody.COUNT);
                cl_mem impulseMem = impulses.require((long) count * ImpulseField.COUNT * Sizeof.cl_float);
                cl_mem responseMem = responses.require(
                        (long) count * ContactBody.COUNT * DeltaField.COUNT * Sizeof.cl_float);
                TargetRule rule = job.targets();
                run(solveContacts, count, contactMem, linkMem, count, count, bodyCount, body.prepared(),
                        rule.restitutionThreshold(), rule.inverseTimeStep(), rule.biasFactor(), rule.slop(), impulseMem,
                        responseMem);
                run(gatherChunk, bodyCount, cursorMem, offsetMem, entryMem, responseMem, first * ContactBody.COUNT,
                        (first + count) * ContactBody.COUNT, bodyCount, bodyCount, deltaMem);
                downloadImpulses(impulseMem, job, first, count, count);
            }
            transfers.kernelsDone();

            stage.enter("readback");
            readResults(job, deltaMem);
        } catch (CLException e) {
            throw stage.failure(e);
        } finally {
            transfers.reset();
        }
    }

    /**
     * Reads back the impulses of contacts {@code [first, first + count)} from a device array of
     * {@code ImpulseField}s with stride {@code deviceStride}: only the fields the batch can make
     * non-zero ({@link io.contactsolver.core.FrictionUse}); the others are set to +0 on the host.
     */
    private void downloadImpulses(cl_mem memory, SolveJob job, int first, int count, int deviceStride) {
        FieldBlock host = job.impulses();
        int fields = job.friction().impulseFields();
        transfers.downloadBlock(memory, deviceStride, host, first, count, fields);
        for (int f = fields; f < ImpulseField.COUNT; f++) {
            for (int c = first; c < first + count; c++) {
                host.setFloat(f, c, 0.0f);
            }
        }
    }

    /** The device memory of one chunk of rows; a solve whose rows fit one allocation has one chunk. */
    private record RowChunk(int first, int count, cl_mem rows, cl_mem slots, cl_mem lambda) {
        int end() {
            return first + count;
        }
    }

    @Override
    public IterationOutcome solveIterative(SolveJob job) {
        Stage stage = new Stage();
        try {
            stage.enter("upload");
            int bodyCount = job.bodyCount();
            int contactCount = job.contactCount();
            ContactColoring coloring = job.coloring();
            int rowCount = coloring.rowCount();
            int worldSlot = bodyCount;
            BodyMemory body = uploadBodies(job);
            cl_mem stateMem = zeroed(state, (long) (bodyCount + 1) * StateField.STRIDE * Sizeof.cl_float);
            cl_mem residualMem = zeroed(residuals, (long) RESIDUAL_SLOTS * Sizeof.cl_int);
            cl_mem deltaMem = deltas.require((long) bodyCount * DeltaField.COUNT * Sizeof.cl_float);
            int chunkRows = perAllocation((long) ContactRowField.COUNT * Sizeof.cl_float);
            // (a row's other arrays, impulses and warm start included, are smaller than its fields)
            List<RowChunk> chunks = new ArrayList<>();
            boolean useWarm = job.warmImpulses() != null;

            stage.enter("kernels");
            transfers.kernelsBegin();
            run(prepareBodies, bodyCount + WORLD_RECORD_EXTRA, body.bodies(), bodyCount, bodyCount, body.prepared());
            for (int first = 0, k = 0; first < rowCount; first += chunkRows, k++) {
                int count = Math.min(chunkRows, rowCount - first);
                chunks.add(prepareChunk(job, k, first, count, chunkRows < rowCount, body.prepared(), useWarm));
            }
            int[] starts = coloring.colourStarts();
            int colours = coloring.colourCount();
            int overflowStart = starts[colours];
            if (useWarm) {
                for (int k = 0; k < colours; k++) {
                    forSegments(chunks, starts[k], starts[k + 1], (chunk, first, count) -> run(applyWarmStart, count,
                            chunk.rows(), chunk.count(), chunk.slots(), chunk.lambda(), stateMem, worldSlot, first,
                            count, 0));
                }
                forSegments(chunks, overflowStart, rowCount, (chunk, first, count) -> run(applyWarmStart, 1,
                        chunk.rows(), chunk.count(), chunk.slots(), chunk.lambda(), stateMem, worldSlot, first, count, 1));
            }
            int toleranceBits = Float.floatToRawIntBits(job.tolerance());
            int[] residualHost = new int[CONVERGENCE_CHECK];
            int used = job.iterations();
            int residualBits = 0;
            Local scratch = new Local((long) LOCAL_SIZE * Sizeof.cl_int);
            for (int iteration = 0; iteration < job.iterations(); iteration++) {
                int it = iteration;
                for (int k = 0; k < colours; k++) {
                    forSegments(chunks, starts[k], starts[k + 1], (chunk, first, count) -> run(solveColour, count,
                            chunk.rows(), chunk.count(), chunk.slots(), chunk.lambda(), stateMem, worldSlot, first,
                            count, residualMem, it, toleranceBits, scratch));
                }
                forSegments(chunks, overflowStart, rowCount, (chunk, first, count) -> run(solveOverflow, 1,
                        chunk.rows(), chunk.count(), chunk.slots(), chunk.lambda(), stateMem, worldSlot, first, count,
                        residualMem, it, toleranceBits));
                boolean last = iteration + 1 == job.iterations();
                if (last || (iteration + 1) % CONVERGENCE_CHECK == 0) {
                    // the window of iterations since the last check: CONVERGENCE_CHECK slots of the ring at most
                    int windowStart = iteration - iteration % CONVERGENCE_CHECK;
                    int length = iteration + 1 - windowStart;
                    clEnqueueReadBuffer(queue, residualMem, true, (long) (windowStart % RESIDUAL_SLOTS) * Sizeof.cl_int,
                            (long) length * Sizeof.cl_int, Pointer.to(residualHost), 0, null, null);
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
                        clEnqueueFillBuffer(queue, residualMem, Pointer.to(new int[] {0}), Sizeof.cl_int,
                                (long) next * Sizeof.cl_int, (long) CONVERGENCE_CHECK * Sizeof.cl_int, 0, null, null);
                    }
                }
            }
            run(writeStateDeltas, bodyCount, stateMem, bodyCount, bodyCount, deltaMem);
            FloatBuffer rowImpulses = null;
            if (chunks.size() == 1) {
                RowChunk chunk = chunks.get(0);
                cl_mem orderMem = order.require((long) rowCount * Sizeof.cl_int); // sent by prepareChunk
                cl_mem impulseMem = impulses.require((long) contactCount * ImpulseField.COUNT * Sizeof.cl_float);
                run(scatterImpulses, rowCount, chunk.rows(), rowCount, chunk.lambda(), orderMem, 0, contactCount,
                        impulseMem);
                downloadImpulses(impulseMem, job, 0, contactCount, contactCount);
            } else {
                // each chunk's impulses in its row order; the host puts them in contact order
                rowImpulses = transfers.hostFloats(rowCount * ImpulseField.COUNT);
                for (RowChunk chunk : chunks) {
                    cl_mem impulseMem = impulses.require((long) chunk.count() * ImpulseField.COUNT * Sizeof.cl_float);
                    run(scatterImpulses, chunk.count(), chunk.rows(), chunk.count(), chunk.lambda(),
                            order.require(Sizeof.cl_int), 1, chunk.count(), impulseMem);
                    transfers.downloadFloats(impulseMem, rowImpulses, chunk.first() * ImpulseField.COUNT,
                            chunk.count() * ImpulseField.COUNT);
                }
            }
            transfers.kernelsDone();

            stage.enter("readback");
            readResults(job, deltaMem);
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
            return new IterationOutcome(used, Float.intBitsToFloat(residualBits));
        } catch (CLException e) {
            throw stage.failure(e);
        } finally {
            transfers.reset();
        }
    }

    /**
     * Sends chunk {@code k} of the rows and fills it: the whole batch with the colouring's order on
     * the device, or, for a batch cut into chunks, the chunk's contacts laid out in row order by
     * the host.
     */
    private RowChunk prepareChunk(SolveJob job, int k, int first, int count, boolean cut, cl_mem preparedMem,
            boolean useWarm) {
        ContactColoring coloring = job.coloring();
        int rowCount = coloring.rowCount();
        while (rowChunks.size() <= k) {
            rowChunks.add(new DeviceBuffer[] {buffer("rows"), buffer("row slots"), buffer("accumulated impulses")});
        }
        DeviceBuffer[] memory = rowChunks.get(k);
        cl_mem rowMem = memory[0].require((long) ContactRowField.COUNT * count * Sizeof.cl_float);
        cl_mem slotMem = memory[1].require((long) ContactBody.COUNT * count * Sizeof.cl_int);
        cl_mem lambdaMem = memory[2].require((long) count * AccumulatedImpulse.COUNT * Sizeof.cl_float);
        int[] slotArray = coloring.slots();
        if (cut) {
            int[] sideSlots = slotStaging(count);
            for (int side = 0; side < ContactBody.COUNT; side++) {
                System.arraycopy(slotArray, side * rowCount + first, sideSlots, side * count, count);
            }
            transfers.uploadInts(memory[1], sideSlots, ContactBody.COUNT * count);
        } else {
            transfers.uploadInts(memory[1], slotArray, ContactBody.COUNT * rowCount);
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
            contactMem = transfers.uploadGathered(contacts, job.contacts(), rowOrder, first, count, ContactField.COUNT);
            linkMem = transfers.uploadGathered(links, job.links(), rowOrder, first, count, ContactBody.COUNT);
            warmMem = useWarm ? transfers.uploadFloats(warm, gatherWarm(job.warmImpulses(), job.contactCount(),
                    rowOrder, first, count, warmFields), count * warmFields) : warm.require(Sizeof.cl_float);
        } else {
            contactMem = transfers.uploadBlock(contacts, job.contacts(), job.contactCount(), ContactField.COUNT);
            linkMem = transfers.uploadBlock(links, job.links(), job.contactCount(), ContactBody.COUNT);
            warmMem = useWarm ? transfers.uploadFloats(warm, job.warmImpulses(), job.contactCount() * warmFields)
                    : warm.require(Sizeof.cl_float);
        }
        TargetRule rule = job.targets();
        int contactStride = cut ? count : job.contactCount();
        run(prepareRows, count, contactMem, linkMem, contactStride, orderMem, cut ? 1 : 0, count, job.bodyCount(),
                preparedMem, rule.restitutionThreshold(), rule.inverseTimeStep(), rule.biasFactor(), rule.slop(),
                warmMem, useWarm ? 1 : 0, rowMem, lambdaMem);
        return new RowChunk(first, count, rowMem, slotMem, lambdaMem);
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

    /** Work on rows {@code [first, first + count)} of one chunk, in the chunk's own numbering. */
    @FunctionalInterface
    private interface Segment {
        void run(RowChunk chunk, int first, int count);
    }

    /** Runs {@code segment} on the part of rows {@code [from, to)} in each chunk, chunks in order. */
    private static void forSegments(List<RowChunk> chunks, int from, int to, Segment segment) {
        for (RowChunk chunk : chunks) {
            int first = Math.max(from, chunk.first());
            int end = Math.min(to, chunk.end());
            if (first < end) {
                segment.run(chunk, first - chunk.first(), end - first);
            }
        }
    }

    @Override
    public long syncBodies(FieldBlock block, int count) {
        try {
            transfers.uploadBlock(bodies, block, count, BodyField.COUNT);
            clFinish(queue); // the host writes these fields next; the copies must be done reading them
            return transfers.bytesUp();
        } catch (CLException e) {
            throw new BackendFailureException(e.getMessage() + " while sending bodies", e);
        } finally {
            transfers.reset();
        }
    }

    @Override
    public void mirrorGravity(FieldBlock block, int count, float gx, float gy, float gz, float dt) {
        mirror(block, count, applyGravity, bodies.require((long) count * BodyField.COUNT * Sizeof.cl_float), count,
                count, gx, gy, gz, dt);
    }

    @Override
    public void mirrorIntegration(FieldBlock block, int count, float dt) {
        mirror(block, count, integrateBodies, bodies.require((long) count * BodyField.COUNT * Sizeof.cl_float), count,
                count, deltas.require((long) count * DeltaField.COUNT * Sizeof.cl_float), count, dt);
    }

    /** Runs an update kernel on the device copy of the bodies, which then equals the host's updated copy. */
    private void mirror(FieldBlock block, int count, cl_kernel update, Object... args) {
        try {
            run(update, count, args);
            clFinish(queue);
            bodies.recordMirror(block, count, BodyField.COUNT);
        } catch (CLException e) {
            bodies.forgetMirror();
            throw new BackendFailureException(e.getMessage() + " while updating bodies on the device", e);
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

    /** The stage a solve is in, for the failure message and the fault hook. */
    private final class Stage {
        private String name = "start";

        void enter(String next) {
            if (closed) {
                throw new IllegalStateException("OpenCL backend is closed");
            }
            name = next;
            faultHook.accept(next);
        }

        BackendFailureException failure(CLException e) {
            return new BackendFailureException(e.getMessage() + " during " + name, e);
        }
    }

    /** Reads the deltas back, waits for the whole solve, and charges the device's times to the phases. */
    private void readResults(SolveJob job, cl_mem deltaMem) {
        transfers.downloadBlock(deltaMem, job.deltas(), job.bodyCount(), DeltaField.COUNT);
        clFinish(queue);
        job.clock().skip();
        job.clock().add(SolvePhase.UPLOAD, transfers.uploadNanos());
        job.clock().add(SolvePhase.KERNELS, transfers.kernelNanos());
        job.clock().add(SolvePhase.READBACK, transfers.readbackNanos());
        job.clock().addTransfer(transfers.bytesUp(), transfers.bytesDown());
    }

    private cl_mem zeroed(DeviceBuffer target, long bytes) {
        cl_mem memory = target.require(bytes);
        if (bytes > 0) {
            clEnqueueFillBuffer(queue, memory, Pointer.to(new int[] {0}), Sizeof.cl_int, 0, bytes, 0, null, null);
        }
        return memory;
    }

    /** Sets the arguments and launches {@code workItems} work-items (rounded up to whole groups). */
    private void run(cl_kernel kernel, long workItems, Object... args) {
        if (workItems == 0) {
            return;
        }
        for (int i = 0; i < args.length; i++) {
            Object arg = args[i];
            if (arg instanceof cl_mem memory) {
                clSetKernelArg(kernel, i, Sizeof.cl_mem, Pointer.to(memory));
            } else if (arg instanceof Float value) {
                clSetKernelArg(kernel, i, Sizeof.cl_float, Pointer.to(new float[] {value}));
            } else if (arg instanceof Local local) {
                clSetKernelArg(kernel, i, local.bytes(), null);
            } else {
                clSetKernelArg(kernel, i, Sizeof.cl_int, Pointer.to(new int[] {(Integer) arg}));
            }
        }
        long[] maxLocal = new long[1];
        clGetKernelWorkGroupInfo(kernel, device.id(), CL_KERNEL_WORK_GROUP_SIZE, Sizeof.size_t, Pointer.to(maxLocal),
                null);
        long local = Long.highestOneBit(Math.max(1, Math.min(LOCAL_SIZE, maxLocal[0])));
        long global = (workItems + local - 1) / local * local;
        clEnqueueNDRangeKernel(queue, kernel, 1, null, new long[] {global}, new long[] {local}, 0, null, null);
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        List<RuntimeException> failures = new ArrayList<>();
        for (DeviceBuffer buffer : buffers) {
            attempt(buffer::close, failures);
        }
        for (cl_kernel kernel : kernels) {
            attempt(() -> clReleaseKernel(kernel), failures);
        }
        if (program != null) {
            attempt(() -> clReleaseProgram(program), failures);
        }
        if (queue != null) {
            attempt(() -> clReleaseCommandQueue(queue), failures);
        }
        attempt(() -> clReleaseContext(context), failures);
        if (!failures.isEmpty()) {
            RuntimeException first = failures.get(0);
            failures.subList(1, failures.size()).forEach(first::addSuppressed);
            throw first;
        }
    }

    private static void attempt(Runnable release, List<RuntimeException> failures) {
        try {
            release.run();
        } catch (RuntimeException e) {
            failures.add(e);
        }
    }
}
