package io.contactsolver;

import io.contactsolver.core.BackendFailureException;
import io.contactsolver.core.BackendUnavailableException;
import io.contactsolver.core.ParallelRunner;
import io.contactsolver.core.SolverBackend;
import io.contactsolver.cpu.CpuBackend;
import java.lang.System.Logger.Level;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The backend a solver's calls run on, and the one home of falling back to the CPU: when the solver
 * is opened ({@link #open}: {@link Backend#AUTO} takes the CPU where OpenCL cannot be had), and
 * when a device fails during a call ({@link #solve}, {@link #onDevice}: its context is dropped, a
 * warning logged, and every later call runs on the CPU). The host's data is authoritative
 * throughout, so a solve the device failed is recomputed whole on the CPU from the same job.
 */
final class ActiveBackend implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger("io.contactsolver");

    private final ParallelRunner runner;
    private SolverBackend backend;
    private Backend kind;
    private String fallbackReason;
    /** The fallback left a device the user named, or one that was there and failed to open. */
    private boolean fallbackWorthAWarning;

    private ActiveBackend(ParallelRunner runner, SolverBackend backend, Backend kind, String fallbackReason) {
        this.runner = runner;
        this.backend = backend;
        this.kind = kind;
        this.fallbackReason = fallbackReason;
    }

    /**
     * The backend {@code config} asks for: the CPU, OpenCL, or for {@link Backend#AUTO} OpenCL if
     * {@code openCl} opens it and else the CPU, with the reason kept.
     *
     * @throws IllegalStateException if {@link Backend#OPENCL} was asked for and cannot be used
     */
    static ActiveBackend open(SolverConfig config, ContactSolver.OpenClFactory openCl, ParallelRunner runner) {
        if (config.backend() == Backend.CPU) {
            return new ActiveBackend(runner, new CpuBackend(runner), Backend.CPU, null);
        }
        String reason;
        boolean deviceChosen = false;
        try {
            SolverBackend device = openCl.open(config.device());
            device.shareThreads(runner);
            return new ActiveBackend(runner, device, Backend.OPENCL, null);
        } catch (BackendUnavailableException e) {
            reason = e.getMessage();
            deviceChosen = e.deviceChosen();
        } catch (LinkageError e) {
            // JOCL's native library, or libOpenCL.so.1 behind it, could not be loaded
            reason = "OpenCL library could not be loaded (" + e + ")";
        }
        if (config.backend() == Backend.OPENCL) {
            throw new IllegalStateException("OpenCL backend unavailable: " + reason);
        }
        ActiveBackend active = new ActiveBackend(runner, new CpuBackend(runner), Backend.CPU, reason);
        // quiet where the machine simply has nothing better; loud where the user named a device or
        // a device was there and failed, since then they expected it to run
        active.fallbackWorthAWarning = deviceChosen || config.device().isPresent();
        return active;
    }

    /** {@link Backend#CPU} or {@link Backend#OPENCL}: the one calls run on now. */
    Backend kind() {
        return kind;
    }

    /** The backend calls run on now; after a device failure, the CPU. */
    SolverBackend current() {
        return backend;
    }

    String description() {
        return backend.description();
    }

    /** Why OpenCL is not in use, or null if it is or the CPU was asked for. */
    String fallbackReason() {
        return fallbackReason;
    }

    /** Whether the solver's creation line is a warning rather than a debug line. */
    boolean fallbackWorthAWarning() {
        return fallbackWorthAWarning;
    }

    /**
     * Runs {@code call} on the current backend; if the device fails, drops it and runs the same
     * call again on the CPU. The call must read only host data, which a failed device leaves as it was.
     */
    <T> T solve(Function<SolverBackend, T> call) {
        try {
            return call.apply(backend);
        } catch (BackendFailureException failure) {
            fallBackToCpu(failure);
            return call.apply(backend);
        }
    }

    /** A device-side update of the bodies; if the device fails, it is dropped: the host copy is authoritative. */
    void onDevice(Consumer<SolverBackend> update) {
        try {
            update.accept(backend);
        } catch (BackendFailureException failure) {
            fallBackToCpu(failure);
        }
    }

    private void fallBackToCpu(BackendFailureException failure) {
        LOG.log(Level.WARNING, "contact-solver: " + backend.description() + " failed during a solve ("
                + failure.getMessage() + "); context dropped, batch recomputed on the CPU");
        try {
            backend.close();
        } catch (RuntimeException closeFailure) {
            failure.addSuppressed(closeFailure);
        }
        backend = new CpuBackend(runner);
        kind = Backend.CPU;
        fallbackReason = "device failed during a solve: " + failure.getMessage();
    }

    @Override
    public void close() {
        backend.close();
    }
}
