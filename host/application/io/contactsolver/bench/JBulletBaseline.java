package io.contactsolver.bench;

import com.bulletphysics.collision.shapes.SphereShape;
import com.bulletphysics.dynamics.RigidBody;
import com.bulletphysics.dynamics.RigidBodyConstructionInfo;
import com.bulletphysics.dynamics.constraintsolver.JacobianEntry;
import com.bulletphysics.linearmath.DefaultMotionState;
import com.bulletphysics.linearmath.Transform;
import io.contactsolver.BodyBatch;
import io.contactsolver.ContactBatch;
import io.contactsolver.layout.BodyField;
import javax.vecmath.Matrix3f;
import javax.vecmath.Quat4f;
import javax.vecmath.Vector3f;

/**
 * The benchmark's {@code jbullet} baseline: the single-pass solve computed with JBullet's own
 * pieces (JBullet 2010-10-10, the Java port of Bullet 2.x): point velocities from
 * {@code RigidBody.getVelocityInLocalPoint}, the effective inverse mass {@code K} from
 * {@code JacobianEntry.getDiagonal()} with JBullet's world inertia, and the impulses applied with
 * {@code RigidBody.applyImpulse}. All impulses are computed from the pre-solve velocities before
 * any is applied, which is the module's single pass (JBullet's own solver applies them one by one,
 * a different quantity).
 *
 * <p>JBullet keeps a diagonal body-space inertia only, so this baseline takes scenes whose bodies
 * have diagonal inverse inertia (the benchmark's pile of spheres); {@link #supports} says whether a
 * scene qualifies. The benchmark checks its impulses against the module's before timing it.
 */
final class JBulletBaseline {
    private final RigidBody[] bodies;
    private final RigidBody world;
    private final RigidBody[] contactA;
    private final RigidBody[] contactB;
    private final Vector3f[] points;
    private final Vector3f[] normals;
    private final float[] restitution;
    private final Vector3f[] initialVelocity;
    private final Vector3f[] initialSpin;
    final float[] impulses;

    /** Whether every body's inverse inertia is diagonal, as JBullet stores it. */
    static boolean supports(BodyBatch batch) {
        for (int i = 0; i < batch.size(); i++) {
            if (batch.get(BodyField.INV_IXY, i) != 0.0f || batch.get(BodyField.INV_IXZ, i) != 0.0f
                    || batch.get(BodyField.INV_IYZ, i) != 0.0f) {
                return false;
            }
        }
        return true;
    }

    /** Builds JBullet bodies and contacts from the batches (not part of the timed solve). */
    JBulletBaseline(BodyBatch batch, ContactBatch contactBatch) {
        SphereShape shape = new SphereShape(0.5f);
        bodies = new RigidBody[batch.size()];
        initialVelocity = new Vector3f[batch.size()];
        initialSpin = new Vector3f[batch.size()];
        org.joml.Vector3f v = new org.joml.Vector3f();
        org.joml.Quaternionf q = new org.joml.Quaternionf();
        for (int i = 0; i < batch.size(); i++) {
            float inverseMass = batch.inverseMass(i);
            Vector3f inertia = new Vector3f(inverse(batch.get(BodyField.INV_IXX, i)),
                    inverse(batch.get(BodyField.INV_IYY, i)), inverse(batch.get(BodyField.INV_IZZ, i)));
            Transform transform = new Transform();
            transform.setIdentity();
            batch.getPosition(i, v);
            transform.origin.set(v.x, v.y, v.z);
            batch.getOrientation(i, q);
            transform.setRotation(new Quat4f(q.x, q.y, q.z, q.w));
            RigidBody body = new RigidBody(new RigidBodyConstructionInfo(inverse(inverseMass),
                    new DefaultMotionState(transform), shape, inertia));
            body.setCenterOfMassTransform(transform);
            batch.getLinearVelocity(i, v);
            initialVelocity[i] = new Vector3f(v.x, v.y, v.z);
            batch.getAngularVelocity(i, v);
            initialSpin[i] = new Vector3f(v.x, v.y, v.z);
            bodies[i] = body;
        }
        Transform origin = new Transform();
        origin.setIdentity();
        world = new RigidBody(new RigidBodyConstructionInfo(0.0f, new DefaultMotionState(origin), shape,
                new Vector3f()));
        int count = contactBatch.size();
        contactA = new RigidBody[count];
        contactB = new RigidBody[count];
        points = new Vector3f[count];
        normals = new Vector3f[count];
        restitution = new float[count];
        impulses = new float[count];
        for (int c = 0; c < count; c++) {
            contactA[c] = contactBatch.bodyA(c) < 0 ? world : bodies[contactBatch.bodyA(c)];
            contactB[c] = contactBatch.bodyB(c) < 0 ? world : bodies[contactBatch.bodyB(c)];
            contactBatch.getPoint(c, v);
            points[c] = new Vector3f(v.x, v.y, v.z);
            contactBatch.getNormal(c, v);
            normals[c] = new Vector3f(v.x, v.y, v.z);
            restitution[c] = contactBatch.restitution(c);
        }
    }

    /** The timed part: every impulse from the pre-solve velocities, then all of them applied. */
    void solve() {
        for (int i = 0; i < bodies.length; i++) {
            bodies[i].setLinearVelocity(initialVelocity[i]);
            bodies[i].setAngularVelocity(initialSpin[i]);
        }
        Vector3f com = new Vector3f();
        Vector3f relA = new Vector3f();
        Vector3f relB = new Vector3f();
        Vector3f velocityA = new Vector3f();
        Vector3f velocityB = new Vector3f();
        Matrix3f worldToA = new Matrix3f();
        Matrix3f worldToB = new Matrix3f();
        Vector3f inertiaA = new Vector3f();
        Vector3f inertiaB = new Vector3f();
        Transform transform = new Transform();
        JacobianEntry jacobian = new JacobianEntry();
        for (int c = 0; c < impulses.length; c++) {
            RigidBody a = contactA[c];
            RigidBody b = contactB[c];
            relA.sub(points[c], a.getCenterOfMassPosition(com));
            relB.sub(points[c], b.getCenterOfMassPosition(com));
            a.getVelocityInLocalPoint(relA, velocityA);
            b.getVelocityInLocalPoint(relB, velocityB);
            velocityB.sub(velocityA);
            float vn = normals[c].dot(velocityB);
            float j = 0.0f;
            if (vn < 0.0f) {
                worldToA.transpose(a.getCenterOfMassTransform(transform).basis);
                worldToB.transpose(b.getCenterOfMassTransform(transform).basis);
                jacobian.init(worldToA, worldToB, relA, relB, normals[c], a.getInvInertiaDiagLocal(inertiaA),
                        a.getInvMass(), b.getInvInertiaDiagLocal(inertiaB), b.getInvMass());
                float k = jacobian.getDiagonal();
                if (k > 0.0f) {
                    j = -(1.0f + restitution[c]) * vn / k;
                }
            }
            impulses[c] = j;
        }
        Vector3f impulse = new Vector3f();
        for (int c = 0; c < impulses.length; c++) {
            relA.sub(points[c], contactA[c].getCenterOfMassPosition(com));
            relB.sub(points[c], contactB[c].getCenterOfMassPosition(com));
            impulse.scale(-impulses[c], normals[c]);
            contactA[c].applyImpulse(impulse, relA);
            impulse.scale(impulses[c], normals[c]);
            contactB[c].applyImpulse(impulse, relB);
        }
    }

    private static float inverse(float value) {
        return value == 0.0f ? 0.0f : 1.0f / value;
    }
}
