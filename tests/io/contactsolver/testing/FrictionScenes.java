package io.contactsolver.testing;

import io.contactsolver.BodyBatch;
import io.contactsolver.ContactBatch;
import io.contactsolver.scene.Scene;
import java.util.SplittableRandom;
import org.joml.Matrix3d;
import org.joml.Matrix3f;
import org.joml.Quaterniond;
import org.joml.Quaternionf;
import org.joml.Vector3d;
import org.joml.Vector3f;

/**
 * Scenes for the friction tests: the checks of docs/physics.md (a sphere on a plane or an incline,
 * a box on four corners) in an arbitrary orientation, and random frictional scenes with short lever
 * arms. The world is body {@link ContactBatch#WORLD}; the plane passes through the origin.
 */
public final class FrictionScenes {
    private FrictionScenes() {
    }

    /** A random orthonormal frame: {@code [0]} a unit normal, {@code [1]} a unit tangent, {@code [2]} = [0] x [1]. */
    public static Vector3d[] frame(SplittableRandom random) {
        Vector3d n = new Vector3d();
        do {
            n.set(random.nextDouble(-1, 1), random.nextDouble(-1, 1), random.nextDouble(-1, 1));
        } while (n.length() < 0.2 || n.length() > 1.0);
        n.normalize();
        Vector3d helper = Math.abs(n.x) < 0.6 ? new Vector3d(1, 0, 0) : new Vector3d(0, 1, 0);
        Vector3d s = new Vector3d(helper).sub(new Vector3d(n).mul(helper.dot(n))).normalize();
        double angle = random.nextDouble(0, 2 * Math.PI);
        Vector3d other = new Vector3d(n).cross(s);
        s.mul(Math.cos(angle)).add(other.mul(Math.sin(angle))).normalize();
        return new Vector3d[] {n, s, new Vector3d(n).cross(s)};
    }

    /** The axis-aligned frame: normal +y, tangent +x. */
    public static Vector3d[] upright() {
        return new Vector3d[] {new Vector3d(0, 1, 0), new Vector3d(1, 0, 0), new Vector3d(0, 0, -1)};
    }

    /**
     * A solid sphere (body 0: mass {@code mass}, radius {@code radius}, inverse inertia
     * {@code 5 / (2 m r^2)}) resting on the world's plane through the origin with normal {@code n}
     * (contact {@code WORLD -> 0} at the origin), with the given velocities.
     */
    public static Scene sphereOnPlane(Vector3d n, double radius, double mass, Vector3d velocity,
            Vector3d angularVelocity, float restitution, float mu, float rho) {
        return sphereOnPlane(n, radius, mass, velocity, angularVelocity, restitution, mu, rho, 0.0f);
    }

    /** {@link #sphereOnPlane(Vector3d, double, double, Vector3d, Vector3d, float, float, float)} with torsional resistance {@code tau}. */
    public static Scene sphereOnPlane(Vector3d n, double radius, double mass, Vector3d velocity,
            Vector3d angularVelocity, float restitution, float mu, float rho, float tau) {
        BodyBatch bodies = new BodyBatch();
        int sphere = bodies.add();
        float inverse = (float) (5.0 / (2.0 * mass * radius * radius));
        bodies.setMass(sphere, (float) mass).setInverseInertia(sphere, inverse, inverse, inverse, 0, 0, 0)
                .setPosition(sphere, f(new Vector3d(n).mul(radius)))
                .setLinearVelocity(sphere, f(velocity)).setAngularVelocity(sphere, f(angularVelocity));
        ContactBatch contacts = new ContactBatch();
        int c = contacts.add(ContactBatch.WORLD, sphere, new Vector3f(), f(n), restitution);
        contacts.setFriction(c, mu).setRollingResistance(c, rho).setTorsion(c, tau);
        return new Scene(bodies, new int[] {0}, contacts);
    }

    /**
     * A box (body 0, half extents {@code hx} along the downhill tangent {@code frame[1]}, {@code hy}
     * along the normal {@code frame[0]}, {@code hz} along {@code frame[2]}) resting on the world's
     * plane on its four bottom corners (four contacts {@code WORLD -> 0}), with velocity {@code v}.
     */
    public static Scene boxOnFourCorners(Vector3d[] frame, double hx, double hy, double hz, double mass, Vector3d v,
            float mu) {
        BodyBatch bodies = new BodyBatch();
        int box = bodies.add();
        // body axes x, y, z map to frame[1], frame[0], -frame[2] (right-handed: s x n = -(n x s))
        Vector3d ex = frame[1];
        Vector3d ey = frame[0];
        Vector3d ez = new Vector3d(ex).cross(ey);
        Matrix3d rotation = new Matrix3d().setColumn(0, ex).setColumn(1, ey).setColumn(2, ez);
        Quaterniond q = new Quaterniond().setFromNormalized(rotation);
        Matrix3f inertia = new Matrix3f().scaling((float) (mass * (hy * hy + hz * hz) / 3.0),
                (float) (mass * (hx * hx + hz * hz) / 3.0), (float) (mass * (hx * hx + hy * hy) / 3.0));
        Vector3d centre = new Vector3d(ey).mul(hy);
        bodies.setMassProperties(box, (float) mass, inertia).setOrientation(box, new Quaternionf(q))
                .setPosition(box, f(centre)).setLinearVelocity(box, f(v));
        ContactBatch contacts = new ContactBatch();
        for (int corner = 0; corner < 4; corner++) {
            Vector3d p = new Vector3d(centre).sub(new Vector3d(ey).mul(hy))
                    .add(new Vector3d(ex).mul((corner & 1) == 0 ? hx : -hx))
                    .add(new Vector3d(ez).mul((corner & 2) == 0 ? hz : -hz));
            int c = contacts.add(ContactBatch.WORLD, box, f(p), f(ey), 0.0f);
            contacts.setFriction(c, mu);
        }
        return new Scene(bodies, new int[] {0}, contacts);
    }

    /**
     * A slender box (body 0: mass 2, half extents 1 x 0.1 x 0.1) whose long axis leans {@code phi}
     * from the vertical towards +x, its lower end touching the world's plane y = 0 at the origin
     * (contact {@code WORLD -> 0}, n = +y), moving at {@code (vx, vy, 0)} and turning at
     * {@code (0, 0, wz)}: normal and tangential directions are strongly coupled through its rotation.
     */
    public static Scene rodOnPlane(double phiDegrees, double vx, double vy, double wz, float restitution, float mu) {
        BodyBatch bodies = new BodyBatch();
        int rod = bodies.add();
        float m = 2.0f;
        float hx = 1.0f, hy = 0.1f, hz = 0.1f;
        Matrix3f inertia = new Matrix3f().scaling(m * (hy * hy + hz * hz) / 3, m * (hx * hx + hz * hz) / 3,
                m * (hx * hx + hy * hy) / 3);
        Quaternionf q = new Quaternionf().rotateZ((float) (Math.PI / 2 - Math.toRadians(phiDegrees)));
        Vector3f centre = q.transform(new Vector3f(1, 0, 0)).mul(hx);
        bodies.setMassProperties(rod, m, inertia).setOrientation(rod, q).setPosition(rod, centre)
                .setLinearVelocity(rod, (float) vx, (float) vy, 0).setAngularVelocity(rod, 0, 0, (float) wz);
        ContactBatch contacts = new ContactBatch();
        int c = contacts.add(ContactBatch.WORLD, rod, new Vector3f(), new Vector3f(0, 1, 0), restitution);
        contacts.setFriction(c, mu);
        return new Scene(bodies, new int[] {0}, contacts);
    }

    /**
     * The same scene turned by {@code rotation} about the origin: positions, orientations, velocities,
     * contact points and normals (the world is unchanged by a rotation). Restitution, friction and
     * rolling resistance are kept.
     */
    public static Scene rotated(Scene scene, Quaternionf rotation) {
        BodyBatch bodies = scene.bodies();
        Vector3f v = new Vector3f();
        Quaternionf q = new Quaternionf();
        for (int i = 0; i < bodies.size(); i++) {
            bodies.setPosition(i, rotation.transform(bodies.getPosition(i, v)));
            bodies.setLinearVelocity(i, rotation.transform(bodies.getLinearVelocity(i, v)));
            bodies.setAngularVelocity(i, rotation.transform(bodies.getAngularVelocity(i, v)));
            bodies.setOrientation(i, new Quaternionf(rotation).mul(bodies.getOrientation(i, q)).normalize());
        }
        ContactBatch contacts = scene.contacts();
        for (int c = 0; c < contacts.size(); c++) {
            contacts.setPoint(c, rotation.transform(contacts.getPoint(c, v)));
            contacts.setNormal(c, rotation.transform(contacts.getNormal(c, v)));
        }
        return scene;
    }

    /**
     * Random frictional scene with short lever arms: clusters of 2 to 5 bodies (rigid bodies, some
     * particles and, if {@code withStatic}, some static bodies) within a unit ball, each with a few
     * contacts among its members at points near the cluster centre, plus, if {@code withWorld},
     * contacts with the world. Normals, velocities, restitution, friction and rolling resistance
     * random; about one contact in six frictionless and one in three without rolling resistance.
     * Ids are shuffled.
     */
    public static Scene randomClusters(long seed, int clusters, boolean withStatic, boolean withParticles,
            boolean withWorld) {
        SplittableRandom random = new SplittableRandom(seed);
        BodyBatch bodies = new BodyBatch();
        ContactBatch contacts = new ContactBatch();
        for (int k = 0; k < clusters; k++) {
            Vector3d centre = new Vector3d(random.nextDouble(-50, 50), random.nextDouble(-50, 50),
                    random.nextDouble(-50, 50));
            int size = 2 + random.nextInt(4);
            int first = bodies.size();
            for (int i = 0; i < size; i++) {
                int body = bodies.add();
                bodies.setPosition(body, f(new Vector3d(centre).add(ball(random, 0.8))));
                bodies.setOrientation(body, new Quaternionf(randomRotation(random)));
                bodies.setLinearVelocity(body, f(ball(random, 3.0))).setAngularVelocity(body, f(ball(random, 3.0)));
                double kind = random.nextDouble();
                float mass = (float) (0.5 + 2.0 * random.nextDouble());
                if (withStatic && kind < 0.08) {
                    bodies.setStatic(body);
                } else if (withParticles && kind < 0.2) {
                    bodies.setParticle(body, mass);
                } else {
                    double sx = 0.3 + random.nextDouble(), sy = 0.3 + random.nextDouble(), sz = 0.3 + random.nextDouble();
                    Matrix3d principal = new Matrix3d().scaling(mass * (sy * sy + sz * sz) / 12.0,
                            mass * (sx * sx + sz * sz) / 12.0, mass * (sx * sx + sy * sy) / 12.0);
                    Matrix3d r = new Matrix3d().rotation(randomRotation(random));
                    Matrix3d inertia = new Matrix3d(r).mul(principal).mul(new Matrix3d(r).transpose());
                    float xy = (float) inertia.m01(), xz = (float) inertia.m02(), yz = (float) inertia.m12();
                    bodies.setMassProperties(body, mass, new Matrix3f((float) inertia.m00(), xy, xz,
                            xy, (float) inertia.m11(), yz, xz, yz, (float) inertia.m22()));
                }
            }
            int count = 1 + random.nextInt(2 * size);
            for (int c = 0; c < count; c++) {
                int a = first + random.nextInt(size);
                int b = first + random.nextInt(size - 1);
                b = b >= a ? b + 1 : b;
                if (withWorld && random.nextDouble() < 0.15) {
                    if (random.nextBoolean()) {
                        a = ContactBatch.WORLD;
                    } else {
                        b = ContactBatch.WORLD;
                    }
                }
                addRandomContact(random, contacts, a, b, new Vector3d(centre).add(ball(random, 0.6)));
            }
        }
        return new Scene(bodies, shuffledIds(random, bodies.size()), shuffleIds(random, contacts));
    }

    /**
     * Pairs of bodies, each pair with exactly one contact (or one body with one world contact):
     * nothing couples the contacts, so any visiting order gives the same iterations.
     */
    public static Scene isolatedContacts(long seed, int count) {
        SplittableRandom random = new SplittableRandom(seed);
        BodyBatch bodies = new BodyBatch();
        ContactBatch contacts = new ContactBatch();
        for (int k = 0; k < count; k++) {
            Vector3d centre = new Vector3d(random.nextDouble(-50, 50), random.nextDouble(-50, 50),
                    random.nextDouble(-50, 50));
            boolean world = random.nextDouble() < 0.3;
            int[] pair = new int[2];
            for (int i = 0; i < (world ? 1 : 2); i++) {
                int body = pair[i] = bodies.add();
                float mass = (float) (0.5 + 2.0 * random.nextDouble());
                bodies.setPosition(body, f(new Vector3d(centre).add(ball(random, 0.8))));
                bodies.setOrientation(body, new Quaternionf(randomRotation(random)));
                bodies.setLinearVelocity(body, f(ball(random, 3.0))).setAngularVelocity(body, f(ball(random, 3.0)));
                if (random.nextDouble() < 0.15) {
                    bodies.setParticle(body, mass);
                } else {
                    double sx = 0.3 + random.nextDouble(), sy = 0.3 + random.nextDouble(), sz = 0.3 + random.nextDouble();
                    bodies.setMassProperties(body, mass, new Matrix3f().scaling((float) (mass * (sy * sy + sz * sz) / 12),
                            (float) (mass * (sx * sx + sz * sz) / 12), (float) (mass * (sx * sx + sy * sy) / 12)));
                }
            }
            int a = world ? ContactBatch.WORLD : pair[0];
            int b = world ? pair[0] : pair[1];
            if (!world && random.nextBoolean()) {
                a = pair[1];
                b = pair[0];
            }
            addRandomContact(random, contacts, a, b, new Vector3d(centre).add(ball(random, 0.6)));
        }
        return new Scene(bodies, shuffledIds(random, bodies.size()), shuffleIds(random, contacts));
    }

    /** Friction (one in six 0), rolling resistance (one in three 0) and restitution at random, on every contact. */
    public static void randomFriction(SplittableRandom random, ContactBatch contacts) {
        for (int c = 0; c < contacts.size(); c++) {
            contacts.setFriction(c, random.nextInt(6) == 0 ? 0.0f : (float) (1.5 * random.nextDouble()));
            contacts.setRollingResistance(c, random.nextInt(3) == 0 ? 0.0f : (float) (0.2 * random.nextDouble()));
        }
    }

    /** Torsional resistance at random on every contact: one in three 0, the others up to 0.1 m. */
    public static void randomTorsion(SplittableRandom random, ContactBatch contacts) {
        for (int c = 0; c < contacts.size(); c++) {
            contacts.setTorsion(c, random.nextInt(3) == 0 ? 0.0f : (float) (0.1 * random.nextDouble()));
        }
    }

    private static void addRandomContact(SplittableRandom random, ContactBatch contacts, int a, int b, Vector3d p) {
        Vector3d n = ball(random, 1.0);
        while (n.length() < 0.1) {
            n = ball(random, 1.0);
        }
        n.normalize();
        int c = contacts.add(a, b, f(p), f(n), (float) random.nextDouble());
        contacts.setFriction(c, random.nextInt(6) == 0 ? 0.0f : (float) (1.5 * random.nextDouble()));
        contacts.setRollingResistance(c, random.nextInt(3) == 0 ? 0.0f : (float) (0.2 * random.nextDouble()));
    }

    private static Vector3d ball(SplittableRandom random, double radius) {
        Vector3d v = new Vector3d();
        do {
            v.set(random.nextDouble(-1, 1), random.nextDouble(-1, 1), random.nextDouble(-1, 1));
        } while (v.lengthSquared() > 1.0);
        return v.mul(radius);
    }

    private static Quaterniond randomRotation(SplittableRandom random) {
        Quaterniond q = new Quaterniond();
        do {
            q.set(random.nextDouble(-1, 1), random.nextDouble(-1, 1), random.nextDouble(-1, 1), random.nextDouble(-1, 1));
        } while (q.lengthSquared() > 1.0 || q.lengthSquared() < 0.01);
        return q.normalize();
    }

    private static int[] shuffledIds(SplittableRandom random, int count) {
        int[] ids = new int[count];
        for (int i = 0; i < count; i++) {
            ids[i] = i;
        }
        for (int i = count - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            int t = ids[i];
            ids[i] = ids[j];
            ids[j] = t;
        }
        return ids;
    }

    /** Gives the contacts a random permutation of 0..n-1 as ids (shifted by 1000). */
    private static ContactBatch shuffleIds(SplittableRandom random, ContactBatch contacts) {
        int[] ids = shuffledIds(random, contacts.size());
        for (int c = 0; c < contacts.size(); c++) {
            contacts.setId(c, 1000 + ids[c]);
        }
        return contacts;
    }

    public static Vector3f f(Vector3d v) {
        return new Vector3f((float) v.x, (float) v.y, (float) v.z);
    }
}
