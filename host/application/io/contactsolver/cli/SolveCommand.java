package io.contactsolver.cli;

import io.contactsolver.Backend;
import io.contactsolver.ContactSolver;
import io.contactsolver.IterativeSettings;
import io.contactsolver.NonFiniteResultException;
import io.contactsolver.Quoting;
import io.contactsolver.RigidSettings;
import io.contactsolver.SolveResult;
import io.contactsolver.SolveSettings;
import io.contactsolver.SolverConfig;
import io.contactsolver.SolverKind;
import io.contactsolver.app.BackendOption;
import io.contactsolver.app.DeviceOptions;
import io.contactsolver.app.ExitCode;
import io.contactsolver.app.IoErrors;
import io.contactsolver.app.ModeOptions;
import io.contactsolver.scene.Scene;
import io.contactsolver.scene.SceneFormatException;
import io.contactsolver.scene.SceneReader;
import io.contactsolver.scene.SceneWriter;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.function.Function;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

/** {@code solve}: reads a scene, solves it, writes {@code deltas.csv} and {@code impulses.csv}. */
@Command(name = "solve", mixinStandardHelpOptions = true,
        description = "Solve the contacts of a scene and write deltas.csv and impulses.csv.")
final class SolveCommand implements Callable<Integer> {
    /** Reads {@code single-pass} and {@code iterative}: the solvers a solve runs. */
    static final class SolverKindConverter implements ITypeConverter<SolverKind> {
        @Override
        public SolverKind convert(String value) {
            SolverKind kind;
            try {
                kind = SolverKind.parse(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
            if (kind == SolverKind.SOFT_STEP) {
                throw new TypeConversionException("solver '" + kind.label() + "' moves bodies in substeps and is no "
                        + "solve (single-pass or iterative)");
            }
            return kind;
        }
    }

    @Spec
    CommandSpec spec;

    @Option(names = "--bodies", required = true, paramLabel = "FILE", description = "bodies.csv")
    Path bodies;

    @Option(names = "--contacts", required = true, paramLabel = "FILE", description = "contacts.csv")
    Path contacts;

    @Option(names = "--out", required = true, paramLabel = "DIR", description = "Folder for the outputs (created if missing).")
    Path out;

    @Mixin
    BackendOption backend;

    @Option(names = "--solver", defaultValue = "single-pass", paramLabel = "single-pass|iterative",
            converter = SolverKindConverter.class,
            description = "single-pass (default): each contact's impulse from the pre-solve velocities, "
                    + "summed per body; "
                    + "iterative: all contacts resolved together (projected Gauss-Seidel).")
    SolverKind solver;

    @Option(names = "--iterations", defaultValue = "" + IterativeSettings.DEFAULT_ITERATIONS, paramLabel = "N",
            description = "Most iterations of the iterative solver (default: ${DEFAULT-VALUE}).")
    int iterations;

    @Option(names = "--tolerance", defaultValue = "0", paramLabel = "T",
            description = "Iterative solver: stop once no impulse changes by more than T in an iteration "
                    + "(default: ${DEFAULT-VALUE}, only at an exact fixed point).")
    float tolerance;

    @Option(names = "--restitution-threshold", defaultValue = "0", paramLabel = "V",
            description = "Contacts approaching slower than V do not bounce (default: ${DEFAULT-VALUE}).")
    float restitutionThreshold;

    @Mixin
    DeviceOptions device;

    @Override
    public Integer call() throws Exception {
        RigidSettings settings;
        if (solver == SolverKind.ITERATIVE) {
            IterativeSettings iterative = SolveSettings.iterative(IterativeSettings.DEFAULT_ITERATIONS);
            iterative = option("--iterations", iterative::withIterations, iterations);
            iterative = option("--tolerance", iterative::withTolerance, tolerance);
            settings = iterative;
        } else {
            settings = SolveSettings.singlePass();
        }
        settings = option("--restitution-threshold", settings::withRestitutionThreshold, restitutionThreshold);
        ModeOptions.refuseUnused(spec, solver != SolverKind.SINGLE_PASS, "--solver single-pass", "--solver iterative",
                "--iterations");
        ModeOptions.refuseUnused(spec, solver == SolverKind.ITERATIVE, "--solver " + solver.label(),
                "--solver iterative", "--tolerance");
        ModeOptions.refuseUnused(spec, backend.backend() != Backend.CPU, "--backend cpu", "--backend opencl or auto",
                "--device");
        for (Path input : new Path[] {bodies, contacts}) {
            String problem = IoErrors.inputProblem(input);
            if (problem != null) {
                spec.commandLine().getErr().println("error: " + Quoting.escape(problem));
                return ExitCode.FAILURE;
            }
        }
        String outProblem = IoErrors.outputProblem(out, SceneWriter.DELTAS, SceneWriter.IMPULSES);
        if (outProblem != null) {
            spec.commandLine().getErr().println("error: " + Quoting.escape(outProblem));
            return ExitCode.FAILURE;
        }
        Scene scene;
        try {
            ExitCode.doing("reading " + bodies + " and " + contacts);
            scene = SceneReader.read(bodies, contacts);
        } catch (SceneFormatException e) {
            spec.commandLine().getErr().println(e.getMessage());
            return ExitCode.BAD_INPUT;
        }
        SolverConfig config = device.applyTo(SolverConfig.defaults().withBackend(backend.backend()));
        ExitCode.doing(String.format(Locale.ROOT, "solving %,d contacts on %,d bodies", scene.contacts().size(),
                scene.bodies().size()));
        try (ContactSolver contactSolver = ContactSolver.create(config)) {
            long start = System.nanoTime();
            SolveResult result;
            try {
                result = contactSolver.solve(scene.bodies(), scene.contacts(), settings, new SolveResult());
            } catch (NonFiniteResultException overflow) {
                spec.commandLine().getErr().println(SceneReader.locate(scene, bodies, contacts, overflow).getMessage()
                        + "; nothing written");
                return ExitCode.BAD_INPUT;
            }
            double milliseconds = (System.nanoTime() - start) / 1e6;
            ExitCode.doing("writing the results into " + out);
            SceneWriter.writeResults(out, scene, result);
            String iterative = solver == SolverKind.ITERATIVE
                    ? String.format(Locale.ROOT, ", %d iterations, residual %.3g, %d colours, %d overflow",
                            result.iterations(), result.residual(), result.colourCount(), result.overflowCount())
                    : "";
            spec.commandLine().getOut().printf(Locale.ROOT, "solved %d contacts on %d bodies (%s%s) with %s in %.1f ms; "
                    + "wrote %s and %s%n", result.contactCount(), result.bodyCount(), solver.label(), iterative,
                    contactSolver.description(), milliseconds, out.resolve(SceneWriter.DELTAS),
                    out.resolve(SceneWriter.IMPULSES));
            return ExitCode.OK;
        } catch (IllegalStateException e) {
            spec.commandLine().getErr().println("error: " + e.getMessage());
            return ExitCode.FAILURE;
        }
    }

    /**
     * A setting from an option's value; a value the settings refuse is refused as that option's, on
     * one line with the usual pointer to the help (exit 2).
     */
    private <T, S extends RigidSettings> S option(String name, Function<T, S> with, T value) {
        try {
            return with.apply(value);
        } catch (IllegalArgumentException refused) {
            throw new ParameterException(spec.commandLine(), name + " " + value + ": " + refused.getMessage());
        }
    }
}
