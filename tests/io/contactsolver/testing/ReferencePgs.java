package io.contactsolver.testing;

import io.contactsolver.BodyBatch;
import io.contactsolver.ContactBatch;
import org.joml.Matrix3d;
import org.joml.Matrix3f;
import org.joml.Quaterniond;
import org.joml.Quaternionf;
import org.joml.Vector3d;
import org.joml.Vector3f;

/**
 * An independent float64 solution of the iterative solver's problem (docs/physics.md, "Several
 * contacts: single pass and iterative solver"): find impulses {@code lambda >= 0} such that every
 * contact leaves with {@code v_n' >= target} (target {@code -e v_n} when approaching faster than
 * the threshold, else 0) and {@code lambda > 0} only where {@code v_n' = target}. Plain projected
 * Gauss-Seidel in contact order, in double, run until no impulse changes by more than 1e-13 of the
 * largest: no colouring, no shared code with the module. The body velocity changes it converges to
 * are unique.
 */
public final class ReferencePgs {
    public final double[][] deltas;
    public final double[] impulses;
    public final int iterations;

    private ReferencePgs(double[][] deltas, double[] impulses, int iterations) {
        this.deltas = deltas;
        this.impulses = impulses;
        this.iterations = iterations;
    }

    public static ReferencePgs solve(BodyBatch bodies, ContactBatch contacts, double threshold, int maxIterations) {
        int n = bodies.size();
        int m = contacts.size();
        Matrix3d[] inverseInertia = new Matrix3d[n];
        double[] inverseMass = new double[n];
        for (int i = 0; i < n; i++) {
            Matrix3d rotation = new Matrix3d().rotation(new Quaterniond(bodies.getOrientation(i, new Quaternionf())));
            inverseInertia[i] = new Matrix3d(rotation).mul(new Matrix3d(bodies.getInverseInertia(i, new Matrix3f())))
                    .mul(new Matrix3d(rotation).transpose());
            inverseMass[i] = bodies.inverseMass(i);
        }
        Vector3d[] ra = new Vector3d[m];
        Vector3d[] rb = new Vector3d[m];
        Vector3d[] normal = new Vector3d[m];
        double[] k = new double[m];
        double[] target = new double[m];
        double[] vn0 = new double[m];
        for (int c = 0; c < m; c++) {
            Vector3d p = new Vector3d(contacts.getPoint(c, new Vector3f()));
            normal[c] = new Vector3d(contacts.getNormal(c, new Vector3f()));
            ra[c] = arm(bodies, contacts.bodyA(c), p);
            rb[c] = arm(bodies, contacts.bodyB(c), p);
            vn0[c] = pointVelocity(bodies, contacts.bodyB(c), rb[c], null).sub(
                    pointVelocity(bodies, contacts.bodyA(c), ra[c], null)).dot(normal[c]);
            k[c] = effectiveInverseMass(contacts.bodyA(c), ra[c], normal[c], inverseMass, inverseInertia)
                    + effectiveInverseMass(contacts.bodyB(c), rb[c], normal[c], inverseMass, inverseInertia);
            target[c] = vn0[c] < -threshold ? -contacts.restitution(c) * vn0[c] : 0.0;
        }
        double[][] deltas = new double[n][6];
        double[] lambda = new double[m];
        int iteration = 0;
        for (; iteration < maxIterations; iteration++) {
            double largestChange = 0.0;
            double largestImpulse = 1e-300;
            for (int c = 0; c < m; c++) {
                if (k[c] <= 0.0) {
                    continue;
                }
                double vn = vn0[c] + change(deltas, contacts.bodyB(c), rb[c], normal[c])
                        - change(deltas, contacts.bodyA(c), ra[c], normal[c]);
                double next = Math.max(0.0, lambda[c] + (target[c] - vn) / k[c]);
                double applied = next - lambda[c];
                lambda[c] = next;
                push(deltas, contacts.bodyA(c), ra[c], normal[c], -applied, inverseMass, inverseInertia);
                push(deltas, contacts.bodyB(c), rb[c], normal[c], applied, inverseMass, inverseInertia);
                largestChange = Math.max(largestChange, Math.abs(applied));
                largestImpulse = Math.max(largestImpulse, next);
            }
            if (largestChange <= 1e-13 * largestImpulse) {
                break;
            }
        }
        return new ReferencePgs(deltas, lambda, iteration + 1);
    }

    /** {@code v_n} after the solve, from the float inputs and these float64 deltas. */
    public double normalVelocityAfter(BodyBatch bodies, ContactBatch contacts, int c) {
        Vector3d p = new Vector3d(contacts.getPoint(c, new Vector3f()));
        Vector3d n = new Vector3d(contacts.getNormal(c, new Vector3f()));
        int a = contacts.bodyA(c);
        int b = contacts.bodyB(c);
        return pointVelocity(bodies, b, arm(bodies, b, p), deltas).sub(pointVelocity(bodies, a, arm(bodies, a, p), deltas))
                .dot(n);
    }

    private static Vector3d arm(BodyBatch bodies, int body, Vector3d p) {
        return body < 0 ? new Vector3d() : new Vector3d(p).sub(new Vector3d(bodies.getPosition(body, new Vector3f())));
    }

    /** Velocity of the point at arm r, with the deltas added if given. */
    public static Vector3d pointVelocity(BodyBatch bodies, int body, Vector3d r, double[][] deltas) {
        if (body < 0) {
            return new Vector3d();
        }
        Vector3d v = new Vector3d(bodies.getLinearVelocity(body, new Vector3f()));
        Vector3d w = new Vector3d(bodies.getAngularVelocity(body, new Vector3f()));
        if (deltas != null) {
            v.add(deltas[body][0], deltas[body][1], deltas[body][2]);
            w.add(deltas[body][3], deltas[body][4], deltas[body][5]);
        }
        return v.add(w.cross(r));
    }

    private static double effectiveInverseMass(int body, Vector3d r, Vector3d n, double[] inverseMass,
            Matrix3d[] inverseInertia) {
        if (body < 0) {
            return 0.0;
        }
        Vector3d rxn = new Vector3d(r).cross(n);
        return inverseMass[body] + rxn.dot(new Vector3d(rxn).mul(inverseInertia[body]));
    }

    private static double change(double[][] deltas, int body, Vector3d r, Vector3d n) {
        if (body < 0) {
            return 0.0;
        }
        double[] d = deltas[body];
        Vector3d w = new Vector3d(d[3], d[4], d[5]);
        return new Vector3d(d[0], d[1], d[2]).add(w.cross(r)).dot(n);
    }

    private static void push(double[][] deltas, int body, Vector3d r, Vector3d n, double impulse, double[] inverseMass,
            Matrix3d[] inverseInertia) {
        if (body < 0) {
            return;
        }
        Vector3d linear = new Vector3d(n).mul(impulse * inverseMass[body]);
        Vector3d angular = new Vector3d(r).cross(new Vector3d(n).mul(impulse)).mul(inverseInertia[body]);
        double[] d = deltas[body];
        d[0] += linear.x;
        d[1] += linear.y;
        d[2] += linear.z;
        d[3] += angular.x;
        d[4] += angular.y;
        d[5] += angular.z;
    }
}
