package io.contactsolver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.contactsolver.core.Recycler;
import io.contactsolver.layout.DeltaField;
import io.contactsolver.layout.ImpulseField;
import io.contactsolver.scene.BoxContacts;
import io.contactsolver.scene.BoxScene;
import io.contactsolver.testing.Backends;
import io.contactsolver.testing.Bits;
import org.joml.Matrix3f;
import org.joml.Vector3f;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * Outputs on request: a soft step asked for no deltas or no impulses
 * ({@link SoftStepSettings#withDeltas}, {@link SoftStepSettings#withImpulses}) moves the bodies to
 * the same bits as one that writes both, step after step, as the next step's warm start comes from
 * the manifolds the result keeps; its result says what it holds and refuses to give what it does
 * not; what it does write is the full step's, bit for bit.
 */
class SoftStepOutputsTest {
    private static final Vector3f GRAVITY = new Vector3f(0.0f, -10.0f, 0.0f);
    private static final float DT = 1.0f / 60.0f;
    private static final SoftStepSettings FULL = SolveSettings.softStep();
    private static final SoftStepSettings BODIES_ONLY = FULL.withDeltas(false).withImpulses(false);

    @Test
    void aBodiesOnlyPyramidMovesToTheSameBitsAsTheFullStep() {
        assertSameTrajectories(FULL, BODIES_ONLY, 24, true);
    }

    /** Recycling off: every manifold taken fresh, each warm started from the previous result by contact id. */
    @Test
    void withoutRecyclingEveryWarmStartComesFromTheKeptManifolds() {
        assertSameTrajectories(FULL.withRecycleDistance(0.0f), BODIES_ONLY.withRecycleDistance(0.0f), 12, false);
    }

    @Test
    void impulsesWithoutDeltasAreTheFullStepsImpulses() {
        SoftStepSettings impulsesOnly = FULL.withDeltas(false);
        SoftStepSettings deltasOnly = FULL.withImpulses(false);
        Run full = new Run(FULL);
        Run withImpulses = new Run(impulsesOnly);
        Run withDeltas = new Run(deltasOnly);
        try (ContactSolver solver = Backends.cpu(2)) {
            for (int step = 0; step < 6; step++) {
                SolveResult expected = full.step(solver, step);
                SolveResult impulses = withImpulses.step(solver, step);
                SolveResult deltas = withDeltas.step(solver, step);
                String what = "step " + step;
                assertTrue(impulses.hasImpulses() && !impulses.hasDeltas(), what);
                assertTrue(deltas.hasDeltas() && !deltas.hasImpulses(), what);
                for (ImpulseField field : ImpulseField.values()) {
                    assertSameBits(expected.get(field, new float[expected.contactCount()]),
                            impulses.get(field, new float[impulses.contactCount()]), what + ": " + field + " of contact ");
                }
                for (DeltaField field : DeltaField.values()) {
                    assertSameBits(expected.get(field, new float[expected.bodyCount()]),
                            deltas.get(field, new float[deltas.bodyCount()]), what + ": " + field + " of body ");
                }
                Bits.assertIdentical(full.bodies, withImpulses.bodies, what);
                Bits.assertIdentical(full.bodies, withDeltas.bodies, what);
            }
        }
    }

    /**
     * A CPU step's impulses wait for the result's first read ({@link SolveResult}): read a step late,
     * after the result served as the next step's warm start, they are what its kept manifolds gave
     * right after its step ({@link Recycler#reportedImpulses}) and what a run that read them at once
     * read; and an iterative solve warm started from a result never read starts from those impulses.
     */
    @Test
    void impulsesReadAStepLateAreTheirOwnStepsBitForBit() {
        Run atOnce = new Run(FULL);
        Run late = new Run(FULL);
        try (ContactSolver solver = Backends.cpu(2)) {
            float[][] readAtOnce = null;
            float[][] keptAtOnce = null;
            for (int step = 0; step < 10; step++) {
                float[][] read = impulses(atOnce.step(solver, step));
                SolveResult result = late.step(solver, step);
                Bits.assertIdentical(atOnce.bodies, late.bodies, "step " + step);
                if (step > 0) {
                    float[][] readLate = impulses(late.results[(step + 1) & 1]);
                    for (ImpulseField field : ImpulseField.values()) {
                        String what = "step " + (step - 1) + " read after step " + step + ": " + field + " of contact ";
                        assertSameBits(keptAtOnce[field.ordinal()], readLate[field.ordinal()], what);
                        assertSameBits(readAtOnce[field.ordinal()], readLate[field.ordinal()], what);
                    }
                }
                readAtOnce = read;
                keptAtOnce = reported(result);
            }
            // the late run's last result, never read: an iterative solve from it and from the read one
            IterativeSettings iterative = SolveSettings.iterative(20);
            SolveResult fromRead = solver.solve(atOnce.bodies, atOnce.contacts, iterative,
                    atOnce.results[1], new SolveResult());
            SolveResult fromUnread = solver.solve(late.bodies, late.contacts, iterative, late.results[1],
                    new SolveResult());
            for (ImpulseField field : ImpulseField.values()) {
                assertSameBits(fromRead.get(field, new float[fromRead.contactCount()]),
                        fromUnread.get(field, new float[fromUnread.contactCount()]), "iterative: " + field + " of contact ");
            }
        }
    }

    /** Every impulse field of every contact as {@code result}'s kept manifolds give it now, by {@link ImpulseField} ordinal. */
    private static float[][] reported(SolveResult result) {
        float[][] fields = new float[ImpulseField.values().length][result.contactCount()];
        float[] reported = new float[Recycler.REPORTED];
        for (int c = 0; c < result.contactCount(); c++) {
            Recycler.reportedImpulses(result.manifoldCache(), result.contactIdArray(), c, reported, 0);
            for (ImpulseField field : ImpulseField.values()) {
                fields[field.ordinal()][c] = reported[field.ordinal()];
            }
        }
        return fields;
    }

    /** Every impulse field of every contact of {@code result}, by {@link ImpulseField} ordinal. */
    private static float[][] impulses(SolveResult result) {
        float[][] fields = new float[ImpulseField.values().length][];
        for (ImpulseField field : ImpulseField.values()) {
            fields[field.ordinal()] = result.get(field, new float[result.contactCount()]);
        }
        return fields;
    }

    /**
     * What the next step reads of a result in place of its impulses gives every contact the bits
     * the result holds: on the pyramid, and on a box whose recycled manifold lost a point's id (its
     * contacts are not its points, so what the lost point carried is shared out).
     */
    @Test
    void theImpulsesReadFromTheKeptManifoldsAreTheResultsBitForBit() {
        Run pyramid = new Run(FULL);
        try (ContactSolver solver = Backends.cpu(2)) {
            for (int step = 0; step < 8; step++) {
                assertReportedAsHeld(pyramid.step(solver, step), "pyramid, step " + step);
            }
            BodyBatch box = restingBox();
            ContactBatch corners = new ContactBatch();
            SolveResult first = solver.step(box, corners(corners, 1, 2, 3, 4), FULL, GRAVITY, DT, null,
                    new SolveResult());
            SolveResult second = solver.step(box, corners(corners, 1, 2, 3, 5), FULL, GRAVITY, DT, first,
                    new SolveResult());
            assertEquals(4, second.recycledCount(), "the manifold is recycled with its four points, ids 1 to 4");
            assertTrue(second.impulse(3) > 0.0f, "the new contact, id 5, carries the lost point's share");
            assertReportedAsHeld(second, "a recycled manifold that lost id 4 for id 5");
        }
    }

    /**
     * A result holds the ids of the step that wrote it, whichever ids the results it takes turns
     * with held: the box's corners stepped under two id sets, each kept for a few steps, into two
     * results in turn (a result's ids are not copied again where it holds them already).
     */
    @Test
    void aResultHoldsTheIdsOfTheStepThatWroteIt() {
        int[][] idSets = {{1, 2, 3, 4}, {1, 2, 3, 4}, {1, 2, 3, 4}, {5, 6, 7, 8}, {5, 6, 7, 8}, {1, 2, 3, 4},
            {5, 6, 7, 8}, {5, 6, 7, 8}, {5, 6, 7, 8}};
        for (Backend backend : new Backend[] {Backend.CPU, Backend.OPENCL}) {
            try (ContactSolver solver = backend == Backend.CPU ? Backends.cpu(2) : Backends.openClOrSkip()) {
                BodyBatch box = restingBox();
                ContactBatch corners = new ContactBatch();
                SolveResult[] results = {new SolveResult(), new SolveResult()};
                for (int step = 0; step < idSets.length; step++) {
                    int[] ids = idSets[step];
                    SolveResult result = solver.step(box, corners(corners, ids[0], ids[1], ids[2], ids[3]), FULL,
                            GRAVITY, DT, step == 0 ? null : results[(step + 1) & 1], results[step & 1]);
                    for (int c = 0; c < 4; c++) {
                        assertEquals(ids[c], result.contactId(c), backend + ", step " + step + ", contact " + c);
                    }
                }
            }
        }
    }

    /** Taken fresh after losing a point's id, the box warm starts alike from a full and a bodies-only result. */
    @Test
    void aFreshManifoldWarmStartsAlikeFromEitherResult() {
        try (ContactSolver solver = Backends.cpu(1)) {
            BodyBatch[] boxes = {restingBox(), restingBox()};
            SoftStepSettings[] settings = {FULL, BODIES_ONLY};
            SolveResult[] last = new SolveResult[2];
            ContactBatch corners = new ContactBatch();
            for (int k = 0; k < 2; k++) {
                SolveResult first = solver.step(boxes[k], corners(corners, 1, 2, 3, 4), settings[k], GRAVITY, DT, null,
                        new SolveResult());
                SolveResult second = solver.step(boxes[k], corners(corners, 1, 2, 3, 5), settings[k], GRAVITY, DT,
                        first, new SolveResult());
                last[k] = solver.step(boxes[k], corners(corners, 5, 3, 2, 1), settings[k].withRecycleDistance(0.0f),
                        GRAVITY, DT, second, new SolveResult());
            }
            Bits.assertIdentical(boxes[0], boxes[1], "after three steps, the last taken fresh");
            assertEquals(Float.floatToRawIntBits(last[0].residual()), Float.floatToRawIntBits(last[1].residual()),
                    "residual");
        }
    }

    @Test
    void aResultWithoutThemRefusesToGiveDeltasOrImpulses() {
        Run run = new Run(BODIES_ONLY);
        try (ContactSolver solver = Backends.cpu(1)) {
            SolveResult result = run.step(solver, 0);
            assertFalse(result.hasDeltas());
            assertFalse(result.hasImpulses());
            assertTrue(result.bodyCount() > 0 && result.contactCount() > 0, "the counts are still the step's");
            assertEquals(run.contacts.id(7), result.contactId(7), "and so are the contacts' ids");
            Executable[] deltaReads = {() -> result.getLinearDelta(0, new Vector3f()),
                () -> result.getAngularDelta(0, new Vector3f()), () -> result.delta(DeltaField.DVY, 0),
                () -> result.get(DeltaField.DVX, new float[result.bodyCount()]), result::deltas};
            for (Executable read : deltaReads) {
                IllegalStateException refused = assertThrows(IllegalStateException.class, read);
                assertEquals("this result holds no deltas: the soft step that wrote it was asked for none "
                        + "(SoftStepSettings.withDeltas(false))", refused.getMessage());
            }
            Executable[] impulseReads = {() -> result.impulse(0), () -> result.impulse(ImpulseField.TX, 0),
                () -> result.getTangentImpulse(0, new Vector3f()), () -> result.getRollingImpulse(0, new Vector3f()),
                () -> result.get(ImpulseField.J, new float[result.contactCount()]), result::impulses};
            for (Executable read : impulseReads) {
                IllegalStateException refused = assertThrows(IllegalStateException.class, read);
                assertEquals("this result holds no impulses: the soft step that wrote it was asked for none "
                        + "(SoftStepSettings.withImpulses(false))", refused.getMessage());
            }
            // the next full step into the same result holds both again
            SolveResult next = solver.step(run.bodies, run.contacts, FULL, GRAVITY, DT, null, result);
            assertTrue(next.hasDeltas() && next.hasImpulses());
            assertTrue(next.impulse(0) >= 0.0f);
        }
    }

    @Test
    void anIterativeSolveCannotWarmStartFromAResultWithoutImpulses() {
        Run run = new Run(BODIES_ONLY);
        try (ContactSolver solver = Backends.cpu(1)) {
            SolveResult bodiesOnly = run.step(solver, 0);
            SolveResult dest = new SolveResult();
            IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                    () -> solver.solve(run.bodies, run.contacts, SolveSettings.iterative(10), bodiesOnly, dest));
            assertEquals("warmStart holds no impulses (its soft step was asked for none, "
                    + "SoftStepSettings.withImpulses(false)): an iterative solve warm starts from impulses",
                    refused.getMessage());
            assertEquals(0, dest.contactCount(), "nothing written");
        }
    }

    @Test
    void theSettingsCarryTheChoice() {
        assertTrue(FULL.writesDeltas() && FULL.writesImpulses(), "both by default");
        assertFalse(BODIES_ONLY.writesDeltas());
        assertFalse(BODIES_ONLY.writesImpulses());
        assertNotEquals(FULL, BODIES_ONLY);
        assertEquals(BODIES_ONLY, FULL.withImpulses(false).withDeltas(false));
        assertEquals(BODIES_ONLY.hashCode(), FULL.withImpulses(false).withDeltas(false).hashCode());
        assertEquals(FULL, BODIES_ONLY.withDeltas(true).withImpulses(true));
        assertTrue(BODIES_ONLY.toString().endsWith(", no deltas, no impulses]"), BODIES_ONLY.toString());
        assertFalse(FULL.toString().contains("no "), FULL.toString());
    }

    /** Runs {@code steps} of the kicked pyramid with each settings and asserts the same bodies, bit for bit, after every step. */
    private static void assertSameTrajectories(SoftStepSettings full, SoftStepSettings lean, int steps,
            boolean recycles) {
        Run expected = new Run(full);
        Run actual = new Run(lean);
        try (ContactSolver solver = Backends.cpu(2)) {
            for (int step = 0; step < steps; step++) {
                SolveResult want = expected.step(solver, step);
                SolveResult got = actual.step(solver, step);
                String what = lean + ", step " + step;
                Bits.assertIdentical(expected.bodies, actual.bodies, what);
                assertEquals(want.recycledCount(), got.recycledCount(), what + ": recycled points");
                assertEquals(recycles && step > 0, got.recycledCount() > 0, what + ": recycled " + got.recycledCount());
                assertEquals(want.iterations(), got.iterations(), what + ": sweeps");
                assertEquals(Float.floatToRawIntBits(want.residual()), Float.floatToRawIntBits(got.residual()),
                        what + ": residual");
                assertFalse(got.hasDeltas() || got.hasImpulses(), what + ": holds neither");
            }
        }
        // the kick took the top box off its place: manifolds were taken fresh and warm started by id
        assertTrue(expected.moved() > 0.05f, "the top box moved " + expected.moved() + " m");
    }

    /** {@code got} holds {@code want}'s values to the bit; a difference is named by {@code what} and its index. */
    private static void assertSameBits(float[] want, float[] got, String what) {
        assertEquals(want.length, got.length, what + "count");
        for (int i = 0; i < want.length; i++) {
            assertEquals(Float.floatToRawIntBits(want[i]), Float.floatToRawIntBits(got[i]), what + i);
        }
    }

    /** Every contact's impulses as {@link Recycler#reportedImpulses} gives them equal the result's bits. */
    private static void assertReportedAsHeld(SolveResult result, String what) {
        float[] reported = new float[Recycler.REPORTED];
        for (int c = 0; c < result.contactCount(); c++) {
            Recycler.reportedImpulses(result.manifoldCache(), result.contactIdArray(), c, reported, 0);
            for (ImpulseField field : ImpulseField.values()) {
                assertEquals(Float.floatToRawIntBits(result.impulse(field, c)),
                        Float.floatToRawIntBits(reported[field.ordinal()]), what + ": " + field + " of contact " + c);
            }
        }
    }

    /** A 10-box pyramid whose top box is kicked sideways, stepped with its own contacts and results. */
    private static final class Run {
        final SoftStepSettings settings;
        final BodyBatch bodies = BoxScene.pyramid(4).bodies();
        final ContactBatch contacts = new ContactBatch();
        final BoxContacts collision = new BoxContacts(BoxScene.HALF_EXTENT, 0.02f, BoxContacts.DEFAULT_FRICTION);
        final SolveResult[] results = {new SolveResult(), new SolveResult()};
        final Vector3f start;

        Run(SoftStepSettings settings) {
            this.settings = settings;
            int top = bodies.size() - 1;
            bodies.setLinearVelocity(top, 2.5f, 0.0f, 1.0f);
            bodies.setAngularVelocity(top, 0.0f, 3.0f, 0.0f);
            start = bodies.getPosition(top, new Vector3f());
        }

        SolveResult step(ContactSolver solver, int step) {
            collision.find(bodies, contacts);
            return solver.step(bodies, contacts, settings, GRAVITY, DT, step == 0 ? null : results[(step + 1) & 1],
                    results[step & 1]);
        }

        float moved() {
            return bodies.getPosition(bodies.size() - 1, new Vector3f()).distance(start);
        }
    }

    /** A unit box of 1 kg resting on the ground, its bottom face's centre at the origin. */
    private static BodyBatch restingBox() {
        BodyBatch box = new BodyBatch();
        int b = box.add();
        box.setPosition(b, 0.0f, 0.5f, 0.0f);
        box.setMassProperties(b, 1.0f, new Matrix3f().scaling(1.0f / 6.0f));
        return box;
    }

    /** The box's four bottom corners against the ground, one manifold, with the ids given corner by corner. */
    private static ContactBatch corners(ContactBatch contacts, int... ids) {
        contacts.clear();
        float[][] xz = {{-0.5f, -0.5f}, {0.5f, -0.5f}, {0.5f, 0.5f}, {-0.5f, 0.5f}};
        for (int k = 0; k < 4; k++) {
            int c = contacts.add(ContactBatch.WORLD, 0, new Vector3f(xz[k][0], 0.0f, xz[k][1]),
                    new Vector3f(0.0f, 1.0f, 0.0f), 0.0f, -0.001f, 0.6f, 0.0f, ids[k]);
            contacts.setManifold(c, 0);
        }
        return contacts;
    }
}
