package io.contactsolver.scene;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.contactsolver.BodyBatch;
import io.contactsolver.ContactBatch;
import io.contactsolver.ContactIds;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.TreeSet;
import org.joml.Quaternionf;
import org.joml.Vector3f;
import org.junit.jupiter.api.Test;

/**
 * Contacts of cubes with the ground and each other: counts, normals (from body a to body b),
 * separations (negative for overlap), points (halfway between the surfaces) and persistent ids.
 */
class BoxContactsTest {
    private static final float MARGIN = 0.02f;
    private static final float EPS = 1e-6f;
    private static final Vector3f UP = new Vector3f(0.0f, 1.0f, 0.0f);

    /**
     * The pyramid at rest: 4 points on each ground face, each face resting on a box below (every
     * box above the bottom row rests on two) and each pair of neighbours in a row: for base n,
     * {@code 4 (n + n (n - 1) + n (n - 1) / 2)}.
     */
    private static int restingPyramidContacts(int base) {
        return 4 * (base + base * (base - 1) + base * (base - 1) / 2);
    }

    @Test
    void theLargePyramidAtRestHas59800Points() {
        assertEquals(59_800, restingPyramidContacts(100));
        ContactBatch contacts = find(BoxScene.pyramid(100));
        assertEquals(59_800, contacts.size());
        assertPyramidContacts(contacts, 100);
    }

    @Test
    void theSmallPyramidAtRestHas2360Points() {
        assertEquals(2360, restingPyramidContacts(20));
        ContactBatch contacts = find(BoxScene.pyramid(20));
        assertEquals(2360, contacts.size());
        assertPyramidContacts(contacts, 20);
    }

    /** Every touching pair gets exactly 4 points at separation 0, the normal along a box axis from a to b. */
    private static void assertPyramidContacts(ContactBatch contacts, int base) {
        Map<Long, Integer> perPair = new TreeMap<>();
        int ground = 0;
        int stacked = 0;
        int sideBySide = 0;
        Vector3f n = new Vector3f();
        for (int c = 0; c < contacts.size(); c++) {
            assertEquals(0.0f, contacts.separation(c), "contact " + c);
            assertEquals(0.6f, contacts.friction(c));
            assertEquals(0.0f, contacts.restitution(c));
            assertEquals(0.0f, contacts.rollingResistance(c));
            perPair.merge(ContactIds.key(contacts.bodyA(c), contacts.bodyB(c), 0), 1, Integer::sum);
            contacts.getNormal(c, n);
            if (contacts.bodyA(c) == ContactBatch.WORLD) {
                assertEquals(UP, n);
                ground++;
            } else {
                assertTrue(contacts.bodyA(c) < contacts.bodyB(c));
                if (n.equals(UP)) {
                    stacked++;
                } else {
                    assertEquals(new Vector3f(1.0f, 0.0f, 0.0f), n, "contact " + c);
                    sideBySide++;
                }
            }
        }
        assertEquals(4 * base, ground);
        assertEquals(4 * base * (base - 1), stacked);
        assertEquals(4 * base * (base - 1) / 2, sideBySide);
        for (Map.Entry<Long, Integer> pair : perPair.entrySet()) {
            assertEquals(4, pair.getValue(), "points of one face pair");
        }
    }

    @Test
    void aBoxRestingOnTheGroundTouchesItAtItsFourBottomCorners() {
        ContactBatch contacts = find(BoxScene.stack(1));
        assertEquals(4, contacts.size());
        Set<Vector3f> points = new HashSet<>();
        for (int c = 0; c < 4; c++) {
            assertEquals(ContactBatch.WORLD, contacts.bodyA(c));
            assertEquals(0, contacts.bodyB(c));
            assertEquals(UP, contacts.getNormal(c, new Vector3f()));
            assertEquals(0.0f, contacts.separation(c));
            points.add(contacts.getPoint(c, new Vector3f()));
        }
        assertEquals(Set.of(new Vector3f(-0.5f, 0.0f, -0.5f), new Vector3f(0.5f, 0.0f, -0.5f),
                new Vector3f(-0.5f, 0.0f, 0.5f), new Vector3f(0.5f, 0.0f, 0.5f)), points);
    }

    @Test
    void aBoxOnABoxTouchesItAtFourPointsWithTheNormalFromTheLowerIndex() {
        ContactBatch contacts = find(BoxScene.stack(2));
        List<Integer> pair = contactsOf(contacts, 0, 1);
        assertEquals(8, contacts.size(), "4 on the ground, 4 between the boxes");
        assertEquals(4, pair.size());
        Set<Vector3f> points = new HashSet<>();
        for (int c : pair) {
            assertEquals(UP, contacts.getNormal(c, new Vector3f()), "from box 0, below, to box 1");
            assertEquals(0.0f, contacts.separation(c));
            points.add(contacts.getPoint(c, new Vector3f()));
        }
        assertEquals(Set.of(new Vector3f(-0.5f, 1.0f, -0.5f), new Vector3f(0.5f, 1.0f, -0.5f),
                new Vector3f(-0.5f, 1.0f, 0.5f), new Vector3f(0.5f, 1.0f, 0.5f)), points);

        // numbered the other way round, the normal still points from body a (index 0, now above) to b
        BoxScene upsideDown = new BoxScene(0.5f, 1.0f);
        upsideDown.addBox(0.0f, 1.5f, 0.0f);
        upsideDown.addBox(0.0f, 0.5f, 0.0f);
        contacts = find(upsideDown);
        pair = contactsOf(contacts, 0, 1);
        assertEquals(4, pair.size());
        for (int c : pair) {
            assertEquals(new Vector3f(0.0f, -1.0f, 0.0f), contacts.getNormal(c, new Vector3f()));
            assertEquals(0.0f, contacts.separation(c));
        }
    }

    @Test
    void aLiftedBoxTouchesWithinTheMarginOnly() {
        BoxScene near = new BoxScene(0.5f, 1.0f);
        near.addBox(0.0f, 0.51f, 0.0f);
        ContactBatch contacts = find(near);
        assertEquals(4, contacts.size());
        for (int c = 0; c < 4; c++) {
            assertEquals(0.01f, contacts.separation(c), EPS);
            assertEquals(0.005f, contacts.getPoint(c, new Vector3f()).y, EPS, "halfway across the gap");
            assertEquals(UP, contacts.getNormal(c, new Vector3f()));
        }
        BoxScene far = new BoxScene(0.5f, 1.0f);
        far.addBox(0.0f, 0.6f, 0.0f);
        assertEquals(0, find(far).size());
        BoxScene farApart = new BoxScene(0.5f, 1.0f);
        farApart.addBox(0.0f, 5.0f, 0.0f);
        farApart.addBox(0.0f, 6.1f, 0.0f);
        assertEquals(0, find(farApart).size(), "a gap of 0.1 between two boxes");
    }

    /**
     * Turned by 10 degrees about z, centre at 0.5: body corner (-h, -h) is at
     * {@code (-h cos + h sin, 0.5 - h (cos + sin))}, (+h, -h) at {@code (h cos + h sin, 0.5 + h sin - h cos)}.
     * With a margin of 0.2 both pairs of bottom corners count.
     */
    @Test
    void aTiltedBoxTouchesAtTheCornersWithTheirHeights() {
        float h = 0.5f;
        double angle = Math.toRadians(10.0);
        float cos = (float) Math.cos(angle);
        float sin = (float) Math.sin(angle);
        BoxScene scene = new BoxScene(h, 1.0f);
        scene.addBox(0.0f, 0.5f, 0.0f, new Quaternionf().rotateZ((float) angle));
        ContactBatch contacts = new ContactBatch();
        new BoxContacts(h, 0.2f, BoxContacts.DEFAULT_FRICTION).find(scene.bodies(), contacts);
        assertEquals(4, contacts.size());
        float lowX = -h * cos + h * sin;
        float lowY = 0.5f - h * (cos + sin); // -0.0792: sunk
        float highX = h * cos + h * sin;
        float highY = 0.5f + h * sin - h * cos; // 0.0944: within the margin of 0.2
        assertEquals(-0.0792f, lowY, 1e-4f);
        assertEquals(0.0944f, highY, 1e-4f);
        int low = 0;
        int high = 0;
        Vector3f p = new Vector3f();
        for (int c = 0; c < 4; c++) {
            contacts.getPoint(c, p);
            assertEquals(0.5f, Math.abs(p.z), EPS);
            assertEquals(contacts.separation(c) * 0.5f, p.y, EPS);
            if (p.x < 0.0f) {
                assertEquals(lowX, p.x, EPS);
                assertEquals(lowY, contacts.separation(c), EPS);
                low++;
            } else {
                assertEquals(highX, p.x, EPS);
                assertEquals(highY, contacts.separation(c), EPS);
                high++;
            }
        }
        assertEquals(2, low);
        assertEquals(2, high);
        // with the usual margin only the sunk edge touches
        assertEquals(2, find(scene).size());
    }

    @Test
    void overlappingBoxesHaveTheOverlapAsNegativeSeparation() {
        BoxScene scene = new BoxScene(0.5f, 1.0f);
        scene.addBox(0.0f, 5.0f, 0.0f);
        scene.addBox(0.0f, 5.9f, 0.0f); // 0.1 into the one below
        scene.addBox(10.0f, 5.0f, 0.0f);
        scene.addBox(10.95f, 5.0f, 0.25f); // 0.05 into its neighbour along x, off by a quarter along z
        ContactBatch contacts = find(scene);
        assertEquals(8, contacts.size());
        for (int c : contactsOf(contacts, 0, 1)) {
            assertEquals(-0.1f, contacts.separation(c), EPS);
            assertEquals(UP, contacts.getNormal(c, new Vector3f()));
            assertEquals(5.45f, contacts.getPoint(c, new Vector3f()).y, EPS, "halfway through the overlap");
        }
        for (int c : contactsOf(contacts, 2, 3)) {
            assertEquals(-0.05f, contacts.separation(c), EPS);
            assertEquals(new Vector3f(1.0f, 0.0f, 0.0f), contacts.getNormal(c, new Vector3f()));
            Vector3f p = contacts.getPoint(c, new Vector3f());
            assertEquals(10.475f, p.x, EPS);
            assertTrue(p.z >= -0.25f - EPS && p.z <= 0.5f + EPS, "within both faces: " + p);
        }
        assertEquals(4, contactsOf(contacts, 0, 1).size());
        assertEquals(4, contactsOf(contacts, 2, 3).size());
    }

    /** A box turned 45 degrees about y on another: the faces overlap in an octagon, reduced to 4 points. */
    @Test
    void aTurnedBoxOnABoxKeepsFourPointsOfTheOctagon() {
        BoxScene scene = new BoxScene(0.5f, 1.0f);
        scene.addBox(0.0f, 5.0f, 0.0f);
        scene.addBox(0.0f, 6.0f, 0.0f, new Quaternionf().rotateY((float) Math.toRadians(45.0)));
        ContactBatch contacts = find(scene);
        assertEquals(4, contacts.size());
        Set<Integer> ids = new HashSet<>();
        float[] xs = new float[4];
        float[] zs = new float[4];
        for (int c = 0; c < 4; c++) {
            assertEquals(0.0f, contacts.separation(c), EPS);
            assertEquals(UP, contacts.getNormal(c, new Vector3f()));
            Vector3f p = contacts.getPoint(c, new Vector3f());
            assertTrue(Math.abs(p.x) <= 0.5f + 1e-3f && Math.abs(p.z) <= 0.5f + 1e-3f, "on the lower box's face: " + p);
            // on the octagon's rim: on an edge of one square or the other
            float onLower = Math.max(Math.abs(p.x), Math.abs(p.z));
            float onUpper = (Math.abs(p.x) + Math.abs(p.z)) / (float) Math.sqrt(2.0);
            assertTrue(Math.abs(onLower - 0.5f) < 1e-4f || Math.abs(onUpper - 0.5f) < 1e-4f, "a vertex: " + p);
            xs[c] = p.x;
            zs[c] = p.z;
            ids.add(contacts.id(c));
        }
        assertEquals(4, ids.size());
        // the four span more than half the octagon (area 4 (sqrt 2 - 1) = 0.83 of the unit square)
        assertTrue(quadArea(xs, zs) > 0.5f, "area " + quadArea(xs, zs));
    }

    /** The area of the convex hull of four points (any order): the largest of the three quadrilaterals. */
    private static float quadArea(float[] x, float[] z) {
        int[][] orders = {{0, 1, 2, 3}, {0, 1, 3, 2}, {0, 2, 1, 3}};
        float best = 0.0f;
        for (int[] o : orders) {
            float twice = 0.0f;
            for (int k = 0; k < 4; k++) {
                int i = o[k];
                int j = o[(k + 1) % 4];
                twice += x[i] * z[j] - x[j] * z[i];
            }
            best = Math.max(best, Math.abs(twice) / 2.0f);
        }
        return best;
    }

    @Test
    void theSameSceneGivesTheSameContactsAndIdsInTheSameOrder() {
        ContactBatch first = find(BoxScene.pyramid(20));
        ContactBatch second = find(BoxScene.pyramid(20));
        assertEquals(first.size(), second.size());
        assertArrayEquals(ids(first), ids(second));
        Vector3f p = new Vector3f();
        Vector3f q = new Vector3f();
        for (int c = 0; c < first.size(); c++) {
            assertEquals(first.bodyA(c), second.bodyA(c));
            assertEquals(first.bodyB(c), second.bodyB(c));
            assertEquals(first.getPoint(c, p), second.getPoint(c, q));
            assertEquals(first.getNormal(c, p), second.getNormal(c, q));
            assertEquals(first.separation(c), second.separation(c));
        }
        assertEquals(first.size(), new HashSet<>(toList(ids(first))).size(), "ids are unique within a step");
    }

    /** Every box moved by a millimetre along each axis: each contact keeps its id, all ids unique. */
    @Test
    void idsPersistWhileTheBoxesMoveAndDifferBetweenContacts() {
        for (int base : new int[] {20, 100}) {
            BoxScene scene = BoxScene.pyramid(base);
            BodyBatch bodies = scene.bodies();
            BoxContacts boxContacts = new BoxContacts(0.5f, MARGIN, BoxContacts.DEFAULT_FRICTION);
            ContactBatch contacts = new ContactBatch();
            boxContacts.find(bodies, contacts);
            Map<String, Integer> before = idsByPlace(contacts);
            assertEquals(contacts.size(), new HashSet<>(before.values()).size(), "unique ids");
            Vector3f p = new Vector3f();
            for (int step = 1; step <= 3; step++) {
                for (int i = 0; i < bodies.size(); i++) {
                    bodies.getPosition(i, p);
                    bodies.setPosition(i, p.x + 0.001f, p.y + 0.001f, p.z + 0.001f);
                }
                boxContacts.find(bodies, contacts);
                assertEquals(restingPyramidContacts(base), contacts.size(), "base " + base + ", step " + step);
                Map<String, Integer> after = idsByPlace(contacts);
                assertEquals(before, after, "base " + base + ": the same contacts keep their ids");
                assertEquals(contacts.size(), new HashSet<>(after.values()).size(), "unique ids");
            }
        }
    }

    /**
     * Each contact's id by its bodies and its point rounded to the centimetre (the boxes move by
     * 3 mm at most, and points are at least 0.5 m apart).
     */
    private static Map<String, Integer> idsByPlace(ContactBatch contacts) {
        Map<String, Integer> ids = new TreeMap<>();
        Vector3f p = new Vector3f();
        for (int c = 0; c < contacts.size(); c++) {
            contacts.getPoint(c, p);
            String place = contacts.bodyA(c) + " " + contacts.bodyB(c) + " " + Math.round(p.x * 100)
                    + " " + Math.round(p.y * 100) + " " + Math.round(p.z * 100);
            assertEquals(null, ids.put(place, contacts.id(c)), "two contacts at " + place);
        }
        return ids;
    }

    /**
     * A box tipped about one bottom edge of the box below it: by half a degree its far corners rise
     * sin(0.5 deg) = 8.7 mm, within the margin, and every contact keeps its id; by 5 degrees they
     * rise 87 mm and only the two on the edge remain, still with their ids.
     */
    @Test
    void aSlightlyTippedBoxKeepsItsContactIds() {
        BoxScene scene = BoxScene.stack(2);
        BoxContacts boxContacts = new BoxContacts(0.5f, MARGIN, BoxContacts.DEFAULT_FRICTION);
        ContactBatch contacts = new ContactBatch();
        boxContacts.find(scene.bodies(), contacts);
        Map<Integer, Integer> flat = idsByCorner(contacts);
        assertEquals(4, flat.size());

        tipAboutTheEdge(scene.bodies(), 0.5);
        boxContacts.find(scene.bodies(), contacts);
        assertEquals(8, contacts.size());
        assertEquals(flat, idsByCorner(contacts));
        float rise = (float) Math.sin(Math.toRadians(0.5));
        for (int c : contactsOf(contacts, 0, 1)) {
            float expected = contacts.getPoint(c, new Vector3f()).x < 0.0f ? 0.0f : rise;
            assertEquals(expected, contacts.separation(c), 1e-5f);
        }

        tipAboutTheEdge(scene.bodies(), 5.0);
        boxContacts.find(scene.bodies(), contacts);
        assertEquals(6, contacts.size(), "4 on the ground, 2 along the edge");
        Map<Integer, Integer> onTheEdge = idsByCorner(contacts);
        assertEquals(2, onTheEdge.size());
        for (Map.Entry<Integer, Integer> corner : onTheEdge.entrySet()) {
            assertEquals(flat.get(corner.getKey()), corner.getValue(), "corner " + corner.getKey());
        }
    }

    /** Box 1 turned by {@code degrees} about z around its bottom edge at x = -0.5, y = 1. */
    private static void tipAboutTheEdge(BodyBatch bodies, double degrees) {
        float cos = (float) Math.cos(Math.toRadians(degrees));
        float sin = (float) Math.sin(Math.toRadians(degrees));
        // the centre is (0.5, 0.5) from the edge in the box's frame
        bodies.setPosition(1, -0.5f + 0.5f * cos - 0.5f * sin, 1.0f + 0.5f * sin + 0.5f * cos, 0.0f);
        bodies.setOrientation(1, new Quaternionf().rotateZ((float) Math.toRadians(degrees)));
    }

    /** The ids of the contacts of boxes 0 and 1 by the quadrant of their point: 2 for x >= 0, plus 1 for z >= 0. */
    private static Map<Integer, Integer> idsByCorner(ContactBatch contacts) {
        Map<Integer, Integer> ids = new TreeMap<>();
        Vector3f p = new Vector3f();
        for (int c : contactsOf(contacts, 0, 1)) {
            contacts.getPoint(c, p);
            int corner = (p.x >= 0.0f ? 2 : 0) + (p.z >= 0.0f ? 1 : 0);
            assertEquals(null, ids.put(corner, contacts.id(c)), "two contacts at corner " + corner);
        }
        return ids;
    }

    /**
     * A jumble of turned boxes: the grid finds every pair that a test of all pairs finds, the
     * contacts are well formed and their ids unique.
     */
    @Test
    void theGridMissesNoPairAndEveryContactIsWellFormed() {
        SplittableRandom random = new SplittableRandom(7);
        BoxScene scene = new BoxScene(0.5f, 1.0f);
        Quaternionf q = new Quaternionf();
        for (int i = 0; i < 400; i++) {
            q.identity().rotateXYZ((float) random.nextDouble(-3, 3), (float) random.nextDouble(-3, 3),
                    (float) random.nextDouble(-3, 3));
            // centres above the margin: at most 4 corners of a box reach the ground
            scene.addBox((float) random.nextDouble(-5, 5), (float) random.nextDouble(0.1, 8),
                    (float) random.nextDouble(-5, 5), q);
        }
        BodyBatch bodies = scene.bodies();
        ContactBatch contacts = find(scene);
        assertTrue(contacts.size() > 1000, "a jumble: " + contacts.size());
        Set<Integer> ids = new HashSet<>();
        Map<Long, Integer> perPair = new HashMap<>();
        Set<Long> pairs = new TreeSet<>();
        Vector3f n = new Vector3f();
        int previousA = -1;
        for (int c = 0; c < contacts.size(); c++) {
            int a = contacts.bodyA(c);
            int b = contacts.bodyB(c);
            assertTrue(ids.add(contacts.id(c)), "id " + contacts.id(c) + " twice");
            assertTrue(contacts.separation(c) <= MARGIN);
            assertEquals(1.0f, contacts.getNormal(c, n).length(), 1e-5f);
            assertTrue(a < b);
            int owner = a == ContactBatch.WORLD ? b : a;
            assertTrue(owner >= previousA, "contacts in order of their lower box");
            previousA = owner;
            assertTrue(perPair.merge(ContactIds.key(a, b, 0), 1, Integer::sum) <= 4, "at most 4 per pair");
            if (a != ContactBatch.WORLD) {
                pairs.add(ContactIds.key(a, b, 0));
            }
        }
        Set<Long> bruteForce = new TreeSet<>();
        BoxContacts alone = new BoxContacts(0.5f, MARGIN, BoxContacts.DEFAULT_FRICTION);
        ContactBatch two = new ContactBatch();
        Vector3f pa = new Vector3f();
        Vector3f pb = new Vector3f();
        Quaternionf qa = new Quaternionf();
        Quaternionf qb = new Quaternionf();
        for (int a = 0; a < bodies.size(); a++) {
            bodies.getPosition(a, pa);
            for (int b = a + 1; b < bodies.size(); b++) {
                // farther than twice the reach, boxes cannot come near: the cheap filter of this test alone
                if (pa.distance(bodies.getPosition(b, pb)) > 4.0f) {
                    continue;
                }
                BoxScene pair = new BoxScene(0.5f, 1.0f);
                pair.addBox(pa.x, pa.y, pa.z, bodies.getOrientation(a, qa));
                pair.addBox(pb.x, pb.y, pb.z, bodies.getOrientation(b, qb));
                alone.find(pair.bodies(), two);
                if (!contactsOf(two, 0, 1).isEmpty()) {
                    bruteForce.add(ContactIds.key(a, b, 0));
                }
            }
        }
        assertTrue(bruteForce.size() > 100, "pairs: " + bruteForce.size());
        assertEquals(bruteForce, pairs);
    }

    @Test
    void badArgumentsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new BoxContacts(0.0f, MARGIN, 0.6f));
        assertThrows(IllegalArgumentException.class, () -> new BoxContacts(0.5f, -0.01f, 0.6f));
        assertThrows(IllegalArgumentException.class, () -> new BoxContacts(0.5f, MARGIN, Float.NaN));
        assertEquals(5, BoxContacts.corner(true, false, true));
    }

    @Test
    void anotherSceneAfterwardsStartsFromAnEmptyBatch() {
        BoxContacts boxContacts = new BoxContacts(0.5f, MARGIN, BoxContacts.DEFAULT_FRICTION);
        ContactBatch contacts = new ContactBatch();
        boxContacts.find(BoxScene.pyramid(20).bodies(), contacts);
        boxContacts.find(BoxScene.stack(3).bodies(), contacts);
        assertEquals(4 + 4 + 4, contacts.size());
        assertNotEquals(0, contacts.size());
    }

    private static ContactBatch find(BoxScene scene) {
        ContactBatch contacts = new ContactBatch();
        new BoxContacts(scene.halfExtent(), MARGIN, BoxContacts.DEFAULT_FRICTION).find(scene.bodies(), contacts);
        return contacts;
    }

    private static List<Integer> contactsOf(ContactBatch contacts, int a, int b) {
        List<Integer> found = new ArrayList<>();
        for (int c = 0; c < contacts.size(); c++) {
            if (contacts.bodyA(c) == a && contacts.bodyB(c) == b) {
                found.add(c);
            }
        }
        return found;
    }

    private static int[] ids(ContactBatch contacts) {
        int[] ids = new int[contacts.size()];
        for (int c = 0; c < ids.length; c++) {
            ids[c] = contacts.id(c);
        }
        return ids;
    }

    private static List<Integer> toList(int[] values) {
        List<Integer> list = new ArrayList<>();
        for (int v : values) {
            list.add(v);
        }
        return list;
    }
}
