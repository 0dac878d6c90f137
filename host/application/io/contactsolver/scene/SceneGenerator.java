package io.contactsolver.scene;

import io.contactsolver.BodyBatch;
import io.contactsolver.ContactBatch;
import java.util.SplittableRandom;
import org.joml.Matrix3f;
import org.joml.Quaternionf;
import org.joml.Vector3f;

/**
 * Reproducible scenes for tests, benchmarks and demonstrations: the same seed gives the same
 * scene on every machine. Body and contact ids are shuffled (a random permutation), so nothing
 * downstream can rely on ids matching indices.
 */
public final class SceneGenerator {
    private SceneGenerator() {
    }

    /**
     * Bodies scattered in a cube with random orientation, velocity, mass and a random symmetric
     * positive definite inertia; about one body in twenty is static and one in ten a particle.
     * Contacts join random pairs (one in ten joins a body with the world), so bodies have many
     * contacts each and neighbours in the arrays are unrelated in space: the worst case for caches.
     */
    public static Scene randomGraph(long seed, int bodyCount, int contactCount) {
        SplittableRandom random = new SplittableRandom(seed);
        BodyBatch bodies = new BodyBatch(bodyCount);
        Quaternionf orientation = new Quaternionf();
        Matrix3f inertia = new Matrix3f();
        for (int i = 0; i < bodyCount; i++) {
            int body = bodies.add();
            float extent = (float) Math.cbrt(bodyCount) * 2.0f;
            bodies.setPosition(body, uniform(random, extent), uniform(random, extent), uniform(random, extent));
            randomOrientation(random, orientation);
            bodies.setOrientation(body, orientation);
            bodies.setLinearVelocity(body, uniform(random, 4.0f), uniform(random, 4.0f), uniform(random, 4.0f));
            bodies.setAngularVelocity(body, uniform(random, 3.0f), uniform(random, 3.0f), uniform(random, 3.0f));
            double kind = random.nextDouble();
            float mass = (float) (0.5 + 2.0 * random.nextDouble());
            if (kind < 0.05) {
                bodies.setStatic(body);
            } else if (kind < 0.15) {
                bodies.setParticle(body, mass);
            } else {
                randomInertia(random, mass, inertia);
                bodies.setMassProperties(body, mass, inertia);
            }
        }
        ContactBatch contacts = new ContactBatch(contactCount);
        Vector3f xa = new Vector3f();
        Vector3f xb = new Vector3f();
        Vector3f normal = new Vector3f();
        for (int c = 0; c < contactCount; c++) {
            int a = random.nextInt(bodyCount);
            int b = random.nextDouble() < 0.1 ? ContactBatch.WORLD : otherBody(random, a, bodyCount);
            bodies.getPosition(a, xa);
            if (b == ContactBatch.WORLD) {
                xb.set(xa).add(uniform(random, 1.0f), uniform(random, 1.0f), uniform(random, 1.0f));
            } else {
                bodies.getPosition(b, xb);
            }
            normal.set(uniform(random, 1.0f), uniform(random, 1.0f), uniform(random, 1.0f));
            if (normal.lengthSquared() < 1e-4f) {
                normal.set(0.0f, 1.0f, 0.0f);
            }
            normal.normalize();
            float t = (float) random.nextDouble();
            contacts.add(a, b, xa.x + t * (xb.x - xa.x) + uniform(random, 0.3f),
                    xa.y + t * (xb.y - xa.y) + uniform(random, 0.3f), xa.z + t * (xb.z - xa.z) + uniform(random, 0.3f),
                    normal.x, normal.y, normal.z, (float) random.nextDouble());
        }
        return new Scene(bodies, shuffledIds(random, bodyCount), shuffle(random, contacts));
    }

    /**
     * A pile of {@code count} spheres (radius 0.5, density varying by a factor of four) in square
     * layers, each layer offset by half a spacing so that every sphere rests in the pocket of the
     * four below it; the bottom layer rests on the world. About four contacts per sphere, and
     * neighbours are near each other in the arrays, as a broad phase sorted in space would give.
     * Everything falls at about 1 m/s with some jitter; restitution {@code restitution}.
     */
    public static Scene pile(long seed, int count, float restitution) {
        SplittableRandom random = new SplittableRandom(seed);
        float radius = 0.5f;
        float spacing = 2.0f * radius;
        float rise = spacing / (float) Math.sqrt(2.0);
        int side = pileSide(count);
        BodyBatch bodies = new BodyBatch(count);
        ContactBatch contacts = new ContactBatch(count * 4);
        Matrix3f inertia = new Matrix3f();
        Vector3f normal = new Vector3f();
        for (int i = 0; i < count; i++) {
            int layer = i / (side * side);
            int row = i / side % side;
            int column = i % side;
            float offset = (layer & 1) * radius;
            float mass = (float) (0.5 + 1.5 * random.nextDouble());
            int body = bodies.add();
            bodies.setMassProperties(body, mass, inertia.scaling(0.4f * mass * radius * radius))
                    .setPosition(body, column * spacing + offset, radius + layer * rise, row * spacing + offset)
                    .setLinearVelocity(body, uniform(random, 0.1f), -1.0f + uniform(random, 0.1f), uniform(random, 0.1f));
            if (layer == 0) {
                contacts.add(ContactBatch.WORLD, body, column * spacing, 0.0f, row * spacing, 0.0f, 1.0f, 0.0f,
                        restitution);
                continue;
            }
            // the four spheres below sit half a spacing away along x and z, on the other offset
            int shift = (layer & 1) == 1 ? 0 : -1;
            for (int dz = 0; dz < 2; dz++) {
                for (int dx = 0; dx < 2; dx++) {
                    int belowRow = row + shift + dz;
                    int belowColumn = column + shift + dx;
                    if (belowRow < 0 || belowRow >= side || belowColumn < 0 || belowColumn >= side) {
                        continue;
                    }
                    int below = body - side * side + (belowRow - row) * side + (belowColumn - column);
                    Vector3f lower = bodies.getPosition(below, new Vector3f());
                    bodies.getPosition(body, normal).sub(lower).normalize();
                    contacts.add(below, body, lower.x + radius * normal.x, lower.y + radius * normal.y,
                            lower.z + radius * normal.z, normal.x, normal.y, normal.z, restitution);
                }
            }
        }
        return new Scene(bodies, shuffledIds(random, count), shuffle(random, contacts));
    }

    /**
     * The smallest {@link #pile} with at least {@code contacts} contacts (the count depends on the
     * pile's shape: spheres on its edges rest on fewer than four), for benchmarks sized by contacts.
     */
    public static Scene pileWithContacts(long seed, int contacts, float restitution) {
        int low = 1;
        int high = Math.max(2, contacts);
        while (low < high) {
            int middle = low + (high - low) / 2;
            if (pileContactCount(middle) >= contacts) {
                high = middle;
            } else {
                low = middle + 1;
            }
        }
        return pile(seed, low, restitution);
    }

    /** The number of contacts {@link #pile} makes for {@code count} spheres, without making them. */
    static long pileContactCount(int count) {
        int side = pileSide(count);
        long contacts = 0;
        for (int i = 0; i < count; i++) {
            int layer = i / (side * side);
            if (layer == 0) {
                contacts++;
                continue;
            }
            int row = i / side % side;
            int column = i % side;
            int shift = (layer & 1) == 1 ? 0 : -1;
            int rows = (row + shift >= 0 ? 1 : 0) + (row + shift + 1 < side ? 1 : 0);
            int columns = (column + shift >= 0 ? 1 : 0) + (column + shift + 1 < side ? 1 : 0);
            contacts += (long) rows * columns;
        }
        return contacts;
    }

    private static int pileSide(int count) {
        return Math.max(2, (int) Math.round(Math.cbrt(count) * 1.5));
    }

    /**
     * {@code count} boxes (1 x 0.5 x 1, mass 1) stacked on the world, each resting on four corner
     * contacts; all fall at about 1 m/s with a little random spin and sway.
     */
    public static Scene boxStack(int count, float restitution, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        BodyBatch bodies = new BodyBatch();
        ContactBatch contacts = new ContactBatch();
        float width = 1.0f, height = 0.5f, mass = 1.0f;
        Matrix3f inertia = new Matrix3f().scaling(mass * (height * height + width * width) / 12.0f,
                mass * (width * width + width * width) / 12.0f, mass * (width * width + height * height) / 12.0f);
        for (int i = 0; i < count; i++) {
            int box = bodies.add();
            bodies.setMassProperties(box, mass, inertia).setPosition(box, 0.0f, height * (i + 0.5f), 0.0f)
                    .setLinearVelocity(box, uniform(random, 0.1f), -1.0f + uniform(random, 0.1f), uniform(random, 0.1f))
                    .setAngularVelocity(box, uniform(random, 0.2f), uniform(random, 0.2f), uniform(random, 0.2f));
            int below = i == 0 ? ContactBatch.WORLD : box - 1;
            for (int corner = 0; corner < 4; corner++) {
                float x = (corner & 1) == 0 ? -width / 2 : width / 2;
                float z = (corner & 2) == 0 ? -width / 2 : width / 2;
                contacts.add(below, box, x, height * i, z, 0.0f, 1.0f, 0.0f, restitution);
            }
        }
        return new Scene(bodies, shuffledIds(random, count), contacts);
    }

    private static ContactBatch shuffle(SplittableRandom random, ContactBatch contacts) {
        int[] ids = shuffledIds(random, contacts.size());
        for (int c = 0; c < contacts.size(); c++) {
            contacts.setId(c, ids[c]);
        }
        return contacts;
    }

    /** A random permutation of {@code 0 .. count-1}, spread out by a stride so ids are not dense. */
    static int[] shuffledIds(SplittableRandom random, int count) {
        int[] ids = new int[count];
        for (int i = 0; i < count; i++) {
            ids[i] = i * 3 + 7;
        }
        for (int i = count - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            int swap = ids[i];
            ids[i] = ids[j];
            ids[j] = swap;
        }
        return ids;
    }

    private static int otherBody(SplittableRandom random, int a, int bodyCount) {
        int b = random.nextInt(bodyCount - 1);
        return b >= a ? b + 1 : b;
    }

    static float uniform(SplittableRandom random, float halfWidth) {
        return (float) ((random.nextDouble() * 2.0 - 1.0) * halfWidth);
    }

    static void randomOrientation(SplittableRandom random, Quaternionf dest) {
        // normalised 4D Gaussian: uniform over rotations
        float w = (float) gaussian(random);
        float x = (float) gaussian(random);
        float y = (float) gaussian(random);
        float z = (float) gaussian(random);
        dest.set(x, y, z, w).normalize();
    }

    /** Principal moments of a box of random proportions, rotated to a random body frame. */
    static void randomInertia(SplittableRandom random, float mass, Matrix3f dest) {
        double sx = 0.2 + random.nextDouble();
        double sy = 0.2 + random.nextDouble();
        double sz = 0.2 + random.nextDouble();
        float ixx = (float) (mass * (sy * sy + sz * sz) / 12.0);
        float iyy = (float) (mass * (sx * sx + sz * sz) / 12.0);
        float izz = (float) (mass * (sx * sx + sy * sy) / 12.0);
        Quaternionf frame = new Quaternionf();
        randomOrientation(random, frame);
        Matrix3f rotation = new Matrix3f().rotation(frame);
        Matrix3f principal = new Matrix3f().scaling(ixx, iyy, izz);
        dest.set(rotation).mul(principal).mul(rotation.transpose());
        // symmetrise exactly: float rounding leaves the off-diagonal pairs a few ulps apart
        float xy = (dest.m01() + dest.m10()) * 0.5f;
        float xz = (dest.m02() + dest.m20()) * 0.5f;
        float yz = (dest.m12() + dest.m21()) * 0.5f;
        dest.m01(xy).m10(xy).m02(xz).m20(xz).m12(yz).m21(yz);
    }

    private static double gaussian(SplittableRandom random) {
        double u = 1.0 - random.nextDouble();
        double v = random.nextDouble();
        return Math.sqrt(-2.0 * Math.log(u)) * Math.cos(2.0 * Math.PI * v);
    }
}
