package io.contactsolver.demo;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * A narrow inlet above the middle of the floor that pours a world's spheres in, one per free spot
 * per step, falling straight down at {@link #POUR_SPEED}.
 *
 * <p>The spots are a hexagonal lattice (a centre and three rings, 37 spots, about 15 cm across) in a
 * horizontal disk at the world's inlet height; a spot takes the next sphere once the sphere it last took has fallen
 * clear of it, so the stream regulates itself and never places a sphere into another. Each placed
 * sphere is moved off its spot's centre by a seeded random amount that keeps it within its lattice
 * cell, so the stream is not a perfect column. Everything runs in one thread in spot order, so the
 * same seed pours the same stream.
 */
final class Inlet {
    /**
     * Speed the spheres leave the inlet with, downwards, m/s. Gentle: spheres that land fast roll
     * far across the bare floor before the heap's base forms (at 1.5 m/s the first 800 spread flat,
     * at 0.5 m/s they form a heap).
     */
    static final float POUR_SPEED = 0.5f;
    /** Spacing of the spots, in largest diameters: a little more, so neighbours never touch. */
    private static final float SPOT_SPACING = 1.1f;
    /** Rings of spots around the centre one: wide enough to pour a few thousand spheres in seconds. */
    private static final int RINGS = 3;
    /** The smallest gap between a new sphere and any other, in largest radii. */
    private static final float CLEARANCE_PER_RADIUS = 0.1f;

    private final float height;
    private final float spacing;
    private final float clearance;
    private final float[] spotX;
    private final float[] spotZ;
    private final SplittableRandom random;
    /** Indices of the spheres near the inlet's plane, gathered once per step. */
    private int[] nearby = new int[64];
    private int nearbyCount;

    /** An inlet above the middle of {@code world}'s floor, at its {@link ParticleWorld#inletHeight()}. */
    Inlet(ParticleWorld world, long seed) {
        if (!Float.isFinite(world.inletHeight())) {
            throw new IllegalArgumentException("the world has no inlet height: make it with ParticleWorld.pour");
        }
        float centreX = 0.5f * world.width;
        float centreZ = 0.5f * world.depth;
        this.height = world.inletHeight();
        this.spacing = 2.0f * world.largestRadius() * SPOT_SPACING;
        this.clearance = CLEARANCE_PER_RADIUS * world.largestRadius();
        int spots = 1 + 3 * RINGS * (RINGS + 1);
        spotX = new float[spots];
        spotZ = new float[spots];
        int n = 0;
        // axial hexagon coordinates (q, r) within RINGS steps of the centre, row by row
        for (int r = -RINGS; r <= RINGS; r++) {
            for (int q = -RINGS; q <= RINGS; q++) {
                if (Math.abs(q) <= RINGS && Math.abs(r) <= RINGS && Math.abs(q + r) <= RINGS) {
                    spotX[n] = centreX + spacing * (q + 0.5f * r);
                    spotZ[n] = centreZ + spacing * (float) (Math.sqrt(3.0) / 2.0) * r;
                    n++;
                }
            }
        }
        this.random = new SplittableRandom(seed);
    }

    /** Whether every sphere of the world has been poured. */
    boolean isEmpty(ParticleWorld world) {
        return world.count == world.capacity();
    }

    /** Pours the next spheres into {@code world}, one into each free spot; returns how many. */
    int pour(ParticleWorld world) {
        if (isEmpty(world)) {
            return 0;
        }
        gatherNearby(world);
        int poured = 0;
        for (int s = 0; s < spotX.length && !isEmpty(world); s++) {
            int next = world.count;
            float r = world.radius[next];
            float room = 0.5f * spacing - r; // how far the centre may stray from the spot and stay in its cell
            float px = spotX[s] + jitter(room);
            float pz = spotZ[s] + jitter(room);
            if (isFree(world, px, height, pz, r)) {
                world.add(px, height, pz, 0.0f, -POUR_SPEED, 0.0f);
                addNearby(next);
                poured++;
            }
        }
        return poured;
    }

    /** Collects the spheres that could touch a sphere placed at the inlet. */
    private void gatherNearby(ParticleWorld world) {
        nearbyCount = 0;
        float reach = 2.0f * world.largestRadius() + clearance;
        for (int i = 0; i < world.count; i++) {
            if (Math.abs(world.y[i] - height) < reach) {
                addNearby(i);
            }
        }
    }

    private void addNearby(int i) {
        if (nearbyCount == nearby.length) {
            nearby = Arrays.copyOf(nearby, 2 * nearbyCount);
        }
        nearby[nearbyCount++] = i;
    }

    private boolean isFree(ParticleWorld world, float px, float py, float pz, float r) {
        for (int k = 0; k < nearbyCount; k++) {
            int i = nearby[k];
            if (UniformGrid.near(px, py, pz, r, world.x[i], world.y[i], world.z[i], world.radius[i], clearance)) {
                return false;
            }
        }
        return true;
    }

    private float jitter(float halfWidth) {
        return (float) ((random.nextDouble() * 2.0 - 1.0) * halfWidth);
    }
}
