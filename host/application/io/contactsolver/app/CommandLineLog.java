package io.contactsolver.app;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.logging.ConsoleHandler;
import java.util.logging.Formatter;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * The command line's view of the library's log: the library says which backend runs at DEBUG (a
 * library is quiet when all is well), but a command line user wants that one line, so it is shown
 * here as {@code INFO: contact-solver: backend ...}; warnings stay {@code WARNING: ...}. One line
 * per record on standard error.
 */
public final class CommandLineLog {
    /** Held strongly: java.util.logging forgets a logger's level once nothing refers to it. */
    private static final Logger LIBRARY = Logger.getLogger("io.contactsolver");
    private static boolean installed;

    private CommandLineLog() {
    }

    /** Shows the library's records from DEBUG up; idempotent. */
    public static synchronized void install() {
        if (installed) {
            return;
        }
        ConsoleHandler handler = new ConsoleHandler();
        handler.setLevel(Level.FINE);
        handler.setFormatter(new OneLine());
        LIBRARY.setLevel(Level.FINE);
        LIBRARY.setUseParentHandlers(false);
        LIBRARY.addHandler(handler);
        installed = true;
    }

    private static final class OneLine extends Formatter {
        @Override
        public String format(LogRecord record) {
            String label = record.getLevel().intValue() >= Level.WARNING.intValue() ? record.getLevel().getName()
                    : "INFO";
            StringBuilder line = new StringBuilder(label).append(": ").append(formatMessage(record));
            if (record.getThrown() != null) {
                StringWriter trace = new StringWriter();
                record.getThrown().printStackTrace(new PrintWriter(trace));
                line.append(System.lineSeparator()).append(trace.toString().stripTrailing());
            }
            return line.append(System.lineSeparator()).toString();
        }
    }
}
