package io.contactsolver.app;

import io.contactsolver.Backend;
import picocli.CommandLine.Option;

/** {@code --backend}: where a command solves; one declaration for every command that takes it. */
public final class BackendOption {
    @Option(names = "--backend", defaultValue = "auto", paramLabel = "auto|cpu|opencl",
            description = "Where to solve (default: ${DEFAULT-VALUE}): auto prefers an OpenCL GPU, then an OpenCL accelerator, then the CPU; "
                    + "an OpenCL CPU device runs only when asked for (opencl, or --device).")
    Backend backend;

    public Backend backend() {
        return backend;
    }
}
