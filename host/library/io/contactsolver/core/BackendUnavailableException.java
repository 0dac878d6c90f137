package io.contactsolver.core;

/**
 * A backend cannot be created here; the message says why in one line (and may carry a build log).
 *
 * <p>{@link #deviceChosen()} tells the two kinds apart for the log: there was no device worth
 * using (no library, no platform, no GPU: the machine is simply like that), or a device was there
 * and chosen but failed to open (a fault the user should hear about).
 */
public final class BackendUnavailableException extends Exception {
    private static final long serialVersionUID = 1L;

    private final boolean deviceChosen;

    public BackendUnavailableException(String message) {
        this(message, null, false);
    }

    public BackendUnavailableException(String message, Throwable cause) {
        this(message, cause, false);
    }

    private BackendUnavailableException(String message, Throwable cause, boolean deviceChosen) {
        super(message, cause);
        this.deviceChosen = deviceChosen;
    }

    /** The same failure, marked as one of a device that was there and chosen. */
    public BackendUnavailableException onChosenDevice() {
        BackendUnavailableException marked = new BackendUnavailableException(getMessage(), getCause(), true);
        marked.setStackTrace(getStackTrace());
        return marked;
    }

    /** Whether a device was found and chosen, and then could not be opened. */
    public boolean deviceChosen() {
        return deviceChosen;
    }
}
