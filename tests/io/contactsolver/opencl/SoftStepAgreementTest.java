package io.contactsolver.opencl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.contactsolver.Backend;
import io.contactsolver.BodyBatch;
import io.contactsolver.ContactBatch;
import io.contactsolver.ContactSolver;
import io.contactsolver.SolveResult;
import io.contactsolver.SolveSettings;
import io.contactsolver.SoftStepSettings;
import io.contactsolver.SolverConfig;
import io.contactsolver.core.GeometryField;
import io.contactsolver.core.CaptureField;
import io.contactsolver.core.ManifoldVectorField;
import io.contactsolver.layout.BodyField;
import io.contactsolver.layout.ContactBody;
import io.contactsolver.layout.ContactField;
import io.contactsolver.layout.ImpulseField;
import io.contactsolver.scene.BoxContacts;
import io.contactsolver.scene.BoxScene;
import io.contactsolver.testing.Backends;
import io.contactsolver.testing.Bits;
import io.contactsolver.testing.SteppedPyramid;
import java.util.SplittableRandom;
import org.joml.Matrix3f;
import org.joml.Quaternionf;
import org.joml.Vector3f;
import org.junit.jupiter.api.Test;

/**
 * The soft step on the OpenCL kernels against the CPU path they mirror, and the CPU path against
 * itself on one thread and on a team: several consecutive steps, each warm-started from the
 * solver's own previous result (its impulses and its manifolds, which contact recycling keeps) and
 * with contacts found anew from the solver's own bodies (as a simulation would), must give the
 * same bits: every body field after the step, the deltas, all seven impulse fields, the sweeps
 * counted and the residual, with the same points recycled.
 *
 * <p>The scenes: boxes on a grid on the ground, each touching it in a manifold of one to four of
 * its bottom corners (some apart, some overlapping), pressed against its right and front
 * neighbours in manifolds of two points on the shared face (some with a gap), and, with
 * {@code extraPairs}, against farther boxes at one point; tilted and moving at random, seeded, now
 * and then falling fast enough for restitution; some kinematic (no mass, yet moving) and some
 * static. Friction, rolling and torsional resistance and restitution come from each manifold's
 * first id, some of each zero. A solve's crew has one thread per 2,000 manifolds, so the scenes
 * that compare the team of three have at least 6,000.
 */
class SoftStepAgreementTest {
    private static final Vector3f GRAVITY = new Vector3f(0.0f, -9.81f, 0.0f);
    private static final float DT = 1.0f / 60.0f;
    /** The team of the CPU runs that are compared with one thread. */
    private static final int TEAM = 3;

    /** What a scene has beyond boxes on the ground. */
    /** {@code flicker}: on odd steps a third of the boxes touch the ground with a corner fewer, under other ids. */
    private record Recipe(int side, boolean friction, float kinematicShare, float staticShare, int extraPairs,
            boolean flicker) {
    }

    @Test
    void frictionRollingAndTorsionOnManifoldsOfOneToFourPoints() {
        // 60 x 60 boxes: 3,600 ground manifolds of 1 to 4 points, 7,080 of 2 points between neighbours
        Recipe recipe = new Recipe(60, true, 0.0f, 0.0f, 0, false);
        SolveResult last = assertAgree(recipe, 11, SolveSettings.softStep().withIterations(2), 4, true);
        assertTrue(last.contactCount() >= 20_000, "contacts: " + last.contactCount());
        assertTrue(anyNonZero(last, ImpulseField.TX) && anyNonZero(last, ImpulseField.RX), "friction and rolling at work");
    }

    /**
     * Ground manifolds that lose a corner and take other ids every other step: recycled ones keep
     * points no contact has (their impulses shared among the manifold's contacts), fresh ones take
     * the batch's, and the device reports every contact's impulses as the CPU does.
     */
    @Test
    void contactsThatComeAndGoUnderOtherIds() {
        Recipe recipe = new Recipe(60, true, 0.0f, 0.0f, 0, true);
        assertAgree(recipe, 17, SolveSettings.softStep(), 4, true);
    }

    /** Contact recycling off: every manifold taken fresh from the batch every step. */
    @Test
    void recyclingOff() {
        Recipe recipe = new Recipe(60, true, 0.0f, 0.0f, 0, false);
        assertAgree(recipe, 16, SolveSettings.softStep().withRecycleDistance(0.0f), 3, false);
    }

    @Test
    void frictionlessBatch() {
        Recipe recipe = new Recipe(60, false, 0.0f, 0.0f, 0, false);
        SolveResult last = assertAgree(recipe, 12, SolveSettings.softStep(), 3, true);
        assertTrue(!anyNonZero(last, ImpulseField.TX) && !anyNonZero(last, ImpulseField.RX), "no friction at all");
    }

    /**
     * Several soft and relax sweeps a substep: each backend finds the points' separations in the
     * first sweep after the bodies move and reads them in the sweeps after it, each keeping track
     * of the moves on its own.
     */
    @Test
    void severalSoftAndRelaxSweepsASubstep() {
        Recipe recipe = new Recipe(40, true, 0.0f, 0.0f, 0, false);
        assertAgree(recipe, 19, SolveSettings.softStep().withIterations(3).withRelaxIterations(3), 3, true);
    }

    /** More manifolds a body than colours: the overflow rows go serially after the colours, on both. */
    @Test
    void overflowRowsBeyondTheColourBudget() {
        Recipe recipe = new Recipe(40, true, 0.0f, 0.0f, 3, false);
        SolveSettings settings = SolveSettings.softStep().withColourBudget(3).withSubsteps(2).withRelaxIterations(2)
                .withRestitutionThreshold(0.5f);
        SolveResult last = assertAgree(recipe, 13, settings, 3, true);
        assertTrue(last.overflowCount() > 0, "overflow rows: " + last.overflowCount());
    }

    /** Kinematic bodies (inverse mass 0, moving) and static ones among the boxes, beside the world's contacts. */
    @Test
    void kinematicAndStaticBodies() {
        Recipe recipe = new Recipe(50, true, 0.1f, 0.05f, 1, false);
        assertAgree(recipe, 14, SolveSettings.softStep().withPushOutSpeed(1.0f), 3, true);
    }

    /**
     * Recycling on the device: a step whose warm start is the device's own last step writes the
     * recycled points there and sends none of them; one whose warm start came from elsewhere (here
     * the CPU's result, the same bits) has the host write them and sends their geometry and warm
     * values, with the captures and ids the next step recycles from on the device. Either way the
     * bodies move as on the CPU.
     */
    @Test
    void theDeviceRecyclesFromItsOwnLastStepAndTheHostFromAnyOther() {
        Recipe recipe = new Recipe(30, true, 0.05f, 0.0f, 0, false);
        Uploads uploads = uploadsOfSteps(recipe, 18, 5, (step, onCpu, onDevice, cpuResults, deviceResults) -> {
            if (step == 3) {
                // the device's warm start is the CPU's last result: equal bits, but not what the device holds
                deviceResults[(step + 1) & 1] = cpuResults[(step + 1) & 1];
            } else if (step == 4) {
                deviceResults[step & 1] = new SolveResult(); // the device's own result of step 3 is the warm start
            }
        });
        long[] uploaded = uploads.bytes();
        assertEquals(uploaded[2], uploaded[4], "recycled on the device both times");
        // the host's points: geometry, warm normal impulse, capture and id a point (as many as contacts
        // here), warm vectors a manifold, where the device took the previous manifold and fate a manifold
        long extra = uploaded[3] - uploaded[2];
        long perPoint = (long) (GeometryField.COUNT + 1 + CaptureField.COUNT + 1) * Float.BYTES;
        int contacts = uploads.contacts();
        assertTrue(extra > perPoint * contacts && extra <= (perPoint + (long) (ManifoldVectorField.COUNT - 2)
                * Float.BYTES) * contacts, "bytes the host sent for its points: " + extra + ", contacts " + contacts);
    }

    /**
     * The device's copy of the bodies takes the committed state from the device itself: after a step
     * no body field goes up again, and one the host writes between steps goes up alone and is used.
     * Three runs of the same scene, taking the bytes each step sent: one with no write; one whose host
     * writes three fields of one body before step 2, which sends those fields and no more, and then
     * nothing more than the first run; and one whose host writes every field of every body (each
     * with its own value) before step 3, which sends the whole block there: so the run without
     * writes sent none of it.
     */
    @Test
    void committedStateIsNotSentAgainButAHostWriteIs() {
        Recipe recipe = new Recipe(30, true, 0.05f, 0.0f, 0, false);
        Uploads none = uploadsOfSteps(recipe, 15, 5, (step, onCpu, onDevice, cpuResults, deviceResults) -> {
        });
        Uploads some = uploadsOfSteps(recipe, 15, 5, (step, onCpu, onDevice, cpuResults, deviceResults) -> {
            if (step == 2) {
                // the host writes VX, VY, VZ of one body (stamping those three fields) on both sides
                onCpu.setLinearVelocity(7, 0.5f, 0.25f, -0.125f);
                onDevice.setLinearVelocity(7, 0.5f, 0.25f, -0.125f);
            }
        });
        Uploads all = uploadsOfSteps(recipe, 15, 5, (step, onCpu, onDevice, cpuResults, deviceResults) -> {
            if (step == 3) {
                for (BodyBatch bodies : new BodyBatch[] {onCpu, onDevice}) {
                    for (BodyField field : BodyField.values()) {
                        for (int i = 0; i < bodies.size(); i++) {
                            bodies.set(field, i, bodies.get(field, i));
                        }
                    }
                }
            }
        });
        long count = none.bodies();
        assertEquals(3L * count * Float.BYTES, some.bytes()[2] - none.bytes()[2], "a host write: that field and no more");
        assertEquals(none.bytes()[3], some.bytes()[3], "after it, nothing more");
        assertEquals((long) BodyField.COUNT * count * Float.BYTES, all.bytes()[3] - none.bytes()[3],
                "every field written: the whole block, which the run without writes did not send");
        assertEquals(none.bytes()[4], all.bytes()[4], "after it, nothing more");
    }

    /**
     * What the host makes of a batch (the manifold numbers as noted, the manifolds' firsts, each
     * row's and manifold's first point, the contacts' ids, the recycling's matches and fates) goes
     * up only when it changed: a box pyramid stepped with the same contact batch sends, from its
     * third step on, only the output checks' slots; its contacts found anew before each step (the
     * same pairs, ids and numbers), the contact and link fields on top, and none of the host's
     * arrays. The bits are the CPU's throughout.
     */
    @Test
    void whatTheHostMadeGoesUpOnlyWhenItChanged() {
        SteppedPyramid cpuRun = new SteppedPyramid();
        SteppedPyramid deviceRun = new SteppedPyramid();
        BodyBatch onCpu = cpuRun.bodies;
        BodyBatch onDevice = deviceRun.bodies;
        ContactBatch cpuContacts = cpuRun.contacts;
        ContactBatch deviceContacts = deviceRun.contacts;
        cpuRun.findContacts();
        deviceRun.findContacts();
        Vector3f gravity = new Vector3f(0.0f, -10.0f, 0.0f);
        SolveResult[] cpuResults = {new SolveResult(), new SolveResult()};
        SolveResult[] deviceResults = {new SolveResult(), new SolveResult()};
        try (ContactSolver cpu = Backends.cpu(); ContactSolver openCl = Backends.openClOrSkip()) {
            for (int step = 0; step < 10; step++) {
                boolean foundAnew = step >= 6;
                if (foundAnew) {
                    cpuRun.findContacts();
                    deviceRun.findContacts();
                }
                SolveResult expected = cpu.step(onCpu, cpuContacts, SolveSettings.softStep(), gravity, DT,
                        step == 0 ? null : cpuResults[(step + 1) & 1], cpuResults[step & 1]);
                SolveResult actual = openCl.step(onDevice, deviceContacts, SolveSettings.softStep(), gravity, DT,
                        step == 0 ? null : deviceResults[(step + 1) & 1], deviceResults[step & 1]);
                String what = "step " + step;
                assertEquals(Backend.OPENCL, actual.backend(), what);
                Bits.assertIdentical(expected, actual, what);
                Bits.assertIdentical(onCpu, onDevice, what + ": bodies");
                long contacts = deviceContacts.size();
                long always = (long) SoftStepPipeline.OutputChecks.COUNT * Integer.BYTES;
                long fields = foundAnew ? contacts * (ContactField.COUNT + ContactBody.COUNT) * Float.BYTES : 0;
                if (step >= 2) {
                    assertEquals(always + fields, actual.bytesUploaded(), what + ": bytes sent");
                }
            }
        }
    }

    /** What a test does before each step of {@link #uploadsOfSteps}: to the bodies, or to the results a step reads and writes. */
    private interface BeforeStep {
        void run(int step, BodyBatch onCpu, BodyBatch onDevice, SolveResult[] cpuResults, SolveResult[] deviceResults);
    }

    /** The bytes each step sent to the device, and the last step's contacts and bodies. */
    private record Uploads(long[] bytes, int contacts, int bodies) {
    }

    /**
     * Steps a scene {@code steps} times on the CPU and on the device ({@link #stepBoth}, the same bits
     * each step), {@code before} run before each, and returns the bytes each device step sent.
     */
    private static Uploads uploadsOfSteps(Recipe recipe, long seed, int steps, BeforeStep before) {
        BodyBatch onCpu = bodies(recipe, seed);
        BodyBatch onDevice = bodies(recipe, seed);
        ContactBatch cpuContacts = new ContactBatch();
        ContactBatch deviceContacts = new ContactBatch();
        long[] uploaded = new long[steps];
        int contacts = 0;
        try (ContactSolver cpu = Backends.cpu(); ContactSolver openCl = Backends.openClOrSkip()) {
            SolveResult[] cpuResults = {new SolveResult(), new SolveResult()};
            SolveResult[] deviceResults = {new SolveResult(), new SolveResult()};
            for (int step = 0; step < steps; step++) {
                before.run(step, onCpu, onDevice, cpuResults, deviceResults);
                SolveResult actual = stepBoth(cpu, openCl, recipe, onCpu, onDevice, cpuContacts, deviceContacts,
                        SolveSettings.softStep(), step, cpuResults, deviceResults);
                uploaded[step] = actual.bytesUploaded();
                contacts = actual.contactCount();
            }
        }
        return new Uploads(uploaded, contacts, onDevice.size());
    }

    /**
     * The box pyramid of the bench (20 rows, 2,360 contacts: manifolds of four corner points a face,
     * friction 0.6), its contacts found anew from each backend's own bodies before every step and its
     * manifolds recycled from the step before: the same bits on the CPU at one and at three threads
     * and on the device, step after step.
     */
    @Test
    void theBoxPyramidStepsToTheSameBitsEverywhere() {
        BodyBatch[] bodies = {BoxScene.pyramid(20).bodies(), BoxScene.pyramid(20).bodies(),
                BoxScene.pyramid(20).bodies()};
        ContactBatch[] contacts = {new ContactBatch(), new ContactBatch(), new ContactBatch()};
        BoxContacts[] collision = new BoxContacts[3];
        SolveResult[][] results = new SolveResult[3][2];
        for (int k = 0; k < 3; k++) {
            collision[k] = new BoxContacts(BoxScene.HALF_EXTENT, 0.02f, BoxContacts.DEFAULT_FRICTION);
            results[k][0] = new SolveResult();
            results[k][1] = new SolveResult();
        }
        SolveSettings settings = SolveSettings.softStep();
        Vector3f gravity = new Vector3f(0.0f, -10.0f, 0.0f);
        try (ContactSolver one = ContactSolver.create(SolverConfig.defaults().withBackend(Backend.CPU).withThreads(1));
                ContactSolver three = ContactSolver.create(SolverConfig.defaults().withBackend(Backend.CPU)
                        .withThreads(3));
                ContactSolver openCl = Backends.openClOrSkip()) {
            ContactSolver[] solvers = {one, three, openCl};
            for (int step = 0; step < 12; step++) {
                for (int k = 0; k < 3; k++) {
                    collision[k].find(bodies[k], contacts[k]);
                    solvers[k].step(bodies[k], contacts[k], settings, gravity, DT,
                            step == 0 ? null : results[k][(step + 1) & 1], results[k][step & 1]);
                }
                String what = "pyramid, step " + step;
                assertEquals(2360, contacts[0].size(), what + ": contacts");
                assertEquals(Backend.OPENCL, results[2][step & 1].backend(), what + ": stayed on the device");
                assertEquals(step > 0, results[0][step & 1].recycledCount() > 0, what + ": recycled points");
                for (int k = 1; k < 3; k++) {
                    Bits.assertIdentical(results[0][step & 1], results[k][step & 1], what + ", solver " + k);
                    Bits.assertIdentical(bodies[0], bodies[k], what + ", solver " + k);
                    assertSameFigures(results[0][step & 1], results[k][step & 1], what + ", solver " + k);
                }
            }
        }
    }

    /**
     * One device solver steps pyramids of 10, 210 and again 10 boxes in turn, each from its own
     * bodies and results: its buffers grow and its kernels take new buffers and counts between the
     * launches (a kernel keeps the arguments of its last launch, and a launch sets only those that
     * changed), and every step moves the boxes as the CPU does, to the bit.
     */
    @Test
    void oneDeviceSolverStepsScenesOfOtherSizesInTurn() {
        int[] bases = {4, 20, 4};
        SoftStepSettings settings = SolveSettings.softStep();
        Vector3f gravity = new Vector3f(0.0f, -10.0f, 0.0f);
        try (ContactSolver cpu = Backends.cpu(1); ContactSolver openCl = Backends.openClOrSkip()) {
            for (int k = 0; k < bases.length; k++) {
                BodyBatch onCpu = BoxScene.pyramid(bases[k]).bodies();
                BodyBatch onDevice = BoxScene.pyramid(bases[k]).bodies();
                ContactBatch cpuContacts = new ContactBatch();
                ContactBatch deviceContacts = new ContactBatch();
                BoxContacts collision = new BoxContacts(BoxScene.HALF_EXTENT, 0.02f, BoxContacts.DEFAULT_FRICTION);
                SolveResult[] cpuResults = {new SolveResult(), new SolveResult()};
                SolveResult[] deviceResults = {new SolveResult(), new SolveResult()};
                for (int step = 0; step < 3; step++) {
                    collision.find(onCpu, cpuContacts);
                    collision.find(onDevice, deviceContacts);
                    SolveResult expected = cpu.step(onCpu, cpuContacts, settings, gravity, DT,
                            step == 0 ? null : cpuResults[(step + 1) & 1], cpuResults[step & 1]);
                    SolveResult actual = openCl.step(onDevice, deviceContacts, settings, gravity, DT,
                            step == 0 ? null : deviceResults[(step + 1) & 1], deviceResults[step & 1]);
                    String what = "pyramid of base " + bases[k] + " (scene " + k + "), step " + step;
                    assertEquals(Backend.OPENCL, actual.backend(), what + ": stayed on the device");
                    Bits.assertIdentical(expected, actual, what);
                    Bits.assertIdentical(onCpu, onDevice, what);
                    assertSameFigures(expected, actual, what);
                }
            }
        }
    }

    /**
     * Outputs on request on the device: a bodies-only step moves the pyramid to the full CPU step's
     * bits, and sends back as many bytes as a full step on the device, which reports every contact's
     * impulses and works out every body's velocity change there and leaves them there until its
     * result reads them; read, they are the CPU's bits.
     */
    @Test
    void aBodiesOnlyStepOnTheDeviceMovesTheBodiesAsTheFullStepAndSendsNeitherDeltasNorImpulses() {
        SoftStepSettings full = SolveSettings.softStep();
        SoftStepSettings bodiesOnly = full.withDeltas(false).withImpulses(false);
        SoftStepSettings[] settings = {full, full, bodiesOnly};
        BodyBatch[] bodies = new BodyBatch[3];
        ContactBatch[] contacts = new ContactBatch[3];
        BoxContacts[] collision = new BoxContacts[3];
        SolveResult[][] results = new SolveResult[3][2];
        for (int k = 0; k < 3; k++) {
            bodies[k] = BoxScene.pyramid(20).bodies();
            contacts[k] = new ContactBatch();
            collision[k] = new BoxContacts(BoxScene.HALF_EXTENT, 0.02f, BoxContacts.DEFAULT_FRICTION);
            results[k][0] = new SolveResult();
            results[k][1] = new SolveResult();
        }
        Vector3f gravity = new Vector3f(0.0f, -10.0f, 0.0f);
        try (ContactSolver cpu = Backends.cpu(2); ContactSolver deviceFull = Backends.openClOrSkip();
                ContactSolver deviceLean = Backends.openClOrSkip()) {
            ContactSolver[] solvers = {cpu, deviceFull, deviceLean};
            for (int step = 0; step < 8; step++) {
                for (int k = 0; k < 3; k++) {
                    collision[k].find(bodies[k], contacts[k]);
                    solvers[k].step(bodies[k], contacts[k], settings[k], gravity, DT,
                            step == 0 ? null : results[k][(step + 1) & 1], results[k][step & 1]);
                }
                String what = "pyramid, bodies only, step " + step;
                SolveResult lean = results[2][step & 1];
                assertEquals(Backend.OPENCL, lean.backend(), what + ": stayed on the device");
                assertTrue(!lean.hasDeltas() && !lean.hasImpulses(), what + ": holds neither");
                Bits.assertIdentical(bodies[0], bodies[2], what);
                Bits.assertIdentical(bodies[0], bodies[1], what + ", full on the device");
                assertEquals(results[1][step & 1].bytesDownloaded(), lean.bytesDownloaded(), what + ": bytes sent back");
                Bits.assertIdentical(results[0][step & 1], results[1][step & 1], what + ": the full step's outputs, read");
            }
        }
    }

    /**
     * Steps the CPU on one thread, the CPU on a team and the device {@code steps} times from the same
     * scene and asserts the same bits after each; whether points were recycled after the first step
     * is {@code recycles}. Returns the last device result.
     */
    private static SolveResult assertAgree(Recipe recipe, long seed, SolveSettings settings, int steps,
            boolean recycles) {
        BodyBatch[] bodies = {bodies(recipe, seed), bodies(recipe, seed), bodies(recipe, seed)};
        ContactBatch[] contacts = {new ContactBatch(), new ContactBatch(), new ContactBatch()};
        SolveResult[][] results = new SolveResult[3][2];
        for (SolveResult[] pair : results) {
            pair[0] = new SolveResult();
            pair[1] = new SolveResult();
        }
        SolveResult last = null;
        try (ContactSolver one = Backends.cpu(1); ContactSolver team = Backends.cpu(TEAM);
                ContactSolver openCl = Backends.openClOrSkip()) {
            ContactSolver[] solvers = {one, team, openCl};
            for (int step = 0; step < steps; step++) {
                for (int k = 0; k < 3; k++) {
                    findContacts(recipe, bodies[k], contacts[k], step);
                    solvers[k].step(bodies[k], contacts[k], settings, GRAVITY, DT,
                            step == 0 ? null : results[k][(step + 1) & 1], results[k][step & 1]);
                }
                SolveResult expected = results[0][step & 1];
                String what = settings + ", step " + step;
                assertEquals(Backend.OPENCL, results[2][step & 1].backend(), what + ": stayed on the device");
                assertTrue(expected.residual() > 0.0f, what + ": the step did something");
                assertEquals(recycles && step > 0, expected.recycledCount() > 0,
                        what + ": recycled points " + expected.recycledCount());
                for (int k = 1; k < 3; k++) {
                    SolveResult actual = results[k][step & 1];
                    String by = what + (k == 1 ? ", CPU team of " + TEAM : ", OpenCL");
                    Bits.assertIdentical(expected, actual, by);
                    Bits.assertIdentical(bodies[0], bodies[k], by);
                    assertSameFigures(expected, actual, by);
                }
                last = results[2][step & 1];
            }
        }
        return last;
    }

    private static void assertSameFigures(SolveResult expected, SolveResult actual, String what) {
        assertEquals(expected.iterations(), actual.iterations(), what + ": sweeps");
        assertEquals(Float.floatToRawIntBits(expected.residual()), Float.floatToRawIntBits(actual.residual()),
                what + ": residual " + expected.residual() + " vs " + actual.residual());
        assertEquals(expected.colourCount(), actual.colourCount(), what + ": colours");
        assertEquals(expected.overflowCount(), actual.overflowCount(), what + ": overflow");
        assertEquals(expected.recycledCount(), actual.recycledCount(), what + ": recycled points");
    }

    /** One step on the CPU and on the device, each from its own bodies and last result; returns the device's. */
    private static SolveResult stepBoth(ContactSolver cpu, ContactSolver openCl, Recipe recipe, BodyBatch onCpu,
            BodyBatch onDevice, ContactBatch cpuContacts, ContactBatch deviceContacts, SolveSettings settings, int step,
            SolveResult[] cpuResults, SolveResult[] deviceResults) {
        findContacts(recipe, onCpu, cpuContacts, step);
        findContacts(recipe, onDevice, deviceContacts, step);
        SolveResult expected = cpu.step(onCpu, cpuContacts, settings, GRAVITY, DT,
                step == 0 ? null : cpuResults[(step + 1) & 1], cpuResults[step & 1]);
        SolveResult actual = openCl.step(onDevice, deviceContacts, settings, GRAVITY, DT,
                step == 0 ? null : deviceResults[(step + 1) & 1], deviceResults[step & 1]);
        String what = settings + ", step " + step;
        assertEquals(Backend.OPENCL, actual.backend(), what + ": stayed on the device");
        Bits.assertIdentical(expected, actual, what);
        Bits.assertIdentical(onCpu, onDevice, what);
        assertSameFigures(expected, actual, what);
        return actual;
    }

    private static boolean anyNonZero(SolveResult result, ImpulseField field) {
        for (int c = 0; c < result.contactCount(); c++) {
            if (result.impulse(field, c) != 0.0f) {
                return true;
            }
        }
        return false;
    }

    /** A grid of unit boxes, side by side, near the ground, tilted and moving at random; some kinematic or static. */
    private static BodyBatch bodies(Recipe recipe, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        BodyBatch bodies = new BodyBatch(recipe.side() * recipe.side());
        Quaternionf q = new Quaternionf();
        for (int gx = 0; gx < recipe.side(); gx++) {
            for (int gz = 0; gz < recipe.side(); gz++) {
                int box = bodies.add();
                // neighbours 1.0 +- 0.02 apart: some pressed together, some with a gap
                bodies.setPosition(box, gx * 1.0f + uniform(random, 0.02f), 0.5f + uniform(random, 0.03f),
                        gz * 1.0f + uniform(random, 0.02f));
                q.identity().rotateY(uniform(random, 0.2f)).rotateX(uniform(random, 0.02f))
                        .rotateZ(uniform(random, 0.02f));
                bodies.setOrientation(box, q);
                // now and then one falls fast enough for restitution
                float fall = random.nextDouble() < 0.1 ? -3.0f : uniform(random, 0.5f);
                bodies.setLinearVelocity(box, uniform(random, 0.5f), fall, uniform(random, 0.5f));
                bodies.setAngularVelocity(box, uniform(random, 0.5f), uniform(random, 0.5f), uniform(random, 0.5f));
                double kind = random.nextDouble();
                if (kind < recipe.kinematicShare()) {
                    bodies.setStatic(box); // no mass, yet it keeps its velocity: kinematic
                } else if (kind < recipe.kinematicShare() + recipe.staticShare()) {
                    bodies.setStatic(box).setLinearVelocity(box, 0.0f, 0.0f, 0.0f).setAngularVelocity(box, 0.0f,
                            0.0f, 0.0f);
                } else {
                    float mass = (float) (0.5 + 1.5 * random.nextDouble());
                    // a box a little out of cube, so the inertia is not isotropic
                    float a = 1.0f + uniform(random, 0.2f);
                    float b = 1.0f + uniform(random, 0.2f);
                    float c = 1.0f + uniform(random, 0.2f);
                    bodies.setMassProperties(box, mass, new Matrix3f().scaling(mass / 12.0f * (b * b + c * c),
                            mass / 12.0f * (a * a + c * c), mass / 12.0f * (a * a + b * b)));
                }
            }
        }
        return bodies;
    }

    /**
     * Each box against the ground y = 0 in one manifold of 1 to 4 of its bottom corners (how many
     * goes with the box), then against its right and front neighbours in a manifold of two points
     * on the shared face, a quarter of a box either side of the centres' midpoint (and, with
     * {@code extraPairs}, against farther ones at one point, so a body has more manifolds than a
     * small colour budget), the gap or overlap from the centres. Ids are stable from step to step
     * (sixteen a box), so the warm start and recycling find them; a manifold's points share its
     * normal and its friction, rolling and torsional resistance and restitution, which come from its
     * first id, the same every step.
     */
    private static void findContacts(Recipe recipe, BodyBatch bodies, ContactBatch contacts, int step) {
        contacts.clear();
        int side = recipe.side();
        Vector3f x = new Vector3f();
        Vector3f other = new Vector3f();
        Vector3f corner = new Vector3f();
        Quaternionf q = new Quaternionf();
        int manifold = 0;
        for (int box = 0; box < bodies.size(); box++) {
            bodies.getPosition(box, x);
            bodies.getOrientation(box, q);
            int id = 16 * box;
            int corners = 1 + (box * 7 + box / side) % 4;
            // flickering: corners 1 .. corners-1 of the box, ids shifted by 8 (none of the usual ones)
            boolean fewer = recipe.flicker() && (step & 1) == 1 && corners > 1 && box % 3 == 0;
            for (int k = fewer ? 1 : 0; k < corners; k++) {
                int sx = (k & 1) == 0 ? -1 : 1;
                int sz = k < 2 ? -1 : 1;
                q.transform(corner.set(0.5f * sx, -0.5f, 0.5f * sz)).add(x);
                int c = contacts.add(ContactBatch.WORLD, box, corner.x, 0.0f, corner.z, 0.0f, 1.0f, 0.0f,
                        restitution(id));
                contacts.setSeparation(c, corner.y).setId(c, id + k + (fewer ? 8 : 0)).setManifold(c, manifold);
                material(recipe, contacts, c, id);
            }
            manifold++;
            int gx = box / side;
            int gz = box % side;
            int[][] offsets = {{1, 0}, {0, 1}, {1, 1}, {2, 0}, {0, 2}};
            for (int k = 0; k < 2 + recipe.extraPairs(); k++) {
                int ngx = gx + offsets[k][0];
                int ngz = gz + offsets[k][1];
                if (ngx >= side || ngz >= side) {
                    continue;
                }
                int neighbour = ngx * side + ngz;
                bodies.getPosition(neighbour, other);
                Vector3f normal = other.sub(x, new Vector3f());
                float distance = normal.length();
                normal.div(distance);
                Vector3f middle = x.add(other, new Vector3f()).mul(0.5f);
                boolean face = offsets[k][0] + offsets[k][1] == 1;
                float reach = face ? 1.0f : distance - 0.01f;
                // along the face, across the normal: a quarter of a box either side of the middle
                Vector3f along = new Vector3f(-normal.z, 0.0f, normal.x).normalize(0.25f);
                int first = 4 + 2 * k;
                for (int point = 0; point < (face ? 2 : 1); point++) {
                    Vector3f at = face ? middle.add(point == 0 ? along : along.negate(new Vector3f()), new Vector3f())
                            : middle;
                    int c = contacts.add(box, neighbour, at.x, at.y, at.z, normal.x, normal.y, normal.z,
                            restitution(id + first));
                    contacts.setSeparation(c, distance - reach).setId(c, id + first + point).setManifold(c, manifold);
                    material(recipe, contacts, c, id + first);
                }
                manifold++;
            }
        }
    }

    private static float restitution(int id) {
        return (id * 7 % 10) / 20.0f;
    }

    /** Friction, rolling and torsional resistance by a manifold's first id: some of each zero. */
    private static void material(Recipe recipe, ContactBatch contacts, int c, int id) {
        if (!recipe.friction()) {
            return;
        }
        int hash = id * 0x9E3779B1 >>> 16;
        contacts.setFriction(c, hash % 5 == 0 ? 0.0f : (hash % 9) / 10.0f);
        contacts.setRollingResistance(c, hash % 3 == 0 ? 0.0f : (hash % 7) / 100.0f);
        contacts.setTorsion(c, hash % 4 == 0 ? 0.0f : (hash % 11) / 200.0f);
    }

    private static float uniform(SplittableRandom random, float half) {
        return (float) ((random.nextDouble() * 2.0 - 1.0) * half);
    }
}
