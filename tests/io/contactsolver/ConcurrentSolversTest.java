package io.contactsolver;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.contactsolver.scene.Scene;
import io.contactsolver.scene.SceneGenerator;
import io.contactsolver.testing.Backends;
import io.contactsolver.testing.Bits;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.joml.Vector3f;
import org.junit.jupiter.api.Test;

/**
 * Separate solvers stepping on separate threads at once, CPU and OpenCL mixed, each with a team of
 * its own: every one moves its own copy of a pile to the bits one solver alone gives. The library
 * shares nothing between solvers that a step writes.
 */
class ConcurrentSolversTest {
    private static final int SOLVERS = 8;
    private static final int STEPS = 12;

    @Test
    void solversSteppingAtOnceOnSeparateThreadsGiveTheBitsOfOneAlone() throws Exception {
        try (ContactSolver probe = Backends.openClOrSkip()) {
            assertEquals(Backend.OPENCL, probe.backend());
        }
        BodyBatch alone = run(Backend.CPU);
        Bits.assertIdentical(alone, run(Backend.OPENCL), "OpenCL alone");
        ExecutorService threads = Executors.newFixedThreadPool(SOLVERS);
        try {
            List<Future<BodyBatch>> runs = new ArrayList<>();
            for (int s = 0; s < SOLVERS; s++) {
                Backend backend = s % 2 == 0 ? Backend.OPENCL : Backend.CPU;
                runs.add(threads.submit(() -> run(backend)));
            }
            for (int s = 0; s < SOLVERS; s++) {
                Bits.assertIdentical(alone, runs.get(s).get(), "solver " + s + " of " + SOLVERS + " at once");
            }
        } finally {
            threads.shutdownNow();
        }
    }

    /** A fresh pile stepped {@link #STEPS} times on a new solver: its bodies. */
    private static BodyBatch run(Backend backend) {
        Scene pile = SceneGenerator.pileWithContacts(7, 4_000, 0.3f);
        try (ContactSolver solver = ContactSolver.create(SolverConfig.defaults().withBackend(backend).withThreads(2))) {
            SolveResult result = new SolveResult();
            for (int step = 0; step < STEPS; step++) {
                solver.step(pile.bodies(), pile.contacts(), SolveSettings.softStep(), new Vector3f(0, -9.81f, 0), 0.002f,
                        null, result);
            }
        }
        return pile.bodies();
    }
}
