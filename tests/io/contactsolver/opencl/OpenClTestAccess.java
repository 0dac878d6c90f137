package io.contactsolver.opencl;

import io.contactsolver.core.BackendUnavailableException;
import io.contactsolver.core.ParallelRunner;
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

    /** The backend a default OpenCL solver opens, for a test to hand a solver and then inspect. */
    public static SolverBackend open(Optional<String> selector) throws BackendUnavailableException {
        return OpenClBackend.open(selector);
    }

    /** A backend built from the given kernel sources instead of the packaged ones. */
    public static SolverBackend openWithSources(Optional<String> selector, List<String> sources)
            throws BackendUnavailableException {
        return OpenClBackend.open(selector, sources);
    }

    /**
     * A backend built from the packaged kernels with one edit: {@code from}, which must occur once in
     * {@code file}, replaced by {@code to}; a device that computes something else than it should.
     */
    public static SolverBackend openWithEdit(Optional<String> selector, String file, String from, String to)
            throws BackendUnavailableException {
        List<String> sources = new java.util.ArrayList<>(KernelSource.load());
        int at = KernelSource.FILES.indexOf(file);
        String source = sources.get(at);
        if (source.indexOf(from) < 0 || source.indexOf(from) != source.lastIndexOf(from)) {
            throw new IllegalStateException(file + " does not hold the text to edit exactly once: " + from);
        }
        sources.set(at, source.replace(from, to));
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

    /** A working backend whose solve fails at {@code stage} the {@code nth} time it reaches it (from 1), and only then. */
    public static SolverBackend openFailingAt(Optional<String> selector, String stage, int nth)
            throws BackendUnavailableException {
        OpenClBackend backend = OpenClBackend.open(selector);
        int[] reached = {0};
        backend.setFaultHook(name -> {
            if (name.equals(stage) && ++reached[0] == nth) {
                throw new CLException("CL_OUT_OF_RESOURCES (injected)", CL.CL_OUT_OF_RESOURCES);
            }
        });
        return backend;
    }

    /**
     * A backend built as on a device without double precision: the recycling's kernels left out
     * (their guard names a macro no device defines), so that the host writes the recycled points.
     */
    public static SolverBackend openWithoutDoubles(Optional<String> selector) throws BackendUnavailableException {
        List<String> sources = new java.util.ArrayList<>(KernelSource.load());
        int file = KernelSource.FILES.indexOf("recycling.cl");
        String guard = "#ifdef cl_khr_fp64";
        if (!sources.get(file).contains(guard)) {
            throw new IllegalStateException("recycling.cl has no double-precision guard to remove");
        }
        sources.set(file, sources.get(file).replace(guard, "#ifdef contact_solver_test_no_doubles"));
        OpenClBackend backend = OpenClBackend.open(selector, sources);
        if (backend.kernels().has(Kernels.Signature.RECYCLE_MANIFOLDS)) {
            backend.close();
            throw new IllegalStateException("the recycling kernel was built all the same");
        }
        return backend;
    }

    /** A backend that acts as if the device could allocate at most {@code bytes} at once. */
    public static SolverBackend openWithAllocationLimit(Optional<String> selector, long bytes)
            throws BackendUnavailableException {
        OpenClBackend backend = OpenClBackend.open(selector);
        backend.limitAllocations(bytes);
        return backend;
    }

    /**
     * The backend a default OpenCL solver opens, staging as it does for a GPU whatever the device:
     * in pinned memory, its copies split over {@code runner} in ranges of {@code grain} elements.
     */
    public static SolverBackend openStagingAsForAGpu(Optional<String> selector, ParallelRunner runner, int grain)
            throws BackendUnavailableException {
        return openStagingAsForAGpu(selector, runner, grain, Transfers.BLOCK_STAGING_LIMIT);
    }

    /** {@link #openStagingAsForAGpu}, runs of a block's fields over {@code blockLimit} bytes going straight from and into the block. */
    public static SolverBackend openStagingAsForAGpu(Optional<String> selector, ParallelRunner runner, int grain,
            long blockLimit) throws BackendUnavailableException {
        OpenClBackend backend = OpenClBackend.open(selector);
        backend.stageAsForAGpu(runner, grain, blockLimit);
        return backend;
    }

    /** The backend a default OpenCL solver opens, colouring the hashed order on its device whatever the device. */
    public static SolverBackend openColouringOnDevice(Optional<String> selector) throws BackendUnavailableException {
        return colouringOnDevice(OpenClBackend.open(selector));
    }

    /** {@code backend}, an OpenCL one, colouring the hashed order on its device whatever the device. */
    public static SolverBackend colouringOnDevice(SolverBackend backend) {
        ((OpenClBackend) backend).colourOnDevice(true);
        return backend;
    }

    /** The rounds an OpenCL backend's device ran for its last colouring in the hashed order (0: none ran). */
    public static int colouringRounds(SolverBackend backend) {
        return ((OpenClBackend) backend).colouringRounds();
    }

    /** How many colourings in the hashed order an OpenCL backend's device has made. */
    public static int colourings(SolverBackend backend) {
        return ((OpenClBackend) backend).colourings();
    }

    /** Whether an OpenCL backend's device is a GPU or an accelerator (not the CPU's cores). */
    public static boolean isOffload(SolverBackend backend) {
        return ((OpenClBackend) backend).isOffload();
    }

    /** Bytes of pinned host memory the staging buffers of an OpenCL backend hold now. */
    public static long pinnedStagingBytes(SolverBackend backend) {
        return ((OpenClBackend) backend).pinnedStagingBytes();
    }

    /** The system property that forces the iterative solve's launch path ({@code LaunchPolicy}). */
    public static final String LAUNCH_PROPERTY = LaunchPolicy.PROPERTY;

    /**
     * Whether the iterative solve of {@code rows} rows in one chunk runs in one launch (and so sends
     * the colour boundaries) on the device a default OpenCL solver opens, as the launch policy in
     * force decides, {@link #LAUNCH_PROPERTY} included.
     */
    public static boolean solvesInOneLaunch(int rows) throws BackendUnavailableException {
        OpenClDevices.Device device = OpenClDevices.select(OpenClDevices.list(),
                io.contactsolver.SolverConfig.defaults().device());
        return LaunchPolicy.forDevice(device).oneGroup(rows, 1);
    }

    /**
     * The launch path a GPU of {@code computeUnits} compute units takes for {@code rows} rows in one
     * chunk, as the {@link #LAUNCH_PROPERTY} value that forces it on another device: what an H200
     * (132) does, checked on PoCL. Read with the property unset.
     */
    public static String launchPathOfAGpu(int computeUnits, int rows) {
        OpenClDevices.Device gpu = new OpenClDevices.Device(0, null, null, "platform", "OpenCL 3.0", "a GPU", "vendor",
                "OpenCL 3.0", CL.CL_DEVICE_TYPE_GPU, computeUnits, 80L << 30, 20L << 30, true);
        return LaunchPolicy.forDevice(gpu).oneGroup(rows, 1) ? "one-group" : "per-colour";
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
