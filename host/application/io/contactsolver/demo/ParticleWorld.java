package io.contactsolver.demo;

import java.util.SplittableRandom;

/**
 * The state a particle simulation owns: solid spheres of varied size and mass in a closed box.
 *
 * <p>Units are SI, y points up, and the box spans {@code [0, width] x [0, height] x [0, depth]}
 * (see {@link Wall}). Layout: structure of arrays, one float array per quantity, indexed by
 * particle {@code 0 .. count-1}; the same index is the particle's body index in the module's
 * {@code BodyBatch}. The arrays are package-private so the step loop reads as plain arithmetic.
 *
 * <p>The arrays hold {@link #capacity()} spheres, all sized and weighed from the start; only the
 * first {@link #count} are in the world. {@link #drop} puts them all in at once, {@link #pour}
 * none, and an {@link Inlet} brings them in one by one.
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
    /**
     * The floor of {@link #pour} is sized for a heap this shallow, degrees: shallower than spheres with
     * any friction stand, so a heap with friction never reaches a wall (frictionless spheres spread
     * until they do).
     */
    static final double SHALLOWEST_SIZED_HEAP_DEGREES = 15.0;
    /** ...and the inlet is placed above a heap this steep, degrees, so the heap never reaches it. */
    static final double STEEPEST_SIZED_HEAP_DEGREES = 40.0;
    /** Floor room around the shallowest heap's base, as a share of its diameter. */
    private static final double FLOOR_ROOM = 0.25;
    /** Inlet height over the steepest heap's peak, as a share of that peak: low, so spheres land gently. */
    private static final double INLET_CLEARANCE = 0.1;

    /** Spheres in the world now: indices {@code 0 .. count-1}. */
    int count;
    final float width;
    final float height;
    final float depth;
    final float[] x;
    final float[] y;
    final float[] z;
    final float[] vx;
    final float[] vy;
    final float[] vz;
    /** Angular velocity, rad/s, world space. */
    final float[] wx;
    final float[] wy;
    final float[] wz;
    final float[] radius;
    final float[] mass;
    private float largestRadius;
    private float inletHeight = Float.NaN;

    /** A world that can hold {@code capacity} spheres, with {@code count} of them in it. */
    ParticleWorld(int capacity, int count, float width, float height, float depth) {
        if (capacity < 1 || count < 0 || count > capacity) {
            throw new IllegalArgumentException("a world needs room for at least one particle and at most that many "
                    + "in it, got " + count + " of " + capacity);
        }
        this.count = count;
        this.width = width;
        this.height = height;
        this.depth = depth;
        x = new float[capacity];
        y = new float[capacity];
        z = new float[capacity];
        vx = new float[capacity];
        vy = new float[capacity];
        vz = new float[capacity];
        wx = new float[capacity];
        wy = new float[capacity];
        wz = new float[capacity];
        radius = new float[capacity];
        mass = new float[capacity];
    }

    /** A world with all {@code count} spheres in it. */
    ParticleWorld(int count, float width, float height, float depth) {
        this(count, count, width, height, depth);
    }

    /**
     * {@code count} spheres in a loose random cloud filling a box from the floor up: a jittered
     * lattice, each sphere somewhere inside its own lattice cell, so none overlap. The box is sized
     * so the settled pile fills about its lower quarter to third. The same seed gives the same
     * world on every machine.
     */
    public static ParticleWorld drop(int count, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        float[] radii = randomRadii(count, random);
        // width w, depth w/4, pile height w/4: w^3 / 16 = solid volume / packing
        double pileVolume = solidVolume(radii) / PILE_PACKING;
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

    /**
     * An empty world for {@code count} spheres to be poured into by an {@link Inlet}: a square floor
     * wide enough for the heap they would form at {@link #SHALLOWEST_SIZED_HEAP_DEGREES}, with room
     * around it, and high enough for the inlet above the heap they would form at
     * {@link #STEEPEST_SIZED_HEAP_DEGREES}. The spheres' sizes and masses are drawn now, as in
     * {@link #drop}; the same seed gives the same world on every machine.
     */
    public static ParticleWorld pour(int count, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        float[] radii = randomRadii(count, random);
        double heapVolume = solidVolume(radii) / PILE_PACKING;
        double widestBase = 2.0 * coneRadius(heapVolume, SHALLOWEST_SIZED_HEAP_DEGREES);
        float floorWidth = (float) (widestBase * (1.0 + 2.0 * FLOOR_ROOM) + 8.0 * MAX_RADIUS);
        double steepest = Math.toRadians(STEEPEST_SIZED_HEAP_DEGREES);
        double highestPeak = coneRadius(heapVolume, STEEPEST_SIZED_HEAP_DEGREES) * Math.tan(steepest);
        float inletHeight = (float) (highestPeak * (1.0 + INLET_CLEARANCE) + 4.0 * MAX_RADIUS);
        ParticleWorld world = new ParticleWorld(count, 0, floorWidth, inletHeight + 4.0f * MAX_RADIUS, floorWidth);
        world.inletHeight = inletHeight;
        for (int i = 0; i < count; i++) {
            float density = MIN_DENSITY + (MAX_DENSITY - MIN_DENSITY) * (float) random.nextDouble();
            world.setSphere(i, radii[i], density * (float) sphereVolume(radii[i]));
        }
        return world;
    }

    /** Where {@link #pour}'s inlet stands above the floor, m (NaN for other worlds). */
    float inletHeight() {
        return inletHeight;
    }

    /**
     * Puts the next sphere ({@code count}, already sized and weighed) into the world at a position
     * with a velocity, not spinning.
     */
    void add(float px, float py, float pz, float pvx, float pvy, float pvz) {
        if (count == capacity()) {
            throw new IllegalStateException("the world is full: " + count + " spheres");
        }
        int i = count++;
        x[i] = px;
        y[i] = py;
        z[i] = pz;
        vx[i] = pvx;
        vy[i] = pvy;
        vz[i] = pvz;
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

    /** The spheres this world can hold: those in it and those still to come. */
    public int capacity() {
        return radius.length;
    }

    /**
     * The inverse of sphere {@code i}'s moment of inertia about any axis through its centre,
     * {@code 5 / (2 m r^2)} for a solid sphere, computed in double.
     */
    float inverseInertia(int i) {
        return (float) (5.0 / (2.0 * mass[i] * radius[i] * radius[i]));
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

    /**
     * Total kinetic energy, translation and rotation ({@code I = 2 m r^2 / 5}), J, summed in double
     * in index order (the same bits on every run).
     */
    public double kineticEnergy() {
        double sum = 0.0;
        for (int i = 0; i < count; i++) {
            double moment = 0.4 * mass[i] * radius[i] * radius[i];
            sum += 0.5 * mass[i] * ((double) vx[i] * vx[i] + (double) vy[i] * vy[i] + (double) vz[i] * vz[i])
                    + 0.5 * moment * ((double) wx[i] * wx[i] + (double) wy[i] * wy[i] + (double) wz[i] * wz[i]);
        }
        return sum;
    }

    /**
     * The kinetic energy of the centres' motion alone, J, summed like {@link #kineticEnergy}: what
     * moves spheres, leaving out spin.
     */
    public double translationalEnergy() {
        double sum = 0.0;
        for (int i = 0; i < count; i++) {
            sum += 0.5 * mass[i] * ((double) vx[i] * vx[i] + (double) vy[i] * vy[i] + (double) vz[i] * vz[i]);
        }
        return sum;
    }

    private static float[] randomRadii(int count, SplittableRandom random) {
        float[] radii = new float[count];
        for (int i = 0; i < count; i++) {
            radii[i] = MIN_RADIUS + (MAX_RADIUS - MIN_RADIUS) * (float) random.nextDouble();
        }
        return radii;
    }

    private static double solidVolume(float[] radii) {
        double volume = 0.0;
        for (float r : radii) {
            volume += sphereVolume(r);
        }
        return volume;
    }

    /** The base radius of a cone of {@code volume} whose flank stands at {@code degrees}. */
    private static double coneRadius(double volume, double degrees) {
        return Math.cbrt(3.0 * volume / (Math.PI * Math.tan(Math.toRadians(degrees))));
    }

    private static double sphereVolume(float r) {
        return 4.0 / 3.0 * Math.PI * r * r * r;
    }

    private static float jitter(SplittableRandom random, float halfWidth) {
        return (float) ((random.nextDouble() * 2.0 - 1.0) * halfWidth);
    }
}
