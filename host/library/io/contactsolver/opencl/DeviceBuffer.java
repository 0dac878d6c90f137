package io.contactsolver.opencl;

import static org.jocl.CL.CL_MEM_READ_WRITE;
import static org.jocl.CL.clCreateBuffer;
import static org.jocl.CL.clReleaseMemObject;

import io.contactsolver.core.BackendFailureException;
import io.contactsolver.core.FieldBlock;
import java.util.Arrays;
import org.jocl.cl_context;
import org.jocl.cl_mem;

/**
 * A device buffer that is allocated once and only grows: solves of similar size reuse it, a
 * larger solve replaces it with one half again as large as needed, so a growing simulation does
 * not re-allocate every step.
 *
 * <p>A buffer that mirrors a host {@link FieldBlock} remembers which block, element count and field
 * stamps it holds, so that only fields written since can be sent again (the mirror rule: the API
 * package's {@code Stepper}); one sent a host array remembers whose it was and at which version
 * ({@link #holds}), so that an array that has not changed is not sent again.
 */
final class DeviceBuffer implements AutoCloseable {
    private static final long MINIMUM_BYTES = 64;

    private final cl_context context;
    private final String name;
    private long maxAllocation;
    private cl_mem memory;
    private long capacity;
    private long mirroredBlock = -1;
    private int mirroredCount = -1;
    private long[] mirroredStamps = new long[0];
    /** What the buffer holds from its start, where a host array at a version was sent: its maker, version and bytes. */
    private Object heldSource;
    private long heldVersion;
    private long heldBytes = -1;

    DeviceBuffer(cl_context context, String name, long maxAllocation) {
        this.context = context;
        this.name = name;
        this.maxAllocation = maxAllocation;
    }

    /** The buffer, holding at least {@code bytes}; a replaced buffer mirrors nothing. */
    cl_mem require(long bytes) {
        if (bytes > maxAllocation) {
            throw new BackendFailureException("the " + name + " buffer needs " + bytes
                    + " bytes, more than the device's largest allocation of " + maxAllocation + " bytes", null);
        }
        if (memory == null || bytes > capacity) {
            release();
            // exact the first time; when growing, half again as much, so steady growth re-allocates rarely
            long size = Math.min(maxAllocation, Math.max(MINIMUM_BYTES, memory == null ? bytes : bytes + bytes / 2));
            memory = clCreateBuffer(context, CL_MEM_READ_WRITE, size, null, null);
            capacity = size;
        }
        return memory;
    }

    /** Whether field {@code field} of {@code block} (with {@code count} elements) is already here. */
    boolean mirrors(FieldBlock block, int count, int field) {
        return mirroredBlock == block.id() && mirroredCount == count && mirroredStamps[field] == block.stamp(field);
    }

    /** Records that the first {@code fields} fields of {@code block} are now here as they are on the host. */
    void recordMirror(FieldBlock block, int count, int fields) {
        mirroredBlock = block.id();
        mirroredCount = count;
        if (mirroredStamps.length < fields) {
            mirroredStamps = new long[fields];
        }
        for (int f = 0; f < fields; f++) {
            mirroredStamps[f] = block.stamp(f);
        }
    }

    /** Forgets what this buffer mirrors: its contents were changed on the device. */
    void forgetMirror() {
        mirroredBlock = -1;
        Arrays.fill(mirroredStamps, -1L);
        heldSource = null;
    }

    /**
     * Whether the buffer holds, from its start, the {@code bytes} of a host array that
     * {@code source} had at {@code version} when it was sent ({@link #recordHeld}): the array is
     * here as it is, if its maker moves the version whenever its contents change.
     */
    boolean holds(Object source, long version, long bytes) {
        return memory != null && source != null && heldSource == source && heldVersion == version
                && heldBytes == bytes;
    }

    /** Forgets what array this buffer holds: something else was written into it. */
    void forgetHeld() {
        heldSource = null;
    }

    /** Records what was just sent into this buffer: {@code bytes} of {@code source}'s array at {@code version}. */
    void recordHeld(Object source, long version, long bytes) {
        heldSource = source;
        heldVersion = version;
        heldBytes = bytes;
    }

    long capacity() {
        return capacity;
    }

    /** Lowers the largest allocation this buffer may make (tests force chunking with it). */
    void limit(long bytes) {
        maxAllocation = bytes;
    }

    private void release() {
        forgetMirror();
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
