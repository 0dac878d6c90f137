package io.contactsolver.core;

/**
 * The order of a soft step's stages (docs/physics.md, "Soft step"), written once: every backend
 * runs a step by {@link #run}, implementing the stages in {@link Stages} and {@link Sweeps}, so the
 * CPU and a device cannot take them in different orders (as Box2D v3 names its solver's stages
 * once and has each worker follow the list).
 *
 * <ol>
 *   <li>once a step: the bodies' working records, every manifold row (from the bodies and contacts
 *       as the step starts), every body's motion record reset;</li>
 *   <li>each substep: gravity, the warm start, {@code iterations} soft sweeps, the
 *       bodies' motion integrated, {@code relaxIterations} relax sweeps; the substep's last sweep
 *       works out each row's warm start for the next substep (the first substep's comes with the
 *       rows);</li>
 *   <li>after the last substep: restitution, then every body's state at the end of the step and
 *       every manifold's results.</li>
 * </ol>
 *
 * <p>The sweeps of a step (item 2 and restitution) run through {@link Stages#sweeps}: a device
 * enqueues them once, while the CPU hands the same loop to every member of its team, each member
 * taking its share of every stage and meeting the others at the barriers its {@link Sweeps} keep.
 * Either way the stages come in the order {@link #substeps} calls them.
 */
public final class SoftStepSchedule {
    private SoftStepSchedule() {
    }

    /** What a backend does once a step, around its sweeps; {@link #run} calls them in order. */
    public interface Stages {
        /** Every body's working record (inverse mass and inertia in world space), and the world's. */
        void prepareBodies();

        /** Every manifold row: its points, anchors, normal and coefficients, and its warm start. */
        void prepareManifolds();

        /** Every body's motion record (how far it has moved and turned within the step) zeroed. */
        void resetMotions();

        /**
         * Runs {@code loop} with this backend's sweeps: once, or on every member of a team, each
         * with sweeps of its own that share the work among the members.
         */
        void sweeps(SweepLoop loop);

        /** Every body's state at the end of the step and its velocity change from the contacts. */
        void finishBodies();

        /** Every solved point's normal impulse and every manifold's vectors, for the host to report. */
        void writeResults();
    }

    /** The loop of a step's sweeps, run by {@link Stages#sweeps} on a backend's {@link Sweeps}. */
    @FunctionalInterface
    public interface SweepLoop {
        /** Runs every substep and the restitution pass on {@code sweeps}. */
        void run(Sweeps sweeps);
    }

    /** What a backend does within the substeps; {@link #substeps} calls them in order. */
    public interface Sweeps {
        /**
         * A substep's start: gravity on every movable body with mass, then every manifold's
         * accumulated impulses applied again from its warm-start record, colour by colour, or body by
         * body with each body's rows in row order ({@link SoftStepJob#bodyRows}), which gives
         * every body the same operations in the same order, so the same bits, in one pass.
         */
        void startSubstep();

        /**
         * One soft sweep (overlap pushed out by the soft contact).
         *
         * @param record whether this is the step's last sweep: its largest change is the residual
         * @param warmNext whether this is the substep's last sweep and another substep follows: it
         *     works out each row's warm start for that substep ({@code WarmStartField})
         */
        void solve(boolean record, boolean warmNext);

        /** Every body moved by its velocity over one substep, its motion record updated. */
        void integrate();

        /**
         * One relax sweep (the push-out taken out of the velocities).
         *
         * @param record whether this is the step's last sweep: its largest change is the residual
         * @param warmNext whether this is the substep's last sweep and another substep follows: it
         *     works out each row's warm start for that substep ({@code WarmStartField})
         */
        void relax(boolean record, boolean warmNext);

        /** Restitution, once after the last substep; its largest change joins the residual. */
        void restitution();
    }

    /**
     * One soft step of {@code job} on {@code stages}, in the order of the class comment.
     *
     * @return the sweeps the step did; the residual is the backend's
     */
    public static int run(SoftStepJob job, Stages stages) {
        stages.prepareBodies();
        stages.prepareManifolds();
        stages.resetMotions();
        stages.sweeps(sweeps -> substeps(job, sweeps));
        stages.finishBodies();
        stages.writeResults();
        return sweepCount(job);
    }

    /**
     * Every substep of {@code job}, then restitution, on {@code sweeps}: what each team member runs
     * on the CPU, and what a device enqueues.
     */
    public static void substeps(SoftStepJob job, Sweeps sweeps) {
        int substeps = job.coefficients().substeps();
        int iterations = job.iterations();
        int relaxIterations = job.relaxIterations();
        for (int substep = 0; substep < substeps; substep++) {
            boolean lastSubstep = substep == substeps - 1;
            sweeps.startSubstep();
            for (int iteration = 0; iteration < iterations; iteration++) {
                boolean last = iteration + 1 == iterations && relaxIterations == 0;
                sweeps.solve(lastSubstep && last, !lastSubstep && last);
            }
            sweeps.integrate();
            for (int iteration = 0; iteration < relaxIterations; iteration++) {
                boolean last = iteration + 1 == relaxIterations;
                sweeps.relax(lastSubstep && last, !lastSubstep && last);
            }
        }
        sweeps.restitution();
    }

    /** The sweeps of a step: substeps x (soft + relax), as {@code SolveResult.iterations} reports them. */
    public static int sweepCount(SoftStepJob job) {
        return job.coefficients().substeps() * (job.iterations() + job.relaxIterations());
    }
}
