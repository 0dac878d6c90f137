package io.contactsolver.opencl;

import static org.jocl.CL.CL_MEM_READ_WRITE;
import static org.jocl.CL.CL_PROFILING_COMMAND_END;
import static org.jocl.CL.CL_PROFILING_COMMAND_START;
import static org.jocl.CL.CL_QUEUE_PROFILING_ENABLE;
import static org.jocl.CL.clCreateBuffer;
import static org.jocl.CL.clCreateCommandQueue;
import static org.jocl.CL.clEnqueueCopyBuffer;
import static org.jocl.CL.clEnqueueReadBuffer;
import static org.jocl.CL.clEnqueueWriteBuffer;
import static org.jocl.CL.clGetEventProfilingInfo;
import static org.jocl.CL.clReleaseCommandQueue;
import static org.jocl.CL.clReleaseEvent;
import static org.jocl.CL.clReleaseMemObject;
import static org.jocl.CL.clWaitForEvents;

import io.contactsolver.core.BackendUnavailableException;
import io.contactsolver.opencl.OpenClDevices.Device;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Optional;
import org.jocl.Pointer;
import org.jocl.Sizeof;
import org.jocl.cl_command_queue;
import org.jocl.cl_context;
import org.jocl.cl_event;
import org.jocl.cl_mem;

/**
 * The limits the OpenCL path is measured against, on one device: how fast the link moves a
 * buffer up (from a direct buffer, as the solve's uploads do) and down, and how fast the device
 * copies a buffer within its own memory. Each copy is timed by the device's profiling events, as
 * the solve's upload, kernel and readback phases are, so the figures compare directly. Programs
 * reach it through the API's {@code TransferProbe}.
 */
public final class TransferProbe implements AutoCloseable {
    private final Device device;
    private final long bytes;
    private final cl_context context;
    private cl_command_queue queue;
    private cl_mem first;
    private cl_mem second;
    private final ByteBuffer host;
    private boolean closed;

    /**
     * A probe on the device {@code selector} names (as for the solver), over buffers of
     * {@code bytes}, or of the device's largest allocation if that is smaller.
     */
    public static TransferProbe open(Optional<String> selector, long bytes) throws BackendUnavailableException {
        Device device = OpenClDevices.select(OpenClDevices.list(), selector);
        return new TransferProbe(device, Math.max(Sizeof.cl_float,
                Math.min(bytes, Math.min(device.maxAllocation(), Integer.MAX_VALUE - 8))));
    }

    @SuppressWarnings("deprecation") // clCreateCommandQueue: the 1.2 entry point works on every ICD
    private TransferProbe(Device device, long bytes) {
        this.device = device;
        this.bytes = bytes;
        this.context = Contexts.create(device);
        try {
            this.queue = clCreateCommandQueue(context, device.id(), CL_QUEUE_PROFILING_ENABLE, null);
            this.first = clCreateBuffer(context, CL_MEM_READ_WRITE, bytes, null, null);
            this.second = clCreateBuffer(context, CL_MEM_READ_WRITE, bytes, null, null);
            this.host = ByteBuffer.allocateDirect((int) bytes).order(ByteOrder.nativeOrder());
            upload(); // first touch: drivers commit device memory lazily
            deviceCopy();
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    /** The device, as the solver names it. */
    public String deviceName() {
        return device.name();
    }

    /** Bytes each copy moves. */
    public long bytes() {
        return bytes;
    }

    /** Seconds to write the buffer from host memory to the device. */
    public double upload() {
        return timed(clEvent -> clEnqueueWriteBuffer(queue, first, false, 0, bytes, Pointer.to(host), 0, null, clEvent));
    }

    /** Seconds to read the buffer from the device into host memory. */
    public double readback() {
        return timed(clEvent -> clEnqueueReadBuffer(queue, first, false, 0, bytes, Pointer.to(host), 0, null, clEvent));
    }

    /** Seconds to copy the buffer to another on the device: {@code bytes} read and {@code bytes} written. */
    public double deviceCopy() {
        return timed(clEvent -> clEnqueueCopyBuffer(queue, first, second, 0, 0, bytes, 0, null, clEvent));
    }

    private interface Enqueue {
        void with(cl_event event);
    }

    private static double timed(Enqueue enqueue) {
        cl_event event = new cl_event();
        enqueue.with(event);
        try {
            clWaitForEvents(1, new cl_event[] {event});
            return (profile(event, CL_PROFILING_COMMAND_END) - profile(event, CL_PROFILING_COMMAND_START)) / 1e9;
        } finally {
            clReleaseEvent(event);
        }
    }

    private static long profile(cl_event event, int parameter) {
        long[] value = new long[1];
        clGetEventProfilingInfo(event, parameter, Sizeof.cl_ulong, Pointer.to(value), null);
        return value[0];
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (second != null) {
            clReleaseMemObject(second);
            second = null;
        }
        if (first != null) {
            clReleaseMemObject(first);
            first = null;
        }
        if (queue != null) {
            clReleaseCommandQueue(queue);
            queue = null;
        }
        Contexts.release(context);
    }
}
