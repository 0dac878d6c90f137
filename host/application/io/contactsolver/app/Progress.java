package io.contactsolver.app;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import me.tongfei.progressbar.DelegatingProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * Progress of a long command on stderr ({@code demo}, {@code bench}). On an interactive terminal a
 * progress bar redrawn in place; anywhere else (a log file, a pipe) a plain line every
 * {@value #LINE_INTERVAL_SECONDS} seconds and one at the end, never a carriage return. The system
 * property {@value #PROPERTY} ({@code bar}, {@code lines} or {@code none}) overrides the choice.
 */
public final class Progress implements AutoCloseable {
    public static final String PROPERTY = "contactsolver.progress";
    static final long LINE_INTERVAL_SECONDS = 10;
    /** Columns the bar may use; it is drawn with a carriage return, so it must fit a line. */
    private static final int BAR_WIDTH = 110;

    /** How progress is shown. */
    public enum Mode {
        BAR, LINES, NONE;

        /** The value of {@value Progress#PROPERTY} that asks for this mode. */
        public String propertyValue() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private final Mode mode;
    private final String task;
    private final String unit;
    private final PrintWriter err;
    private final ProgressBar bar;
    private final long started = System.nanoTime();
    private long lastLine = started;
    private long current;
    private long max;
    private String extra = "";

    private Progress(Mode mode, String task, long max, String unit, PrintWriter err) {
        this.mode = mode;
        this.task = task;
        this.max = max;
        this.unit = unit;
        this.err = err;
        this.bar = mode != Mode.BAR ? null : new ProgressBarBuilder()
                .setTaskName(task)
                .setInitialMax(max)
                .setStyle(ProgressBarStyle.ASCII)
                .setUnit(unit, 1)
                .setUpdateIntervalMillis(250)
                .setConsumer(new DelegatingProgressBarConsumer(line -> {
                    err.print('\r' + line);
                    err.flush();
                }, BAR_WIDTH))
                .build();
    }

    /** Progress of {@code max} steps of {@code unit} (" steps"), shown as {@link #mode()} decides. */
    public static Progress open(String task, long max, String unit, PrintWriter err) {
        return open(mode(), task, max, unit, err);
    }

    public static Progress open(Mode mode, String task, long max, String unit, PrintWriter err) {
        return new Progress(mode, task, max, unit, err);
    }

    /**
     * The mode for this process: {@value #PROPERTY} if set, else a bar where stderr is an interactive terminal, else lines.
     *
     * @throws IllegalArgumentException if the property names no mode
     */
    public static Mode mode() {
        String asked = System.getProperty(PROPERTY);
        if (asked != null && !asked.isBlank()) {
            for (Mode mode : Mode.values()) {
                if (mode.propertyValue().equals(asked.trim().toLowerCase(Locale.ROOT))) {
                    return mode;
                }
            }
            throw new IllegalArgumentException("-D" + PROPERTY + " must be bar, lines or none, got '" + asked + "'");
        }
        return stderrIsTerminal() ? Mode.BAR : Mode.LINES;
    }

    /**
     * Whether stderr is a terminal someone watches: there is a console (stdin and stdout are
     * terminals) and, where Linux says what file descriptor 2 is, it is a terminal too.
     */
    static boolean stderrIsTerminal() {
        if (System.console() == null || "dumb".equals(System.getenv("TERM"))) {
            return false;
        }
        Path stderr = Path.of("/proc/self/fd/2");
        try {
            String target = Files.readSymbolicLink(stderr).toString();
            return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return true; // no /proc: the console is all there is to go by
        }
    }

    public void step() {
        stepTo(current + 1);
    }

    public void stepTo(long value) {
        current = value;
        if (bar != null) {
            bar.stepTo(value);
        } else if (mode == Mode.LINES && System.nanoTime() - lastLine >= LINE_INTERVAL_SECONDS * 1_000_000_000L) {
            line();
        }
    }

    public void maxHint(long newMax) {
        max = newMax;
        if (bar != null) {
            bar.maxHint(newMax);
        }
    }

    public long max() {
        return max;
    }

    public void setExtraMessage(String message) {
        extra = message;
        if (bar != null) {
            bar.setExtraMessage(message);
        }
    }

    private void line() {
        lastLine = System.nanoTime();
        err.printf(Locale.ROOT, "%s: %d/%d%s%s (%.0f s)%n", task, current, max, unit, extra.isEmpty() ? "" : ", " + extra,
                (lastLine - started) / 1e9);
        err.flush();
    }

    /**
     * Blanks the bar's line, so that a line printed next to the same terminal starts at its left edge
     * instead of after the bar; the bar is drawn again at its next update. Does nothing without a bar.
     */
    public void clearLine() {
        if (bar != null) {
            err.print('\r' + " ".repeat(BAR_WIDTH) + '\r');
            err.flush();
        }
    }

    /** Ends the bar's line, or prints the last plain line. */
    @Override
    public void close() {
        if (bar != null) {
            bar.close();
            err.println();
            err.flush();
        } else if (mode == Mode.LINES) {
            line();
        }
    }
}
