package io.contactsolver;

import io.contactsolver.layout.ContactField;
import io.contactsolver.layout.ImpulseField;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.contactsolver.scene.Scene;
import io.contactsolver.scene.SceneGenerator;
import io.contactsolver.testing.Backends;
import io.contactsolver.testing.Bits;
import io.contactsolver.testing.Engine.Solved;
import io.contactsolver.testing.Engine;
import io.contactsolver.testing.FrictionScenes;
import io.contactsolver.testing.ReferenceFriction.Outcome;
import io.contactsolver.testing.ReferenceFriction;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.stream.Stream;
import org.joml.Vector3d;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The check of docs/physics.md, "Single pass with friction": a solid sphere striking a static plane
 * obliquely sticks (leaves rolling: the contact point's tangential velocity becomes 0 and the
 * centre keeps 5/7 of it) when {@code mu (1 + e) |v_n| >= (2/7) u}, and otherwise slips (its
 * tangential speed drops by {@code mu (1 + e) |v_n|}). On both backends and on the float64 oracle.
 */
class FrictionSinglePassTest {
    private static final double MASS = 1.7;
    private static final double RADIUS = 0.35;

    /**
     * One impact: the plane's frame, restitution, friction, approach speed and the ratio
     * {@code mu (1 + e) |v_n| / ((2/7) u)} (>= 1 sticks), and whether the sphere also spins.
     */
    record Impact(String name, Vector3d[] frame, float restitution, float mu, double approach, double ratio,
            boolean spinning) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Arguments> impacts() {
        SplittableRandom random = new SplittableRandom(99);
        List<Vector3d[]> frames = new ArrayList<>();
        frames.add(FrictionScenes.upright());
        for (int i = 0; i < 3; i++) {
            frames.add(FrictionScenes.frame(random));
        }
        List<Arguments> cases = new ArrayList<>();
        float[] restitutions = {0.0f, 0.4f, 1.0f};
        // well inside each regime, and within 5% of the boundary on either side
        double[] ratios = {8.0, 1.6, 1.05, 0.95, 0.6, 0.15};
        for (Engine engine : Engine.values()) {
            for (int f = 0; f < frames.size(); f++) {
                for (int r = 0; r < ratios.length; r++) {
                    float e = restitutions[(f + r) % restitutions.length];
                    float mu = 0.2f + 0.3f * ((f + 2 * r) % 4);
                    boolean spinning = (f + r) % 2 == 1;
                    String name = engine + ", frame " + f + ", e " + e + ", mu " + mu + ", ratio " + ratios[r]
                            + (spinning ? ", spinning" : "");
                    cases.add(Arguments.of(engine, new Impact(name, frames.get(f), e, mu, 2.5, ratios[r], spinning)));
                }
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("impacts")
    void aSphereStrikingAPlaneObliquelySticksOrSlips(Engine engine, Impact impact) {
        Vector3d n = impact.frame()[0];
        Vector3d s = impact.frame()[1];
        double e = impact.restitution();
        double mu = impact.mu();
        double vn = -impact.approach();
        // u from the ratio: mu (1 + e) |v_n| = ratio (2/7) u
        double u = mu * (1.0 + e) * -vn / (impact.ratio() * 2.0 / 7.0);
        // the contact point's tangential velocity is u s; with spin, part of it comes from w x r
        // (r = -R n) and w also has a component about the normal, which does not move the point
        Vector3d angular = new Vector3d();
        Vector3d velocity = new Vector3d(n).mul(vn).add(new Vector3d(s).mul(u));
        if (impact.spinning()) {
            Vector3d spin = new Vector3d(impact.frame()[2]).mul(0.6 * u / RADIUS).add(new Vector3d(n).mul(3.0));
            angular.set(spin);
            velocity.sub(new Vector3d(spin).cross(new Vector3d(n).mul(-RADIUS)));
        }
        Scene scene = FrictionScenes.sphereOnPlane(n, RADIUS, MASS, velocity, angular, impact.restitution(),
                impact.mu(), 0.0f);

        Solved solved = engine.singlePass(scene);

        Vector3d contactPoint = new Vector3d(s).mul(u);
        boolean sticks = impact.ratio() >= 1.0;
        Vector3d dvTangential = sticks ? new Vector3d(contactPoint).mul(-2.0 / 7.0)
                : new Vector3d(s).mul(-mu * (1.0 + e) * -vn);
        Vector3d dv = new Vector3d(n).mul((1.0 + e) * -vn).add(dvTangential);
        // dw = I^-1 (r x P_t), r = -R n, P_t = m dv_t, I^-1 = 5 / (2 m R^2)
        Vector3d dw = new Vector3d(n).cross(dvTangential).mul(-5.0 / (2.0 * RADIUS));
        // float32 arithmetic on values of order 10: a few ulps of the velocity scale
        double scale = velocity.length() + RADIUS * angular.length();
        double tolerance = 1e-5 * scale;
        assertVector(dv, solved.deltas()[0], 0, tolerance, "dv");
        assertVector(dw, solved.deltas()[0], 3, tolerance, "dw");
        assertEquals(MASS * (1.0 + e) * -vn, solved.impulses()[0][ImpulseField.J.ordinal()], MASS * tolerance, "j");
        assertVector(new Vector3d(dvTangential).mul(MASS), solved.impulses()[0], ImpulseField.TX.ordinal(),
                MASS * tolerance, "tangential impulse");
        assertVector(new Vector3d(), solved.impulses()[0], ImpulseField.RX.ordinal(), 0.0, "no rolling impulse");

        // after the impact: v_n' = -e v_n, and the contact point's tangential velocity
        Vector3d after = new Vector3d(velocity).add(at(solved.deltas()[0], 0));
        Vector3d spinAfter = new Vector3d(angular).add(at(solved.deltas()[0], 3));
        Vector3d pointAfter = new Vector3d(after).add(new Vector3d(spinAfter).cross(new Vector3d(n).mul(-RADIUS)));
        assertEquals(-e * vn, pointAfter.dot(n), tolerance, "v_n' = -e v_n");
        Vector3d tangentialAfter = new Vector3d(pointAfter).sub(new Vector3d(n).mul(pointAfter.dot(n)));
        if (sticks) {
            assertTrue(tangentialAfter.length() <= tolerance, "sticking: the contact point stops " + tangentialAfter);
            if (!impact.spinning()) {
                double centre = new Vector3d(after).sub(new Vector3d(n).mul(after.dot(n))).length();
                assertEquals(5.0 / 7.0 * u, centre, tolerance, "the centre keeps 5/7 of its tangential speed");
            }
        } else {
            // slipping: it still slides the same way, slower
            assertTrue(tangentialAfter.dot(s) > 0.0 && new Vector3d(tangentialAfter).sub(new Vector3d(s)
                    .mul(tangentialAfter.dot(s))).length() <= tolerance, "still slides along s: " + tangentialAfter);
            if (!impact.spinning()) {
                double centre = new Vector3d(after).sub(new Vector3d(n).mul(after.dot(n))).length();
                assertEquals(u - mu * (1.0 + e) * -vn, centre, tolerance, "tangential speed drops by mu (1 + e) |v_n|");
            }
        }
        if (engine == Engine.REFERENCE) {
            Outcome outcome = ReferenceFriction.singlePass(scene.bodies(), scene.contacts()).outcomes[0];
            assertEquals(sticks ? Outcome.STICKING : Outcome.SLIDING, outcome, "the oracle's branch");
        }
    }

    static Stream<Arguments> ignoredResistances() {
        return Stream.of(Backend.CPU, Backend.OPENCL).flatMap(backend -> Stream.of(
                Arguments.of(backend, ContactField.ROLLING_RESISTANCE, "rolling resistance"),
                Arguments.of(backend, ContactField.TORSION, "torsional resistance")));
    }

    /**
     * docs/physics.md, "Single pass with friction": rolling and torsional resistance act only in the
     * iterative solver; the single pass ignores {@code rho} and {@code tau} (its result is that of
     * 0, to the bit) and says so once for each: one warning line per solver, however many single
     * passes meet it, and none where no contact has it.
     */
    @ParameterizedTest(name = "{0}, {2}")
    @MethodSource("ignoredResistances")
    void theSinglePassIgnoresRollingAndTorsionalResistanceAndSaysSoOnce(Backend backend, ContactField field,
            String words) {
        Scene scene = SceneGenerator.randomGraph(51, 500, 3000);
        FrictionScenes.randomFriction(new SplittableRandom(51), scene.contacts());
        FrictionScenes.randomTorsion(new SplittableRandom(52), scene.contacts());
        List<LogRecord> log = new CopyOnWriteArrayList<>();
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord record) {
                log.add(record);
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        Logger logger = Logger.getLogger("io.contactsolver");
        logger.addHandler(capture);
        try (ContactSolver solver = Backends.open(backend)) {
            // no contact with it: nothing to say about it
            float[] values = new float[scene.contacts().size()];
            for (int c = 0; c < values.length; c++) {
                values[c] = scene.contacts().get(field, c);
                scene.contacts().set(field, c, 0.0f);
            }
            SolveResult without = solver.solve(scene.bodies(), scene.contacts(), new SolveResult());
            assertEquals(0, warnings(log, words), "no " + words + ", no warning");
            for (int c = 0; c < values.length; c++) {
                scene.contacts().set(field, c, values[c]);
            }
            SolveResult with = solver.solve(scene.bodies(), scene.contacts(), new SolveResult());
            Bits.assertIdentical(without, with, "the single pass ignores " + words);
            solver.solve(scene.bodies(), scene.contacts(), new SolveResult());
            solver.solve(scene.bodies(), scene.contacts(), SolveSettings.iterative(3), new SolveResult());
            assertEquals(1, warnings(log, words), "said once: " + log.stream().map(LogRecord::getMessage).toList());
        } finally {
            logger.removeHandler(capture);
        }
    }

    private static long warnings(List<LogRecord> log, String words) {
        return log.stream().filter(r -> r.getLevel() == Level.WARNING
                && r.getMessage().contains("ignores " + words)).count();
    }

    static Vector3d at(double[] values, int first) {
        return new Vector3d(values[first], values[first + 1], values[first + 2]);
    }

    static void assertVector(Vector3d expected, double[] values, int first, double tolerance, String what) {
        Vector3d actual = at(values, first);
        assertTrue(new Vector3d(actual).sub(expected).length() <= tolerance,
                what + ": expected " + expected + ", got " + actual + " (tolerance " + tolerance + ")");
    }
}
