package io.contactsolver.testing;

import io.contactsolver.cli.Main;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Runs the command line (or another main class) in this JVM or in a child JVM, capturing what it prints. */
public final class Cli {
    public record Run(int exitCode, String out, String err) {
        public List<String> errLines() {
            return err.lines().toList();
        }
    }

    private Cli() {
    }

    public static Run inProcess(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
        return new Run(code, out.toString(), err.toString());
    }

    /** A child JVM on this test's class path, so stderr is the real one (logging included). */
    public static Run child(Map<String, String> environment, String... args) throws IOException, InterruptedException {
        return child(List.of(), environment, args);
    }

    /** {@link #child(Map, String...)} with options for the child JVM ({@code -Xmx32m}). */
    public static Run child(List<String> jvmOptions, Map<String, String> environment, String... args)
            throws IOException, InterruptedException {
        return childMain(Main.class, jvmOptions, environment, args);
    }

    /** {@code main} of {@code mainClass} in a child JVM on this test's class path: a fresh JVM for a test. */
    public static Run childMain(Class<?> mainClass, List<String> jvmOptions, Map<String, String> environment,
            String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), mainClass.getName()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().putAll(environment);
        Process process = builder.start();
        process.getOutputStream().close();
        byte[] out = process.getInputStream().readAllBytes();
        byte[] err = process.getErrorStream().readAllBytes();
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException("child JVM did not finish: " + command);
        }
        return new Run(process.exitValue(), new String(out, StandardCharsets.UTF_8), new String(err, StandardCharsets.UTF_8));
    }
}
