package io.contactsolver.testing;

import static org.junit.jupiter.api.Assertions.fail;

import io.contactsolver.Backend;
import io.contactsolver.ContactSolver;
import io.contactsolver.SolverConfig;
import org.junit.jupiter.api.Assumptions;

/**
 * Opens solvers for tests. The OpenCL backend is required where the environment says CI
 * ({@code CI=true}): there a missing device fails the test, unless the run has no OpenCL library
 * by design ({@link #WITHOUT_OPENCL}). Elsewhere it is skipped, visibly, with the reason.
 */
public final class Backends {
    private Backends() {
    }

    private static boolean skipAnnounced;

    /**
     * Set to {@code true} for a run that has no loadable OpenCL library on purpose (CI runs the
     * tests a second time that way, proving they hold on a machine without OpenCL): OpenCL tests
     * are then skipped even under CI, but only for that reason.
     */
    public static final String WITHOUT_OPENCL = "CONTACT_SOLVER_TEST_WITHOUT_OPENCL";

    public static boolean inCi() {
        return "true".equalsIgnoreCase(System.getenv("CI"));
    }

    /** This run has no OpenCL library by design (see {@link #WITHOUT_OPENCL}). */
    public static boolean withoutOpenClByDesign() {
        return "true".equalsIgnoreCase(System.getenv(WITHOUT_OPENCL));
    }

    public static ContactSolver cpu() {
        return ContactSolver.create(SolverConfig.defaults().withBackend(Backend.CPU));
    }

    public static ContactSolver cpu(int threads) {
        return ContactSolver.create(SolverConfig.defaults().withBackend(Backend.CPU).withThreads(threads));
    }

    /** An OpenCL solver, or a skip (a failure under CI) saying why there is none. */
    public static ContactSolver openClOrSkip() {
        try {
            return ContactSolver.create(SolverConfig.defaults().withBackend(Backend.OPENCL));
        } catch (IllegalStateException e) {
            skipOrFail(e.getMessage());
            throw e;
        }
    }

    /**
     * Fails the test under CI, else aborts it (a visible skip) and says so once on stderr, since a
     * build log shows only skip counts.
     */
    public static void skipOrFail(String why) {
        String reason = "OpenCL device required for this test: " + why;
        if (withoutOpenClByDesign()) {
            if (!why.contains("OpenCL library could not be loaded")) {
                fail(WITHOUT_OPENCL + "=true promises a run without a loadable OpenCL library, yet: " + why);
            }
        } else if (inCi()) {
            fail(reason + " (CI=true: install pocl-opencl-icd and ocl-icd-libopencl1)");
        }
        synchronized (Backends.class) {
            if (!skipAnnounced) {
                skipAnnounced = true;
                System.err.println("SKIPPING OpenCL tests (set CI=true to make this a failure): " + why);
            }
        }
        Assumptions.abort(reason);
    }

    /** A solver on {@code backend}: {@link #cpu()} or {@link #openClOrSkip()}. */
    public static ContactSolver open(Backend backend) {
        return backend == Backend.OPENCL ? openClOrSkip() : cpu();
    }
}
