package io.contactsolver.opencl;

import static org.jocl.CL.CL_MEM_READ_WRITE;
import static org.jocl.CL.clCreateBuffer;
import static org.jocl.CL.clReleaseMemObject;

import io.contactsolver.core.BackendFailureException;
import org.jocl.cl_context;
import org.jocl.cl_mem;

/**
 * A device buffer that is allocated once and only grows: solves of similar size reuse it, a
 * larger solve replaces it with one half again as large as needed, so a growing simulation does
 * not re-allocate every step.
 */
final class DeviceBuffer implements AutoCloseable {
    private static final long MINIMUM_BYTES = 64;

    private final cl_context context;
    private final String name;
    private final long maxAllocation;
    private cl_mem memory;
    private long capacity;

    DeviceBuffer(cl_context context, String name, long maxAllocation) {
        this.context = context;
        this.name = name;
        this.maxAllocation = maxAllocation;
    }

    /** The buffer, holding at least {@code bytes}. */
    cl_mem require(long bytes) {
        if (bytes > maxAllocation) {
            throw new BackendFailureException("the " + name + " buffer needs " + bytes
                    + " bytes, more than the device's largest allocation of " + maxAllocation + " bytes", null);
        }
        if (memory == null || bytes > capacity) {
            release();
            long size = Math.min(maxAllocation, Math.max(MINIMUM_BYTES, bytes + bytes / 2));
            memory = clCreateBuffer(context, CL_MEM_READ_WRITE, size, null, null);
            capacity = size;
        }
        return memory;
    }

    long capacity() {
        return capacity;
    }

    private void release() {
        if (memory != null) {
            cl_mem old = memory;
            memory = null;
            capacity = 0;
            clReleaseMemObject(old);
        }
    }

    @Override
    public void close() {
        release();
    }
}
