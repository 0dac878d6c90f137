package io.contactsolver;

import io.contactsolver.core.BackendFailureException;
import io.contactsolver.core.BackendUnavailableException;
import io.contactsolver.core.BodyContactIndex;
import io.contactsolver.core.BodySnapshot;
import io.contactsolver.core.ContactColoring;
import io.contactsolver.core.ContactRowField;
import io.contactsolver.core.FieldBlock;
import io.contactsolver.core.FrictionUse;
import io.contactsolver.core.InputFault;
import io.contactsolver.core.InputMagnitudes;
import io.contactsolver.core.InputValidator;
import io.contactsolver.core.IterationOutcome;
import io.contactsolver.core.IterativeJob;
import io.contactsolver.core.MovableBodies;
import io.contactsolver.core.ParallelRunner;
import io.contactsolver.core.SinglePassJob;
import io.contactsolver.core.SolveJob;
import io.contactsolver.core.SolveMeter;
import io.contactsolver.core.SoftCoefficients;
import io.contactsolver.core.SoftStepJob;
import io.contactsolver.core.SolverBackend;
import io.contactsolver.core.TargetRule;
import io.contactsolver.core.WarmStart;
import io.contactsolver.cpu.CpuBackend;
import io.contactsolver.cpu.Integrator;
import io.contactsolver.cpu.NormalRows;
import io.contactsolver.layout.BodyField;
import io.contactsolver.layout.DeltaField;
import io.contactsolver.layout.ImpulseField;
import io.contactsolver.layout.SolvePhase;
import io.contactsolver.opencl.OpenClBackend;
import io.contactsolver.opencl.OpenClDevices;
import java.lang.System.Logger.Level;
import java.nio.FloatBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
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
 * <p>A solver is not thread-safe. Close it to release the device and the worker threads.
 */
public final class ContactSolver implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger("io.contactsolver");

    /**
     * The most contacts one iterative solve or soft step takes, 30,678,337: on the CPU its rows (up
     * to 70 floats each) live in one Java array. Checked before any work or change of state; split
     * a larger batch. The single pass has no such limit below {@link ContactBatch#MAX_SIZE}.
     */
    public static final int MAX_ITERATIVE_CONTACTS = (Integer.MAX_VALUE - 8) / ContactRowField.COUNT;

    /** Opens the OpenCL backend; a seam so tests can inject each way of failing. */
    @FunctionalInterface
    interface OpenClFactory {
        SolverBackend open(Optional<String> deviceSelector) throws BackendUnavailableException;
    }

    private static final IterationOutcome SINGLE_PASS_OUTCOME = new IterationOutcome(1, 0.0f);

    private final ParallelRunner runner;
    private final MovableBodies movable = new MovableBodies();
    private final BodyContactIndex index = new BodyContactIndex();
    private final ContactColoring coloring = new ContactColoring();
    private final WarmStart warmStarts = new WarmStart();
    private final SolveMeter clock = new SolveMeter();
    private SolverBackend backend;
    private Backend kind;
    /** The thread inside a call right now, or null. */
    private final java.util.concurrent.atomic.AtomicReference<Thread> user =
            new java.util.concurrent.atomic.AtomicReference<>();
    private volatile boolean closed;
    private String fallbackReason;
    /** The fallback left a device the user named, or one that was there and failed to open. */
    private boolean fallbackWorthAWarning;
    private boolean warnedRollingIgnored;
    /** {@code step}'s copy of the bodies' moving state, put back if anything fails after gravity. */
    private final BodySnapshot snapshot = new BodySnapshot();
    /** The soft step's bodies at the end of the step, committed to the caller's bodies once checked. */
    private FieldBlock nextBodies;

    private ContactSolver(ParallelRunner runner, SolverBackend backend, Backend kind, String fallbackReason) {
        this.runner = runner;
        this.backend = backend;
        this.kind = kind;
        this.fallbackReason = fallbackReason;
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
            ContactSolver solver = open(config, openCl, runner);
            LOG.log(solver.fallbackWorthAWarning ? Level.WARNING : Level.DEBUG, "contact-solver: backend "
                    + solver.description()
                    + (solver.fallbackReason == null ? "" : "; OpenCL not used: " + solver.fallbackReason));
            return solver;
        } catch (RuntimeException e) {
            runner.close();
            throw e;
        }
    }

    private static ContactSolver open(SolverConfig config, OpenClFactory openCl, ParallelRunner runner) {
        if (config.backend() == Backend.CPU) {
            return new ContactSolver(runner, new CpuBackend(runner), Backend.CPU, null);
        }
        String reason;
        boolean deviceChosen = false;
        try {
            return new ContactSolver(runner, openCl.open(config.device()), Backend.OPENCL, null);
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
        ContactSolver solver = new ContactSolver(runner, new CpuBackend(runner), Backend.CPU, reason);
        // quiet where the machine simply has nothing better; loud where the user named a device or
        // a device was there and failed, since then they expected it to run
        solver.fallbackWorthAWarning = deviceChosen || config.device().isPresent();
        return solver;
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
        return kind;
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
        return Optional.ofNullable(fallbackReason);
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
            validate(bodies, contacts, sequential);
        }
    }

    private static InputMagnitudes validate(BodyBatch bodies, ContactBatch contacts, ParallelRunner runner) {
        try {
            return InputValidator.validate(bodies.block(), bodies.size(), contacts.floatBlock(), contacts.linkBlock(),
                    contacts.size(), runner);
        } catch (InputFault fault) {
            throw InvalidInputException.of(fault);
        }
    }

    /**
     * Throws {@link NonFiniteResultException} for the lowest contact whose normal row cannot be
     * formed in float: its {@code K} ({@link NonFiniteResultException#EFFECTIVE_MASS}), else its
     * {@code v_n} ({@link NonFiniteResultException#NORMAL_VELOCITY}), not finite. Checked here, before
     * any backend runs, because the solvers would part ways on such a row: the iterative solver
     * switches it off ({@code K > 0} fails on NaN) where the single pass overflows, or a NaN
     * {@code v_n} gives the single pass {@code j = 0} where the iterative solver overflows. Only a
     * batch whose magnitudes could overflow has its rows evaluated one by one, as every solver
     * evaluates them.
     *
     * @param velocitySlack how much a velocity may have grown since validation (a step's gravity)
     */
    private void requireFiniteNormalRows(BodyBatch bodies, ContactBatch contacts, InputMagnitudes magnitudes,
            double velocitySlack) {
        if (magnitudes.boundNormalRows(velocitySlack)) {
            return;
        }
        FieldBlock block = bodies.block();
        int contact = NormalRows.firstNonFinite(block, contacts.floatBlock(), contacts.linkBlock(), contacts.size(),
                runner);
        if (contact < 0) {
            return;
        }
        float k = NormalRows.effectiveInverseMass(block, contacts.floatBlock(), contacts.linkBlock(), contact);
        if (!Float.isFinite(k)) {
            throw new NonFiniteResultException(InvalidInputException.Subject.CONTACT, contact,
                    NonFiniteResultException.EFFECTIVE_MASS, k);
        }
        throw new NonFiniteResultException(InvalidInputException.Subject.CONTACT, contact,
                NonFiniteResultException.NORMAL_VELOCITY,
                NormalRows.normalVelocity(block, contacts.floatBlock(), contacts.linkBlock(), contact));
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
     *     {@link #solve(BodyBatch, ContactBatch, SolveSettings, SolveResult, SolveResult)} says
     * @throws IllegalStateException if the solver is closed, or another call is running on it
     */
    public SolveResult solve(BodyBatch bodies, ContactBatch contacts, SolveResult dest) {
        return solve(bodies, contacts, SolveSettings.singlePass(), null, dest);
    }

    /**
     * {@link #solve(BodyBatch, ContactBatch, SolveSettings, SolveResult, SolveResult)} without a warm start.
     *
     * @param bodies the bodies the contacts refer to; not modified
     * @param contacts the contacts to solve; not modified
     * @param settings the solver and its settings: the single pass or the iterative solver
     * @param dest receives deltas, impulses, ids and iteration figures; grown if needed
     * @return {@code dest}
     * @throws InvalidInputException if any body or contact is invalid; {@code dest} is then untouched
     * @throws NonFiniteResultException if valid input overflowed float inside the solve
     * @throws IllegalArgumentException if {@code settings} are the soft step's (use {@link #step}),
     *     or an iterative solve has more than {@link #MAX_ITERATIVE_CONTACTS} contacts
     * @throws IllegalStateException if the solver is closed, or another call is running on it
     */
    public SolveResult solve(BodyBatch bodies, ContactBatch contacts, SolveSettings settings, SolveResult dest) {
        return solve(bodies, contacts, settings, null, dest);
    }

    /**
     * Solves with the given settings. The iterative solver resolves all contacts together (projected
     * Gauss-Seidel over a colouring of the contact graph); for a contact alone on its bodies it gives
     * the single-pass result. Its body velocity changes are unique (they solve a convex quadratic
     * programme), so they do not depend on the warm start, only the number of iterations does.
     * Bodies and contacts are not modified.
     *
     * @param bodies the bodies the contacts refer to
     * @param contacts the contacts to solve
     * @param settings the solver and its settings: the single pass or the iterative solver
     * @param warmStart the previous step's result: contacts whose id appears there start from the
     *     impulse they ended with (iterative solver only; null to start from zero); must not be
     *     {@code dest}
     * @param dest receives deltas, impulses, ids and iteration figures; grown if needed
     * @return {@code dest}
     * @throws InvalidInputException if any body or contact is invalid, or a warm start meets two
     *     contacts with the same id; {@code dest} is then untouched
     * @throws NonFiniteResultException if valid input overflowed float inside the solve: the first
     *     contact (lowest index) whose {@code K} or {@code v_n} is not finite, found before anything
     *     is written, else the first contact with a non-finite impulse, else the first body with a
     *     non-finite velocity change; {@code dest} then holds no usable result
     * @throws IllegalArgumentException if {@code settings} are the soft step's (use {@link #step}),
     *     {@code warmStart} is {@code dest}, or an iterative solve has more than
     *     {@link #MAX_ITERATIVE_CONTACTS} contacts
     * @throws IllegalStateException if the solver is closed, or another call is running on it
     */
    public SolveResult solve(BodyBatch bodies, ContactBatch contacts, SolveSettings settings, SolveResult warmStart,
            SolveResult dest) {
        enter("solve");
        try {
            return solveOwned(bodies, contacts, settings, warmStart, dest);
        } finally {
            exit();
        }
    }

    private SolveResult solveOwned(BodyBatch bodies, ContactBatch contacts, SolveSettings settings,
            SolveResult warmStart, SolveResult dest) {
        checkArguments(contacts, settings, warmStart, dest);
        if (settings.kind() == SolverKind.SOFT_STEP) {
            throw new IllegalArgumentException("the soft step moves bodies between its substeps: call step, not solve");
        }
        clock.start();
        InputMagnitudes magnitudes = validate(bodies, contacts, runner);
        clock.lap(SolvePhase.VALIDATE);
        IterationOutcome outcome = solveValidated(bodies, contacts, settings, warmStart, dest, magnitudes, 0.0);
        return finish(settings, outcome, dest);
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
     * <p>With {@link SolveSettings#softStep()} the step is instead split into substeps, each with a
     * soft solve and a relax sweep (docs/physics.md, "Soft step: substeps, soft contacts, a relax
     * sweep"); the contacts are set up once, at the start of the step.
     *
     * @param bodies the bodies, updated in place
     * @param contacts this step's contacts, found from the bodies as they are before the step; not
     *     modified
     * @param settings the solver and its settings: single pass, iterative or soft step
     * @param gravity acceleration of every body with inverse mass {@code > 0}, in m/s^2, finite
     * @param timeStep the step in seconds, positive and finite
     * @param warmStart the previous step's result (iterative solver and soft step), or null; must
     *     not be {@code dest}
     * @param dest receives the velocity changes the contacts made and the impulses; grown if needed
     * @return {@code dest}
     * @throws InvalidInputException as {@link #solve}; the bodies are then unchanged
     * @throws NonFiniteResultException as {@link #solve}, or if a body's integrated state came out
     *     non-finite or its orientation no longer a unit quaternion; the bodies are then unchanged too
     * @throws IllegalArgumentException if {@code timeStep} or {@code gravity} is not finite, the time
     *     step is not positive (or, for the soft step, too small to divide into substeps),
     *     {@code warmStart} is {@code dest}, or a solve has more than
     *     {@link #MAX_ITERATIVE_CONTACTS} contacts where that limit applies
     * @throws IllegalStateException if the solver is closed, or another call is running on it
     */
    public SolveResult step(BodyBatch bodies, ContactBatch contacts, SolveSettings settings, Vector3fc gravity,
            float timeStep, SolveResult warmStart, SolveResult dest) {
        enter("step");
        try {
            return stepOwned(bodies, contacts, settings, gravity, timeStep, warmStart, dest);
        } finally {
            exit();
        }
    }

    private SolveResult stepOwned(BodyBatch bodies, ContactBatch contacts, SolveSettings settings, Vector3fc gravity,
            float timeStep, SolveResult warmStart, SolveResult dest) {
        checkArguments(contacts, settings, warmStart, dest);
        Objects.requireNonNull(gravity, "gravity");
        if (!(timeStep > 0.0f) || !Float.isFinite(timeStep)) {
            throw new IllegalArgumentException("time step must be positive and finite, got " + timeStep);
        }
        if (!gravity.isFinite()) {
            throw new IllegalArgumentException("gravity must be finite, got " + gravity);
        }
        if (settings.kind() == SolverKind.SOFT_STEP) {
            return softStep(bodies, contacts, settings, gravity, timeStep, warmStart, dest);
        }
        clock.start();
        InputMagnitudes magnitudes = validate(bodies, contacts, runner);
        clock.lap(SolvePhase.VALIDATE);
        FieldBlock block = bodies.block();
        int count = bodies.size();
        float gx = gravity.x();
        float gy = gravity.y();
        float gz = gravity.z();
        onDevice(() -> clock.addTransfer(backend.syncBodies(block, count), 0));
        snapshot.save(block, count, runner);
        runner.forRange(count, 1 << 14, (from, to) -> {
            for (int i = from; i < to; i++) {
                Integrator.applyGravity(block, i, gx, gy, gz, timeStep);
            }
        });
        onDevice(() -> backend.mirrorGravity(block, count, gx, gy, gz, timeStep));
        clock.lap(SolvePhase.INTEGRATE);
        IterationOutcome outcome;
        try {
            // gravity has sped every body up by at most this since validation
            double gravitySlack = Math.max(Math.max(Math.abs(gx), Math.abs(gy)), Math.abs(gz)) * (double) timeStep;
            outcome = solveValidated(bodies, contacts, settings, warmStart, dest, magnitudes, gravitySlack);
            clock.skip();
            FieldBlock deltas = dest.deltaBlock();
            runner.forRange(count, 1 << 14, (from, to) -> {
                float[] orientation = new float[4];
                for (int i = from; i < to; i++) {
                    Integrator.integrate(block, i, deltas, timeStep, orientation);
                }
            });
            requireSoundBodies(block, count);
        } catch (RuntimeException failure) {
            // whatever failed after gravity (an overflow in the solve or in the integration, a refused
            // warm start, a working array too large), every body is put back bit for bit; the setters
            // stamp the fields, so the device copy is sent again
            snapshot.restore(block, runner);
            throw failure;
        }
        onDevice(() -> backend.mirrorIntegration(block, count, timeStep));
        clock.lap(SolvePhase.INTEGRATE);
        return finish(settings, outcome, dest);
    }

    /**
     * The soft step: everything set up once (validation, warm start by id, colouring, rows), the
     * substeps on the backend, and the bodies' new state committed only once it is checked finite,
     * so that a step that throws leaves every body as it was.
     */
    private SolveResult softStep(BodyBatch bodies, ContactBatch contacts, SolveSettings settings, Vector3fc gravity,
            float timeStep, SolveResult warmStart, SolveResult dest) {
        SoftCoefficients coefficients = settings.softCoefficients(timeStep);
        if (!Float.isFinite(coefficients.inverseSubstep())) {
            throw new IllegalArgumentException("time step " + timeStep + " over " + settings.substeps()
                    + " substeps is too small: its inverse overflows");
        }
        clock.start();
        InputMagnitudes magnitudes = validate(bodies, contacts, runner);
        clock.lap(SolvePhase.VALIDATE);
        float[] warmImpulses = warmStart != null ? matchWarmStart(contacts, warmStart) : null;
        // the rows are formed from the bodies as they are, before the substeps' gravity
        requireFiniteNormalRows(bodies, contacts, magnitudes, 0.0);
        clock.lap(SolvePhase.VALIDATE);
        movable.classify(bodies.block(), bodies.size(), runner);
        clock.lap(SolvePhase.CLASSIFY);
        coloring.build(contacts.linkBlock(), contacts.size(), movable, settings.colourBudget());
        clock.lap(SolvePhase.COLOUR);
        int count = bodies.size();
        if (nextBodies == null || nextBodies.stride() < count) {
            nextBodies = new FieldBlock(SoftStepJob.BODY_STATE_FIELDS, Math.max(count, 16));
        }
        dest.prepare(count, contacts.size(), contacts.idArray());
        TargetRule restitution = new TargetRule(settings.restitutionThreshold(), 0.0f, 0.0f, 0.0f);
        SoftStepJob job = new SoftStepJob(bodies.block(), count, contacts.floatBlock(), contacts.linkBlock(),
                contacts.size(), restitution, frictionUse(contacts, settings), movable, coloring,
                settings.iterations(), settings.relaxIterations(), coefficients, gravity.x(), gravity.y(), gravity.z(),
                timeStep, warmImpulses, nextBodies, dest.deltaBlock(), dest.impulseBlock(), clock);
        IterationOutcome outcome;
        try {
            outcome = backend.softStep(job);
        } catch (BackendFailureException failure) {
            fallBackToCpu(failure);
            outcome = backend.softStep(job);
        }
        requireFinite(dest.impulseBlock(), contacts.size(), dest.deltaBlock(), count);
        requireSoundBodies(nextBodies, count);
        FieldBlock block = bodies.block();
        FieldBlock next = nextBodies;
        runner.forRange(count, 1 << 14, (from, to) -> {
            for (int f = 0; f < SoftStepJob.BODY_STATE_FIELDS; f++) {
                for (int i = from; i < to; i++) {
                    block.setFloat(f, i, next.getFloat(f, i));
                }
            }
        });
        // the device computed these bits: its copy of the bodies need not take them again
        onDevice(() -> backend.mirrorSoftStep(block, count));
        clock.lap(SolvePhase.INTEGRATE);
        dest.finish(kind, SolverKind.SOFT_STEP, outcome.iterations(), outcome.residual(), coloring.colourCount(),
                coloring.overflowCount(), clock);
        return dest;
    }

    /**
     * Throws {@link NonFiniteResultException} for the lowest body whose state after a step is not
     * finite, else for the lowest whose orientation is no longer a unit quaternion (a spin so fast that
     * renormalising it overflowed): what the next solve would otherwise blame on its input.
     */
    private void requireSoundBodies(FieldBlock state, int count) {
        requireFinite(state, count, BodySnapshot.FIELDS, InvalidInputException.Subject.BODY,
                f -> BodyField.values()[f].column());
        AtomicInteger first = new AtomicInteger(Integer.MAX_VALUE);
        runner.forRange(count, 1 << 15, (from, to) -> {
            for (int i = from; i < to && i < first.get(); i++) {
                if (!InputValidator.isUnitNorm(InputValidator.orientationNorm(state.floats(), state.stride(), i))) {
                    first.accumulateAndGet(i, Math::min);
                    return;
                }
            }
        });
        int body = first.get();
        if (body != Integer.MAX_VALUE) {
            throw new NonFiniteResultException(InvalidInputException.Subject.BODY, body,
                    NonFiniteResultException.ORIENTATION_NORM,
                    (float) InputValidator.orientationNorm(state.floats(), state.stride(), body));
        }
    }

    /**
     * The impulses of the previous result for the contacts whose ids it holds
     * ({@code WarmStart.match}), charged to {@link SolvePhase#WARM_START}.
     *
     * @throws InvalidInputException if two contacts share an id
     */
    private float[] matchWarmStart(ContactBatch contacts, SolveResult warmStart) {
        float[] impulses;
        try {
            impulses = warmStarts.match(contacts.idArray(), contacts.size(), warmStart.contactIdArray(),
                    warmStart.impulseBlock().floats(), warmStart.impulseStride(), warmStart.contactCount());
        } catch (InputFault fault) {
            throw InvalidInputException.of(fault);
        }
        clock.lap(SolvePhase.WARM_START);
        return impulses;
    }

    /** A device-side update of the bodies; if the device fails, it is dropped: the host copy is authoritative. */
    private void onDevice(Runnable update) {
        try {
            update.run();
        } catch (BackendFailureException failure) {
            fallBackToCpu(failure);
        }
    }

    private static void checkArguments(ContactBatch contacts, SolveSettings settings, SolveResult warmStart,
            SolveResult dest) {
        Objects.requireNonNull(contacts, "contacts");
        Objects.requireNonNull(settings, "settings");
        Objects.requireNonNull(dest, "dest");
        if (warmStart == dest) {
            throw new IllegalArgumentException("warmStart and dest must be different results");
        }
        if (settings.kind() != SolverKind.SINGLE_PASS && contacts.size() > MAX_ITERATIVE_CONTACTS) {
            throw new IllegalArgumentException("contacts: " + contacts.size() + " are more than one "
                    + settings.kind().label() + " takes (" + MAX_ITERATIVE_CONTACTS + "); split the batch");
        }
    }

    private IterationOutcome solveValidated(BodyBatch bodies, ContactBatch contacts, SolveSettings settings,
            SolveResult warmStart, SolveResult dest, InputMagnitudes magnitudes, double velocitySlack) {
        boolean iterative = settings.kind() == SolverKind.ITERATIVE;
        float[] warmImpulses = iterative && warmStart != null ? matchWarmStart(contacts, warmStart) : null;
        requireFiniteNormalRows(bodies, contacts, magnitudes, velocitySlack);
        clock.lap(SolvePhase.VALIDATE);
        movable.classify(bodies.block(), bodies.size(), runner);
        clock.lap(SolvePhase.CLASSIFY);
        if (iterative) {
            coloring.build(contacts.linkBlock(), contacts.size(), movable, settings.colourBudget());
            clock.lap(SolvePhase.COLOUR);
        } else if (backend.usesBodyContactIndex()) {
            index.build(movable, contacts.linkBlock(), contacts.size(), runner);
            clock.lap(SolvePhase.INDEX);
        }
        dest.prepare(bodies.size(), contacts.size(), contacts.idArray());
        FrictionUse friction = frictionUse(contacts, settings);
        if (!iterative && friction.rolling() && !warnedRollingIgnored) {
            warnedRollingIgnored = true;
            LOG.log(Level.WARNING, "contact-solver: the single pass ignores rolling resistance "
                    + "(it resists rolling contact, not an impact); use the iterative solver for it");
        }
        SolveJob job = iterative
                ? new IterativeJob(bodies.block(), bodies.size(), contacts.floatBlock(), contacts.linkBlock(),
                        contacts.size(), settings.targetRule(), friction, coloring, settings.iterations(),
                        settings.tolerance(), warmImpulses, dest.deltaBlock(), dest.impulseBlock(), clock)
                : new SinglePassJob(bodies.block(), bodies.size(), contacts.floatBlock(), contacts.linkBlock(),
                        contacts.size(), settings.targetRule(), friction, index, dest.deltaBlock(), dest.impulseBlock(),
                        clock);
        IterationOutcome outcome;
        try {
            outcome = run(job);
        } catch (BackendFailureException failure) {
            fallBackToCpu(failure);
            outcome = run(job);
        }
        requireFinite(dest.impulseBlock(), contacts.size(), dest.deltaBlock(), bodies.size());
        return outcome;
    }

    /**
     * Throws {@link NonFiniteResultException} for the lowest contact with a non-finite impulse
     * field, else the lowest body with a non-finite velocity change. Scanned on the host after
     * any backend, so all fail alike whatever they computed on the way.
     */
    private void requireFinite(FieldBlock impulses, int contactCount, FieldBlock deltas, int bodyCount) {
        requireFinite(impulses, contactCount, ImpulseField.COUNT, InvalidInputException.Subject.CONTACT,
                f -> ImpulseField.values()[f].column());
        requireFinite(deltas, bodyCount, DeltaField.COUNT, InvalidInputException.Subject.BODY,
                f -> DeltaField.values()[f].column());
    }

    /**
     * Throws {@link NonFiniteResultException} for the lowest element with a non-finite value in any of
     * the first {@code fields} fields of {@code block}, naming its first such field by {@code column}.
     */
    private void requireFinite(FieldBlock block, int count, int fields, InvalidInputException.Subject subject,
            IntFunction<String> column) {
        int element = firstNonFinite(block, count, fields);
        if (element < 0) {
            return;
        }
        for (int f = 0; f < fields; f++) {
            float value = block.getFloat(f, element);
            if (!Float.isFinite(value)) {
                throw new NonFiniteResultException(subject, element, column.apply(f), value);
            }
        }
    }

    /** The lowest element with a non-finite value in any of the first {@code fields} fields, or -1. */
    private int firstNonFinite(FieldBlock block, int count, int fields) {
        AtomicInteger first = new AtomicInteger(Integer.MAX_VALUE);
        FloatBuffer values = block.floats();
        int stride = block.stride();
        runner.forRange(count, 1 << 15, (from, to) -> {
            int end = to;
            for (int f = 0; f < fields; f++) {
                int base = f * stride;
                for (int i = from; i < end; i++) {
                    if (!Float.isFinite(values.get(base + i))) {
                        end = i; // later fields need only be scanned below the lowest found so far
                        break;
                    }
                }
            }
            if (end < to) {
                first.accumulateAndGet(end, Math::min);
            }
        });
        return first.get() == Integer.MAX_VALUE ? -1 : first.get();
    }

    private SolveResult finish(SolveSettings settings, IterationOutcome outcome, SolveResult dest) {
        boolean iterative = settings.kind() == SolverKind.ITERATIVE;
        dest.finish(kind, settings.kind(), outcome.iterations(), outcome.residual(),
                iterative ? coloring.colourCount() : 0, iterative ? coloring.overflowCount() : 0, clock);
        return dest;
    }

    private IterationOutcome run(SolveJob job) {
        if (job instanceof IterativeJob iterative) {
            return backend.solveIterative(iterative);
        }
        backend.solveSinglePass((SinglePassJob) job);
        return SINGLE_PASS_OUTCOME;
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

    /**
     * {@link #solve(BodyBatch, ContactBatch, SolveSettings, SolveResult, SolveResult)} warm started
     * from {@code history}'s latest result, which this call's result then replaces in it.
     *
     * @param bodies the bodies, unchanged
     * @param contacts the contacts, with ids that last as long as a contact does
     * @param settings how to solve
     * @param history the last result of this sequence of solves; left as it was if this call throws
     * @return this call's result, held by {@code history} (valid until the second call after this)
     * @throws InvalidInputException as the solve it wraps
     * @throws NonFiniteResultException as the solve it wraps
     */
    public SolveResult solve(BodyBatch bodies, ContactBatch contacts, SolveSettings settings, SolveHistory history) {
        Objects.requireNonNull(history, "history");
        solve(bodies, contacts, settings, history.warmStart(), history.next());
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

    /** What the batch's coefficients ask for, unless the settings switch friction off. */
    private static FrictionUse frictionUse(ContactBatch contacts, SolveSettings settings) {
        return settings.friction() ? FrictionUse.of(contacts.floatBlock(), contacts.size()) : FrictionUse.NONE;
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
            backend.close();
        } finally {
            try {
                runner.close();
            } finally {
                exit();
            }
        }
    }
}
