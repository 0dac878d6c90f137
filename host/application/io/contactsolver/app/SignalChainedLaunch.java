package io.contactsolver.app;

import io.contactsolver.SignalChaining;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Starts the command line again in a child JVM with signal chaining ({@code LD_PRELOAD} of the
 * JVM's {@code libjsig}) when this JVM runs without it and has it to offer: PoCL's kernel compiler
 * can otherwise end the process ({@link SignalChaining}). The child inherits the terminal, the JVM
 * options and the arguments; its exit status is the command's.
 */
public final class SignalChainedLaunch {
    /** Set in the child, so that it never starts another. */
    static final String PROPERTY = "contactsolver.signalchained";

    private SignalChainedLaunch() {
    }

    /**
     * Runs {@code main} with {@code args} in a signal-chained child JVM and returns its exit status;
     * empty when this JVM should run the command itself (chaining on already, no {@code libjsig},
     * or the child could not be started).
     */
    public static OptionalInt run(Class<?> main, String[] args) throws InterruptedException {
        if (Boolean.getBoolean(PROPERTY) || SignalChaining.active()) {
            return OptionalInt.empty();
        }
        Optional<Path> library = SignalChaining.library();
        if (library.isEmpty()) {
            return OptionalInt.empty();
        }
        List<String> options = new ArrayList<>(ManagementFactory.getRuntimeMXBean().getInputArguments());
        options.add("-D" + PROPERTY + "=true");
        ProcessBuilder builder = new ProcessBuilder(JavaCommand.of(options, main.getName(), List.of(args))).inheritIO();
        String preload = System.getenv("LD_PRELOAD");
        builder.environment().put("LD_PRELOAD",
                library.get() + (preload == null || preload.isBlank() ? "" : ":" + preload));
        try {
            return OptionalInt.of(builder.start().waitFor());
        } catch (IOException e) {
            return OptionalInt.empty(); // the command still runs, here, as it would have without chaining
        }
    }
}
