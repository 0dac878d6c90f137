package io.contactsolver.demo;

import io.contactsolver.BodyBatch;
import io.contactsolver.ColouringOrder;
import io.contactsolver.ContactBatch;
import io.contactsolver.ContactIds;
import io.contactsolver.ContactSolver;
import io.contactsolver.IterativeSettings;
import io.contactsolver.SoftStepSettings;
import io.contactsolver.SolveResult;
import io.contactsolver.SolveSettings;
import io.contactsolver.app.Scheme;
import io.contactsolver.app.TwoSolves;
import io.contactsolver.layout.BodyField;
import io.contactsolver.layout.ContactField;
import io.contactsolver.scene.Batches;
import io.contactsolver.layout.DeltaField;
import java.nio.FloatBuffer;

/**
 * The step loop of a particle simulation that hands its contacts to the module, in one of two
 * {@link Scheme}s: the soft step, where the module's {@code step} applies gravity, solves and moves
 * the spheres (the default), or two solves ({@link TwoSolves}), where the simulation integrates
 * itself with a second, frictionless push-out solve per step whose result moves positions only: how
 * a simulation with its own integrator plugs {@link ContactSolver} in (docs/demo.md, "Schemes", says
 * when to use which).
 *
 * <p>One {@link #step} of the two-solve scheme is (the soft step finds its contacts the same way, from
 * the state at the start of the step, and leaves gravity, the solve and the integration to the
 * module):
 * <ol>
 *   <li>pour: with an {@link Inlet}, the next spheres enter the world and get a body each;</li>
 *   <li>gravity: {@code v += g dt}, first, so the solver sees the velocity the step would end with
 *       and a resting sphere's contacts cancel exactly that;</li>
 *   <li>contacts: the {@link UniformGrid} offers sphere pairs that are near, each sphere is tested
 *       against the six {@link Wall}s, and a contact enters the batch if its surfaces touch or could
 *       touch within the step; each gets its signed gap (separation) and an id that
 *       {@link ContactIds} keeps stable while the contact persists (keyed by {@link ContactKeys});</li>
 *   <li>the two solves ({@link TwoSolves#solve}): the velocity solve, the module's iterative solver
 *       warm started from the previous step's result (matched by contact id), with restitution,
 *       friction and rolling resistance, and speculative contacts; then the push solve (split
 *       impulse) on the bodies at rest and without friction, which pushes overlap beyond the slop
 *       out at the bias factor per step;</li>
 *   <li>integrate: {@code v += dv}, {@code w += dw}, then {@code x += (v + push) dt} (semi-implicit
 *       Euler); the push moves the spheres but is not kept in their velocity. A sphere's inertia is
 *       the same about every axis, so its orientation never enters the physics and is not tracked.</li>
 * </ol>
 *
 * <p>Convention (docs/physics.md, "Sign convention"): a contact's normal points from body a to body
 * b; for a sphere pair a is the lower particle index, for a wall a is the world (body index -1) and
 * the normal points into the box. The separation is the distance between the surfaces along the
 * normal, negative when they overlap.
 *
 * <p>Spheres are solid: inverse inertia {@code 5 / (2 m r^2)} about every axis. A normal impulse
 * acts through the centre; friction and rolling resistance are what spin a sphere. All arithmetic
 * here is float in one thread in a fixed order, and the module's results are bit-identical on the
 * CPU and OpenCL, so a seed gives one trajectory on every backend.
 */
public final class Simulation {
    /** Gravity along -y, m/s^2. */
    static final float GRAVITY = 9.81f;
    /** Gravity as the module takes it. */
    private static final org.joml.Vector3fc GRAVITY_DOWN = new org.joml.Vector3f(0.0f, -GRAVITY, 0.0f);
    /**
     * Contacts approaching slower than the speed gravity adds in this many steps do not bounce:
     * that is a sphere resting on another, not a collision, and a bounce there would make a pile
     * jitter for ever.
     */
    static final float RESTING_STEPS = 4.0f;
    /** Overlap left alone, in largest radii, so a resting pile is not pushed apart and together. */
    static final float SLOP_PER_RADIUS = 0.005f;
    /** The smallest speculative margin, in largest radii: catches slow approaches and resting neighbours. */
    static final float MIN_MARGIN_PER_RADIUS = 0.05f;
    /** The largest speculative margin, in largest radii: bounds the grid's cell size and the contact count. */
    static final float MAX_MARGIN_PER_RADIUS = 1.0f;
    private static final Wall[] WALLS = Wall.values();

    /**
     * How the simulation steps. Immutable; {@link #of} gives the demo's settings and each
     * {@code with} method changes the settings it names, and no other.
     *
     * <ul>
     *   <li>{@code timeStep}: dt, s</li>
     *   <li>{@code restitution}: coefficient of restitution of every contact, in [0, 1]</li>
     *   <li>{@code iterations}: the most solver iterations per step</li>
     *   <li>{@code tolerance}: the solver stops early once no impulse changes by more than this in an
     *       iteration, N s (default 0)</li>
     *   <li>{@code warmStart}: whether each solve starts from the previous step's impulses (default on;
     *       off only to show what it buys)</li>
     *   <li>{@code positionalCorrection}: whether gaps may not close into overlap and overlap is pushed
     *       out (default on; off only to show that penetration then builds up)</li>
     *   <li>{@code friction}: Coulomb friction coefficient of every contact, {@code >= 0} (0:
     *       frictionless)</li>
     *   <li>{@code rollingResistance}: rolling resistance of every contact, m, {@code >= 0} (0: none)</li>
     *   <li>{@code torsion}: torsional resistance of every contact, m, {@code >= 0} (0: none): the
     *       patch radius that resists spin about the contact normal</li>
     *   <li>{@code scheme}, {@code substeps}, {@code contactHertz}, {@code colouringOrder}: how a step
     *       is taken, and the soft step's substeps, contact stiffness and colouring order</li>
     * </ul>
     */
    public static final class Settings {
        private final float timeStep;
        private final float restitution;
        private final int iterations;
        private final float tolerance;
        private final boolean warmStart;
        private final boolean positionalCorrection;
        private final float friction;
        private final float rollingResistance;
        private final float torsion;
        private final Scheme scheme;
        private final int substeps;
        private final float contactHertz;
        private final ColouringOrder colouringOrder;

        /** The settings being made by a {@code with} method, changed by name before they are made. */
        private static final class Draft {
            float timeStep;
            float restitution;
            int iterations;
            float tolerance;
            boolean warmStart = true;
            boolean positionalCorrection = true;
            float friction;
            float rollingResistance;
            float torsion;
            Scheme scheme = Scheme.DEFAULT;
            int substeps = SoftStepSettings.DEFAULT_SUBSTEPS;
            float contactHertz = SoftStepSettings.DEFAULT_CONTACT_HERTZ;
            ColouringOrder colouringOrder = ColouringOrder.CONTACT;
        }

        private Settings(Draft d) {
            timeStep = d.timeStep;
            restitution = d.restitution;
            iterations = d.iterations;
            tolerance = d.tolerance;
            warmStart = d.warmStart;
            positionalCorrection = d.positionalCorrection;
            friction = d.friction;
            rollingResistance = d.rollingResistance;
            torsion = d.torsion;
            scheme = d.scheme;
            substeps = d.substeps;
            contactHertz = d.contactHertz;
            colouringOrder = d.colouringOrder;
        }

        private Settings with(java.util.function.Consumer<Draft> change) {
            Draft d = new Draft();
            d.timeStep = timeStep;
            d.restitution = restitution;
            d.iterations = iterations;
            d.tolerance = tolerance;
            d.warmStart = warmStart;
            d.positionalCorrection = positionalCorrection;
            d.friction = friction;
            d.rollingResistance = rollingResistance;
            d.torsion = torsion;
            d.scheme = scheme;
            d.substeps = substeps;
            d.contactHertz = contactHertz;
            d.colouringOrder = colouringOrder;
            change.accept(d);
            return new Settings(d);
        }

        /**
         * The demo's settings, frictionless, on {@link Scheme#DEFAULT}, with the soft step's default
         * substeps and stiffness, and for the two-solve scheme a fixed iteration count, warm
         * starting and positional correction on.
         */
        public static Settings of(float timeStep, float restitution, int iterations) {
            Draft d = new Draft();
            d.timeStep = timeStep;
            d.restitution = restitution;
            d.iterations = iterations;
            return new Settings(d);
        }

        /** These settings with friction coefficient {@code mu} and rolling resistance {@code rho} (m). */
        public Settings withFriction(float mu, float rho) {
            return with(d -> {
                d.friction = mu;
                d.rollingResistance = rho;
            });
        }

        /** These settings with torsional resistance {@code tau} (m) at every contact. */
        public Settings withTorsion(float tau) {
            return with(d -> d.torsion = tau);
        }

        /**
         * These settings on the soft step with {@code count} substeps, one soft and one relax sweep
         * each, and contacts as springs of {@code hertz}.
         */
        public Settings withSoftStep(int count, float hertz) {
            return with(d -> {
                d.scheme = Scheme.SOFT_STEP;
                d.substeps = count;
                d.contactHertz = hertz;
            });
        }

        /** These settings with the soft step's manifolds coloured in {@code order}. */
        public Settings withColouringOrder(ColouringOrder order) {
            return with(d -> d.colouringOrder = order);
        }

        /** These settings on {@code newScheme}, every other setting as it was. */
        public Settings withScheme(Scheme newScheme) {
            return with(d -> d.scheme = newScheme);
        }

        /** These settings with the solver stopping early once no impulse changes by more than {@code newTolerance}, N s. */
        public Settings withTolerance(float newTolerance) {
            return with(d -> d.tolerance = newTolerance);
        }

        /** These settings with warm starting on or off. */
        public Settings withWarmStart(boolean on) {
            return with(d -> d.warmStart = on);
        }

        /** These settings with positional correction (speculative gaps and the push-out solve) on or off. */
        public Settings withPositionalCorrection(boolean on) {
            return with(d -> d.positionalCorrection = on);
        }

        public float timeStep() {
            return timeStep;
        }

        public float restitution() {
            return restitution;
        }

        public int iterations() {
            return iterations;
        }

        public float tolerance() {
            return tolerance;
        }

        public boolean warmStart() {
            return warmStart;
        }

        public boolean positionalCorrection() {
            return positionalCorrection;
        }

        public float friction() {
            return friction;
        }

        public float rollingResistance() {
            return rollingResistance;
        }

        public float torsion() {
            return torsion;
        }

        public Scheme scheme() {
            return scheme;
        }

        public int substeps() {
            return substeps;
        }

        public float contactHertz() {
            return contactHertz;
        }

        public ColouringOrder colouringOrder() {
            return colouringOrder;
        }

        boolean hasFriction() {
            return friction != 0.0f || rollingResistance != 0.0f || torsion != 0.0f;
        }
    }

    private final ParticleWorld world;
    /** Null when every sphere is in the world from the start. */
    private final Inlet inlet;
    private final Settings settings;
    private final SoftStepSettings softSettings;
    private final org.joml.Vector3fc gravity = GRAVITY_DOWN;
    /** The two-solve scheme's solves, with a push-out solve when positional correction is on. */
    private final TwoSolves twoSolves;
    private final float minMargin;
    private final float maxMargin;
    private final BodyBatch bodies;
    private final ContactBatch contacts;
    private final UniformGrid grid = new UniformGrid();
    private final ContactIds contactIds = new ContactIds();
    /** Two results, alternated: the previous step's is the warm start of the current one (none at first). */
    private SolveResult previous;
    private SolveResult current = new SolveResult();
    /** The deepest overlap among this step's contacts, found while adding them. */
    private float deepestOverlap;
    private int stepCount;
    /**
     * Whether the next step has been taken up to its solve ({@link #nextSolveInput}): then
     * {@link #step} goes on from there instead of starting it again.
     */
    private boolean solveReady;

    public Simulation(ParticleWorld world, Settings settings) {
        this(world, null, settings);
    }

    /** A simulation whose spheres are poured in by {@code inlet} (null: all in from the start). */
    Simulation(ParticleWorld world, Inlet inlet, Settings settings) {
        this.world = world;
        this.inlet = inlet;
        this.settings = settings;
        float largest = world.largestRadius();
        float slop = SLOP_PER_RADIUS * largest;
        IterativeSettings velocity = SolveSettings.iterative(settings.iterations()).withTolerance(settings.tolerance())
                .withRestitutionThreshold(RESTING_STEPS * GRAVITY * settings.timeStep());
        this.softSettings = softSettings(settings);
        this.twoSolves = settings.positionalCorrection()
                ? TwoSolves.withPushOut(velocity, slop) : TwoSolves.withoutPushOut(velocity);
        this.minMargin = MIN_MARGIN_PER_RADIUS * largest;
        this.maxMargin = MAX_MARGIN_PER_RADIUS * largest;
        this.bodies = new BodyBatch(world.capacity());
        addBodies();
        // about six neighbours and a wall or two per sphere in a settled pile
        this.contacts = new ContactBatch(world.capacity() * 4);
    }

    /**
     * The module's settings of the soft step scheme; the demo reads the bodies and the step's
     * figures, never a delta or an impulse, so it asks for neither.
     */
    private static SoftStepSettings softSettings(Settings settings) {
        return SolveSettings.softStep().withSubsteps(settings.substeps()).withContactHertz(settings.contactHertz())
                .withRestitutionThreshold(RESTING_STEPS * GRAVITY * settings.timeStep()).withDeltas(false)
                .withImpulses(false).withColouringOrder(settings.colouringOrder());
    }

    /**
     * Refuses, before any world is made, a time step the module could not take in float with these
     * settings ({@link SolveSettings#checkStep} under the demo's gravity: the soft step's substep and
     * coefficients, or for the two solves, whose positional correction divides by it, the step itself).
     *
     * @throws IllegalArgumentException naming the time step and the quantity float cannot carry
     */
    public static void checkTimeStep(Settings settings) {
        SolveSettings module = settings.scheme() == Scheme.SOFT_STEP ? softSettings(settings)
                : SolveSettings.iterative(settings.iterations());
        module.checkStep(settings.timeStep(), GRAVITY_DOWN);
    }

    public ParticleWorld world() {
        return world;
    }

    /** Whether every sphere is in the world (always, without an inlet). */
    public boolean allPoured() {
        return world.count == world.capacity();
    }

    /** The contacts of the last step, as handed to the solver. */
    ContactBatch contacts() {
        return contacts;
    }

    /** The module's result of the last step's velocity solve. */
    SolveResult lastResult() {
        return previous;
    }

    /** Advances the world by one time step; {@code solver} may change between steps. */
    public StepFigures step(ContactSolver solver) {
        float dt = settings.timeStep();
        if (!solveReady) {
            prepareSolve(dt);
        }
        solveReady = false;
        return settings.scheme() == Scheme.SOFT_STEP ? softStep(solver, dt) : twoSolves(solver, dt);
    }

    /**
     * The next step up to its solve: the inlet's spheres in, then for the two-solve scheme gravity
     * on the velocities, the contacts found and the bodies filled from the spheres' state. (The
     * soft step finds its contacts from the state at the start of the step, with a speculative
     * margin that covers what gravity adds within it; the module applies gravity.)
     */
    private void prepareSolve(float dt) {
        if (inlet != null) {
            inlet.pour(world);
            addBodies();
        }
        if (settings.scheme() != Scheme.SOFT_STEP) {
            applyGravity(dt);
        }
        findContacts(dt);
        copyStateToBodies();
    }

    /**
     * Takes the next step up to its solve and returns a copy of the bodies and contacts that solve
     * will be given (the velocity solve, or the soft step's): the scene a simulation spends its
     * solver time on, for benchmarks. A body's id is its index. The next {@link #step} goes on
     * from there, so the run is the same with or without this call; calling it again before that
     * step returns the same input again.
     */
    public io.contactsolver.scene.Scene nextSolveInput() {
        if (!solveReady) {
            prepareSolve(settings.timeStep());
            solveReady = true;
        }
        int[] ids = java.util.stream.IntStream.range(0, bodies.size()).toArray();
        return new io.contactsolver.scene.Scene(Batches.copyOf(bodies), ids, Batches.copyOf(contacts));
    }

    /**
     * The two-solve scheme's step once its contacts are found: both solves, which leave the bodies'
     * velocities at {@code v + dv}, then the spheres take them and move.
     */
    private StepFigures twoSolves(ContactSolver solver, float dt) {
        twoSolves.solve(solver, bodies, contacts, dt, settings.warmStart() ? previous : null, current);
        copyBodiesToState();
        float largestApproach = largestApproach(dt);
        moveParticles(dt);
        SolveResult solved = current;
        current = previous != null ? previous : new SolveResult();
        previous = solved;
        stepCount++;
        SolveResult push = twoSolves.push();
        return figures(dt, twoSolves.solveNanos(), solved, largestApproach)
                .pushIterations(push != null ? push.iterations() : 0).build();
    }

    /** The figures every scheme reports of the step just taken; the push-out solve's iterations are the caller's. */
    private StepFigures.Builder figures(float dt, long solveNanos, SolveResult solved, float largestApproach) {
        return StepFigures.of(stepCount).time(stepCount * dt).particles(world.count).contacts(contacts.size())
                .kineticEnergy(world.kineticEnergy()).solveNanos(solveNanos).iterations(solved.iterations())
                .residual(solved.residual()).largestApproach(largestApproach).deepestOverlap(deepestOverlap)
                .maxSpeed(world.maxSpeed());
    }

    /**
     * The soft-step scheme once its contacts are found from the state at the start of the step:
     * the module steps the bodies, the spheres take their new state back.
     */
    private StepFigures softStep(ContactSolver solver, float dt) {
        long start = System.nanoTime();
        solver.step(bodies, contacts, softSettings, gravity, dt, settings.warmStart() ? previous : null, current);
        long solveNanos = System.nanoTime() - start;
        copyBodiesToState();
        float largestApproach = largestApproach(dt);
        SolveResult solved = current;
        current = previous != null ? previous : new SolveResult();
        previous = solved;
        stepCount++;
        return figures(dt, solveNanos, solved, largestApproach).build();
    }

    private void copyBodiesToState() {
        FloatBuffer data = bodies.data();
        int stride = bodies.capacity();
        for (int i = 0; i < world.count; i++) {
            world.x[i] = data.get(BodyField.X.ordinal() * stride + i);
            world.y[i] = data.get(BodyField.Y.ordinal() * stride + i);
            world.z[i] = data.get(BodyField.Z.ordinal() * stride + i);
            world.vx[i] = data.get(BodyField.VX.ordinal() * stride + i);
            world.vy[i] = data.get(BodyField.VY.ordinal() * stride + i);
            world.vz[i] = data.get(BodyField.VZ.ordinal() * stride + i);
            world.wx[i] = data.get(BodyField.WX.ordinal() * stride + i);
            world.wy[i] = data.get(BodyField.WY.ordinal() * stride + i);
            world.wz[i] = data.get(BodyField.WZ.ordinal() * stride + i);
        }
    }

    /** Gives each sphere that entered the world since the last call its body: a solid sphere. */
    private void addBodies() {
        while (bodies.size() < world.count) {
            int i = bodies.add();
            float inverseInertia = world.inverseInertia(i);
            bodies.setMass(i, world.mass[i]).setInverseInertia(i, inverseInertia, inverseInertia, inverseInertia,
                    0.0f, 0.0f, 0.0f);
        }
    }

    private void applyGravity(float dt) {
        float dv = GRAVITY * dt;
        for (int i = 0; i < world.count; i++) {
            world.vy[i] -= dv;
        }
    }

    /**
     * How far apart two surfaces may be for the grid to offer the pair: far enough for any pair
     * that {@link #mayTouchWithinStep} could accept, as no pair closes faster than twice the fastest
     * sphere.
     */
    private float candidateMargin(float dt) {
        return Math.min(maxMargin, minMargin + 2.0f * world.maxSpeed() * dt);
    }

    /**
     * Whether a contact enters the solve: when its surfaces touch, or could touch within this step
     * at the speed they close at now (a speculative contact, which the solver lets close its gap but
     * not overlap). Without it, fast spheres would meet unseen between steps and overlap deeply;
     * with a fixed large margin instead, every near neighbour would cost the solver a row.
     */
    private boolean mayTouchWithinStep(float separation, float closingSpeed, float dt) {
        return separation < minMargin + Math.max(0.0f, closingSpeed) * dt;
    }

    /** Fills the contact batch for this step. */
    private void findContacts(float dt) {
        contacts.clear();
        contactIds.beginStep();
        deepestOverlap = 0.0f;
        grid.findPairs(world, candidateMargin(dt));
        for (int p = 0; p < grid.pairCount(); p++) {
            addPairContact(grid.pairA(p), grid.pairB(p), dt);
        }
        for (int i = 0; i < world.count; i++) {
            for (Wall wall : WALLS) {
                addWallContact(i, wall, dt);
            }
        }
        contactIds.endStep();
    }

    /** Adds the contact of spheres {@code a < b} if they may touch within the step. */
    private void addPairContact(int a, int b, float dt) {
        float dx = world.x[b] - world.x[a];
        float dy = world.y[b] - world.y[a];
        float dz = world.z[b] - world.z[a];
        float distance = (float) Math.sqrt(dx * dx + dy * dy + dz * dz);
        float nx = 0.0f;
        float ny = 1.0f;
        float nz = 0.0f;
        if (distance > 0.0f) { // coincident centres have no direction: push straight up
            nx = dx / distance;
            ny = dy / distance;
            nz = dz / distance;
        }
        float separation = distance - world.radius[a] - world.radius[b];
        float closing = (world.vx[a] - world.vx[b]) * nx + (world.vy[a] - world.vy[b]) * ny
                + (world.vz[a] - world.vz[b]) * nz;
        if (!mayTouchWithinStep(separation, closing, dt)) {
            return;
        }
        // the point halfway across the gap (or the overlap); particles do not need it, rigid bodies would
        float toPoint = world.radius[a] + 0.5f * separation;
        int c = contacts.add(a, b, world.x[a] + nx * toPoint, world.y[a] + ny * toPoint, world.z[a] + nz * toPoint,
                nx, ny, nz, settings.restitution());
        contacts.setSeparation(c, separation);
        setFriction(c);
        contacts.setId(c, contactIds.idOf(ContactKeys.pairKey(a, b)));
        deepestOverlap = Math.max(deepestOverlap, -separation);
    }

    /** Adds the contact of sphere {@code i} with {@code wall} if they may touch within the step. */
    private void addWallContact(int i, Wall wall, float dt) {
        int axis = wall.axis;
        float gap = wall.gap(world.centre(axis, i), world.radius[i], world.size(axis));
        float closing = -wall.normal(axis) * (axis == 0 ? world.vx[i] : axis == 1 ? world.vy[i] : world.vz[i]);
        if (!mayTouchWithinStep(gap, closing, dt)) {
            return;
        }
        // the point on the wall beneath the sphere's centre
        float px = axis == 0 ? wall.position(world.width) : world.x[i];
        float py = axis == 1 ? wall.position(world.height) : world.y[i];
        float pz = axis == 2 ? wall.position(world.depth) : world.z[i];
        int c = contacts.add(ContactBatch.WORLD, i, px, py, pz, wall.normal(0), wall.normal(1), wall.normal(2),
                settings.restitution());
        contacts.setSeparation(c, gap);
        setFriction(c);
        contacts.setId(c, contactIds.idOf(ContactKeys.wallKey(i, wall)));
        deepestOverlap = Math.max(deepestOverlap, -gap);
    }

    /** Every contact gets the same friction, rolling and torsional resistance; a new contact has none. */
    private void setFriction(int c) {
        if (settings.hasFriction()) {
            contacts.setFriction(c, settings.friction());
            contacts.setRollingResistance(c, settings.rollingResistance());
            contacts.setTorsion(c, settings.torsion());
        }
    }

    private void copyStateToBodies() {
        for (int i = 0; i < world.count; i++) {
            bodies.setPosition(i, world.x[i], world.y[i], world.z[i]);
            bodies.setLinearVelocity(i, world.vx[i], world.vy[i], world.vz[i]);
            bodies.setAngularVelocity(i, world.wx[i], world.wy[i], world.wz[i]);
        }
    }

    /**
     * After the solve: the fastest any contact still closes beyond what its gap allows within the
     * step ({@code -v_n} for touching contacts, {@code -v_n - gap / dt} for speculative ones), or 0.
     * Computed from the velocities the solver's deltas gave, not from its residual, so it shows
     * what the solver actually achieved. Spin does not enter: on a sphere {@code w x r} is
     * perpendicular to the normal.
     */
    private float largestApproach(float dt) {
        float largest = 0.0f;
        for (int c = 0; c < contacts.size(); c++) {
            int a = contacts.bodyA(c);
            int b = contacts.bodyB(c);
            float rvx = world.vx[b] - (a == ContactBatch.WORLD ? 0.0f : world.vx[a]);
            float rvy = world.vy[b] - (a == ContactBatch.WORLD ? 0.0f : world.vy[a]);
            float rvz = world.vz[b] - (a == ContactBatch.WORLD ? 0.0f : world.vz[a]);
            float vn = rvx * contacts.get(ContactField.NX, c) + rvy * contacts.get(ContactField.NY, c)
                    + rvz * contacts.get(ContactField.NZ, c);
            float allowed = Math.max(0.0f, contacts.separation(c)) / dt;
            largest = Math.max(largest, -vn - allowed);
        }
        return largest;
    }

    /**
     * Moves every particle by its velocity and, with positional correction, the push (its linear
     * part: the push solve is frictionless, so it turns no sphere).
     */
    private void moveParticles(float dt) {
        SolveResult push = twoSolves.push();
        FloatBuffer pushes = push != null ? push.deltas() : null;
        int stride = push != null ? push.deltaStride() : 0;
        for (int i = 0; i < world.count; i++) {
            float pushX = pushes == null ? 0.0f : pushes.get(DeltaField.DVX.ordinal() * stride + i);
            float pushY = pushes == null ? 0.0f : pushes.get(DeltaField.DVY.ordinal() * stride + i);
            float pushZ = pushes == null ? 0.0f : pushes.get(DeltaField.DVZ.ordinal() * stride + i);
            world.x[i] += (world.vx[i] + pushX) * dt;
            world.y[i] += (world.vy[i] + pushY) * dt;
            world.z[i] += (world.vz[i] + pushZ) * dt;
        }
    }
}
