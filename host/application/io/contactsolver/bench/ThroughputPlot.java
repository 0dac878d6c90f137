package io.contactsolver.bench;

import io.contactsolver.scene.AtomicFiles;
import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.text.DecimalFormat;
import java.util.LinkedHashMap;
import java.util.List;
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

/**
 * {@code bench --plot}: the single pass's throughput against contact count. The only class of the
 * bench that touches AWT and JFreeChart, so that a run without {@code --plot} needs neither (nor the
 * {@code java.desktop} module): {@code BenchCommand} reaches it only when a plot is asked for, and
 * refuses {@code --plot} before measuring where the runtime lacks that module
 * ({@code BenchCommand.plotUnavailable}). Loading this class may load AWT's (the verifier checks
 * its calls' types), so nothing else of the bench may name it.
 */
final class ThroughputPlot {
    private ThroughputPlot() {
    }

    /** Contacts per second against contact count, log-log, a line per scene and backend, single-pass rows only. */
    static void draw(List<Measurement> rows, Path file) throws IOException {
        System.setProperty("java.awt.headless", "true");
        Map<String, XYSeries> series = new LinkedHashMap<>();
        for (Measurement row : rows) {
            boolean sweep = (row.scene().equals(Benchmark.PILE) || row.scene().equals(Benchmark.RANDOM))
                    && row.solver().equals(Benchmark.SINGLE_PASS);
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
