package io.contactsolver.opencl;

import io.contactsolver.core.BackendFailureException;
import java.util.function.Consumer;
import org.jocl.CLException;

/** The stage a solve is in ("upload", "kernels", "readback"), for the failure message and the test fault hook. */
final class Stage {
    private final Consumer<String> hook;
    private String name = "start";

    Stage(Consumer<String> hook) {
        this.hook = hook;
    }

    void enter(String next) {
        name = next;
        hook.accept(next);
    }

    BackendFailureException failure(CLException e) {
        return new BackendFailureException(e.getMessage() + " during " + name, e);
    }
}
