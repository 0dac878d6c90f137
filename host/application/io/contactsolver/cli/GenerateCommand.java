package io.contactsolver.cli;

import io.contactsolver.BodyBatch;
import io.contactsolver.ContactBatch;
import io.contactsolver.Quoting;
import io.contactsolver.app.ExitCode;
import io.contactsolver.app.IoErrors;
import io.contactsolver.scene.Scene;
import io.contactsolver.scene.SceneGenerator;
import io.contactsolver.scene.SceneWriter;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code generate}: writes a reproducible example scene to try {@code solve} on. */
@Command(name = "generate", mixinStandardHelpOptions = true,
        description = "Write a reproducible random scene (bodies.csv, contacts.csv) to try 'solve' on.")
final class GenerateCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--out", required = true, paramLabel = "DIR", description = "Folder for bodies.csv and contacts.csv.")
    Path out;

    @Option(names = "--bodies", defaultValue = "1000", paramLabel = "N", description = "Bodies (default: ${DEFAULT-VALUE}).")
    int bodies;

    @Option(names = "--contacts", defaultValue = "4000", paramLabel = "N", description = "Contacts (default: ${DEFAULT-VALUE}).")
    int contacts;

    @Option(names = "--seed", defaultValue = "1", paramLabel = "N", description = "Random seed (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--friction", defaultValue = "0", paramLabel = "MU",
            description = "Friction coefficient of every contact (default: ${DEFAULT-VALUE}, frictionless).")
    float friction;

    @Option(names = "--rolling-resistance", defaultValue = "0", paramLabel = "RHO",
            description = "Rolling resistance of every contact, metres (default: ${DEFAULT-VALUE}).")
    float rollingResistance;

    @Override
    public Integer call() throws Exception {
        if (bodies < 2 || bodies > BodyBatch.MAX_SIZE) {
            throw new ParameterException(spec.commandLine(), String.format(Locale.ROOT, "--bodies must be from 2 to %d "
                    + "(one body batch holds at most that many), got %d", BodyBatch.MAX_SIZE, bodies));
        }
        if (contacts < 0 || contacts > ContactBatch.MAX_SIZE) {
            throw new ParameterException(spec.commandLine(), String.format(Locale.ROOT, "--contacts must be from 0 to "
                    + "%d (one contact batch holds at most that many), got %d", ContactBatch.MAX_SIZE, contacts));
        }
        if (!(friction >= 0.0f && friction < Float.POSITIVE_INFINITY)
                || !(rollingResistance >= 0.0f && rollingResistance < Float.POSITIVE_INFINITY)) {
            throw new ParameterException(spec.commandLine(), "--friction and --rolling-resistance must be finite and "
                    + "not negative, got " + friction + " and " + rollingResistance);
        }
        String outProblem = IoErrors.outputProblem(out, "bodies.csv", "contacts.csv");
        if (outProblem != null) {
            spec.commandLine().getErr().println("error: " + Quoting.escape(outProblem));
            return ExitCode.FAILURE;
        }
        ExitCode.doing(String.format(Locale.ROOT, "generating %,d bodies and %,d contacts", bodies, contacts));
        Scene scene = SceneGenerator.randomGraph(seed, bodies, contacts);
        for (int c = 0; c < scene.contacts().size(); c++) {
            scene.contacts().setFriction(c, friction).setRollingResistance(c, rollingResistance);
        }
        Path bodiesFile = out.resolve("bodies.csv");
        Path contactsFile = out.resolve("contacts.csv");
        SceneWriter.writeScene(bodiesFile, contactsFile, scene);
        spec.commandLine().getOut().println("wrote " + bodiesFile + " (" + bodies + " bodies) and " + contactsFile + " ("
                + contacts + " contacts)");
        return ExitCode.OK;
    }
}
