package io.contactsolver.testing;

import io.contactsolver.BodyBatch;
import io.contactsolver.ContactBatch;
import org.joml.Matrix3d;
import org.joml.Quaterniond;
import org.joml.Vector3d;

/**
 * An independent float64 implementation of the single-pass solve of docs/physics.md, written the
 * plain way (JOML double objects, one loop) to serve as an oracle. It shares no code with the
 * module: it reads the batches through their public getters only.
 */
public final class ReferenceSolver {
    /** Per body: dv (0..2) and dw (3..5). */
    public final double[][] deltas;
    /** Per contact: j. */
    public final double[] impulses;

    private ReferenceSolver(int bodies, int contacts) {
        deltas = new double[bodies][6];
        impulses = new double[contacts];
    }

    public static ReferenceSolver singlePass(BodyBatch bodies, ContactBatch contacts) {
        ReferenceSolver result = new ReferenceSolver(bodies.size(), contacts.size());
        for (int c = 0; c < contacts.size(); c++) {
            Side a = side(bodies, contacts.bodyA(c), contacts, c);
            Side b = side(bodies, contacts.bodyB(c), contacts, c);
            Vector3d n = new Vector3d(contacts.getNormal(c, new org.joml.Vector3f()));
            double vn = new Vector3d(b.pointVelocity).sub(a.pointVelocity).dot(n);
            double j = 0.0;
            if (vn < 0.0) {
                double k = a.inverseMass + b.inverseMass + angular(a, n) + angular(b, n);
                if (k > 0.0) {
                    j = -(1.0 + contacts.restitution(c)) * vn / k;
                }
            }
            result.impulses[c] = j;
            apply(result, contacts.bodyA(c), a, new Vector3d(n).mul(-j));
            apply(result, contacts.bodyB(c), b, new Vector3d(n).mul(j));
        }
        return result;
    }

    private static final class Side {
        double inverseMass;
        Matrix3d worldInverseInertia = new Matrix3d().zero();
        Vector3d r = new Vector3d();
        Vector3d pointVelocity = new Vector3d();
    }

    private static Side side(BodyBatch bodies, int body, ContactBatch contacts, int c) {
        Side side = new Side();
        if (body < 0) {
            return side;
        }
        Vector3d p = new Vector3d(contacts.getPoint(c, new org.joml.Vector3f()));
        Vector3d x = new Vector3d(bodies.getPosition(body, new org.joml.Vector3f()));
        Quaterniond q = new Quaterniond(bodies.getOrientation(body, new org.joml.Quaternionf()));
        Matrix3d rotation = new Matrix3d().rotation(q);
        Matrix3d bodyInverse = new Matrix3d(bodies.getInverseInertia(body, new org.joml.Matrix3f()));
        side.worldInverseInertia = new Matrix3d(rotation).mul(bodyInverse).mul(new Matrix3d(rotation).transpose());
        side.inverseMass = bodies.inverseMass(body);
        side.r = p.sub(x);
        Vector3d v = new Vector3d(bodies.getLinearVelocity(body, new org.joml.Vector3f()));
        Vector3d w = new Vector3d(bodies.getAngularVelocity(body, new org.joml.Vector3f()));
        side.pointVelocity = v.add(new Vector3d(w).cross(side.r));
        return side;
    }

    private static double angular(Side side, Vector3d n) {
        Vector3d rxn = new Vector3d(side.r).cross(n);
        return rxn.dot(new Vector3d(rxn).mul(side.worldInverseInertia));
    }

    private static void apply(ReferenceSolver result, int body, Side side, Vector3d impulse) {
        if (body < 0) {
            return;
        }
        Vector3d dv = new Vector3d(impulse).mul(side.inverseMass);
        Vector3d dw = new Vector3d(side.r).cross(impulse).mul(side.worldInverseInertia);
        double[] d = result.deltas[body];
        d[0] += dv.x;
        d[1] += dv.y;
        d[2] += dv.z;
        d[3] += dw.x;
        d[4] += dw.y;
        d[5] += dw.z;
    }
}
