package io.contactsolver.opencl;

import static org.jocl.CL.clEnqueueFillBuffer;
import static org.jocl.CL.clFinish;

import io.contactsolver.core.FieldBlock;
import io.contactsolver.core.MovableBodies;
import io.contactsolver.core.PreparedBodyField;
import io.contactsolver.core.SolveJob;
import io.contactsolver.core.SolveMeter;
import io.contactsolver.layout.BodyField;
import io.contactsolver.layout.DeltaField;
import io.contactsolver.layout.SolvePhase;
import java.util.ArrayList;
import java.util.List;
import org.jocl.Pointer;
import org.jocl.Sizeof;
import org.jocl.cl_mem;

/**
 * The device buffers the solvers share (bodies, their prepared records, contacts, deltas,
 * impulses) and what every pipeline does with them: send the bodies, read the results back, charge
 * the device's times to the solve's phases. Buffers are created once and grow when a larger batch
 * arrives; a batch larger than the device's largest allocation goes through in chunks
 * ({@link #perAllocation}).
 */
final class DeviceMemory implements AutoCloseable {
    /** The all-zero record after the last body that stands for the world. */
    static final int WORLD_RECORD_EXTRA = 1;

    private final OpenClProgram cl;
    final Transfers transfers;
    private final List<DeviceBuffer> buffers = new ArrayList<>();
    private long maxAllocation;
    private int[] movableStaging = new int[0];
    /** The bodies' movable flags, as the soft step's kernels and the colouring's read them. */
    private final DeviceBuffer movable;
    final DeviceBuffer bodies;
    final DeviceBuffer prepared;
    final DeviceBuffer contacts;
    final DeviceBuffer links;
    final DeviceBuffer impulses;
    final DeviceBuffer deltas;

    DeviceMemory(OpenClProgram cl) {
        this.cl = cl;
        this.transfers = new Transfers(cl.context, cl.queue, OpenClDevices.isOffload(cl.device));
        this.maxAllocation = cl.device.maxAllocation();
        this.bodies = buffer("bodies");
        this.prepared = buffer("prepared bodies");
        this.contacts = buffer("contacts");
        this.links = buffer("contact links");
        this.impulses = buffer("impulses");
        this.deltas = buffer("deltas");
        this.movable = buffer("movable flags");
    }

    /**
     * The movable flags of the first {@code count} bodies on the device, as the kernels take them (1
     * or 0 a body): sent only where the device does not hold them at {@code flags}' version, so the
     * soft step and the colouring share one copy.
     */
    cl_mem movableFlags(MovableBodies flags, int count) {
        return transfers.uploadUnlessHeld(movable, (long) count * Sizeof.cl_int, flags, flags.version(), () -> {
            if (movableStaging.length < count) {
                movableStaging = new int[count];
            }
            for (int i = 0; i < count; i++) {
                movableStaging[i] = flags.isMovable(i) ? 1 : 0;
            }
            return transfers.uploadInts(movable, movableStaging, count);
        });
    }

    /** The device's largest allocation, bytes. */
    long maxAllocation() {
        return maxAllocation;
    }

    /** A new device buffer, released with the others. */
    DeviceBuffer buffer(String name) {
        DeviceBuffer buffer = new DeviceBuffer(cl.context, name, maxAllocation);
        buffers.add(buffer);
        return buffer;
    }

    /** The bodies on the device and the prepared records they are turned into. */
    record BodyMemory(cl_mem bodies, cl_mem prepared) {
    }

    /** Sends the bodies: only the fields written since they last went up. */
    BodyMemory uploadBodies(SolveJob job) {
        int bodyCount = job.bodyCount();
        return new BodyMemory(transfers.uploadBlock(bodies, job.bodies(), bodyCount, BodyField.COUNT),
                prepared.require((long) (bodyCount + WORLD_RECORD_EXTRA) * PreparedBodyField.STRIDE * Sizeof.cl_float));
    }

    /** Turns the bodies into their prepared records, the world's after them. */
    void prepareBodies(int bodyCount, BodyMemory body) {
        cl.kernels.prepareBodies(bodyCount + WORLD_RECORD_EXTRA, new Kernels.BodyBlock(body.bodies(), bodyCount,
                bodyCount), body.prepared());
    }

    /**
     * The most elements of a per-contact (or per-row) array that fit the device's largest
     * allocation, for an array of {@code bytesPerElement}: batches above it go through in chunks.
     */
    int perAllocation(long bytesPerElement) {
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, maxAllocation / bytesPerElement));
    }

    /** Test seam: pretends the device's largest allocation is {@code bytes}, to force chunking. */
    void limitAllocations(long bytes) {
        maxAllocation = bytes;
        for (DeviceBuffer buffer : buffers) {
            buffer.limit(bytes);
        }
    }

    /** {@code target} with at least {@code bytes}, the first {@code bytes} set to 0. */
    cl_mem zeroed(DeviceBuffer target, long bytes) {
        cl_mem memory = target.require(bytes);
        target.forgetHeld();
        if (bytes > 0) {
            clEnqueueFillBuffer(cl.queue, memory, Pointer.to(new int[] {0}), Sizeof.cl_int, 0, bytes, 0, null, null);
        }
        return memory;
    }

    /**
     * Reads back the impulses of contacts {@code [first, first + count)} from a device array of
     * {@code ImpulseField}s with stride {@code deviceStride}: only the fields the batch can make
     * non-zero ({@link io.contactsolver.core.FrictionUse}); the others are set to +0 on the host.
     */
    void downloadImpulses(cl_mem memory, SolveJob job, int first, int count, int deviceStride) {
        FieldBlock host = job.impulses();
        transfers.downloadBlock(memory, deviceStride, host, first, count, job.friction().impulseFields());
        job.friction().zeroUnusedImpulses(host, first, first + count);
    }

    /** Reads the deltas back, waits for the whole solve, and charges the device's times to the phases. */
    void readResults(SolveJob job, cl_mem deltaMem) {
        transfers.downloadBlock(deltaMem, job.deltas(), job.bodyCount(), DeltaField.COUNT);
        awaitSolve(job.clock());
    }

    /**
     * Charges the host's time since its last stage to {@link SolvePhase#SOLVE} (its enqueueing),
     * waits for everything enqueued (a wait charged to no phase), copies what came back through
     * staging out to its blocks (charged to the phase the host laps next), then charges the device's times,
     * copies to {@link SolvePhase#TRANSFER} and kernels to {@link SolvePhase#SOLVE}, and the bytes
     * moved to {@code clock}.
     */
    void awaitSolve(SolveMeter clock) {
        clock.lap(SolvePhase.SOLVE);
        clFinish(cl.queue);
        clock.skip();
        transfers.finishReadbacks();
        clock.addDevice(SolvePhase.TRANSFER, transfers.uploadNanos() + transfers.readbackNanos());
        clock.addDevice(SolvePhase.SOLVE, transfers.kernelNanos());
        clock.addTransfer(transfers.bytesUp(), transfers.bytesDown());
    }

    /**
     * Waits for readbacks enqueued after {@link #awaitSolve} (a faulted step's impulses and deltas,
     * for the host's scan to name the fault) and copies them out of staging; their time is the step's own.
     */
    void awaitReadbacks() {
        clFinish(cl.queue);
        transfers.finishReadbacks();
    }

    @Override
    public void close() {
        List<RuntimeException> failures = new ArrayList<>();
        OpenClProgram.attempt(transfers::close, failures);
        for (DeviceBuffer buffer : buffers) {
            OpenClProgram.attempt(buffer::close, failures);
        }
        if (!failures.isEmpty()) {
            RuntimeException first = failures.get(0);
            failures.subList(1, failures.size()).forEach(first::addSuppressed);
            throw first;
        }
    }
}
