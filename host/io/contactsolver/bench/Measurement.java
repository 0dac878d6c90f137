package io.contactsolver.bench;

import java.util.List;
import java.util.Locale;

/**
 * One row of the benchmark: a backend or baseline, on one scene, at one size. Times are medians
 * over the repetitions, in seconds. {@code bytesPerContact} is the solve's compulsory traffic
 * (every input read once, every output written once) shared out per contact, so
 * {@code effectiveGbPerSecond} compares with what the memory system can move at best.
 */
record Measurement(String scene, String backend, String solver, int contacts, int bodies, int threads,
        int iterations, double residual, double secondsPerSolve, double bytesPerContact, double packingSeconds,
        double uploadSeconds, double kernelSeconds, double readbackSeconds, double colourSeconds, long memoryBytes,
        int repeats, String note) {

    static final List<String> COLUMNS = List.of("scene", "backend", "solver", "contacts", "bodies", "threads",
            "iterations", "residual", "seconds_per_solve", "contacts_per_second", "bytes_per_contact",
            "effective_gb_per_s", "packing_s", "upload_s", "kernel_s", "readback_s", "colour_s", "memory_bytes",
            "repeats", "note");

    double contactsPerSecond() {
        return secondsPerSolve > 0 ? contacts / secondsPerSolve : 0.0;
    }

    double effectiveGbPerSecond() {
        return bytesPerContact * contactsPerSecond() / 1e9;
    }

    String csv() {
        return String.join(",", scene, backend, solver, Integer.toString(contacts), Integer.toString(bodies),
                Integer.toString(threads), Integer.toString(iterations), number(residual), number(secondsPerSolve),
                number(contactsPerSecond()), number(bytesPerContact), number(effectiveGbPerSecond()),
                number(packingSeconds), number(uploadSeconds), number(kernelSeconds), number(readbackSeconds),
                number(colourSeconds), Long.toString(memoryBytes), Integer.toString(repeats),
                note.replace(',', ';'));
    }

    /** A figure as the CSV files write it: an empty field where there is none (the tables' "-"), never NaN. */
    static String number(double value) {
        return Double.isFinite(value) ? String.format(Locale.ROOT, "%.6g", value) : "";
    }
}
