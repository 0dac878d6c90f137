package io.contactsolver.opencl;

import static org.jocl.CL.CL_PROGRAM_BUILD_LOG;
import static org.jocl.CL.CL_QUEUE_PROFILING_ENABLE;
import static org.jocl.CL.clBuildProgram;
import static org.jocl.CL.clCreateCommandQueue;
import static org.jocl.CL.clCreateProgramWithSource;
import static org.jocl.CL.clGetProgramBuildInfo;
import static org.jocl.CL.clReleaseCommandQueue;
import static org.jocl.CL.clReleaseProgram;

import io.contactsolver.core.BackendUnavailableException;
import io.contactsolver.opencl.OpenClDevices.Device;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.jocl.CL;
import org.jocl.CLException;
import org.jocl.Pointer;
import org.jocl.cl_command_queue;
import org.jocl.cl_context;
import org.jocl.cl_device_id;
import org.jocl.cl_program;

/**
 * The OpenCL objects of one device and their lifetime: the context, the in-order command queue
 * (with profiling, for the phase times), the program built from {@code kernels/*.cl} with the
 * layout as build options, and its {@link Kernels}. Everything is released by {@link #close}, also
 * when the constructor fails half-way.
 */
final class OpenClProgram implements AutoCloseable {
    final Device device;
    final cl_context context;
    // not final: a constructor that fails half-way releases what it made through close()
    cl_command_queue queue;
    private cl_program program;
    Kernels kernels;

    @SuppressWarnings("deprecation") // clCreateCommandQueue: the 1.2 entry point works on every ICD
    OpenClProgram(Device device, List<String> sources) throws BackendUnavailableException {
        this.device = device;
        this.context = Contexts.create(device);
        try {
            this.queue = clCreateCommandQueue(context, device.id(), CL_QUEUE_PROFILING_ENABLE, null);
            this.program = build(sources);
            this.kernels = new Kernels(program, device.id(), queue);
        } catch (BackendUnavailableException | RuntimeException e) {
            close();
            throw e;
        }
    }

    /**
     * Builds tried before giving up: a second try, because PoCL's compiler has been seen to fail a
     * build now and then when a temporary file of its kernel cache is renamed away under it
     * ("unable to rename temporary ... No such file or directory"), and the same build then passes.
     */
    private static final int BUILD_ATTEMPTS = 2;

    private cl_program build(List<String> sources) throws BackendUnavailableException {
        for (int attempt = 1; ; attempt++) {
            cl_program built = clCreateProgramWithSource(context, sources.size(), sources.toArray(new String[0]),
                    null, null);
            try {
                clBuildProgram(built, 1, new cl_device_id[] {device.id()},
                        KernelSource.buildOptions(device.correctlyRoundedDivide()), null, null);
                return built;
            } catch (CLException e) {
                String log = buildLog(built);
                clReleaseProgram(built);
                if (attempt < BUILD_ATTEMPTS) {
                    continue;
                }
                throw new BackendUnavailableException("OpenCL kernel build failed on '" + device.name() + "' ("
                        + CL.stringFor_errorCode(e.getStatus()) + "); build log:\n" + log.strip(), e);
            }
        }
    }

    private String buildLog(cl_program built) {
        long[] size = new long[1];
        clGetProgramBuildInfo(built, device.id(), CL_PROGRAM_BUILD_LOG, 0, null, size);
        byte[] bytes = new byte[(int) size[0]];
        clGetProgramBuildInfo(built, device.id(), CL_PROGRAM_BUILD_LOG, bytes.length, Pointer.to(bytes), null);
        return new String(bytes, StandardCharsets.UTF_8).replace("\0", "");
    }

    @Override
    public void close() {
        List<RuntimeException> failures = new ArrayList<>();
        if (kernels != null) {
            attempt(kernels::close, failures);
        }
        if (program != null) {
            attempt(() -> clReleaseProgram(program), failures);
        }
        if (queue != null) {
            attempt(() -> clReleaseCommandQueue(queue), failures);
        }
        attempt(() -> Contexts.release(context), failures);
        if (!failures.isEmpty()) {
            RuntimeException first = failures.get(0);
            failures.subList(1, failures.size()).forEach(first::addSuppressed);
            throw first;
        }
    }

    /** Runs {@code release}, collecting a failure instead of stopping at it. */
    static void attempt(Runnable release, List<RuntimeException> failures) {
        try {
            release.run();
        } catch (RuntimeException e) {
            failures.add(e);
        }
    }
}
