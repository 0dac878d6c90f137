package io.contactsolver.opencl;

import static org.jocl.CL.CL_CONTEXT_PLATFORM;
import static org.jocl.CL.clCreateContext;
import static org.jocl.CL.clReleaseContext;

import io.contactsolver.opencl.OpenClDevices.Device;
import org.jocl.cl_context;
import org.jocl.cl_context_properties;
import org.jocl.cl_device_id;

/**
 * Every OpenCL context of the library is created and released here, one thread at a time in this
 * JVM. JOCL 2.0.6's native code keeps one process-wide table of the contexts it created (for their
 * error callbacks), which {@code clCreateContext} adds to and {@code clReleaseContext} removes from
 * without a lock: two threads doing either at once can corrupt it and crash the JVM. Seen here: a
 * SIGSEGV in {@code clReleaseContext} while eight threads closed their solvers together. The
 * OpenCL calls themselves are thread-safe; only JOCL's table needs the lock.
 */
final class Contexts {
    /** Held for each creation and release: the table is JOCL's, one for the whole process. */
    private static final Object JOCL_CONTEXT_TABLE = new Object();
    /** Contexts created and not yet released, for the tests that check a closed solver holds none. */
    private static int live;

    private Contexts() {
    }

    /** A context of {@code device} alone, on its platform, with no error callback. */
    static cl_context create(Device device) {
        cl_context_properties properties = new cl_context_properties();
        properties.addProperty(CL_CONTEXT_PLATFORM, device.platform());
        synchronized (JOCL_CONTEXT_TABLE) {
            cl_context context = clCreateContext(properties, 1, new cl_device_id[] {device.id()}, null, null, null);
            live++;
            return context;
        }
    }

    /** Releases {@code context}, made by {@link #create}. */
    static void release(cl_context context) {
        synchronized (JOCL_CONTEXT_TABLE) {
            clReleaseContext(context);
            live--;
        }
    }

    /** How many contexts {@link #create} made that {@link #release} has not released. */
    static int live() {
        synchronized (JOCL_CONTEXT_TABLE) {
            return live;
        }
    }
}
