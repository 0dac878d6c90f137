package io.contactsolver.opencl;

import static org.jocl.CL.CL_CONTEXT_PLATFORM;
import static org.jocl.CL.CL_KERNEL_WORK_GROUP_SIZE;
import static org.jocl.CL.CL_PROGRAM_BUILD_LOG;
import static org.jocl.CL.clBuildProgram;
import static org.jocl.CL.clCreateCommandQueue;
import static org.jocl.CL.clCreateContext;
import static org.jocl.CL.clCreateKernel;
import static org.jocl.CL.clCreateProgramWithSource;
import static org.jocl.CL.clEnqueueNDRangeKernel;
import static org.jocl.CL.clEnqueueReadBuffer;
import static org.jocl.CL.clEnqueueReadBufferRect;
import static org.jocl.CL.clEnqueueWriteBuffer;
import static org.jocl.CL.clEnqueueWriteBufferRect;
import static org.jocl.CL.clFinish;
import static org.jocl.CL.clGetKernelWorkGroupInfo;
import static org.jocl.CL.clGetProgramBuildInfo;
import static org.jocl.CL.clReleaseCommandQueue;
import static org.jocl.CL.clReleaseContext;
import static org.jocl.CL.clReleaseKernel;
import static org.jocl.CL.clReleaseProgram;
import static org.jocl.CL.clSetKernelArg;

import io.contactsolver.BodyField;
import io.contactsolver.ContactBody;
import io.contactsolver.ContactField;
import io.contactsolver.DeltaField;
import io.contactsolver.core.BackendFailureException;
import io.contactsolver.core.BackendUnavailableException;
import io.contactsolver.core.BodyContactIndex;
import io.contactsolver.core.FieldBlock;
import io.contactsolver.core.PreparedBodyField;
import io.contactsolver.core.SolveJob;
import io.contactsolver.core.SolverBackend;
import io.contactsolver.opencl.OpenClDevices.Device;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
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
 * The OpenCL backend: the kernels of {@code kernels/single_pass.cl} on one device.
 *
 * <p>Device buffers are created once per solver and grow when a larger batch arrives. Inputs go up
 * with one rectangular copy per structure-of-arrays block (host stride = batch capacity, device
 * stride = count), the host-built body-contact index goes up as two int arrays, and the deltas and
 * impulses come down the same way. An OpenCL error during a solve is reported as a
 * {@link BackendFailureException}; the caller drops this backend and recomputes on the CPU.
 */
public final class OpenClBackend implements SolverBackend {
    private static final long LOCAL_SIZE = 128;
    private static final int WORLD_RECORD_EXTRA = 1;

    private final Device device;
    private final cl_context context;
    // not final: a constructor that fails half-way releases what it made through close()
    private cl_command_queue queue;
    private cl_program program;
    private cl_kernel prepareBodies;
    private cl_kernel solveContacts;
    private cl_kernel gatherDeltas;
    private final List<DeviceBuffer> buffers = new ArrayList<>();
    private final DeviceBuffer bodies;
    private final DeviceBuffer contacts;
    private final DeviceBuffer links;
    private final DeviceBuffer prepared;
    private final DeviceBuffer impulses;
    private final DeviceBuffer responses;
    private final DeviceBuffer offsets;
    private final DeviceBuffer entries;
    private final DeviceBuffer deltas;
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
        cl_context_properties properties = new cl_context_properties();
        properties.addProperty(CL_CONTEXT_PLATFORM, device.platform());
        this.context = clCreateContext(properties, 1, new cl_device_id[] {device.id()}, null, null, null);
        try {
            this.queue = clCreateCommandQueue(context, device.id(), 0, null);
            this.program = build(sources);
            this.prepareBodies = clCreateKernel(program, "prepare_bodies", null);
            this.solveContacts = clCreateKernel(program, "solve_contacts", null);
            this.gatherDeltas = clCreateKernel(program, "gather_deltas", null);
        } catch (BackendUnavailableException | RuntimeException e) {
            close();
            throw e;
        }
        long max = device.maxAllocation();
        this.bodies = buffer("bodies", max);
        this.contacts = buffer("contacts", max);
        this.links = buffer("contact links", max);
        this.prepared = buffer("prepared bodies", max);
        this.impulses = buffer("impulses", max);
        this.responses = buffer("responses", max);
        this.offsets = buffer("index offsets", max);
        this.entries = buffer("index entries", max);
        this.deltas = buffer("deltas", max);
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
                    + e.getMessage() + "); build log:\n" + log.strip(), e);
        }
    }

    private String buildLog(cl_program built) {
        long[] size = new long[1];
        clGetProgramBuildInfo(built, device.id(), CL_PROGRAM_BUILD_LOG, 0, null, size);
        byte[] bytes = new byte[(int) size[0]];
        clGetProgramBuildInfo(built, device.id(), CL_PROGRAM_BUILD_LOG, bytes.length, Pointer.to(bytes), null);
        return new String(bytes, StandardCharsets.UTF_8).replace("\0", "");
    }

    private DeviceBuffer buffer(String name, long maxAllocation) {
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

    @Override
    public void solveSinglePass(SolveJob job) {
        if (closed) {
            throw new IllegalStateException("OpenCL backend is closed");
        }
        String stage = "upload";
        try {
            faultHook.accept(stage);
            int bodyCount = job.bodyCount();
            int contactCount = job.contactCount();
            BodyContactIndex index = job.index();
            cl_mem bodyMem = upload(bodies, job.bodies(), bodyCount, BodyField.COUNT);
            cl_mem contactMem = upload(contacts, job.contacts(), contactCount, ContactField.COUNT);
            cl_mem linkMem = upload(links, job.links(), contactCount, ContactBody.COUNT);
            cl_mem offsetMem = offsets.require((long) (bodyCount + 1) * Sizeof.cl_int);
            clEnqueueWriteBuffer(queue, offsetMem, true, 0, (long) (bodyCount + 1) * Sizeof.cl_int,
                    Pointer.to(index.offsets()), 0, null, null);
            cl_mem entryMem = entries.require((long) index.entryCount() * Sizeof.cl_int);
            if (index.entryCount() > 0) {
                clEnqueueWriteBuffer(queue, entryMem, true, 0, (long) index.entryCount() * Sizeof.cl_int,
                        Pointer.to(index.entries()), 0, null, null);
            }
            cl_mem preparedMem = prepared.require(
                    (long) (bodyCount + WORLD_RECORD_EXTRA) * PreparedBodyField.STRIDE * Sizeof.cl_float);
            cl_mem impulseMem = impulses.require((long) contactCount * Sizeof.cl_float);
            cl_mem responseMem = responses.require(
                    (long) contactCount * ContactBody.COUNT * DeltaField.COUNT * Sizeof.cl_float);
            cl_mem deltaMem = deltas.require((long) bodyCount * DeltaField.COUNT * Sizeof.cl_float);

            stage = "kernels";
            faultHook.accept(stage);
            setArgs(prepareBodies, bodyMem, bodyCount, bodyCount, preparedMem);
            run(prepareBodies, bodyCount + WORLD_RECORD_EXTRA);
            if (contactCount > 0) {
                setArgs(solveContacts, contactMem, linkMem, contactCount, contactCount, bodyCount, preparedMem,
                        impulseMem, responseMem);
                run(solveContacts, contactCount);
            }
            setArgs(gatherDeltas, offsetMem, entryMem, responseMem, bodyCount, bodyCount, deltaMem);
            run(gatherDeltas, bodyCount);

            stage = "readback";
            faultHook.accept(stage);
            download(deltaMem, job.deltas(), bodyCount, DeltaField.COUNT);
            if (contactCount > 0) {
                clEnqueueReadBuffer(queue, impulseMem, true, 0, (long) contactCount * Sizeof.cl_float,
                        Pointer.to(job.impulses().floats()), 0, null, null);
            }
            clFinish(queue);
        } catch (CLException e) {
            throw new BackendFailureException(e.getMessage() + " during " + stage, e);
        }
    }

    /** Copies {@code fields} rows of {@code count} elements from a host block into a tight device buffer. */
    private cl_mem upload(DeviceBuffer target, FieldBlock block, int count, int fields) {
        long rowBytes = (long) count * Sizeof.cl_float;
        cl_mem memory = target.require(rowBytes * fields);
        if (count > 0) {
            clEnqueueWriteBufferRect(queue, memory, true, new long[3], new long[3], new long[] {rowBytes, fields, 1},
                    rowBytes, 0, (long) block.stride() * Sizeof.cl_float, 0, Pointer.to(block.floats()), 0, null,
                    null);
        }
        return memory;
    }

    /** The reverse of {@link #upload}: a tight device buffer into a host block of its own stride. */
    private void download(cl_mem memory, FieldBlock block, int count, int fields) {
        if (count > 0) {
            long rowBytes = (long) count * Sizeof.cl_float;
            clEnqueueReadBufferRect(queue, memory, true, new long[3], new long[3], new long[] {rowBytes, fields, 1},
                    rowBytes, 0, (long) block.stride() * Sizeof.cl_float, 0, Pointer.to(block.floats()), 0, null,
                    null);
        }
    }

    private static void setArgs(cl_kernel kernel, Object... args) {
        for (int i = 0; i < args.length; i++) {
            if (args[i] instanceof cl_mem memory) {
                clSetKernelArg(kernel, i, Sizeof.cl_mem, Pointer.to(memory));
            } else {
                clSetKernelArg(kernel, i, Sizeof.cl_int, Pointer.to(new int[] {(Integer) args[i]}));
            }
        }
    }

    private void run(cl_kernel kernel, long workItems) {
        if (workItems == 0) {
            return;
        }
        long[] maxLocal = new long[1];
        clGetKernelWorkGroupInfo(kernel, device.id(), CL_KERNEL_WORK_GROUP_SIZE, Sizeof.size_t,
                Pointer.to(maxLocal), null);
        long local = Math.max(1, Math.min(LOCAL_SIZE, maxLocal[0]));
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
        for (cl_kernel kernel : new cl_kernel[] {prepareBodies, solveContacts, gatherDeltas}) {
            if (kernel != null) {
                attempt(() -> clReleaseKernel(kernel), failures);
            }
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
