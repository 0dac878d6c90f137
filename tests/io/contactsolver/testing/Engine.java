package io.contactsolver.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.contactsolver.Backend;
import io.contactsolver.ContactSolver;
import io.contactsolver.RigidSettings;
import io.contactsolver.SolveResult;
import io.contactsolver.SolveSettings;
import io.contactsolver.layout.ImpulseField;
import io.contactsolver.scene.Scene;

/**
 * Who computes a result in the friction tests: the module on one of its backends, or the float64
 * oracle {@link ReferenceFriction}. Running the physics checks on the oracle too shows that the
 * oracle itself obeys docs/physics.md, which is what makes comparing the module with it meaningful.
 */
public enum Engine {
    REFERENCE, CPU, OPENCL;

    /** Deltas per body (dv, dw) and impulses per contact in {@link ImpulseField} order, in double. */
    public record Solved(double[][] deltas, double[][] impulses) {
    }

    public Solved singlePass(Scene scene) {
        if (this == REFERENCE) {
            ReferenceFriction reference = ReferenceFriction.singlePass(scene.bodies(), scene.contacts());
            return new Solved(reference.deltas, reference.impulses);
        }
        return solve(scene, SolveSettings.singlePass());
    }

    public Solved iterative(Scene scene, int iterations) {
        if (this == REFERENCE) {
            ReferenceFriction reference = ReferenceFriction.iterative(scene.bodies(), scene.contacts(), iterations, null, 0.0);
            return new Solved(reference.deltas, reference.impulses);
        }
        return solve(scene, SolveSettings.iterative(iterations));
    }

    private Solved solve(Scene scene, RigidSettings settings) {
        Backend backend = this == CPU ? Backend.CPU : Backend.OPENCL;
        try (ContactSolver solver = Backends.open(backend)) {
            SolveResult result = solver.solve(scene.bodies(), scene.contacts(), settings, new SolveResult());
            assertEquals(backend, result.backend());
            return solved(result);
        }
    }

    public static Solved solved(SolveResult result) {
        double[][] impulses = new double[result.contactCount()][ImpulseField.COUNT];
        for (int c = 0; c < result.contactCount(); c++) {
            for (ImpulseField field : ImpulseField.values()) {
                impulses[c][field.ordinal()] = result.impulse(field, c);
            }
        }
        return new Solved(ReferenceFriction.deltas(result), impulses);
    }
}
