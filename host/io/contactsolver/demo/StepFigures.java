package io.contactsolver.demo;

import java.io.IOException;
import java.io.Writer;
import java.util.List;

/**
 * What one simulation step measured; one row of the demo's {@code --csv} file.
 *
 * @param step the step number, from 1
 * @param time simulated time at the end of the step, s
 * @param particles spheres in the world (all of them, unless an inlet is still pouring)
 * @param contacts contacts handed to the solver (sphere-sphere and sphere-wall, speculative ones included)
 * @param kineticEnergy total kinetic energy at the end of the step, translation and rotation, J
 * @param solveNanos wall-clock time of the module's solve call
 * @param iterations iterations the solver reports it ran
 * @param pushIterations iterations of the push-out solve (0 without positional correction)
 * @param residual the solver's reported residual: the largest impulse change of its last iteration, N s
 * @param largestApproach the fastest a contact still closed after the solve, beyond what its gap
 *     allows within the step (a positive speed, m/s, or 0)
 * @param deepestOverlap the deepest overlap of any contact handed to the solver (0 if none overlap), m
 * @param maxSpeed the fastest particle at the end of the step, m/s
 */
public record StepFigures(int step, float time, int particles, int contacts, double kineticEnergy, long solveNanos,
        int iterations, int pushIterations, float residual, float largestApproach, float deepestOverlap, float maxSpeed) {
    /** The column names of {@link #csvRow()}. */
    public static final String CSV_HEADER = "step,time_s,particles,contacts,kinetic_energy_j,solve_ms,iterations,"
            + "push_iterations,residual,largest_approach_m_per_s,deepest_overlap_m,max_speed_m_per_s";

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
                + iterations + "," + pushIterations + "," + residual + "," + largestApproach + "," + deepestOverlap + "," + maxSpeed;
    }
}
