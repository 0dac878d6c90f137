package io.contactsolver.testing;

import io.contactsolver.BodyBatch;
import io.contactsolver.ContactBatch;
import io.contactsolver.SolveResult;
import io.contactsolver.layout.ImpulseField;
import java.util.HashMap;
import java.util.Map;
import org.joml.Matrix3d;
import org.joml.Matrix3f;
import org.joml.Quaterniond;
import org.joml.Quaternionf;
import org.joml.Vector3d;
import org.joml.Vector3f;

/**
 * An independent float64 implementation of docs/physics.md, "Friction and rolling resistance": the
 * single pass with friction (an impact law per contact, with its dissipation guard) and the
 * sequential-impulse iteration with friction and rolling resistance, written the plain way (JOML
 * double objects, the 3x3 matrix {@code K} built explicitly and inverted) to serve as an oracle. It
 * shares no code with the module and reads the batches through their public getters only.
 *
 * <p>The single pass also records, per contact, which branch of the law it took and whether that
 * decision was within a relative 1e-3 of its threshold ({@link #marginal}): there a float32
 * implementation may rightly take the other branch, so comparisons leave such contacts out.
 */
public final class ReferenceFriction {
    /** The branch of the single-pass law a contact took. */
    public enum Outcome {
        /** {@code v_n >= 0}: no impulse. */
        SEPARATING,
        /** {@code mu = 0}: the frictionless impulse. */
        FRICTIONLESS,
        /** Step 3: the sticking impulse, inside the cone. */
        STICKING,
        /** Step 4: the sliding impulse along the pre-impact tangential velocity. */
        SLIDING,
        /** Step 4's fallback: {@code |v_t| = 0} or {@code n . K d <= 0}, the frictionless impulse. */
        DEGENERATE,
        /** Step 5: the sticking or sliding impulse would have lost less energy than the frictionless one. */
        GUARDED
    }

    /** Relative distance from a decision threshold below which float32 may decide the other way. */
    public static final double MARGIN = 1e-3;

    /** Per body: dv (0..2) and dw (3..5). */
    public final double[][] deltas;
    /** Per contact, in {@link ImpulseField} order: j, the tangential impulse on b, the angular (rolling and twist) impulse on b. */
    public final double[][] impulses;
    /** Single pass only: the branch each contact took. */
    public final Outcome[] outcomes;
    /** Single pass only: contacts whose decision was too close to its threshold to compare. */
    public final boolean[] marginal;
    /** Single pass only: {@code G} of the sticking or sliding impulse before the guard (NaN where there was none). */
    public final double[] candidateGain;
    /** Single pass only: {@code G} of the frictionless impulse. */
    public final double[] frictionlessGain;
    /** Single pass only: {@code n . K d} of the sliding direction (NaN where not computed). */
    public final double[] slidingNKd;

    private ReferenceFriction(int bodies, int contacts) {
        deltas = new double[bodies][6];
        impulses = new double[contacts][ImpulseField.COUNT];
        outcomes = new Outcome[contacts];
        marginal = new boolean[contacts];
        candidateGain = new double[contacts];
        frictionlessGain = new double[contacts];
        slidingNKd = new double[contacts];
        java.util.Arrays.fill(candidateGain, Double.NaN);
        java.util.Arrays.fill(frictionlessGain, Double.NaN);
        java.util.Arrays.fill(slidingNKd, Double.NaN);
    }

    // ---- bodies and contact rows --------------------------------------------------------------

    /** A body in double: the world is a body with zero inverse mass and inertia, at rest at the origin. */
    public static final class Body {
        public double inverseMass;
        public Matrix3d inverseInertia = new Matrix3d().zero();
        public Vector3d position = new Vector3d();
        public Vector3d velocity = new Vector3d();
        public Vector3d angularVelocity = new Vector3d();
    }

    public static Body body(BodyBatch bodies, int i) {
        Body body = new Body();
        if (i < 0) {
            return body;
        }
        Matrix3d rotation = new Matrix3d().rotation(new Quaterniond(bodies.getOrientation(i, new Quaternionf())));
        body.inverseInertia = new Matrix3d(rotation).mul(new Matrix3d(bodies.getInverseInertia(i, new Matrix3f())))
                .mul(new Matrix3d(rotation).transpose());
        body.inverseMass = bodies.inverseMass(i);
        body.position = new Vector3d(bodies.getPosition(i, new Vector3f()));
        body.velocity = new Vector3d(bodies.getLinearVelocity(i, new Vector3f()));
        body.angularVelocity = new Vector3d(bodies.getAngularVelocity(i, new Vector3f()));
        return body;
    }

    /** One contact in double, with its arms, tangents and the matrix K. */
    public static final class Row {
        public int a;
        public int b;
        public Body bodyA;
        public Body bodyB;
        public Vector3d n;
        public Vector3d ra;
        public Vector3d rb;
        public Vector3d t1;
        public Vector3d t2;
        public double restitution;
        public double mu;
        public double rho;
        public double tau;
        /** Maps an impulse on b (and its opposite on a) to the change of the relative contact velocity. */
        public Matrix3d k;

        /** The relative contact velocity {@code v_pb - v_pa} with the given deltas added (null: none). */
        public Vector3d relativeVelocity(double[][] deltas) {
            return pointVelocity(bodyB, b, rb, deltas).sub(pointVelocity(bodyA, a, ra, deltas));
        }

        /** The relative angular velocity {@code w_b - w_a} with the given deltas added (null: none). */
        public Vector3d relativeAngularVelocity(double[][] deltas) {
            return angular(bodyB, b, deltas).sub(angular(bodyA, a, deltas));
        }

        /** The kinetic energy change {@code G(P) = P . v + P . K P / 2} of an impulse P on b from velocity v. */
        public double gain(Vector3d impulse, Vector3d v) {
            return impulse.dot(v) + 0.5 * impulse.dot(new Vector3d(impulse).mul(k));
        }
    }

    public static Row row(BodyBatch bodies, ContactBatch contacts, int c) {
        Row row = new Row();
        row.a = contacts.bodyA(c);
        row.b = contacts.bodyB(c);
        row.bodyA = body(bodies, row.a);
        row.bodyB = body(bodies, row.b);
        Vector3d p = new Vector3d(contacts.getPoint(c, new Vector3f()));
        row.n = new Vector3d(contacts.getNormal(c, new Vector3f()));
        row.ra = row.a < 0 ? new Vector3d() : new Vector3d(p).sub(row.bodyA.position);
        row.rb = row.b < 0 ? new Vector3d() : new Vector3d(p).sub(row.bodyB.position);
        row.restitution = contacts.restitution(c);
        row.mu = contacts.friction(c);
        row.rho = contacts.rollingResistance(c);
        row.tau = contacts.torsion(c);
        row.k = kMatrix(row.bodyA, row.ra, row.bodyB, row.rb);
        Vector3d[] tangents = tangents(row.n);
        row.t1 = tangents[0];
        row.t2 = tangents[1];
        return row;
    }

    /** {@code K = (1/m_a + 1/m_b) 1 - [r_a]x I_a^-1 [r_a]x - [r_b]x I_b^-1 [r_b]x}, column by column. */
    public static Matrix3d kMatrix(Body a, Vector3d ra, Body b, Vector3d rb) {
        Matrix3d k = new Matrix3d();
        for (int column = 0; column < 3; column++) {
            Vector3d x = new Vector3d(column == 0 ? 1 : 0, column == 1 ? 1 : 0, column == 2 ? 1 : 0);
            Vector3d kx = new Vector3d(x).mul(a.inverseMass + b.inverseMass);
            // -[r]x I^-1 [r]x x = -r x (I^-1 (r x x))
            kx.sub(new Vector3d(ra).cross(new Vector3d(ra).cross(x).mul(a.inverseInertia)));
            kx.sub(new Vector3d(rb).cross(new Vector3d(rb).cross(x).mul(b.inverseInertia)));
            k.setColumn(column, kx);
        }
        return k;
    }

    /** The branchless orthonormal basis of the tangent plane of {@code n}, as docs/physics.md builds it. */
    public static Vector3d[] tangents(Vector3d n) {
        double s = Math.copySign(1.0, n.z);
        double a = -1.0 / (s + n.z);
        double b = n.x * n.y * a;
        return new Vector3d[] {new Vector3d(1.0 + s * n.x * n.x * a, s * b, -s * n.x),
            new Vector3d(b, s + n.y * n.y * a, -n.y)};
    }

    private static Vector3d pointVelocity(Body body, int index, Vector3d r, double[][] deltas) {
        Vector3d v = new Vector3d(body.velocity);
        Vector3d w = new Vector3d(body.angularVelocity);
        if (deltas != null && index >= 0) {
            v.add(deltas[index][0], deltas[index][1], deltas[index][2]);
            w.add(deltas[index][3], deltas[index][4], deltas[index][5]);
        }
        return v.add(w.cross(r));
    }

    private static Vector3d angular(Body body, int index, double[][] deltas) {
        Vector3d w = new Vector3d(body.angularVelocity);
        if (deltas != null && index >= 0) {
            w.add(deltas[index][3], deltas[index][4], deltas[index][5]);
        }
        return w;
    }

    /** Adds an impulse {@code +P} (at the contact point) and angular impulse {@code +L} on b, their opposites on a. */
    private static void apply(double[][] deltas, Row row, Vector3d impulse, Vector3d angularImpulse) {
        push(deltas, row.b, row.bodyB, row.rb, impulse, angularImpulse, 1.0);
        push(deltas, row.a, row.bodyA, row.ra, impulse, angularImpulse, -1.0);
    }

    private static void push(double[][] deltas, int index, Body body, Vector3d r, Vector3d impulse,
            Vector3d angularImpulse, double sign) {
        if (index < 0) {
            return;
        }
        Vector3d p = new Vector3d(impulse).mul(sign);
        Vector3d dv = new Vector3d(p).mul(body.inverseMass);
        Vector3d torque = new Vector3d(r).cross(p);
        if (angularImpulse != null) {
            torque.add(new Vector3d(angularImpulse).mul(sign));
        }
        Vector3d dw = torque.mul(body.inverseInertia);
        double[] d = deltas[index];
        d[0] += dv.x;
        d[1] += dv.y;
        d[2] += dv.z;
        d[3] += dw.x;
        d[4] += dw.y;
        d[5] += dw.z;
    }

    // ---- the single pass ---------------------------------------------------------------------

    /** The single pass with friction, every contact from the pre-solve velocities, summed per body. */
    public static ReferenceFriction singlePass(BodyBatch bodies, ContactBatch contacts) {
        ReferenceFriction result = new ReferenceFriction(bodies.size(), contacts.size());
        for (int c = 0; c < contacts.size(); c++) {
            Row row = row(bodies, contacts, c);
            Vector3d impulse = result.impact(c, row);
            double j = impulse.dot(row.n);
            Vector3d tangential = new Vector3d(impulse).sub(new Vector3d(row.n).mul(j));
            double[] out = result.impulses[c];
            out[0] = j;
            out[1] = tangential.x;
            out[2] = tangential.y;
            out[3] = tangential.z;
            apply(result.deltas, row, impulse, null);
        }
        return result;
    }

    /** The impulse on b of one contact by the single-pass law; records the branch and margins. */
    private Vector3d impact(int c, Row row) {
        Vector3d v = row.relativeVelocity(null);
        double vn = v.dot(row.n);
        double e = row.restitution;
        if (vn >= 0.0) {
            outcomes[c] = Outcome.SEPARATING;
            // with friction the sticking impulse need not vanish as v_n -> 0-: a jump at v_n = 0
            marginal[c] = row.mu > 0.0 && vn < MARGIN * v.length();
            return new Vector3d();
        }
        double kn = row.n.dot(new Vector3d(row.n).mul(row.k));
        Vector3d frictionless = kn > 0.0 ? new Vector3d(row.n).mul(-(1.0 + e) * vn / kn) : new Vector3d();
        if (row.mu == 0.0) {
            outcomes[c] = Outcome.FRICTIONLESS;
            return frictionless;
        }
        marginal[c] = -vn < MARGIN * v.length() && row.mu > 0.0;
        double frictionlessG = row.gain(frictionless, v);
        frictionlessGain[c] = frictionlessG;

        Vector3d candidate = null;
        double det = row.k.determinant();
        double scale = row.k.getScale(new Vector3d()).length();
        if (det > 0.0) {
            marginal[c] |= det < MARGIN * scale * scale * scale;
            Vector3d target = new Vector3d(v).add(new Vector3d(row.n).mul(e * vn)).negate();
            Vector3d sticking = new Vector3d(target).mul(new Matrix3d(row.k).invert());
            double pn = sticking.dot(row.n);
            Vector3d pt = new Vector3d(sticking).sub(new Vector3d(row.n).mul(pn));
            double cone = pt.lengthSquared() - row.mu * row.mu * pn * pn;
            marginal[c] |= Math.abs(pn) < MARGIN * sticking.length()
                    || Math.abs(cone) < MARGIN * (pt.lengthSquared() + row.mu * row.mu * pn * pn);
            if (pn >= 0.0 && cone <= 0.0) {
                candidate = sticking;
                outcomes[c] = Outcome.STICKING;
            }
        }
        if (candidate == null) {
            Vector3d vt = new Vector3d(v).sub(new Vector3d(row.n).mul(vn));
            double speed = vt.length();
            marginal[c] |= speed < MARGIN * v.length();
            if (speed == 0.0) {
                outcomes[c] = Outcome.DEGENERATE;
                return frictionless;
            }
            Vector3d d = new Vector3d(row.n).sub(new Vector3d(vt).div(speed).mul(row.mu));
            double nkd = row.n.dot(new Vector3d(d).mul(row.k));
            slidingNKd[c] = nkd;
            marginal[c] |= Math.abs(nkd) < MARGIN * (kn + row.mu * row.k.getScale(new Vector3d()).length());
            if (nkd <= 0.0) {
                outcomes[c] = Outcome.DEGENERATE;
                return frictionless;
            }
            candidate = d.mul(-(1.0 + e) * vn / nkd);
            outcomes[c] = Outcome.SLIDING;
        }
        double g = row.gain(candidate, v);
        candidateGain[c] = g;
        marginal[c] |= Math.abs(g - frictionlessG) < MARGIN * (Math.abs(g) + Math.abs(frictionlessG));
        if (g > frictionlessG) {
            outcomes[c] = Outcome.GUARDED;
            return frictionless;
        }
        return candidate;
    }

    // ---- the iterative solver ----------------------------------------------------------------

    /**
     * {@code iterations} sweeps of sequential impulses in contact order, each visit the normal row,
     * the tangent pair (one step size {@code k_t}, projected onto the disk {@code mu lambda_n}),
     * where {@code rho > 0} the rolling pair and where {@code tau > 0} the twist about the normal
     * (step size {@code k_tw = n . (I_a^-1 + I_b^-1) n}, clamped to {@code |lambda_tw| <= tau
     * lambda_n}); from the warm start if given.
     *
     * @param warm per contact the previous impulses in {@link ImpulseField} order (world space), or
     *     null; rows of it may be null for contacts without one
     * @param threshold the restitution threshold
     */
    public static ReferenceFriction iterative(BodyBatch bodies, ContactBatch contacts, int iterations, double[][] warm,
            double threshold) {
        int m = contacts.size();
        ReferenceFriction result = new ReferenceFriction(bodies.size(), m);
        Row[] rows = new Row[m];
        double[] target = new double[m];
        double[] kn = new double[m];
        double[] kt = new double[m];
        double[] kr = new double[m];
        double[] lambdaN = new double[m];
        double[][] lambdaT = new double[m][2];
        double[][] lambdaR = new double[m][2];
        double[] ktw = new double[m];
        double[] lambdaTw = new double[m];
        for (int c = 0; c < m; c++) {
            Row row = rows[c] = row(bodies, contacts, c);
            double vn0 = row.relativeVelocity(null).dot(row.n);
            target[c] = vn0 < -threshold ? -row.restitution * vn0 : 0.0;
            kn[c] = row.n.dot(new Vector3d(row.n).mul(row.k));
            kt[c] = largestEigenvalue(row.t1.dot(new Vector3d(row.t1).mul(row.k)),
                    row.t1.dot(new Vector3d(row.t2).mul(row.k)), row.t2.dot(new Vector3d(row.t2).mul(row.k)));
            Matrix3d angular = new Matrix3d(row.bodyA.inverseInertia).add(row.bodyB.inverseInertia);
            kr[c] = largestEigenvalue(row.t1.dot(new Vector3d(row.t1).mul(angular)),
                    row.t1.dot(new Vector3d(row.t2).mul(angular)), row.t2.dot(new Vector3d(row.t2).mul(angular)));
            ktw[c] = row.n.dot(new Vector3d(row.n).mul(angular));
            if (warm != null && warm[c] != null) {
                double[] w = warm[c];
                lambdaN[c] = Math.max(0.0, w[0]);
                Vector3d t = new Vector3d(w[1], w[2], w[3]);
                Vector3d r = new Vector3d(w[4], w[5], w[6]);
                lambdaT[c][0] = t.dot(row.t1);
                lambdaT[c][1] = t.dot(row.t2);
                clampToDisk(lambdaT[c], row.mu * lambdaN[c]);
                lambdaR[c][0] = r.dot(row.t1);
                lambdaR[c][1] = r.dot(row.t2);
                clampToDisk(lambdaR[c], row.rho * lambdaN[c]);
                if (row.tau > 0.0 && ktw[c] > 0.0) {
                    lambdaTw[c] = clamp(r.dot(row.n), row.tau * lambdaN[c]);
                }
                apply(result.deltas, row, new Vector3d(row.n).mul(lambdaN[c])
                        .add(new Vector3d(row.t1).mul(lambdaT[c][0])).add(new Vector3d(row.t2).mul(lambdaT[c][1])),
                        new Vector3d(row.t1).mul(lambdaR[c][0]).add(new Vector3d(row.t2).mul(lambdaR[c][1]))
                                .add(new Vector3d(row.n).mul(lambdaTw[c])));
            }
        }
        double[][] d = result.deltas;
        for (int iteration = 0; iteration < iterations; iteration++) {
            for (int c = 0; c < m; c++) {
                Row row = rows[c];
                if (kn[c] <= 0.0) {
                    continue;
                }
                double vn = row.relativeVelocity(d).dot(row.n);
                double next = Math.max(0.0, lambdaN[c] + (target[c] - vn) / kn[c]);
                apply(d, row, new Vector3d(row.n).mul(next - lambdaN[c]), null);
                lambdaN[c] = next;
                if (kt[c] > 0.0) {
                    Vector3d v = row.relativeVelocity(d);
                    double[] t = {lambdaT[c][0] - v.dot(row.t1) / kt[c], lambdaT[c][1] - v.dot(row.t2) / kt[c]};
                    clampToDisk(t, row.mu * lambdaN[c]);
                    apply(d, row, new Vector3d(row.t1).mul(t[0] - lambdaT[c][0])
                            .add(new Vector3d(row.t2).mul(t[1] - lambdaT[c][1])), null);
                    lambdaT[c] = t;
                }
                if (row.rho > 0.0 && kr[c] > 0.0) {
                    Vector3d w = row.relativeAngularVelocity(d);
                    double[] r = {lambdaR[c][0] - w.dot(row.t1) / kr[c], lambdaR[c][1] - w.dot(row.t2) / kr[c]};
                    clampToDisk(r, row.rho * lambdaN[c]);
                    apply(d, row, new Vector3d(), new Vector3d(row.t1).mul(r[0] - lambdaR[c][0])
                            .add(new Vector3d(row.t2).mul(r[1] - lambdaR[c][1])));
                    lambdaR[c] = r;
                }
                if (row.tau > 0.0 && ktw[c] > 0.0) {
                    double spin = row.relativeAngularVelocity(d).dot(row.n);
                    double twist = clamp(lambdaTw[c] - spin / ktw[c], row.tau * lambdaN[c]);
                    apply(d, row, new Vector3d(), new Vector3d(row.n).mul(twist - lambdaTw[c]));
                    lambdaTw[c] = twist;
                }
            }
        }
        for (int c = 0; c < m; c++) {
            Row row = rows[c];
            Vector3d t = new Vector3d(row.t1).mul(lambdaT[c][0]).add(new Vector3d(row.t2).mul(lambdaT[c][1]));
            Vector3d r = new Vector3d(row.t1).mul(lambdaR[c][0]).add(new Vector3d(row.t2).mul(lambdaR[c][1]))
                    .add(new Vector3d(row.n).mul(lambdaTw[c]));
            result.impulses[c] = new double[] {lambdaN[c], t.x, t.y, t.z, r.x, r.y, r.z};
        }
        return result;
    }

    private static double clamp(double value, double limit) {
        return Math.max(-limit, Math.min(limit, value));
    }

    private static void clampToDisk(double[] lambda, double radius) {
        double length = Math.hypot(lambda[0], lambda[1]);
        if (length > radius) {
            double scale = length > 0.0 ? radius / length : 0.0;
            lambda[0] *= scale;
            lambda[1] *= scale;
        }
    }

    /** The larger eigenvalue of the symmetric 2x2 matrix {@code [[a, b], [b, c]]}. */
    public static double largestEigenvalue(double a, double b, double c) {
        return 0.5 * (a + c) + Math.hypot(0.5 * (a - c), b);
    }

    /** A result's impulses as a warm start for {@link #iterative}, matched to {@code contacts} by id. */
    public static double[][] warmStart(SolveResult previous, ContactBatch contacts) {
        Map<Integer, Integer> byId = new HashMap<>();
        for (int p = 0; p < previous.contactCount(); p++) {
            byId.put(previous.contactId(p), p);
        }
        double[][] warm = new double[contacts.size()][];
        for (int c = 0; c < contacts.size(); c++) {
            Integer p = byId.get(contacts.id(c));
            if (p != null) {
                warm[c] = new double[ImpulseField.COUNT];
                for (ImpulseField field : ImpulseField.values()) {
                    warm[c][field.ordinal()] = previous.impulse(field, p);
                }
            }
        }
        return warm;
    }

    // ---- invariants, in double from float results --------------------------------------------

    /**
     * The change of kinetic energy of the bodies under the given deltas (float results or double
     * ones), in double. A body whose inverse inertia is singular (a particle) must not turn; its
     * rotational energy is taken as unchanged.
     */
    public static double kineticEnergyChange(BodyBatch bodies, double[][] deltas) {
        double change = 0.0;
        for (int i = 0; i < bodies.size(); i++) {
            Body body = body(bodies, i);
            double[] d = deltas[i];
            Vector3d dv = new Vector3d(d[0], d[1], d[2]);
            Vector3d dw = new Vector3d(d[3], d[4], d[5]);
            if (body.inverseMass > 0.0) {
                change += new Vector3d(body.velocity).mul(2.0).add(dv).dot(dv) / (2.0 * body.inverseMass);
            }
            if (body.inverseInertia.determinant() > 0.0) {
                Matrix3d inertia = new Matrix3d(body.inverseInertia).invert();
                change += new Vector3d(body.angularVelocity).mul(2.0).add(dw).dot(new Vector3d(dw).mul(inertia)) / 2.0;
            }
        }
        return change;
    }

    /** A result's deltas as a double array, per body dv then dw. */
    public static double[][] deltas(SolveResult result) {
        double[][] deltas = new double[result.bodyCount()][6];
        for (int i = 0; i < result.bodyCount(); i++) {
            for (io.contactsolver.layout.DeltaField field : io.contactsolver.layout.DeltaField.values()) {
                deltas[i][field.ordinal()] = result.delta(field, i);
            }
        }
        return deltas;
    }
}
