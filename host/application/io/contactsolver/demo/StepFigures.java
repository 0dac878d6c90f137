package io.contactsolver.demo;

import java.io.IOException;
import java.io.Writer;
import java.util.List;

/**
 * What one simulation step measured; one row of the demo's {@code --csv} file. Made by name with
 * {@link #of}: each figure is set by the method named after it, so two figures of the same type
 * cannot change places unnoticed; a figure not set is 0.
 *
 * <ul>
 *   <li>{@code step}: the step number, from 1</li>
 *   <li>{@code time}: simulated time at the end of the step, s</li>
 *   <li>{@code particles}: spheres in the world (all of them, unless an inlet is still pouring)</li>
 *   <li>{@code contacts}: contacts handed to the solver (sphere-sphere and sphere-wall, speculative
 *       ones included)</li>
 *   <li>{@code kineticEnergy}: total kinetic energy at the end of the step, translation and
 *       rotation, J</li>
 *   <li>{@code solveNanos}: wall-clock time of the module's solve call</li>
 *   <li>{@code iterations}: iterations the solver reports it ran</li>
 *   <li>{@code pushIterations}: iterations of the push-out solve (0 without positional correction)</li>
 *   <li>{@code residual}: the solver's reported residual: the largest impulse change of its last
 *       iteration, N s</li>
 *   <li>{@code largestApproach}: the fastest a contact still closed after the solve, beyond what its
 *       gap allows within the step (a positive speed, m/s, or 0)</li>
 *   <li>{@code deepestOverlap}: the deepest overlap of any contact handed to the solver (0 if none
 *       overlap), m</li>
 *   <li>{@code maxSpeed}: the fastest particle at the end of the step, m/s</li>
 * </ul>
 */
public final class StepFigures {
    /** The column names of {@link #csvRow()}. */
    public static final String CSV_HEADER = "step,time_s,particles,contacts,kinetic_energy_j,solve_ms,iterations,"
            + "push_iterations,residual,largest_approach_m_per_s,deepest_overlap_m,max_speed_m_per_s";

    private final int step;
    private final float time;
    private final int particles;
    private final int contacts;
    private final double kineticEnergy;
    private final long solveNanos;
    private final int iterations;
    private final int pushIterations;
    private final float residual;
    private final float largestApproach;
    private final float deepestOverlap;
    private final float maxSpeed;

    private StepFigures(Builder b) {
        step = b.step;
        time = b.time;
        particles = b.particles;
        contacts = b.contacts;
        kineticEnergy = b.kineticEnergy;
        solveNanos = b.solveNanos;
        iterations = b.iterations;
        pushIterations = b.pushIterations;
        residual = b.residual;
        largestApproach = b.largestApproach;
        deepestOverlap = b.deepestOverlap;
        maxSpeed = b.maxSpeed;
    }

    /** The figures of step {@code step} (from 1), the others to set by name. */
    public static Builder of(int step) {
        Builder b = new Builder();
        b.step = step;
        return b;
    }

    /** The figures of a step, each set by name; what is not set is 0. */
    public static final class Builder {
        private int step;
        private float time;
        private int particles;
        private int contacts;
        private double kineticEnergy;
        private long solveNanos;
        private int iterations;
        private int pushIterations;
        private float residual;
        private float largestApproach;
        private float deepestOverlap;
        private float maxSpeed;

        private Builder() {
        }

        public Builder time(float seconds) {
            time = seconds;
            return this;
        }

        public Builder particles(int count) {
            particles = count;
            return this;
        }

        public Builder contacts(int count) {
            contacts = count;
            return this;
        }

        public Builder kineticEnergy(double joules) {
            kineticEnergy = joules;
            return this;
        }

        public Builder solveNanos(long nanos) {
            solveNanos = nanos;
            return this;
        }

        public Builder iterations(int count) {
            iterations = count;
            return this;
        }

        public Builder pushIterations(int count) {
            pushIterations = count;
            return this;
        }

        public Builder residual(float impulse) {
            residual = impulse;
            return this;
        }

        public Builder largestApproach(float speed) {
            largestApproach = speed;
            return this;
        }

        public Builder deepestOverlap(float metres) {
            deepestOverlap = metres;
            return this;
        }

        public Builder maxSpeed(float speed) {
            maxSpeed = speed;
            return this;
        }

        public StepFigures build() {
            return new StepFigures(this);
        }
    }

    public int step() {
        return step;
    }

    public float time() {
        return time;
    }

    public int particles() {
        return particles;
    }

    public int contacts() {
        return contacts;
    }

    public double kineticEnergy() {
        return kineticEnergy;
    }

    public long solveNanos() {
        return solveNanos;
    }

    public int iterations() {
        return iterations;
    }

    public int pushIterations() {
        return pushIterations;
    }

    public float residual() {
        return residual;
    }

    public float largestApproach() {
        return largestApproach;
    }

    public float deepestOverlap() {
        return deepestOverlap;
    }

    public float maxSpeed() {
        return maxSpeed;
    }

    public double solveMillis() {
        return solveNanos / 1e6;
    }

    /** Rows solved over both solves of the step: each contact once an iteration of each. */
    public long contactIterations() {
        return (long) contacts * (iterations + pushIterations);
    }

    /** Writes the figures of a run as CSV: {@link #CSV_HEADER}, then a row per step. */
    public static void writeCsv(List<StepFigures> figures, Writer out) throws IOException {
        out.append(CSV_HEADER).append('\n');
        for (StepFigures step : figures) {
            out.append(step.csvRow()).append('\n');
        }
    }

    /** One CSV row; floats print with {@link Float#toString}, which reads back to the same bits. */
    public String csvRow() {
        return step + "," + time + "," + particles + "," + contacts + "," + kineticEnergy + "," + solveMillis() + ","
                + iterations + "," + pushIterations + "," + residual + "," + largestApproach + "," + deepestOverlap + ","
                + maxSpeed;
    }

    @Override
    public String toString() {
        return "StepFigures[" + csvRow() + "]";
    }
}
