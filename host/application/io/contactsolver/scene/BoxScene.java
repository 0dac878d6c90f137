package io.contactsolver.scene;

import io.contactsolver.BodyBatch;
import org.joml.Quaternionfc;

/**
 * Scenes of equal solid cubes on a static ground plane {@code y = 0} (the world, not a body), y
 * up, for {@link BoxContacts} to find contacts in: a pyramid after the {@code large_pyramid}
 * benchmark of Box2D v3 and Box3D, a grid of small pyramids after Box3D's {@code many_pyramids},
 * and a single stack. Each box is a body of the batch, at rest, with the mass of its
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
    /** Box3D's {@code many_pyramids}: this many rows of this many pyramids. */
    public static final int MANY_PYRAMIDS_GRID = 14;
    /** Box3D's {@code many_pyramids}: the bottom row of each pyramid, 55 boxes. */
    public static final int MANY_PYRAMIDS_BASE = 10;

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
     * The pyramid of the {@code large_pyramid} benchmark of Box2D v3 and Box3D: {@code baseCount}
     * boxes side by side in the bottom row, each row above one box shorter and shifted by half a
     * box, in the x-y plane ({@code z = 0}), centred on {@code x = 0}. Boxes of a row touch their
     * neighbours and rows touch the rows below, exactly: row {@code k} has its centres at
     * {@code y = h + 2 h k}, spaced {@code 2 h}. Bodies are numbered row by row from the bottom,
     * left to right, so a box has a higher index than the boxes it rests on. {@code baseCount (baseCount + 1) / 2} boxes of {@link #HALF_EXTENT} and
     * {@link #DENSITY}.
     *
     * @param baseCount boxes in the bottom row, {@code >= 1}
     */
    public static BoxScene pyramid(int baseCount) {
        checkBodies(pyramidBoxCount(baseCount), "baseCount " + baseCount);
        BoxScene scene = new BoxScene(HALF_EXTENT, DENSITY);
        scene.addPyramid(baseCount, -(baseCount - 1) * HALF_EXTENT, 0.0f);
        return scene;
    }

    /**
     * Box3D's {@code many_pyramids}: {@code grid} rows of {@code grid} pyramids of {@link #pyramid}'s
     * shape, each with {@code baseCount} boxes in its bottom row, all in x-y planes, the rows of
     * pyramids one behind the other along z. As Box3D lays them out on its ground box of half
     * extent {@code g = h grid (baseCount + 1)}: pyramid {@code j} of a row has the left box of its
     * bottom row at {@code x = -g + 2 h + j (2 h baseCount + 2 h)} (pyramids one box apart), and row
     * {@code i} stands at {@code z = -g + 2 h + i (2 g - 4 h) / (grid - 1)} (spread from one edge of
     * the ground to the other; at {@code z = -g + 2 h} for a grid of 1). Bodies are numbered pyramid
     * by pyramid (rows of pyramids, then along x), each pyramid as {@link #pyramid} numbers them, so
     * a pyramid's top box is its last. {@code grid^2 baseCount (baseCount + 1) / 2} boxes of
     * {@link #HALF_EXTENT} and {@link #DENSITY}.
     *
     * @param grid      pyramids a row and rows, {@code >= 1}
     * @param baseCount boxes in the bottom row of each pyramid, {@code >= 1}
     */
    public static BoxScene manyPyramids(int grid, int baseCount) {
        checkBodies(manyPyramidsBoxCount(grid, baseCount), "grid " + grid + " and baseCount " + baseCount);
        BoxScene scene = new BoxScene(HALF_EXTENT, DENSITY);
        float h = HALF_EXTENT;
        float ground = h * grid * (baseCount + 1.0f);
        float deltaZ = grid == 1 ? 0.0f : 2.0f * (ground - 2.0f * h) / (grid - 1.0f);
        for (int i = 0; i < grid; i++) {
            float z = -ground + 2.0f * h + i * deltaZ;
            for (int j = 0; j < grid; j++) {
                scene.addPyramid(baseCount, -ground + 2.0f * h + j * (2.0f * h * baseCount + 2.0f * h), z);
            }
        }
        return scene;
    }

    /**
     * Adds a pyramid in the plane {@code z}: {@code baseCount} boxes side by side in the bottom row,
     * the left one centred at {@code x = left}, each row above one box shorter and shifted by half
     * a box, rows touching exactly: row {@code k} has its centres at {@code y = h + 2 h k}, spaced
     * {@code 2 h}, from {@code x = left + h k}. Boxes are added row by row from the bottom, left to
     * right, so the top box is the last.
     *
     * @param baseCount boxes in the bottom row, {@code >= 1}
     * @return the body index of the first box added
     */
    public int addPyramid(int baseCount, float left, float z) {
        checkBodies(bodies.size() + pyramidBoxCount(baseCount), "a pyramid of base " + baseCount);
        float side = 2.0f * halfExtent;
        int first = bodies.size();
        for (int row = 0; row < baseCount; row++) {
            // multiples of h from a multiple of h: exact in float, so touching boxes have a gap of exactly 0
            float rowLeft = left + row * halfExtent;
            float y = halfExtent + row * side;
            for (int i = 0; i < baseCount - row; i++) {
                addBox(rowLeft + i * side, y, z);
            }
        }
        return first;
    }

    private static void checkBodies(long boxes, String what) {
        if (boxes > BodyBatch.MAX_SIZE) {
            throw new IllegalArgumentException(what + " needs " + boxes + " bodies, more than a batch holds ("
                    + BodyBatch.MAX_SIZE + ")");
        }
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

    /** The number of boxes of {@code manyPyramids(grid, baseCount)}. */
    public static long manyPyramidsBoxCount(int grid, int baseCount) {
        if (grid < 1) {
            throw new IllegalArgumentException("grid must be at least 1, got " + grid);
        }
        return (long) grid * grid * pyramidBoxCount(baseCount);
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
