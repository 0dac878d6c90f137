package io.contactsolver;

import io.contactsolver.core.BackendUnavailableException;
import io.contactsolver.core.ContactRowField;
import io.contactsolver.core.ParallelRunner;
import io.contactsolver.core.SolveMeter;
import io.contactsolver.core.SolverBackend;
import io.contactsolver.opencl.OpenClBackend;
import io.contactsolver.opencl.OpenClDevices;
import java.lang.System.Logger.Level;
import java.lang.ref.Cleaner;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.joml.Vector3fc;

/**
 * Computes collision impulses for a batch of contacts, with Coulomb friction and rolling
 * resistance where contacts have them, on an OpenCL device or on the CPU, and returns every body's
 * velocity change and every contact's impulses.
 *
 * <p>Convention (docs/physics.md): the normal points from body a to body b; with
 * {@code v_n = (v_pb - v_pa) . n}, a frictionless approaching contact ({@code v_n < 0}) gets
 * {@code j = -(1 + e) v_n / K}, a separating or resting one {@code j = 0}; body a receives
 * {@code -j n} and body b {@code +j n} at the contact point. With friction the impulse {@code P}
 * also has a tangential part, {@code |P_t| <= mu j}; with rolling resistance (iterative solver) an
 * angular impulse {@code |L| <= rho j} resists relative rolling.
 *
 * <p>Creating a solver picks the backend and logs one line, on the {@code System.Logger} named
 * {@code io.contactsolver}, saying which one runs and, where {@link Backend#AUTO} fell back to the
 * CPU, why: at {@code DEBUG} when all is as the machine allows (no OpenCL library, no GPU), as a
 * {@code WARNING} when the fallback leaves a device the configuration named, or a device that was
 * there and failed to open (a kernel build failure, say). Every solve validates its input on the host
 * first ({@link InvalidInputException}, nothing written). If the OpenCL device fails during a
 * solve, its context is dropped, the whole batch is recomputed on the CPU and a warning is logged;
 * later solves stay on the CPU. Results are bit-identical across thread counts and runs, and
 * between the CPU and a device that supports correctly rounded division and square root.
 *
 * <p>A solver is not thread-safe. Close it to release the device and the worker threads. A solver
 * that is dropped without being closed has them released once the garbage collector finds it
 * unreachable, with a {@code WARNING} on the {@code io.contactsolver} logger: a leak is bounded,
 * but only as soon as the collector runs.
 */
public final class ContactSolver implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger("io.contactsolver");

    /**
     * The most contacts one iterative solve or soft step takes, 27,183,337: on the CPU its rows (up
     * to 79 floats each) live in one Java array. Checked before any work or change of state; split
     * a larger batch. The single pass has no such limit below {@link ContactBatch#MAX_SIZE}.
     */
    public static final int MAX_ITERATIVE_CONTACTS = (Integer.MAX_VALUE - 8) / ContactRowField.COUNT;

    /** Opens the OpenCL backend; a seam so tests can inject each way of failing. */
    @FunctionalInterface
    interface OpenClFactory {
        SolverBackend open(Optional<String> deviceSelector) throws BackendUnavailableException;
    }

    // The facade: each public call claims the solver (enter, exit) and hands over to the part that
    // does the work: ActiveBackend (which backend runs, the fallback to the CPU), HostPipeline (the
    // host's stages of a solve), Stepper (the bodies' motion in a step, and the rule that keeps a
    // device's copy of the bodies equal to the host's), OverflowScan (where float overflowed).
    /** One thread for every solver's cleaning action: a solver dropped without {@link #close}. */
    private static final Cleaner CLEANER = Cleaner.create();

    private final ParallelRunner runner;
    /** The backend calls run on, and the fallback to the CPU. */
    private final ActiveBackend backend;
    /** What {@link #close} releases; the same action runs, with a warning, if the solver is dropped unclosed. */
    private final Resources resources;
    private final Cleaner.Cleanable cleanable;
    /** The host's stages of every solve. */
    private final HostPipeline pipeline;
    /** The bodies' motion of every step, around the pipeline. */
    private final Stepper stepper;
    /** The thread inside a call right now, or null. */
    private final java.util.concurrent.atomic.AtomicReference<Thread> user =
            new java.util.concurrent.atomic.AtomicReference<>();
    private volatile boolean closed;

    private ContactSolver(ParallelRunner runner, ActiveBackend backend) {
        this.runner = runner;
        this.backend = backend;
        this.resources = new Resources(runner, backend);
        this.cleanable = CLEANER.register(this, resources);
        SolveMeter clock = new SolveMeter();
        OverflowScan scan = new OverflowScan(runner);
        this.pipeline = new HostPipeline(runner, backend, scan, clock);
        this.stepper = new Stepper(runner, backend, pipeline, scan, clock);
    }

    /**
     * A solver with {@link SolverConfig#defaults()}: the best available backend.
     *
     * @return a new solver, on OpenCL or else on the CPU; close it when done
     */
    public static ContactSolver create() {
        return create(SolverConfig.defaults());
    }

    /**
     * A solver on the configured backend.
     *
     * @param config the backend, the OpenCL device and the thread count
     * @return a new solver; close it when done
     * @throws IllegalStateException if {@link Backend#OPENCL} was asked for and cannot be used
     */
    public static ContactSolver create(SolverConfig config) {
        return create(config, config.backend() == Backend.AUTO ? OpenClBackend::openForAuto : OpenClBackend::open);
    }

    static ContactSolver create(SolverConfig config, OpenClFactory openCl) {
        ParallelRunner runner = new ParallelRunner(config.threads());
        try {
            ActiveBackend backend = ActiveBackend.open(config, openCl, runner);
            LOG.log(backend.fallbackWorthAWarning() ? Level.WARNING : Level.DEBUG, "contact-solver: backend "
                    + backend.description()
                    + (backend.fallbackReason() == null ? "" : "; OpenCL not used: " + backend.fallbackReason()));
            return new ContactSolver(runner, backend);
        } catch (RuntimeException e) {
            runner.close();
            throw e;
        }
    }

    /**
     * Every OpenCL device of every platform, in the order {@link SolverConfig#withDevice} counts them.
     *
     * @return the devices, at least one, in an unmodifiable list
     * @throws IllegalStateException naming the reason when there is none: the OpenCL library cannot
     *     be loaded, or there is no platform or no device
     */
    public static List<DeviceInfo> devices() {
        List<OpenClDevices.Device> found;
        try {
            found = OpenClDevices.list();
        } catch (BackendUnavailableException e) {
            throw new IllegalStateException(e.getMessage(), e);
        } catch (LinkageError e) {
            throw new IllegalStateException("the OpenCL library could not be loaded (" + e + ")", e);
        }
        List<DeviceInfo> devices = new ArrayList<>(found.size());
        for (OpenClDevices.Device d : found) {
            devices.add(new DeviceInfo(d.index(), d.platformName(), d.platformVersion(), d.name(), d.vendor(),
                    d.version(), d.typeName(), d.computeUnits(), d.globalMemory(), d.maxAllocation(),
                    d.correctlyRoundedDivide(), d.summary()));
        }
        return List.copyOf(devices);
    }

    /**
     * The backend solves run on now: {@link Backend#CPU} or {@link Backend#OPENCL}.
     *
     * @return never {@link Backend#AUTO}; {@link Backend#CPU} once a device has failed
     */
    public Backend backend() {
        return backend.kind();
    }

    /**
     * The backend and its device or thread count, in one line.
     *
     * @return the description, as the solver logs it when created
     */
    public String description() {
        return backend.description();
    }

    /**
     * Why OpenCL is not in use, if this solver asked for it (AUTO) and fell back to the CPU.
     *
     * @return the reason, or empty if OpenCL is in use or the CPU was asked for
     */
    public Optional<String> fallbackReason() {
        return Optional.ofNullable(backend.fallbackReason());
    }

    /**
     * Checks bodies and contacts as every solve does, without a solver: for telling input faults
     * apart before a backend is opened. Runs on the calling thread.
     *
     * @param bodies the bodies to check
     * @param contacts the contacts to check, against {@code bodies}
     * @throws InvalidInputException naming the first faulty body, else the first faulty contact
     */
    public static void validate(BodyBatch bodies, ContactBatch contacts) {
        try (ParallelRunner sequential = new ParallelRunner(1)) {
            HostPipeline.validate(bodies, contacts, sequential);
        }
    }

    /**
     * The single-pass solve: each contact's impulse from the pre-solve velocities by the impact law
     * of docs/physics.md, "The frictionless impulse" (with friction: docs/physics.md, "Single pass
     * with friction"), summed per body (one Jacobi pass). Bodies and contacts are not modified.
     *
     * @param bodies the bodies the contacts refer to
     * @param contacts the contacts to solve
     * @param dest receives the deltas and impulses; grown if needed
     * @return {@code dest}
     * @throws InvalidInputException if any body or contact is invalid; {@code dest} is then untouched
     * @throws NonFiniteResultException if valid input overflowed float inside the solve, as
     *     {@link #solve(BodyBatch, ContactBatch, RigidSettings, float, SolveResult, SolveResult)} says
     * @throws IllegalStateException if the solver is closed, or another call is running on it
     */
    public SolveResult solve(BodyBatch bodies, ContactBatch contacts, SolveResult dest) {
        return solve(bodies, contacts, SolveSettings.singlePass(), null, dest);
    }

    /**
     * {@link #solve(BodyBatch, ContactBatch, RigidSettings, SolveResult, SolveResult)} without a warm start.
     *
     * @param bodies the bodies the contacts refer to; not modified
     * @param contacts the contacts to solve; not modified
     * @param settings the solver and its settings: the single pass or the iterative solver, without
     *     positional correction
     * @param dest receives deltas, impulses, ids and iteration figures; grown if needed
     * @return {@code dest}
     * @throws InvalidInputException if any body or contact is invalid; {@code dest} is then untouched
     * @throws NonFiniteResultException if valid input overflowed float inside the solve
     * @throws IllegalArgumentException if {@code settings} ask for positional correction (it needs the
     *     time step:
     *     {@link #solve(BodyBatch, ContactBatch, RigidSettings, float, SolveResult, SolveResult)}), or an
     *     iterative solve has more than {@link #MAX_ITERATIVE_CONTACTS} contacts
     * @throws IllegalStateException if the solver is closed, or another call is running on it
     */
    public SolveResult solve(BodyBatch bodies, ContactBatch contacts, RigidSettings settings, SolveResult dest) {
        return solve(bodies, contacts, settings, null, dest);
    }

    /**
     * {@link #solve(BodyBatch, ContactBatch, RigidSettings, float, SolveResult, SolveResult)} for
     * settings without positional correction, which need no time step.
     *
     * @param bodies the bodies the contacts refer to
     * @param contacts the contacts to solve
     * @param settings the solver and its settings: the single pass or the iterative solver, without
     *     positional correction
     * @param warmStart the previous step's result (iterative solver only; null to start from zero);
     *     must not be {@code dest}
     * @param dest receives deltas, impulses, ids and iteration figures; grown if needed
     * @return {@code dest}
     * @throws InvalidInputException as the solve with a time step
     * @throws NonFiniteResultException as the solve with a time step
     * @throws IllegalArgumentException if {@code settings} ask for positional correction (it needs the
     *     time step), or as the solve with a time step
     * @throws IllegalStateException if the solver is closed, or another call is running on it
     */
    public SolveResult solve(BodyBatch bodies, ContactBatch contacts, RigidSettings settings, SolveResult warmStart,
            SolveResult dest) {
        enter("solve");
        try {
            return pipeline.solve(bodies, contacts, settings, HostPipeline.NO_TIME_STEP, warmStart, dest);
        } finally {
            exit();
        }
    }

    /**
     * Solves with the given settings. The iterative solver resolves all contacts together (projected
     * Gauss-Seidel over a colouring of the contact graph); for a contact alone on its bodies it gives
     * the single-pass result. Its body velocity changes are unique (they solve a convex quadratic
     * programme), so they do not depend on the warm start, only the number of iterations does.
     * Bodies and contacts are not modified.
     *
     * <p>The time step is what positional correction divides by, the only one it reads (the settings
     * hold its bias factor and slop, and no time step); without positional correction it is checked
     * and not used. The soft step is no solve: it moves bodies between its substeps, and its settings
     * are not {@link RigidSettings} ({@link #step}).
     *
     * @param bodies the bodies the contacts refer to
     * @param contacts the contacts to solve
     * @param settings the solver and its settings: the single pass or the iterative solver
     * @param timeStep the simulation's time step in seconds, positive, with a finite inverse
     * @param warmStart the previous step's result: contacts whose id appears there start from the
     *     impulse they ended with (iterative solver only; null to start from zero); must not be
     *     {@code dest}
     * @param dest receives deltas, impulses, ids and iteration figures; grown if needed
     * @return {@code dest}
     * @throws InvalidInputException if any body or contact is invalid, or (iterative solver, warm
     *     started or not) two contacts have the same id; {@code dest} is then untouched
     * @throws NonFiniteResultException if valid input overflowed float inside the solve: the first
     *     contact (lowest index) whose {@code K} or {@code v_n} is not finite, found before anything
     *     is written, else the first contact with a non-finite impulse, else the first body with a
     *     non-finite velocity change; {@code dest} then holds no usable result
     * @throws IllegalArgumentException if {@code timeStep} is not positive, not finite or has no
     *     finite inverse, {@code warmStart} is {@code dest} or has two contacts with an id the batch
     *     has (a single pass's result, whose ids are not checked), or an iterative solve has more than
     *     {@link #MAX_ITERATIVE_CONTACTS} contacts
     * @throws IllegalStateException if the solver is closed, or another call is running on it
     */
    public SolveResult solve(BodyBatch bodies, ContactBatch contacts, RigidSettings settings, float timeStep,
            SolveResult warmStart, SolveResult dest) {
        enter("solve");
        try {
            return pipeline.solve(bodies, contacts, settings, SettingChecks.solveTimeStep(timeStep), warmStart, dest);
        } finally {
            exit();
        }
    }

    /**
     * One simulation step (semi-implicit Euler): {@code v += g dt} for every body with mass, the
     * solve, then {@code v += dv}, {@code w += dw}, {@code x += v dt} and the orientation turned by
     * {@code w dt}. The bodies in {@code bodies} are updated in place.
     *
     * <p>On OpenCL the step is device-resident: the device keeps its own copy of the bodies and
     * applies the same updates to it, with the same float operations, so the two copies stay equal
     * and bodies are not sent again; only contacts go up and deltas and impulses come down (plus any
     * body field the caller wrote since the last step). On the CPU the same updates run on the host.
     * Either way the trajectory is the same, bit for bit.
     *
     * <p>With {@link SoftStepSettings} the step is instead split into substeps, each with a
     * soft solve and a relax sweep over the contact manifolds (docs/physics.md, "Soft step"); the
     * manifolds are set up once, at the start of the step, recycled from {@code warmStart}'s where
     * their bodies have barely moved ("Contact recycling").
     *
     * @param bodies the bodies, updated in place
     * @param contacts this step's contacts, found from the bodies as they are before the step; not
     *     modified
     * @param settings the solver and its settings: single pass, iterative or soft step; positional
     *     correction, where {@link RigidSettings} ask for it, divides by {@code timeStep}
     * @param gravity acceleration of every body with inverse mass {@code > 0}, in m/s^2, finite
     * @param timeStep the step in seconds, positive, finite and normal
     * @param warmStart the previous step's result (iterative solver and soft step), or null; must
     *     not be {@code dest}
     * @param dest receives the velocity changes the contacts made and the impulses; grown if needed
     * @return {@code dest}
     * @throws InvalidInputException as {@link #solve}; the bodies are then unchanged
     * @throws NonFiniteResultException as {@link #solve}, or if a body's integrated state came out
     *     non-finite or its orientation no longer a unit quaternion; the bodies are then unchanged too
     * @throws IllegalArgumentException if the time step or gravity fails
     *     {@link SolveSettings#checkStep} (not positive, not finite, subnormal, so long that gravity
     *     would carry a body beyond float's range, or for the soft step a substep or soft coefficient
     *     that is not finite or is zero or subnormal; the message names the time step and the
     *     quantity), {@code warmStart} is {@code dest}, or a solve has more than
     *     {@link #MAX_ITERATIVE_CONTACTS} contacts where that limit applies
     * @throws IllegalStateException if the solver is closed, or another call is running on it
     */
    public SolveResult step(BodyBatch bodies, ContactBatch contacts, SolveSettings settings, Vector3fc gravity,
            float timeStep, SolveResult warmStart, SolveResult dest) {
        enter("step");
        try {
            return stepper.step(bodies, contacts, settings, gravity, timeStep, warmStart, dest);
        } finally {
            exit();
        }
    }

    /**
     * {@link #solve(BodyBatch, ContactBatch, RigidSettings, SolveResult, SolveResult)} warm started
     * from {@code history}'s latest result, which this call's result then replaces in it.
     *
     * @param bodies the bodies, unchanged
     * @param contacts the contacts, with ids that last as long as a contact does
     * @param settings how to solve, without positional correction
     * @param history the last result of this sequence of solves; left as it was if this call throws
     * @return this call's result, held by {@code history} (valid until the second call after this)
     * @throws InvalidInputException as the solve it wraps
     * @throws NonFiniteResultException as the solve it wraps
     */
    public SolveResult solve(BodyBatch bodies, ContactBatch contacts, RigidSettings settings, SolveHistory history) {
        Objects.requireNonNull(history, "history");
        solve(bodies, contacts, settings, history.warmStart(), history.next());
        return history.advance();
    }

    /**
     * {@link #solve(BodyBatch, ContactBatch, RigidSettings, float, SolveResult, SolveResult)} warm
     * started from {@code history}'s latest result, which this call's result then replaces in it.
     *
     * @param bodies the bodies, unchanged
     * @param contacts the contacts, with ids that last as long as a contact does
     * @param settings how to solve
     * @param timeStep the simulation's time step in seconds, which positional correction divides by
     * @param history the last result of this sequence of solves; left as it was if this call throws
     * @return this call's result, held by {@code history} (valid until the second call after this)
     * @throws InvalidInputException as the solve it wraps
     * @throws NonFiniteResultException as the solve it wraps
     */
    public SolveResult solve(BodyBatch bodies, ContactBatch contacts, RigidSettings settings, float timeStep,
            SolveHistory history) {
        Objects.requireNonNull(history, "history");
        solve(bodies, contacts, settings, timeStep, history.warmStart(), history.next());
        return history.advance();
    }

    /**
     * {@link #step(BodyBatch, ContactBatch, SolveSettings, Vector3fc, float, SolveResult, SolveResult)}
     * warm started from {@code history}'s latest result, which this step's result then replaces in
     * it: no previous, current and spare results to juggle.
     *
     * @param bodies the bodies, moved by one step in place
     * @param contacts the contacts, with ids that last as long as a contact does
     * @param settings how to solve (the soft step, {@link SolveSettings#softStep()}, for stacks)
     * @param gravity acceleration of every body with inverse mass {@code > 0}, in m/s^2
     * @param timeStep the step in seconds, positive
     * @param history the last result of this simulation; left as it was if this step throws
     * @return this step's result, held by {@code history} (valid until the second step after this)
     * @throws InvalidInputException as the step it wraps; the bodies are then unchanged
     * @throws NonFiniteResultException as the step it wraps; the bodies are then unchanged
     */
    public SolveResult step(BodyBatch bodies, ContactBatch contacts, SolveSettings settings, Vector3fc gravity,
            float timeStep, SolveHistory history) {
        Objects.requireNonNull(history, "history");
        step(bodies, contacts, settings, gravity, timeStep, history.warmStart(), history.next());
        return history.advance();
    }

    /**
     * Claims the solver for one call on this thread: a closed solver, or one another thread is using
     * right now, is refused with an {@link IllegalStateException} before anything is read or written
     * (a shared solver would otherwise mix two calls' working arrays, or crash in the device driver).
     */
    private void enter(String call) {
        if (closed) {
            throw new IllegalStateException("contact solver: " + call + " on a closed solver");
        }
        Thread current = Thread.currentThread();
        if (!user.compareAndSet(null, current)) {
            Thread other = user.get();
            throw new IllegalStateException("contact solver: " + call + " while another call runs"
                    + (other == current ? " on this thread" : " on another thread")
                    + "; a solver is for one thread at a time: give each thread its own");
        }
        if (closed) { // closed between the check and the claim
            user.set(null);
            throw new IllegalStateException("contact solver: " + call + " on a closed solver");
        }
    }

    private void exit() {
        user.set(null);
    }

    /**
     * Releases the device and the worker threads. Closing again does nothing; every call after it
     * throws {@link IllegalStateException}.
     *
     * @throws IllegalStateException if another thread is inside a call on this solver
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        enter("close");
        closed = true;
        try {
            resources.closedByOwner = true;
            cleanable.clean();
        } finally {
            exit();
        }
    }

    /**
     * The device and the worker threads, released once: by {@link #close}, or by the cleaner once
     * the solver is unreachable and was never closed (then with a warning, since threads and device
     * memory were held until the garbage collector came by). It must not refer to the solver, or
     * the solver would never become unreachable: it holds only what it releases.
     */
    private static final class Resources implements Runnable {
        private final ParallelRunner runner;
        private final ActiveBackend backend;
        /** Set by {@link #close} before it runs this action; unset when the cleaner does. */
        private volatile boolean closedByOwner;

        Resources(ParallelRunner runner, ActiveBackend backend) {
            this.runner = runner;
            this.backend = backend;
        }

        @Override
        public void run() {
            if (!closedByOwner) {
                LOG.log(Level.WARNING, "contact-solver: a solver on " + backend.description() + " was not closed; "
                        + "its threads and device memory are released now that it is unreachable (close every "
                        + "ContactSolver, for example with try-with-resources)");
            }
            try {
                backend.close();
            } finally {
                runner.close();
            }
        }
    }
}
