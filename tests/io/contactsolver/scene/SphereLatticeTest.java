package io.contactsolver.scene;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.contactsolver.BodyBatch;
import io.contactsolver.ContactBatch;
import java.util.HashSet;
import java.util.Set;
import org.joml.Matrix3f;
import org.joml.Vector3f;
import org.junit.jupiter.api.Test;

/** The lattice of touching spheres that {@code bench --sections lattice} steps. */
class SphereLatticeTest {
    private static final float R = SphereLattice.RADIUS;

    /**
     * Worked out by hand: n^2 floor contacts under the bottom layer, and n^2 (n - 1) links along
     * each of the three axes: 1 for one sphere, 4 + 3 * 4 = 16 for 2, 9 + 3 * 9 * 2 = 63 for 3, and
     * 1,600 + 3 * 1,600 * 39 = 188,800 for issue 30's 40.
     */
    @Test
    void findsTheFloorsContactsAndOneLinkAPairOfNeighbours() {
        assertEquals(1, SphereLattice.contactCount(1));
        assertEquals(16, SphereLattice.contactCount(2));
        assertEquals(63, SphereLattice.contactCount(3));
        assertEquals(188_800, SphereLattice.contactCount(40));
        for (int n = 1; n <= 4; n++) {
            SphereLattice lattice = new SphereLattice(n);
            assertEquals(n * n * n, lattice.bodies().size());
            assertEquals(SphereLattice.contactCount(n), lattice.contacts(new ContactBatch()).size(), "size " + n);
        }
    }

    /** Spheres touch exactly at the start: every separation 0, normals along the axes, points where they touch. */
    @Test
    void theSpheresTouchTheirNeighboursAndTheFloor() {
        SphereLattice lattice = new SphereLattice(3);
        ContactBatch contacts = lattice.contacts(new ContactBatch());
        Vector3f normal = new Vector3f();
        Vector3f point = new Vector3f();
        Vector3f a = new Vector3f();
        int floor = 0;
        for (int c = 0; c < contacts.size(); c++) {
            assertEquals(0.0f, contacts.separation(c), 1e-9f, "contact " + c);
            assertEquals(SphereLattice.FRICTION, contacts.friction(c));
            assertEquals(SphereLattice.ROLLING_RESISTANCE, contacts.rollingResistance(c));
            contacts.getNormal(c, normal);
            contacts.getPoint(c, point);
            if (contacts.bodyA(c) == ContactBatch.WORLD) {
                floor++;
                assertEquals(new Vector3f(0, 1, 0), normal);
                assertEquals(0.0f, point.y);
                continue;
            }
            assertTrue(contacts.bodyB(c) > contacts.bodyA(c), "the lower index first");
            assertEquals(1.0f, Math.abs(normal.x) + Math.abs(normal.y) + Math.abs(normal.z), 1e-6f, "along an axis");
            lattice.bodies().getPosition(contacts.bodyA(c), a);
            assertEquals(R, point.distance(a), 1e-7f, "the point where the two spheres touch");
        }
        assertEquals(9, floor);
    }

    /** Sphere (x, y, z) is body (y n + z) n + x, its centre at (2 R x, R + 2 R y, 2 R z), with a solid sphere's inertia. */
    @Test
    void numbersTheSpheresLayerByLayerFromTheFloor() {
        SphereLattice lattice = new SphereLattice(3);
        assertEquals(7, lattice.index(1, 0, 2));
        assertEquals(11, lattice.index(2, 1, 0));
        BodyBatch bodies = lattice.bodies();
        Vector3f p = bodies.getPosition(lattice.index(2, 1, 0), new Vector3f());
        assertEquals(new Vector3f(4 * R, 3 * R, 0), p);
        assertEquals(1 / SphereLattice.MASS, bodies.inverseMass(0), 1e-2f);
        // 2 m R^2 / 5 = 2 * 0.0013 * 2.5e-5 / 5 = 1.3e-8 kg m^2
        assertEquals(1 / 1.3e-8f, bodies.getInverseInertia(0, new Matrix3f()).m00, 1e2f);
    }

    /** A contact keeps its id while the spheres move (here: all lifted by a millimetre); ids are distinct. */
    @Test
    void aContactKeepsItsIdFromStepToStep() {
        SphereLattice lattice = new SphereLattice(3);
        ContactBatch contacts = lattice.contacts(new ContactBatch());
        int[] first = contacts.getIds(0, new int[contacts.size()], 0, contacts.size());
        Set<Integer> distinct = new HashSet<>();
        for (int id : first) {
            distinct.add(id);
        }
        assertEquals(first.length, distinct.size());
        Vector3f p = new Vector3f();
        for (int i = 0; i < lattice.bodies().size(); i++) {
            lattice.bodies().getPosition(i, p);
            lattice.bodies().setPosition(i, p.x, p.y + 0.001f, p.z);
        }
        lattice.contacts(contacts);
        assertArrayEquals(first, contacts.getIds(0, new int[contacts.size()], 0, contacts.size()));
        assertEquals(0.001f, contacts.separation(0), 1e-6f, "the floor contact found from the new positions");
    }

    @Test
    void refusesASizeOutOfRange() {
        assertThrows(IllegalArgumentException.class, () -> new SphereLattice(0));
        assertThrows(IllegalArgumentException.class, () -> new SphereLattice(SphereLattice.MAX_SIZE + 1));
    }
}
