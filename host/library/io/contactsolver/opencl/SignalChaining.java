package io.contactsolver.opencl;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The JVM's signal chaining ({@code libjsig}), which a process needs before an LLVM-based OpenCL
 * compiler such as PoCL's builds kernels in it.
 *
 * <p>LLVM installs its own handlers for SIGSEGV and other signals while it compiles. The JVM raises
 * SIGSEGV on purpose (safepoint polls, implicit null checks), so a Java thread that hits one while
 * a kernel compiles is handed to LLVM's handler and the process dies: exit status 139, no
 * {@code hs_err} file (seen here with PoCL 3.1 in 9 of 25 runs of {@code bench}, and in none
 * of six with {@code libjsig}). Preloaded, {@code libjsig} keeps the JVM's handlers first and
 * chains to the others. It must be loaded before the JVM starts:
 * {@code LD_PRELOAD=$JAVA_HOME/lib/libjsig.so}. The API's {@code SignalChaining} hands out
 * {@link #library()} and {@link #active()}.
 */
public final class SignalChaining {
    private static final Logger LOG = Logger.getLogger(SignalChaining.class.getName());
    /** Set once the warning has been given: once per process is enough. */
    private static volatile boolean warned;

    private SignalChaining() {
    }

    /** The running JVM's {@code libjsig}, where it has one (Linux JDKs do). */
    public static Optional<Path> library() {
        Path library = Path.of(System.getProperty("java.home"), "lib", "libjsig.so");
        return Files.isRegularFile(library) ? Optional.of(library) : Optional.empty();
    }

    /** Whether {@code libjsig} is loaded in this process; false where that cannot be told (no /proc). */
    public static boolean active() {
        return Loaded.ACTIVE;
    }

    /** Read once: chaining is preloaded before the JVM starts or not at all. */
    private static final class Loaded {
        static final boolean ACTIVE = readMaps();

        private static boolean readMaps() {
            try {
                return Files.readString(Path.of("/proc/self/maps")).contains("/libjsig.so");
            } catch (IOException | RuntimeException e) {
                return false;
            }
        }
    }

    /**
     * Logs a warning, once, when a device of {@code platform} compiles with LLVM (PoCL) in a JVM
     * without signal chaining where the JVM has {@code libjsig} to offer.
     */
    static void warnIfNeeded(String platform) {
        if (warned || !platform.contains("Portable Computing Language")) {
            return;
        }
        Optional<Path> library = library();
        if (library.isPresent() && !active()) {
            warned = true;
            LOG.log(Level.WARNING, "contact-solver: PoCL compiles kernels with LLVM, whose signal handlers can "
                    + "end this JVM (exit 139) while it compiles; start java with LD_PRELOAD=" + library.get()
                    + " (the contact-solver command line does so itself)");
        }
    }
}
