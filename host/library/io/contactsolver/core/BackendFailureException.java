package io.contactsolver.core;

/** A device failed during a solve (out of resources, device lost, ...); its outputs are not to be used. */
public final class BackendFailureException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public BackendFailureException(String message, Throwable cause) {
        super(message, cause);
    }
}
