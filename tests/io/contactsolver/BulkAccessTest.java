package io.contactsolver;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.contactsolver.layout.BodyField;
import io.contactsolver.layout.ContactBody;
import io.contactsolver.layout.ContactField;
import io.contactsolver.layout.DeltaField;
import io.contactsolver.layout.ImpulseField;
import io.contactsolver.scene.Scene;
import io.contactsolver.testing.Backends;
import io.contactsolver.testing.Bits;
import io.contactsolver.testing.FrictionScenes;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import org.joml.Vector3f;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * Bulk access: one field of many bodies, contacts or results from and into arrays and buffers,
 * with one range check before anything moves. A batch filled in bulk is the batch filled one call
 * at a time, bit for bit, and solves to the same bits.
 */
class BulkAccessTest {
    /** A frictional scene with rolling resistance, shuffled ids, statics and particles. */
    private static Scene scene() {
        return FrictionScenes.randomClusters(17, 60, true, true, true);
    }

    /** The scene's batches copied field by field through the bulk API, in the given stride. */
    private static Scene copiedInBulk(Scene scene, int stride) {
        BodyBatch from = scene.bodies();
        BodyBatch bodies = new BodyBatch().setSize(from.size());
        for (BodyField field : BodyField.values()) {
            float[] interleaved = new float[from.size() * stride];
            from.get(field, 0, interleaved, 0, stride, from.size());
            bodies.set(field, 0, interleaved, 0, stride, from.size());
        }
        ContactBatch source = scene.contacts();
        int n = source.size();
        ContactBatch contacts = new ContactBatch().setSize(n);
        for (ContactField field : ContactField.values()) {
            float[] interleaved = new float[n * stride];
            source.get(field, 0, interleaved, 0, stride, n);
            contacts.set(field, 0, interleaved, 0, stride, n);
        }
        for (ContactBody side : ContactBody.values()) {
            contacts.set(side, 0, source.get(side, 0, new int[n], 0, n), 0, n);
        }
        contacts.setIds(0, source.getIds(0, new int[n], 0, n), 0, n);
        return new Scene(bodies, new int[0], contacts);
    }

    private static void assertSameContacts(ContactBatch expected, ContactBatch actual) {
        assertEquals(expected.size(), actual.size());
        for (int c = 0; c < expected.size(); c++) {
            for (ContactField field : ContactField.values()) {
                assertEquals(Float.floatToRawIntBits(expected.get(field, c)), Float.floatToRawIntBits(actual.get(field, c)),
                        field + " of contact " + c);
            }
            assertEquals(expected.bodyA(c), actual.bodyA(c));
            assertEquals(expected.bodyB(c), actual.bodyB(c));
            assertEquals(expected.id(c), actual.id(c));
        }
    }

    @Test
    void aBatchCopiedInBulkIsTheBatchBitForBitAndSolvesToTheSameBits() {
        Scene scene = scene();
        RigidSettings settings = SolveSettings.iterative(20);
        try (ContactSolver solver = Backends.cpu()) {
            SolveResult expected = solver.solve(scene.bodies(), scene.contacts(), settings, new SolveResult());
            for (int stride : new int[] {1, 3}) {
                Scene copy = copiedInBulk(scene, stride);
                Bits.assertIdentical(scene.bodies(), copy.bodies(), "bodies, stride " + stride);
                assertSameContacts(scene.contacts(), copy.contacts());
                Bits.assertIdentical(expected, solver.solve(copy.bodies(), copy.contacts(), settings, new SolveResult()),
                        "solve of the bulk copy, stride " + stride);
            }
        }
    }

    @Test
    void buffersAreReadAndWrittenAtAbsoluteIndicesLeavingTheirPositions() {
        Scene scene = scene();
        BodyBatch from = scene.bodies();
        int n = from.size();
        FloatBuffer buffer = ByteBuffer.allocateDirect((n + 5) * Float.BYTES).order(ByteOrder.nativeOrder()).asFloatBuffer();
        buffer.position(2);
        BodyBatch bodies = new BodyBatch().setSize(n);
        for (BodyField field : BodyField.values()) {
            from.get(field, 0, buffer, 5, n);
            bodies.set(field, 0, buffer, 5, n);
        }
        assertEquals(2, buffer.position());
        Bits.assertIdentical(from, bodies, "bodies through a buffer");

        ContactBatch source = scene.contacts();
        int m = source.size();
        FloatBuffer floats = FloatBuffer.allocate(m);
        IntBuffer ints = IntBuffer.allocate(m + 1);
        ContactBatch contacts = new ContactBatch().setSize(m);
        for (ContactField field : ContactField.values()) {
            floats.put(0, source.get(field, new float[m]));
            contacts.set(field, 0, floats, 0, m);
        }
        for (ContactBody side : ContactBody.values()) {
            ints.put(1, source.get(side, 0, new int[m], 0, m));
            contacts.set(side, 0, ints, 1, m);
        }
        contacts.setIds(0, source.getIds(0, new int[m], 0, m), 0, m);
        assertSameContacts(source, contacts);
    }

    @Test
    void resultsReadInBulkAreTheValuesTheGettersGive() {
        Scene scene = scene();
        try (ContactSolver solver = Backends.cpu()) {
            SolveResult result = solver.solve(scene.bodies(), scene.contacts(), SolveSettings.iterative(10), new SolveResult());
            int bodies = result.bodyCount();
            int contacts = result.contactCount();
            float[] interleaved = new float[3 * bodies];
            result.get(DeltaField.DVX, 0, interleaved, 0, 3, bodies);
            result.get(DeltaField.DVY, 0, interleaved, 1, 3, bodies);
            result.get(DeltaField.DVZ, 0, interleaved, 2, 3, bodies);
            Vector3f dv = new Vector3f();
            for (int i = 0; i < bodies; i++) {
                result.getLinearDelta(i, dv);
                assertArrayEquals(new float[] {dv.x, dv.y, dv.z}, new float[] {interleaved[3 * i],
                    interleaved[3 * i + 1], interleaved[3 * i + 2]}, "body " + i);
            }
            FloatBuffer buffer = FloatBuffer.allocate(contacts);
            for (ImpulseField field : ImpulseField.values()) {
                float[] packed = result.get(field, new float[contacts]);
                result.get(field, 0, buffer, 0, contacts);
                for (int c = 0; c < contacts; c++) {
                    assertEquals(Float.floatToRawIntBits(result.impulse(field, c)), Float.floatToRawIntBits(packed[c]));
                    assertEquals(Float.floatToRawIntBits(packed[c]), Float.floatToRawIntBits(buffer.get(c)));
                }
            }
            assertTrue(result.impulse(ImpulseField.TX, 0) != 0.0f || result.impulse(ImpulseField.TY, 0) != 0.0f
                    || contacts > 1, "a scene with friction");
        }
    }

    @Test
    void theOneAddTakesEveryFieldAsTheSettersWouldStoreThem() {
        Vector3f point = new Vector3f(1.0f, 2.0f, 3.0f);
        Vector3f normal = new Vector3f(0.0f, 1.0f, 0.0f);
        ContactBatch bySetters = new ContactBatch();
        int c = bySetters.add(0, 1, point, normal, 0.25f);
        bySetters.setSeparation(c, -0.01f).setFriction(c, 0.6f).setRollingResistance(c, 0.02f).setId(c, 77);
        ContactBatch inOne = new ContactBatch();
        assertEquals(0, inOne.add(0, 1, point, normal, 0.25f, -0.01f, 0.6f, 0.02f, 77));
        assertSameContacts(bySetters, inOne);
    }

    @Test
    void setSizeAddsDefaultElementsAndDropsTheTail() {
        BodyBatch bodies = new BodyBatch();
        bodies.add();
        bodies.setPosition(0, 1.0f, 2.0f, 3.0f).setMass(0, 2.0f);
        bodies.setSize(40);
        assertEquals(40, bodies.size());
        assertEquals(1.0f, bodies.get(BodyField.X, 0), "kept");
        BodyBatch added = new BodyBatch();
        added.add();
        for (BodyField field : BodyField.values()) {
            assertEquals(added.get(field, 0), bodies.get(field, 39), field + ": as add() makes it");
        }
        bodies.setSize(1);
        assertEquals(1, bodies.size());
        assertEquals(0.5f, bodies.inverseMass(0));

        ContactBatch contacts = new ContactBatch();
        contacts.setSize(30);
        assertEquals(30, contacts.size());
        assertEquals(ContactBatch.WORLD, contacts.bodyA(29));
        assertEquals(ContactBatch.WORLD, contacts.bodyB(29));
        assertEquals(29, contacts.id(29));
        assertEquals(0.0f, contacts.friction(29));
        assertThrows(IllegalArgumentException.class, () -> contacts.setSize(-1));
        assertThrows(IllegalArgumentException.class, () -> bodies.setSize(BodyBatch.MAX_SIZE + 1));
    }

    @Test
    void aSetSizeBatchIsRefusedUntilItsBodiesAreSet() {
        BodyBatch bodies = new BodyBatch().setSize(2);
        bodies.setMass(1, 1.0f);
        ContactBatch contacts = new ContactBatch().setSize(1);
        contacts.set(ContactField.NY, new float[] {1.0f});
        InvalidInputException refused = assertThrows(InvalidInputException.class,
                () -> ContactSolver.validate(bodies, contacts));
        assertTrue(refused.getMessage().contains("contact 0"), refused.getMessage());
        contacts.set(ContactBody.B, 0, new int[] {1}, 0, 1);
        ContactSolver.validate(bodies, contacts);
    }

    @Test
    void aRangeThatDoesNotFitIsRefusedBeforeAnythingIsWritten() {
        Scene scene = scene();
        BodyBatch bodies = scene.bodies();
        ContactBatch contacts = scene.contacts();
        int n = bodies.size();
        int m = contacts.size();
        BodyBatch bodiesBefore = copiedInBulk(scene, 1).bodies();
        ContactBatch contactsBefore = copiedInBulk(scene, 1).contacts();
        float[] ones = new float[n + m + 10];
        java.util.Arrays.fill(ones, 1.0f);
        int[] indices = new int[m + 10];

        assertRefused(IndexOutOfBoundsException.class, "bodies 1 to " + n,
                () -> bodies.set(BodyField.X, 1, ones, 0, n));
        assertRefused(IndexOutOfBoundsException.class, "bodies -1",
                () -> bodies.set(BodyField.X, -1, ones, 0, 2));
        assertRefused(IndexOutOfBoundsException.class, "count must not be negative",
                () -> bodies.set(BodyField.X, 0, ones, 0, -1));
        assertRefused(IndexOutOfBoundsException.class, "src: " + n + " values from index " + (20 + ones.length - n),
                () -> bodies.set(BodyField.X, 0, ones, 20 + ones.length - n, n));
        assertRefused(IndexOutOfBoundsException.class, "at stride 3",
                () -> bodies.set(BodyField.X, 0, new float[n], 0, 3, n));
        assertRefused(IllegalArgumentException.class, "stride must be at least 1",
                () -> bodies.set(BodyField.X, 0, ones, 0, 0, n));
        assertRefused(IndexOutOfBoundsException.class, "src:",
                () -> bodies.set(BodyField.X, 0, FloatBuffer.allocate(n - 1), 0, n));
        assertRefused(IndexOutOfBoundsException.class, "src:",
                () -> bodies.set(BodyField.X, new float[n - 1]));
        assertRefused(IndexOutOfBoundsException.class, "contacts 0 to " + m,
                () -> contacts.set(ContactField.FRICTION, 0, ones, 0, m + 1));
        assertRefused(IndexOutOfBoundsException.class, "src:",
                () -> contacts.set(ContactBody.A, 0, new int[m - 1], 0, m));
        assertRefused(IndexOutOfBoundsException.class, "contacts",
                () -> contacts.setIds(m, indices, 0, 1));
        assertRefused(IndexOutOfBoundsException.class, "src:",
                () -> contacts.set(ContactBody.B, 0, IntBuffer.allocate(m), 1, m));
        Bits.assertIdentical(bodiesBefore, bodies, "bodies after the refusals");
        assertSameContacts(contactsBefore, contacts);

        FloatBuffer readOnly = FloatBuffer.allocate(n).asReadOnlyBuffer();
        assertRefused(IllegalArgumentException.class, "dest: the buffer is read-only",
                () -> bodies.get(BodyField.X, 0, readOnly, 0, n));
        float[] dest = new float[n];
        assertRefused(IndexOutOfBoundsException.class, "bodies",
                () -> bodies.get(BodyField.X, 0, dest, 0, n + 1));
        assertArrayEquals(new float[n], dest, "a refused read writes nothing into dest");
        bodies.set(BodyField.X, n, new float[0], 0, 0); // an empty range at the end is no range
    }

    private static void assertRefused(Class<? extends RuntimeException> type, String part, Executable call) {
        RuntimeException refused = assertThrows(type, call);
        assertTrue(refused.getMessage().contains(part), refused.getMessage());
        assertEquals(1, refused.getMessage().lines().count(), "one line");
    }
}
