package io.contactsolver.bench;

import io.contactsolver.BodyBatch;
import io.contactsolver.ContactBatch;
import java.util.ArrayList;
import java.util.List;
import org.joml.Matrix3f;
import org.joml.Quaternionf;
import org.joml.Vector3f;

/**
 * The benchmark's {@code naive} baseline: the single-pass solve as a Java programmer would first
 * write it. One object per body holding JOML types, one object per contact pointing at its bodies,
 * one loop over the contacts on one thread, JOML temporaries, the world-space inverse inertia
 * rebuilt for every contact, impulses summed straight into the bodies. No validation. It computes
 * the same quantity as the module's single pass (same formula, float, same per-body order), which
 * the benchmark checks before timing it.
 */
final class NaiveSolver {
    static final class Body {
        final Vector3f position = new Vector3f();
        final Quaternionf orientation = new Quaternionf();
        final Vector3f velocity = new Vector3f();
        final Vector3f angularVelocity = new Vector3f();
        float inverseMass;
        final Matrix3f inverseInertia = new Matrix3f();
        final Vector3f dv = new Vector3f();
        final Vector3f dw = new Vector3f();
    }

    static final class Contact {
        Body a;
        Body b;
        final Vector3f point = new Vector3f();
        final Vector3f normal = new Vector3f();
        float restitution;
        float impulse;
    }

    final List<Body> bodies = new ArrayList<>();
    final List<Contact> contacts = new ArrayList<>();

    /** Builds the object graph from batches (not part of the timed solve). */
    NaiveSolver(BodyBatch batch, ContactBatch contactBatch) {
        for (int i = 0; i < batch.size(); i++) {
            Body body = new Body();
            batch.getPosition(i, body.position);
            batch.getOrientation(i, body.orientation);
            batch.getLinearVelocity(i, body.velocity);
            batch.getAngularVelocity(i, body.angularVelocity);
            body.inverseMass = batch.inverseMass(i);
            batch.getInverseInertia(i, body.inverseInertia);
            bodies.add(body);
        }
        for (int c = 0; c < contactBatch.size(); c++) {
            Contact contact = new Contact();
            contact.a = contactBatch.bodyA(c) < 0 ? null : bodies.get(contactBatch.bodyA(c));
            contact.b = contactBatch.bodyB(c) < 0 ? null : bodies.get(contactBatch.bodyB(c));
            contactBatch.getPoint(c, contact.point);
            contactBatch.getNormal(c, contact.normal);
            contact.restitution = contactBatch.restitution(c);
            contacts.add(contact);
        }
    }

    void solve() {
        for (Body body : bodies) {
            body.dv.zero();
            body.dw.zero();
        }
        for (Contact contact : contacts) {
            Vector3f n = contact.normal;
            Vector3f ra = contact.a == null ? new Vector3f() : new Vector3f(contact.point).sub(contact.a.position);
            Vector3f rb = contact.b == null ? new Vector3f() : new Vector3f(contact.point).sub(contact.b.position);
            Vector3f va = contact.a == null ? new Vector3f()
                    : new Vector3f(contact.a.angularVelocity).cross(ra).add(contact.a.velocity);
            Vector3f vb = contact.b == null ? new Vector3f()
                    : new Vector3f(contact.b.angularVelocity).cross(rb).add(contact.b.velocity);
            float vn = new Vector3f(vb).sub(va).dot(n);
            float j = 0.0f;
            Matrix3f worldA = worldInverseInertia(contact.a);
            Matrix3f worldB = worldInverseInertia(contact.b);
            if (vn < 0.0f) {
                Vector3f raxn = new Vector3f(ra).cross(n);
                Vector3f rbxn = new Vector3f(rb).cross(n);
                float k = inverseMass(contact.a) + inverseMass(contact.b)
                        + raxn.dot(new Vector3f(raxn).mul(worldA)) + rbxn.dot(new Vector3f(rbxn).mul(worldB));
                if (k > 0.0f) {
                    j = -(1.0f + contact.restitution) * vn / k;
                }
            }
            contact.impulse = j;
            if (contact.a != null) {
                Vector3f impulse = new Vector3f(n).mul(-j);
                contact.a.dv.add(new Vector3f(impulse).mul(contact.a.inverseMass));
                contact.a.dw.add(new Vector3f(ra).cross(impulse).mul(worldA));
            }
            if (contact.b != null) {
                Vector3f impulse = new Vector3f(n).mul(j);
                contact.b.dv.add(new Vector3f(impulse).mul(contact.b.inverseMass));
                contact.b.dw.add(new Vector3f(rb).cross(impulse).mul(worldB));
            }
        }
    }

    private static float inverseMass(Body body) {
        return body == null ? 0.0f : body.inverseMass;
    }

    private static Matrix3f worldInverseInertia(Body body) {
        if (body == null) {
            return new Matrix3f().zero();
        }
        Matrix3f rotation = new Matrix3f().rotation(body.orientation);
        return new Matrix3f(rotation).mul(body.inverseInertia).mul(rotation.transpose());
    }
}
