package io.contactsolver;

import io.contactsolver.layout.ContactField;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ReadOnlyBufferException;
import org.joml.Vector3f;
import org.junit.jupiter.api.Test;

class ContactBatchTest {

    @Test
    void addStoresEveryFieldAndDefaultsTheIdToTheIndex() {
        ContactBatch contacts = new ContactBatch(1);
        int first = contacts.add(3, ContactBatch.WORLD, new Vector3f(1, 2, 3), new Vector3f(0, 0, 1), 0.25f);
        int second = contacts.add(0, 1, 4, 5, 6, 1, 0, 0, 1.0f);
        assertEquals(0, first);
        assertEquals(1, second);
        assertEquals(3, contacts.bodyA(first));
        assertEquals(ContactBatch.WORLD, contacts.bodyB(first));
        assertEquals(new Vector3f(1, 2, 3), contacts.getPoint(first, new Vector3f()));
        assertEquals(new Vector3f(0, 0, 1), contacts.getNormal(first, new Vector3f()));
        assertEquals(0.25f, contacts.restitution(first));
        assertEquals(1, contacts.id(second));
        contacts.setId(second, -42);
        assertEquals(-42, contacts.id(second));
        assertEquals(5.0f, contacts.get(ContactField.PY, second));
    }

    @Test
    void growingKeepsEveryFieldAndId() {
        ContactBatch contacts = new ContactBatch(1);
        for (int c = 0; c < 5000; c++) {
            contacts.add(c, c + 1, c, -c, 2 * c, 0, 1, 0, 0.5f);
            contacts.setId(c, 10_000 - c);
        }
        for (int c = 0; c < 5000; c += 7) {
            assertEquals(c, contacts.bodyA(c));
            assertEquals(c + 1, contacts.bodyB(c));
            assertEquals(new Vector3f(c, -c, 2 * c), contacts.getPoint(c, new Vector3f()));
            assertEquals(10_000 - c, contacts.id(c));
        }
    }

    @Test
    void clearKeepsStorageAndViewsAreReadOnly() {
        ContactBatch contacts = new ContactBatch(4);
        contacts.add(0, 1, 0, 0, 0, 1, 0, 0, 0);
        contacts.clear();
        assertEquals(0, contacts.size());
        assertEquals(4, contacts.capacity());
        assertThrows(IndexOutOfBoundsException.class, () -> contacts.bodyA(0));
        assertThrows(ReadOnlyBufferException.class, () -> contacts.data().put(0, 1.0f));
        assertThrows(ReadOnlyBufferException.class, () -> contacts.bodies().put(0, 1));
        assertTrue(contacts.bodies().isDirect());
    }

    /** A batch knows, without reading them, when none of its contacts has a manifold number. */
    @Test
    void aBatchKnowsWhenNoContactHasAManifoldNumber() {
        ContactBatch contacts = new ContactBatch();
        for (int c = 0; c < 40; c++) {
            contacts.add(0, 1, new Vector3f(), new Vector3f(1, 0, 0), 0.5f);
        }
        assertFalse(contacts.numbered(), "added: each its own manifold");
        contacts.setManifold(3, ContactBatch.NO_MANIFOLD).setSize(60);
        assertFalse(contacts.numbered(), "none given, grown");
        contacts.setManifold(7, 2);
        assertTrue(contacts.numbered());
        contacts.clear();
        contacts.add(0, 1, new Vector3f(), new Vector3f(1, 0, 0), 0.5f);
        assertFalse(contacts.numbered(), "cleared");
        assertEquals(ContactBatch.NO_MANIFOLD, contacts.manifold(0));
        contacts.setManifolds(0, new int[] {ContactBatch.NO_MANIFOLD}, 0, 1);
        assertTrue(contacts.numbered(), "numbers given in bulk: read them");
    }
}
