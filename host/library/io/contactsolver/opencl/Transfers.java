package io.contactsolver.opencl;

import static org.jocl.CL.CL_MAP_READ;
import static org.jocl.CL.CL_MAP_WRITE;
import static org.jocl.CL.CL_MEM_ALLOC_HOST_PTR;
import static org.jocl.CL.CL_MEM_READ_WRITE;
import static org.jocl.CL.CL_PROFILING_COMMAND_END;
import static org.jocl.CL.CL_PROFILING_COMMAND_START;
import static org.jocl.CL.clCreateBuffer;
import static org.jocl.CL.clEnqueueMapBuffer;
import static org.jocl.CL.clEnqueueMarkerWithWaitList;
import static org.jocl.CL.clEnqueueReadBuffer;
import static org.jocl.CL.clEnqueueReadBufferRect;
import static org.jocl.CL.clEnqueueUnmapMemObject;
import static org.jocl.CL.clEnqueueWriteBuffer;
import static org.jocl.CL.clEnqueueWriteBufferRect;
import static org.jocl.CL.clGetEventProfilingInfo;
import static org.jocl.CL.clReleaseEvent;
import static org.jocl.CL.clReleaseMemObject;

import io.contactsolver.core.FieldBlock;
import io.contactsolver.core.ParallelRunner;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.util.ArrayList;
import java.util.List;
import org.jocl.CLException;
import org.jocl.Pointer;
import org.jocl.Sizeof;
import org.jocl.cl_command_queue;
import org.jocl.cl_context;
import org.jocl.cl_event;
import org.jocl.cl_mem;

/**
 * The host-device copies of one solve. All are non-blocking (the solve waits once, at its end),
 * straight from direct, native-order buffers: the batches' own storage, or a staging buffer for
 * arrays the host builds per solve. Each copy and the kernel span carry a profiling event, so
 * upload, kernel and readback times are the device's own, read after the solve.
 *
 * <p>For a GPU or an accelerator, staging buffers are pinned: host memory the OpenCL runtime
 * allocates ({@code CL_MEM_ALLOC_HOST_PTR}), mapped once and kept mapped, so that the device copies
 * it over PCIe by DMA without its driver first copying it again into pinned memory of its own, and
 * the host does not wait for that copy; where such memory cannot be had, a plain direct buffer
 * stands in. There too, the solver's threads copy arrays of megabytes into staging and out of it
 * in ranges, once lent ({@link #shareThreads}). A CPU device's "copy" is a memcpy by its runtime's
 * own threads on the same cores, which pinning does not spare and splitting competes with (on PoCL
 * the host's share of a 1,000,000-contact soft step was 23.3-26.4 ms before either, 23.1-27.8
 * pinned, 26.8-36.4 pinned and split), so there staging is plain direct buffers on one thread.
 * For a GPU the bodies' and contacts' blocks go up through staging too, and the result blocks come
 * back through it, copied out on the same threads after the wait: the DMA from and to pageable
 * memory ran at 6-15 GB/s on an H200 (docs/bench/gpu-nvidia-h200.txt), and a failed solve then
 * leaves the result blocks as they were. For a CPU device blocks go straight from and into their
 * own storage, and the results the host reads in place.
 */
final class Transfers implements AutoCloseable {
    /**
     * Elements a thread copies into or out of a staging buffer at least: a copy runs at 6-7 GB/s
     * on one core (100 MB in 14.5 ms on the development VM, 7.8 ms on its two), so only arrays of
     * megabytes are worth splitting.
     */
    private static final int COPY_GRAIN = 1 << 18;
    /**
     * The largest run of a block's fields that goes through staging, bytes: a larger one goes
     * straight from or into the block, so that staging neither holds more than 1.5 GiB for one copy
     * nor passes the 2 GiB a buffer can hold.
     */
    static final long BLOCK_STAGING_LIMIT = 1L << 30;

    private final cl_context context;
    private final cl_command_queue queue;
    private final List<cl_event> uploads = new ArrayList<>();
    private final List<cl_event> readbacks = new ArrayList<>();
    /** Copies out of staging into the host's blocks, once the queue is done ({@link #finishReadbacks}). */
    private final List<Runnable> copyOuts = new ArrayList<>();
    private cl_event kernelsStart;
    private cl_event kernelsEnd;
    private ParallelRunner runner;
    private int copyGrain = COPY_GRAIN;
    private long blockStagingLimit = BLOCK_STAGING_LIMIT;
    /** Whether staging is as for a GPU or an accelerator: pinned, its large copies split over the lent threads. */
    private boolean offload;
    private final List<Stage> staging = new ArrayList<>();
    private int stagingUsed;
    private long bytesUp;
    private long bytesDown;

    /** A staging buffer: its host view, and the pinned memory object it maps, or null for a plain direct buffer. */
    private record Stage(ByteBuffer buffer, cl_mem pinned) {
    }

    /** Transfers on {@code queue}; {@code offload}: the device is a GPU or an accelerator. */
    Transfers(cl_context context, cl_command_queue queue, boolean offload) {
        this.context = context;
        this.queue = queue;
        this.offload = offload;
    }

    /** Lends the threads that copy large arrays into staging, for a GPU or an accelerator; else one copies. */
    void shareThreads(ParallelRunner threads) {
        if (offload) {
            this.runner = threads;
        }
    }

    /**
     * Test seam: staging as for a GPU, pinned, whatever the device, and copies split over
     * {@code threads} in ranges of {@code grain} elements, so that small solves take that path; runs
     * of a block's fields over {@code blockLimit} bytes ({@link #BLOCK_STAGING_LIMIT} on a GPU) not staged.
     */
    void stageAsForAGpu(ParallelRunner threads, int grain, long blockLimit) {
        close();
        this.offload = true;
        this.runner = threads;
        this.copyGrain = grain;
        this.blockStagingLimit = blockLimit;
    }

    /**
     * Sends the fields of {@code block} that the device copy does not hold yet (all of them the
     * first time, or when the block, its count or the buffer changed), as runs of adjacent fields.
     * The device copy is tight: stride {@code count}.
     */
    cl_mem uploadBlock(DeviceBuffer target, FieldBlock block, int count, int fields) {
        long rowBytes = (long) count * Sizeof.cl_float;
        cl_mem memory = target.require(rowBytes * fields);
        for (int first = 0; first < fields && count > 0; ) {
            if (target.mirrors(block, count, first)) {
                first++;
                continue;
            }
            int end = first + 1;
            while (end < fields && !target.mirrors(block, count, end)) {
                end++;
            }
            long bytes = rowBytes * (end - first);
            if (offload && bytes <= blockStagingLimit) {
                // through pinned staging, which the DMA reads at full speed, filled on the host's threads
                ByteBuffer stage = stage(bytes);
                copyRows(block.floats(), block.stride(), first * block.stride(), stage.asFloatBuffer(), count, 0,
                        end - first, count);
                send(memory, first * rowBytes, stage, bytes);
            } else {
                long[] origin = {0, first, 0};
                long[] region = {rowBytes, end - first, 1};
                uploads.add(event(e -> clEnqueueWriteBufferRect(queue, memory, false, origin, origin, region, rowBytes,
                        0, (long) block.stride() * Sizeof.cl_float, 0, Pointer.to(block.floats()), 0, null, e)));
            }
            bytesUp += bytes;
            first = end;
        }
        target.recordMirror(block, count, fields);
        return memory;
    }

    /**
     * Sends elements {@code [first, first + count)} of a block (all {@code fields}) into a tight
     * device buffer of stride {@code count}: one chunk of a batch too large for one allocation.
     */
    cl_mem uploadRange(DeviceBuffer target, FieldBlock block, int first, int count, int fields) {
        long rowBytes = (long) count * Sizeof.cl_float;
        cl_mem memory = target.require(rowBytes * fields);
        target.forgetMirror();
        if (count > 0) {
            long[] hostOrigin = {(long) first * Sizeof.cl_float, 0, 0};
            uploads.add(event(e -> clEnqueueWriteBufferRect(queue, memory, false, new long[3], hostOrigin,
                    new long[] {rowBytes, fields, 1}, rowBytes, 0, (long) block.stride() * Sizeof.cl_float, 0,
                    Pointer.to(block.floats()), 0, null, e)));
            bytesUp += rowBytes * fields;
        }
        return memory;
    }

    /**
     * Sends the elements {@code order[first .. first + count)} of a block (all {@code fields}), in
     * that order, into a tight device buffer: a chunk of rows whose contacts the host lays out.
     */
    cl_mem uploadGathered(DeviceBuffer target, FieldBlock block, int[] order, int first, int count, int fields) {
        long bytes = (long) count * fields * Sizeof.cl_float;
        cl_mem memory = target.require(bytes);
        target.forgetMirror();
        if (count > 0) {
            ByteBuffer stage = stage(bytes);
            java.nio.IntBuffer out = stage.asIntBuffer();
            java.nio.IntBuffer in = block.ints();
            for (int f = 0; f < fields; f++) {
                int from = f * block.stride();
                int to = f * count;
                for (int r = 0; r < count; r++) {
                    out.put(to + r, in.get(from + order[first + r]));
                }
            }
            send(memory, stage, bytes);
            bytesUp += bytes;
        }
        return memory;
    }

    /** Sends {@code count} ints from a host array through a staging buffer. */
    cl_mem uploadInts(DeviceBuffer target, int[] values, int count) {
        return uploadInts(target, values, 0, count);
    }

    /**
     * Sends {@code bytes} into {@code target} with {@code send}, unless it holds them already: the
     * host array {@code source} made at {@code version} ({@link DeviceBuffer#holds}; a null source
     * is sent every time).
     */
    cl_mem uploadUnlessHeld(DeviceBuffer target, long bytes, Object source, long version,
            java.util.function.Supplier<cl_mem> send) {
        if (target.holds(source, version, bytes)) {
            return target.require(bytes);
        }
        cl_mem memory = send.get();
        target.recordHeld(source, version, bytes);
        return memory;
    }

    /** {@link #uploadInts(DeviceBuffer, int[], int)}, unless {@code target} holds them already ({@link #uploadUnlessHeld}). */
    cl_mem uploadIntsUnlessHeld(DeviceBuffer target, int[] values, int count, Object source, long version) {
        return uploadUnlessHeld(target, (long) count * Sizeof.cl_int, source, version,
                () -> uploadInts(target, values, count));
    }

    /** Sends {@code values[first .. first + count)} through a staging buffer. */
    cl_mem uploadInts(DeviceBuffer target, int[] values, int first, int count) {
        return sendStaged(target, count, Sizeof.cl_int,
                stage -> split(count, (from, to) -> stage.asIntBuffer().put(from, values, first + from, to - from)));
    }

    /** Sends the first {@code bytes} of a direct, native-order buffer as it is, with no staging copy. */
    cl_mem uploadDirect(DeviceBuffer target, java.nio.Buffer values, long bytes) {
        cl_mem memory = target.require(bytes);
        target.forgetHeld();
        if (bytes > 0) {
            uploads.add(event(e -> clEnqueueWriteBuffer(queue, memory, false, 0, bytes, Pointer.to(values), 0, null,
                    e)));
            bytesUp += bytes;
        }
        target.forgetMirror();
        return memory;
    }

    /** Sends {@code count} bytes of a host array as ints (one a byte, its value) through a staging buffer. */
    cl_mem uploadBytesAsInts(DeviceBuffer target, byte[] values, int count) {
        return sendStaged(target, count, Sizeof.cl_int, stage -> {
            java.nio.IntBuffer ints = stage.asIntBuffer();
            for (int i = 0; i < count; i++) {
                ints.put(i, values[i]);
            }
        });
    }

    /** Sends {@code count} floats from a host array through a staging buffer. */
    cl_mem uploadFloats(DeviceBuffer target, float[] values, int count) {
        return sendStaged(target, count, Sizeof.cl_float,
                stage -> split(count, (from, to) -> stage.asFloatBuffer().put(from, values, from, to - from)));
    }

    /** Sends {@code count} elements of {@code size} bytes that {@code fill} writes into a staging buffer. */
    private cl_mem sendStaged(DeviceBuffer target, int count, int size, java.util.function.Consumer<ByteBuffer> fill) {
        long bytes = (long) count * size;
        cl_mem memory = target.require(bytes);
        target.forgetHeld();
        if (count > 0) {
            ByteBuffer stage = stage(bytes);
            fill.accept(stage);
            send(memory, stage, bytes);
            bytesUp += bytes;
        }
        target.forgetMirror();
        return memory;
    }

    /**
     * Whether {@link #downloadBlock} of {@code count} elements and {@code fields} fields cannot leave
     * its block half written: on a GPU or an accelerator it goes through staging and is copied out
     * only after a wait that succeeded; on a CPU device it is a copy within the host's own memory,
     * which the runtime makes in one piece once the commands before it are done. A run of fields too
     * large to stage is read by the device into the block as the transfer goes, and may stop part way.
     */
    boolean readsBlockWhole(int count, int fields) {
        return !offload || (long) count * fields * Sizeof.cl_float <= blockStagingLimit;
    }

    /** Reads {@code fields} rows of {@code count} elements from a tight device buffer into a host block. */
    void downloadBlock(cl_mem memory, FieldBlock block, int count, int fields) {
        downloadBlock(memory, count, block, 0, count, fields);
    }

    /**
     * Reads the first {@code fields} rows of {@code count} elements from a device buffer whose rows
     * are {@code deviceStride} elements apart into a host block, at elements
     * {@code [destFirst, destFirst + count)} of each field.
     */
    void downloadBlock(cl_mem memory, int deviceStride, FieldBlock block, int destFirst, int count, int fields) {
        long bytes = (long) count * fields * Sizeof.cl_float;
        if (count > 0 && offload && deviceStride == count && bytes <= blockStagingLimit) {
            // into pinned staging at the DMA's speed; copied out on the host's threads once the queue is done
            ByteBuffer stage = stage(bytes);
            readbacks.add(event(e -> clEnqueueReadBuffer(queue, memory, false, 0, bytes, Pointer.to(stage), 0, null,
                    e)));
            copyOuts.add(() -> copyRows(stage.asFloatBuffer(), count, 0, block.floats(), block.stride(), destFirst,
                    fields, count));
            bytesDown += bytes;
        } else if (count > 0) {
            long rowBytes = (long) count * Sizeof.cl_float;
            long[] hostOrigin = {(long) destFirst * Sizeof.cl_float, 0, 0};
            readbacks.add(event(e -> clEnqueueReadBufferRect(queue, memory, false, new long[3], hostOrigin,
                    new long[] {rowBytes, fields, 1}, (long) deviceStride * Sizeof.cl_float, 0,
                    (long) block.stride() * Sizeof.cl_float, 0,
                    Pointer.to(block.floats()), 0, null, e)));
            bytesDown += rowBytes * fields;
        }
    }

    /** Reads {@code count} floats into {@code dest} from element {@code destFirst} on. */
    void downloadFloats(cl_mem memory, FloatBuffer dest, int destFirst, int count) {
        if (count > 0) {
            readbacks.add(event(e -> clEnqueueReadBuffer(queue, memory, false, 0, (long) count * Sizeof.cl_float,
                    Pointer.to(dest).withByteOffset((long) destFirst * Sizeof.cl_float), 0, null, e)));
            bytesDown += (long) count * Sizeof.cl_float;
        }
    }

    /** Reads {@code count} ints into {@code dest} from element 0 on. */
    void downloadInts(cl_mem memory, java.nio.IntBuffer dest, int count) {
        if (count > 0) {
            readbacks.add(event(e -> clEnqueueReadBuffer(queue, memory, false, 0, (long) count * Sizeof.cl_int,
                    Pointer.to(dest), 0, null, e)));
            bytesDown += (long) count * Sizeof.cl_int;
        }
    }

    /** Runs a copy of {@code count} elements in ranges, on the threads staging splits over (if any) where it is large enough. */
    private void split(int count, ParallelRunner.RangeTask copy) {
        if (runner == null || count < 2 * copyGrain) {
            copy.run(0, count);
        } else {
            runner.forRange(count, copyGrain, copy);
        }
    }

    /** A direct float buffer of at least {@code count} floats for results read back this solve. */
    FloatBuffer hostFloats(int count) {
        return stage((long) count * Sizeof.cl_float).asFloatBuffer();
    }

    /** A direct int buffer of at least {@code count} ints for results read back this solve. */
    java.nio.IntBuffer hostInts(int count) {
        return stage((long) count * Sizeof.cl_int).asIntBuffer();
    }

    /**
     * Copies what came back into staging out to the host's blocks; call once the queue is done.
     * A solve that fails before leaves the blocks as they were.
     */
    void finishReadbacks() {
        for (Runnable copy : copyOuts) {
            copy.run();
        }
        copyOuts.clear();
    }

    /** Marks where the kernels start in the queue: after every upload enqueued so far. */
    void kernelsBegin() {
        kernelsStart = event(e -> clEnqueueMarkerWithWaitList(queue, 0, null, e));
    }

    /** Marks where the kernels end. */
    void kernelsDone() {
        kernelsEnd = event(e -> clEnqueueMarkerWithWaitList(queue, 0, null, e));
    }

    /** Device time of the uploads, after the queue has finished. */
    long uploadNanos() {
        return duration(uploads);
    }

    long readbackNanos() {
        return duration(readbacks);
    }

    /** Device time from the end of the uploads to the end of the last kernel. */
    long kernelNanos() {
        return kernelsStart == null || kernelsEnd == null ? 0 : end(kernelsEnd) - end(kernelsStart);
    }

    /** Bytes sent to the device in this solve. */
    long bytesUp() {
        return bytesUp;
    }

    /** Bytes read back from the device in this solve. */
    long bytesDown() {
        return bytesDown;
    }

    /** Releases the events and frees the staging buffers for the next solve; call after the queue finished. */
    void reset() {
        for (cl_event e : uploads) {
            clReleaseEvent(e);
        }
        for (cl_event e : readbacks) {
            clReleaseEvent(e);
        }
        uploads.clear();
        readbacks.clear();
        copyOuts.clear();
        if (kernelsStart != null) {
            clReleaseEvent(kernelsStart);
            kernelsStart = null;
        }
        if (kernelsEnd != null) {
            clReleaseEvent(kernelsEnd);
            kernelsEnd = null;
        }
        stagingUsed = 0;
        bytesUp = 0;
        bytesDown = 0;
    }

    private void send(cl_mem memory, ByteBuffer stage, long bytes) {
        send(memory, 0, stage, bytes);
    }

    private void send(cl_mem memory, long offset, ByteBuffer stage, long bytes) {
        uploads.add(event(e -> clEnqueueWriteBuffer(queue, memory, false, offset, bytes, Pointer.to(stage), 0, null,
                e)));
    }

    /**
     * Copies {@code rows} rows of {@code count} floats from {@code from} (row {@code r} at
     * {@code fromFirst + r * fromStride}) to {@code to} (at {@code toFirst + r * toStride}), in
     * ranges over the lent threads where it is large enough.
     */
    private void copyRows(FloatBuffer from, int fromStride, int fromFirst, FloatBuffer to, int toStride, int toFirst,
            int rows, int count) {
        split(rows * count, (start, end) -> {
            for (int i = start; i < end; ) {
                int row = i / count;
                int column = i - row * count;
                int length = Math.min(end - i, count - column);
                to.put(toFirst + row * toStride + column, from, fromFirst + row * fromStride + column, length);
                i += length;
            }
        });
    }

    /** A staging buffer of at least {@code bytes} not used by another copy of this solve. */
    private ByteBuffer stage(long bytes) {
        if (bytes > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("staging " + bytes + " bytes at once is more than one buffer holds");
        }
        if (stagingUsed == staging.size()) {
            staging.add(new Stage(ByteBuffer.allocateDirect(0), null));
        }
        Stage stage = staging.get(stagingUsed);
        if (stage.buffer().capacity() < bytes) {
            release(stage);
            // half again as much, so steady growth re-allocates rarely
            stage = allocate((int) Math.min(Integer.MAX_VALUE, bytes + bytes / 2));
            staging.set(stagingUsed, stage);
        }
        stagingUsed++;
        return stage.buffer().clear().order(ByteOrder.nativeOrder());
    }

    /** Pinned host memory of {@code bytes}, mapped for good; a plain direct buffer where the device has none to give. */
    private Stage allocate(int bytes) {
        if (!offload) {
            return new Stage(ByteBuffer.allocateDirect(bytes), null);
        }
        cl_mem memory = null;
        try {
            memory = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, bytes, null, null);
            ByteBuffer mapped = clEnqueueMapBuffer(queue, memory, true, CL_MAP_READ | CL_MAP_WRITE, 0, bytes, 0, null,
                    null, null);
            return new Stage(mapped, memory);
        } catch (CLException e) {
            if (memory != null) {
                clReleaseMemObject(memory);
            }
            return new Stage(ByteBuffer.allocateDirect(bytes), null);
        }
    }

    private void release(Stage stage) {
        if (stage.pinned() != null) {
            clEnqueueUnmapMemObject(queue, stage.pinned(), stage.buffer(), 0, null, null);
            clReleaseMemObject(stage.pinned());
        }
    }

    /** Bytes of pinned staging held now (test seam: the device gave pinned memory, and close gave it back). */
    long pinnedBytes() {
        long bytes = 0;
        for (Stage stage : staging) {
            bytes += stage.pinned() == null ? 0 : stage.buffer().capacity();
        }
        return bytes;
    }

    /** Unmaps and releases the pinned staging buffers; call after the queue finished. */
    @Override
    public void close() {
        for (Stage stage : staging) {
            release(stage);
        }
        staging.clear();
        stagingUsed = 0;
    }

    @FunctionalInterface
    private interface Enqueue {
        void with(cl_event event);
    }

    private static cl_event event(Enqueue enqueue) {
        cl_event event = new cl_event();
        enqueue.with(event);
        return event;
    }

    private static long duration(List<cl_event> events) {
        long total = 0;
        for (cl_event e : events) {
            total += end(e) - start(e);
        }
        return total;
    }

    private static long start(cl_event event) {
        return profile(event, CL_PROFILING_COMMAND_START);
    }

    private static long end(cl_event event) {
        return profile(event, CL_PROFILING_COMMAND_END);
    }

    private static long profile(cl_event event, int parameter) {
        long[] value = new long[1];
        clGetEventProfilingInfo(event, parameter, Sizeof.cl_ulong, Pointer.to(value), null);
        return value[0];
    }
}
