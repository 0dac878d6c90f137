package io.contactsolver.testing;

import io.contactsolver.BodyBatch;
import io.contactsolver.ContactBatch;
import io.contactsolver.scene.BoxContacts;
import io.contactsolver.scene.BoxScene;

/**
 * A box pyramid of base 8 with its own collision, as the soft-step tests step it on each backend:
 * its bodies, and its contacts as last found from them.
 */
public final class SteppedPyramid {
    public final BodyBatch bodies = BoxScene.pyramid(8).bodies();
    public final ContactBatch contacts = new ContactBatch();
    private final BoxContacts collision = new BoxContacts(BoxScene.HALF_EXTENT, 0.02f, BoxContacts.DEFAULT_FRICTION);

    /** Finds the contacts anew from the bodies as they are now. */
    public void findContacts() {
        collision.find(bodies, contacts);
    }
}
