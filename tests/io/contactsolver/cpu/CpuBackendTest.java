package io.contactsolver.cpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.contactsolver.BodyBatch;
import io.contactsolver.ContactBatch;
import io.contactsolver.ContactSolver;
import io.contactsolver.RigidSettings;
import io.contactsolver.SolveResult;
import io.contactsolver.SolveSettings;
import io.contactsolver.core.FieldBlock;
import io.contactsolver.core.SoftStepJob;
import io.contactsolver.layout.BodyField;
import io.contactsolver.layout.ContactBody;
import io.contactsolver.layout.DeltaField;
import io.contactsolver.scene.Scene;
import io.contactsolver.scene.SceneGenerator;
import io.contactsolver.testing.Backends;
import io.contactsolver.testing.Bits;
import org.junit.jupiter.api.Test;

class CpuBackendTest {

    /** A scattered graph takes the two-phase path, a pile (bodies ordered in space) the fused one. */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"random", "pile"})
    void resultsDoNotDependOnTheThreadCount(String kind) {
        // above the size where the single pass goes parallel (CpuBackend.PARALLEL_CONTACTS)
        Scene scene = kind.equals("pile") ? SceneGenerator.pileWithContacts(77, 300_000, 0.4f)
                : SceneGenerator.randomGraph(77, 75_000, 300_000);
        SolveResult single;
        try (ContactSolver solver = Backends.cpu(1)) {
            single = solver.solve(scene.bodies(), scene.contacts(), new SolveResult());
        }
        for (int threads : new int[] {2, 3, 8}) {
            try (ContactSolver solver = Backends.cpu(threads)) {
                SolveResult parallel = solver.solve(scene.bodies(), scene.contacts(), new SolveResult());
                Bits.assertIdentical(single, parallel, "1 thread vs " + threads);
                if (threads == 2) {
                    assertEquals(kind.equals("pile"), CpuBackend.fewCrossing(links(scene.contacts()),
                            scene.contacts().size(), scene.bodies().size(), threads),
                            "the pile takes the fused path, the graph two phases");
                }
            }
        }
    }

    /** The contacts' body pairs as the backend reads them (field {@code ContactBody.A}, then {@code B}). */
    private static FieldBlock links(ContactBatch contacts) {
        FieldBlock links = new FieldBlock(ContactBody.COUNT, contacts.size());
        for (int c = 0; c < contacts.size(); c++) {
            links.setInt(ContactBody.A.ordinal(), c, contacts.bodyA(c));
            links.setInt(ContactBody.B.ordinal(), c, contacts.bodyB(c));
        }
        return links;
    }

    @Test
    void iterativeResultsDoNotDependOnTheThreadCount() {
        Scene scene = SceneGenerator.randomGraph(79, 30_000, 150_000);
        RigidSettings settings = SolveSettings.iterative(20).withColourBudget(8);
        SolveResult single;
        try (ContactSolver solver = Backends.cpu(1)) {
            single = solver.solve(scene.bodies(), scene.contacts(), settings, new SolveResult());
        }
        for (int threads : new int[] {2, 5}) {
            try (ContactSolver solver = Backends.cpu(threads)) {
                SolveResult parallel = solver.solve(scene.bodies(), scene.contacts(), settings, new SolveResult());
                Bits.assertIdentical(single, parallel, "iterative, 1 thread vs " + threads);
                assertEquals(single.residual(), parallel.residual());
            }
        }
    }

    /**
     * 7,000 rows on 8 threads: a crew of 3 (one per 2,000 rows) solves them while the other 5 sit
     * out, in the iterative solver and in three soft steps warm-started from their own results.
     */
    @Test
    void aCrewSmallerThanTheThreadCountGivesTheBitsOfOneThread() {
        Scene scene = SceneGenerator.randomGraph(81, 2_000, 7_000);
        RigidSettings settings = SolveSettings.iterative(15);
        org.joml.Vector3f gravity = new org.joml.Vector3f(0.0f, -9.81f, 0.0f);
        try (ContactSolver one = Backends.cpu(1); ContactSolver eight = Backends.cpu(8)) {
            SolveResult single = one.solve(scene.bodies(), scene.contacts(), settings, new SolveResult());
            SolveResult crew = eight.solve(scene.bodies(), scene.contacts(), settings, new SolveResult());
            Bits.assertIdentical(single, crew, "iterative, 1 thread vs a crew of 3 of 8");
            assertEquals(single.residual(), crew.residual());
            Scene alone = SceneGenerator.pileWithContacts(82, 7_000, 0.2f);
            Scene crewed = SceneGenerator.pileWithContacts(82, 7_000, 0.2f);
            io.contactsolver.SolveHistory aloneHistory = new io.contactsolver.SolveHistory();
            io.contactsolver.SolveHistory crewHistory = new io.contactsolver.SolveHistory();
            for (int step = 0; step < 3; step++) {
                SolveResult expected = one.step(alone.bodies(), alone.contacts(), SolveSettings.softStep(), gravity,
                        0.002f, aloneHistory);
                SolveResult actual = eight.step(crewed.bodies(), crewed.contacts(), SolveSettings.softStep(), gravity,
                        0.002f, crewHistory);
                Bits.assertIdentical(expected, actual, "soft step " + step + ", 1 thread vs a crew of 3 of 8");
                Bits.assertIdentical(alone.bodies(), crewed.bodies(), "bodies after soft step " + step);
            }
        }
    }

    /**
     * A colour budget below the colours a box pyramid needs leaves overflow rows, which member 0 of
     * a team works alone after each sweep's colours: the team meets after them (and, without
     * overflow rows, only after the last colour). A pyramid of base 60 over 20 steps, on 2 and 3
     * threads, moves the boxes to the bits of one thread.
     */
    @Test
    void aTeamWaitsForTheOverflowRowsOfEachSweep() {
        assertTeamsGiveTheBitsOfOneThread(SolveSettings.softStep().withColourBudget(3), false);
    }

    /**
     * A team gives a body its substep's motion at its first row of the relax sweep, without a
     * meeting, only while no immovable body moves: a kinematic box, which rows of one colour share,
     * is integrated before the sweep and the team meets. A pyramid of base 60 with every 50th box
     * kinematic, moving, on 2 and 3 threads, moves to the bits of one thread.
     */
    @Test
    void aTeamIntegratesMovingKinematicBodiesBeforeTheRelaxSweep() {
        assertTeamsGiveTheBitsOfOneThread(SolveSettings.softStep(), true);
    }

    private static void assertTeamsGiveTheBitsOfOneThread(SolveSettings settings, boolean kinematic) {
        BodyBatch[] runs = new BodyBatch[3];
        int[] threads = {1, 2, 3};
        for (int t = 0; t < threads.length; t++) {
            runs[t] = PyramidRuns.stepped(threads[t], settings, bodies -> {
                for (int box = 0; kinematic && box < bodies.size(); box += 50) {
                    bodies.setStatic(box).setLinearVelocity(box, 0.2f, 0.0f, 0.0f)
                            .setAngularVelocity(box, 0.0f, 0.3f, 0.0f);
                }
            }, last -> assertTrue(kinematic || last.overflowCount() > 1000, "overflow rows: " + last.overflowCount()));
        }
        Bits.assertIdentical(runs[0], runs[1], "1 against 2 threads");
        Bits.assertIdentical(runs[0], runs[2], "1 against 3 threads");
    }

    @Test
    void repeatedSolvesAreBitIdentical() {
        Scene scene = SceneGenerator.randomGraph(78, 5000, 40_000);
        try (ContactSolver solver = Backends.cpu()) {
            SolveResult first = solver.solve(scene.bodies(), scene.contacts(), new SolveResult());
            SolveResult second = solver.solve(scene.bodies(), scene.contacts(), new SolveResult());
            Bits.assertIdentical(first, second, "two runs");
        }
    }

    /**
     * The screen of finished bodies ({@code CpuBackend.screenFinished}) flags what the host must
     * scan and clears the rest: a non-finite field of the next state, an orientation off the
     * validator's unit screen (a quaternion shrunk to zero by an overflowing renormalisation is
     * finite), a non-finite delta, each at any place of a range longer than a slice; without
     * deltas, the state alone.
     */
    @Test
    void theScreenOfFinishedBodiesFlagsWhatTheHostMustScan() {
        int count = 2500;
        FieldBlock next = new FieldBlock(SoftStepJob.BODY_STATE_FIELDS, count);
        FieldBlock deltas = new FieldBlock(DeltaField.COUNT, count);
        for (int i = 0; i < count; i++) {
            next.setFloat(BodyField.QW.ordinal(), i, 1.0f);
            next.setFloat(BodyField.Y.ordinal(), i, 5.0f);
        }
        assertEquals(0, CpuBackend.screenFinished(next, deltas, 0, count), "sound bodies");
        for (int at : new int[] {0, 1023, 1024, 2499}) {
            next.setFloat(BodyField.VX.ordinal(), at, Float.POSITIVE_INFINITY);
            assertEquals(CpuBackend.BODY_NOT_FINITE, CpuBackend.screenFinished(next, deltas, 0, count),
                    "speed at " + at);
            assertEquals(0, CpuBackend.screenFinished(next, deltas, at + 1, count), "after " + at);
            next.setFloat(BodyField.VX.ordinal(), at, 0.0f);
            next.setFloat(BodyField.QW.ordinal(), at, 0.0f);
            assertEquals(CpuBackend.ORIENTATION_NOT_UNIT, CpuBackend.screenFinished(next, deltas, 0, count),
                    "a zero quaternion at " + at);
            next.setFloat(BodyField.QW.ordinal(), at, 1.0002f); // a squared norm of 1.0004: past the screen
            assertEquals(CpuBackend.ORIENTATION_NOT_UNIT, CpuBackend.screenFinished(next, deltas, 0, count),
                    "a stretched quaternion at " + at);
            next.setFloat(BodyField.QW.ordinal(), at, Float.NaN);
            assertEquals(CpuBackend.BODY_NOT_FINITE | CpuBackend.ORIENTATION_NOT_UNIT,
                    CpuBackend.screenFinished(next, deltas, 0, count), "a NaN quaternion at " + at);
            next.setFloat(BodyField.QW.ordinal(), at, 1.0f);
            deltas.setFloat(DeltaField.DWZ.ordinal(), at, Float.NaN);
            assertEquals(CpuBackend.DELTA_NOT_FINITE, CpuBackend.screenFinished(next, deltas, 0, count),
                    "a NaN delta at " + at);
            assertEquals(0, CpuBackend.screenFinished(next, null, 0, count), "no deltas asked for");
            deltas.setFloat(DeltaField.DWZ.ordinal(), at, 0.0f);
        }
    }
}
