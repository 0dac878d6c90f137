package io.contactsolver.demo;

import java.util.Locale;

/** The demo's scenes: what world a run starts from and when it ends. */
public enum DemoScene {
    /**
     * Spheres poured from a narrow inlet onto the middle of a wide floor; runs until every sphere
     * is poured and the heap is at rest ({@link RestWatch}), or the step cap, whichever comes first.
     */
    HEAP(4_000, 12_000),
    /** Spheres dropped from a loose cloud into a closed box; runs a fixed number of steps. */
    BOX(25_000, 600);

    /** Spheres when {@code --particles} is not given. */
    final int defaultParticles;
    /** Steps (the box) or the step cap (the heap) when {@code --steps} is not given. */
    final int defaultSteps;

    DemoScene(int defaultParticles, int defaultSteps) {
        this.defaultParticles = defaultParticles;
        this.defaultSteps = defaultSteps;
    }

    /** The simulation of this scene with {@code particles} spheres; the same seed gives the same run. */
    Simulation simulation(int particles, long seed, Simulation.Settings settings) {
        if (this == BOX) {
            return new Simulation(ParticleWorld.drop(particles, seed), settings);
        }
        ParticleWorld world = ParticleWorld.pour(particles, seed);
        return new Simulation(world, new Inlet(world, seed), settings);
    }

    /** Whether the run stops before its step count once at rest. */
    boolean stopsAtRest() {
        return this == HEAP;
    }

    /** The name the command line takes. */
    String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * Watches a run for rest: every sphere in the world and the kinetic energy of the centres'
     * motion per sphere below {@link #REST_ENERGY} for {@link #REST_STEPS} steps in a row. Spin is
     * left out: it changes no sphere's place, and without torsional resistance ({@code --torsion 0})
     * nothing resists spin about a contact normal, so a sphere alone on the floor may spin about the
     * vertical for ever without moving anything.
     */
    static final class RestWatch {
        /**
         * J per sphere: a sphere of the mean mass (4 g) moving at about 5 mm/s. A heap whose
         * spheres creep slower than that no longer changes its shape within the run.
         */
        static final double REST_ENERGY = 5e-8;
        /** Steps in a row, 0.125 s at the default time step. */
        static final int REST_STEPS = 50;
        /**
         * Steps between two looks at the heap's shape (1 s at the default time step). Frictionless
         * spheres never come to rest: they spread into a layer and jostle in it for ever, but the
         * layer's shape stops changing, and that is what the run is for.
         */
        static final int SHAPE_STEPS = 400;
        /** Metres: the mean height of the spheres' centres moving less than this in SHAPE_STEPS is a settled shape. */
        static final double SHAPE_TOLERANCE = 1e-4;

        private int restingSteps;
        private int step;
        private double lastMeanHeight = Double.NaN;
        private String reason = "";

        /** Called after every step; returns whether the run is now at rest, or its shape settled. */
        boolean atRest(Simulation simulation) {
            ParticleWorld world = simulation.world();
            step++;
            boolean resting = simulation.allPoured() && world.translationalEnergy() < REST_ENERGY * world.count;
            restingSteps = resting ? restingSteps + 1 : 0;
            if (restingSteps >= REST_STEPS) {
                reason = String.format(Locale.ROOT, "kinetic energy of the centres' motion below %.2g J per sphere "
                        + "for %d steps", REST_ENERGY, REST_STEPS);
                return true;
            }
            if (!simulation.allPoured()) {
                lastMeanHeight = Double.NaN;
                return false;
            }
            if (step % SHAPE_STEPS == 0) {
                double height = meanHeight(world);
                boolean settled = Math.abs(height - lastMeanHeight) < SHAPE_TOLERANCE;
                if (settled) {
                    reason = String.format(Locale.ROOT, "shape settled: the spheres' mean height moved %.3f mm in "
                            + "the last %d steps (spheres still jostling)", Math.abs(height - lastMeanHeight) * 1e3,
                            SHAPE_STEPS);
                    return true;
                }
                lastMeanHeight = height;
            }
            return false;
        }

        /** Which test ended the run, for the summary. */
        String reason() {
            return reason;
        }

        private static double meanHeight(ParticleWorld world) {
            double sum = 0.0;
            for (int i = 0; i < world.count; i++) {
                sum += world.y[i];
            }
            return sum / Math.max(1, world.count);
        }
    }
}
