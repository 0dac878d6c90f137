package io.contactsolver;

import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.contactsolver.testing.Backends;
import io.contactsolver.testing.Bits;
import org.joml.Vector3f;
import org.junit.jupiter.api.Test;

/**
 * A history keeps the last result of a simulation so that each step starts warm from it: the same
 * bits as juggling the previous and current results by hand, a failed step leaves it as it was,
 * and a cleared one starts cold.
 */
class SolveHistoryTest {
    private static final Vector3f GRAVITY = new Vector3f(0.0f, -10.0f, 0.0f);
    private static final float DT = 1.0f / 60.0f;

    /** A column of {@code count} unit boxes on the ground, contacts found from where they are now. */
    private static void column(BodyBatch bodies, int count) {
        for (int i = 0; i < count; i++) {
            SoftStepTest.unitBox(bodies, bodies.add(), 0.0f, 0.5f + i);
        }
    }

    private static void findContacts(BodyBatch bodies, ContactBatch contacts) {
        contacts.clear();
        SoftStepTest.boxOnGround(bodies, 0, contacts, 0.6f, 0);
        for (int i = 1; i < bodies.size(); i++) {
            Vector3f below = bodies.getPosition(i - 1, new Vector3f());
            Vector3f above = bodies.getPosition(i, new Vector3f());
            for (int k = 0; k < 4; k++) {
                float x = above.x + ((k & 1) == 0 ? -0.5f : 0.5f);
                float z = above.z + ((k & 2) == 0 ? -0.5f : 0.5f);
                int c = contacts.add(i - 1, i, new Vector3f(x, below.y + 0.5f, z), new Vector3f(0.0f, 1.0f, 0.0f), 0.0f,
                        (above.y - 0.5f) - (below.y + 0.5f), 0.6f, 0.0f, 4 * i + k);
                assertTrue(c >= 0);
            }
        }
    }

    @Test
    void stepsWithAHistoryAreStepsWithResultsJuggledByHand() {
        for (SolveSettings settings : new SolveSettings[] {SolveSettings.softStep(),
            SolveSettings.iterative(10).withPositionalCorrection(0.2f, 0.005f)}) {
            BodyBatch byHand = new BodyBatch();
            BodyBatch withHistory = new BodyBatch();
            column(byHand, 6);
            column(withHistory, 6);
            ContactBatch contacts = new ContactBatch();
            SolveHistory history = new SolveHistory();
            SolveResult previous = null;
            SolveResult current = new SolveResult();
            SolveResult spare = new SolveResult();
            try (ContactSolver solver = Backends.cpu()) {
                for (int step = 0; step < 60; step++) {
                    findContacts(byHand, contacts);
                    solver.step(byHand, contacts, settings, GRAVITY, DT, previous, current);
                    SolveResult used = current;
                    current = previous == null ? spare : previous;
                    previous = used;

                    findContacts(withHistory, contacts);
                    SolveResult result = solver.step(withHistory, contacts, settings, GRAVITY, DT, history);
                    assertSame(result, history.latest().orElseThrow());
                    Bits.assertIdentical(previous, result, settings + ", step " + step);
                }
            }
            Bits.assertIdentical(byHand, withHistory, settings + ": the bodies after 60 steps");
        }
    }

    @Test
    void aStepThatThrowsLeavesTheHistoryAsItWas() {
        BodyBatch bodies = new BodyBatch();
        column(bodies, 3);
        ContactBatch contacts = new ContactBatch();
        SolveHistory history = new SolveHistory();
        try (ContactSolver solver = Backends.cpu()) {
            findContacts(bodies, contacts);
            SolveResult first = solver.step(bodies, contacts, SolveSettings.softStep(), GRAVITY, DT, history);
            findContacts(bodies, contacts);
            contacts.setNormal(0, 0.0f, 2.0f, 0.0f); // not unit length: refused
            assertThrows(InvalidInputException.class,
                    () -> solver.step(bodies, contacts, SolveSettings.softStep(), GRAVITY, DT, history));
            assertSame(first, history.latest().orElseThrow(), "still the last step that completed");
        }
    }

    @Test
    void aClearedHistoryStartsColdLikeNoWarmStart() {
        BodyBatch bodies = new BodyBatch();
        column(bodies, 4);
        ContactBatch contacts = new ContactBatch();
        IterativeSettings settings = SolveSettings.iterative(3);
        SolveHistory history = new SolveHistory();
        try (ContactSolver solver = Backends.cpu()) {
            findContacts(bodies, contacts);
            SolveResult cold = solver.solve(bodies, contacts, settings, null, new SolveResult());
            SolveResult first = solver.solve(bodies, contacts, settings, history);
            Bits.assertIdentical(cold, first, "the first solve of a history is cold");
            SolveResult warm = solver.solve(bodies, contacts, settings, history);
            Bits.assertIdentical(solver.solve(bodies, contacts, settings, cold, new SolveResult()), warm,
                    "the second starts from the first");
            assertTrue(history.clear().latest().isEmpty());
            Bits.assertIdentical(cold, solver.solve(bodies, contacts, settings, history), "cleared: cold again");
        }
    }
}
