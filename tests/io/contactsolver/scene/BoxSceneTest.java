package io.contactsolver.scene;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.contactsolver.BodyBatch;
import org.joml.Matrix3f;
import org.joml.Quaternionf;
import org.joml.Vector3f;
import org.junit.jupiter.api.Test;

/** The box scenes: Box2D's pyramid and a stack of unit cubes on the ground. */
class BoxSceneTest {

    @Test
    void thePyramidsHaveBaseTimesBasePlusOneOverTwoBoxes() {
        assertEquals(5050, BoxScene.pyramid(BoxScene.LARGE_PYRAMID_BASE).bodies().size());
        assertEquals(210, BoxScene.pyramid(BoxScene.SMALL_PYRAMID_BASE).bodies().size());
        assertEquals(1, BoxScene.pyramid(1).bodies().size());
        assertEquals(5050L, BoxScene.pyramidBoxCount(100));
    }

    /** Row k holds base - k boxes 1 m apart, centred on x = 0, at y = 0.5 + k: each row touches the one below. */
    @Test
    void rowsAreShorterByOneShiftedByHalfABoxAndTouching() {
        int base = 20;
        BodyBatch bodies = BoxScene.pyramid(base).bodies();
        Vector3f p = new Vector3f();
        int body = 0;
        for (int row = 0; row < base; row++) {
            int inRow = base - row;
            for (int i = 0; i < inRow; i++) {
                bodies.getPosition(body++, p);
                assertEquals(new Vector3f(i - 0.5f * (inRow - 1), 0.5f + row, 0.0f), p, "row " + row + " box " + i);
            }
        }
        bodies.getPosition(0, p);
        assertEquals(-9.5f, p.x, "the bottom row spans [-10, 10]");
        bodies.getPosition(bodies.size() - 1, p);
        assertEquals(new Vector3f(0.0f, 19.5f, 0.0f), p, "the top box");
    }

    /**
     * Box3D's many_pyramids, its layout recomputed here as its benchmark writes it: pyramid {@code j}
     * of row {@code r} has the box {@code (i, k)} (row {@code i}, {@code k} from {@code i}) at
     * {@code x = (i + 1) e + 2 (k - i) e + centreX - 0.5}, {@code y = (2 i + 1) e},
     * {@code z = -g + 2 e + r 2 (g - 2 e) / (rows - 1)}, with {@code centreX = -g + j (2 e base + 2 e)
     * + 2 e} and the ground's half extent {@code g = e columns (base + 1)}.
     */
    @Test
    void manyPyramidsAreLaidOutAsBox3dLaysThemOut() {
        assertEquals(10_780L, BoxScene.manyPyramidsBoxCount(BoxScene.MANY_PYRAMIDS_GRID, BoxScene.MANY_PYRAMIDS_BASE));
        int grid = 3;
        int base = 4;
        BoxScene scene = BoxScene.manyPyramids(grid, base);
        BodyBatch bodies = scene.bodies();
        assertEquals(grid * grid * 10, bodies.size());
        double e = 0.5;
        double ground = e * grid * (base + 1.0);
        Vector3f p = new Vector3f();
        int body = 0;
        for (int r = 0; r < grid; r++) {
            double z = -ground + 2 * e + r * 2 * (ground - 2 * e) / (grid - 1.0);
            for (int j = 0; j < grid; j++) {
                double centreX = -ground + j * (2 * e * base + 2 * e) + 2 * e;
                for (int i = 0; i < base; i++) {
                    for (int k = i; k < base; k++) {
                        bodies.getPosition(body++, p);
                        double x = (i + 1) * e + 2 * (k - i) * e + centreX - 0.5;
                        assertEquals(x, p.x, 1e-5, "pyramid " + r + "," + j + " box " + i + "," + k);
                        assertEquals((2 * i + 1) * e, p.y, 1e-6);
                        assertEquals(z, p.z, 1e-5);
                    }
                }
            }
        }
        // a grid of one is the large pyramid's shape in the plane at the ground's back edge plus a box
        BodyBatch one = BoxScene.manyPyramids(1, base).bodies();
        BodyBatch pyramid = BoxScene.pyramid(base).bodies();
        Vector3f q = new Vector3f();
        for (int i = 0; i < pyramid.size(); i++) {
            assertEquals(pyramid.getPosition(i, q).set(q.x, q.y, 1.0f - 0.5f * (base + 1)), one.getPosition(i, p));
        }
        assertThrows(IllegalArgumentException.class, () -> BoxScene.manyPyramids(0, 4));
        assertThrows(IllegalArgumentException.class, () -> BoxScene.manyPyramids(2, 0));
    }

    @Test
    void boxesAreUnitCubesOfUnitMassAtRestUnturned() {
        BoxScene scene = BoxScene.pyramid(5);
        assertEquals(0.5f, scene.halfExtent());
        assertEquals(1.0f, scene.boxMass());
        BodyBatch bodies = scene.bodies();
        Matrix3f inverseInertia = new Matrix3f();
        Quaternionf q = new Quaternionf();
        Vector3f v = new Vector3f();
        for (int i = 0; i < bodies.size(); i++) {
            assertEquals(1.0f, bodies.inverseMass(i));
            // a solid cube: I = m (2 h)^2 / 6 = 1/6 about every axis
            assertEquals(new Matrix3f().scaling(6.0f), bodies.getInverseInertia(i, inverseInertia));
            assertEquals(new Quaternionf(), bodies.getOrientation(i, q));
            assertEquals(new Vector3f(), bodies.getLinearVelocity(i, v));
            assertEquals(new Vector3f(), bodies.getAngularVelocity(i, v));
        }
        BoxScene dense = new BoxScene(0.25f, 8.0f);
        dense.addBox(0.0f, 0.25f, 0.0f);
        assertEquals(1.0f, dense.boxMass(), 1e-6f, "8 kg/m^3 times (0.5 m)^3");
        assertEquals(24.0f, dense.bodies().getInverseInertia(0, inverseInertia).m00(), 1e-4f,
                "6 / (m (2 h)^2)");
    }

    @Test
    void aStackIsOneColumnOnTheGround() {
        BodyBatch bodies = BoxScene.stack(4).bodies();
        assertEquals(4, bodies.size());
        Vector3f p = new Vector3f();
        for (int k = 0; k < 4; k++) {
            assertEquals(new Vector3f(0.0f, 0.5f + k, 0.0f), bodies.getPosition(k, p));
        }
        assertEquals(0, BoxScene.stack(0).bodies().size());
    }

    @Test
    void aTurnedBoxKeepsItsOrientation() {
        BoxScene scene = new BoxScene(BoxScene.HALF_EXTENT, BoxScene.DENSITY);
        Quaternionf turned = new Quaternionf().rotateY(0.3f);
        int box = scene.addBox(1.0f, 2.0f, 3.0f, turned);
        assertEquals(turned, scene.bodies().getOrientation(box, new Quaternionf()));
        assertEquals(new Vector3f(1.0f, 2.0f, 3.0f), scene.bodies().getPosition(box, new Vector3f()));
    }

    @Test
    void badArgumentsAreRefusedByName() {
        assertMessageStarts("baseCount", () -> BoxScene.pyramid(0));
        assertMessageStarts("baseCount", () -> BoxScene.pyramid(100_000));
        assertMessageStarts("count", () -> BoxScene.stack(-1));
        assertMessageStarts("halfExtent", () -> new BoxScene(0.0f, 1.0f));
        assertMessageStarts("density", () -> new BoxScene(0.5f, Float.NaN));
    }

    private static void assertMessageStarts(String name, Runnable call) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call::run);
        assertTrue(e.getMessage().startsWith(name + " "), e.getMessage());
    }
}
