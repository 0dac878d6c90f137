package io.contactsolver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.contactsolver.layout.SolvePhase;
import io.contactsolver.scene.Scene;
import io.contactsolver.scene.SceneGenerator;
import io.contactsolver.testing.Backends;
import org.joml.Vector3f;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The profile is the same phases on every backend: a solve's host time goes to validation, set-up,
 * the solve and its output, a step's to its integration too; only an OpenCL device has device time,
 * its copies in {@code TRANSFER} and its kernels in {@code SOLVE}.
 */
class SolvePhaseTest {
    @ParameterizedTest
    @EnumSource(value = Backend.class, names = {"CPU", "OPENCL"})
    void everySolverFillsTheSamePhasesOnEveryBackend(Backend backend) {
        Scene scene = SceneGenerator.pileWithContacts(3, 20_000, 0.3f);
        Vector3f gravity = new Vector3f(0, -10, 0);
        try (ContactSolver solver = Backends.open(backend)) {
            for (SolveSettings settings : new SolveSettings[] {SolveSettings.singlePass(), SolveSettings.iterative(10),
                SolveSettings.softStep()}) {
                SolveResult solved = settings instanceof RigidSettings rigid
                        ? solver.solve(scene.bodies(), scene.contacts(), rigid, new SolveResult()) : null;
                SolveResult stepped = solver.step(scene.bodies(), scene.contacts(), settings, gravity, 1 / 60f, null,
                        new SolveResult());
                for (SolveResult result : new SolveResult[] {solved, stepped}) {
                    if (result == null) {
                        continue;
                    }
                    String what = settings.kind() + (result == stepped ? " step" : " solve") + " on " + backend;
                    for (SolvePhase phase : new SolvePhase[] {SolvePhase.VALIDATE, SolvePhase.SET_UP,
                        SolvePhase.SOLVE, SolvePhase.OUTPUT}) {
                        assertTrue(result.hostNanos(phase) > 0, phase + " timed: " + what);
                    }
                    assertEquals(0, result.hostNanos(SolvePhase.TRANSFER), "copies are the device's time: " + what);
                    assertEquals(result == stepped, result.hostNanos(SolvePhase.INTEGRATE) > 0, what);
                    boolean device = result.backend() == Backend.OPENCL;
                    assertEquals(device, result.deviceNanos(SolvePhase.TRANSFER) > 0, "the copies: " + what);
                    assertEquals(device, result.deviceNanos(SolvePhase.SOLVE) > 0, "the kernels: " + what);
                    for (SolvePhase phase : new SolvePhase[] {SolvePhase.VALIDATE, SolvePhase.SET_UP,
                        SolvePhase.OUTPUT, SolvePhase.INTEGRATE}) {
                        assertEquals(0, result.deviceNanos(phase), "no device time in " + phase + ": " + what);
                    }
                }
            }
        }
    }
}
