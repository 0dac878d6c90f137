package io.contactsolver;

import java.nio.file.Path;
import java.util.Optional;

/**
 * The JVM's signal chaining ({@code libjsig}), which a process needs before an LLVM-based OpenCL
 * compiler such as PoCL's builds kernels in it: without it, a Java thread that meets one of the
 * JVM's deliberate signals while a kernel compiles can end the process (docs/backends.md,
 * "Signal chaining"). It must be preloaded before the JVM starts:
 * {@code LD_PRELOAD=$JAVA_HOME/lib/libjsig.so}.
 *
 * <p>Public so that a program can tell, before it opens a device, whether it runs with the chaining
 * that the library's warning on opening a PoCL device asks for, and start itself again with it, as
 * the contact-solver command line does. The checks are those behind that warning, kept inside the
 * library; this class hands them out.
 */
public final class SignalChaining {
    private SignalChaining() {
    }

    /**
     * The running JVM's {@code libjsig}, where it has one (Linux JDKs do).
     *
     * @return the library's path, to preload; empty where this JVM has none
     */
    public static Optional<Path> library() {
        return io.contactsolver.opencl.SignalChaining.library();
    }

    /**
     * Whether {@code libjsig} is loaded in this process, read once.
     *
     * @return true if it is; false if not, or where that cannot be told (no {@code /proc})
     */
    public static boolean active() {
        return io.contactsolver.opencl.SignalChaining.active();
    }
}
