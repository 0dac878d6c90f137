package io.contactsolver.scene;

import io.contactsolver.BodyBatch;
import io.contactsolver.ContactBatch;
import io.contactsolver.layout.BodyField;
import io.contactsolver.layout.ContactBody;
import io.contactsolver.layout.ContactField;

/** Copies of batches, field by field: every value, every body index and every contact id. */
public final class Batches {
    private Batches() {
    }

    public static BodyBatch copyOf(BodyBatch source) {
        BodyBatch copy = new BodyBatch(source.size());
        for (int i = 0; i < source.size(); i++) {
            copy.add();
            for (BodyField field : BodyField.values()) {
                copy.set(field, i, source.get(field, i));
            }
        }
        return copy;
    }

    public static ContactBatch copyOf(ContactBatch source) {
        ContactBatch copy = new ContactBatch(source.size());
        for (int c = 0; c < source.size(); c++) {
            copy.add(source.body(ContactBody.A, c), source.body(ContactBody.B, c), 0, 0, 0, 0, 1, 0, 0);
            for (ContactField field : ContactField.values()) {
                copy.set(field, c, source.get(field, c));
            }
            copy.setId(c, source.id(c));
        }
        return copy;
    }
}
