package io.contactsolver.opencl;

import io.contactsolver.core.BackendUnavailableException;
import io.contactsolver.core.SolverBackend;
import io.contactsolver.testing.Backends;
import java.util.List;
import java.util.Optional;
import org.jocl.CL;
import org.jocl.CLException;

/** Reaches the OpenCL backend's test seams from tests in other packages. */
public final class OpenClTestAccess {
    private OpenClTestAccess() {
    }

    /** A backend built from the given kernel sources instead of the packaged ones. */
    public static SolverBackend openWithSources(Optional<String> selector, List<String> sources)
            throws BackendUnavailableException {
        return OpenClBackend.open(selector, sources);
    }

    /** A working backend whose next solves fail at {@code stage} as a device running out of resources would. */
    public static SolverBackend openFailingAt(Optional<String> selector, String stage) throws BackendUnavailableException {
        OpenClBackend backend = OpenClBackend.open(selector);
        backend.setFaultHook(reached -> {
            if (reached.equals(stage)) {
                throw new CLException("CL_OUT_OF_RESOURCES (injected)", CL.CL_OUT_OF_RESOURCES);
            }
        });
        return backend;
    }

    /** A backend that acts as if the device could allocate at most {@code bytes} at once. */
    public static SolverBackend openWithAllocationLimit(Optional<String> selector, long bytes)
            throws BackendUnavailableException {
        OpenClBackend backend = OpenClBackend.open(selector);
        backend.limitAllocations(bytes);
        return backend;
    }

    /** Why the OpenCL library certainly cannot be loaded here, or empty if it may be. */
    public static Optional<String> unloadableLibrary() {
        return OpenClLibrary.unloadable();
    }

    /** Skips (fails under CI) unless an OpenCL device is present. */
    public static void requireDevice() {
        try {
            OpenClDevices.list();
        } catch (BackendUnavailableException | LinkageError e) {
            Backends.skipOrFail(e.getMessage());
        }
    }
}
