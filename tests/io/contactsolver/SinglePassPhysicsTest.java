package io.contactsolver;

import io.contactsolver.layout.DeltaField;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.contactsolver.scene.Scene;
import io.contactsolver.scene.SceneGenerator;
import io.contactsolver.testing.Backends;
import io.contactsolver.testing.ReferenceSolver;
import org.joml.Matrix3d;
import org.joml.Matrix3f;
import org.joml.Quaterniond;
import org.joml.Quaternionf;
import org.joml.Vector3d;
import org.joml.Vector3f;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The single-pass solve against impulses derived by hand for three simple cases and the invariants
 * of docs/physics.md ("Invariants the tests check"), on both backends.
 */
class SinglePassPhysicsTest {

    /** A rod struck at its end by a point mass: the worked example of docs/physics.md, "The frictionless impulse". */
    @ParameterizedTest
    @EnumSource(value = Backend.class, names = {"CPU", "OPENCL"})
    void rodStruckAtItsEndByAPointMass(Backend backend) {
        float m1 = 3.0f, length = 2.0f, m2 = 0.5f, u = 4.0f, e = 0.5f;
        BodyBatch bodies = new BodyBatch();
        int rod = bodies.add();
        bodies.setMass(rod, m1);
        float rodInverse = 12.0f / (m1 * length * length);
        bodies.setInverseInertia(rod, rodInverse, 0.0f, rodInverse, 0.0f, 0.0f, 0.0f);
        int ball = bodies.add();
        bodies.setParticle(ball, m2).setPosition(ball, 0.0f, length / 2, 0.0f).setLinearVelocity(ball, -u, 0.0f, 0.0f);
        ContactBatch contacts = new ContactBatch();
        contacts.add(rod, ball, new Vector3f(0.0f, length / 2, 0.0f), new Vector3f(1.0f, 0.0f, 0.0f), e);

        SolveResult result = solve(backend, bodies, contacts);

        double mu = (double) m1 * m2 / (m1 + 4.0 * m2);
        double j = (1.0 + e) * u * mu;
        assertClose(j, result.impulse(0), "j");
        assertVector(new Vector3d(-j / m1, 0, 0), result.getLinearDelta(rod, new Vector3f()), "rod dv");
        assertVector(new Vector3d(0, 0, 6.0 * j / (m1 * length)), result.getAngularDelta(rod, new Vector3f()), "rod dw");
        assertVector(new Vector3d(j / m2, 0, 0), result.getLinearDelta(ball, new Vector3f()), "point mass dv");
        assertVector(new Vector3d(), result.getAngularDelta(ball, new Vector3f()), "point mass dw");
    }

    /** A particle bouncing on the static world plane, with the normal either way round. */
    @ParameterizedTest
    @EnumSource(value = Backend.class, names = {"CPU", "OPENCL"})
    void particleAgainstTheStaticWorld(Backend backend) {
        float e = 0.7f;
        BodyBatch bodies = new BodyBatch();
        int above = bodies.add();
        bodies.setParticle(above, 2.0f).setPosition(above, 0.0f, 0.5f, 0.0f).setLinearVelocity(above, 2.0f, -3.0f, 1.0f);
        int below = bodies.add();
        bodies.setParticle(below, 0.25f).setPosition(below, 5.0f, 0.5f, 0.0f).setLinearVelocity(below, -1.0f, -6.0f, 0.5f);
        ContactBatch contacts = new ContactBatch();
        // world -> particle: n points up from the plane
        contacts.add(ContactBatch.WORLD, above, new Vector3f(0, 0, 0), new Vector3f(0, 1, 0), e);
        // particle -> world: n points down into the plane
        contacts.add(below, ContactBatch.WORLD, new Vector3f(5, 0, 0), new Vector3f(0, -1, 0), e);

        SolveResult result = solve(backend, bodies, contacts);

        Vector3f dv = result.getLinearDelta(above, new Vector3f());
        assertClose(-e * -3.0f - -3.0f, dv.y, "v_perp' = -e v_perp (above)");
        assertEquals(0.0f, dv.x, "tangential x unchanged");
        assertEquals(0.0f, dv.z, "tangential z unchanged");
        dv = result.getLinearDelta(below, dv);
        assertClose(-e * -6.0f - -6.0f, dv.y, "v_perp' = -e v_perp (below)");
        assertEquals(0.0f, dv.x, "tangential x unchanged");
        assertEquals(0.0f, dv.z, "tangential z unchanged");
        assertClose((1 + e) * 3.0 * 2.0, result.impulse(0), "j = (1 + e) m |v_perp|");
    }

    /** In-plane motion and rotation about z reproduce the planar impulse equations. */
    @ParameterizedTest
    @EnumSource(value = Backend.class, names = {"CPU", "OPENCL"})
    void planarCaseMatchesThe2dEquations(Backend backend) {
        double ma = 2.0, ia = 0.8, mb = 1.5, ib = 0.3, e = 0.4;
        double[] xa = {0.0, 0.0}, va = {1.0, 0.5}, xb = {1.2, 0.7}, vb = {-2.0, 0.25}, p = {0.7, 0.3}, n = {0.8, 0.6};
        double wa = 0.9, wb = -1.3;
        BodyBatch bodies = new BodyBatch();
        int a = bodies.add();
        bodies.setMass(a, (float) ma).setInverseInertia(a, 1.0f, 1.0f, (float) (1.0 / ia), 0, 0, 0)
                .setPosition(a, (float) xa[0], (float) xa[1], 0).setLinearVelocity(a, (float) va[0], (float) va[1], 0)
                .setAngularVelocity(a, 0, 0, (float) wa);
        int b = bodies.add();
        bodies.setMass(b, (float) mb).setInverseInertia(b, 1.0f, 1.0f, (float) (1.0 / ib), 0, 0, 0)
                .setPosition(b, (float) xb[0], (float) xb[1], 0).setLinearVelocity(b, (float) vb[0], (float) vb[1], 0)
                .setAngularVelocity(b, 0, 0, (float) wb);
        ContactBatch contacts = new ContactBatch();
        contacts.add(a, b, new Vector3f((float) p[0], (float) p[1], 0), new Vector3f((float) n[0], (float) n[1], 0),
                (float) e);

        SolveResult result = solve(backend, bodies, contacts);

        // planar equations: 2D cross products are scalars, point velocity v + w perp(r)
        double rax = p[0] - xa[0], ray = p[1] - xa[1], rbx = p[0] - xb[0], rby = p[1] - xb[1];
        double vpax = va[0] - wa * ray, vpay = va[1] + wa * rax;
        double vpbx = vb[0] - wb * rby, vpby = vb[1] + wb * rbx;
        double vn = (vpbx - vpax) * n[0] + (vpby - vpay) * n[1];
        double raxn = rax * n[1] - ray * n[0], rbxn = rbx * n[1] - rby * n[0];
        double k = 1 / ma + 1 / mb + raxn * raxn / ia + rbxn * rbxn / ib;
        double j = -(1 + e) * vn / k;
        assertTrue(vn < 0, "the scene must be approaching");
        assertClose(j, result.impulse(0), "j");
        assertVector(new Vector3d(-j * n[0] / ma, -j * n[1] / ma, 0), result.getLinearDelta(a, new Vector3f()), "dv_a");
        assertVector(new Vector3d(0, 0, -j * raxn / ia), result.getAngularDelta(a, new Vector3f()), "dw_a");
        assertVector(new Vector3d(j * n[0] / mb, j * n[1] / mb, 0), result.getLinearDelta(b, new Vector3f()), "dv_b");
        assertVector(new Vector3d(0, 0, j * rbxn / ib), result.getAngularDelta(b, new Vector3f()), "dw_b");
    }

    @ParameterizedTest
    @EnumSource(value = Backend.class, names = {"CPU", "OPENCL"})
    void separatingAndRestingContactsGiveExactlyZero(Backend backend) {
        BodyBatch bodies = new BodyBatch();
        int a = bodies.add();
        bodies.setMassProperties(a, 1.0f, new Matrix3f().scaling(0.4f)).setLinearVelocity(a, -1.0f, 0.0f, 0.0f);
        int b = bodies.add();
        bodies.setParticle(b, 2.0f).setPosition(b, 1.0f, 0.0f, 0.0f).setLinearVelocity(b, 1.0f, 3.0f, 0.0f);
        int resting = bodies.add();
        bodies.setParticle(resting, 1.0f).setPosition(resting, 0.0f, 2.0f, 0.0f);
        ContactBatch contacts = new ContactBatch();
        contacts.add(a, b, new Vector3f(0.5f, 0, 0), new Vector3f(1, 0, 0), 1.0f);      // separating
        contacts.add(ContactBatch.WORLD, resting, new Vector3f(0, 1.5f, 0), new Vector3f(0, 1, 0), 0.5f); // resting

        SolveResult result = solve(backend, bodies, contacts);

        for (int c = 0; c < contacts.size(); c++) {
            assertEquals(0, Float.floatToRawIntBits(result.impulse(c)), "j of contact " + c + " is +0");
        }
        for (int i = 0; i < bodies.size(); i++) {
            for (DeltaField field : DeltaField.values()) {
                assertEquals(0, Float.floatToRawIntBits(result.delta(field, i)), field + " of body " + i + " is +0");
            }
        }
    }

    @ParameterizedTest
    @EnumSource(value = Backend.class, names = {"CPU", "OPENCL"})
    void staticBodiesGetExactlyZeroDeltas(Backend backend) {
        Scene scene = SceneGenerator.randomGraph(11, 400, 3000);
        SolveResult result = solve(backend, scene.bodies(), scene.contacts());
        int statics = 0;
        for (int i = 0; i < scene.bodies().size(); i++) {
            if (scene.bodies().isStatic(i)) {
                statics++;
                for (DeltaField field : DeltaField.values()) {
                    assertEquals(0, Float.floatToRawIntBits(result.delta(field, i)), field + " of static body " + i);
                }
            }
        }
        assertTrue(statics > 5, "the scene must contain static bodies");
    }

    /** Many contacts per body, arbitrary orientations and inertia: agreement with a float64 oracle. */
    @ParameterizedTest
    @EnumSource(value = Backend.class, names = {"CPU", "OPENCL"})
    void randomScenesMatchAFloat64Reference(Backend backend) {
        Scene scene = SceneGenerator.randomGraph(5, 1500, 12000);
        SolveResult result = solve(backend, scene.bodies(), scene.contacts());
        ReferenceSolver reference = ReferenceSolver.singlePass(scene.bodies(), scene.contacts());
        for (int c = 0; c < scene.contacts().size(); c++) {
            assertNear(reference.impulses[c], result.impulse(c), 2e-5, "j of contact " + c);
        }
        DeltaField[] fields = DeltaField.values();
        for (int i = 0; i < scene.bodies().size(); i++) {
            for (int f = 0; f < fields.length; f++) {
                assertNear(reference.deltas[i][f], result.delta(fields[f], i), 2e-5, fields[f] + " of body " + i);
            }
        }
    }

    /** Linear momentum: what dynamic bodies gain, static bodies and the world gave. */
    @ParameterizedTest
    @EnumSource(value = Backend.class, names = {"CPU", "OPENCL"})
    void linearAndAngularMomentumAreConserved(Backend backend) {
        Scene scene = SceneGenerator.randomGraph(23, 800, 6000);
        BodyBatch bodies = scene.bodies();
        ContactBatch contacts = scene.contacts();
        giveEveryMovingBodyFullRankInertia(bodies);
        SolveResult result = solve(backend, bodies, contacts);

        Vector3d linear = new Vector3d();
        Vector3d angular = new Vector3d();
        double scale = 0.0;
        for (int i = 0; i < bodies.size(); i++) {
            if (bodies.isStatic(i)) {
                continue;
            }
            double mass = 1.0 / bodies.inverseMass(i);
            Vector3d dv = new Vector3d(result.getLinearDelta(i, new Vector3f())).mul(mass);
            Vector3d x = new Vector3d(bodies.getPosition(i, new Vector3f()));
            Vector3d dw = new Vector3d(result.getAngularDelta(i, new Vector3f())).mul(worldInertia(bodies, i));
            linear.add(dv);
            angular.add(new Vector3d(x).cross(dv)).add(dw);
        }
        // the share of static bodies and the world: -j n on side a, +j n on side b, at the contact point
        for (int c = 0; c < contacts.size(); c++) {
            double j = result.impulse(c);
            scale += j;
            Vector3d n = new Vector3d(contacts.getNormal(c, new Vector3f()));
            Vector3d p = new Vector3d(contacts.getPoint(c, new Vector3f()));
            for (int side = 0; side < 2; side++) {
                int body = side == 0 ? contacts.bodyA(c) : contacts.bodyB(c);
                if (body < 0 || bodies.isStatic(body)) {
                    Vector3d impulse = new Vector3d(n).mul(side == 0 ? -j : j);
                    linear.add(impulse);
                    angular.add(new Vector3d(p).cross(impulse));
                }
            }
        }
        assertTrue(scale > 100, "the scene must exchange real impulses");
        assertTrue(linear.length() < 1e-5 * scale, "linear momentum change " + linear + " for total impulse " + scale);
        assertTrue(angular.length() < 1e-4 * scale, "angular momentum change " + angular + " for total impulse " + scale);
    }

    /** One contact per body pair: v_n' = -e v_n, energy kept for e = 1 and never gained. */
    @ParameterizedTest
    @EnumSource(value = Backend.class, names = {"CPU", "OPENCL"})
    void isolatedContactsRestoreRestitutionAndBoundEnergy(Backend backend) {
        Scene scene = SceneGenerator.randomGraph(31, 2000, 0);
        BodyBatch bodies = scene.bodies();
        giveEveryMovingBodyFullRankInertia(bodies);
        ContactBatch contacts = new ContactBatch();
        java.util.SplittableRandom random = new java.util.SplittableRandom(3);
        for (int pair = 0; pair + 1 < bodies.size(); pair += 2) {
            Vector3d xa = new Vector3d(bodies.getPosition(pair, new Vector3f()));
            Vector3d xb = new Vector3d(bodies.getPosition(pair + 1, new Vector3f()));
            Vector3d n = new Vector3d(xb).sub(xa).normalize();
            Vector3d p = new Vector3d(xa).lerp(xb, 0.5).add(random.nextDouble() - 0.5, random.nextDouble() - 0.5, 0.1);
            float e = pair % 4 == 0 ? 1.0f : (float) random.nextDouble();
            contacts.add(pair, pair + 1, new Vector3f((float) p.x, (float) p.y, (float) p.z),
                    new Vector3f((float) n.x, (float) n.y, (float) n.z), e);
        }
        SolveResult result = solve(backend, bodies, contacts);

        int approaching = 0;
        for (int c = 0; c < contacts.size(); c++) {
            int a = contacts.bodyA(c), b = contacts.bodyB(c);
            double before = normalVelocity(bodies, contacts, c, null);
            double after = normalVelocity(bodies, contacts, c, result);
            double energyBefore = kineticEnergy(bodies, a, null) + kineticEnergy(bodies, b, null);
            double energyAfter = kineticEnergy(bodies, a, result) + kineticEnergy(bodies, b, result);
            double e = contacts.restitution(c);
            // a kinematic body (inverse mass 0, yet moving) may legitimately add energy
            boolean bothDynamic = !bodies.isStatic(a) && !bodies.isStatic(b);
            if (bodies.isStatic(a) && bodies.isStatic(b)) {
                assertEquals(0.0f, result.impulse(c), "nothing can move: K = 0, j = 0 at contact " + c);
            } else if (before < 0) {
                approaching++;
                assertNear(-e * before, after, 1e-4, "v_n' = -e v_n for contact " + c);
                if (e == 1.0 && bothDynamic) {
                    assertNear(energyBefore, energyAfter, 1e-5, "energy kept for e = 1, contact " + c);
                }
            } else {
                assertEquals(before, after, 1e-9, "separating contact " + c + " is untouched");
            }
            if (bothDynamic) {
                assertTrue(energyAfter <= energyBefore * (1 + 1e-5) + 1e-9, "energy gained at contact " + c);
            }
        }
        assertTrue(approaching > 100, "the scene must have approaching contacts, had " + approaching);
    }

    // ---- helpers ----------------------------------------------------------------------------

    static SolveResult solve(Backend backend, BodyBatch bodies, ContactBatch contacts) {
        try (ContactSolver solver = Backends.open(backend)) {
            SolveResult result = solver.solve(bodies, contacts, new SolveResult());
            assertEquals(backend, result.backend(), "backend that computed the result");
            return result;
        }
    }

    /** Particles have no rotational inertia, so off-centre impulses would not conserve angular momentum. */
    private static void giveEveryMovingBodyFullRankInertia(BodyBatch bodies) {
        for (int i = 0; i < bodies.size(); i++) {
            Matrix3f inverse = bodies.getInverseInertia(i, new Matrix3f());
            if (bodies.inverseMass(i) > 0 && inverse.determinant() == 0) {
                bodies.setInertia(i, new Matrix3f().scaling(0.3f, 0.5f, 0.7f));
            }
        }
    }

    private static Matrix3d worldInertia(BodyBatch bodies, int i) {
        Matrix3d rotation = new Matrix3d().rotation(new Quaterniond(bodies.getOrientation(i, new Quaternionf())));
        Matrix3d inverse = new Matrix3d(bodies.getInverseInertia(i, new Matrix3f()));
        return new Matrix3d(rotation).mul(inverse).mul(new Matrix3d(rotation).transpose()).invert();
    }

    private static Vector3d velocity(BodyBatch bodies, int i, SolveResult result) {
        Vector3d v = new Vector3d(bodies.getLinearVelocity(i, new Vector3f()));
        return result == null ? v : v.add(new Vector3d(result.getLinearDelta(i, new Vector3f())));
    }

    private static Vector3d angularVelocity(BodyBatch bodies, int i, SolveResult result) {
        Vector3d w = new Vector3d(bodies.getAngularVelocity(i, new Vector3f()));
        return result == null ? w : w.add(new Vector3d(result.getAngularDelta(i, new Vector3f())));
    }

    private static double normalVelocity(BodyBatch bodies, ContactBatch contacts, int c, SolveResult result) {
        Vector3d p = new Vector3d(contacts.getPoint(c, new Vector3f()));
        Vector3d n = new Vector3d(contacts.getNormal(c, new Vector3f()));
        Vector3d[] point = new Vector3d[2];
        for (int side = 0; side < 2; side++) {
            int i = side == 0 ? contacts.bodyA(c) : contacts.bodyB(c);
            Vector3d r = new Vector3d(p).sub(new Vector3d(bodies.getPosition(i, new Vector3f())));
            point[side] = velocity(bodies, i, result).add(angularVelocity(bodies, i, result).cross(r));
        }
        return point[1].sub(point[0]).dot(n);
    }

    private static double kineticEnergy(BodyBatch bodies, int i, SolveResult result) {
        if (bodies.isStatic(i)) {
            return 0.0;
        }
        Vector3d v = velocity(bodies, i, result);
        Vector3d w = angularVelocity(bodies, i, result);
        return 0.5 * v.lengthSquared() / bodies.inverseMass(i) + 0.5 * w.dot(new Vector3d(w).mul(worldInertia(bodies, i)));
    }

    static void assertClose(double expected, double actual, String what) {
        assertNear(expected, actual, 1e-6, what);
    }

    /** |actual - expected| within {@code relative} of max(1, |expected|). */
    static void assertNear(double expected, double actual, double relative, String what) {
        double tolerance = relative * Math.max(1.0, Math.abs(expected));
        assertEquals(expected, actual, tolerance, what);
    }

    private static void assertVector(Vector3d expected, Vector3f actual, String what) {
        assertClose(expected.x, actual.x, what + ".x");
        assertClose(expected.y, actual.y, what + ".y");
        assertClose(expected.z, actual.z, what + ".z");
    }
}
