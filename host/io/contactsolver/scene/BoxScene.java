package io.contactsolver.scene;

import io.contactsolver.BodyBatch;
import org.joml.Quaternionfc;

/**
 * Scenes of equal solid cubes on a static ground plane {@code y = 0} (the world, not a body), y
 * up, for {@link BoxContacts} to find contacts in: a pyramid after Box2D v3's {@code large_pyramid}
 * benchmark and a single stack. Each box is a body of the batch, at rest, with the mass of its
 * volume at the given density and a solid cube's inertia {@code m (2 h)^2 / 6} about every axis.
 *
 * <p>Convention (docs/physics.md): a contact's normal points from body a to body b and its
 * separation is the signed gap along it, negative for overlap. In these scenes boxes that touch
 * do so exactly, with separation 0.
 */
public final class BoxScene {
    /** Half the side of the boxes of {@link #pyramid} and {@link #stack}: 1 m cubes. */
    public static final float HALF_EXTENT = 0.5f;
    /** Density of the boxes of {@link #pyramid} and {@link #stack}, kg/m^3: a mass of 1 kg. */
    public static final float DENSITY = 1.0f;
    /** The bottom row of Box2D's large pyramid: 5,050 boxes. */
    public static final int LARGE_PYRAMID_BASE = 100;
    /** The bottom row of the small pyramid: 210 boxes. */
    public static final int SMALL_PYRAMID_BASE = 20;

    private final BodyBatch bodies;
    private final float halfExtent;
    private final float mass;
    private final float inverseInertia;

    /**
     * An empty scene of boxes with half extent {@code halfExtent} (m) and density {@code density}
     * (kg/m^3), both positive and finite.
     */
    public BoxScene(float halfExtent, float density) {
        if (!(halfExtent > 0.0f) || !Float.isFinite(halfExtent)) {
            throw new IllegalArgumentException("halfExtent must be positive and finite, got " + halfExtent);
        }
        if (!(density > 0.0f) || !Float.isFinite(density)) {
            throw new IllegalArgumentException("density must be positive and finite, got " + density);
        }
        float side = 2.0f * halfExtent;
        this.halfExtent = halfExtent;
        this.mass = density * side * side * side;
        if (!(mass > 0.0f) || !Float.isFinite(mass)) {
            throw new IllegalArgumentException("a box's mass must be positive and finite, got " + mass
                    + " (halfExtent " + halfExtent + ", density " + density + ")");
        }
        this.inverseInertia = 6.0f / (mass * side * side);
        this.bodies = new BodyBatch();
    }

    /**
     * Box2D's pyramid: {@code baseCount} boxes side by side in the bottom row, each row above one
     * box shorter and shifted by half a box, in the x-y plane ({@code z = 0}), centred on
     * {@code x = 0}. Boxes of a row touch their neighbours and rows touch the rows below, exactly:
     * row {@code k} has its centres at {@code y = h + 2 h k}, spaced {@code 2 h}. Bodies are
     * numbered row by row from the bottom, left to right, so a box has a higher index than the
     * boxes it rests on. {@code baseCount (baseCount + 1) / 2} boxes of {@link #HALF_EXTENT} and
     * {@link #DENSITY}.
     *
     * @param baseCount boxes in the bottom row, {@code >= 1}
     */
    public static BoxScene pyramid(int baseCount) {
        long boxes = pyramidBoxCount(baseCount);
        if (boxes > BodyBatch.MAX_SIZE) {
            throw new IllegalArgumentException("baseCount " + baseCount + " needs " + boxes
                    + " bodies, more than a batch holds (" + BodyBatch.MAX_SIZE + ")");
        }
        BoxScene scene = new BoxScene(HALF_EXTENT, DENSITY);
        float side = 2.0f * HALF_EXTENT;
        for (int row = 0; row < baseCount; row++) {
            int inRow = baseCount - row;
            // multiples of h: exact in float, so touching boxes have a gap of exactly 0
            float left = -0.5f * (inRow - 1) * side;
            float y = HALF_EXTENT + row * side;
            for (int i = 0; i < inRow; i++) {
                scene.addBox(left + i * side, y, 0.0f);
            }
        }
        return scene;
    }

    /**
     * {@code count} boxes of {@link #HALF_EXTENT} and {@link #DENSITY} in one column on the ground,
     * each resting on the one below: box {@code k} at {@code (0, h + 2 h k, 0)}.
     *
     * @param count number of boxes, {@code >= 0}
     */
    public static BoxScene stack(int count) {
        if (count < 0 || count > BodyBatch.MAX_SIZE) {
            throw new IllegalArgumentException("count must be in [0, " + BodyBatch.MAX_SIZE + "], got " + count);
        }
        BoxScene scene = new BoxScene(HALF_EXTENT, DENSITY);
        for (int k = 0; k < count; k++) {
            scene.addBox(0.0f, HALF_EXTENT + k * 2.0f * HALF_EXTENT, 0.0f);
        }
        return scene;
    }

    /** The number of boxes of {@code pyramid(baseCount)}: {@code baseCount (baseCount + 1) / 2}. */
    public static long pyramidBoxCount(int baseCount) {
        if (baseCount < 1) {
            throw new IllegalArgumentException("baseCount must be at least 1, got " + baseCount);
        }
        return (long) baseCount * (baseCount + 1) / 2;
    }

    /** Adds a box at rest with identity orientation centred at {@code (x, y, z)}; returns its body index. */
    public int addBox(float x, float y, float z) {
        int body = bodies.add();
        bodies.setPosition(body, x, y, z).setMass(body, mass)
                .setInverseInertia(body, inverseInertia, inverseInertia, inverseInertia, 0.0f, 0.0f, 0.0f);
        return body;
    }

    /** Adds a box at rest centred at {@code (x, y, z)} and turned by the unit quaternion {@code orientation}. */
    public int addBox(float x, float y, float z, Quaternionfc orientation) {
        int body = addBox(x, y, z);
        bodies.setOrientation(body, orientation);
        return body;
    }

    /** The boxes, one body each; the scene's own batch, not a copy. */
    public BodyBatch bodies() {
        return bodies;
    }

    /** Half the side of every box, m. */
    public float halfExtent() {
        return halfExtent;
    }

    /** The mass of every box, kg. */
    public float boxMass() {
        return mass;
    }
}
