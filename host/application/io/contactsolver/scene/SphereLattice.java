package io.contactsolver.scene;

import io.contactsolver.BodyBatch;
import io.contactsolver.ContactBatch;
import io.contactsolver.ContactIds;
import org.joml.Vector3f;

/**
 * {@code size}^3 equal solid spheres in a simple cubic lattice, each touching its neighbours, the
 * bottom layer resting on the floor {@code y = 0} (the world, not a body), y up: the scene of issue
 * 30's threading target (docs/performance.md, "Soft step: the lattice"), 64,000 spheres and 188,800
 * contacts at a size of 40. Every contact has friction and rolling resistance, so the soft step runs
 * its full rows.
 *
 * <p>Sphere {@code (x, y, z)} (lattice coordinates from 0 to {@code size - 1}) is body
 * {@link #index}, centred at {@code (2 R x, R + 2 R y, 2 R z)}, at rest, with a solid sphere's
 * inertia {@code 2 m R^2 / 5} about every axis.
 *
 * <p>Contacts are found again before every step from where the spheres are then, as a user's
 * collision would find them, but between the lattice's neighbours only (the spheres are meant to
 * stay put): a floor contact under each sphere of the bottom layer, and one contact from each sphere
 * to its {@code +x}, {@code +y} and {@code +z} neighbours, {@code size^2 + 3 size^2 (size - 1)} in
 * all. Convention (docs/physics.md): the normal points from body a to body b, along the line of
 * centres, and the separation is the signed gap along it, 0 where spheres touch exactly.
 */
public final class SphereLattice {
    /** The spheres' radius, m: 5 mm. */
    public static final float RADIUS = 0.005f;
    /** A sphere's mass, kg: 1.3 g, about a glass bead's of this size. */
    public static final float MASS = 0.0013f;
    public static final float FRICTION = 0.5f;
    /** Rolling resistance, m: 0.5 mm, a tenth of the radius. */
    public static final float ROLLING_RESISTANCE = 0.0005f;
    /** The largest size taken: a million spheres and 2,980,000 contacts a step. */
    public static final int MAX_SIZE = 100;

    private final int size;
    private final BodyBatch bodies;
    private final ContactIds ids = new ContactIds();
    // scratch for contacts(), so that finding a step's contacts allocates nothing
    private final Vector3f p = new Vector3f();
    private final Vector3f q = new Vector3f();

    /**
     * The lattice of {@code size} spheres a side, at rest.
     *
     * @param size spheres along each axis, from 1 to {@link #MAX_SIZE}
     * @throws IllegalArgumentException if {@code size} is out of range
     */
    public SphereLattice(int size) {
        if (size < 1 || size > MAX_SIZE) {
            throw new IllegalArgumentException("size must be in [1, " + MAX_SIZE + "], got " + size);
        }
        this.size = size;
        this.bodies = new BodyBatch(size * size * size);
        float inverseInertia = 5.0f / (2.0f * MASS * RADIUS * RADIUS);
        for (int y = 0; y < size; y++) {
            for (int z = 0; z < size; z++) {
                for (int x = 0; x < size; x++) {
                    int i = bodies.add();
                    bodies.setMass(i, MASS);
                    bodies.setInverseInertia(i, inverseInertia, inverseInertia, inverseInertia, 0, 0, 0);
                    bodies.setPosition(i, 2 * RADIUS * x, RADIUS + 2 * RADIUS * y, 2 * RADIUS * z);
                }
            }
        }
    }

    /** The number of contacts {@link #contacts} finds for {@code size} spheres a side: the floor's and the links. */
    public static int contactCount(int size) {
        int layer = size * size;
        return layer + 3 * layer * (size - 1);
    }

    /** The body index of the sphere at lattice coordinates {@code (x, y, z)}: layer by layer from the floor up. */
    public int index(int x, int y, int z) {
        return (y * size + z) * size + x;
    }

    public int size() {
        return size;
    }

    /** The spheres, moved in place by whoever steps them. */
    public BodyBatch bodies() {
        return bodies;
    }

    /**
     * Replaces {@code dest}'s contacts with this step's, found from where the spheres are now: for
     * each sphere in body order its floor contact (bottom layer), then its links to {@code +y},
     * {@code +x} and {@code +z}. Each contact's id comes from a {@link ContactIds} table keyed by its
     * two bodies, so a contact keeps its id from step to step.
     *
     * @return {@code dest}
     */
    public ContactBatch contacts(ContactBatch dest) {
        dest.clear();
        ids.beginStep();
        for (int y = 0; y < size; y++) {
            for (int z = 0; z < size; z++) {
                for (int x = 0; x < size; x++) {
                    int i = index(x, y, z);
                    bodies.getPosition(i, p);
                    if (y == 0) {
                        add(dest, ContactBatch.WORLD, i, p.x, 0.0f, p.z, 0.0f, 1.0f, 0.0f, p.y - RADIUS);
                    }
                    if (y + 1 < size) {
                        link(dest, i, index(x, y + 1, z));
                    }
                    if (x + 1 < size) {
                        link(dest, i, index(x + 1, y, z));
                    }
                    if (z + 1 < size) {
                        link(dest, i, index(x, y, z + 1));
                    }
                }
            }
        }
        ids.endStep();
        return dest;
    }

    /** The contact from sphere {@code a}, at {@link #p}, to sphere {@code b}: at the midpoint, along the line of centres. */
    private void link(ContactBatch dest, int a, int b) {
        bodies.getPosition(b, q).sub(p);
        float distance = q.length();
        add(dest, a, b, p.x + q.x / 2, p.y + q.y / 2, p.z + q.z / 2, q.x / distance, q.y / distance, q.z / distance,
                distance - 2 * RADIUS);
    }

    private void add(ContactBatch dest, int a, int b, float px, float py, float pz, float nx, float ny, float nz,
            float separation) {
        int c = dest.add(a, b, px, py, pz, nx, ny, nz, 0.0f);
        dest.setSeparation(c, separation).setFriction(c, FRICTION).setRollingResistance(c, ROLLING_RESISTANCE)
                .setId(c, ids.idOf(ContactIds.key(a, b, 0)));
    }
}
