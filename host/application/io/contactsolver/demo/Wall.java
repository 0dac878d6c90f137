package io.contactsolver.demo;

/**
 * The six walls of the closed box {@code [0, width] x [0, height] x [0, depth]} (y up). Each is a
 * plane whose normal points from the wall into the box: a sphere-wall contact has the static world
 * (body index -1) as body a and the sphere as body b, and the module's normal points from a to b.
 */
enum Wall {
    FLOOR(1, true), CEILING(1, false),
    LEFT(0, true), RIGHT(0, false),
    BACK(2, true), FRONT(2, false);

    /** 0, 1, 2 for x, y, z: the axis the wall is perpendicular to. */
    final int axis;
    /** Whether the wall stands at coordinate 0 (normal along +axis) rather than at the box's size. */
    final boolean atZero;

    Wall(int axis, boolean atZero) {
        this.axis = axis;
        this.atZero = atZero;
    }

    /** The inward normal's component along axis 0, 1 or 2: +1 or -1 along {@link #axis}, else 0. */
    float normal(int alongAxis) {
        return alongAxis != axis ? 0.0f : atZero ? 1.0f : -1.0f;
    }

    /** Where the wall stands along its axis, in a box of size {@code boxSize} along that axis. */
    float position(float boxSize) {
        return atZero ? 0.0f : boxSize;
    }

    /** Signed gap between a sphere and this wall (negative: overlap), given the centre along the axis. */
    float gap(float centre, float radius, float boxSize) {
        float distance = atZero ? centre : boxSize - centre;
        return distance - radius;
    }
}
