package io.contactsolver.demo;

import java.util.SplittableRandom;

/**
 * The state a particle simulation owns: spheres of varied size and mass in a closed box.
 *
 * <p>Units are SI, y points up, and the box spans {@code [0, width] x [0, height] x [0, depth]}
 * (see {@link Wall}). Layout: structure of arrays, one float array per quantity, indexed by
 * particle {@code 0 .. count-1}; the same index is the particle's body index in the module's
 * {@code BodyBatch}. The arrays are package-private so the step loop reads as plain arithmetic.
 */
public final class ParticleWorld {
    /** Radii of {@link #drop} vary by a factor of two: glass beads and marbles. */
    static final float MIN_RADIUS = 0.005f;
    static final float MAX_RADIUS = 0.010f;
    /** Densities of {@link #drop}, kg/m^3: from plastic to glass, so equal sizes differ in mass too. */
    static final float MIN_DENSITY = 1000.0f;
    static final float MAX_DENSITY = 3000.0f;
    /** Lattice spacing of the starting cloud, in largest diameters: loose, but no sphere touches another. */
    private static final float CLOUD_SPACING = 1.1f;
    /** Packing fraction of a random heap of spheres, for sizing the box around the settled pile. */
    private static final double PILE_PACKING = 0.6;
    /** The box is four times as wide as deep, and the settled pile about a quarter as high as wide. */
    private static final double WIDTH_PER_DEPTH = 4.0;
    private static final double WIDTH_PER_PILE_HEIGHT = 4.0;
    /** Starting velocities are jittered by up to this much, m/s, so the cloud is not a perfect lattice. */
    private static final float VELOCITY_JITTER = 0.05f;

    final int count;
    final float width;
    final float height;
    final float depth;
    final float[] x;
    final float[] y;
    final float[] z;
    final float[] vx;
    final float[] vy;
    final float[] vz;
    final float[] radius;
    final float[] mass;
    private float largestRadius;

    ParticleWorld(int count, float width, float height, float depth) {
        if (count < 1) {
            throw new IllegalArgumentException("a world needs at least one particle, got " + count);
        }
        this.count = count;
        this.width = width;
        this.height = height;
        this.depth = depth;
        x = new float[count];
        y = new float[count];
        z = new float[count];
        vx = new float[count];
        vy = new float[count];
        vz = new float[count];
        radius = new float[count];
        mass = new float[count];
    }

    /**
     * {@code count} spheres in a loose random cloud filling a box from the floor up: a jittered
     * lattice, each sphere somewhere inside its own lattice cell, so none overlap. The box is sized
     * so the settled pile fills about its lower quarter to third. The same seed gives the same
     * world on every machine.
     */
    public static ParticleWorld drop(int count, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        float[] radii = new float[count];
        double solidVolume = 0.0;
        for (int i = 0; i < count; i++) {
            radii[i] = MIN_RADIUS + (MAX_RADIUS - MIN_RADIUS) * (float) random.nextDouble();
            solidVolume += sphereVolume(radii[i]);
        }
        // width w, depth w/4, pile height w/4: w^3 / 16 = solid volume / packing
        double pileVolume = solidVolume / PILE_PACKING;
        double targetWidth = Math.cbrt(pileVolume * WIDTH_PER_DEPTH * WIDTH_PER_PILE_HEIGHT);
        float spacing = 2.0f * MAX_RADIUS * CLOUD_SPACING;
        int columns = Math.max(1, (int) Math.round(targetWidth / spacing));
        int rows = Math.max(1, (int) Math.round(targetWidth / WIDTH_PER_DEPTH / spacing));
        int layers = (count + columns * rows - 1) / (columns * rows);
        ParticleWorld world = new ParticleWorld(count, columns * spacing, (layers + 1) * spacing, rows * spacing);
        for (int i = 0; i < count; i++) {
            float r = radii[i];
            int column = i % columns;
            int row = i / columns % rows;
            int layer = i / (columns * rows);
            float room = spacing * 0.5f - r; // how far the centre may stray from the cell's centre
            world.x[i] = (column + 0.5f) * spacing + jitter(random, room);
            world.y[i] = (layer + 0.5f) * spacing + jitter(random, room);
            world.z[i] = (row + 0.5f) * spacing + jitter(random, room);
            world.vx[i] = jitter(random, VELOCITY_JITTER);
            world.vy[i] = jitter(random, VELOCITY_JITTER);
            world.vz[i] = jitter(random, VELOCITY_JITTER);
            float density = MIN_DENSITY + (MAX_DENSITY - MIN_DENSITY) * (float) random.nextDouble();
            world.setSphere(i, r, density * (float) sphereVolume(r));
        }
        return world;
    }

    /** Sets the size and mass of particle {@code i}. */
    void setSphere(int i, float sphereRadius, float sphereMass) {
        radius[i] = sphereRadius;
        mass[i] = sphereMass;
        largestRadius = Math.max(largestRadius, sphereRadius);
    }

    public int count() {
        return count;
    }

    public float width() {
        return width;
    }

    public float height() {
        return height;
    }

    public float depth() {
        return depth;
    }

    /** The box's size along axis 0, 1 or 2 (x, y, z). */
    float size(int axis) {
        return axis == 0 ? width : axis == 1 ? height : depth;
    }

    /** Particle {@code i}'s centre coordinate along axis 0, 1 or 2. */
    float centre(int axis, int i) {
        return axis == 0 ? x[i] : axis == 1 ? y[i] : z[i];
    }

    float largestRadius() {
        return largestRadius;
    }

    public float speed(int i) {
        return (float) Math.sqrt((double) vx[i] * vx[i] + (double) vy[i] * vy[i] + (double) vz[i] * vz[i]);
    }

    /** The largest speed of any particle, m/s. */
    public float maxSpeed() {
        float max = 0.0f;
        for (int i = 0; i < count; i++) {
            max = Math.max(max, speed(i));
        }
        return max;
    }

    /** Total kinetic energy, J, summed in double in index order (the same bits on every run). */
    public double kineticEnergy() {
        double sum = 0.0;
        for (int i = 0; i < count; i++) {
            sum += 0.5 * mass[i] * ((double) vx[i] * vx[i] + (double) vy[i] * vy[i] + (double) vz[i] * vz[i]);
        }
        return sum;
    }

    private static double sphereVolume(float r) {
        return 4.0 / 3.0 * Math.PI * r * r * r;
    }

    private static float jitter(SplittableRandom random, float halfWidth) {
        return (float) ((random.nextDouble() * 2.0 - 1.0) * halfWidth);
    }
}
