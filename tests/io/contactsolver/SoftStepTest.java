package io.contactsolver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.contactsolver.testing.Backends;
import io.contactsolver.testing.Bits;
import org.joml.Matrix3f;
import org.joml.Quaternionf;
import org.joml.Vector3f;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The soft step (docs/physics.md, "Soft step"): the checks
 * listed there, on both backends. Contacts come from a tiny collision of this test's own (spheres
 * and upright boxes on the plane y = 0), run before every step as a simulation would.
 */
class SoftStepTest {
    private static final Vector3f GRAVITY = new Vector3f(0.0f, -10.0f, 0.0f);
    private static final float DT = 1.0f / 60.0f;

    /** Four contacts at the bottom corners of an upright unit box (half extent 0.5) on the ground, one manifold. */
    static void boxOnGround(BodyBatch bodies, int box, ContactBatch contacts, float mu, int firstId) {
        Vector3f x = bodies.getPosition(box, new Vector3f());
        Quaternionf q = bodies.getOrientation(box, new Quaternionf());
        int id = firstId;
        for (int sx = -1; sx <= 1; sx += 2) {
            for (int sz = -1; sz <= 1; sz += 2) {
                Vector3f corner = q.transform(new Vector3f(0.5f * sx, -0.5f, 0.5f * sz)).add(x);
                int c = contacts.add(ContactBatch.WORLD, box, corner.x, 0.0f, corner.z, 0.0f, 1.0f, 0.0f, 0.0f);
                contacts.setSeparation(c, corner.y).setFriction(c, mu).setId(c, id++).setManifold(c, box);
            }
        }
    }

    static void unitBox(BodyBatch bodies, int box, float x, float y) {
        bodies.setMassProperties(box, 1.0f, new Matrix3f().scaling(1.0f / 6.0f)).setPosition(box, x, y, 0.0f);
    }

    @ParameterizedTest
    @EnumSource(value = Backend.class, names = {"CPU", "OPENCL"})
    void aRestingBoxSinksToWhereTheSpringHoldsGravityAndStops(Backend backend) {
        BodyBatch bodies = new BodyBatch();
        int box = bodies.add();
        unitBox(bodies, box, 0.0f, 0.5f);
        ContactBatch contacts = new ContactBatch();
        SolveResult[] results = {new SolveResult(), new SolveResult()};
        try (ContactSolver solver = Backends.open(backend)) {
            for (int step = 0; step < 120; step++) {
                contacts.clear();
                boxOnGround(bodies, box, contacts, 0.6f, 0);
                solver.step(bodies, contacts, SolveSettings.softStep(), GRAVITY, DT, step == 0 ? null : results[(step + 1) & 1],
                        results[step & 1]);
            }
        }
        // a contact with the world is twice the default 30 Hz; each corner (K = 1/m + 6 |r x n|^2 = 4)
        // carries a quarter of the weight: it gives (m g / 4) K / omega^2 = g / omega^2
        double omega = 2.0 * Math.PI * 60.0;
        float expectedSink = (float) (10.0 / (omega * omega)); // 0.07 mm
        float sink = 0.5f - bodies.getPosition(box, new Vector3f()).y;
        assertEquals(expectedSink, sink, 0.1e-3f, "the box rests where the contact spring carries its weight");
        assertEquals(0.0f, bodies.getLinearVelocity(box, new Vector3f()).length(), 1e-4f, "and comes to rest");
    }

    @ParameterizedTest
    @EnumSource(value = Backend.class, names = {"CPU", "OPENCL"})
    void aDroppedBallReboundsToAboutRestitutionSquaredOfItsHeight(Backend backend) {
        float radius = 0.5f;
        float height = 2.0f;
        float e = 0.6f;
        BodyBatch bodies = new BodyBatch();
        int ball = bodies.add();
        bodies.setMassProperties(ball, 1.0f, new Matrix3f().scaling(0.4f * radius * radius))
                .setPosition(ball, 0.0f, radius + height, 0.0f);
        ContactBatch contacts = new ContactBatch();
        SolveResult[] results = {new SolveResult(), new SolveResult()};
        float highestAfterBounce = 0.0f;
        boolean bounced = false;
        try (ContactSolver solver = Backends.open(backend)) {
            for (int step = 0; step < 240; step++) {
                float y = bodies.getPosition(ball, new Vector3f()).y;
                contacts.clear();
                float reach = 0.02f + Math.abs(bodies.getLinearVelocity(ball, new Vector3f()).y) * DT;
                if (y - radius < reach) { // speculative: found before touching, as far as the ball may move
                    int c = contacts.add(ContactBatch.WORLD, ball, 0.0f, 0.0f, 0.0f, 0.0f, 1.0f, 0.0f, e);
                    contacts.setSeparation(c, y - radius).setId(c, 7);
                }
                solver.step(bodies, contacts, SolveSettings.softStep(), GRAVITY, DT,
                        step == 0 ? null : results[(step + 1) & 1], results[step & 1]);
                float vy = bodies.getLinearVelocity(ball, new Vector3f()).y;
                float now = bodies.getPosition(ball, new Vector3f()).y - radius;
                assertTrue(now > -0.01f, "the ball never sinks into the ground: " + now);
                if (vy > 0.0f) {
                    bounced = true;
                }
                if (bounced) {
                    highestAfterBounce = Math.max(highestAfterBounce, now);
                }
            }
        }
        assertTrue(bounced, "the ball bounced");
        assertEquals(e * e * height, highestAfterBounce, 0.1f * e * e * height,
                "rebound height ~ e^2 of the drop height");
    }

    @ParameterizedTest
    @EnumSource(value = Backend.class, names = {"CPU", "OPENCL"})
    void aContactFoundWithAGapClosesItWithoutOverlap(Backend backend) {
        BodyBatch bodies = new BodyBatch();
        int box = bodies.add();
        unitBox(bodies, box, 0.0f, 0.52f); // 2 cm gap
        bodies.setLinearVelocity(box, 0.0f, -3.0f, 0.0f); // would cover 5 cm in a step
        ContactBatch contacts = new ContactBatch();
        boxOnGround(bodies, box, contacts, 0.0f, 0);
        try (ContactSolver solver = Backends.open(backend)) {
            solver.step(bodies, contacts, SolveSettings.softStep(), GRAVITY, DT, null, new SolveResult());
        }
        float bottom = bodies.getPosition(box, new Vector3f()).y - 0.5f;
        // once touching, the contact is a spring: it gives no more than where it holds gravity
        double omega = 2.0 * Math.PI * 30.0;
        float springDepth = (float) (10.0 / (omega * omega));
        assertTrue(bottom > -springDepth && bottom < 1e-3f, "the gap closed within the step, no overlap: " + bottom);
        assertTrue(bodies.getLinearVelocity(box, new Vector3f()).y > -0.2f, "and the fall stopped");
    }

    @ParameterizedTest
    @EnumSource(value = Backend.class, names = {"CPU", "OPENCL"})
    void overlapIsPushedOutNoFasterThanThePushOutSpeed(Backend backend) {
        BodyBatch bodies = new BodyBatch();
        int box = bodies.add();
        unitBox(bodies, box, 0.0f, 0.3f); // 20 cm deep
        ContactBatch contacts = new ContactBatch();
        boxOnGround(bodies, box, contacts, 0.0f, 0);
        float speed = 0.5f;
        try (ContactSolver solver = Backends.open(backend)) {
            solver.step(bodies, contacts, SolveSettings.softStep().withPushOutSpeed(speed), GRAVITY, DT, null,
                    new SolveResult());
        }
        float rise = bodies.getPosition(box, new Vector3f()).y - 0.3f;
        assertTrue(rise > 0.0f && rise <= speed * DT * 1.001f, "pushed out at most " + speed + " m/s: " + rise / DT);
        assertTrue(Math.abs(bodies.getLinearVelocity(box, new Vector3f()).y) < 0.2f,
                "the relax sweep takes the push-out back out of the velocity");
    }

    @ParameterizedTest
    @EnumSource(value = Backend.class, names = {"CPU", "OPENCL"})
    void aBoxOnAnInclineSticksOrSlidesByCoulomb(Backend backend) {
        // gravity tilted by theta instead of the ground: the box sits on y = 0
        float theta = (float) Math.toRadians(20.0);
        Vector3f tilted = new Vector3f((float) (10.0 * Math.sin(theta)), (float) (-10.0 * Math.cos(theta)), 0.0f);
        for (float mu : new float[] {0.5f, 0.2f}) {
            BodyBatch bodies = new BodyBatch();
            int box = bodies.add();
            unitBox(bodies, box, 0.0f, 0.5f - 0.00007f);
            ContactBatch contacts = new ContactBatch();
            SolveResult[] results = {new SolveResult(), new SolveResult()};
            try (ContactSolver solver = Backends.open(backend)) {
                for (int step = 0; step < 30; step++) {
                    contacts.clear();
                    boxOnGround(bodies, box, contacts, mu, 0);
                    solver.step(bodies, contacts, SolveSettings.softStep(), tilted, DT,
                            step == 0 ? null : results[(step + 1) & 1], results[step & 1]);
                }
            }
            Vector3f v = bodies.getLinearVelocity(box, new Vector3f());
            float expected = mu >= Math.tan(theta) ? 0.0f
                    : (float) (10.0 * 30 * DT * (Math.sin(theta) - mu * Math.cos(theta)));
            assertEquals(expected, v.x, 0.02f * Math.max(1.0f, expected), "mu " + mu + ": slides at g t (sin - mu cos)");
            assertEquals(0.0f, bodies.getAngularVelocity(box, new Vector3f()).length(), 0.05f, "without tipping");
        }
    }

    @ParameterizedTest
    @EnumSource(value = Backend.class, names = {"CPU", "OPENCL"})
    void aSphereOnAnInclineRollsOrSlipsByCoulomb(Backend backend) {
        float theta = (float) Math.toRadians(20.0);
        Vector3f tilted = new Vector3f((float) (10.0 * Math.sin(theta)), (float) (-10.0 * Math.cos(theta)), 0.0f);
        float radius = 0.5f;
        int steps = 30;
        for (float mu : new float[] {0.5f, 0.05f}) {
            BodyBatch bodies = new BodyBatch();
            int ball = bodies.add();
            bodies.setMassProperties(ball, 1.0f, new Matrix3f().scaling(0.4f * radius * radius))
                    .setPosition(ball, 0.0f, radius, 0.0f);
            ContactBatch contacts = new ContactBatch();
            SolveResult[] results = {new SolveResult(), new SolveResult()};
            try (ContactSolver solver = Backends.open(backend)) {
                for (int step = 0; step < steps; step++) {
                    Vector3f x = bodies.getPosition(ball, new Vector3f());
                    contacts.clear();
                    int c = contacts.add(ContactBatch.WORLD, ball, x.x, 0.0f, x.z, 0.0f, 1.0f, 0.0f, 0.0f);
                    contacts.setSeparation(c, x.y - radius).setFriction(c, mu).setId(c, 1);
                    solver.step(bodies, contacts, SolveSettings.softStep(), tilted, DT,
                            step == 0 ? null : results[(step + 1) & 1], results[step & 1]);
                }
            }
            double t = steps * DT;
            boolean rolls = mu >= (2.0 / 7.0) * Math.tan(theta);
            float expected = (float) (rolls ? (5.0 / 7.0) * 10.0 * t * Math.sin(theta)
                    : 10.0 * t * (Math.sin(theta) - mu * Math.cos(theta)));
            float v = bodies.getLinearVelocity(ball, new Vector3f()).x;
            assertEquals(expected, v, 0.02f * expected, "mu " + mu + (rolls ? ": rolls" : ": slips"));
            if (rolls) {
                float spin = -bodies.getAngularVelocity(ball, new Vector3f()).z * radius;
                assertEquals(v, spin, 0.02f * expected, "rolling: the contact point is at rest");
            }
        }
    }

    @Test
    void theSameStepGivesTheSameBitsOnEveryThreadCount() {
        BodyBatch[] runs = new BodyBatch[3];
        int[] threads = {1, 2, 3};
        for (int t = 0; t < threads.length; t++) {
            BodyBatch bodies = new BodyBatch();
            ContactBatch contacts = new ContactBatch();
            for (int i = 0; i < 400; i++) {
                int box = bodies.add();
                unitBox(bodies, box, 1.5f * i, 0.49f + 0.001f * (i % 7));
                bodies.setAngularVelocity(box, 0.01f * (i % 5), 0.02f * (i % 3), 0.0f);
            }
            try (ContactSolver solver = ContactSolver.create(SolverConfig.defaults().withBackend(Backend.CPU)
                    .withThreads(threads[t]))) {
                SolveResult[] results = {new SolveResult(), new SolveResult()};
                for (int step = 0; step < 10; step++) {
                    contacts.clear();
                    for (int i = 0; i < bodies.size(); i++) {
                        boxOnGround(bodies, i, contacts, 0.5f, 4 * i);
                        // every other box's manifold resists rolling and twist, every third's corners are apart
                        for (int c = contacts.size() - 4; c < contacts.size(); c++) {
                            contacts.setRollingResistance(c, i % 2 == 0 ? 0.01f : 0.0f)
                                    .setTorsion(c, i % 2 == 0 ? 0.02f : 0.0f)
                                    .setManifold(c, i % 3 == 0 ? ContactBatch.NO_MANIFOLD : i);
                        }
                    }
                    solver.step(bodies, contacts, SolveSettings.softStep(), GRAVITY, DT,
                            step == 0 ? null : results[(step + 1) & 1], results[step & 1]);
                }
            }
            runs[t] = bodies;
        }
        Bits.assertIdentical(runs[0], runs[1], "1 against 2 threads");
        Bits.assertIdentical(runs[0], runs[2], "1 against 3 threads");
    }

    /**
     * The soft step moves bodies between its substeps, so it is no solve: no {@code solve} takes
     * its settings, which are no {@link RigidSettings}; a call that tried would not compile.
     */
    @Test
    void solveCannotBeGivenTheSoftStep() {
        assertFalse(RigidSettings.class.isAssignableFrom(SoftStepSettings.class));
        int solves = 0;
        for (java.lang.reflect.Method method : ContactSolver.class.getMethods()) {
            if (method.getName().equals("solve")) {
                solves++;
                for (Class<?> parameter : method.getParameterTypes()) {
                    assertFalse(parameter.isAssignableFrom(SoftStepSettings.class), method + " takes the soft step");
                }
            }
        }
        assertTrue(solves >= 4, "found the solve overloads: " + solves);
    }

    /**
     * A time step float cannot carry is refused at the call, naming the time step and why, before
     * any body is read or moved (bit for bit): too long for gravity (which would otherwise surface
     * as an impulse or a position overflowing, blamed on the bodies), too short to split into
     * substeps, or soft coefficients that underflow to nothing. The rigid step refuses the same
     * too long or subnormal steps.
     */
    @ParameterizedTest(name = "{0}, dt {1}")
    @CsvSource(delimiter = ';', value = {
        "soft; 1e20; time step dt = 1.0E20 s is too long for float: gravity of 10.0 m/s^2 would carry a body "
            + "|g| dt^2 = 1.00e+41 m in one step",
        "soft; 2e19; time step dt = 2.0E19 s is too long for float: gravity of 10.0 m/s^2 would carry a body "
            + "|g| dt^2 = 4.00e+39 m in one step",
        "iterative; 1e20; time step dt = 1.0E20 s is too long for float: gravity of 10.0 m/s^2 would carry a "
            + "body |g| dt^2 = 1.00e+41 m in one step",
        "soft; 1e-38; time step dt = 1.0E-38 s is subnormal (below 1.17549435E-38 s): too short for float",
        "single; 1e-45; time step dt = 1.4E-45 s is subnormal (below 1.17549435E-38 s): too short for float",
        "soft; 2e-38; time step dt = 2.0E-38 s over 4 substeps: the soft step's substep h = dt / 4 = 5.0E-39 is "
            + "subnormal (below 1.17549435E-38) (contact hertz 5.0000003E37, following the substep rate, damping ratio "
            + "10.0)",
        "undamped soft; 1e-6; time step dt = 1.0E-6 s over 4 substeps: the soft step's mass scale = 0.0 is zero "
            + "(contact hertz 1.0E-20, damping ratio 0.0)"})
    void aTimeStepFloatCannotCarryIsRefusedNamingItAndNothingMoves(String kind, float dt, String message) {
        SolveSettings settings = switch (kind) {
            case "soft" -> SolveSettings.softStep();
            case "undamped soft" -> SolveSettings.softStep().withDampingRatio(0.0f).withContactHertz(1e-20f);
            case "iterative" -> SolveSettings.iterative(10);
            default -> SolveSettings.singlePass();
        };
        BodyBatch bodies = new BodyBatch();
        int box = bodies.add();
        unitBox(bodies, box, 0.0f, 0.5f);
        bodies.setLinearVelocity(box, 0.5f, -1.0f, 0.0f).setAngularVelocity(box, 0.0f, 2.0f, 0.0f);
        ContactBatch contacts = new ContactBatch();
        boxOnGround(bodies, box, contacts, 0.6f, 0);
        BodyBatch before = io.contactsolver.scene.Batches.copyOf(bodies);
        SolveResult dest = new SolveResult();
        try (ContactSolver solver = Backends.open(Backend.CPU)) {
            IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                    () -> solver.step(bodies, contacts, settings, GRAVITY, dt, null, dest));
            assertEquals(message, refused.getMessage());
            assertThrows(IllegalArgumentException.class, () -> settings.checkStep(dt, GRAVITY),
                    "the same check, up front");
        }
        Bits.assertIdentical(before, bodies, "nothing moved");
        assertEquals(0, dest.bodyCount(), "nothing written");
    }

    /** Zero gravity carries nothing: a long step is then the caller's business, and it is taken. */
    @Test
    void aLongStepWithoutGravityIsTaken() {
        BodyBatch bodies = new BodyBatch();
        unitBox(bodies, bodies.add(), 0.0f, 0.5f);
        ContactBatch contacts = new ContactBatch();
        boxOnGround(bodies, 0, contacts, 0.6f, 0);
        try (ContactSolver solver = Backends.open(Backend.CPU)) {
            solver.step(bodies, contacts, SolveSettings.softStep(), new Vector3f(), 1e20f, null, new SolveResult());
        }
        assertEquals(0.5f, bodies.getPosition(0, new Vector3f()).y, "at rest on the ground");
    }
}
