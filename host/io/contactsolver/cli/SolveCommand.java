package io.contactsolver.cli;

import io.contactsolver.Backend;
import io.contactsolver.ContactSolver;
import io.contactsolver.SolveResult;
import io.contactsolver.SolverConfig;
import io.contactsolver.scene.Scene;
import io.contactsolver.scene.SceneFormatException;
import io.contactsolver.scene.SceneReader;
import io.contactsolver.scene.SceneWriter;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code solve}: reads a scene, solves it, writes {@code deltas.csv} and {@code impulses.csv}. */
@Command(name = "solve", mixinStandardHelpOptions = true,
        description = "Solve the contacts of a scene and write deltas.csv and impulses.csv.")
final class SolveCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--bodies", required = true, paramLabel = "FILE", description = "bodies.csv")
    Path bodies;

    @Option(names = "--contacts", required = true, paramLabel = "FILE", description = "contacts.csv")
    Path contacts;

    @Option(names = "--out", required = true, paramLabel = "DIR", description = "Folder for the outputs (created if missing).")
    Path out;

    @Option(names = "--backend", defaultValue = "auto", paramLabel = "auto|cpu|opencl",
            description = "Where to solve (default: ${DEFAULT-VALUE}): auto prefers an OpenCL GPU, then any OpenCL device, then the CPU.")
    Backend backend;

    @Option(names = "--device", paramLabel = "INDEX|NAME",
            description = "OpenCL device: an index from 'devices' or part of a name (also -Dcontactsolver.device, CONTACT_SOLVER_DEVICE).")
    String device;

    @Option(names = "--threads", paramLabel = "N", description = "CPU threads (default: all processors).")
    Integer threads;

    @Override
    public Integer call() throws Exception {
        Scene scene;
        try {
            scene = SceneReader.read(bodies, contacts);
        } catch (SceneFormatException e) {
            spec.commandLine().getErr().println(e.getMessage());
            return Main.BAD_INPUT;
        }
        SolverConfig config = SolverConfig.defaults().withBackend(backend).withDevice(device);
        if (threads != null) {
            config = config.withThreads(threads);
        }
        try (ContactSolver solver = ContactSolver.create(config)) {
            long start = System.nanoTime();
            SolveResult result = solver.solve(scene.bodies(), scene.contacts(), new SolveResult());
            double milliseconds = (System.nanoTime() - start) / 1e6;
            SceneWriter.writeResults(out, scene, result);
            spec.commandLine().getOut().printf(Locale.ROOT, "solved %d contacts on %d bodies with %s in %.1f ms; wrote %s and %s%n",
                    result.contactCount(), result.bodyCount(), solver.description(), milliseconds,
                    out.resolve(SceneWriter.DELTAS), out.resolve(SceneWriter.IMPULSES));
            return Main.OK;
        } catch (IllegalStateException e) {
            spec.commandLine().getErr().println("error: " + e.getMessage());
            return Main.FAILURE;
        }
    }
}
