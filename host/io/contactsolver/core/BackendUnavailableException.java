package io.contactsolver.core;

/** A backend cannot be created here; the message says why in one line (and may carry a build log). */
public final class BackendUnavailableException extends Exception {
    private static final long serialVersionUID = 1L;

    public BackendUnavailableException(String message) {
        super(message);
    }

    public BackendUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
