package io.contactsolver.cpu;

import static io.contactsolver.core.FieldOffsets.*;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.contactsolver.BodyBatch;
import io.contactsolver.ContactBatch;
import io.contactsolver.ContactSolver;
import io.contactsolver.SolveResult;
import io.contactsolver.SolveSettings;
import io.contactsolver.core.GeometryField;
import io.contactsolver.core.ManifoldField;
import io.contactsolver.core.PointField;
import io.contactsolver.core.PreparedBodyField;
import io.contactsolver.layout.BodyField;
import io.contactsolver.layout.ContactBody;
import io.contactsolver.layout.ContactField;
import io.contactsolver.testing.Backends;
import io.contactsolver.testing.Bits;
import io.contactsolver.testing.SteppedPyramid;
import org.joml.Matrix3f;
import org.joml.Vector3f;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The CPU soft step keeps a manifold row's geometry (its tangents, levers, masses and couplings)
 * from the last step where nothing it is made from has changed: the same bodies with the same
 * inverse masses and inertia, the same normal and anchors (a recycled manifold), the same layout.
 * Specified here by its promise: a solver that has stepped before gives the bits of one that never
 * has, step after step, while everything a row is made from changes under it.
 */
class KeptRowsTest {
    private static final Vector3f GRAVITY = new Vector3f(0.0f, -9.81f, 0.0f);
    private static final float DT = 1.0f / 60.0f;
    private static final int STEPS = 30;

    @ParameterizedTest
    @ValueSource(ints = {1, 3})
    void aSolverThatHasSteppedGivesTheBitsOfOneThatNeverHas(int threads) {
        SteppedPyramid pyramid = new SteppedPyramid();
        SteppedPyramid other = new SteppedPyramid();
        BodyBatch bodies = pyramid.bodies;
        ContactBatch contacts = pyramid.contacts;
        int recycled = 0;
        try (ContactSolver stepping = Backends.cpu(threads)) {
            SolveResult last = null;
            for (int step = 0; step < STEPS; step++) {
                pyramid.findContacts();
                change(step, bodies, contacts);
                if (step == 22) {
                    // a single pass on the same solver between two steps, of the bodies as this step has them
                    // (an iterative solve would colour the contacts anew, which moves every row)
                    stepping.solve(bodies, contacts, new SolveResult());
                }
                if (step == 24) {
                    // another scene stepped on the same solver between two steps
                    other.findContacts();
                    stepping.step(other.bodies, other.contacts, SolveSettings.softStep(), GRAVITY, DT, null,
                            new SolveResult());
                }
                BodyBatch before = copy(bodies);
                SolveResult result = stepping.step(bodies, contacts, SolveSettings.softStep(), GRAVITY, DT, last,
                        new SolveResult());
                recycled += result.recycledCount();
                try (ContactSolver fresh = Backends.cpu(threads)) {
                    SolveResult expected = fresh.step(before, contacts, SolveSettings.softStep(), GRAVITY, DT, last,
                            new SolveResult());
                    Bits.assertIdentical(expected, result, "step " + step + ", " + threads + " threads");
                    Bits.assertIdentical(before, bodies, "the bodies after step " + step);
                }
                last = result;
            }
        }
        // the rows can be kept only where the manifolds are recycled: most of them here
        assertTrue(recycled > STEPS * contacts.size() / 2, "recycled points over the steps: " + recycled);
    }

    /**
     * A step retried from an older result: the rows were prepared from the points the last step
     * took, and the retry keeps other points for the same manifolds (the ones the older result
     * kept). A box moved by a decimetre takes its manifolds' points fresh in the first try; put
     * back for the retry, the older points hold again.
     */
    @ParameterizedTest
    @ValueSource(ints = {1, 3})
    void aStepRetriedFromAnOlderResultGivesTheBitsOfOneThatNeverStepped(int threads) {
        SteppedPyramid pyramid = new SteppedPyramid();
        BodyBatch bodies = pyramid.bodies;
        ContactBatch contacts = pyramid.contacts;
        try (ContactSolver stepping = Backends.cpu(threads)) {
            SolveResult last = null;
            for (int step = 0; step < 10; step++) {
                pyramid.findContacts();
                last = stepping.step(bodies, contacts, SolveSettings.softStep(), GRAVITY, DT, last, new SolveResult());
            }
            pyramid.findContacts();
            BodyBatch before = copy(bodies);
            Vector3f at = bodies.getPosition(5, new Vector3f());
            bodies.setPosition(5, at.x + 0.1f, at.y, at.z);
            SolveResult tried = stepping.step(bodies, contacts, SolveSettings.softStep(), GRAVITY, DT, last,
                    new SolveResult());
            BodyBatch retried = copy(before);
            SolveResult retry = stepping.step(retried, contacts, SolveSettings.softStep(), GRAVITY, DT, last,
                    new SolveResult());
            try (ContactSolver fresh = Backends.cpu(threads)) {
                BodyBatch expectedBodies = copy(before);
                SolveResult expected = fresh.step(expectedBodies, contacts, SolveSettings.softStep(), GRAVITY, DT,
                        last, new SolveResult());
                Bits.assertIdentical(expected, retry, "the retried step, " + threads + " threads");
                Bits.assertIdentical(expectedBodies, retried, "the bodies after the retried step");
            }
            assertTrue(retry.recycledCount() > tried.recycledCount(),
                    "the retry keeps the points the first try took fresh: " + retry.recycledCount() + " against "
                            + tried.recycledCount());
        }
    }

    /**
     * A row stands for the normal, anchors and rolling it was prepared from, and for nothing
     * else: one bit more or less in any of them and it is prepared anew.
     */
    @Test
    void aRowStandsOnlyForTheGeometryItWasPreparedFrom() {
        int points = 3;
        float[] geometry = new float[GeometryField.COUNT * points];
        for (int p = 0; p < points; p++) {
            for (int f = GEOM_RAX; f <= GEOM_RBZ; f++) {
                geometry[f * points + p] = 0.1f * (f + 1) - 0.37f * p;
            }
            geometry[GEOM_NX * points + p] = 0.6f;
            geometry[GEOM_NY * points + p] = 0.8f;
            geometry[GEOM_NZ * points + p] = 0.0f;
        }
        float[] prepared = new float[2 * PreparedBodyField.STRIDE];
        for (int o : new int[] {0, PreparedBodyField.STRIDE}) {
            prepared[o + PREP_INV_MASS] = 1.0f;
            prepared[o + PREP_IXX] = 6.0f;
            prepared[o + PREP_IYY] = 5.0f;
            prepared[o + PREP_IZZ] = 4.0f;
            prepared[o + PREP_IXY] = 0.5f;
        }
        float[] man = new float[ManifoldField.COUNT];
        float[] pts = new float[PointField.COUNT * points];
        SoftStep.prepareGeometry(geometry, points, 0, points, 0, 0, prepared, 0, PreparedBodyField.STRIDE, false, man,
                pts);
        assertTrue(SoftStep.geometryStands(geometry, points, 0, points, 0, 0, false, man, pts), "its own geometry");
        assertFalse(SoftStep.geometryStands(geometry, points, 0, points, 0, 0, true, man, pts), "rolling now");
        int[] fields = {GEOM_NX, GEOM_NY, GEOM_NZ, GEOM_RAX, GEOM_RAY, GEOM_RAZ, GEOM_RBX, GEOM_RBY, GEOM_RBZ};
        for (int f : fields) {
            for (int p = 0; p < (f >= GEOM_NX && f <= GEOM_NZ ? 1 : points); p++) {
                int at = f * points + p;
                float was = geometry[at];
                geometry[at] = Math.nextUp(was);
                assertFalse(SoftStep.geometryStands(geometry, points, 0, points, 0, 0, false, man, pts),
                        "field " + f + " of point " + p + " one ulp up");
                geometry[at] = was;
            }
        }
    }

    /** What changes under the rows at which step: inertia, mass, rolling resistance, the bodies' count and order. */
    private static void change(int step, BodyBatch bodies, ContactBatch contacts) {
        int top = bodies.size() - 1;
        if (step == 8) {
            // a box of unequal inertia, spinning: its world inertia changes every step from now on
            bodies.setMassProperties(3, 1.0f, new Matrix3f().scaling(1.0f / 6.0f, 1.0f / 4.0f, 1.0f / 5.0f))
                    .setAngularVelocity(3, 0.0f, 0.3f, 0.0f);
        }
        if (step == 14) {
            bodies.setMassProperties(top, 2.0f, new Matrix3f().scaling(2.0f / 6.0f)); // twice as heavy
        }
        if (step >= 17 && step < 20) {
            for (int c = 0; c < contacts.size(); c++) {
                contacts.setRollingResistance(c, 0.01f);
            }
        }
        if (step == 22) {
            // changed where a solve between this step and the last one sees it first (the inertia
            // alone: a new inverse mass would have the bodies classified and coloured anew)
            bodies.setInverseInertia(5, 3.0f, 3.0f, 3.0f, 0.0f, 0.0f, 0.0f);
        }
        if (step == 26) {
            bodies.add(); // one more body, touching nothing: every record's index after the world moves
            bodies.setMass(bodies.size() - 1, 1.0f).setPosition(bodies.size() - 1, 50.0f, 5.0f, 0.0f);
        }
        if (step == 28) {
            reverseManifolds(contacts); // other rows, other layouts
        }
    }

    /** The same contacts, their manifolds in reverse order (each manifold's points in their order). */
    private static void reverseManifolds(ContactBatch contacts) {
        int n = contacts.size();
        int[] from = new int[n];
        int at = 0;
        int end = n;
        while (end > 0) {
            int start = end - 1;
            while (start > 0 && contacts.manifold(start - 1) == contacts.manifold(end - 1)) {
                start--;
            }
            for (int c = start; c < end; c++) {
                from[at++] = c;
            }
            end = start;
        }
        for (ContactField field : ContactField.values()) {
            float[] values = contacts.get(field, new float[n]);
            float[] moved = new float[n];
            for (int c = 0; c < n; c++) {
                moved[c] = values[from[c]];
            }
            contacts.set(field, moved);
        }
        for (ContactBody side : ContactBody.values()) {
            int[] values = contacts.get(side, 0, new int[n], 0, n);
            int[] moved = new int[n];
            for (int c = 0; c < n; c++) {
                moved[c] = values[from[c]];
            }
            contacts.set(side, 0, moved, 0, n);
        }
        int[] ids = contacts.getIds(0, new int[n], 0, n);
        int[] manifolds = contacts.getManifolds(0, new int[n], 0, n);
        int[] movedIds = new int[n];
        int[] movedManifolds = new int[n];
        for (int c = 0; c < n; c++) {
            movedIds[c] = ids[from[c]];
            movedManifolds[c] = manifolds[from[c]];
        }
        contacts.setIds(0, movedIds, 0, n).setManifolds(0, movedManifolds, 0, n);
    }

    private static BodyBatch copy(BodyBatch bodies) {
        BodyBatch copy = new BodyBatch();
        for (int i = 0; i < bodies.size(); i++) {
            copy.add();
        }
        for (BodyField field : BodyField.values()) {
            copy.set(field, bodies.get(field, new float[bodies.size()]));
        }
        return copy;
    }
}
