package io.contactsolver.bench;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;

/**
 * The benchmark's table on the console. The throughput plot is {@link ThroughputPlot}'s, apart, so
 * that no chart or AWT class is loaded unless a plot is asked for.
 */
final class BenchReport {
    private BenchReport() {
    }

    static void table(List<Measurement> rows, PrintWriter out) {
        if (rows.isEmpty()) {
            return; // a run of other sections only
        }
        header(out);
        for (Measurement row : rows) {
            line(rows, row, out);
        }
        out.flush();
    }

    /** The table's column heads. */
    static void header(PrintWriter out) {
        out.printf(Locale.ROOT, "%-19s %-9s %-11s %9s %8s %3s %6s %11s %11s %8s %7s %7s %9s %9s  %s%n", "scene",
                "backend", "solver", "contacts", "bodies", "thr", "iters", "ms/solve", "Mcontact/s", "GB/s", "%copy",
                "xnaive", "host ms", "host ns/c", "note");
    }

    /**
     * One row of the table; its ratios to other rows (%copy, xnaive, the device's shares) are those
     * {@code rows} allow, blank where the row they need is not among them (yet).
     */
    static void line(List<Measurement> rows, Measurement row, PrintWriter out) {
        Measurement copy = find(rows, row, Benchmark.BANDWIDTH, Benchmark.HOST_COPY, row.threads());
        Measurement naive = find(rows, row, Benchmark.NAIVE, row.solver(), 1);
        boolean traffic = row.bytesPerContact() > 0 && row.secondsPerSolve() > 0;
        String share = copy == null || row.backend().equals(Benchmark.BANDWIDTH) || !traffic ? ""
                : String.format(Locale.ROOT, "%.1f", 100 * row.effectiveGbPerSecond() / copy.effectiveGbPerSecond());
        String speedup = naive == null || row.secondsPerSolve() == 0 ? ""
                : String.format(Locale.ROOT, "%.2f", naive.secondsPerSolve() / row.secondsPerSolve());
        String gb = traffic ? String.format(Locale.ROOT, "%.2f", row.effectiveGbPerSecond()) : "-";
        boolean host = row.hostSeconds() > 0;
        out.printf(Locale.ROOT, "%-19s %-9s %-11s %9d %8d %3d %6d %11.4f %11.2f %8s %7s %7s %9s %9s  %s%n",
                row.scene(), row.backend(), row.solver(), row.contacts(), row.bodies(), row.threads(),
                row.iterations(), row.secondsPerSolve() * 1e3, row.contactsPerSecond() / 1e6, gb, share, speedup,
                host ? String.format(Locale.ROOT, "%.3f", row.hostSeconds() * 1e3) : "-",
                host ? String.format(Locale.ROOT, "%.1f", row.hostNanosPerContact()) : "-",
                row.note() + deviceShares(rows, row));
    }

    /**
     * For an OpenCL row, where the device probes ran: the kernels' effective GB/s (the same bytes
     * over the kernel time alone) as a share of the device's own copy, and the end-to-end figure as
     * a share of the link's upload rate.
     */
    private static String deviceShares(List<Measurement> rows, Measurement row) {
        Measurement deviceCopy = find(rows, row, Benchmark.BANDWIDTH, Benchmark.DEVICE_COPY, 0);
        Measurement upload = find(rows, row, Benchmark.BANDWIDTH, Benchmark.UPLOAD, 0);
        if (!row.backend().equals(Benchmark.OPENCL) || row.kernelSeconds() <= 0 || row.bytesPerContact() <= 0
                || deviceCopy == null || upload == null) {
            return "";
        }
        double kernelGbPerSecond = row.bytesPerContact() * row.contacts() / row.kernelSeconds() / 1e9;
        return String.format(Locale.ROOT, "; kernels %.2f GB/s = %.1f%% of device copy; end to end %.1f%% of upload",
                kernelGbPerSecond, 100 * kernelGbPerSecond / deviceCopy.effectiveGbPerSecond(),
                100 * row.effectiveGbPerSecond() / upload.effectiveGbPerSecond());
    }

    /** The row of {@code backend} and {@code solver} measured on the same scene and size, with {@code threads}. */
    private static Measurement find(List<Measurement> rows, Measurement like, String backend, String solver,
            int threads) {
        for (Measurement row : rows) {
            if (row.backend().equals(backend) && row.solver().equals(solver) && row.scene().equals(like.scene())
                    && row.contacts() == like.contacts() && row.threads() == threads && row.secondsPerSolve() > 0) {
                return row;
            }
        }
        return null;
    }
}
