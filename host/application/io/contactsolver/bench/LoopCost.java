package io.contactsolver.bench;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;

/**
 * What an iteration of the iterative solver costs on one scene, one backend and thread count,
 * with or without friction, measured apart from its set-up: the solve is timed at {@code n} and at
 * {@code m} iterations (tolerance 0, so both run every iteration), side by side, each the fastest
 * of its timed batches; the difference is {@code m - n} iterations, and what the
 * {@code n}-iteration solve spends beyond its iterations is the set-up
 * (validation, colouring, row preparation, uploads, writing the results). The same definition for
 * every backend, so a device whose kernels are timed together is measured like the CPU.
 *
 * @param subject what was timed: the scene, its friction, the backend and its threads
 * @param shortSolve the solve at {@code n} iterations
 * @param longSolve the solve at {@code m > n} iterations (refused otherwise: no iterations to time)
 * @param loopNanos for a CPU row, the solver's own timing of its loop per contact-iteration
 *     (phase {@code ITERATE} of the {@code m}-iteration solves), or NaN
 */
record LoopCost(Subject subject, TimedSolve shortSolve, TimedSolve longSolve, double loopNanos) {
    /**
     * What a row measures.
     *
     * @param scene the scene and its contact count, as in the table
     * @param friction the friction the rows carry: "none", or "mu 0.5" and the like
     * @param backend {@code cpu} or {@code opencl}
     * @param threads CPU threads, or the device's compute units for OpenCL
     * @param contacts contacts of the scene
     */
    record Subject(String scene, String friction, String backend, int threads, int contacts) {
    }

    /** One solve of the pair: its iterations run, and the seconds it took (the fastest batch). */
    record TimedSolve(int iterations, double seconds) {
    }

    LoopCost {
        if (longSolve.iterations() <= shortSolve.iterations()) {
            throw new IllegalArgumentException("a loop cost needs the long solve to run more iterations than the "
                    + "short one: " + shortSolve.iterations() + " and " + longSolve.iterations());
        }
    }

    String scene() {
        return subject.scene();
    }

    String friction() {
        return subject.friction();
    }

    String backend() {
        return subject.backend();
    }

    int threads() {
        return subject.threads();
    }

    int contacts() {
        return subject.contacts();
    }

    int iterations() {
        return shortSolve.iterations();
    }

    int longIterations() {
        return longSolve.iterations();
    }

    double secondsShort() {
        return shortSolve.seconds();
    }

    double secondsLong() {
        return longSolve.seconds();
    }

    static final String HEADER = "scene,friction,backend,threads,contacts,iterations,long_iterations,"
            + "seconds_short,seconds_long,"
            + "ns_per_contact_iteration,ns_per_contact_iteration_per_thread,setup_ms,setup_iterations,"
            + "loop_alone_ns_per_contact_iteration";

    /** Seconds of one iteration. */
    double secondsPerIteration() {
        return (secondsLong() - secondsShort()) / (longIterations() - iterations());
    }

    double nanosPerContactIteration() {
        return secondsPerIteration() * 1e9 / Math.max(1, contacts());
    }

    double nanosPerContactIterationPerThread() {
        return nanosPerContactIteration() * threads();
    }

    /** What the {@code n}-iteration solve spends beyond its iterations. */
    double setupSeconds() {
        return secondsShort() - iterations() * secondsPerIteration();
    }

    static void table(List<LoopCost> costs, PrintWriter out) {
        if (costs.isEmpty()) {
            return;
        }
        out.println();
        out.println("iteration cost: the solve timed at n and m iterations side by side (the fastest batch of "
                + "each); an iteration is the difference / (m - n), the set-up what the n-iteration solve spends "
                + "beyond its iterations");
        header(out);
        for (LoopCost cost : costs) {
            line(cost, out);
        }
        out.println("ns/c-it: nanoseconds per contact-iteration; /thr: times the threads (CPU) or compute units "
                + "(OpenCL); loop alone: the CPU's own timer around its iterations, per contact-iteration");
    }

    /** The iteration-cost table's column heads. */
    static void header(PrintWriter out) {
        out.printf(Locale.ROOT, "%-22s %-16s %-7s %4s %9s %6s %12s %10s %12s %10s %9s %10s%n", "scene", "friction",
                "backend", "thr", "contacts", "n/m", "ms/iteration", "ns/c-it", "ns/c-it/thr", "set-up ms",
                "set-up it", "loop alone");
    }

    /** One row of the iteration-cost table. */
    static void line(LoopCost cost, PrintWriter out) {
        out.printf(Locale.ROOT, "%-22s %-16s %-7s %4d %9d %6s %12.4f %10.2f %12.2f %10.3f %9.2f %10s%n",
                cost.scene(), cost.friction(), cost.backend(), cost.threads(), cost.contacts(),
                cost.iterations() + "/" + cost.longIterations(), cost.secondsPerIteration() * 1e3,
                cost.nanosPerContactIteration(), cost.nanosPerContactIterationPerThread(), cost.setupSeconds() * 1e3,
                cost.setupSeconds() / cost.secondsPerIteration(),
                Double.isNaN(cost.loopNanos()) ? "-" : String.format(Locale.ROOT, "%.2f", cost.loopNanos()));
    }

    /** This row as a line of the CSV file (without its newline), the columns of {@link #HEADER}. */
    String csv() {
        return String.join(",", scene(), friction(), backend(), Integer.toString(threads()),
                Integer.toString(contacts()), Integer.toString(iterations()), Integer.toString(longIterations()),
                Measurement.number(secondsShort()), Measurement.number(secondsLong()),
                Measurement.number(nanosPerContactIteration()), Measurement.number(nanosPerContactIterationPerThread()),
                Measurement.number(setupSeconds() * 1e3), Measurement.number(setupSeconds() / secondsPerIteration()),
                Measurement.number(loopNanos()));
    }
}
