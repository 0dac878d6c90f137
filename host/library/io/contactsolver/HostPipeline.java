package io.contactsolver;

import io.contactsolver.core.BodyContactIndex;
import io.contactsolver.core.ContactColoring;
import io.contactsolver.core.FieldBlock;
import io.contactsolver.core.FrictionUse;
import io.contactsolver.core.InputFault;
import io.contactsolver.core.InputMagnitudes;
import io.contactsolver.core.InputScreen;
import io.contactsolver.core.InputValidator;
import io.contactsolver.core.IterationOutcome;
import io.contactsolver.core.IterativeJob;
import io.contactsolver.core.ManifoldGrouping;
import io.contactsolver.core.ManifoldCache;
import io.contactsolver.core.MovableBodies;
import io.contactsolver.core.ParallelRunner;
import io.contactsolver.core.PrefixSums;
import io.contactsolver.core.Recycler;
import io.contactsolver.core.SinglePassJob;
import io.contactsolver.core.SoftCoefficients;
import io.contactsolver.core.SoftStepJob;
import io.contactsolver.core.SolveMeter;
import io.contactsolver.core.SolverBackend;
import io.contactsolver.core.StepOutputs;
import io.contactsolver.core.TargetRule;
import io.contactsolver.core.WarmStart;
import io.contactsolver.layout.SolvePhase;
import java.lang.System.Logger.Level;
import java.nio.IntBuffer;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.joml.Vector3fc;

/**
 * The host's side of every solve and step, as named stages in the order they run; each charges its
 * time to its {@link SolvePhase} (validation to VALIDATE, the set-up to SET_UP, the output to OUTPUT):
 *
 * <ol>
 *   <li>{@link #checkArguments}: the call's arguments, before anything is read;</li>
 *   <li>{@link #validate}: every body and contact ({@link InvalidInputException}, nothing
 *       written), giving the input's magnitudes;</li>
 *   <li>{@link #prepareContacts}: the warm start matched by contact id, the normal rows checked for
 *       overflow ({@link OverflowScan#requireFiniteNormalRows}), the movable bodies classified, and
 *       the structure the solver needs built: the colouring (iterative solver, soft step) or the
 *       body-contact index (single pass, for a backend that reads it);</li>
 *   <li>{@link #solveRigid} or {@link #solveSoft}: the result prepared, the job handed to the
 *       backend (recomputed on the CPU if the device fails), and the result scanned for overflow
 *       ({@link OverflowScan#requireFiniteResult});</li>
 *   <li>{@link #finish}: the result's figures written.</li>
 * </ol>
 *
 * <p>{@link #solve} runs them all for {@code ContactSolver.solve}; {@link Stepper} runs them around
 * the bodies' motion for {@code ContactSolver.step}. The working structures (classification,
 * index, colouring, warm start) are kept between calls and only grow.
 */
final class HostPipeline {
    private static final System.Logger LOG = System.getLogger("io.contactsolver");
    private static final IterationOutcome SINGLE_PASS_OUTCOME = new IterationOutcome(1, 0.0f);

    private final ParallelRunner runner;
    private final ActiveBackend backend;
    private final OverflowScan scan;
    private final SolveMeter clock;
    private final MovableBodies movable = new MovableBodies();
    private final BodyContactIndex index = new BodyContactIndex();
    private final ContactColoring coloring = new ContactColoring();
    private final WarmStart warmStarts = new WarmStart();
    private final ManifoldGrouping manifolds = new ManifoldGrouping();
    private final Recycler recycler = new Recycler();
    /** What the backend reported and checked of the last soft step itself. */
    private final StepOutputs outputs = new StepOutputs();
    /** Each manifold row's first point ({@code SoftStepJob.rowPointStarts}), grown as needed. */
    private int[] rowPointStarts = new int[1];
    /**
     * The colouring's version and the recycling's point-start version {@link #rowPointStarts} were
     * laid from, the array they were laid into, and a version that moves each time they are laid.
     */
    private long rowPointStartsColouring = -1;
    private long rowPointStartsPoints = -1;
    private int[] rowPointStartsFor;
    private long rowPointStartsVersion;
    /** Each movable body's soft-step rows ({@link SoftStepJob#bodyRows}), built for the colouring of {@link #bodyRowsColouring}. */
    private final BodyContactIndex bodyRows = new BodyContactIndex();
    private long bodyRowsColouring = -1;
    /** The colouring's version at the last soft step. */
    private long lastSoftColouring = -1;
    /** Versions for {@link #rowPointStarts} from one counter for every pipeline: a device holding them cannot mistake another's. */
    private static final AtomicLong ROW_POINT_STARTS_VERSIONS = new AtomicLong();
    private boolean warnedRollingIgnored;
    private boolean warnedTorsionIgnored;

    HostPipeline(ParallelRunner runner, ActiveBackend backend, OverflowScan scan, SolveMeter clock) {
        this.runner = runner;
        this.backend = backend;
        this.scan = scan;
        this.clock = clock;
    }

    /** What {@code ContactSolver.solve} passes for the time step when its call has none. */
    static final float NO_TIME_STEP = 0.0f;

    /**
     * {@code ContactSolver.solve}: every stage, bodies and contacts left as they are.
     *
     * @param timeStep the call's time step, checked positive with a finite inverse, or
     *     {@link #NO_TIME_STEP}
     * @throws IllegalArgumentException if the settings ask for positional correction and the call
     *     gave no time step
     */
    SolveResult solve(BodyBatch bodies, ContactBatch contacts, RigidSettings settings, float timeStep,
            SolveResult warmStart, SolveResult dest) {
        checkArguments(contacts, settings, warmStart, dest);
        if (settings.positionalCorrection() && timeStep == NO_TIME_STEP) {
            throw new IllegalArgumentException("positional correction needs the step's time: give it to the call, "
                    + "solve(bodies, contacts, settings, timeStep, warmStart, dest)");
        }
        InputMagnitudes magnitudes = validate(bodies, contacts);
        IterationOutcome outcome = solveRigid(bodies, contacts, settings, timeStep, warmStart, dest, magnitudes, 0.0);
        return finish(settings.kind(), outcome, dest);
    }

    /** Stage 1: the arguments every solve and step takes. */
    static void checkArguments(ContactBatch contacts, SolveSettings settings, SolveResult warmStart,
            SolveResult dest) {
        Objects.requireNonNull(contacts, "contacts");
        Objects.requireNonNull(settings, "settings");
        Objects.requireNonNull(dest, "dest");
        if (warmStart == dest) {
            throw new IllegalArgumentException("warmStart and dest must be different results");
        }
        if (settings.kind() != SolverKind.SINGLE_PASS && contacts.size() > ContactSolver.MAX_ITERATIVE_CONTACTS) {
            throw new IllegalArgumentException("contacts: " + contacts.size() + " are more than one "
                    + settings.kind().label() + " takes (" + ContactSolver.MAX_ITERATIVE_CONTACTS
                    + "); split the batch");
        }
    }

    /** Stage 2: starts the clock and validates every body and contact, charged to {@link SolvePhase#VALIDATE}. */
    InputMagnitudes validate(BodyBatch bodies, ContactBatch contacts) {
        return validate(bodies, contacts, false);
    }

    /**
     * Stage 2 for the soft step: as {@link #validate(BodyBatch, ContactBatch)}, but where the
     * backend has a device that screens the batch ({@code SolverBackend.screen}), the host checks
     * only the records the screen could not clear (the same fault, the same magnitudes), and the
     * bodies and contacts are on the device for the step.
     */
    InputMagnitudes validateForStep(BodyBatch bodies, ContactBatch contacts) {
        return validate(bodies, contacts, true);
    }

    /** Stage 2, the batch screened on the backend's device where {@code onDevice} and it has one. */
    private InputMagnitudes validate(BodyBatch bodies, ContactBatch contacts, boolean onDevice) {
        clock.start();
        // noted first: the firsts stand, and a device keeps its copy, while the numbers do not change
        manifolds.noteNumbers(contacts.manifoldArray(), contacts.size(), contacts.numbered(), runner);
        InputScreen screen = !onDevice ? null : backend.solve(device -> device.screen(bodies.block(), bodies.size(),
                contacts.floatBlock(), contacts.linkBlock(), contacts.manifoldArray(), manifolds, contacts.size(),
                clock));
        InputMagnitudes magnitudes = validate(bodies, contacts, runner, manifolds, screen);
        clock.lap(SolvePhase.VALIDATE);
        return magnitudes;
    }

    /** Stage 2 on {@code runner}, without a clock: {@code ContactSolver.validate} too. */
    static InputMagnitudes validate(BodyBatch bodies, ContactBatch contacts, ParallelRunner runner) {
        return validate(bodies, contacts, runner, new ManifoldGrouping(), null);
    }

    /**
     * Stage 2, the contacts' manifolds grouped into {@code grouping} (their rules checked with the
     * rest); where a device screened the batch ({@code screen} not null), only what its screen could
     * not clear is checked here.
     */
    private static InputMagnitudes validate(BodyBatch bodies, ContactBatch contacts, ParallelRunner runner,
            ManifoldGrouping grouping, InputScreen screen) {
        try {
            return validateAndGroup(bodies, contacts, runner, grouping, screen);
        } finally {
            grouping.forgetNote(); // a batch refused before it was grouped leaves no note behind
        }
    }

    private static InputMagnitudes validateAndGroup(BodyBatch bodies, ContactBatch contacts, ParallelRunner runner,
            ManifoldGrouping grouping, InputScreen screen) {
        try {
            // a batch none of whose contacts has a number has no manifold rules to check
            InputMagnitudes magnitudes = screen == null
                    ? InputValidator.validate(bodies.block(), bodies.size(), contacts.floatBlock(),
                            contacts.linkBlock(), contacts.size(), contacts.numbered() ? contacts.manifoldArray() : null,
                            runner)
                    : InputValidator.validateScreened(bodies.block(), contacts.floatBlock(), contacts.linkBlock(),
                            bodies.size(), screen, runner);
            if (screen == null) {
                grouping.buildChecked(contacts.manifoldArray(), contacts.size(), runner);
            } else {
                grouping.buildScreened(contacts.manifoldArray(), contacts.floatBlock(), contacts.linkBlock(),
                        contacts.size(), screen.contacts(), runner);
            }
            return magnitudes;
        } catch (InputFault fault) {
            throw InvalidInputException.of(fault);
        }
    }

    /**
     * Stage 3: everything the solver needs set up from the validated input, before any output is
     * touched. The iterative solver and the soft step check that contact ids are distinct, match the
     * warm start by id and build the colouring; the single pass builds the body-contact index if the backend reads it.
     *
     * @param velocitySlack how much a velocity may have grown since validation (a step's gravity)
     * @return the warm start's impulses in contact order, or null to start from zero
     * @throws InvalidInputException if two contacts have the same id (iterative solver, soft step)
     * @throws NonFiniteResultException if a contact's normal row overflows
     */
    float[] prepareContacts(BodyBatch bodies, ContactBatch contacts, RigidSettings settings, SolveResult warmStart,
            InputMagnitudes magnitudes, double velocitySlack) {
        IterativeSettings iterative = settings instanceof IterativeSettings it ? it : null;
        float[] warmImpulses = iterative != null ? matchWarmStart(contacts, warmStart) : null;
        scan.requireFiniteNormalRows(bodies, contacts, magnitudes, velocitySlack);
        clock.lap(SolvePhase.VALIDATE);
        movable.classify(bodies.block(), bodies.size(), runner);
        clock.lap(SolvePhase.SET_UP);
        if (iterative != null) {
            coloring.build(contacts.linkBlock(), contacts.size(), movable, iterative.colourBudget(), runner);
            clock.lap(SolvePhase.SET_UP);
        } else if (backend.current().usesBodyContactIndex()) {
            index.build(movable, contacts.linkBlock(), contacts.size(), runner);
            clock.lap(SolvePhase.SET_UP);
        }
        return warmImpulses;
    }

    /**
     * The impulses of the previous result for the contacts whose ids it holds
     * ({@code WarmStart.match}), or null for a cold start, charged to {@link SolvePhase#SET_UP}.
     * Cold or warm, the contacts' ids must be distinct: this result is the next call's warm start,
     * so a repeated id is refused here rather than one step later.
     *
     * @throws InvalidInputException if two contacts share an id
     */
    private float[] matchWarmStart(ContactBatch contacts, SolveResult warmStart) {
        float[] impulses = null;
        try {
            if (warmStart == null) {
                warmStarts.requireUniqueIds(contacts.idArray(), contacts.size());
            } else {
                if (!warmStart.hasImpulses()) {
                    throw new IllegalArgumentException("warmStart holds no impulses (its soft step was asked for none, "
                            + "SoftStepSettings.withImpulses(false)): an iterative solve warm starts from impulses");
                }
                impulses = warmStarts.match(contacts.idArray(), contacts.size(), warmStart.contactIdArray(),
                        warmStart.reportedImpulseBlock().floats(), warmStart.impulseStride(), warmStart.contactCount());
            }
        } catch (InputFault fault) {
            throw InvalidInputException.of(fault);
        }
        clock.lap(SolvePhase.SET_UP);
        return impulses;
    }

    /**
     * Stages 3 and 4 for the single pass and the iterative solver, on the bodies as they are: the
     * contacts prepared, then the solve on the backend and its result scanned.
     *
     * @param timeStep the step positional correction divides by: the step's, or the one the solve
     *     was given; unread when positional correction is off
     * @param velocitySlack how much a velocity may have grown since validation (a step's gravity)
     */
    IterationOutcome solveRigid(BodyBatch bodies, ContactBatch contacts, RigidSettings settings, float timeStep,
            SolveResult warmStart, SolveResult dest, InputMagnitudes magnitudes, double velocitySlack) {
        boolean iterative = settings instanceof IterativeSettings;
        TargetRule targets = targetRule(settings, timeStep);
        float[] warmImpulses = prepareContacts(bodies, contacts, settings, warmStart, magnitudes, velocitySlack);
        dest.prepare(bodies.size(), contacts.size(), contacts.idArray());
        FrictionUse friction = frictionUse(magnitudes, settings);
        if (!iterative && friction.rolling() && !warnedRollingIgnored) {
            warnedRollingIgnored = true;
            LOG.log(Level.WARNING, "contact-solver: the single pass ignores rolling resistance "
                    + "(it resists rolling contact, not an impact); use the iterative solver for it");
        }
        if (!iterative && friction.torsion() && !warnedTorsionIgnored) {
            warnedTorsionIgnored = true;
            LOG.log(Level.WARNING, "contact-solver: the single pass ignores torsional resistance "
                    + "(it resists twisting contact, not an impact); use the iterative solver for it");
        }
        IterationOutcome outcome;
        if (settings instanceof IterativeSettings it) {
            IterativeJob job = new IterativeJob(bodies.block(), bodies.size(), contacts.floatBlock(),
                    contacts.linkBlock(), contacts.size(), targets, friction, coloring, it.iterations(),
                    it.tolerance(), warmImpulses, dest.deltaBlock(), dest.impulseBlock(), clock);
            outcome = backend.solve(solver -> solver.solveIterative(job));
        } else {
            SinglePassJob job = new SinglePassJob(bodies.block(), bodies.size(), contacts.floatBlock(),
                    contacts.linkBlock(), contacts.size(), targets, friction, index, dest.deltaBlock(),
                    dest.impulseBlock(), clock);
            outcome = backend.solve(solver -> solveSinglePass(solver, job));
        }
        scan.requireFiniteResult(dest.impulseBlock(), contacts.size(), dest.deltaBlock(), bodies.size());
        clock.lap(SolvePhase.OUTPUT);
        return outcome;
    }

    /**
     * The target rule of a rigid solve (see {@code TargetRule}): the restitution threshold, and with
     * positional correction the inverse of the call's time step, the bias factor and the slop.
     */
    private static TargetRule targetRule(RigidSettings settings, float timeStep) {
        return new TargetRule(settings.restitutionThreshold(),
                settings.positionalCorrection() ? 1.0f / timeStep : 0.0f, settings.biasFactor(), settings.slop());
    }

    private static IterationOutcome solveSinglePass(SolverBackend solver, SinglePassJob job) {
        solver.solveSinglePass(job);
        return SINGLE_PASS_OUTCOME;
    }

    /**
     * Stage 3 for the soft step: the movable bodies classified, the warm start matched by id and
     * the manifolds coloured, the normal rows checked for overflow, {@code dest} prepared, and the
     * points of every manifold chosen (recycled from {@code warmStart}'s manifolds or taken fresh,
     * {@link Recycler}: their captures go to {@code dest}'s manifolds).
     *
     * @throws InvalidInputException if a warm start meets two contacts with the same id
     * @throws NonFiniteResultException if a contact's normal row overflows
     */
    void prepareSoft(BodyBatch bodies, ContactBatch contacts, SoftStepSettings settings, SolveResult warmStart,
            InputMagnitudes magnitudes, SolveResult dest) {
        movable.classify(bodies.block(), bodies.size(), runner);
        // each manifold's bodies, which the colouring and the recycling compare by version
        manifolds.layPairs(contacts.linkBlock(), runner);
        // in the hashed order the backend colours: a GPU on its device, the host in one pass
        boolean hashed = settings.colouringOrder() == ColouringOrder.HASHED;
        Consumer<ContactColoring.HashedColouring> byBackend = hashed ? colouring -> backend.solve(solver -> {
            solver.colourHashed(colouring);
            return null;
        }) : null;
        try {
            if (coloring.wouldKeep(manifolds, movable, settings.colourBudget(), hashed)) {
                // the colouring stands: the ids' compares take the whole team
                coloring.colour(manifolds, movable, settings.colourBudget(), byBackend);
                matchIds(contacts, warmStart, runner);
            } else {
                // two serial stages side by side on a crew of two, as neither reads the other's output: the
                // manifolds coloured on the last member, the ids matched on the first (on one thread, one
                // after the other)
                runner.crew(2).team((member, team) -> {
                    if (member == team.members() - 1) {
                        coloring.colour(manifolds, movable, settings.colourBudget(), byBackend);
                    }
                    if (member == 0) {
                        matchIds(contacts, warmStart, null);
                    }
                });
            }
        } catch (InputFault fault) {
            throw InvalidInputException.of(fault);
        }
        coloring.lay(runner);
        clock.lap(SolvePhase.SET_UP);
        scan.requireFiniteNormalRows(bodies, contacts, magnitudes, 0.0);
        clock.lap(SolvePhase.VALIDATE);
        // the ids matchIds just checked: not copied where dest holds them already, and the next
        // step from this result need not compare them
        dest.prepare(bodies.size(), contacts.size(), contacts.idArray(), settings.writesDeltas(),
                settings.writesImpulses(), warmStarts, warmStarts.idsVersion());
        // the raw impulses: a result whose report waits for its first read holds its manifolds, which
        // the recycling reads instead
        Recycler.Previous previous = warmStart == null ? null : new Recycler.Previous(warmStarts,
                warmStart.hasImpulses() ? warmStart.impulseBlock().floats() : null, warmStart.impulseStride(),
                warmStart.contactIdArray(), warmStart.manifoldCache());
        recycler.plan(bodies.block(), bodies.size(), contacts.floatBlock(), contacts.linkBlock(), contacts.idArray(),
                contacts.size(), manifolds, movable, previous, settings.recycleDistance(), dest.manifoldCache(), runner);
        // a backend that recycles on its device writes the points there, or has the host write them;
        // a kept manifold's anchors left in its captures for a backend that places them where it reads them
        if (!backend.current().recyclesOnDevice()) {
            if (backend.current().placesKeptAnchors()) {
                recycler.writeLeavingAnchors();
            } else {
                recycler.write();
            }
        }
        clock.lap(SolvePhase.SET_UP);
    }

    /**
     * The soft step's ids checked and matched to the warm start's: only the manifolds taken fresh
     * read the previous impulses, so they are read where needed ({@code WarmStart.matchIdsLazily});
     * the compares on {@code team}'s threads where given.
     */
    private void matchIds(ContactBatch contacts, SolveResult warmStart, ParallelRunner team) {
        // the ids' stamp: ids unchanged since they were found unique are not compared again
        if (warmStart == null) {
            warmStarts.requireUniqueIds(contacts.idArray(), contacts.size(), contacts.idsStamp(), team);
        } else {
            warmStarts.matchIdsLazily(contacts.idArray(), contacts.size(), contacts.idsStamp(),
                    warmStart.contactIdArray(), warmStart.contactCount(), warmStart.idsCheckedVersion(warmStarts),
                    team);
        }
    }

    /**
     * Stage 4 for the soft step, once {@link #prepareSoft} ran: the step run on the backend into
     * {@code nextBodies} (the bodies themselves are not changed) and {@code dest}'s manifolds (the
     * solved points' normal impulses and manifolds' vectors), the manifolds completed for the next
     * step, every contact's impulses written from them ({@link Recycler#report}), and the impulses and
     * deltas scanned; the deltas and impulses only where the settings ask for them. The coefficients
     * in use are those the batch's validation found ({@code magnitudes}).
     */
    IterationOutcome solveSoft(BodyBatch bodies, ContactBatch contacts, SoftStepSettings settings,
            SoftCoefficients coefficients, Vector3fc gravity, float timeStep, InputMagnitudes magnitudes,
            FieldBlock nextBodies, SolveResult dest) {
        int count = bodies.size();
        ManifoldCache solved = dest.manifoldCache();
        TargetRule restitution = new TargetRule(settings.restitutionThreshold(), 0.0f, 0.0f, 0.0f);
        // each row's first point: the rows' points laid out in row order, as both backends solve them
        int rows = coloring.rowCount();
        if (rowPointStarts.length < rows + 1) {
            rowPointStarts = new int[Math.max(rows + 1, rowPointStarts.length + (rowPointStarts.length >> 1))];
        }
        // laid again only when the rows' order or the manifolds' points changed since they were laid
        if (rowPointStartsColouring != coloring.version() || rowPointStartsPoints != recycler.pointStartVersion()
                || rowPointStartsFor != rowPointStarts) {
            int[] manifoldOf = coloring.order();
            int[] solvedStart = recycler.pointStart();
            PrefixSums.exclusive(rows, r -> solvedStart[manifoldOf[r] + 1] - solvedStart[manifoldOf[r]],
                    rowPointStarts, runner);
            rowPointStartsColouring = coloring.version();
            rowPointStartsPoints = recycler.pointStartVersion();
            rowPointStartsFor = rowPointStarts;
            rowPointStartsVersion = ROW_POINT_STARTS_VERSIONS.incrementAndGet();
        }
        // on a colouring kept from the last soft step, a backend that starts its substeps body by body
        // gets each body's rows, built once a colouring; a colouring made anew warms colour by colour,
        // as the index would cost it every step (pairs that change every step)
        boolean byBody = backend.current().startsSubstepsByBody() && coloring.version() == lastSoftColouring;
        lastSoftColouring = coloring.version();
        if (byBody && bodyRowsColouring != coloring.version()) {
            bodyRows.build(movable, IntBuffer.wrap(coloring.slots()), rows, rows, runner);
            bodyRowsColouring = coloring.version();
        }
        SoftStepJob job = new SoftStepJob(bodies.block(), count, contacts.floatBlock(), contacts.linkBlock(),
                contacts.size(), manifolds, recycler, coloring, rowPointStarts, rowPointStartsVersion,
                byBody ? bodyRows : null, restitution,
                frictionUse(magnitudes, settings), movable, settings.iterations(), settings.relaxIterations(),
                coefficients, gravity.x(), gravity.y(), gravity.z(), timeStep, nextBodies,
                settings.writesDeltas() ? dest.deltaBlock() : null, solved.normal(), solved.vectors(),
                settings.writesImpulses() ? dest.impulseBlock() : null, contacts.idArray(), warmStarts.idsVersion(),
                outputs, clock);
        // cleared for each try: a device that fails part way leaves the CPU's rerun nothing to skip
        IterationOutcome outcome = backend.solve(solver -> {
            outputs.clear();
            return solver.softStep(job);
        });
        recycler.keep(manifolds, solved);
        // the impulses written at the result's first read: from a device that left them there checked,
        // or by the host where writing them cannot give a non-finite one; else written now
        boolean reportNow = false;
        if (settings.writesImpulses() && !outputs.impulsesReported()) {
            if (outputs.impulsesLeftOnDevice() || Recycler.reportsFinite(solved, runner)) {
                dest.deferReport();
            } else {
                Recycler.report(solved, contacts.idArray(), dest.impulseBlock(), runner);
                reportNow = true;
            }
        }
        if (settings.writesDeltas() && outputs.deltasLeftOnDevice()) {
            dest.deferDeltas();
        }
        dest.setRecycledCount(recycler.recycledCount());
        clock.lap(SolvePhase.OUTPUT);
        // what the backend wrote is scanned unless it found it finite; what the host reported, always
        boolean scanImpulses = settings.writesImpulses()
                && (reportNow || outputs.impulsesReported() && !outputs.resultFinite());
        boolean scanDeltas = settings.writesDeltas() && !outputs.resultFinite();
        if (scanImpulses || scanDeltas) {
            scan.requireFiniteResult(dest.impulseBlock(), scanImpulses ? contacts.size() : 0,
                    dest.deltaBlock(), scanDeltas ? count : 0);
        }
        return outcome;
    }

    /** Whether the backend wrote the last soft step's checked next state into the bodies itself ({@link StepOutputs}). */
    boolean nextBodiesCommitted() {
        return outputs.nextBodiesCommitted();
    }

    /** Whether the backend found every field of the last soft step's next bodies finite ({@link StepOutputs}). */
    boolean nextBodiesFinite() {
        return outputs.nextBodiesFinite();
    }

    /** Whether the backend's screen cleared every next body's orientation of the last soft step as a unit quaternion ({@link StepOutputs}). */
    boolean nextOrientationsUnit() {
        return outputs.nextOrientationsUnit();
    }

    /** Stage 5: the result's figures, with the backend that computed it and the colouring's. */
    SolveResult finish(SolverKind solver, IterationOutcome outcome, SolveResult dest) {
        boolean coloured = solver != SolverKind.SINGLE_PASS;
        dest.finish(backend.kind(), solver, outcome.iterations(), outcome.residual(),
                coloured ? coloring.colourCount() : 0, coloured ? coloring.overflowCount() : 0, clock);
        return dest;
    }

    /**
     * What the batch's coefficients ask for, as its validation found them ({@code magnitudes}),
     * unless the settings switch friction off.
     */
    private static FrictionUse frictionUse(InputMagnitudes magnitudes, SolveSettings settings) {
        return settings.friction() ? magnitudes.frictionUse() : FrictionUse.NONE;
    }
}
