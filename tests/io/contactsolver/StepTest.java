package io.contactsolver;

import io.contactsolver.layout.BodyField;
import io.contactsolver.layout.ContactBody;
import io.contactsolver.layout.ContactField;
import io.contactsolver.layout.DeltaField;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.contactsolver.opencl.OpenClTestAccess;
import io.contactsolver.scene.Scene;
import io.contactsolver.scene.SceneGenerator;
import io.contactsolver.testing.Backends;
import org.joml.Quaternionf;
import org.joml.Vector3f;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/** ContactSolver.step: gravity, solve, integration; device-resident on OpenCL, the same trajectory everywhere. */
class StepTest {
    private static final Vector3f GRAVITY = new Vector3f(0.0f, -10.0f, 0.0f);

    @ParameterizedTest
    @EnumSource(value = Backend.class, names = {"CPU", "OPENCL"})
    void aFreeBodyFallsBySemiImplicitEuler(Backend backend) {
        BodyBatch bodies = new BodyBatch();
        int ball = bodies.add();
        bodies.setParticle(ball, 1.0f).setPosition(ball, 0.0f, 10.0f, 0.0f);
        int ground = bodies.add(); // static: gravity leaves it alone
        int carried = bodies.add(); // kinematic: moves with its velocity, no gravity
        bodies.setLinearVelocity(carried, 1.0f, 0.0f, 0.0f);
        try (ContactSolver solver = Backends.open(backend)) {
            SolveResult[] results = {new SolveResult(), new SolveResult()};
            for (int step = 0; step < 3; step++) {
                solver.step(bodies, new ContactBatch(), SolveSettings.singlePass(), GRAVITY, 0.1f, null, results[step & 1]);
            }
        }
        // v1 = -1, v2 = -2, v3 = -3; y drops by (1 + 2 + 3) * 0.1
        assertEquals(-3.0f, bodies.getLinearVelocity(ball, new Vector3f()).y, 1e-5f);
        assertEquals(9.4f, bodies.getPosition(ball, new Vector3f()).y, 1e-5f);
        assertEquals(new Vector3f(), bodies.getPosition(ground, new Vector3f()));
        assertEquals(0.3f, bodies.getPosition(carried, new Vector3f()).x, 1e-6f);
        assertEquals(new Vector3f(1, 0, 0), bodies.getLinearVelocity(carried, new Vector3f()));
    }

    @ParameterizedTest
    @EnumSource(value = Backend.class, names = {"CPU", "OPENCL"})
    void aBallOnTheGroundStaysAtRest(Backend backend) {
        BodyBatch bodies = new BodyBatch();
        int ball = bodies.add();
        bodies.setParticle(ball, 2.0f).setPosition(ball, 0.0f, 0.5f, 0.0f);
        ContactBatch contacts = new ContactBatch();
        contacts.add(ContactBatch.WORLD, ball, new Vector3f(0, 0, 0), new Vector3f(0, 1, 0), 0.0f);
        try (ContactSolver solver = Backends.open(backend)) {
            SolveResult result = solver.step(bodies, contacts, SolveSettings.iterative(10), GRAVITY, 0.01f, null,
                    new SolveResult());
            assertEquals(2.0f * 10.0f * 0.01f, result.impulse(0), 1e-6f, "the ground takes the weight of one step");
        }
        assertEquals(0.0f, bodies.getLinearVelocity(ball, new Vector3f()).y, 1e-7f);
        assertEquals(0.5f, bodies.getPosition(ball, new Vector3f()).y, 1e-7f);
    }

    @ParameterizedTest
    @EnumSource(value = Backend.class, names = {"CPU", "OPENCL"})
    void aSpinningBodyTurnsAndItsOrientationStaysUnit(Backend backend) {
        BodyBatch bodies = new BodyBatch();
        int top = bodies.add();
        bodies.setMass(top, 1.0f).setInertia(top, new org.joml.Matrix3f()).setAngularVelocity(top, 0.0f, 0.0f, 2.0f);
        try (ContactSolver solver = Backends.open(backend)) {
            SolveResult result = new SolveResult();
            for (int step = 0; step < 100; step++) {
                SolveResult next = new SolveResult();
                solver.step(bodies, new ContactBatch(), SolveSettings.singlePass(), new Vector3f(), 0.01f, null, next);
                result = next;
            }
            assertEquals(Backend.valueOf(backend.name()), result.backend());
        }
        Quaternionf q = bodies.getOrientation(top, new Quaternionf());
        assertEquals(1.0f, q.lengthSquared(), 1e-6f, "unit");
        Vector3f x = q.transform(new Vector3f(1, 0, 0));
        assertEquals(Math.cos(2.0), x.x, 2e-3, "turned by w t = 2 rad about z");
        assertEquals(Math.sin(2.0), x.y, 2e-3);
    }

    /** The launch paths {@link #theDeviceKeepsTheBodiesAndTheTrajectoryMatchesTheCpu} runs: the property's value, or null for none. */
    static Stream<Arguments> launchPaths() {
        return Stream.of(Arguments.of("as this device chooses", null),
                Arguments.of("as a GPU of 132 compute units (an H200) chooses",
                        OpenClTestAccess.launchPathOfAGpu(132, STEP_CONTACTS)),
                Arguments.of("forced", "one-group"), Arguments.of("forced", "per-colour"));
    }

    private static final int STEP_CONTACTS = 12_000;

    /**
     * Bodies stay on the device between steps: after the first step only contacts and the colouring
     * go up, and the colour boundaries too where the launch policy in force solves the batch in one
     * launch. Each launch path forced in turn, so both are checked on any device.
     */
    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("launchPaths")
    void theDeviceKeepsTheBodiesAndTheTrajectoryMatchesTheCpu(String why, String launch) throws Exception {
        if (launch != null) {
            System.setProperty(OpenClTestAccess.LAUNCH_PROPERTY, launch);
        }
        try {
            keepsTheBodiesAndMatchesTheCpu();
        } finally {
            System.clearProperty(OpenClTestAccess.LAUNCH_PROPERTY);
        }
    }

    private static void keepsTheBodiesAndMatchesTheCpu() throws Exception {
        Scene onCpu = SceneGenerator.randomGraph(3, 3000, STEP_CONTACTS);
        Scene onDevice = SceneGenerator.randomGraph(3, 3000, STEP_CONTACTS);
        SolveSettings settings = SolveSettings.iterative(8);
        long bodyBytes = 3000L * BodyField.COUNT * 4;
        long contactBytes = 12_000L * (ContactField.COUNT + ContactBody.COUNT) * 4;
        long colouringBytes = 12_000L * (1 + ContactBody.COUNT) * 4;
        try (ContactSolver cpu = Backends.cpu(); ContactSolver openCl = Backends.openClOrSkip()) {
            // one launch reads the colour boundaries; a launch per colour passes them as arguments
            boolean oneLaunch = OpenClTestAccess.solvesInOneLaunch(STEP_CONTACTS);
            SolveResult[] cpuResults = {new SolveResult(), new SolveResult()};
            SolveResult[] deviceResults = {new SolveResult(), new SolveResult()};
            ContactBatch stepContacts = new ContactBatch();
            for (int step = 0; step < 12; step++) {
                SolveResult previousCpu = step == 0 ? null : cpuResults[(step + 1) & 1];
                SolveResult previousDevice = step == 0 ? null : deviceResults[(step + 1) & 1];
                if (step == 6) { // the caller moves one body between steps: that field goes up again
                    onCpu.bodies().setPosition(5, 1.0f, 2.0f, 3.0f);
                    onDevice.bodies().setPosition(5, 1.0f, 2.0f, 3.0f);
                }
                // as a simulation does, the contact list is rebuilt every step
                ContactBatch contacts = rebuild(onCpu.contacts(), stepContacts);
                cpu.step(onCpu.bodies(), contacts, settings, GRAVITY, 1.0f / 60.0f, previousCpu, cpuResults[step & 1]);
                SolveResult device = openCl.step(onDevice.bodies(), contacts, settings, GRAVITY, 1.0f / 60.0f,
                        previousDevice, deviceResults[step & 1]);
                assertEquals(Backend.OPENCL, device.backend());
                long expected = contactBytes + colouringBytes + 12_000L * 4 // warm-start impulses
                        + (step == 0 ? bodyBytes : 0) + (step == 6 ? 3000L * 3 * 4 : 0)
                        + (oneLaunch ? (device.colourCount() + 1L) * 4 : 0);
                assertEquals(step == 0 ? expected - 12_000L * 4 : expected, device.bytesUploaded(), "step " + step);
                assertEquals(3000L * DeltaField.COUNT * 4 + 12_000L * 4, device.bytesDownloaded());
            }
        }
        for (int i = 0; i < 3000; i++) {
            for (BodyField field : BodyField.values()) {
                assertEquals(Float.floatToRawIntBits(onCpu.bodies().get(field, i)),
                        Float.floatToRawIntBits(onDevice.bodies().get(field, i)), field + " of body " + i);
            }
        }
        assertTrue(onCpu.bodies().getPosition(100, new Vector3f()).y != 0.0f);
    }

    private static ContactBatch rebuild(ContactBatch template, ContactBatch dest) {
        dest.clear();
        Vector3f point = new Vector3f();
        Vector3f normal = new Vector3f();
        for (int c = 0; c < template.size(); c++) {
            dest.add(template.bodyA(c), template.bodyB(c), template.getPoint(c, point), template.getNormal(c, normal),
                    template.restitution(c));
            dest.setId(c, template.id(c));
        }
        return dest;
    }

    @Test
    void badInputLeavesTheBodiesUntouched() {
        Scene scene = SceneGenerator.randomGraph(4, 50, 100);
        scene.contacts().setRestitution(10, 2.0f);
        Vector3f before = scene.bodies().getLinearVelocity(3, new Vector3f());
        try (ContactSolver solver = Backends.cpu()) {
            assertThrows(InvalidInputException.class, () -> solver.step(scene.bodies(), scene.contacts(),
                    SolveSettings.singlePass(), GRAVITY, 0.01f, null, new SolveResult()));
            assertThrows(IllegalArgumentException.class, () -> solver.step(scene.bodies(), scene.contacts(),
                    SolveSettings.singlePass(), GRAVITY, 0.0f, null, new SolveResult()));
        }
        assertEquals(before, scene.bodies().getLinearVelocity(3, new Vector3f()));
    }
}
