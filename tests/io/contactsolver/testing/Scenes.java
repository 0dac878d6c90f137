package io.contactsolver.testing;

import io.contactsolver.BodyBatch;
import io.contactsolver.ContactBatch;
import io.contactsolver.scene.Scene;
import org.joml.Matrix3f;

/** Hand-built scenes with many simultaneous contacts that only tests need. */
public final class Scenes {
    private Scenes() {
    }

    /**
     * {@code count} equal balls (radius 0.5, mass 1) touching in a row along x; the first moves at
     * {@code speed} towards the others, which are at rest.
     */
    public static Scene ballRow(int count, float speed, float restitution) {
        BodyBatch bodies = new BodyBatch();
        ContactBatch contacts = new ContactBatch();
        int[] ids = new int[count];
        float inertia = 0.4f * 1.0f * 0.25f;
        for (int i = 0; i < count; i++) {
            int ball = bodies.add();
            ids[i] = i;
            bodies.setMassProperties(ball, 1.0f, new Matrix3f().scaling(inertia)).setPosition(ball, i, 0.0f, 0.0f);
            if (i > 0) {
                contacts.add(ball - 1, ball, i - 0.5f, 0.0f, 0.0f, 1.0f, 0.0f, 0.0f, restitution);
            }
        }
        bodies.setLinearVelocity(0, speed, 0.0f, 0.0f);
        return new Scene(bodies, ids, contacts);
    }
}
