package io.contactsolver.opencl;

import static org.jocl.CL.clFinish;

import io.contactsolver.core.BackendFailureException;
import io.contactsolver.core.BackendUnavailableException;
import io.contactsolver.core.ContactColoring;
import io.contactsolver.core.FieldBlock;
import io.contactsolver.core.InputScreen;
import io.contactsolver.core.IterationOutcome;
import io.contactsolver.core.IterativeJob;
import io.contactsolver.core.ManifoldGrouping;
import io.contactsolver.core.ParallelRunner;
import io.contactsolver.core.SinglePassJob;
import io.contactsolver.core.SoftStepJob;
import io.contactsolver.core.SolveMeter;
import io.contactsolver.core.SolverBackend;
import io.contactsolver.layout.BodyField;
import io.contactsolver.layout.DeltaField;
import io.contactsolver.opencl.OpenClDevices.Device;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.jocl.CLException;
import org.jocl.Sizeof;
import org.jocl.cl_mem;

/**
 * The OpenCL backend: the kernels of {@code kernels/*.cl} on one device. It puts together the
 * device's program and kernels ({@link OpenClProgram}, launched through the typed {@link Kernels}),
 * the buffers the solvers share ({@link DeviceMemory}), the two solvers' pipelines and the soft
 * step's ({@link SinglePassPipeline}, {@link IterativePipeline}, {@link SoftStepPipeline}) and the
 * device copy of the bodies that stepping keeps equal to the host's (the mirror rule: the API
 * package's {@code Stepper}; the {@code mirror*} methods here are its device side).
 *
 * <p>Inputs go up as rectangular copies of the structure-of-arrays blocks (host stride = batch
 * capacity, device stride = count), skipping fields that have not been written since they last went
 * up; the host-built index or colouring goes up through staging buffers; the deltas and impulses
 * come down the same way. All copies are non-blocking and a solve waits once, at the end
 * ({@link Transfers}). An OpenCL error during a solve is reported as a
 * {@link BackendFailureException}; the caller drops this backend and recomputes on the CPU.
 */
public final class OpenClBackend implements SolverBackend {
    private final OpenClProgram cl;
    private final DeviceMemory memory;
    private final SinglePassPipeline singlePass;
    private final IterativePipeline iterative;
    private final SoftStepPipeline soft;
    private final DeviceColouring colouring;
    /** Whether the hashed order is coloured on the device: on a GPU or an accelerator, or where a test asks. */
    private boolean colourOnDevice;
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

    /**
     * The backend {@code Backend.AUTO} takes: on the device {@code selector} names, else on a GPU or
     * accelerator ({@link OpenClDevices#selectForAuto}); never on an OpenCL CPU device unasked.
     */
    public static OpenClBackend openForAuto(Optional<String> selector) throws BackendUnavailableException {
        return open(OpenClDevices.selectForAuto(OpenClDevices.list(), selector), KernelSource.load());
    }

    static OpenClBackend open(Optional<String> selector, List<String> sources) throws BackendUnavailableException {
        return open(OpenClDevices.select(OpenClDevices.list(), selector), sources);
    }

    private static OpenClBackend open(Device device, List<String> sources) throws BackendUnavailableException {
        SignalChaining.warnIfNeeded(device.platformName());
        try {
            return new OpenClBackend(new OpenClProgram(device, sources));
        } catch (BackendUnavailableException e) {
            throw e.onChosenDevice();
        }
    }

    private OpenClBackend(OpenClProgram cl) {
        this.cl = cl;
        try {
            this.memory = new DeviceMemory(cl);
        } catch (RuntimeException e) {
            cl.close();
            throw e;
        }
        this.singlePass = new SinglePassPipeline(cl, memory);
        this.iterative = new IterativePipeline(cl, memory);
        this.soft = new SoftStepPipeline(cl, memory);
        this.colouring = new DeviceColouring(cl, memory);
        this.colourOnDevice = OpenClDevices.isOffload(cl.device);
    }

    public Device device() {
        return cl.device;
    }

    @Override
    public String description() {
        Device device = cl.device;
        return "OpenCL on '" + device.name() + "' (" + device.platformName() + ", " + device.typeName()
                + (device.correctlyRoundedDivide() ? "" : ", division not correctly rounded") + ")";
    }

    /** Test seam: runs before each stage of a solve ("upload", "kernels", "readback"). */
    void setFaultHook(Consumer<String> hook) {
        this.faultHook = hook;
    }

    /** Test seam: pretends the device's largest allocation is {@code bytes}, to force chunking. */
    void limitAllocations(long bytes) {
        memory.limitAllocations(bytes);
    }

    /** The threads for the staging copies, which {@code Transfers} takes for a GPU or an accelerator only. */
    @Override
    public void shareThreads(ParallelRunner runner) {
        memory.transfers.shareThreads(runner);
    }

    /**
     * Test seam: staging as for a GPU (pinned, copies split over {@code runner} in ranges of
     * {@code grain}, runs of a block's fields over {@code blockLimit} bytes not staged), whatever the device.
     */
    void stageAsForAGpu(ParallelRunner runner, int grain, long blockLimit) {
        memory.transfers.stageAsForAGpu(runner, grain, blockLimit);
    }

    /** Test seam: whether the device is a GPU or an accelerator. */
    boolean isOffload() {
        return OpenClDevices.isOffload(cl.device);
    }

    /** Test seam: bytes of pinned host memory its staging buffers hold. */
    long pinnedStagingBytes() {
        return memory.transfers.pinnedBytes();
    }

    /** Test seam: the typed launchers, to check them against the built program. */
    Kernels kernels() {
        return cl.kernels;
    }

    @Override
    public void solveSinglePass(SinglePassJob job) {
        Stage stage = stage();
        try {
            singlePass.solve(job, stage);
        } catch (CLException e) {
            throw stage.failure(e);
        } finally {
            memory.transfers.reset();
        }
    }

    @Override
    public IterationOutcome solveIterative(IterativeJob job) {
        Stage stage = stage();
        try {
            return iterative.solve(job, stage);
        } catch (CLException e) {
            throw stage.failure(e);
        } finally {
            memory.transfers.reset();
        }
    }

    @Override
    public boolean recyclesOnDevice() {
        return true;
    }

    /** A launch a colour costs the host more than a body's gather costs the device (docs/backends.md, "Kernel launchers"). */
    @Override
    public boolean startsSubstepsByBody() {
        return true;
    }

    @Override
    public InputScreen screen(FieldBlock bodies, int bodyCount, FieldBlock contacts, FieldBlock links,
            int[] manifolds, ManifoldGrouping numbering, int contactCount, SolveMeter clock) {
        Stage stage = stage();
        try {
            return soft.screen(bodies, bodyCount, contacts, links, manifolds, numbering, contactCount, clock, stage);
        } catch (CLException e) {
            throw stage.failure(e);
        } finally {
            memory.transfers.reset();
        }
    }

    /**
     * On a GPU or an accelerator the device colours (its rounds, {@link DeviceColouring}); on a CPU
     * device the host's one pass, on the same cores, costs less than the rounds.
     */
    @Override
    public void colourHashed(ContactColoring.HashedColouring hashed) {
        if (!colourOnDevice) {
            hashed.colourOnHost();
            return;
        }
        Stage stage = stage();
        try {
            stage.enter("colouring");
            colouring.colour(hashed);
        } catch (CLException e) {
            throw stage.failure(e);
        } finally {
            memory.transfers.reset();
        }
    }

    /** Test seam: the hashed order coloured on the device, or on the host, whatever the device. */
    void colourOnDevice(boolean onDevice) {
        this.colourOnDevice = onDevice;
    }

    /** Test seam: the rounds the device's last colouring ran. */
    int colouringRounds() {
        return colouring.rounds();
    }

    /** Test seam: how many colourings the device has made. */
    int colourings() {
        return colouring.colourings();
    }

    @Override
    public IterationOutcome softStep(SoftStepJob job) {
        Stage stage = stage();
        try {
            return soft.step(job, stage);
        } catch (CLException e) {
            throw stage.failure(e);
        } finally {
            memory.transfers.reset();
        }
    }

    @Override
    public void mirrorSoftStep(FieldBlock block, int count) {
        try {
            soft.commit(block, count);
        } catch (CLException e) {
            memory.bodies.forgetMirror();
            throw new BackendFailureException(e.getMessage() + " while updating bodies on the device", e);
        }
    }

    private Stage stage() {
        if (closed) {
            throw new IllegalStateException("OpenCL backend is closed");
        }
        return new Stage(faultHook);
    }

    @Override
    public long syncBodies(FieldBlock block, int count) {
        try {
            memory.transfers.uploadBlock(memory.bodies, block, count, BodyField.COUNT);
            clFinish(cl.queue); // the host writes these fields next; the copies must be done reading them
            return memory.transfers.bytesUp();
        } catch (CLException e) {
            throw new BackendFailureException(e.getMessage() + " while sending bodies", e);
        } finally {
            memory.transfers.reset();
        }
    }

    @Override
    public void mirrorGravity(FieldBlock block, int count, float gx, float gy, float gz, float dt) {
        cl_mem bodies = memory.bodies.require((long) count * BodyField.COUNT * Sizeof.cl_float);
        mirror(block, count, () -> cl.kernels.applyGravity(count, new Kernels.BodyBlock(bodies, count, count), gx, gy,
                gz, dt));
    }

    @Override
    public void mirrorIntegration(FieldBlock block, int count, float dt) {
        cl_mem bodies = memory.bodies.require((long) count * BodyField.COUNT * Sizeof.cl_float);
        cl_mem deltas = memory.deltas.require((long) count * DeltaField.COUNT * Sizeof.cl_float);
        mirror(block, count, () -> cl.kernels.integrateBodies(count, new Kernels.BodyBlock(bodies, count, count),
                new Kernels.Strided(deltas, count), dt));
    }

    /** Runs an update kernel on the device copy of the bodies, which then equals the host's updated copy. */
    private void mirror(FieldBlock block, int count, Runnable update) {
        try {
            update.run();
            clFinish(cl.queue);
            memory.bodies.recordMirror(block, count, BodyField.COUNT);
        } catch (CLException e) {
            memory.bodies.forgetMirror();
            throw new BackendFailureException(e.getMessage() + " while updating bodies on the device", e);
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        List<RuntimeException> failures = new ArrayList<>();
        // a result stepped here stays a warm start elsewhere: what only the device holds of it comes down first
        OpenClProgram.attempt(soft::fetchKept, failures);
        OpenClProgram.attempt(memory::close, failures);
        OpenClProgram.attempt(cl::close, failures);
        if (!failures.isEmpty()) {
            RuntimeException first = failures.get(0);
            failures.subList(1, failures.size()).forEach(first::addSuppressed);
            throw first;
        }
    }
}
