package io.contactsolver.app;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The command line that starts a class of this application in a new JVM of the running Java. */
public final class JavaCommand {
    private JavaCommand() {
    }

    /** {@code java OPTIONS -cp <this class path> MAIN ARGS}. */
    public static List<String> of(List<String> jvmOptions, String mainClass, List<String> args) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(mainClass);
        command.addAll(args);
        return command;
    }
}
