package io.contactsolver.cli;

import io.contactsolver.Quoting;
import io.contactsolver.app.CommandLineLog;
import io.contactsolver.app.ExitCode;
import io.contactsolver.app.IoErrors;
import io.contactsolver.app.SignalChainedLaunch;
import io.contactsolver.bench.BenchCommand;
import io.contactsolver.demo.DemoCommand;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Locale;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine;

/**
 * {@code java -jar contact-solver.jar COMMAND}: the command line of the module.
 *
 * <p>Exit status: 0 success, 1 a failure while running (I/O, no usable backend), 2 bad input or
 * bad usage (one line on stderr says what and where).
 */
@Command(name = "contact-solver", mixinStandardHelpOptions = true, version = "contact-solver 0.1.0",
        description = "Rigid-body contact impulses, with friction and rolling resistance, on OpenCL devices and on the CPU.",
        subcommands = {SolveCommand.class, DevicesCommand.class, GenerateCommand.class, BenchCommand.class,
            DemoCommand.class, CommandLine.HelpCommand.class})
public final class Main {
    public static void main(String[] args) throws InterruptedException {
        // PoCL's kernel compiler would otherwise be able to end the JVM (SignalChaining)
        OptionalInt chained = SignalChainedLaunch.run(Main.class, args);
        if (chained.isPresent()) {
            System.exit(chained.getAsInt());
        }
        // straight to the file descriptor: System.out would swallow a failed write (a full disk, a
        // closed pipe), where this writer records it for run to report
        System.exit(run(new PrintWriter(new FileOutputStream(FileDescriptor.out), true),
                new PrintWriter(System.err, true), args));
    }

    /**
     * Runs a command line and returns its exit status, without {@code System.exit}. Output that
     * could not be written to {@code out} fails the command (exit 1, one line on {@code err}): a
     * listing or summary cut short must not look like a success.
     */
    public static int run(PrintWriter out, PrintWriter err, String... args) {
        // one line per log record: "INFO: contact-solver: backend ..."
        System.setProperty("java.util.logging.SimpleFormatter.format", "%4$s: %5$s%6$s%n");
        CommandLineLog.install();
        ExitCode.doing(null);
        CommandLine commandLine = new CommandLine(new Main())
                .registerConverter(Path.class, Main::path)
                .setOut(out)
                .setErr(err)
                .setCaseInsensitiveEnumValuesAllowed(true)
                .setExecutionExceptionHandler((exception, line, parsed) -> {
                    OutOfMemoryError memory = outOfMemory(exception);
                    if (memory != null) {
                        throw memory;
                    }
                    line.getErr().println("error: " + describe(exception));
                    return ExitCode.FAILURE;
                })
                .setParameterExceptionHandler((exception, parsedArgs) -> {
                    // one line, like every other refusal, rather than the whole usage text
                    CommandLine culprit = exception.getCommandLine();
                    culprit.getErr().println("error: " + quotedSafely(exception.getMessage()) + " (see '"
                            + culprit.getCommandSpec().qualifiedName() + " --help')");
                    return ExitCode.BAD_INPUT;
                });
        try {
            int code = commandLine.execute(args);
            if (out.checkError()) {
                err.println("error: the output could not be written to standard output (a full disk, or a closed "
                        + "pipe?); it is incomplete");
                return code == ExitCode.OK ? ExitCode.FAILURE : code;
            }
            return code;
        } catch (OutOfMemoryError e) {
            err.println(outOfMemoryLine(e, args));
            return ExitCode.FAILURE;
        } finally {
            ExitCode.doing(null);
        }
    }

    /**
     * Every path option's value: an empty one is refused (exit 2, naming the option), since it
     * would quietly mean the current folder.
     */
    static Path path(String value) {
        if (value.isEmpty()) {
            throw new CommandLine.TypeConversionException("an empty path (give a name; '.' is the current folder)");
        }
        return Path.of(value);
    }

    /** One line for an exception a command did not handle: I/O errors name the path and the reason. */
    static String describe(Throwable exception) {
        if (exception instanceof IOException io) {
            return Quoting.escape(IoErrors.describe(io));
        }
        String message = exception.getMessage();
        return Quoting.escape(message == null || message.isBlank() ? exception.getClass().getSimpleName() : message);
    }

    private static OutOfMemoryError outOfMemory(Throwable exception) {
        for (Throwable cause = exception; cause != null; cause = cause.getCause()) {
            if (cause instanceof OutOfMemoryError memory) {
                return memory;
            }
        }
        return null;
    }

    /** What did not fit, the limit it met and how to raise it, in one line. */
    static String outOfMemoryLine(OutOfMemoryError e, String[] args) {
        String kind = e.getMessage() == null ? "" : e.getMessage();
        String command = args.length > 0 ? args[0] : "contact-solver";
        String what = Quoting.escape(ExitCode.activity() != null ? ExitCode.activity() : "running '" + command + "'");
        if (kind.contains("native thread")) {
            return "error: out of memory " + what + " (" + Quoting.escape(kind)
                    + "): the system allows no more threads; use fewer with --threads";
        }
        long maxMiB = Runtime.getRuntime().maxMemory() >> 20;
        long suggestGiB = Math.max(2, 2 * ((maxMiB + 1023) >> 10));
        // direct buffers (the batches) may by default use as much as the heap: -Xmx raises both
        return String.format(Locale.ROOT, "error: out of memory %s (%s); this JVM may use at most %,d MiB of heap "
                + "(and by default as much for direct buffers): give it more, for example java -Xmx%dg -jar "
                + "contact-solver.jar %s ...", what, kind.isEmpty() ? "OutOfMemoryError" : Quoting.escape(kind), maxMiB,
                suggestGiB, Quoting.field(command));
    }

    /** Escapes control characters and cuts every single-quoted value (option values, file names) to a field's length. */
    static String quotedSafely(String message) {
        if (message == null) {
            return "bad usage";
        }
        Matcher quoted = Pattern.compile("'([^']*)'").matcher(message);
        StringBuilder safe = new StringBuilder();
        while (quoted.find()) {
            quoted.appendReplacement(safe, Matcher.quoteReplacement("'" + Quoting.field(quoted.group(1)) + "'"));
        }
        quoted.appendTail(safe);
        return Quoting.escape(safe.toString());
    }
}
