package io.contactsolver.bench;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The bench's results as they are measured: each row printed and appended to {@code --csv}'s file,
 * each iteration cost to its sibling file, flushed at once, so that a run that fails later keeps
 * every figure it measured. Each file is created, with its header, when its first row comes: a run
 * that measures none of its rows (only the pyramid, say) leaves it alone. A line's ratios to other
 * rows (%copy, xnaive) are those the rows so far allow; the table at the end has them all.
 */
final class RowLog implements Benchmark.Listener, AutoCloseable {
    private final PrintWriter out;
    private final Runnable beforeLine;
    private final Path rowFile;
    private final Path loopCostFile;
    private BufferedWriter rowCsv;
    private BufferedWriter loopCostCsv;
    private final List<Measurement> rows = new ArrayList<>();
    /** The kind of the last line printed, whose header is above it: a row, an iteration cost or none yet. */
    private Object lastKind;

    /**
     * @param out where the lines go
     * @param beforeLine run before each line is printed (the progress bar clears its line)
     * @param csv the rows' CSV file, or null for none; {@code loopCostFile} beside it takes the
     *     iteration costs
     */
    RowLog(PrintWriter out, Runnable beforeLine, Path csv, Path loopCostFile) {
        this.out = out;
        this.beforeLine = beforeLine;
        this.rowFile = csv;
        this.loopCostFile = loopCostFile;
    }

    private static BufferedWriter open(Path file, String header) throws IOException {
        BufferedWriter writer = Files.newBufferedWriter(file);
        writer.write(header);
        writer.write('\n');
        writer.flush();
        return writer;
    }

    @Override
    public void row(Measurement row) throws IOException {
        rows.add(row);
        beforeLine.run();
        if (lastKind != Measurement.class) {
            out.println("measured:");
            BenchReport.header(out);
            lastKind = Measurement.class;
        }
        BenchReport.line(rows, row, out);
        out.flush();
        if (rowFile != null) {
            if (rowCsv == null) {
                rowCsv = open(rowFile, String.join(",", Measurement.COLUMNS));
            }
            append(rowCsv, row.csv());
        }
    }

    @Override
    public void loopCost(LoopCost cost) throws IOException {
        beforeLine.run();
        if (lastKind != LoopCost.class) {
            out.println("measured, iteration cost:");
            LoopCost.header(out);
            lastKind = LoopCost.class;
        }
        LoopCost.line(cost, out);
        out.flush();
        if (loopCostFile != null) {
            if (loopCostCsv == null) {
                loopCostCsv = open(loopCostFile, LoopCost.HEADER);
            }
            append(loopCostCsv, cost.csv());
        }
    }

    /** Whether a row has gone to the CSV file. */
    boolean wroteRows() {
        return rowCsv != null;
    }

    /** Whether an iteration cost has gone to its file. */
    boolean wroteLoopCosts() {
        return loopCostCsv != null;
    }

    private static void append(BufferedWriter csv, String line) throws IOException {
        csv.write(line);
        csv.write('\n');
        csv.flush();
    }

    @Override
    public void close() throws IOException {
        try (BufferedWriter rowFile = rowCsv; BufferedWriter loopFile = loopCostCsv) {
            // both closed, the second even if the first fails
        }
    }
}
