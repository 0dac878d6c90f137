package io.contactsolver.scene;

import io.contactsolver.BodyBatch;
import io.contactsolver.ContactBatch;
import java.util.Objects;

/**
 * Bodies and contacts as the files describe them: the batches the solver takes, plus each body's
 * id (files refer to bodies by id, the solver by index) and, for a scene read from files, the
 * line each record came from, so that a fault found later can be reported at its line.
 *
 * @param bodyIds id of each body, by index
 * @param bodyLines line number of each body in its file, or {@code null} if not read from a file
 * @param contactLines line number of each contact in its file, or {@code null}
 */
public record Scene(BodyBatch bodies, int[] bodyIds, ContactBatch contacts, int[] bodyLines, int[] contactLines) {
    public Scene {
        Objects.requireNonNull(bodies, "bodies");
        Objects.requireNonNull(bodyIds, "bodyIds");
        Objects.requireNonNull(contacts, "contacts");
    }

    /** A scene not read from files. */
    public Scene(BodyBatch bodies, int[] bodyIds, ContactBatch contacts) {
        this(bodies, bodyIds, contacts, null, null);
    }
}
