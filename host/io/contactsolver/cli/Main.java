package io.contactsolver.cli;

import java.io.PrintWriter;
import io.contactsolver.bench.BenchCommand;
import io.contactsolver.demo.DemoCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

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
    public static final int OK = 0;
    public static final int FAILURE = 1;
    public static final int BAD_INPUT = 2;

    public static void main(String[] args) {
        System.exit(run(new PrintWriter(System.out, true), new PrintWriter(System.err, true), args));
    }

    /** Runs a command line and returns its exit status, without {@code System.exit}. */
    public static int run(PrintWriter out, PrintWriter err, String... args) {
        // one line per log record: "INFO: contact-solver: backend ..."
        System.setProperty("java.util.logging.SimpleFormatter.format", "%4$s: %5$s%6$s%n");
        CommandLine commandLine = new CommandLine(new Main())
                .setOut(out)
                .setErr(err)
                .setCaseInsensitiveEnumValuesAllowed(true)
                .setExecutionExceptionHandler((exception, line, parsed) -> {
                    line.getErr().println("error: " + exception.getMessage());
                    return FAILURE;
                })
                .setParameterExceptionHandler((exception, parsedArgs) -> {
                    // one line, like every other refusal, rather than the whole usage text
                    CommandLine culprit = exception.getCommandLine();
                    culprit.getErr().println("error: " + exception.getMessage() + " (see '"
                            + culprit.getCommandSpec().qualifiedName() + " --help')");
                    return BAD_INPUT;
                });
        return commandLine.execute(args);
    }
}
