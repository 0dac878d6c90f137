package io.contactsolver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.contactsolver.core.CaptureField;
import io.contactsolver.core.ManifoldCache;
import io.contactsolver.core.ManifoldVectorField;
import io.contactsolver.core.SoftStepJob;
import io.contactsolver.layout.DeltaField;
import io.contactsolver.layout.ImpulseField;
import io.contactsolver.testing.Backends;
import io.contactsolver.testing.Bits;
import io.contactsolver.testing.SteppedPyramid;
import org.joml.Vector3f;
import org.junit.jupiter.api.Test;

/**
 * A soft step on the device keeps what the next step recycles from (the points' captures, ids and
 * normal impulses, the manifolds' vectors) on the device, and reads none of it back: only the
 * bodies and checks cross; the contacts' impulses and the bodies' velocity changes wait there until
 * the result reads them. The host gets the cache when it reads it, when the device is about to
 * write over it, or when the solver closes, and it then holds the CPU's bits; so do the impulses and
 * the velocity changes, however they come down.
 */
class SoftStepCacheOnDeviceTest {
    private static final float DT = 1.0f / 60.0f;
    private static final Vector3f GRAVITY = new Vector3f(0.0f, -10.0f, 0.0f);

    /** A box pyramid stepped on one backend, its contacts found anew from its own bodies before each step. */
    private static final class Run {
        final SteppedPyramid pyramid = new SteppedPyramid();
        final BodyBatch bodies = pyramid.bodies;
        final ContactBatch contacts = pyramid.contacts;
        final SolveResult[] results;

        Run(int results) {
            this.results = new SolveResult[results];
            for (int k = 0; k < results; k++) {
                this.results[k] = new SolveResult();
            }
        }

        /** Step {@code step}: into result {@code step % n}, from the one before. */
        SolveResult step(ContactSolver solver, int step) {
            int n = results.length;
            pyramid.findContacts();
            return solver.step(bodies, contacts, SolveSettings.softStep(), GRAVITY, DT,
                    step == 0 ? null : results[(step + n - 1) % n], results[step % n]);
        }
    }

    @Test
    void aStepOnTheDeviceReadsBackNoneOfItsCache() {
        Run onCpu = new Run(2);
        Run onDevice = new Run(2);
        try (ContactSolver cpu = Backends.cpu(); ContactSolver openCl = Backends.openClOrSkip()) {
            for (int step = 0; step < 5; step++) {
                SolveResult expected = onCpu.step(cpu, step);
                SolveResult actual = onDevice.step(openCl, step);
                String what = "step " + step;
                assertEquals(Backend.OPENCL, actual.backend(), what);
                ManifoldCache cache = actual.manifoldCache();
                assertTrue(cache.heldOnDevice(), what + ": the cache stayed on the device");
                long results = (long) actual.bodyCount() * SoftStepJob.BODY_STATE_FIELDS * Float.BYTES;
                long captures = (long) cache.pointCount() * CaptureField.COUNT * Float.BYTES;
                assertTrue(actual.bytesDownloaded() >= results && actual.bytesDownloaded() - results < 64,
                        what + ": " + actual.bytesDownloaded() + " bytes read back, " + results
                                + " of them the bodies (the captures alone would be " + captures + ", the impulses "
                                + (long) actual.contactCount() * ImpulseField.COUNT * Float.BYTES + ", the deltas "
                                + (long) actual.bodyCount() * DeltaField.COUNT * Float.BYTES + ")");
                Bits.assertIdentical(expected, actual, what);
                Bits.assertIdentical(onCpu.bodies, onDevice.bodies, what + ": bodies");
            }
            ManifoldCache last = onDevice.results[0].manifoldCache();
            assertSameCache(onCpu.results[0].manifoldCache(), last, "the last step's cache, read on the host");
            assertFalse(last.heldOnDevice(), "read once, now on the host");
        }
    }

    /**
     * Results taken in turn from three: a step writes over the device's copy of the cache two steps
     * back, which is fetched first, while the caller still holds that result.
     */
    @Test
    void aCacheTheDeviceIsAboutToWriteOverComesDownFirst() {
        Run onCpu = new Run(3);
        Run onDevice = new Run(3);
        try (ContactSolver cpu = Backends.cpu(); ContactSolver openCl = Backends.openClOrSkip()) {
            for (int step = 0; step < 7; step++) {
                onCpu.step(cpu, step);
                assertEquals(Backend.OPENCL, onDevice.step(openCl, step).backend());
                if (step >= 2) {
                    assertFalse(onDevice.results[(step - 2) % 3].manifoldCache().heldOnDevice(),
                            "step " + step + ": the cache of step " + (step - 2) + " came down before its set was reused");
                    assertTrue(onDevice.results[(step - 1) % 3].manifoldCache().heldOnDevice(), "step " + step);
                }
            }
            for (int k = 0; k < 3; k++) {
                assertSameCache(onCpu.results[k].manifoldCache(), onDevice.results[k].manifoldCache(), "result " + k);
            }
        }
    }

    /**
     * A device step's impulses and velocity changes come down when its result is read, with the
     * CPU's bits: as the device holds them while it holds the step (the manifolds stay there); once
     * the device reused that memory (three results in turn) or the solver closed, the velocity
     * changes read back with the manifolds and the impulses reported on the host from those.
     */
    @Test
    void aDeviceStepsImpulsesAndDeltasComeDownWhenReadWithTheCpusBits() {
        Run onCpu = new Run(3);
        Run onDevice = new Run(3);
        SolveResult unread;
        SolveResult unreadOnCpu;
        try (ContactSolver cpu = Backends.cpu(); ContactSolver openCl = Backends.openClOrSkip()) {
            for (int step = 0; step < 7; step++) {
                onCpu.step(cpu, step);
                assertEquals(Backend.OPENCL, onDevice.step(openCl, step).backend());
                if (step >= 2) {
                    SolveResult late = onDevice.results[(step - 2) % 3];
                    String what = "step " + (step - 2) + ", read after step " + step;
                    assertFalse(late.manifoldCache().heldOnDevice(), what + ": its manifolds came back first");
                    assertSameOutputs(onCpu.results[(step - 2) % 3], late, what);
                }
            }
            SolveResult last = onDevice.results[6 % 3];
            assertTrue(last.manifoldCache().heldOnDevice(), "the last step, held on the device");
            assertSameOutputs(onCpu.results[6 % 3], last, "the last step");
            assertTrue(last.manifoldCache().heldOnDevice(), "its outputs read, its manifolds still on the device");
            unread = onDevice.results[5 % 3];
            unreadOnCpu = onCpu.results[5 % 3];
            assertTrue(unread.manifoldCache().heldOnDevice(), "the step before, held on the device");
        }
        assertFalse(unread.manifoldCache().heldOnDevice(), "fetched as the solver closed");
        assertSameOutputs(unreadOnCpu, unread, "the step before the last, read after the solver closed");
    }

    /**
     * A result whose impulses or velocity changes a device kept, from a device that can no longer
     * give them back (its copy fails), refuses them in one line rather than give stale values, and
     * forgets the manifolds (the next step takes its contacts fresh).
     */
    @Test
    void outputsLeftOnADeviceThatCannotGiveThemBackAreRefused() {
        for (boolean impulses : new boolean[] {true, false}) {
            SolveResult result = new SolveResult();
            result.prepare(1, 1, new int[] {7});
            ManifoldCache cache = result.manifoldCache();
            cache.prepare(1, 1);
            cache.pointStart()[1] = 1;
            cache.contactStart()[1] = 1;
            cache.keepOnDevice((captures, ids, normal, vectors) -> false);
            cache.finish();
            if (impulses) {
                result.deferReport();
            } else {
                result.deferDeltas();
            }
            IllegalStateException refusal = assertThrows(IllegalStateException.class, () -> {
                if (impulses) {
                    result.impulse(0);
                } else {
                    result.delta(DeltaField.DVX, 0);
                }
            });
            assertEquals("contact solver: this result's " + (impulses ? "impulses" : "velocity changes") + " were left "
                    + "on the device that ran its step, and reading them back failed (see the warning logged)",
                    refusal.getMessage());
            assertFalse(cache.isValid(), "the manifolds forgotten");
        }
    }

    /** The deltas, then the impulses: the deltas first, so that a fetch the impulses make cannot bring them. */
    private static void assertSameOutputs(SolveResult expected, SolveResult actual, String what) {
        assertEquals(expected.bodyCount(), actual.bodyCount(), what + ": bodies");
        for (DeltaField field : DeltaField.values()) {
            float[] want = expected.get(field, new float[expected.bodyCount()]);
            float[] got = actual.get(field, new float[actual.bodyCount()]);
            for (int b = 0; b < want.length; b++) {
                assertBits(want[b], got[b], what + ": " + field + " of body " + b);
            }
        }
        assertEquals(expected.contactCount(), actual.contactCount(), what + ": contacts");
        assertTrue(expected.contactCount() > 0, what + ": contacts");
        for (ImpulseField field : ImpulseField.values()) {
            float[] want = expected.get(field, new float[expected.contactCount()]);
            float[] got = actual.get(field, new float[actual.contactCount()]);
            for (int c = 0; c < want.length; c++) {
                assertBits(want[c], got[c], what + ": " + field + " of contact " + c);
            }
        }
    }

    /** A solver closed after stepping on the device: its results stay warm starts, and a CPU solver carries on with the CPU's bits. */
    @Test
    void closingTheSolverBringsTheCacheDown() {
        Run onCpu = new Run(2);
        Run onDevice = new Run(2);
        try (ContactSolver cpu = Backends.cpu()) {
            try (ContactSolver openCl = Backends.openClOrSkip()) {
                for (int step = 0; step < 3; step++) {
                    onCpu.step(cpu, step);
                    assertEquals(Backend.OPENCL, onDevice.step(openCl, step).backend());
                }
                assertTrue(onDevice.results[0].manifoldCache().heldOnDevice());
            }
            assertFalse(onDevice.results[0].manifoldCache().heldOnDevice(), "fetched as the solver closed");
            try (ContactSolver after = Backends.cpu()) {
                for (int step = 3; step < 6; step++) {
                    SolveResult expected = onCpu.step(cpu, step);
                    SolveResult actual = onDevice.step(after, step);
                    assertTrue(actual.recycledCount() > 0, "step " + step + ": recycled from the device's cache");
                    Bits.assertIdentical(expected, actual, "step " + step);
                    Bits.assertIdentical(onCpu.bodies, onDevice.bodies, "step " + step + ": bodies");
                }
            }
        }
    }

    private static void assertSameCache(ManifoldCache expected, ManifoldCache actual, String what) {
        assertTrue(expected.isValid() && actual.isValid(), what + ": both hold a step's manifolds");
        int manifolds = expected.manifoldCount();
        int points = expected.pointCount();
        assertEquals(manifolds, actual.manifoldCount(), what + ": manifolds");
        assertEquals(points, actual.pointCount(), what + ": points");
        assertTrue(points > 0, what + ": points");
        for (int p = 0; p < points; p++) {
            assertEquals(expected.ids().get(p), actual.ids().get(p), what + ": id of point " + p);
            assertBits(expected.normal()[p], actual.normal()[p], what + ": normal impulse of point " + p);
            for (int f = 0; f < CaptureField.COUNT; f++) {
                int at = p * CaptureField.COUNT + f;
                assertBits(expected.captures().get(at), actual.captures().get(at),
                        what + ": " + CaptureField.values()[f] + " of point " + p);
            }
        }
        for (int v = 0; v < ManifoldVectorField.COUNT * manifolds; v++) {
            assertBits(expected.vectors()[v], actual.vectors()[v], what + ": vector element " + v);
        }
    }

    private static void assertBits(float expected, float actual, String what) {
        assertEquals(Float.floatToRawIntBits(expected), Float.floatToRawIntBits(actual), what + ": " + expected + " vs "
                + actual);
    }
}
