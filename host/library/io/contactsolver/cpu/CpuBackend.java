package io.contactsolver.cpu;

import static io.contactsolver.core.FieldOffsets.*;

import io.contactsolver.core.AccumulatedImpulse;
import io.contactsolver.core.BodyContactIndex;
import io.contactsolver.core.ContactColoring;
import io.contactsolver.core.ContactRowField;
import io.contactsolver.core.FieldBlock;
import io.contactsolver.core.FrictionUse;
import io.contactsolver.core.IterativeJob;
import io.contactsolver.core.InputValidator;
import io.contactsolver.core.IterationOutcome;
import io.contactsolver.core.MotionField;
import io.contactsolver.core.MovableBodies;
import io.contactsolver.core.SoftCoefficients;
import io.contactsolver.core.ManifoldField;
import io.contactsolver.core.ManifoldGrouping;
import io.contactsolver.core.ManifoldImpulse;
import io.contactsolver.core.PointField;
import io.contactsolver.core.Recycler;
import io.contactsolver.core.SoftStepJob;
import io.contactsolver.core.SoftStepSchedule;
import io.contactsolver.core.ParallelRunner;
import io.contactsolver.core.PreparedBodyField;
import io.contactsolver.core.SinglePassJob;
import io.contactsolver.core.SolveJob;
import io.contactsolver.core.SolverBackend;
import io.contactsolver.core.StateField;
import io.contactsolver.core.StepOutputs;
import io.contactsolver.core.TargetRule;
import io.contactsolver.core.WarmStartField;
import io.contactsolver.layout.ContactBody;
import io.contactsolver.layout.DeltaField;
import io.contactsolver.layout.ImpulseField;
import io.contactsolver.layout.SolvePhase;
import java.nio.FloatBuffer;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The multi-threaded Java backend. Each phase is a parallel loop in which every output element is
 * written from exactly one index, so results do not depend on the thread count. Working arrays are
 * kept between solves and only grow; nothing is allocated per body or per contact.
 */
public final class CpuBackend implements SolverBackend {
    private static final int GRAIN = 1 << 12;
    /**
     * Records a member zeroes or resets at the least: a fill of a few floats a record is so cheap
     * that a team of two for fewer costs more than it saves (the box pyramid's 5,051 records on 2
     * threads: 0.081 ms a step against 0.055 on 1).
     */
    private static final int FILL_GRAIN = 1 << 15;
    /**
     * Below this many contacts a second thread costs the single pass more than it saves: its
     * per-contact work is short, so the hand-off must be amortised over many contacts (a measured
     * crossover; docs/performance.md, "Single pass", has 1 and 2 threads from 1,000 contacts up).
     */
    private static final int PARALLEL_CONTACTS = 250_000;

    /**
     * Fewest rows per thread worth a team for the iterative solver and the soft step: below this
     * the barriers of every colour of every iteration cost more than the second thread saves, and
     * far more when another process holds a core (the waiting member yields, the colour waits for
     * it). The crossover and its measurement are in docs/performance.md, "Threads: where a team
     * starts to pay".
     */
    static final int TEAM_ROWS_PER_THREAD = 2_000;

    private final ParallelRunner runner;
    private float[] prepared = new float[PreparedBodyField.STRIDE];
    private float[] responses = new float[0];
    private float[] sums = new float[0];
    private float[] rowData = new float[0];
    private float[] lambda = new float[0];
    private float[] state = new float[0];
    private int[] pairs = new int[0];
    private float[] manifoldRows = new float[0];
    private float[] pointRows = new float[0];
    private float[] manifoldImpulses = new float[0];
    private int[] movers = new int[0];
    private float[] peaks = new float[0];
    private float[] separations = new float[0];
    private float[] warmRecords = new float[0];
    private boolean[] bouncingRows = new boolean[0];
    /**
     * Each body's first row ({@link #firstRows}), where the soft step gives it its substep's gravity
     * and motion: per row, bit 1 where it is the first row in row order to move its body a, bit 2
     * its body b; per body, whether any row moves it; for the colouring of
     * {@link #firstRowsColouring} over {@link #firstRowsBodies} bodies.
     */
    private byte[] firstOfBody = new byte[0];
    private boolean[] bodyInRows = new boolean[0];
    private long firstRowsColouring = -1;
    private int firstRowsBodies = -1;
    private float[] motion = new float[0];
    private float[] stagedImpulses = new float[0];
    /** Each team member's largest change of an iteration, as float bits: non-negative floats order like their bits. */
    private int[] changes = new int[0];
    /** Each team size's split of the colours ({@link #balance}), by size. */
    private ShareBalance[] balances = new ShareBalance[0];
    /**
     * Whether {@link #manifoldRows} and {@link #pointRows} hold the rows of the last soft step, laid
     * out as {@link #rowsLayout} says, prepared from the bodies' records {@link #prepared} held
     * then (for {@link #rowsBodyCount} bodies); anything else that prepares the bodies clears it.
     */
    private boolean rowsStand;
    private long rowsLayout;
    private int rowsBodyCount;
    /**
     * Per row, the manifold it was prepared for, of the recycler's write {@link #rowsLineage}
     * ({@link Recycler#writeLineage}): where a manifold of this step kept that one's points, its
     * anchors and normal are the row's, and the row's compare of them is spared.
     */
    private int[] rowsManifold = new int[0];
    private long rowsLineage = -1;
    /**
     * Per prepared record, the world's last: whether its inverse mass and inertia are the bits the
     * last soft step's rows were prepared from; read where {@link SoftStepRun#geometryMayStand}.
     */
    private boolean[] massesKept = new boolean[0];

    /** A backend that runs its loops on {@code runner}, which the caller keeps ownership of. */
    public CpuBackend(ParallelRunner runner) {
        this.runner = runner;
    }

    @Override
    public String description() {
        return "CPU (" + runner.threads() + (runner.threads() == 1 ? " thread)" : " threads)");
    }

    @Override
    public boolean usesBodyContactIndex() {
        return false;
    }

    @Override
    public void solveSinglePass(SinglePassJob job) {
        int bodyCount = job.bodyCount();
        int contactCount = job.contactCount();
        prepareBodies(job.bodies(), bodyCount);
        sums = grow(sums, (long) (bodyCount + 1) * SinglePass.RESPONSE);
        float[] sum = sums;
        runner.forRange(bodyCount + 1, FILL_GRAIN, (from, to) ->
                Arrays.fill(sum, from * SinglePass.RESPONSE, to * SinglePass.RESPONSE, 0.0f));
        job.clock().lap(SolvePhase.SET_UP);
        float[] prep = prepared;
        FieldBlock contacts = job.contacts();
        FieldBlock links = job.links();
        FieldBlock impulses = job.impulses();
        boolean useFriction = job.friction().friction();
        int parts = contactCount < PARALLEL_CONTACTS ? 1 : runner.threads();
        boolean scattered = contactCount > GRAIN && !fewCrossing(links, contactCount, bodyCount, Math.max(2, parts));
        if (parts == 1 && scattered) {
            // one thread, scattered graph: records gathered a batch at a time, responses added at once
            float[] row = new float[ContactRowField.COUNT];
            float[] work = new float[BodyMath.WORK];
            float[] batch = new float[2 * SinglePass.BATCH * PreparedBodyField.STRIDE];
            SinglePass.solveGathered(contacts.floats(), links.ints(), contacts.stride(), 0, contactCount, bodyCount,
                    prep, job.targets(), useFriction, row, work, batch, impulses, sum, true);
            job.clock().lap(SolvePhase.SOLVE);
        } else if (!scattered) {
            // each thread sweeps the contacts of its own bodies, adding their responses at once
            int owners = parts;
            runner.forRange(owners, 1, (from, to) -> {
                float[] row = new float[ContactRowField.COUNT];
                float[] work = new float[BodyMath.WORK];
                for (int part = from; part < to; part++) {
                    SinglePass.solveAndAccumulate(contacts.floats(), links.ints(), contacts.stride(), 0, contactCount,
                            bodyCount, prep, job.targets(), useFriction, row, work, impulses, sum,
                            (int) ((long) bodyCount * part / owners), (int) ((long) bodyCount * (part + 1) / owners));
                }
            });
            job.clock().lap(SolvePhase.SOLVE);
        } else {
            // scattered graph: every contact's responses first, then each thread sums its bodies'
            responses = grow(responses, (long) contactCount * ContactBody.COUNT * SinglePass.RESPONSE);
            float[] resp = responses;
            runner.forRange(contactCount, GRAIN, (from, to) -> {
                float[] row = new float[ContactRowField.COUNT];
                float[] work = new float[BodyMath.WORK];
                float[] batch = new float[2 * SinglePass.BATCH * PreparedBodyField.STRIDE];
                SinglePass.solveGathered(contacts.floats(), links.ints(), contacts.stride(), from, to, bodyCount, prep,
                        job.targets(), useFriction, row, work, batch, impulses, resp, false);
            });
            job.clock().lap(SolvePhase.SOLVE);
            runner.forRange(parts, 1, (from, to) -> {
                for (int part = from; part < to; part++) {
                    SinglePass.accumulateOwned(links.ints(), links.stride(), contactCount, resp, sum,
                            (int) ((long) bodyCount * part / parts), (int) ((long) bodyCount * (part + 1) / parts));
                }
            });
            job.clock().lap(SolvePhase.SOLVE);
        }
        FieldBlock deltas = job.deltas();
        runner.forRange(bodyCount, GRAIN, (from, to) -> {
            for (int i = from; i < to; i++) {
                SinglePass.writeDeltas(sum, i, deltas.floats(), deltas.stride());
            }
        });
        job.clock().lap(SolvePhase.OUTPUT);
    }

    @Override
    public IterationOutcome solveIterative(IterativeJob job) {
        int bodyCount = job.bodyCount();
        ContactColoring coloring = job.coloring();
        FrictionUse friction = job.friction();
        ColouredRows set = prepareColoured(job, coloring, job.targets(), job.warmImpulses());
        int rows = set.count();
        int world = set.world();
        int rowStride = set.rowStride();
        int lambdaStride = set.lambdaStride();
        float[] row = set.data();
        float[] impulse = set.lambda();
        int[] bodyPairs = set.bodyPairs();
        float[] velocity = set.velocity();
        int[] rowOf = coloring.rowOf();
        ParallelRunner crew = crew(rows);
        if (job.warmImpulses() != null) {
            RowSweep warmStart = set.warmStart();
            ShareBalance balance = balance(crew);
            crew.team((member, team) -> {
                if (balance != null) {
                    balance.begin(member);
                }
                sweepColours(coloring, warmStart, warmStart, member, team, balance, false);
            });
        }

        job.clock().lap(SolvePhase.SET_UP);
        boolean frictional = friction.any();
        RowSweep inOrder = (first, end) -> Iterative.sweep(row, rowStride, bodyPairs, impulse, lambdaStride, velocity,
                world, first, end);
        RowSweep colour = frictional
                ? (first, end) -> Iterative.sweepColour(row, rowStride, bodyPairs, impulse, lambdaStride, velocity,
                        world, first, end)
                : (first, end) -> Iterative.sweepNormalColour(row, bodyPairs, impulse, velocity, world, first, end);
        IterationOutcome outcome = iterate(crew, coloring, colour, inOrder, job.iterations(), job.tolerance());

        job.clock().lap(SolvePhase.SOLVE);
        FieldBlock deltas = job.deltas();
        runner.forRange(bodyCount, GRAIN, (from, to) -> {
            for (int i = from; i < to; i++) {
                Iterative.writeDeltas(velocity, i, deltas.floats(), deltas.stride());
            }
        });
        FieldBlock impulses = job.impulses();
        if (frictional) {
            set.writeImpulses(crew(rows), coloring.rowOf(), impulses, impulseRecords(rows));
        } else {
            // in contact order, every field written front to back: the friction and rolling fields are all +0
            runner.forRange(rows, GRAIN, (from, to) -> {
                Iterative.writeNormalImpulses(impulse, rowOf, impulses, from, to);
                friction.zeroUnusedImpulses(impulses, from, to);
            });
        }
        job.clock().lap(SolvePhase.OUTPUT);
        return outcome;
    }

    @Override
    public IterationOutcome softStep(SoftStepJob job) {
        job.points().write(); // a device that failed may have left them for the device to write
        SoftStepRun run = new SoftStepRun(job);
        int sweeps = SoftStepSchedule.run(job, run);
        run.recordOutputs();
        float worst = 0.0f;
        for (float change : run.residual) {
            worst = Math.max(worst, change);
        }
        return new IterationOutcome(sweeps, worst);
    }

    /**
     * One soft step's stages on this backend, in the order {@link SoftStepSchedule#run} calls them:
     * each stage a parallel loop, and the sweeps of every substep on one team
     * ({@link MemberSweeps}), whose members meet at a barrier after each stage.
     */
    private final class SoftStepRun implements SoftStepSchedule.Stages {
        private final SoftStepJob job;
        private final int bodyCount;
        private final ContactColoring coloring;
        private final int rows;
        private final ParallelRunner crew;
        /** How the team splits each colour. */
        private final ShareBalance balance;
        /** Each manifold row's first point, its points consecutive in row order; the last entry is the count. */
        private final int[] pointStart;
        private final float[] manifolds;
        private final float[] points;
        private final float[] normal;
        private final float[] peak;
        /** Each point's separation in the current substep, found by the first sweep after the bodies moved. */
        private final float[] separation;
        private final float[] accumulated;
        /** Each row's warm-start record ({@link WarmStartField}), for the coming substep. */
        private final float[] warm;
        /** Whether a row has a point restitution may act on: the restitution pass skips the others. */
        private final boolean[] bouncing;
        /** Whether any row has: where none has, the team skips the restitution pass and its barriers. */
        private final AtomicBoolean anyBounce = new AtomicBoolean();
        private final int[] bodyPairs;
        private final int[] movers;
        private final float[] moved;
        /** The world's velocity-change record. */
        private final int world;
        /** Every body's velocity-change record and the world's, zeroed by {@link #resetMotions}. */
        private float[] velocity;
        /** What the step's outputs hold that the host must scan for ({@link #recordOutputs}). */
        private final AtomicInteger unsound = new AtomicInteger();
        /** Each team member's largest change of the step's last sweep and restitution. */
        private float[] residual = new float[0];

        /** The step's working arrays, grown to its rows and points. */
        SoftStepRun(SoftStepJob job) {
            this.job = job;
            this.bodyCount = job.bodyCount();
            this.coloring = job.coloring();
            this.rows = coloring.rowCount();
            this.crew = crew(rows);
            this.balance = balance(crew);
            int[] pointStarts = job.rowPointStarts();
            int pointCount = pointStarts[rows];
            float[] lastRows = manifoldRows;
            float[] lastPoints = pointRows;
            manifoldRows = grow(manifoldRows, (long) ManifoldField.COUNT * rows);
            pointRows = grow(pointRows, (long) PointField.COUNT * pointCount);
            int[] lastMovers = CpuBackend.this.movers;
            lambda = grow(lambda, pointCount);
            peaks = grow(peaks, pointCount);
            separations = grow(separations, pointCount);
            manifoldImpulses = grow(manifoldImpulses, (long) ManifoldImpulse.COUNT * rows);
            warmRecords = grow(warmRecords, (long) WarmStartField.COUNT * rows);
            if (bouncingRows.length < rows) {
                bouncingRows = new boolean[rows];
            }
            pairs = grow(pairs, (long) ContactBody.COUNT * rows);
            CpuBackend.this.movers = grow(CpuBackend.this.movers, (long) ContactBody.COUNT * rows);
            if (manifoldRows != lastRows || pointRows != lastPoints || CpuBackend.this.movers != lastMovers) {
                rowsStand = false; // new arrays: the rows are gone
            }
            motion = grow(motion, (long) (bodyCount + 1) * MotionField.STRIDE);
            this.pointStart = pointStarts;
            this.manifolds = manifoldRows;
            this.points = pointRows;
            this.normal = lambda;
            this.peak = peaks;
            this.separation = separations;
            this.accumulated = manifoldImpulses;
            this.warm = warmRecords;
            this.bouncing = bouncingRows;
            this.bodyPairs = pairs;
            this.movers = CpuBackend.this.movers;
            this.moved = motion;
            this.world = bodyCount * StateField.STRIDE;
        }

        /** Whether the last soft step's rows are here to be kept where their inputs have not changed. */
        private boolean geometryMayStand;

        /** Whether a row moves body {@code i}, for this step's colouring ({@link #firstRows}). */
        boolean[] bodyInRows() {
            return bodyInRows;
        }

        /**
         * Whether a substep's motion of a body that rows move is integrated at its first row of
         * the relax sweep that follows, rather than by its member before a meeting: where that sweep
         * exists and no immovable body moves (one that rows of a colour share: its motion is written
         * by nobody then, as it stays zero).
         */
        private boolean integratesAtFirstRows;

        /** Whether any body that contacts cannot move has a velocity or spin: a kinematic body. */
        private boolean immovableBodiesMove() {
            FieldBlock bodies = job.bodies();
            MovableBodies movable = job.movable();
            AtomicBoolean moves = new AtomicBoolean();
            runner.forRange(bodyCount, FILL_GRAIN, (from, to) -> {
                for (int i = from; i < to && !moves.get(); i++) {
                    if (!movable.isMovable(i) && !(bodies.getFloat(BODY_VX, i) == 0.0f
                            && bodies.getFloat(BODY_VY, i) == 0.0f && bodies.getFloat(BODY_VZ, i) == 0.0f
                            && bodies.getFloat(BODY_WX, i) == 0.0f && bodies.getFloat(BODY_WY, i) == 0.0f
                            && bodies.getFloat(BODY_WZ, i) == 0.0f)) {
                        moves.set(true);
                    }
                }
            });
            return moves.get();
        }

        /** The substep's motion of each body whose first row is in {@code [from, end)}, before the rows. */
        private void integrateAtFirstRows(FieldBlock bodies, byte[] firstRow, float[] state, float h, int from,
                int end) {
            for (int r = from; r < end; r++) {
                if (firstRow[r] == 0) {
                    continue;
                }
                if ((firstRow[r] & FIRST_OF_A) != 0) {
                    int i = bodyPairs[ContactBody.COUNT * r + LINK_A] / StateField.STRIDE;
                    SoftStep.integrate(bodies.floats(), bodies.stride(), i, state, i * StateField.STRIDE, moved, h);
                }
                if ((firstRow[r] & FIRST_OF_B) != 0) {
                    int i = bodyPairs[ContactBody.COUNT * r + LINK_B] / StateField.STRIDE;
                    SoftStep.integrate(bodies.floats(), bodies.stride(), i, state, i * StateField.STRIDE, moved, h);
                }
            }
        }

        @Override
        public void prepareBodies() {
            geometryMayStand = rowsStand && rowsBodyCount == bodyCount && rowsLayout == job.rowPointStartsVersion();
            rowsStand = false; // the records change now, the rows only once prepareManifolds has run
            prepareBodiesKeeping(job.bodies(), bodyCount, geometryMayStand);
            job.clock().lap(SolvePhase.SET_UP);
        }

        @Override
        public void prepareManifolds() {
            int[] firsts = job.manifolds().firsts();
            int[] manifoldOf = coloring.order();
            Recycler solved = job.points();
            int[] solvedStart = solved.pointStart();
            float[] prep = prepared;
            int[] slots = coloring.slots();
            FieldBlock contacts = job.contacts();
            FieldBlock links = job.links();
            float[] geometry = solved.geometry();
            float[] warmNormal = solved.warmNormal();
            float[] warmVectors = solved.warmVectors();
            int solvedPoints = solved.pointCount();
            SoftCoefficients k = job.coefficients();
            TargetRule rule = job.restitution();
            boolean mayStand = geometryMayStand;
            boolean[] kept = massesKept;
            if (rowsManifold.length < rows) {
                rowsManifold = new int[Math.max(rows, rowsManifold.length + (rowsManifold.length >> 1))];
                rowsLineage = -1;
            }
            int[] lastManifold = rowsManifold;
            int[] keptFrom = solved.keptFrom();
            // the rows' manifolds are the previous step's whose points this step's may keep
            boolean lineage = mayStand && rowsLineage >= 0 && solved.keptLineage() == rowsLineage;
            rowsLineage = -1; // until every row below has its manifold
            // ranges claimed as they come: a row kept costs less than one prepared anew, and the
            // kept ones are not spread evenly
            AtomicBoolean bounces = anyBounce;
            crew.forRange(rows, 1, (from, to) -> {
                boolean bouncesHere = false;
                for (int r = from; r < to; r++) {
                    int m = manifoldOf[r];
                    int c0 = firsts[m];
                    int a = links.ints().get(LINK_A * links.stride() + c0);
                    int b = links.ints().get(LINK_B * links.stride() + c0);
                    int slotA = slots[LINK_A * rows + r];
                    int slotB = slots[LINK_B * rows + r];
                    int recordA = a >= 0 ? a : bodyCount;
                    int recordB = b >= 0 ? b : bodyCount;
                    int g0 = solvedStart[m];
                    int count = solvedStart[m + 1] - g0;
                    int oa = BodyMath.record(a, bodyCount);
                    int ob = BodyMath.record(b, bodyCount);
                    boolean rolls = contacts.floats().get(CONTACT_ROLLING_RESISTANCE * contacts.stride() + c0) > 0.0f;
                    // the row's geometry kept where the row had the same bodies, their masses the
                    // same bits, and the same normal and anchors (a manifold recycled): the same
                    // inputs give the same bits, so a kept row is what preparing it anew would write.
                    // The layout and the bodies are guards: where they change, so does some anchor
                    // in every case KeptRowsTest builds, but only they make the row's record whole.
                    // A manifold that kept the points of the row's last one has those anchors and
                    // that normal to the bit (Recycler#keptLineage): their compare is spared. The
                    // manifold check is a guard too, which the layout and bodies imply in every
                    // batch built so far. A kept manifold's anchors and normal reach the geometry
                    // only where something below reads them (Recycler#placeAnchors)
                    boolean guards = mayStand && movers[ContactBody.COUNT * r + LINK_A] == recordA * MotionField.STRIDE
                            && movers[ContactBody.COUNT * r + LINK_B] == recordB * MotionField.STRIDE
                            && kept[recordA] && kept[recordB];
                    boolean stands;
                    if (guards && lineage && keptFrom[m] >= 0 && keptFrom[m] == lastManifold[r]) {
                        // the anchors are read only if the row is prepared anew
                        stands = SoftStep.rollingStands(r, rolls, manifolds);
                        if (!stands) {
                            solved.placeAnchors(m);
                        }
                    } else {
                        // the compare reads them
                        solved.placeAnchors(m);
                        stands = guards && SoftStep.geometryStands(geometry, solvedPoints, g0, count, r,
                                pointStart[r], rolls, manifolds, points);
                    }
                    lastManifold[r] = m;
                    if (!stands) {
                        SoftStep.prepareGeometry(geometry, solvedPoints, g0, count, r, pointStart[r], prep, oa, ob,
                                rolls, manifolds, points);
                    }
                    SoftStep.prepareStep(geometry, solvedPoints, g0, count, warmNormal, warmVectors, rows, m,
                            contacts.floats(), contacts.stride(), c0, r, pointStart[r], prep, oa, ob,
                            slotA == bodyCount || slotB == bodyCount, k, rule, manifolds, points, normal, peak,
                            accumulated);
                    SoftStep.warmImpulses(manifolds, r, points, pointStart[r], pointStart[r + 1], normal, accumulated,
                            warm);
                    bouncing[r] = SoftStep.mayBounce(points, pointStart[r], pointStart[r + 1]);
                    bouncesHere |= bouncing[r];
                    bodyPairs[ContactBody.COUNT * r + LINK_A] = slotA * StateField.STRIDE;
                    bodyPairs[ContactBody.COUNT * r + LINK_B] = slotB * StateField.STRIDE;
                    movers[ContactBody.COUNT * r + LINK_A] = recordA * MotionField.STRIDE;
                    movers[ContactBody.COUNT * r + LINK_B] = recordB * MotionField.STRIDE;
                }
                if (bouncesHere) {
                    bounces.set(true);
                }
            });
            rowsStand = true;
            rowsLayout = job.rowPointStartsVersion();
            rowsBodyCount = bodyCount;
            rowsLineage = solved.writeLineage();
        }

        /** The velocity-change records zeroed with the motion records, the world's included. */
        @Override
        public void resetMotions() {
            velocity = zeroedState(bodyCount);
            runner.forRange(bodyCount, FILL_GRAIN, (from, to) -> {
                for (int i = from; i < to; i++) {
                    SoftStep.resetMotion(moved, i);
                }
            });
            Arrays.fill(moved, bodyCount * MotionField.STRIDE, (bodyCount + 1) * MotionField.STRIDE, 0.0f);
            job.clock().lap(SolvePhase.SET_UP);
        }

        /** The loop on every member of the team, each with {@link MemberSweeps} of its own. */
        @Override
        public void sweeps(SoftStepSchedule.SweepLoop loop) {
            SoftCoefficients k = job.coefficients();
            boolean frictional = job.friction().any();
            boolean softFriction = frictional && SoftStepJob.FRICTION_IN_SOFT_SWEEP;
            float[] state = velocity;
            firstRows(coloring, bodyCount);
            integratesAtFirstRows = job.relaxIterations() > 0 && !immovableBodiesMove();
            byte[] firstRow = firstOfBody;
            FieldBlock bodies = job.bodies();
            float gx = job.gx();
            float gy = job.gy();
            float gz = job.gz();
            float h = k.substep();
            RowSweeps rowSweeps = new RowSweeps(
                    (from, end) -> {
                        for (int r = from; r < end; r++) {
                            int a = bodyPairs[ContactBody.COUNT * r + LINK_A];
                            int b = bodyPairs[ContactBody.COUNT * r + LINK_B];
                            // the substep's gravity on a body at its first row, before any row moves it
                            if (firstRow[r] != 0) {
                                if ((firstRow[r] & FIRST_OF_A) != 0) {
                                    gravityOn(bodies, a / StateField.STRIDE, state, gx, gy, gz, h);
                                }
                                if ((firstRow[r] & FIRST_OF_B) != 0) {
                                    gravityOn(bodies, b / StateField.STRIDE, state, gx, gy, gz, h);
                                }
                            }
                            SoftStep.applyWarmStart(warm, r, state, a, b, world);
                        }
                        return 0.0f;
                    },
                    (relax, measure, findSeparation, warmNext) -> {
                        // the relax sweep after the bodies moved: where their motion is integrated at
                        // their first rows, a range's first rows integrate theirs before it is swept
                        boolean integrateFirst = integratesAtFirstRows && relax && findSeparation;
                        return (from, end) -> {
                            if (integrateFirst) {
                                integrateAtFirstRows(bodies, firstRow, state, h, from, end);
                            }
                            return SoftStep.sweep(manifolds, points, pointStart, bodyPairs, movers, normal, peak,
                                    separation, accumulated, state, moved, world, k, relax,
                                    relax ? frictional : softFriction, measure, findSeparation, warm, warmNext,
                                    bouncing, from, end);
                        };
                    },
                    (first, end) -> {
                        float largest = 0.0f;
                        for (int r = first; r < end; r++) {
                            if (bouncing[r]) {
                                largest = Math.max(largest, SoftStep.restitution(manifolds, r, points,
                                        pointStart[r], pointStart[r + 1], normal, peak, state,
                                        bodyPairs[ContactBody.COUNT * r + LINK_A],
                                        bodyPairs[ContactBody.COUNT * r + LINK_B], world));
                            }
                        }
                        return largest;
                    });
            residual = new float[crew.threads()];
            crew.team((member, team) -> {
                if (balance != null) {
                    balance.begin(member);
                }
                loop.run(new MemberSweeps(this, rowSweeps, member, team));
                if (balance != null) {
                    balance.keep(member);
                }
            });
            job.clock().lap(SolvePhase.SOLVE);
        }

        @Override
        public void finishBodies() {
            FieldBlock bodies = job.bodies();
            MovableBodies movable = job.movable();
            FieldBlock next = job.nextBodies();
            FieldBlock deltas = job.deltas();
            AtomicInteger faults = unsound; // flags any range sets: the same whatever the order
            runner.forRange(bodyCount, GRAIN, (from, to) -> {
                for (int i = from; i < to; i++) {
                    SoftStep.finishBody(bodies.floats(), bodies.stride(), i, velocity,
                            movable.isMovable(i) ? i * StateField.STRIDE : -1, moved, job.gx(), job.gy(), job.gz(),
                            job.timeStep(), next.floats(), next.stride(), deltas == null ? null : deltas.floats(),
                            deltas == null ? 0 : deltas.stride());
                }
                int found = screenFinished(next, deltas, from, to);
                if (found != 0) {
                    faults.accumulateAndGet(found, (x, y) -> x | y);
                }
            });
        }

        @Override
        public void writeResults() {
            int[] manifoldOf = coloring.order();
            int[] solvedStart = job.points().pointStart();
            float[] normalOut = job.normalOut();
            float[] vectorsOut = job.vectorsOut();
            // each member writes the manifolds of its own block of the outputs, visiting the rows in
            // their order. Rows taken in manifold order were read out of order, from records too many
            // for the cache (the 40^3 lattice's OUTPUT 13.7-15.5 ms a step on 1 thread against
            // 8.8-9.5); all rows split between the members had every member's writes scattered over
            // every cache line of the outputs (the box pyramid on 2 threads, 0.47 against 0.34 ms a
            // frame). A colour's rows ascend in manifold order, so the test below predicts well.
            crew.team((member, team) -> {
                int from = share(0, rows, member, team.members());
                int to = share(0, rows, member + 1, team.members());
                for (int r = 0; r < rows; r++) {
                    int m = manifoldOf[r];
                    if (m >= from && m < to) {
                        SoftStep.writeResults(manifolds, r, normal, pointStart[r], pointStart[r + 1], accumulated,
                                normalOut, solvedStart[m], vectorsOut, rows, m);
                    }
                }
            });
            job.clock().lap(SolvePhase.OUTPUT);
        }

        /**
         * What {@link #finishBodies}' screen found, for the host to skip the scans it need not make
         * ({@link StepOutputs#record}): the impulses are the host's to report and test.
         */
        void recordOutputs() {
            int faults = unsound.get();
            job.outputs().record(false, (faults & DELTA_NOT_FINITE) == 0, (faults & BODY_NOT_FINITE) == 0,
                    (faults & ORIENTATION_NOT_UNIT) == 0);
        }
    }

    /** What {@link #screenFinished} flags: a next body's field, its orientation, its delta. */
    static final int BODY_NOT_FINITE = 1;
    static final int ORIENTATION_NOT_UNIT = 2;
    static final int DELTA_NOT_FINITE = 4;

    /** Bodies a slice of {@link #screenFinished} copies out of each column at once. */
    private static final int SCREEN_SLICE = 1024;
    /**
     * Each thread's slices for {@link #screenFinished}: kept, as arrays allocated a call left its
     * loops several times slower once compiled (0.07 against 0.017 ms for 5,050 bodies, measured alone).
     */
    private static final ThreadLocal<float[][]> SCREEN_SCRATCH =
            ThreadLocal.withInitial(() -> new float[4][SCREEN_SLICE]);

    /**
     * The screen of bodies {@code [from, to)}'s next state and deltas just written, while they are
     * in cache: a non-finite field, an orientation whose squared norm summed in float the
     * validator's screen of a unit quaternion does not clear ({@code InputValidator.screensUnit}), a
     * non-finite delta (none where {@code deltas} is null). What it flags the host scans again, to
     * name the body and field; what it clears the host skips ({@link StepOutputs}). Columns in
     * slices, element by element in loops the JIT vectorises: a value times zero is zero unless it
     * is infinite or NaN.
     */
    static int screenFinished(FieldBlock next, FieldBlock deltas, int from, int to) {
        float[][] scratch = SCREEN_SCRATCH.get();
        float[] column = scratch[0];
        float[] bodyFaults = scratch[1];
        float[] deltaFaults = scratch[2];
        float[] norm = scratch[3];
        int found = 0;
        for (int start = from; start < to; start += SCREEN_SLICE) {
            int n = Math.min(SCREEN_SLICE, to - start);
            Arrays.fill(bodyFaults, 0, n, 0.0f);
            Arrays.fill(deltaFaults, 0, n, 0.0f);
            Arrays.fill(norm, 0, n, 0.0f);
            for (int field = 0; field < SoftStepJob.BODY_STATE_FIELDS; field++) {
                next.floats().get(field * next.stride() + start, column, 0, n);
                addTimesZero(bodyFaults, column, n);
                if (field >= BODY_QW && field <= BODY_QZ) {
                    for (int i = 0; i < n; i++) {
                        norm[i] += column[i] * column[i];
                    }
                }
            }
            for (int field = 0; deltas != null && field < DeltaField.COUNT; field++) {
                deltas.floats().get(field * deltas.stride() + start, column, 0, n);
                addTimesZero(deltaFaults, column, n);
            }
            for (int i = 0; i < n; i++) {
                found |= (bodyFaults[i] != 0.0f ? BODY_NOT_FINITE : 0)
                        | (InputValidator.screensUnit(norm[i]) ? 0 : ORIENTATION_NOT_UNIT)
                        | (deltaFaults[i] != 0.0f ? DELTA_NOT_FINITE : 0);
            }
        }
        return found;
    }

    /** {@code sum[i] += values[i] * 0}: +-0 while every value is finite, NaN once one is not. */
    private static void addTimesZero(float[] sum, float[] values, int n) {
        for (int i = 0; i < n; i++) {
            sum[i] += values[i] * 0.0f;
        }
    }

    private static final byte FIRST_OF_A = 1;
    private static final byte FIRST_OF_B = 2;

    /**
     * Marks each body's first row in row order ({@link #firstOfBody}, {@link #bodyInRows}), once a
     * colouring: its rows come colour by colour, and a colour's rows share no body, so no row
     * before it moves the body and every row after it comes after it on any team.
     */
    private void firstRows(ContactColoring coloring, int bodyCount) {
        if (firstRowsColouring == coloring.version() && firstRowsBodies == bodyCount) {
            return;
        }
        int rows = coloring.rowCount();
        int[] slots = coloring.slots();
        if (firstOfBody.length < rows) {
            firstOfBody = new byte[Math.max(rows, firstOfBody.length + (firstOfBody.length >> 1))];
        }
        if (bodyInRows.length < bodyCount) {
            bodyInRows = new boolean[Math.max(bodyCount, bodyInRows.length + (bodyInRows.length >> 1))];
        }
        firstRowsColouring = -1; // until both are whole
        Arrays.fill(bodyInRows, 0, bodyCount, false);
        for (int r = 0; r < rows; r++) {
            byte first = 0;
            int a = slots[LINK_A * rows + r];
            int b = slots[LINK_B * rows + r];
            if (a < bodyCount && !bodyInRows[a]) {
                bodyInRows[a] = true;
                first |= FIRST_OF_A;
            }
            if (b < bodyCount && !bodyInRows[b]) {
                bodyInRows[b] = true;
                first |= FIRST_OF_B;
            }
            firstOfBody[r] = first;
        }
        firstRowsColouring = coloring.version();
        firstRowsBodies = bodyCount;
    }

    /** A substep's gravity on movable body {@code i} (state record {@code i}) where it has mass. */
    private static void gravityOn(FieldBlock bodies, int i, float[] state, float gx, float gy, float gz, float h) {
        if (bodies.getFloat(BODY_INV_MASS, i) > 0.0f) {
            SoftStep.applyGravity(state, i * StateField.STRIDE, gx, gy, gz, h);
        }
    }

    /**
     * The row sweeps of a soft step's substeps, over rows {@code [first, end)} each: the warm
     * start, the soft and relax sweeps (with their largest change only where the step's last sweep
     * reports it, and the next substep's warm start only at a substep's last sweep), restitution.
     */
    private record RowSweeps(RowSweep warmStart, SweepKind sweep, RowSweep restitution) {
    }

    /**
     * The row sweep of a soft ({@code relax} false) or relax sweep, measured or not, working out
     * the next substep's warm starts or not.
     */
    @FunctionalInterface
    private interface SweepKind {
        RowSweep of(boolean relax, boolean measure, boolean findSeparation, boolean warmNext);
    }

    /**
     * One team member's share of a soft step's sweeps: its bodies for gravity and integration, its
     * share of every colour for the sweeps ({@link #sweepColours}), and a barrier after each stage,
     * so that no member starts a stage before every member has finished the one before.
     */
    private static final class MemberSweeps implements SoftStepSchedule.Sweeps {
        private final SoftStepRun run;
        private final RowSweeps rowSweeps;
        private final int member;
        private final ParallelRunner.Team team;
        private final int bodyFrom;
        private final int bodyTo;
        private final float h;
        /** The largest change of the step's last sweep, as the schedule marks it. */
        private float largest;
        /**
         * Whether the bodies' motion changed since the last sweep (the step's start, or an
         * integration): the next sweep then finds the points' separations, and the ones after it,
         * until the bodies move again, read them.
         */
        private boolean motionMoved = true;

        MemberSweeps(SoftStepRun run, RowSweeps rowSweeps, int member, ParallelRunner.Team team) {
            this.run = run;
            this.rowSweeps = rowSweeps;
            this.member = member;
            this.team = team;
            int members = team.members();
            this.bodyFrom = (int) ((long) run.bodyCount * member / members);
            this.bodyTo = (int) ((long) run.bodyCount * (member + 1) / members);
            this.h = run.job.coefficients().substep();
        }

        /**
         * A substep's gravity and warm start: on a team, where the colouring was kept, body by body
         * with one meeting; else colour by colour, each body's gravity at its first row (one
         * thread always: body by body, the frame moved within the noise there; docs/performance.md,
         * "Threads: where a team starts to pay").
         */
        @Override
        public void startSubstep() {
            SoftStepJob job = run.job;
            FieldBlock bodies = job.bodies();
            MovableBodies movable = job.movable();
            BodyContactIndex byBody = team.members() > 1 ? job.bodyRows() : null;
            if (byBody != null) {
                // a colouring kept from the last step: each member starts its own bodies, gravity
                // then their rows' warm starts in row order, and the team meets once, not a colour
                int[] offsets = byBody.offsets();
                int[] entries = byBody.entries();
                for (int i = bodyFrom; i < bodyTo; i++) {
                    if (movable.isMovable(i)) {
                        int s = i * StateField.STRIDE;
                        gravityOn(bodies, i, run.velocity, job.gx(), job.gy(), job.gz(), h);
                        SoftStep.warmBody(run.warm, entries, offsets[i], offsets[i + 1], run.velocity, s);
                    }
                }
                team.await();
                return;
            }
            boolean[] inRows = run.bodyInRows();
            // a body that some row moves gets its gravity at its first row in the warm start, so no
            // member waits here for the others' gravity; the others get it now
            for (int i = bodyFrom; i < bodyTo; i++) {
                if (!inRows[i] && movable.isMovable(i)) {
                    gravityOn(bodies, i, run.velocity, job.gx(), job.gy(), job.gz(), h);
                }
            }
            sweepColours(run.coloring, rowSweeps.warmStart(), rowSweeps.warmStart(), member, team, run.balance, false);
            meetAfterOverflow();
        }

        /**
         * The barrier after a sweep's overflow rows, which member 0 works alone: where there are
         * none, the barrier after the last colour was the sweep's last, and the team has met.
         */
        private void meetAfterOverflow() {
            ContactColoring coloring = run.coloring;
            if (coloring.rowCount() > coloring.colourStarts()[coloring.colourCount()]) {
                team.await();
            }
        }

        @Override
        public void solve(boolean record, boolean warmNext) {
            sweep(false, record, warmNext);
        }

        @Override
        public void integrate() {
            FieldBlock bodies = run.job.bodies();
            MovableBodies movable = run.job.movable();
            motionMoved = true;
            if (run.integratesAtFirstRows) {
                // the bodies that rows move are integrated at their first rows of the relax sweep,
                // and the immovable ones stand still: no member waits here for the others
                boolean[] inRows = run.bodyInRows();
                for (int i = bodyFrom; i < bodyTo; i++) {
                    if (!inRows[i] && movable.isMovable(i)) {
                        SoftStep.integrate(bodies.floats(), bodies.stride(), i, run.velocity, i * StateField.STRIDE,
                                run.moved, h);
                    }
                }
                return;
            }
            for (int i = bodyFrom; i < bodyTo; i++) {
                SoftStep.integrate(bodies.floats(), bodies.stride(), i, run.velocity,
                        movable.isMovable(i) ? i * StateField.STRIDE : -1, run.moved, h);
            }
            team.await();
        }

        @Override
        public void relax(boolean record, boolean warmNext) {
            sweep(true, record, warmNext);
        }

        private void sweep(boolean relax, boolean record, boolean warmNext) {
            RowSweep rows = rowSweeps.sweep().of(relax, record, motionMoved, warmNext);
            motionMoved = false;
            float change = sweepColours(run.coloring, rows, rows, member, team, run.balance, true);
            if (record) {
                largest = change;
            }
            meetAfterOverflow();
        }

        /** The last stage: no barrier after it, the team's end is one. */
        @Override
        public void restitution() {
            run.residual[member] = !run.anyBounce.get() ? largest : Math.max(largest,
                    sweepColours(run.coloring, rowSweeps.restitution(), rowSweeps.restitution(), member, team,
                            run.balance, false));
        }
    }

    /**
     * One sweep of the team over the coloured rows: each member takes its share of a colour (by
     * {@code balance} where the colour is large enough to share among every member, and where
     * {@code learn}, timed and learnt from), the team meets at a barrier after each colour, then
     * member 0 sweeps the overflow rows (no barrier after them: the caller meets the team where it
     * needs to). Returns the largest change this member found.
     */
    private static float sweepColours(ContactColoring coloring, RowSweep colourSweep, RowSweep overflowSweep,
            int member, ParallelRunner.Team team, ShareBalance balance, boolean learn) {
        int[] starts = coloring.colourStarts();
        int colours = coloring.colourCount();
        int members = team.members();
        boolean balanced = balance != null && balance.members() == members;
        float largest = 0.0f;
        for (int k = 0; k < colours; k++) {
            int first = starts[k];
            int end = starts[k + 1];
            int count = end - first;
            boolean shared = balanced && count / ROWS_PER_MEMBER >= members;
            boolean timed = shared && learn;
            int from = shared ? balance.start(member, k, member, first, count) : share(first, end, member, members);
            int to = shared ? balance.start(member, k, member + 1, first, count)
                    : share(first, end, member + 1, members);
            long began = timed ? System.nanoTime() : 0L;
            largest = Math.max(largest, colourSweep.run(from, to));
            if (timed) {
                balance.finished(member, k, System.nanoTime() - began);
            }
            team.await();
            if (timed) {
                balance.learn(member, k);
            }
        }
        if (learn && balanced) {
            balance.nextSweep(member);
        }
        if (member == 0) {
            largest = Math.max(largest, overflowSweep.run(starts[colours], coloring.rowCount()));
        }
        return largest;
    }

    /**
     * What the iterative solver and the soft step work on once their shared preamble
     * ({@link #prepareColoured}) ran: the row count, the world's velocity-change record, the strides
     * of a row and of its accumulated impulses for this batch's friction, the rows, accumulated
     * impulses and body pairs in row order, and every body's velocity-change record plus the world's.
     */
    private record ColouredRows(int count, int world, int rowStride, int lambdaStride, float[] data, float[] lambda,
            int[] bodyPairs, float[] velocity) {
        /** The warm start as a sweep: every row applies its accumulated impulses to its bodies. */
        RowSweep warmStart() {
            return (first, end) -> {
                Iterative.applyWarmStart(data, rowStride, bodyPairs, lambda, lambdaStride, velocity, world, first, end);
                return 0.0f;
            };
        }

        /**
         * Every row's accumulated impulses, all {@code ImpulseField}s (+0 where the batch has no
         * friction or rolling), written to its contact ({@code rowOf[c]} is contact {@code c}'s
         * row) in {@code impulses}, through {@code staged} ({@link #IMPULSE_RECORD} floats a row
         * for the records, as many again for the columns). A colour's contacts lie about a colour
         * count apart, so a pass in either order met one side a cache line an access: the wide
         * rows read out of order, or every impulse column written out of order. So each row's
         * impulses go to a record in row order, the records are gathered in contact order into
         * columns, one line read a contact, and each column goes to the direct buffer in one bulk
         * copy (on the box pyramid's soft step, 2 threads: 1.0 to 1.1 ms a frame against 1.2 to 1.7
         * for the straight writes on the same team, when this was introduced).
         */
        void writeImpulses(ParallelRunner crew, int[] rowOf, FieldBlock impulses, float[] staged) {
            int columns = count * IMPULSE_RECORD;
            crew.team((member, team) -> {
                int from = share(0, count, member, team.members());
                int to = share(0, count, member + 1, team.members());
                for (int r = from; r < to; r++) {
                    Iterative.writeImpulses(data, rowStride, r, lambda, lambdaStride, staged, r * IMPULSE_RECORD);
                }
                team.await();
                for (int c = from; c < to; c++) {
                    int at = rowOf[c] * IMPULSE_RECORD;
                    for (int field = 0; field < ImpulseField.COUNT; field++) {
                        staged[columns + field * count + c] = staged[at + field];
                    }
                }
            });
            FloatBuffer out = impulses.floats();
            int stride = impulses.stride();
            for (int field = 0; field < ImpulseField.COUNT; field++) {
                out.put(field * stride, staged, columns + field * count, count);
            }
        }
    }

    /**
     * The iterative solver's preamble: the bodies' working records (charged to
     * {@link SolvePhase#SET_UP}), then every contact's row, accumulated impulses (from
     * {@code warm}) and body pairs with {@code rule}, then the velocity-change records, all +0.
     */
    private ColouredRows prepareColoured(SolveJob job, ContactColoring coloring, TargetRule rule, float[] warm) {
        int bodyCount = job.bodyCount();
        prepareBodies(job.bodies(), bodyCount);
        job.clock().lap(SolvePhase.SET_UP);
        FrictionUse friction = job.friction();
        int rowStride = friction.rowFields();
        int lambdaStride = friction.accumulatedImpulses();
        prepareRows(job.contacts(), job.links(), job.contactCount(), bodyCount, coloring, rule, friction.any(), warm,
                rowStride, lambdaStride);
        float[] row = rowData;
        float[] impulse = lambda;
        int[] bodyPairs = pairs;
        float[] velocity = zeroedState(bodyCount);
        return new ColouredRows(coloring.rowCount(), bodyCount * StateField.STRIDE, rowStride, lambdaStride, row,
                impulse, bodyPairs, velocity);
    }

    /**
     * Fills the rows, their accumulated impulses (from the warm start) and body pairs of every
     * contact, in row order, each thread a contiguous block of rows: a row's records are written
     * whole by one thread, so no cache line is written by two (filling them in contact order
     * scattered every thread's writes over every colour, and two threads took longer than one: on
     * the box pyramid, 2 threads, 5.8 to 6.9 ms a frame against 11.0 in contact order, when this was
     * introduced). The team rather than the fork-join pool runs it, as {@link ParallelRunner#forRange}
     * says why.
     */
    private void prepareRows(FieldBlock contacts, FieldBlock links, int contactCount, int bodyCount,
            ContactColoring coloring, TargetRule rule, boolean useFriction, float[] warm, int rowStride,
            int lambdaStride) {
        int rows = coloring.rowCount();
        rowData = grow(rowData, (long) rowStride * rows);
        lambda = grow(lambda, (long) lambdaStride * rows);
        pairs = grow(pairs, (long) ContactBody.COUNT * rows);
        float[] row = rowData;
        float[] impulse = lambda;
        int[] bodyPairs = pairs;
        float[] prep = prepared;
        int[] slots = coloring.slots();
        int[] contactOf = coloring.order();
        crew(rows).team((member, team) -> {
            int from = share(0, rows, member, team.members());
            int to = share(0, rows, member + 1, team.members());
            float[] scratch = new float[ContactRowField.COUNT];
            float[] work = new float[BodyMath.WORK];
            for (int r = from; r < to; r++) {
                int c = contactOf[r];
                Iterative.prepareRow(contacts.floats(), links.ints(), contacts.stride(), c, r, rowStride, bodyCount,
                        prep, rule, useFriction, warm, contactCount, row, impulse, lambdaStride, scratch, work);
                bodyPairs[ContactBody.COUNT * r + LINK_A] = slots[LINK_A * rows + r] * StateField.STRIDE;
                bodyPairs[ContactBody.COUNT * r + LINK_B] = slots[LINK_B * rows + r] * StateField.STRIDE;
            }
        });
    }

    /**
     * Fewest rows of a colour worth a thread of their own: below this a second thread's share
     * costs more in shared cache lines than it saves: a row is too little work (docs/performance.md,
     * "Where the CPU time goes", has its cost).
     */
    private static final int ROWS_PER_MEMBER = 256;

    /** Visits rows {@code [first, end)} and returns the largest impulse change among them. */
    @FunctionalInterface
    private interface RowSweep {
        float run(int first, int end);
    }

    /**
     * Projected Gauss-Seidel iterations until the largest change of an iteration is at most
     * {@code tolerance}. All threads work as one team: each takes its share of a colour, the team
     * meets at a barrier before the next colour, member 0 sweeps the overflow rows, and every
     * member takes the iteration's largest change from the others' (the maximum of float bits,
     * which does not depend on who found what), so all decide alike whether to go on. Rows of a
     * colour touch different bodies, so how a colour is shared cannot change a bit. A NaN change
     * wins, whatever its sign bit (floatToIntBits makes every NaN the one positive NaN, whose bits
     * exceed any float's), as it does on the device, which takes the maximum of the bits too.
     */
    private IterationOutcome iterate(ParallelRunner crew, ContactColoring coloring, RowSweep colourSweep,
            RowSweep overflowSweep, int iterations, float tolerance) {
        int members = crew.threads();
        // two iterations' slots, so a member may write the next one while another still reads this one
        changes = changes.length >= 2 * members ? changes : new int[2 * members];
        int[] found = changes;
        int[] used = new int[1];
        float[] residual = new float[1];
        ShareBalance balance = balance(crew);
        crew.team((member, team) -> {
            if (balance != null) {
                balance.begin(member);
            }
            for (int iteration = 0; iteration < iterations; iteration++) {
                float change = sweepColours(coloring, colourSweep, overflowSweep, member, team, balance, true);
                int slot = (iteration & 1) * members;
                found[slot + member] = Float.floatToIntBits(change);
                team.await();
                int largest = 0;
                for (int m = 0; m < members; m++) {
                    largest = Math.max(largest, found[slot + m]);
                }
                if (member == 0) {
                    used[0] = iteration + 1;
                    residual[0] = Float.intBitsToFloat(largest);
                }
                if (Float.intBitsToFloat(largest) <= tolerance) {
                    break;
                }
            }
            if (balance != null) {
                balance.keep(member);
            }
        });
        return new IterationOutcome(used[0], residual[0]);
    }

    /**
     * The first row of member {@code member}'s share of rows {@code [first, end)} among
     * {@code members}; the shares are contiguous and in member order, and a colour too small to
     * give each member {@link #ROWS_PER_MEMBER} rows goes to fewer members.
     */
    private static int share(int first, int end, int member, int members) {
        int count = end - first;
        int sharing = Math.max(1, Math.min(members, count / ROWS_PER_MEMBER));
        int part = Math.min(member, sharing);
        return first + (int) ((long) count * part / sharing);
    }

    /**
     * The threads that sweep {@code rows} rows: one for every {@link #TEAM_ROWS_PER_THREAD} rows,
     * at most all of them, at least this one. Results are the same bits on any crew; only the
     * speed differs.
     */
    private ParallelRunner crew(int rows) {
        return runner.crew(rows / TEAM_ROWS_PER_THREAD);
    }

    /** The soft step's rows place a kept manifold's anchors only where they read them ({@code prepareManifolds}). */
    @Override
    public boolean placesKeptAnchors() {
        return true;
    }

    /**
     * A team starts a substep body by body where the host gives each body's rows (a colouring kept
     * from the last step): one meeting rather than one a colour. One thread warms colour by colour,
     * so a backend of one thread does not have the host build the index.
     */
    @Override
    public boolean startsSubstepsByBody() {
        return runner.threads() > 1;
    }

    /** The split of each colour among {@code crew}'s members, kept from solve to solve for each team size; null for one. */
    private ShareBalance balance(ParallelRunner crew) {
        int members = crew.threads();
        if (members < 2) {
            return null;
        }
        if (balances.length <= members) {
            balances = Arrays.copyOf(balances, members + 1);
        }
        if (balances[members] == null) {
            balances[members] = new ShareBalance(members);
        }
        return balances[members];
    }

    /** Contacts per sampled block when deciding {@link #fewCrossing}. */
    private static final int SAMPLE_BLOCK = 1 << 10;
    /** Sampled blocks, spread evenly over the contacts. */
    private static final int SAMPLE_BLOCKS = 64;

    /**
     * Whether so few contacts join bodies of different threads that solving those twice costs less
     * than writing and re-reading every contact's responses: true for scenes whose bodies are
     * ordered in space (piles, grids), false for scattered contact graphs. Decided on a sample of
     * contiguous blocks, as a sweep over every contact is a share of a large solve worth saving;
     * both ways give the same bits, so a wrong guess costs only speed.
     */
    static boolean fewCrossing(FieldBlock links, int contactCount, int bodyCount, int parts) {
        if (contactCount <= SAMPLE_BLOCK * SAMPLE_BLOCKS) {
            return SinglePass.crossingContacts(links.ints(), links.stride(), 0, contactCount, bodyCount, parts) * 10L
                    < contactCount;
        }
        long crossing = 0;
        for (int block = 0; block < SAMPLE_BLOCKS; block++) {
            int first = (int) ((long) (contactCount - SAMPLE_BLOCK) * block / (SAMPLE_BLOCKS - 1));
            crossing += SinglePass.crossingContacts(links.ints(), links.stride(), first, first + SAMPLE_BLOCK,
                    bodyCount, parts);
        }
        return crossing * 10L < (long) SAMPLE_BLOCK * SAMPLE_BLOCKS;
    }

    /** The per-body velocity-change records ({@code StateField}) of all bodies plus the world, all +0. */
    private float[] zeroedState(int bodyCount) {
        state = grow(state, (long) (bodyCount + 1) * StateField.STRIDE);
        float[] records = state;
        runner.forRange(bodyCount + 1, FILL_GRAIN, (from, to) ->
                Arrays.fill(records, from * StateField.STRIDE, to * StateField.STRIDE, 0.0f));
        return records;
    }

    /** Fills the working records of all bodies plus the all-zero world record after them. */
    private void prepareBodies(FieldBlock bodies, int bodyCount) {
        rowsStand = false; // the records are no longer those the soft step's rows were prepared from
        prepareRecords(bodies, bodyCount, false);
    }

    /**
     * {@link #prepareBodies} for the soft step, noting in {@link #massesKept} which records keep
     * the inverse mass and inertia they had, where {@code comparable} (the records are the last
     * soft step's, for as many bodies); else none is kept.
     */
    private void prepareBodiesKeeping(FieldBlock bodies, int bodyCount, boolean comparable) {
        if (massesKept.length < bodyCount + 1) {
            massesKept = new boolean[bodyCount + 1];
        }
        float[] before = prepared;
        prepareRecords(bodies, bodyCount, comparable); // compared only where the rows may stand
        boolean compared = comparable && prepared == before; // else the records were not the last step's
        massesKept[bodyCount] = compared; // the world's record is zeros every step
        if (!compared) {
            Arrays.fill(massesKept, 0, bodyCount, false);
        }
    }

    /** The records of every body and the world's; where {@code noting}, each body's in {@link #massesKept}. */
    private void prepareRecords(FieldBlock bodies, int bodyCount, boolean noting) {
        prepared = grow(prepared, (long) (bodyCount + 1) * PreparedBodyField.STRIDE);
        float[] prep = prepared;
        boolean[] kept = massesKept;
        runner.forRange(bodyCount, GRAIN, (from, to) -> {
            if (!noting) {
                for (int i = from; i < to; i++) {
                    BodyMath.prepareBody(bodies.floats(), bodies.stride(), i, prep);
                }
                return;
            }
            for (int i = from; i < to; i++) {
                int o = i * PreparedBodyField.STRIDE;
                int mass = Float.floatToRawIntBits(prep[o + PREP_INV_MASS]);
                int xx = Float.floatToRawIntBits(prep[o + PREP_IXX]);
                int yy = Float.floatToRawIntBits(prep[o + PREP_IYY]);
                int zz = Float.floatToRawIntBits(prep[o + PREP_IZZ]);
                int xy = Float.floatToRawIntBits(prep[o + PREP_IXY]);
                int xz = Float.floatToRawIntBits(prep[o + PREP_IXZ]);
                int yz = Float.floatToRawIntBits(prep[o + PREP_IYZ]);
                BodyMath.prepareBody(bodies.floats(), bodies.stride(), i, prep);
                kept[i] = mass == Float.floatToRawIntBits(prep[o + PREP_INV_MASS])
                        && xx == Float.floatToRawIntBits(prep[o + PREP_IXX])
                        && yy == Float.floatToRawIntBits(prep[o + PREP_IYY])
                        && zz == Float.floatToRawIntBits(prep[o + PREP_IZZ])
                        && xy == Float.floatToRawIntBits(prep[o + PREP_IXY])
                        && xz == Float.floatToRawIntBits(prep[o + PREP_IXZ])
                        && yz == Float.floatToRawIntBits(prep[o + PREP_IYZ]);
            }
        });
        int world = bodyCount * PreparedBodyField.STRIDE;
        Arrays.fill(prep, world, world + PreparedBodyField.STRIDE, 0.0f);
    }

    /** A row's impulses side by side for {@link ColouredRows#writeImpulses}: its fields, padded to a power of two. */
    private static final int IMPULSE_RECORD = Integer.highestOneBit(2 * ImpulseField.COUNT - 1);

    private float[] impulseRecords(int rows) {
        stagedImpulses = grow(stagedImpulses, 2L * IMPULSE_RECORD * rows);
        return stagedImpulses;
    }

    private static int[] grow(int[] array, long length) {
        if (length > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("working array of " + length + " ints is too large; split the batch");
        }
        return array.length >= length ? array : new int[(int) length];
    }

    private static float[] grow(float[] array, long length) {
        if (length > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("working array of " + length + " floats is too large; split the batch");
        }
        return array.length >= length ? array : new float[(int) length];
    }

    @Override
    public void close() {
        prepared = new float[PreparedBodyField.STRIDE];
        responses = new float[0];
        sums = new float[0];
        rowData = new float[0];
        lambda = new float[0];
        state = new float[0];
        pairs = new int[0];
        manifoldRows = new float[0];
        pointRows = new float[0];
        rowsStand = false;
        massesKept = new boolean[0];
        manifoldImpulses = new float[0];
        movers = new int[0];
        peaks = new float[0];
        warmRecords = new float[0];
        bouncingRows = new boolean[0];
        motion = new float[0];
        stagedImpulses = new float[0];
        changes = new int[0];
    }
}
