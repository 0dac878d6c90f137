package io.contactsolver;

import io.contactsolver.layout.ImpulseField;
import static io.contactsolver.FrictionSinglePassTest.assertVector;
import static io.contactsolver.FrictionSinglePassTest.at;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.contactsolver.scene.Scene;
import io.contactsolver.testing.Backends;
import io.contactsolver.testing.Engine.Solved;
import io.contactsolver.testing.Engine;
import io.contactsolver.testing.FrictionScenes;
import io.contactsolver.testing.ReferenceFriction;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.joml.Vector3d;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The checks of docs/physics.md, "Iterative solver with friction", gravity {@code g} for one step
 * {@code dt} already in the velocity and {@code e = 0}: a sphere on an incline rolls or slips, a
 * box on four corners sticks or slides without turning, a rolling sphere with rolling resistance
 * slows by {@code (5/7)(rho / r) g dt} and keeps rolling, a sphere spinning about the normal with
 * torsional resistance loses {@code tau j} of angular impulse a step until it stops. On both
 * backends and on the float64 oracle, with the incline in general position (normals not along an
 * axis) as well as upright.
 */
class FrictionIterativeTest {
    private static final double G = 9.81;
    private static final double DT = 1.0 / 60.0;

    /** An incline: its frame (normal, downhill tangent, third axis), its angle and the friction coefficient. */
    record Incline(String name, Vector3d[] frame, double theta, float mu) {
        @Override
        public String toString() {
            return name;
        }

        /** The velocity gravity gives in one step: {@code g dt (sin theta s - cos theta n)}. */
        Vector3d fall() {
            return new Vector3d(frame[1]).mul(G * DT * Math.sin(theta)).sub(new Vector3d(frame[0]).mul(G * DT * Math.cos(theta)));
        }
    }

    /** Inclines of several angles and frames with mu at {@code factor} times the critical coefficient. */
    static List<Arguments> inclines(double[] factors, java.util.function.DoubleUnaryOperator critical) {
        SplittableRandom random = new SplittableRandom(5);
        List<Vector3d[]> frames = List.of(FrictionScenes.upright(), FrictionScenes.frame(random),
                FrictionScenes.frame(random));
        double[] angles = {Math.toRadians(15), Math.toRadians(30), Math.toRadians(50)};
        List<Arguments> cases = new ArrayList<>();
        for (Engine engine : Engine.values()) {
            for (int f = 0; f < frames.size(); f++) {
                for (double factor : factors) {
                    double theta = angles[(f + cases.size()) % angles.length];
                    float mu = (float) (factor * critical.applyAsDouble(theta));
                    cases.add(Arguments.of(engine, new Incline(engine + ", frame " + f + ", theta "
                            + Math.round(Math.toDegrees(theta)) + ", mu " + mu + " (" + factor + " x critical)",
                            frames.get(f), theta, mu)));
                }
            }
        }
        return cases;
    }

    static Stream<Arguments> sphereInclines() {
        // rolling needs mu >= (2/7) tan theta; factors on both sides, 10% from the boundary at least
        return inclines(new double[] {3.0, 1.1, 0.9, 0.4, 0.0}, theta -> 2.0 / 7.0 * Math.tan(theta)).stream();
    }

    static Stream<Arguments> boxInclines() {
        // sticking needs mu >= tan theta
        return inclines(new double[] {2.0, 1.1, 0.9, 0.5}, Math::tan).stream();
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("sphereInclines")
    void aSphereOnAnInclineRollsOrSlips(Engine engine, Incline incline) {
        double radius = 0.4;
        double mass = 2.5;
        Vector3d n = incline.frame()[0];
        Vector3d s = incline.frame()[1];
        Vector3d v0 = incline.fall();
        Scene scene = FrictionScenes.sphereOnPlane(n, radius, mass, v0, new Vector3d(), 0.0f, incline.mu(), 0.0f);

        // a sphere's normal and tangential rows are uncoupled and its tangent block is isotropic:
        // one iteration solves it; more only re-solve solved rows
        Solved solved = engine.iterative(scene, 20);

        Vector3d v = new Vector3d(v0).add(at(solved.deltas()[0], 0));
        Vector3d w = at(solved.deltas()[0], 3);
        Vector3d point = new Vector3d(v).add(new Vector3d(w).cross(new Vector3d(n).mul(-radius)));
        double gdt = G * DT;
        // float32 on velocities of order g dt: a few ulps, relative
        double tolerance = 1e-5 * gdt;
        assertEquals(0.0, v.dot(n), tolerance, "the normal velocity is stopped (e = 0)");
        boolean rolls = incline.mu() >= 2.0 / 7.0 * Math.tan(incline.theta());
        double speed = rolls ? 5.0 / 7.0 * gdt * Math.sin(incline.theta())
                : gdt * (Math.sin(incline.theta()) - incline.mu() * Math.cos(incline.theta()));
        assertVector(new Vector3d(s).mul(speed), new double[] {v.x, v.y, v.z}, 0, tolerance,
                rolls ? "rolls at (5/7) g dt sin theta" : "slips at g dt (sin theta - mu cos theta)");
        if (rolls) {
            assertTrue(point.length() <= tolerance, "rolling: the contact point is at rest: " + point);
        } else {
            // the friction impulse -mu m g dt cos theta s at r = -R n turns the sphere downhill:
            // dw = I^-1 (r x P_t) = (5 mu g dt cos theta / (2 r)) (n x s)
            Vector3d expected = new Vector3d(n).cross(s).mul(5.0 * incline.mu() * gdt * Math.cos(incline.theta()) / (2.0 * radius));
            assertVector(expected, new double[] {w.x, w.y, w.z}, 0, tolerance / radius, "slipping: the friction turns it");
            assertTrue(point.dot(s) > 0.0, "slipping: the contact point still slides downhill: " + point);
        }
        double[] impulse = solved.impulses()[0];
        assertEquals(mass * gdt * Math.cos(incline.theta()), impulse[ImpulseField.J.ordinal()], mass * tolerance, "j");
        double friction = new Vector3d(impulse[1], impulse[2], impulse[3]).length();
        assertTrue(friction <= incline.mu() * impulse[0] * (1 + 1e-6) + 1e-12, "inside the cone: " + friction);
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("boxInclines")
    void aBoxOnFourCornersSticksOrSlidesWithoutTurning(Engine engine, Incline incline) {
        double mass = 3.0;
        Vector3d v0 = incline.fall();
        Scene scene = FrictionScenes.boxOnFourCorners(incline.frame(), 0.5, 0.3, 0.35, mass, v0, incline.mu());

        Solved solved = engine.iterative(scene, 500);

        Vector3d v = new Vector3d(v0).add(at(solved.deltas()[0], 0));
        Vector3d w = at(solved.deltas()[0], 3);
        double gdt = G * DT;
        boolean sticks = incline.mu() >= Math.tan(incline.theta());
        double speed = sticks ? 0.0 : gdt * (Math.sin(incline.theta()) - incline.mu() * Math.cos(incline.theta()));
        // four coupled contacts after 500 sweeps: what is left of the error decays geometrically;
        // 1e-4 of g dt (measured on the oracle in contact order: below 1e-6)
        double tolerance = 1e-4 * gdt;
        assertVector(new Vector3d(incline.frame()[1]).mul(speed), new double[] {v.x, v.y, v.z}, 0, tolerance,
                sticks ? "sticks: no motion at all" : "slides at g dt (sin theta - mu cos theta) straight downhill");
        assertTrue(w.length() * 0.5 <= tolerance, "no rotation: " + w);
        double normal = 0.0;
        Vector3d friction = new Vector3d();
        for (double[] impulse : solved.impulses()) {
            normal += impulse[0];
            friction.add(impulse[1], impulse[2], impulse[3]);
            assertTrue(new Vector3d(impulse[1], impulse[2], impulse[3]).length() <= incline.mu() * impulse[0] * (1 + 1e-5) + 1e-9,
                    "every corner's friction inside its cone");
        }
        assertEquals(mass * gdt * Math.cos(incline.theta()), normal, mass * tolerance, "the corners carry the weight");
        assertVector(new Vector3d(incline.frame()[1]).mul(-mass * (gdt * Math.sin(incline.theta()) - speed)),
                new double[] {friction.x, friction.y, friction.z}, 0, mass * tolerance, "friction holds back the rest");
    }

    /**
     * The rolling pair of docs/physics.md, "Iterative solver with friction", acts along the
     * tangents t1, t2 only: it resists rolling, not spinning about the normal. A sphere resting on
     * the ground and spinning about the normal keeps its spin, whatever its rolling resistance, and
     * no rolling impulse arises.
     */
    @ParameterizedTest
    @MethodSource("rollingResistance")
    void rollingResistanceDoesNotResistSpinningAboutTheNormal(Engine engine, Vector3d[] frame, float rho) {
        double radius = 0.25;
        double mass = 1.2;
        Vector3d n = frame[0];
        Vector3d v0 = new Vector3d(n).mul(-G * DT);
        Vector3d w0 = new Vector3d(n).mul(7.0);
        Scene scene = FrictionScenes.sphereOnPlane(n, radius, mass, v0, w0, 0.0f, 0.8f, rho);

        Solved solved = engine.iterative(scene, 50);

        // float32: the float normal and tangents are orthogonal to a few ulps, so the spin shows a
        // few ulps of itself along t1, t2, and the rolling rows answer that noise. Resisting the
        // spin would instead take rho m g dt (about 4e-3 here) and change the spin by about 0.1.
        double inertia = 0.4 * mass * radius * radius;
        assertVector(new Vector3d(), solved.deltas()[0], 3, 1e-5 * 7.0, "the spin about the normal is kept");
        assertVector(new Vector3d(), solved.impulses()[0], ImpulseField.RX.ordinal(), 1e-5 * 7.0 * inertia,
                "no rolling impulse beyond rounding");
        assertEquals(mass * G * DT, solved.impulses()[0][0], 1e-5 * mass * G * DT, "j = m g dt");
    }

    static Stream<Arguments> rollingResistance() {
        SplittableRandom random = new SplittableRandom(8);
        List<Arguments> cases = new ArrayList<>();
        for (Engine engine : Engine.values()) {
            cases.add(Arguments.of(engine, FrictionScenes.upright(), 0.02f));
            cases.add(Arguments.of(engine, FrictionScenes.frame(random), 0.05f));
            cases.add(Arguments.of(engine, FrictionScenes.frame(random), 0.01f));
        }
        return cases.stream();
    }

    @ParameterizedTest
    @MethodSource("rollingResistance")
    void aRollingSphereWithRollingResistanceSlowsAndKeepsRolling(Engine engine, Vector3d[] frame, float rho) {
        double radius = 0.25;
        double mass = 1.2;
        double u = 2.0;
        Vector3d n = frame[0];
        Vector3d s = frame[1];
        double gdt = G * DT;
        // rolling along s on flat ground (n is up): w = (u / r) (n x s) puts the contact point at rest
        Vector3d v0 = new Vector3d(s).mul(u).sub(new Vector3d(n).mul(gdt));
        Vector3d w0 = new Vector3d(n).cross(s).mul(u / radius);
        // mu well above the (5/7) rho / r that rolling needs
        Scene scene = FrictionScenes.sphereOnPlane(n, radius, mass, v0, w0, 0.0f, 0.8f, rho);

        Solved solved = engine.iterative(scene, 200);

        Vector3d v = new Vector3d(v0).add(at(solved.deltas()[0], 0));
        Vector3d w = new Vector3d(w0).add(at(solved.deltas()[0], 3));
        Vector3d point = new Vector3d(v).add(new Vector3d(w).cross(new Vector3d(n).mul(-radius)));
        // the friction and rolling rows converge geometrically; float32 on speeds of order u
        double tolerance = 2e-5 * u;
        double expected = u - 5.0 / 7.0 * (rho / radius) * gdt;
        assertVector(new Vector3d(s).mul(expected), new double[] {v.x, v.y, v.z}, 0, tolerance,
                "slows to u - (5/7)(rho / r) g dt");
        assertTrue(point.length() <= tolerance, "keeps rolling: the contact point is at rest: " + point);
        double[] impulse = solved.impulses()[0];
        assertEquals(mass * gdt, impulse[0], mass * tolerance, "j = m g dt");
        Vector3d rolling = new Vector3d(impulse[4], impulse[5], impulse[6]);
        // the rolling impulse is saturated: rho j, against the rolling (about -(n x s))
        assertVector(new Vector3d(n).cross(s).mul(-rho * mass * gdt), new double[] {rolling.x, rolling.y, rolling.z}, 0,
                1e-4 * rho * mass * gdt, "the rolling impulse is rho j against the rolling");
    }

    static Stream<Arguments> torsion() {
        SplittableRandom random = new SplittableRandom(9);
        List<Arguments> cases = new ArrayList<>();
        for (Engine engine : Engine.values()) {
            // steps to stop from 3 rad/s: 22.9, 45.9 and 15.3 (never near a whole number)
            cases.add(Arguments.of(engine, FrictionScenes.upright(), 0.02f, 0.0f));
            cases.add(Arguments.of(engine, FrictionScenes.frame(random), 0.01f, 0.03f));
            cases.add(Arguments.of(engine, FrictionScenes.frame(random), 0.03f, 0.0f));
        }
        return cases.stream();
    }

    /**
     * The twist row of docs/physics.md, "Iterative solver with friction": a solid sphere (I = 2/5
     * m r^2) resting on the ground and spinning about the normal at {@code w0}, gravity's {@code g dt}
     * in its velocity each step, is held by {@code j = m g dt} and loses {@code tau j} of angular
     * impulse a step: its spin drops by {@code tau j / I} a step until, after
     * {@code ceil(I w0 / (tau j))} steps, it stops, without turning the other way, and stays
     * stopped. Each step starts from the last one's spin, warm-started from its result as a
     * simulation does. Rolling resistance, where given, acts along the tangents and leaves the spin
     * alone.
     */
    @ParameterizedTest
    @MethodSource("torsion")
    void aSpinningSphereWithTorsionLosesTauJAStepUntilItStops(Engine engine, Vector3d[] frame, float tau, float rho) {
        double radius = 0.25;
        double mass = 1.2;
        double spin0 = 3.0;
        Vector3d n = frame[0];
        double gdt = G * DT;
        double j = mass * gdt;
        double inertia = 0.4 * mass * radius * radius;
        double loss = tau * j / inertia;
        int steps = (int) Math.ceil(spin0 / loss);
        // float32 on spins of order w0, over tens of steps
        double tolerance = 2e-5 * spin0;
        Spinner spinner = new Spinner(engine);
        try (spinner) {
            double spin = spin0;
            int stopped = -1;
            for (int step = 1; step <= steps + 3; step++) {
                Vector3d w0 = new Vector3d(n).mul(spin);
                Scene scene = FrictionScenes.sphereOnPlane(n, radius, mass, new Vector3d(n).mul(-gdt), w0, 0.0f, 0.8f,
                        rho, tau);
                Solved solved = spinner.step(scene);
                Vector3d w = new Vector3d(w0).add(at(solved.deltas()[0], 3));
                double next = w.dot(n);
                assertVector(new Vector3d(n).mul(next), new double[] {w.x, w.y, w.z}, 0, tolerance,
                        "step " + step + ": the sphere turns about n alone");
                assertEquals(Math.max(0.0, spin - loss), next, tolerance, "step " + step + ": the spin drops by tau j / I");
                assertTrue(next >= -tolerance, "step " + step + ": the spin never reverses: " + next);
                double[] impulse = solved.impulses()[0];
                assertEquals(j, impulse[0], 1e-5 * j, "j = m g dt");
                // the angular impulse on the sphere: -min(tau j, I w) along n
                Vector3d angular = new Vector3d(impulse[4], impulse[5], impulse[6]);
                assertVector(new Vector3d(n).mul(-Math.min(tau * j, inertia * spin)),
                        new double[] {angular.x, angular.y, angular.z}, 0, inertia * tolerance,
                        "step " + step + ": the twist is tau j, or what stops the spin");
                if (stopped < 0 && Math.abs(next) <= tolerance) {
                    stopped = step;
                }
                spin = next;
            }
            assertEquals(steps, stopped, "comes to rest after ceil(I w0 / (tau j)) steps");
            assertEquals(0.0, spin, tolerance, "and stays at rest");
        }
    }

    /** Without torsional resistance the same sphere keeps its spin, step after step. */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void withoutTorsionASpinningSphereKeepsSpinning(Engine engine) {
        double radius = 0.25;
        double mass = 1.2;
        double spin0 = 3.0;
        Vector3d n = FrictionScenes.frame(new SplittableRandom(10))[0];
        try (Spinner spinner = new Spinner(engine)) {
            double spin = spin0;
            for (int step = 1; step <= 20; step++) {
                Vector3d w0 = new Vector3d(n).mul(spin);
                Solved solved = spinner.step(FrictionScenes.sphereOnPlane(n, radius, mass,
                        new Vector3d(n).mul(-G * DT), w0, 0.0f, 0.8f, 0.0f, 0.0f));
                spin = new Vector3d(w0).add(at(solved.deltas()[0], 3)).dot(n);
                assertEquals(0.0, new Vector3d(solved.impulses()[0][4], solved.impulses()[0][5], solved.impulses()[0][6])
                        .length(), "no angular impulse");
            }
            assertEquals(spin0, spin, 1e-5 * spin0, "the spin is kept");
        }
    }

    /**
     * Steps of one engine on one-sphere scenes, each warm-started from the step before (one
     * contact, one id): a solver on a backend kept open, or the float64 oracle.
     */
    private static final class Spinner implements AutoCloseable {
        private final ContactSolver solver;
        private SolveResult last;
        private double[][] warm;

        Spinner(Engine engine) {
            solver = engine == Engine.REFERENCE ? null
                    : Backends.open(engine == Engine.CPU ? Backend.CPU : Backend.OPENCL);
        }

        Solved step(Scene scene) {
            if (solver == null) {
                ReferenceFriction reference = ReferenceFriction.iterative(scene.bodies(), scene.contacts(), 10, warm,
                        0.0);
                warm = reference.impulses;
                return new Solved(reference.deltas, reference.impulses);
            }
            RigidSettings settings = SolveSettings.iterative(10);
            SolveResult result = last == null ? solver.solve(scene.bodies(), scene.contacts(), settings, new SolveResult())
                    : solver.solve(scene.bodies(), scene.contacts(), settings, last, new SolveResult());
            last = result;
            return Engine.solved(result);
        }

        @Override
        public void close() {
            if (solver != null) {
                solver.close();
            }
        }
    }
}
