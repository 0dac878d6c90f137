package io.contactsolver.bench;

import io.contactsolver.scene.AtomicFiles;
import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.text.DecimalFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberTickUnit;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/** The benchmark's outputs: a table on the console, the CSV rows, the throughput plot. */
final class BenchReport {
    private BenchReport() {
    }

    static void table(List<Measurement> rows, PrintWriter out) {
        if (rows.isEmpty()) {
            return; // a run of other sections only
        }
        out.printf(Locale.ROOT, "%-19s %-9s %-11s %9s %8s %3s %6s %11s %11s %8s %7s %7s  %s%n", "scene", "backend",
                "solver", "contacts", "bodies", "thr", "iters", "ms/solve", "Mcontact/s", "GB/s", "%copy", "xnaive",
                "note");
        for (Measurement row : rows) {
            Measurement copy = find(rows, row, Benchmark.BANDWIDTH, Benchmark.HOST_COPY, row.threads());
            Measurement naive = find(rows, row, Benchmark.NAIVE, row.solver(), 1);
            String share = copy == null || row.backend().equals(Benchmark.BANDWIDTH) || row.secondsPerSolve() == 0 ? ""
                    : String.format(Locale.ROOT, "%.1f", 100 * row.effectiveGbPerSecond() / copy.effectiveGbPerSecond());
            String speedup = naive == null || row.secondsPerSolve() == 0 ? ""
                    : String.format(Locale.ROOT, "%.2f", naive.secondsPerSolve() / row.secondsPerSolve());
            out.printf(Locale.ROOT, "%-19s %-9s %-11s %9d %8d %3d %6d %11.4f %11.2f %8.2f %7s %7s  %s%n", row.scene(),
                    row.backend(), row.solver(), row.contacts(), row.bodies(), row.threads(), row.iterations(),
                    row.secondsPerSolve() * 1e3, row.contactsPerSecond() / 1e6, row.effectiveGbPerSecond(), share,
                    speedup, row.note() + deviceShares(rows, row));
        }
        out.flush();
    }

    /**
     * For an OpenCL row, where the device probes ran: the kernels' effective GB/s (the same bytes
     * over the kernel time alone) as a share of the device's own copy, and the end-to-end figure as
     * a share of the link's upload rate.
     */
    private static String deviceShares(List<Measurement> rows, Measurement row) {
        Measurement deviceCopy = find(rows, row, Benchmark.BANDWIDTH, Benchmark.DEVICE_COPY, 0);
        Measurement upload = find(rows, row, Benchmark.BANDWIDTH, Benchmark.UPLOAD, 0);
        if (!row.backend().equals(Benchmark.OPENCL) || row.kernelSeconds() <= 0 || deviceCopy == null
                || upload == null) {
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

    /** The rows to {@code file} and, where there are any, the iteration costs to {@code loopFile}: both or neither. */
    static void writeCsv(List<Measurement> rows, Path file, List<LoopCost> costs, Path loopFile) throws IOException {
        List<AtomicFiles.Output> outputs = new java.util.ArrayList<>();
        outputs.add(AtomicFiles.Output.text(file, out -> {
            out.write(String.join(",", Measurement.COLUMNS));
            out.write('\n');
            for (Measurement row : rows) {
                out.write(row.csv());
                out.write('\n');
            }
        }));
        if (!costs.isEmpty()) {
            outputs.add(LoopCost.csv(costs, loopFile));
        }
        AtomicFiles.write(outputs);
    }

    /** Contacts per second against contact count, log-log, a line per scene and backend. */
    static void plot(List<Measurement> rows, Path file) throws IOException {
        System.setProperty("java.awt.headless", "true");
        Map<String, XYSeries> series = new LinkedHashMap<>();
        for (Measurement row : rows) {
            boolean sweep = row.scene().equals(Benchmark.PILE) || row.scene().equals(Benchmark.RANDOM);
            if (!sweep || row.secondsPerSolve() <= 0 || row.backend().equals(Benchmark.BANDWIDTH)) {
                continue;
            }
            String key = row.scene() + ", " + row.backend()
                    + (row.backend().equals(Benchmark.CPU) ? " (" + row.threads() + " thread" + (row.threads() > 1 ? "s)" : ")") : "");
            series.computeIfAbsent(key, XYSeries::new).add(row.contacts(), row.contactsPerSecond());
        }
        XYSeriesCollection data = new XYSeriesCollection();
        series.values().forEach(data::addSeries);
        JFreeChart chart = ChartFactory.createXYLineChart("Single-pass throughput", "contacts per solve",
                "contacts per second", data, PlotOrientation.VERTICAL, true, false, false);
        XYPlot xy = chart.getXYPlot();
        LogAxis x = new LogAxis("contacts per solve");
        LogAxis y = new LogAxis("contacts per second");
        for (LogAxis axis : new LogAxis[] {x, y}) {
            axis.setBase(10);
            axis.setTickUnit(new NumberTickUnit(1.0)); // a tick at every power of ten
            axis.setNumberFormatOverride(new DecimalFormat("#,##0"));
        }
        xy.setDomainAxis(x);
        xy.setRangeAxis(y);
        xy.setBackgroundPaint(Color.WHITE);
        xy.setDomainGridlinePaint(Color.LIGHT_GRAY);
        xy.setRangeGridlinePaint(Color.LIGHT_GRAY);
        // a colour per backend, solid for the pile and dashed for the random graph
        Map<String, Color> colours = Map.of("cpu (1 thread)", new Color(0x1f77b4), "cpu (2 threads)", new Color(0x2ca02c),
                "opencl", new Color(0x9467bd), "naive", new Color(0xd62728), "jbullet", new Color(0xff7f0e));
        XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer(true, true);
        for (int i = 0; i < data.getSeriesCount(); i++) {
            String key = (String) data.getSeriesKey(i);
            String backend = key.substring(key.indexOf(", ") + 2).replaceAll("\\(\\d+ threads\\)", "(2 threads)");
            renderer.setSeriesPaint(i, colours.getOrDefault(backend, Color.GRAY));
            renderer.setSeriesStroke(i, key.startsWith(Benchmark.RANDOM)
                    ? new BasicStroke(2.0f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10.0f, new float[] {8.0f, 5.0f}, 0)
                    : new BasicStroke(2.0f));
        }
        xy.setRenderer(renderer);
        AtomicFiles.write(List.of(new AtomicFiles.Output(file, out -> ChartUtils.writeChartAsPNG(out, chart, 1100, 700))));
    }
}
