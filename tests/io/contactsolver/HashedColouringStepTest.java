package io.contactsolver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.contactsolver.core.SolverBackend;
import io.contactsolver.layout.ImpulseField;
import io.contactsolver.opencl.OpenClTestAccess;
import io.contactsolver.scene.Scene;
import io.contactsolver.scene.SceneGenerator;
import io.contactsolver.testing.Backends;
import io.contactsolver.testing.Bits;
import io.contactsolver.testing.SteppedPyramid;
import org.joml.Vector3f;
import org.junit.jupiter.api.Test;

/**
 * The soft step with its manifolds coloured in the hashed order ({@link ColouringOrder#HASHED}):
 * the same bits on one CPU thread, on a team and on a device that colours on the device (as a GPU
 * does; forced here on any device), step after step, warm started from each solver's own results;
 * another solve order than the contact order's. (Here, beside {@link PinnedStagingTest}, because
 * only this package may hand a solver its backend.)
 */
class HashedColouringStepTest {
    private static final Vector3f GRAVITY = new Vector3f(0.0f, -9.81f, 0.0f);
    private static final SoftStepSettings HASHED = SolveSettings.softStep().withColouringOrder(ColouringOrder.HASHED);

    /** A pile whose contacts stay in the batch: coloured on the device at the first step, then kept. */
    @Test
    void aPileStepsToTheSameBitsOnTheCpuItsTeamAndADeviceThatColours() {
        OpenClTestAccess.requireDevice();
        SolverBackend[] opened = new SolverBackend[1];
        Scene[] scenes = {SceneGenerator.pileWithContacts(5, 6000, 0.2f), SceneGenerator.pileWithContacts(5, 6000, 0.2f),
            SceneGenerator.pileWithContacts(5, 6000, 0.2f)};
        try (ContactSolver one = Backends.cpu(1); ContactSolver team = Backends.cpu(3);
                ContactSolver device = ContactSolver.create(SolverConfig.defaults().withBackend(Backend.OPENCL),
                        selector -> opened[0] = OpenClTestAccess.openColouringOnDevice(selector))) {
            ContactSolver[] solvers = {one, team, device};
            SolveHistory[] histories = {new SolveHistory(), new SolveHistory(), new SolveHistory()};
            for (int step = 0; step < 3; step++) {
                SolveResult[] results = new SolveResult[3];
                for (int k = 0; k < 3; k++) {
                    results[k] = solvers[k].step(scenes[k].bodies(), scenes[k].contacts(), HASHED, GRAVITY, 0.002f,
                            histories[k]);
                }
                if (step == 0) {
                    assertTrue(OpenClTestAccess.colouringRounds(opened[0]) > 0, "the device coloured the manifolds");
                }
                assertEquals(Backend.OPENCL, results[2].backend());
                for (int k = 1; k < 3; k++) {
                    String what = (k == 1 ? "CPU team" : "OpenCL") + ", step " + step;
                    Bits.assertIdentical(results[0], results[k], what);
                    Bits.assertIdentical(scenes[0].bodies(), scenes[k].bodies(), what);
                    assertEquals(results[0].colourCount(), results[k].colourCount(), what);
                }
            }
        }
    }

    /**
     * A pyramid whose contacts are found anew from its bodies every step, its last ten contacts
     * dropped on odd steps (pairs that change: the device colours again), on the CPU and on a device
     * that colours.
     */
    @Test
    void aPyramidWhoseContactsComeAndGoStepsToTheSameBits() {
        OpenClTestAccess.requireDevice();
        SteppedPyramid onCpu = new SteppedPyramid();
        SteppedPyramid onDevice = new SteppedPyramid();
        SolverBackend[] opened = new SolverBackend[1];
        try (ContactSolver cpu = Backends.cpu();
                ContactSolver device = ContactSolver.create(SolverConfig.defaults().withBackend(Backend.OPENCL),
                        selector -> opened[0] = OpenClTestAccess.openColouringOnDevice(selector))) {
            SolveHistory cpuHistory = new SolveHistory();
            SolveHistory deviceHistory = new SolveHistory();
            for (int step = 0; step < 6; step++) {
                for (SteppedPyramid pyramid : new SteppedPyramid[] {onCpu, onDevice}) {
                    pyramid.findContacts();
                    if (step % 2 == 1) {
                        pyramid.contacts.setSize(pyramid.contacts.size() - 10);
                    }
                }
                SolveResult expected = cpu.step(onCpu.bodies, onCpu.contacts, HASHED, GRAVITY, 1.0f / 60.0f,
                        cpuHistory);
                SolveResult actual = device.step(onDevice.bodies, onDevice.contacts, HASHED, GRAVITY, 1.0f / 60.0f,
                        deviceHistory);
                assertEquals(Backend.OPENCL, actual.backend());
                Bits.assertIdentical(expected, actual, "step " + step);
                Bits.assertIdentical(onCpu.bodies, onDevice.bodies, "step " + step);
            }
            assertTrue(OpenClTestAccess.colourings(opened[0]) >= 6, "the device coloured every step whose pairs "
                    + "changed: " + OpenClTestAccess.colourings(opened[0]));
        }
    }

    /** A device that fails as it colours is dropped: the step runs on the CPU, to the CPU's bits. */
    @Test
    void aDeviceFailingAsItColoursIsDroppedAndTheCpuStepsAlike() {
        assertDroppedForTheCpu(9, selector -> OpenClTestAccess.colouringOnDevice(
                OpenClTestAccess.openFailingAt(selector, "colouring")), "after the device failed while colouring");
    }

    /**
     * A device whose rounds stop colouring (a kernel whose waiting rows never claim their bodies)
     * is caught after a batch of rounds that colours nothing, not waited on for ever: it is dropped,
     * and the CPU steps alike.
     */
    @Test
    void aDeviceWhoseRoundsStopColouringIsDroppedNotWaitedOn() {
        assertDroppedForTheCpu(10, selector -> OpenClTestAccess.colouringOnDevice(OpenClTestAccess.openWithEdit(
                selector, "colouring.cl", "colour_claim_bodies(next, bodyA, moveA, bodyB, moveB, priority);",
                "/* no claim */")), "after the device's colouring stopped");
    }

    /** A pile's hashed step on a device {@code openCl} opens lands on the CPU, to the CPU's bits. */
    private static void assertDroppedForTheCpu(long seed, ContactSolver.OpenClFactory openCl, String what) {
        OpenClTestAccess.requireDevice();
        Scene onCpu = SceneGenerator.pileWithContacts(seed, 2000, 0.2f);
        Scene onDevice = SceneGenerator.pileWithContacts(seed, 2000, 0.2f);
        try (ContactSolver cpu = Backends.cpu();
                ContactSolver device = ContactSolver.create(SolverConfig.defaults().withBackend(Backend.OPENCL),
                        openCl)) {
            SolveResult expected = cpu.step(onCpu.bodies(), onCpu.contacts(), HASHED, GRAVITY, 0.002f,
                    new SolveHistory());
            SolveResult actual = device.step(onDevice.bodies(), onDevice.contacts(), HASHED, GRAVITY, 0.002f,
                    new SolveHistory());
            assertEquals(Backend.CPU, actual.backend(), what + ": the device dropped");
            Bits.assertIdentical(expected, actual, what);
            Bits.assertIdentical(onCpu.bodies(), onDevice.bodies(), what);
        }
    }

    /** The two orders solve the rows in different orders: a resting pyramid's impulses differ in their bits. */
    @Test
    void theHashedOrderSolvesInAnotherOrderThanTheContactOrder() {
        SteppedPyramid inContactOrder = new SteppedPyramid();
        SteppedPyramid hashed = new SteppedPyramid();
        try (ContactSolver cpu = Backends.cpu()) {
            SolveHistory first = new SolveHistory();
            SolveHistory second = new SolveHistory();
            SolveResult a = null;
            SolveResult b = null;
            for (int step = 0; step < 3; step++) {
                inContactOrder.findContacts();
                hashed.findContacts();
                a = cpu.step(inContactOrder.bodies, inContactOrder.contacts, SolveSettings.softStep(), GRAVITY,
                        1.0f / 60.0f, first);
                b = cpu.step(hashed.bodies, hashed.contacts, HASHED, GRAVITY, 1.0f / 60.0f, second);
            }
            int differ = 0;
            for (int c = 0; c < a.contactCount(); c++) {
                differ += Float.floatToRawIntBits(a.impulse(ImpulseField.J, c)) != Float.floatToRawIntBits(
                        b.impulse(ImpulseField.J, c)) ? 1 : 0;
            }
            assertTrue(differ > a.contactCount() / 2, differ + " of " + a.contactCount() + " impulses differ");
        }
    }

    @Test
    void theSettingIsNamedAndRefusesNull() {
        assertEquals(ColouringOrder.CONTACT, SolveSettings.softStep().colouringOrder());
        assertEquals(ColouringOrder.HASHED, HASHED.colouringOrder());
        assertNotEquals(SolveSettings.softStep(), HASHED);
        assertEquals(HASHED, SolveSettings.softStep().withColouringOrder(ColouringOrder.HASHED));
        assertTrue(HASHED.toString().contains("colouringOrder=HASHED"), HASHED.toString());
        assertTrue(!SolveSettings.softStep().toString().contains("colouringOrder"));
        NullPointerException refused = assertThrows(NullPointerException.class,
                () -> SolveSettings.softStep().withColouringOrder(null));
        assertEquals("colouring order", refused.getMessage());
    }
}
