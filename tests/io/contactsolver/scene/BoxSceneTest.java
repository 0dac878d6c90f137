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
