package io.contactsolver;

import io.contactsolver.layout.BodyField;
import static io.contactsolver.FrictionSinglePassTest.assertVector;
import static io.contactsolver.FrictionSinglePassTest.at;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.contactsolver.scene.Scene;
import io.contactsolver.testing.Backends;
import io.contactsolver.testing.Engine;
import io.contactsolver.testing.Engine.Solved;
import io.contactsolver.testing.FrictionScenes;
import io.contactsolver.testing.ReferenceFriction.Body;
import io.contactsolver.testing.ReferenceFriction.Outcome;
import io.contactsolver.testing.ReferenceFriction;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.joml.Matrix3d;
import org.joml.Quaternionf;
import org.joml.Vector3d;
import org.joml.Vector3f;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What any frictional result must satisfy, on random scenes and on both backends: every impulse in
 * its cone (Coulomb's {@code |t| <= mu j}, rolling {@code |r| <= rho j}, both in the tangent plane,
 * and the twist about the normal {@code |lambda_tw| <= tau j}), momentum conserved between dynamic
 * bodies, and, in the single pass, no contact adding kinetic energy, including the scenes where only
 * the dissipation guard prevents it.
 */
class FrictionInvariantsTest {

    static Stream<Arguments> backendsAndSolvers() {
        return Stream.of(Backend.CPU, Backend.OPENCL).flatMap(backend -> Stream.of(
                Arguments.of(backend, SolveSettings.singlePass()), Arguments.of(backend, SolveSettings.iterative(30))));
    }

    @ParameterizedTest(name = "{0}, {1}")
    @MethodSource("backendsAndSolvers")
    void everyImpulseStaysInsideItsCone(Backend backend, RigidSettings settings) {
        Scene scene = FrictionScenes.randomClusters(11, 600, true, true, true);
        try (ContactSolver solver = Backends.open(backend)) {
            SolveResult result = solver.solve(scene.bodies(), scene.contacts(), settings, new SolveResult());
            assertInsideCones(scene, result, settings);
            if (settings instanceof IterativeSettings iterative) {
                // warm-started after every normal turned a little: the carried vectors are projected
                // onto the new tangent plane and clamped into the new disk
                turnNormals(scene.contacts(), new SplittableRandom(4), 0.2);
                SolveResult warm = solver.solve(scene.bodies(), scene.contacts(), iterative.withIterations(2), result,
                        new SolveResult());
                assertInsideCones(scene, warm, settings);
            }
        }
    }

    /**
     * Float32 bounds: the disk projection leaves {@code |lambda_t|} within a few ulps of
     * {@code mu lambda_n}, and forming the world vector (or {@code P - j n} in the single pass)
     * costs a few ulps of {@code |P|}: 1e-5 relative plus 1e-6 of {@code j}.
     */
    static void assertInsideCones(Scene scene, SolveResult result, RigidSettings settings) {
        ContactBatch contacts = scene.contacts();
        int sliding = 0;
        int rollingAtLimit = 0;
        for (int c = 0; c < contacts.size(); c++) {
            String where = "contact " + c + " (" + settings + ")";
            float mu = contacts.friction(c);
            float rho = contacts.rollingResistance(c);
            Vector3d n = new Vector3d(contacts.getNormal(c, new Vector3f()));
            double j = result.impulse(c);
            Vector3d t = new Vector3d(result.getTangentImpulse(c, new Vector3f()));
            Vector3d r = new Vector3d(result.getRollingImpulse(c, new Vector3f()));
            assertTrue(j >= 0.0, where + ": j = " + j);
            assertTrue(t.length() <= mu * j * (1 + 1e-5) + 1e-6 * j, where + ": |t| = " + t.length() + " > mu j = " + mu * j);
            assertTrue(Math.abs(t.dot(n)) <= 1e-5 * t.length() + 1e-6 * j, where + ": t not in the tangent plane " + t);
            assertTrue(r.length() <= rho * j * (1 + 1e-5) + 1e-6 * rho * j, where + ": |r| = " + r.length() + " > rho j");
            assertTrue(Math.abs(r.dot(n)) <= 1e-5 * r.length() + 1e-9, where + ": r not along the tangents " + r);
            if (mu == 0.0f) {
                assertEquals(0.0, t.length(), where + ": frictionless contact with a tangential impulse");
            }
            if (rho == 0.0f || settings.kind() == SolverKind.SINGLE_PASS) {
                assertEquals(0.0, r.length(), where + ": rolling impulse without rolling resistance or in the single pass");
            }
            sliding += t.length() >= mu * j * (1 - 1e-5) && j > 0 && mu > 0 ? 1 : 0;
            rollingAtLimit += r.length() >= rho * j * (1 - 1e-5) && j > 0 && rho > 0 ? 1 : 0;
        }
        // the scene must reach the cone's edge, else the bound was never tested
        assertTrue(sliding > contacts.size() / 20, "contacts at the friction limit: " + sliding);
        if (settings.kind() == SolverKind.ITERATIVE) {
            assertTrue(rollingAtLimit > contacts.size() / 20, "contacts at the rolling limit: " + rollingAtLimit);
        }
    }

    static void turnNormals(ContactBatch contacts, SplittableRandom random, double amount) {
        Vector3f n = new Vector3f();
        for (int c = 0; c < contacts.size(); c++) {
            contacts.getNormal(c, n).add((float) (random.nextDouble(-amount, amount)),
                    (float) (random.nextDouble(-amount, amount)), (float) (random.nextDouble(-amount, amount))).normalize();
            contacts.setNormal(c, n);
        }
    }

    /**
     * No world, no static body: what one body gains another loses, linear momentum {@code sum m dv}
     * and angular momentum about the origin {@code sum (I dw + x x m dv)}, friction and rolling
     * resistance included. Particles (no rotational inertia to take an angular impulse) only in the
     * linear check. Tolerance: 1e-5 of the sum of the magnitudes that cancel, float32 rounding.
     */
    @ParameterizedTest(name = "{0}, {1}")
    @MethodSource("backendsAndSolvers")
    void momentumIsConservedBetweenDynamicBodies(Backend backend, RigidSettings settings) {
        Scene rigid = FrictionScenes.randomClusters(12, 500, false, false, false);
        Scene withParticles = FrictionScenes.randomClusters(13, 500, false, true, false);
        try (ContactSolver solver = Backends.open(backend)) {
            SolveResult result = solver.solve(rigid.bodies(), rigid.contacts(), settings, new SolveResult());
            assertMomentumConserved(rigid, result, true);
            result = solver.solve(withParticles.bodies(), withParticles.contacts(), settings, new SolveResult());
            assertMomentumConserved(withParticles, result, false);
        }
    }

    private static void assertMomentumConserved(Scene scene, SolveResult result, boolean angularToo) {
        Vector3d linear = new Vector3d();
        Vector3d angular = new Vector3d();
        double linearScale = 0.0;
        double angularScale = 0.0;
        BodyBatch bodies = scene.bodies();
        for (int i = 0; i < bodies.size(); i++) {
            Body body = ReferenceFriction.body(bodies, i);
            Vector3d momentum = new Vector3d(result.getLinearDelta(i, new Vector3f())).div(body.inverseMass);
            linear.add(momentum);
            linearScale += momentum.length();
            if (angularToo) {
                Vector3d spin = new Vector3d(result.getAngularDelta(i, new Vector3f()))
                        .mul(new Matrix3d(body.inverseInertia).invert());
                Vector3d orbit = new Vector3d(body.position).cross(momentum);
                angular.add(spin).add(orbit);
                angularScale += spin.length() + orbit.length();
            }
        }
        assertTrue(linearScale > 0.0, "nothing happened");
        assertTrue(linear.length() <= 1e-5 * linearScale, "linear momentum change " + linear + " (scale " + linearScale + ")");
        assertTrue(angular.length() <= 1e-5 * angularScale, "angular momentum change " + angular + " (scale " + angularScale + ")");
    }

    /**
     * One contact per pair of bodies (or body and world), e in [0, 1], friction up to 3: no contact
     * of the single pass may add kinetic energy. Float32 bound: the energy change is formed from
     * deltas each good to a few ulps, so 1e-5 of {@code sum |p| |dv| + |L| |dw|}.
     */
    @ParameterizedTest
    @EnumSource(value = Backend.class, names = {"CPU", "OPENCL"})
    void noContactOfTheSinglePassAddsKineticEnergy(Backend backend) {
        Scene scene = FrictionScenes.isolatedContacts(14, 3000);
        // a particle has no rotational inertia (inverse inertia 0): a spin given to it is a drive of
        // unlimited energy whose w x r still enters v, and friction may draw energy from it; the law
        // keeps the energy from rising only for bodies whose spin is theirs to lose, so particles here
        // do not spin
        for (int i = 0; i < scene.bodies().size(); i++) {
            if (scene.bodies().getInverseInertia(i, new org.joml.Matrix3f()).determinant() == 0.0f) {
                scene.bodies().setAngularVelocity(i, 0, 0, 0);
            }
        }
        SplittableRandom random = new SplittableRandom(15);
        for (int c = 0; c < scene.contacts().size(); c++) {
            scene.contacts().setFriction(c, (float) (3.0 * random.nextDouble()));
        }
        ReferenceFriction reference = ReferenceFriction.singlePass(scene.bodies(), scene.contacts());
        int guarded = 0;
        for (Outcome outcome : reference.outcomes) {
            guarded += outcome == Outcome.GUARDED ? 1 : 0;
        }
        assertTrue(guarded > 20, "the scene must need the guard: " + guarded + " contacts guarded");
        try (ContactSolver solver = Backends.open(backend)) {
            SolveResult result = solver.solve(scene.bodies(), scene.contacts(), new SolveResult());
            double[][] deltas = ReferenceFriction.deltas(result);
            for (int c = 0; c < scene.contacts().size(); c++) {
                double[] change = energyChange(scene, deltas, c);
                assertTrue(change[0] <= 1e-5 * change[1], "contact " + c + " (" + reference.outcomes[c]
                        + ") adds kinetic energy " + change[0] + " (bound " + 1e-5 * change[1] + ")");
            }
        }
    }

    /** {kinetic energy change of contact c's bodies, the float32 scale of that change}. */
    private static double[] energyChange(Scene scene, double[][] deltas, int c) {
        double change = 0.0;
        double scale = 0.0;
        for (int body : new int[] {scene.contacts().bodyA(c), scene.contacts().bodyB(c)}) {
            if (body < 0) {
                continue;
            }
            BodyBatch single = singleBody(scene.bodies(), body);
            change += ReferenceFriction.kineticEnergyChange(single, new double[][] {deltas[body]});
            Body b = ReferenceFriction.body(scene.bodies(), body);
            Vector3d dv = new Vector3d(deltas[body][0], deltas[body][1], deltas[body][2]);
            Vector3d dw = new Vector3d(deltas[body][3], deltas[body][4], deltas[body][5]);
            if (b.inverseMass > 0) {
                scale += (b.velocity.length() + dv.length()) * dv.length() / b.inverseMass;
            }
            if (b.inverseInertia.determinant() > 0) {
                Matrix3d inertia = new Matrix3d(b.inverseInertia).invert();
                scale += new Vector3d(b.angularVelocity).add(dw).mul(inertia).length() * dw.length()
                        + b.angularVelocity.length() * new Vector3d(dw).mul(inertia).length();
            }
        }
        return new double[] {change, scale};
    }

    private static BodyBatch singleBody(BodyBatch bodies, int body) {
        BodyBatch single = new BodyBatch(1);
        int i = single.add();
        for (BodyField field : BodyField.values()) {
            single.set(field, i, bodies.get(field, body));
        }
        return single;
    }

    /**
     * Scenes where the sticking or sliding impulse would add kinetic energy, which the oracle
     * confirms (its branch is GUARDED, not marginal, and that impulse's {@code G > 0}): a leaning
     * slender box turning as it strikes the ground, upright and turned into general position. The
     * guard must give the frictionless impulse, and the energy must not rise.
     */
    record Rod(String name, double phi, double vx, double vy, double wz, float e, float mu) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Arguments> guardedRods() {
        Rod[] rods = {
            // e = 0.5: sliding would gain 17.5 J where the frictionless impulse loses 61 J
            new Rod("sliding adds energy, e 0.5", 50, -7, -6.5, 11, 0.5f, 0.6f),
            // e = 1: sliding would gain 9.1 J where the frictionless impact keeps the energy
            new Rod("sliding adds energy, e 1", 30, -5, -1, 6, 1.0f, 0.3f),
            // e = 1: sticking (v' = -e v_n n) would gain 0.21 J
            new Rod("sticking adds energy, e 1", 30, 1, -1, 0, 1.0f, 0.8f)};
        return Stream.of(Backend.CPU, Backend.OPENCL).flatMap(backend -> Stream.of(rods)
                .flatMap(rod -> Stream.of(Arguments.of(backend, rod, false), Arguments.of(backend, rod, true))));
    }

    @ParameterizedTest(name = "{0}, {1}, turned {2}")
    @MethodSource("guardedRods")
    void theDissipationGuardKeepsTheEnergyFromRising(Backend backend, Rod rod, boolean turned) {
        Scene scene = rodScene(rod.phi(), rod.vx(), rod.vy(), rod.wz(), rod.e(), rod.mu(), turned);
        ReferenceFriction reference = ReferenceFriction.singlePass(scene.bodies(), scene.contacts());
        assertEquals(Outcome.GUARDED, reference.outcomes[0], "the scene needs the guard");
        assertFalse(reference.marginal[0], "and not by a hair");
        assertTrue(reference.candidateGain[0] > 0.1, "unguarded, the impulse would add energy: " + reference.candidateGain[0]);

        try (ContactSolver solver = Backends.open(backend)) {
            SolveResult result = solver.solve(scene.bodies(), scene.contacts(), new SolveResult());
            double j0 = reference.impulses[0][0];
            // float32 on values of order 10: 1e-5 relative
            assertEquals(j0, result.impulse(0), 1e-5 * j0, "the frictionless j");
            assertTrue(new Vector3d(result.getTangentImpulse(0, new Vector3f())).length() <= 1e-5 * j0,
                    "no tangential impulse: " + result.getTangentImpulse(0, new Vector3f()));
            double change = ReferenceFriction.kineticEnergyChange(scene.bodies(), ReferenceFriction.deltas(result));
            assertEquals(reference.frictionlessGain[0], change, 1e-4 * (1 + Math.abs(reference.candidateGain[0])),
                    "the energy changes as the frictionless impulse changes it");
            assertTrue(change <= 1e-4, "the energy does not rise: " + change);
        }
    }

    /**
     * The sliding impulse where {@code n . K d} is about 1% of {@code n . K n} (strong coupling,
     * mu 1.33, just short of sticking): {@code j} is a hundred times {@code |v_n| / K}. The oracle
     * says it slides and loses 25 J; the module must give the same impulse and lose the same energy.
     * Float32: {@code n . K d} comes out of a cancellation of terms a hundred times larger, so the
     * impulse is good to about 1e-5 relative; 1e-3 allowed.
     */
    @ParameterizedTest(name = "{0}, turned {1}")
    @MethodSource("backendsTurned")
    void theSlidingImpulseNearAVanishingNKdIsRightAndDissipates(Backend backend, boolean turned) {
        Scene scene = rodScene(25, -2.7, -2.9, -6.8, 0.0f, 1.33f, turned);
        ReferenceFriction reference = ReferenceFriction.singlePass(scene.bodies(), scene.contacts());
        ReferenceFriction.Row row = ReferenceFriction.row(scene.bodies(), scene.contacts(), 0);
        double kn = row.n.dot(new Vector3d(row.n).mul(row.k));
        assertEquals(Outcome.SLIDING, reference.outcomes[0]);
        assertFalse(reference.marginal[0]);
        assertTrue(reference.slidingNKd[0] > 0 && reference.slidingNKd[0] < 0.02 * kn,
                "n.K d near zero: " + reference.slidingNKd[0] + " for n.K n " + kn);
        try (ContactSolver solver = Backends.open(backend)) {
            SolveResult result = solver.solve(scene.bodies(), scene.contacts(), new SolveResult());
            double[] expected = reference.impulses[0];
            double size = new Vector3d(expected[1], expected[2], expected[3]).length() + expected[0];
            assertEquals(expected[0], result.impulse(0), 1e-3 * size, "j");
            Vector3d t = new Vector3d(result.getTangentImpulse(0, new Vector3f()));
            assertTrue(t.distance(expected[1], expected[2], expected[3]) <= 1e-3 * size, "tangential impulse " + t);
            double change = ReferenceFriction.kineticEnergyChange(scene.bodies(), ReferenceFriction.deltas(result));
            assertEquals(reference.candidateGain[0], change, 1e-3 * Math.abs(reference.candidateGain[0]), "energy change");
            assertTrue(change < 0.0, "dissipates: " + change);
        }
    }

    static Stream<Arguments> backendsTurned() {
        return Stream.of(Backend.CPU, Backend.OPENCL)
                .flatMap(backend -> Stream.of(Arguments.of(backend, false), Arguments.of(backend, true)));
    }

    private static Scene rodScene(double phi, double vx, double vy, double wz, float e, float mu, boolean turned) {
        Scene scene = FrictionScenes.rodOnPlane(phi, vx, vy, wz, e, mu);
        return turned ? FrictionScenes.rotated(scene, new Quaternionf().rotateXYZ(0.7f, -0.4f, 1.1f)) : scene;
    }

    /**
     * The twist of docs/physics.md, "Iterative solver with friction", on random scenes with
     * friction, rolling and torsional resistance, cold and warm-started after every normal turned a
     * little: the result's angular vector is the rolling pair in the tangent plane plus the twist
     * along n, and the twist stays within {@code tau j} (none where {@code tau = 0}), the rolling
     * part within {@code rho j}. Float32: the clamp leaves the twist within an ulp of
     * {@code tau lambda_n}; forming the world vector and reading its part along n back costs a few
     * ulps of {@code |r|}: 1e-5 of each.
     */
    @ParameterizedTest
    @EnumSource(value = Backend.class, names = {"CPU", "OPENCL"})
    void everyTwistStaysWithinItsLimit(Backend backend) {
        Scene scene = FrictionScenes.randomClusters(16, 600, true, true, true);
        FrictionScenes.randomTorsion(new SplittableRandom(17), scene.contacts());
        IterativeSettings settings = SolveSettings.iterative(30);
        try (ContactSolver solver = Backends.open(backend)) {
            SolveResult result = solver.solve(scene.bodies(), scene.contacts(), settings, new SolveResult());
            assertTwistsWithinLimits(scene, result);
            turnNormals(scene.contacts(), new SplittableRandom(18), 0.2);
            assertTwistsWithinLimits(scene, solver.solve(scene.bodies(), scene.contacts(), settings.withIterations(2),
                    result, new SolveResult()));
        }
    }

    private static void assertTwistsWithinLimits(Scene scene, SolveResult result) {
        ContactBatch contacts = scene.contacts();
        int twistAtLimit = 0;
        for (int c = 0; c < contacts.size(); c++) {
            String where = "contact " + c;
            float tau = contacts.torsion(c);
            float rho = contacts.rollingResistance(c);
            Vector3d n = new Vector3d(contacts.getNormal(c, new Vector3f()));
            double j = result.impulse(c);
            Vector3d r = new Vector3d(result.getRollingImpulse(c, new Vector3f()));
            double twist = r.dot(n);
            Vector3d rolling = new Vector3d(r).sub(new Vector3d(n).mul(twist));
            assertTrue(j >= 0.0, where + ": j = " + j);
            assertTrue(Math.abs(twist) <= tau * j * (1 + 1e-5) + 1e-5 * r.length() + 1e-12,
                    where + ": |lambda_tw| = " + Math.abs(twist) + " > tau j = " + tau * j);
            assertTrue(rolling.length() <= rho * j * (1 + 1e-5) + 1e-5 * r.length() + 1e-12,
                    where + ": |L| = " + rolling.length() + " > rho j = " + rho * j);
            twistAtLimit += tau > 0 && j > 0 && Math.abs(twist) >= tau * j * (1 - 1e-5) ? 1 : 0;
        }
        // the scene must reach the limit, else the bound was never tested
        assertTrue(twistAtLimit > contacts.size() / 20, "contacts at the twist limit: " + twistAtLimit);
    }

    /**
     * Random clusters of dynamic bodies with friction, rolling and torsional resistance: the twist
     * too gives and takes angular momentum in equal parts (same bound as without it), and it acts.
     */
    @ParameterizedTest
    @EnumSource(value = Backend.class, names = {"CPU", "OPENCL"})
    void momentumIsConservedWithTorsion(Backend backend) {
        Scene rigid = FrictionScenes.randomClusters(19, 500, false, false, false);
        FrictionScenes.randomTorsion(new SplittableRandom(20), rigid.contacts());
        try (ContactSolver solver = Backends.open(backend)) {
            SolveResult result = solver.solve(rigid.bodies(), rigid.contacts(), SolveSettings.iterative(30),
                    new SolveResult());
            assertMomentumConserved(rigid, result, true);
            int twisted = 0;
            for (int c = 0; c < rigid.contacts().size(); c++) {
                Vector3d r = new Vector3d(result.getRollingImpulse(c, new Vector3f()));
                Vector3d n = new Vector3d(rigid.contacts().getNormal(c, new Vector3f()));
                twisted += Math.abs(r.dot(n)) > 1e-3 * r.length() && r.length() > 0 ? 1 : 0;
            }
            assertTrue(twisted > rigid.contacts().size() / 5, "contacts with a twist: " + twisted);
        }
    }

    /**
     * Two spheres, b landing on a along the normal and the two spinning against each other about
     * it: the twist takes {@code tau j} of angular momentum about n from one and gives it to the
     * other, so {@code n . (I_a dw_a + I_b dw_b) = 0}, and their relative spin drops by
     * {@code tau j k_tw}, {@code k_tw = 1 / I_a + 1 / I_b} (too little to stop it here).
     */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void theTwistConservesAngularMomentumAboutTheNormalBetweenTwoBodies(Engine engine) {
        Vector3d[] frame = FrictionScenes.frame(new SplittableRandom(21));
        Vector3d n = frame[0];
        double ma = 1.5;
        double mb = 0.8;
        double ra = 0.3;
        double rb = 0.2;
        float tau = 0.05f;
        BodyBatch bodies = new BodyBatch();
        int a = bodies.add();
        int b = bodies.add();
        double ia = 0.4 * ma * ra * ra;
        double ib = 0.4 * mb * rb * rb;
        bodies.setMass(a, (float) ma).setInverseInertia(a, (float) (1 / ia), (float) (1 / ia), (float) (1 / ia), 0, 0, 0)
                .setAngularVelocity(a, FrictionScenes.f(new Vector3d(n).mul(2.0)));
        bodies.setMass(b, (float) mb).setInverseInertia(b, (float) (1 / ib), (float) (1 / ib), (float) (1 / ib), 0, 0, 0)
                .setPosition(b, FrictionScenes.f(new Vector3d(n).mul(ra + rb)))
                .setLinearVelocity(b, FrictionScenes.f(new Vector3d(n).mul(-0.5)))
                .setAngularVelocity(b, FrictionScenes.f(new Vector3d(n).mul(-4.0)));
        ContactBatch contacts = new ContactBatch();
        int c = contacts.add(a, b, FrictionScenes.f(new Vector3d(n).mul(ra)), FrictionScenes.f(n), 0.0f);
        contacts.setFriction(c, 0.5f).setTorsion(c, tau);

        Solved solved = engine.iterative(new Scene(bodies, new int[] {0, 1}, contacts), 20);

        double j = solved.impulses()[0][0];
        assertEquals(0.5 / (1 / ma + 1 / mb), j, 1e-5 * j, "j stops the approach (e = 0)");
        Vector3d dwa = at(solved.deltas()[a], 3);
        Vector3d dwb = at(solved.deltas()[b], 3);
        double momentum = ia * dwa.dot(n) + ib * dwb.dot(n);
        double scale = ia * dwa.length() + ib * dwb.length();
        assertTrue(scale > 0, "the twist acted");
        assertEquals(0.0, momentum, 1e-5 * scale, "angular momentum about n is conserved");
        double relative = (-4.0 + dwb.dot(n)) - (2.0 + dwa.dot(n));
        assertEquals(-6.0 + tau * j * (1 / ia + 1 / ib), relative, 1e-5 * 6.0, "the relative spin drops by tau j k_tw");
        Vector3d twist = new Vector3d(solved.impulses()[0][4], solved.impulses()[0][5], solved.impulses()[0][6]);
        assertVector(new Vector3d(n).mul(tau * j), new double[] {twist.x, twist.y, twist.z}, 0, 1e-5 * tau * j,
                "the twist on b is +tau j n, against the relative spin");
    }
}
