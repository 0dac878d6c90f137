package io.contactsolver;

import io.contactsolver.layout.BodyField;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.FloatBuffer;
import java.nio.ReadOnlyBufferException;
import org.joml.Matrix3f;
import org.joml.Quaternionf;
import org.joml.Vector3f;
import org.junit.jupiter.api.Test;

class BodyBatchTest {

    @Test
    void aNewBodyIsStaticAtTheOriginWithIdentityOrientationAtRest() {
        BodyBatch bodies = new BodyBatch(1);
        int body = bodies.add();
        assertEquals(new Vector3f(), bodies.getPosition(body, new Vector3f()));
        assertEquals(new Quaternionf(), bodies.getOrientation(body, new Quaternionf()));
        assertTrue(bodies.isStatic(body));
    }

    @Test
    void gettersReturnWhatSettersStoredThroughJomlTypes() {
        BodyBatch bodies = new BodyBatch();
        int body = bodies.add();
        Quaternionf q = new Quaternionf().rotateXYZ(0.3f, -0.2f, 1.1f);
        bodies.setPosition(body, new Vector3f(1, 2, 3)).setOrientation(body, q)
                .setLinearVelocity(body, new Vector3f(4, 5, 6)).setAngularVelocity(body, new Vector3f(7, 8, 9));
        Vector3f dest = new Vector3f();
        assertTrue(dest == bodies.getPosition(body, dest), "fills and returns dest");
        assertEquals(new Vector3f(1, 2, 3), dest);
        assertEquals(q, bodies.getOrientation(body, new Quaternionf()));
        assertEquals(new Vector3f(4, 5, 6), bodies.getLinearVelocity(body, dest));
        assertEquals(new Vector3f(7, 8, 9), bodies.getAngularVelocity(body, dest));
        assertEquals(5.0f, bodies.get(BodyField.VY, body));
    }

    @Test
    void massAndInertiaHelpersStoreInverses() {
        BodyBatch bodies = new BodyBatch();
        int body = bodies.add();
        Matrix3f inertia = new Matrix3f(2, 0.5f, 0, 0.5f, 3, 0.25f, 0, 0.25f, 4);
        bodies.setMassProperties(body, 4.0f, inertia);
        assertEquals(0.25f, bodies.inverseMass(body));
        Matrix3f inverse = bodies.getInverseInertia(body, new Matrix3f());
        Matrix3f identity = new Matrix3f(inertia).mul(inverse);
        assertTrue(identity.equals(new Matrix3f(), 1e-6f), identity.toString());
        assertEquals(inverse.m01(), inverse.m10(), "stored symmetric");
    }

    @Test
    void particleAndStaticHelpers() {
        BodyBatch bodies = new BodyBatch();
        int particle = bodies.add();
        bodies.setParticle(particle, 2.0f);
        assertEquals(0.5f, bodies.inverseMass(particle));
        assertEquals(new Matrix3f().zero(), bodies.getInverseInertia(particle, new Matrix3f()));
        assertTrue(!bodies.isStatic(particle));
        bodies.setStatic(particle);
        assertTrue(bodies.isStatic(particle));
    }

    @Test
    void helpersRefuseWhatTheyCannotInvert() {
        BodyBatch bodies = new BodyBatch();
        int body = bodies.add();
        assertThrows(IllegalArgumentException.class, () -> bodies.setMass(body, 0.0f));
        assertThrows(IllegalArgumentException.class, () -> bodies.setMass(body, Float.POSITIVE_INFINITY));
        assertThrows(IllegalArgumentException.class, () -> bodies.setInertia(body, new Matrix3f().scaling(1, 0, 1)));
        assertThrows(IllegalArgumentException.class, () -> bodies.setInertia(body, new Matrix3f(1, 2, 0, 2, 1, 0, 0, 0, 1)),
                "indefinite");
        assertThrows(IllegalArgumentException.class,
                () -> bodies.setInverseInertia(body, new Matrix3f(1, 0.5f, 0, 0, 1, 0, 0, 0, 1)), "not symmetric");
    }

    /**
     * A helper that promises a finite inverse keeps it: a mass or tensor so small that its inverse
     * overflows float is refused at the call, naming it, and the body keeps what it had; a valid
     * tensor with entries near the float limit is accepted, its symmetric mean taken without overflow.
     */
    @Test
    void helpersNeverStoreAnInfiniteInverseAndAcceptEntriesNearTheFloatLimit() {
        BodyBatch bodies = new BodyBatch();
        int body = bodies.add();
        bodies.setMass(body, 2.0f).setInverseInertia(body, 1, 2, 3, 0, 0, 0);
        IllegalArgumentException tiny = assertThrows(IllegalArgumentException.class, () -> bodies.setMass(body, 1e-39f));
        assertTrue(tiny.getMessage().contains("mass 1.0E-39") && tiny.getMessage().contains("overflows"),
                tiny.getMessage());
        assertThrows(IllegalArgumentException.class, () -> bodies.setParticle(body, 1e-39f));
        assertThrows(IllegalArgumentException.class,
                () -> bodies.setInertia(body, new Matrix3f().scaling(1e-39f)));
        // a good mass with a bad tensor stores neither
        assertThrows(IllegalArgumentException.class,
                () -> bodies.setMassProperties(body, 8.0f, new Matrix3f().scaling(1e-39f)));
        assertEquals(0.5f, bodies.inverseMass(body));
        assertEquals(new Matrix3f().scaling(1, 2, 3), bodies.getInverseInertia(body, new Matrix3f()));

        Matrix3f huge = new Matrix3f(3e38f, 3e38f, 0, 3e38f, 3.2e38f, 0, 0, 0, 3e38f);
        bodies.setInverseInertia(body, huge);
        assertEquals(huge, bodies.getInverseInertia(body, new Matrix3f()));
        Matrix3f nearlySymmetric = new Matrix3f(3e38f, 3.0000002e38f, 0, 3e38f, 3.2e38f, 0, 0, 0, 3e38f);
        bodies.setInverseInertia(body, nearlySymmetric);
        assertTrue(Float.isFinite(bodies.getInverseInertia(body, new Matrix3f()).m01()));
        Matrix3f hugeInertia = new Matrix3f().scaling(3e38f);
        bodies.setInertia(body, hugeInertia);
        assertEquals((float) (1.0 / 3e38), bodies.getInverseInertia(body, new Matrix3f()).m00());
    }

    @Test
    void indicesOutsideTheBatchAreRefused() {
        BodyBatch bodies = new BodyBatch();
        bodies.add();
        assertThrows(IndexOutOfBoundsException.class, () -> bodies.setPosition(1, 0, 0, 0));
        assertThrows(IndexOutOfBoundsException.class, () -> bodies.get(BodyField.X, -1));
    }

    @Test
    void growingKeepsEveryFieldOfEveryBody() {
        BodyBatch bodies = new BodyBatch(2);
        for (int i = 0; i < 1000; i++) {
            int body = bodies.add();
            for (BodyField field : BodyField.values()) {
                bodies.set(field, body, i * 100 + field.ordinal());
            }
        }
        assertTrue(bodies.capacity() >= 1000);
        for (int i = 0; i < 1000; i++) {
            for (BodyField field : BodyField.values()) {
                assertEquals(i * 100 + field.ordinal(), bodies.get(field, i));
            }
        }
    }

    @Test
    void theDataViewIsReadOnlyStructureOfArraysByCapacity() {
        BodyBatch bodies = new BodyBatch(8);
        int body = bodies.add();
        bodies.setLinearVelocity(body, 1, 2, 3);
        FloatBuffer data = bodies.data();
        assertEquals(2.0f, data.get(BodyField.VY.ordinal() * bodies.capacity() + body));
        assertThrows(ReadOnlyBufferException.class, () -> data.put(0, 1.0f));
        assertTrue(data.isDirect());
    }
}
