package io.contactsolver.app;

/**
 * The exit status of every command: 0 success, 1 a failure while running (I/O, no usable backend,
 * memory), 2 bad input or bad usage (one line on stderr says what and where).
 */
public final class ExitCode {
    public static final int OK = 0;
    public static final int FAILURE = 1;
    public static final int BAD_INPUT = 2;

    /** What the running command is doing, for an out-of-memory line to say what did not fit. */
    private static volatile String activity;

    private ExitCode() {
    }

    /**
     * Tells the error handling what the command does now ("solving 10 contacts on 4 bodies"), so a
     * failure for want of memory can say what did not fit.
     */
    public static void doing(String what) {
        activity = what;
    }

    /** What {@link #doing} last said, or null. */
    public static String activity() {
        return activity;
    }
}
