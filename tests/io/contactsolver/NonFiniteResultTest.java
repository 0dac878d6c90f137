package io.contactsolver;

import io.contactsolver.layout.BodyField;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.contactsolver.InvalidInputException.Subject;
import io.contactsolver.opencl.OpenClTestAccess;
import io.contactsolver.testing.Backends;
import io.contactsolver.testing.Bits;
import java.util.List;
import java.util.function.Supplier;
import org.joml.Vector3f;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Valid input that overflows float inside the solve fails alike on every backend and solver,
 * naming the first contact (or body) whose result is not finite; {@code step} then changes nothing.
 */
class NonFiniteResultTest {
    private static final Vector3f UP = new Vector3f(0, 1, 0);

    /** Contact 0 is harmless; contact 1 stops a body moving at 3e38 with restitution 1: j = 6e38. */
    private static SolveInput overflowingImpulse() {
        SolveInput scene = new SolveInput();
        int slow = scene.bodies.add();
        scene.bodies.setParticle(slow, 1.0f).setPosition(slow, 5, 0, 0).setLinearVelocity(slow, 0, -1, 0);
        int fast = scene.bodies.add();
        scene.bodies.setParticle(fast, 1.0f).setLinearVelocity(fast, 0, -3e38f, 0);
        scene.contacts.add(ContactBatch.WORLD, slow, new Vector3f(5, 0, 0), UP, 0.5f);
        scene.contacts.add(ContactBatch.WORLD, fast, new Vector3f(0, 0, 0), UP, 1.0f);
        return scene;
    }

    /** Every impulse is finite (2e38), but a body stopped by two of them gains 4e38. */
    private static SolveInput overflowingDelta() {
        SolveInput scene = new SolveInput();
        int body = scene.bodies.add();
        scene.bodies.setParticle(body, 1.0f).setLinearVelocity(body, 0, -1e38f, 0);
        scene.contacts.add(ContactBatch.WORLD, body, new Vector3f(0, 0, 0), UP, 1.0f);
        scene.contacts.add(ContactBatch.WORLD, body, new Vector3f(0, 0, 0), UP, 1.0f);
        return scene;
    }

    /** A tiny effective mass with a large velocity: K = 2e-30, v_n = -1e10. */
    private static SolveInput tinyEffectiveMass() {
        SolveInput scene = new SolveInput();
        int a = scene.bodies.add();
        scene.bodies.setInverseMass(a, 1e-30f).setLinearVelocity(a, 0, 5e9f, 0);
        int b = scene.bodies.add();
        scene.bodies.setInverseMass(b, 1e-30f).setPosition(b, 0, 1, 0).setLinearVelocity(b, 0, -5e9f, 0);
        scene.contacts.add(a, b, new Vector3f(0, 0.5f, 0), UP, 0.0f);
        return scene;
    }

    /**
     * Contact 0 is harmless; contact 1 touches a body 2e19 m from its centre across the normal, so
     * {@code (r x n) . I^-1 (r x n) = 4e38} and K overflows to infinity (contact 2 likewise).
     */
    private static SolveInput longLeverArm() {
        return farTouched(new Vector3f(2e19f, 0, 0), 0.0f, 1.0f, 0.0f);
    }

    /** As {@link #longLeverArm}, but the body sits at -3e38 and is touched at +3e38: r itself overflows, K is NaN. */
    private static SolveInput overflowingLeverArm() {
        return farTouched(new Vector3f(3e38f, 0, 0), -3e38f, 1.0f, 0.0f);
    }

    /**
     * As {@link #longLeverArm}, but at a lever arm of 2 m with a finite inverse inertia near 3e38 and
     * a product of inertia: I^-1 (r x n) overflows where r x n is 0, and inf * 0 makes K NaN.
     */
    private static SolveInput hugeInverseInertia() {
        return farTouched(new Vector3f(2, 0, 0), 0.0f, 3e38f, 2e38f);
    }

    /**
     * A body resting on the floor (contact 0), and a falling one touched by the floor at {@code point}
     * twice (contacts 1 and 2): at its position's x {@code x}, with inverse inertia {@code diagonal}
     * on the diagonal and {@code product} as its xz entry.
     */
    private static SolveInput farTouched(Vector3f point, float x, float diagonal, float product) {
        SolveInput scene = new SolveInput();
        int calm = scene.bodies.add();
        scene.bodies.setMass(calm, 1.0f).setPosition(calm, 5, 0.5f, 0).setLinearVelocity(calm, 0, -1, 0);
        int far = scene.bodies.add();
        scene.bodies.setMass(far, 1.0f).setInverseInertia(far, diagonal, diagonal, diagonal, 0, product, 0)
                .setPosition(far, x, 0.5f, 0).setLinearVelocity(far, 0, -1, 0);
        scene.contacts.add(ContactBatch.WORLD, calm, new Vector3f(5, 0, 0), UP, 0.5f);
        scene.contacts.add(ContactBatch.WORLD, far, point, UP, 0.5f);
        scene.contacts.add(ContactBatch.WORLD, far, point, UP, 0.5f);
        return scene;
    }

    /**
     * Contact 1 touches a body spinning at 1e20 rad/s about z, 1e19 m from its centre: the contact
     * point's velocity is (-inf, inf, 0), and {@code v_n} along (0, 1, 0) is NaN (-inf times 0). K is finite.
     */
    private static SolveInput spinningFarOut() {
        SolveInput scene = new SolveInput();
        int calm = scene.bodies.add();
        scene.bodies.setMass(calm, 1.0f).setPosition(calm, 5, 0.5f, 0).setLinearVelocity(calm, 0, -1, 0);
        int spinning = scene.bodies.add();
        scene.bodies.setMass(spinning, 1.0f).setInverseInertia(spinning, 1e-30f, 1e-30f, 1e-30f, 0, 0, 0)
                .setAngularVelocity(spinning, 0, 0, 1e20f);
        scene.contacts.add(ContactBatch.WORLD, calm, new Vector3f(5, 0, 0), UP, 0.5f);
        scene.contacts.add(ContactBatch.WORLD, spinning, new Vector3f(1e19f, 1e19f, 0), UP, 0.5f);
        return scene;
    }

    private static final class SolveInput {
        final BodyBatch bodies = new BodyBatch();
        final ContactBatch contacts = new ContactBatch();
    }

    private static final SolveSettings[] EVERY_SOLVER = {SolveSettings.singlePass(), SolveSettings.iterative(50),
        SolveSettings.softStep()};

    @ParameterizedTest
    @EnumSource(value = Backend.class, names = {"CPU", "OPENCL"})
    void anOverflowingImpulseNamesTheFirstContact(Backend backend) {
        for (RigidSettings settings : new RigidSettings[] {SolveSettings.singlePass(), SolveSettings.iterative(50)}) {
            SolveInput scene = overflowingImpulse();
            NonFiniteResultException failure = solveFailing(backend, scene, settings);
            assertEquals(Subject.CONTACT, failure.subject());
            assertEquals(1, failure.index());
            assertEquals("j", failure.field());
            assertEquals("contact 1: the solve overflowed: impulse 'j' is " + failure.value()
                    + " (velocities or inverse masses too large for float)", failure.getMessage());
        }
    }

    /**
     * A soft step that overflows fails alike on both backends, whatever outputs it was asked for:
     * the device, which reports the impulses and checks the results and the next bodies itself,
     * leaves the host to name the same body with the same message (here the velocity change, or
     * without deltas the next position), and the bodies as they were.
     */
    @Test
    void aSoftStepThatOverflowsFailsAlikeOnTheDevice() {
        SoftStepSettings full = SolveSettings.softStep();
        SoftStepSettings[] outputs = {full, full.withImpulses(false), full.withDeltas(false).withImpulses(false)};
        String[] fields = {"dvy", "dvy", "y"};
        for (int k = 0; k < outputs.length; k++) {
            SolveInput onCpu = overflowingImpulse();
            SolveInput onDevice = overflowingImpulse();
            float[] before = fields(onDevice.bodies);
            NonFiniteResultException expected = runFailing(Backend.CPU, onCpu, outputs[k]);
            NonFiniteResultException actual = runFailing(Backend.OPENCL, onDevice, outputs[k]);
            String what = "outputs " + k + ": " + expected.getMessage();
            assertEquals(Subject.BODY, expected.subject(), what);
            assertEquals(1, expected.index(), what);
            assertEquals(fields[k], expected.field(), what);
            assertEquals(expected.getMessage(), actual.getMessage(), what);
            assertArrayEquals(before, fields(onDevice.bodies), what + ": bodies unchanged");
        }
    }

    @ParameterizedTest
    @EnumSource(value = Backend.class, names = {"CPU", "OPENCL"})
    void aVelocityChangeThatOverflowsNamesTheBody(Backend backend) {
        NonFiniteResultException failure = solveFailing(backend, overflowingDelta(), SolveSettings.singlePass());
        assertEquals(Subject.BODY, failure.subject(), failure.getMessage());
        assertEquals(0, failure.index());
        assertEquals("dvy", failure.field());
        // the iterative solver shares the stop between the two contacts: 2e38 in all, finite
        SolveInput scene = overflowingDelta();
        try (ContactSolver solver = Backends.open(backend)) {
            SolveResult result = solver.solve(scene.bodies, scene.contacts, SolveSettings.iterative(50), new SolveResult());
            assertEquals(2e38f, result.getLinearDelta(0, new Vector3f()).y, 1e32f);
        }
    }

    @ParameterizedTest
    @EnumSource(value = Backend.class, names = {"CPU", "OPENCL"})
    void aTinyEffectiveMassWithLargeVelocitiesFailsAlike(Backend backend) {
        for (RigidSettings settings : new RigidSettings[] {SolveSettings.singlePass(), SolveSettings.iterative(50)}) {
            NonFiniteResultException failure = solveFailing(backend, tinyEffectiveMass(), settings);
            assertEquals(Subject.CONTACT, failure.subject(), failure.getMessage());
            assertEquals(0, failure.index());
        }
    }

    /**
     * A contact whose K overflows float is refused alike by every solver on every backend, naming the
     * contact and K: left to the solvers, the iterative one would switch a NaN row off (j = 0) where
     * the single pass overflows, and an infinite K would give every solver a silent j = 0.
     */
    @ParameterizedTest
    @EnumSource(value = Backend.class, names = {"CPU", "OPENCL"})
    void aNonFiniteEffectiveMassNamesTheContactOnEverySolver(Backend backend) {
        String[] names = {"long lever arm", "overflowing lever arm", "huge inverse inertia"};
        List<Supplier<SolveInput>> scenes = List.of(NonFiniteResultTest::longLeverArm,
                NonFiniteResultTest::overflowingLeverArm, NonFiniteResultTest::hugeInverseInertia);
        float[] ks = {Float.POSITIVE_INFINITY, Float.NaN, Float.NaN};
        for (int s = 0; s < names.length; s++) {
            for (SolveSettings settings : EVERY_SOLVER) {
                String what = names[s] + ", " + settings.kind();
                NonFiniteResultException failure = runFailing(backend, scenes.get(s).get(), settings);
                assertEquals(Subject.CONTACT, failure.subject(), what);
                assertEquals(1, failure.index(), what);
                assertEquals(NonFiniteResultException.EFFECTIVE_MASS, failure.field(), what);
                assertEquals(ks[s], failure.value(), what);
                assertEquals("contact 1: the solve overflowed: inverse effective mass 'K' is " + ks[s]
                        + " (lever arms or inverse inertia too large for float)", failure.getMessage(), what);
            }
        }
    }

    /**
     * A contact whose v_n is NaN is refused alike by every solver on every backend, naming the contact
     * and v_n: left to the solvers, the single pass would answer j = 0 where the iterative solver overflows.
     */
    @ParameterizedTest
    @EnumSource(value = Backend.class, names = {"CPU", "OPENCL"})
    void aNonFiniteNormalVelocityNamesTheContactOnEverySolver(Backend backend) {
        for (SolveSettings settings : EVERY_SOLVER) {
            NonFiniteResultException failure = runFailing(backend, spinningFarOut(), settings);
            assertEquals(Subject.CONTACT, failure.subject(), settings.kind().label());
            assertEquals(1, failure.index(), settings.kind().label());
            assertEquals(NonFiniteResultException.NORMAL_VELOCITY, failure.field(), settings.kind().label());
            assertEquals("contact 1: the solve overflowed: normal velocity 'v_n' is NaN"
                    + " (velocities or lever arms too large for float)", failure.getMessage(), settings.kind().label());
        }
    }

    /**
     * A row that cannot be formed is refused before anything is written: {@code dest} keeps the
     * previous result bit for bit, and a step leaves every body as it was, on every scheme.
     */
    @ParameterizedTest
    @EnumSource(value = Backend.class, names = {"CPU", "OPENCL"})
    void aRowThatCannotBeFormedLeavesDestAndTheBodiesUnchanged(Backend backend) {
        Vector3f gravity = new Vector3f(0, -9.81f, 0);
        SolveInput ordinary = farTouched(new Vector3f(1, 0, 0), 0.0f, 1.0f, 0.0f);
        for (SolveInput scene : new SolveInput[] {longLeverArm(), spinningFarOut()}) {
            float[] before = fields(scene.bodies);
            try (ContactSolver solver = Backends.open(backend)) {
                for (SolveSettings settings : EVERY_SOLVER) {
                    IterativeSettings iterative = SolveSettings.iterative(20);
                    SolveResult dest = solver.solve(ordinary.bodies, ordinary.contacts, iterative, new SolveResult());
                    SolveResult previous = solver.solve(ordinary.bodies, ordinary.contacts, iterative,
                            new SolveResult());
                    assertThrows(NonFiniteResultException.class, () -> solver.step(scene.bodies, scene.contacts,
                            settings, gravity, 0.01f, null, dest), settings.kind().label());
                    assertArrayEquals(before, fields(scene.bodies), "bodies unchanged by " + settings.kind());
                    Bits.assertIdentical(previous, dest, "dest unchanged by " + settings.kind());
                    if (settings instanceof RigidSettings rigid) {
                        assertThrows(NonFiniteResultException.class,
                                () -> solver.solve(scene.bodies, scene.contacts, rigid, null, dest));
                        Bits.assertIdentical(previous, dest, "dest unchanged by a " + settings.kind() + " solve");
                    }
                }
            }
        }
    }

    /**
     * A K just short of overflowing (a lever arm of 1.8e19 m: K = 1 + 3.24e38) is no fault: the rows
     * are formed, and every solver solves it with the CPU's bits.
     */
    @ParameterizedTest
    @EnumSource(value = Backend.class, names = {"CPU", "OPENCL"})
    void aFiniteEffectiveMassNearTheFloatLimitIsSolved(Backend backend) {
        Vector3f gravity = new Vector3f(0, -9.81f, 0);
        try (ContactSolver solver = Backends.open(backend); ContactSolver cpu = Backends.cpu()) {
            for (SolveSettings settings : EVERY_SOLVER) {
                SolveInput scene = farTouched(new Vector3f(1.8e19f, 0, 0), 0.0f, 1.0f, 0.0f);
                SolveInput reference = farTouched(new Vector3f(1.8e19f, 0, 0), 0.0f, 1.0f, 0.0f);
                SolveResult result = solver.step(scene.bodies, scene.contacts, settings, gravity, 0.01f, null,
                        new SolveResult());
                SolveResult expected = cpu.step(reference.bodies, reference.contacts, settings, gravity, 0.01f, null,
                        new SolveResult());
                Bits.assertIdentical(expected, result, settings.kind().label());
                assertTrue(result.impulse(1) > 0.0f && Float.isFinite(result.impulse(1)),
                        settings.kind() + ": j = " + result.impulse(1));
            }
        }
    }

    /** {@code solve}, or {@code step} for the soft step, which only steps; both must throw. */
    private static NonFiniteResultException runFailing(Backend backend, SolveInput scene, SolveSettings settings) {
        if (settings instanceof RigidSettings rigid) {
            return solveFailing(backend, scene, rigid);
        }
        try (ContactSolver solver = Backends.open(backend)) {
            return assertThrows(NonFiniteResultException.class, () -> solver.step(scene.bodies, scene.contacts,
                    settings, new Vector3f(0, -9.81f, 0), 0.01f, null, new SolveResult()));
        }
    }

    private static NonFiniteResultException solveFailing(Backend backend, SolveInput scene, RigidSettings settings) {
        try (ContactSolver solver = Backends.open(backend)) {
            NonFiniteResultException failure = assertThrows(NonFiniteResultException.class,
                    () -> solver.solve(scene.bodies, scene.contacts, settings, new SolveResult()));
            assertEquals(Backend.valueOf(backend.name()), solver.backend(), "an overflow is no device failure");
            return failure;
        }
    }

    /** The failed step leaves every body bit as it was, and the next step runs as if it had not been tried. */
    @ParameterizedTest
    @EnumSource(value = Backend.class, names = {"CPU", "OPENCL"})
    void aStepThatOverflowsLeavesTheBodiesUnchanged(Backend backend) {
        SolveInput scene = overflowingImpulse();
        SolveInput reference = overflowingImpulse();
        Vector3f gravity = new Vector3f(0, -9.81f, 0);
        try (ContactSolver solver = Backends.open(backend); ContactSolver cpu = Backends.cpu()) {
            float[] before = fields(scene.bodies);
            for (SolveSettings settings : new SolveSettings[] {SolveSettings.singlePass(), SolveSettings.iterative(20)}) {
                assertThrows(NonFiniteResultException.class, () -> solver.step(scene.bodies, scene.contacts, settings,
                        gravity, 0.01f, null, new SolveResult()));
                assertArrayEquals(before, fields(scene.bodies), "bodies unchanged");
            }
            // the offending body slowed down by the caller: the step then matches a CPU that never failed
            scene.bodies.setLinearVelocity(1, 0, -3, 0);
            reference.bodies.setLinearVelocity(1, 0, -3, 0);
            SolveResult result = solver.step(scene.bodies, scene.contacts, SolveSettings.iterative(20), gravity, 0.01f,
                    null, new SolveResult());
            SolveResult expected = cpu.step(reference.bodies, reference.contacts, SolveSettings.iterative(20), gravity,
                    0.01f, null, new SolveResult());
            Bits.assertIdentical(expected, result, "the step after a refused one");
            assertArrayEquals(fields(reference.bodies), fields(scene.bodies), "bodies after the step");
        }
    }

    /**
     * A step checks what it integrated, not only what it solved: a body moving at 3.3e38 m/s for 64/60 s
     * lands at infinity, and a spin of 1e30 rad/s cannot be renormalised in float; each step refuses,
     * naming the body, and leaves every body as it was, on every scheme and backend.
     */
    @ParameterizedTest
    @EnumSource(value = Backend.class, names = {"CPU", "OPENCL"})
    void aStepWhoseIntegrationOverflowsLeavesTheBodiesUnchanged(Backend backend) {
        for (boolean spin : new boolean[] {false, true}) {
            BodyBatch bodies = new BodyBatch();
            int calm = bodies.add();
            bodies.setParticle(calm, 1.0f).setPosition(calm, 0, 5, 0);
            int wild = bodies.add();
            bodies.setMass(wild, 1.0f).setPosition(wild, 3, 5, 0);
            if (spin) {
                bodies.setAngularVelocity(wild, 1e30f, 0, 0);
            } else {
                bodies.setLinearVelocity(wild, 3.3e38f, 0, 0);
            }
            ContactBatch none = new ContactBatch();
            float[] before = fields(bodies);
            try (ContactSolver solver = Backends.open(backend)) {
                for (SolveSettings settings : new SolveSettings[] {SolveSettings.singlePass(),
                        SolveSettings.iterative(20), SolveSettings.softStep().withSubsteps(SoftStepSettings.MAX_SUBSTEPS)}) {
                    // the longest step the soft step takes under gravity: 64 substeps of 1/60 s
                    NonFiniteResultException refused = assertThrows(NonFiniteResultException.class,
                            () -> solver.step(bodies, none, settings, new Vector3f(0, -9.81f, 0), 64.0f / 60.0f, null,
                                    new SolveResult()), settings.kind() + (spin ? " spin" : " speed"));
                    assertEquals(Subject.BODY, refused.subject());
                    assertEquals(wild, refused.index(), refused.getMessage());
                    if (spin && settings.kind() != SolverKind.SOFT_STEP) {
                        assertEquals(NonFiniteResultException.ORIENTATION_NORM, refused.field(), refused.getMessage());
                    } else if (!spin) {
                        assertEquals("x", refused.field(), refused.getMessage());
                    }
                    assertArrayEquals(before, fields(bodies), "bodies unchanged after " + settings.kind());
                }
                // the wild body calmed by the caller, the step goes through
                bodies.setLinearVelocity(wild, 0, 0, 0).setAngularVelocity(wild, 0, 0, 0);
                solver.step(bodies, none, SolveSettings.singlePass(), new Vector3f(0, -9.81f, 0), 0.01f, null,
                        new SolveResult());
                assertEquals(5.0f - 9.81f * 0.01f * 0.01f, bodies.getPosition(calm, new Vector3f()).y, 1e-6f);
            }
        }
    }

    /**
     * A device whose next bodies come back finite but with an orientation off the unit sphere (its
     * finish kernel edited to stretch body 1's by 1%) is refused as the host's own check refuses
     * it: the device's screen of the orientations sends the host to its scan, which names the body,
     * and the bodies are left as they were.
     */
    @Test
    void aDeviceStepWhoseOrientationLeavesTheUnitSphereIsRefused() {
        OpenClTestAccess.requireDevice();
        String call = "finish_body(bodies, stride, i, state, movable[i] ? i * STATE_STRIDE : -1, motion, gx, gy, gz, dt, next,\n"
                + "                nextStride, deltas, deltaStride);";
        BodyBatch bodies = new BodyBatch();
        for (int i = 0; i < 3; i++) {
            bodies.setMass(bodies.add(), 1.0f).setPosition(i, 3 * i, 5, 0);
        }
        float[] before = fields(bodies);
        SolverConfig config = SolverConfig.defaults().withBackend(Backend.AUTO);
        try (ContactSolver solver = ContactSolver.create(config, selector -> OpenClTestAccess.openWithEdit(selector,
                "soft_step.cl", call, call + "\n    if (i == 1) {\n        next[BODY_QW * nextStride + i] *= 1.01f;\n    }"))) {
            assertEquals(Backend.OPENCL, solver.backend());
            NonFiniteResultException refused = assertThrows(NonFiniteResultException.class,
                    () -> solver.step(bodies, new ContactBatch(), SolveSettings.softStep(), new Vector3f(0, -9.81f, 0),
                            0.01f, null, new SolveResult()));
            assertEquals(Subject.BODY, refused.subject());
            assertEquals(1, refused.index(), refused.getMessage());
            assertEquals(NonFiniteResultException.ORIENTATION_NORM, refused.field(), refused.getMessage());
            assertArrayEquals(before, fields(bodies), "bodies unchanged");
        }
    }

    private static float[] fields(BodyBatch bodies) {
        float[] all = new float[BodyField.COUNT * bodies.size()];
        for (BodyField field : BodyField.values()) {
            for (int i = 0; i < bodies.size(); i++) {
                all[field.ordinal() * bodies.size() + i] = bodies.get(field, i);
            }
        }
        return all;
    }
}
