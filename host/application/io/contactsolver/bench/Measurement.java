package io.contactsolver.bench;

import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * One row of the benchmark: a backend or baseline, on one scene, at one size. Times are medians
 * over the repetitions, in seconds. {@code bytesPerContact} is the solve's compulsory traffic
 * (every input read once, every output written once) shared out per contact, so
 * {@code effectiveGbPerSecond} compares with what the memory system can move at best.
 *
 * <p>Made by name with {@link #row}: every figure is set by a method named after it, so two figures
 * of the same type cannot change places unnoticed, and a figure a row did not measure stays 0 (a
 * note, empty).
 */
final class Measurement {

    static final List<String> COLUMNS = List.of("scene", "backend", "solver", "contacts", "bodies", "threads",
            "iterations", "residual", "seconds_per_solve", "contacts_per_second", "bytes_per_contact",
            "effective_gb_per_s", "packing_s", "transfer_s", "kernel_s", "setup_s", "host_s",
            "host_ns_per_contact", "memory_bytes", "repeats", "note");

    private final String scene;
    private final String backend;
    private final String solver;
    private final int contacts;
    private final int bodies;
    private final int threads;
    private final int iterations;
    private final double residual;
    private final double secondsPerSolve;
    private final double bytesPerContact;
    private final double packingSeconds;
    private final double transferSeconds;
    private final double kernelSeconds;
    private final double setupSeconds;
    private final double hostSeconds;
    private final long memoryBytes;
    private final int repeats;
    private final String note;

    private Measurement(Builder b) {
        scene = Objects.requireNonNull(b.scene, "scene");
        backend = Objects.requireNonNull(b.backend, "backend");
        solver = Objects.requireNonNull(b.solver, "solver");
        contacts = b.contacts;
        bodies = b.bodies;
        threads = b.threads;
        iterations = b.iterations;
        residual = b.residual;
        secondsPerSolve = b.secondsPerSolve;
        bytesPerContact = b.bytesPerContact;
        packingSeconds = b.packingSeconds;
        transferSeconds = b.transferSeconds;
        kernelSeconds = b.kernelSeconds;
        setupSeconds = b.setupSeconds;
        hostSeconds = b.hostSeconds;
        memoryBytes = b.memoryBytes;
        repeats = b.repeats;
        note = Objects.requireNonNull(b.note, "note");
    }

    /** A row to fill in by name; scene, backend and solver must be set, every other figure is 0 unless set. */
    static Builder row() {
        return new Builder();
    }

    /** A copy of this row with its figures to change by name. */
    Builder toBuilder() {
        Builder b = new Builder();
        b.scene = scene;
        b.backend = backend;
        b.solver = solver;
        b.contacts = contacts;
        b.bodies = bodies;
        b.threads = threads;
        b.iterations = iterations;
        b.residual = residual;
        b.secondsPerSolve = secondsPerSolve;
        b.bytesPerContact = bytesPerContact;
        b.packingSeconds = packingSeconds;
        b.transferSeconds = transferSeconds;
        b.kernelSeconds = kernelSeconds;
        b.setupSeconds = setupSeconds;
        b.hostSeconds = hostSeconds;
        b.memoryBytes = memoryBytes;
        b.repeats = repeats;
        b.note = note;
        return b;
    }

    /** The figures of a row, each set by name; what is not set stays 0 (the note, empty). */
    static final class Builder {
        private String scene;
        private String backend;
        private String solver;
        private int contacts;
        private int bodies;
        private int threads;
        private int iterations;
        private double residual;
        private double secondsPerSolve;
        private double bytesPerContact;
        private double packingSeconds;
        private double transferSeconds;
        private double kernelSeconds;
        private double setupSeconds;
        private double hostSeconds;
        private long memoryBytes;
        private int repeats;
        private String note = "";

        private Builder() {
        }

        /** The scene's label: the sweep's kind ({@code pile}, {@code random}) or a named scene. */
        Builder scene(String value) {
            scene = value;
            return this;
        }

        /** The backend or baseline's label. */
        Builder backend(String value) {
            backend = value;
            return this;
        }

        /** What ran: the solver's label, or the bandwidth probe's. */
        Builder solver(String value) {
            solver = value;
            return this;
        }

        Builder contacts(int value) {
            contacts = value;
            return this;
        }

        Builder bodies(int value) {
            bodies = value;
            return this;
        }

        /** CPU threads (1 for a baseline), or 0 where the row runs on a device. */
        Builder threads(int value) {
            threads = value;
            return this;
        }

        Builder iterations(int value) {
            iterations = value;
            return this;
        }

        Builder residual(double value) {
            residual = value;
            return this;
        }

        Builder secondsPerSolve(double value) {
            secondsPerSolve = value;
            return this;
        }

        Builder bytesPerContact(double value) {
            bytesPerContact = value;
            return this;
        }

        /**
         * A device row's host work before the device sees the job: its {@code VALIDATE} and
         * {@code SET_UP} phases' host time ({@code SolveResult.hostNanos}); 0 on the CPU.
         */
        Builder packingSeconds(double value) {
            packingSeconds = value;
            return this;
        }

        /** The device's copies, up and back: its {@code TRANSFER} phase ({@code SolveResult.deviceNanos}). */
        Builder transferSeconds(double value) {
            transferSeconds = value;
            return this;
        }

        /** The device's kernels: its {@code SOLVE} phase ({@code SolveResult.deviceNanos}). */
        Builder kernelSeconds(double value) {
            kernelSeconds = value;
            return this;
        }

        /**
         * The host's set-up ({@code SET_UP}): the warm start, recycling, classification, the
         * colouring or index, and on the CPU the rows.
         */
        Builder setupSeconds(double value) {
            setupSeconds = value;
            return this;
        }

        /**
         * The host's time a solve or step, its waits for a device left out: the mean over the timed
         * calls of the sum of every phase's {@code SolveResult.hostNanos} (the device's own times,
         * {@code SolveResult.deviceNanos}, are apart). 0 where the row is no solve of the module.
         */
        Builder hostSeconds(double value) {
            hostSeconds = value;
            return this;
        }

        Builder memoryBytes(long value) {
            memoryBytes = value;
            return this;
        }

        /** The timed samples the median was taken over. */
        Builder repeats(int value) {
            repeats = value;
            return this;
        }

        Builder note(String value) {
            note = value;
            return this;
        }

        Measurement build() {
            return new Measurement(this);
        }
    }

    String scene() {
        return scene;
    }

    String backend() {
        return backend;
    }

    String solver() {
        return solver;
    }

    int contacts() {
        return contacts;
    }

    int bodies() {
        return bodies;
    }

    int threads() {
        return threads;
    }

    int iterations() {
        return iterations;
    }

    double residual() {
        return residual;
    }

    double secondsPerSolve() {
        return secondsPerSolve;
    }

    double bytesPerContact() {
        return bytesPerContact;
    }

    double packingSeconds() {
        return packingSeconds;
    }

    double transferSeconds() {
        return transferSeconds;
    }

    double kernelSeconds() {
        return kernelSeconds;
    }

    double setupSeconds() {
        return setupSeconds;
    }

    double hostSeconds() {
        return hostSeconds;
    }

    /** {@link #hostSeconds} shared out per contact, in nanoseconds; 0 where there is none. */
    double hostNanosPerContact() {
        return contacts > 0 ? hostSeconds * 1e9 / contacts : 0.0;
    }

    long memoryBytes() {
        return memoryBytes;
    }

    int repeats() {
        return repeats;
    }

    String note() {
        return note;
    }

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
                number(packingSeconds), number(transferSeconds), number(kernelSeconds), number(setupSeconds),
                number(hostSeconds), number(hostNanosPerContact()), Long.toString(memoryBytes),
                Integer.toString(repeats),
                note.replace(',', ';'));
    }

    /** A figure as the CSV files write it: an empty field where there is none (the tables' "-"), never NaN. */
    static String number(double value) {
        return Double.isFinite(value) ? String.format(Locale.ROOT, "%.6g", value) : "";
    }
}
