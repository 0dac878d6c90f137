package io.contactsolver.cpu;

import static io.contactsolver.core.FieldOffsets.MACC_F1;
import static io.contactsolver.core.FieldOffsets.MACC_F2;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.contactsolver.core.ManifoldImpulse;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link SoftStepKernelsBenchmark} times live rows: every point carries its share of the load
 * the soft sweep pushes against, and the relax sweep's friction stays in its disk. A benchmark
 * whose rows were inert (a zero mass, a separation that never closes) would time the early exits.
 */
class SoftStepKernelsBenchmarkTest {
    @ParameterizedTest
    @CsvSource({"4, own", "1, own", "4, scattered", "1, scattered"})
    void theBenchmarkedRowsCarryLoadAndFriction(int points, String bodies) {
        SoftStepKernelsBenchmark benchmark = new SoftStepKernelsBenchmark();
        benchmark.points = points;
        benchmark.bodies = bodies;
        benchmark.setUp();
        benchmark.softSweep();
        float[] soft = benchmark.normalImpulses();
        benchmark.relaxSweep();
        float[] relaxed = benchmark.normalImpulses();
        assertEquals(SoftStepKernelsBenchmark.MANIFOLDS * points, soft.length);
        float[] accumulated = benchmark.manifoldImpulses();
        boolean anyFriction = false;
        for (int m = 0; m < SoftStepKernelsBenchmark.MANIFOLDS; m++) {
            float pushed = 0.0f;
            float load = 0.0f;
            for (int p = m * points; p < (m + 1) * points; p++) {
                assertTrue(Float.isFinite(soft[p]) && soft[p] >= 0.0f, "point " + p + " soft: " + soft[p]);
                assertTrue(Float.isFinite(relaxed[p]) && relaxed[p] >= 0.0f, "point " + p + " relaxed: " + relaxed[p]);
                pushed += soft[p];
                load += relaxed[p];
            }
            assertTrue(pushed > 0.0f && load > 0.0f, "manifold " + m + " carries nothing: " + pushed + ", " + load);
            int l = m * ManifoldImpulse.COUNT;
            float f1 = accumulated[l + MACC_F1];
            float f2 = accumulated[l + MACC_F2];
            double grip = SoftStepKernelsBenchmark.FRICTION * load;
            assertTrue(Math.sqrt(f1 * f1 + f2 * f2) <= grip * (1.0 + 1e-5) + 1e-12,
                    "manifold " + m + ": friction (" + f1 + ", " + f2 + ") outside its disk of " + grip);
            anyFriction |= f1 != 0.0f || f2 != 0.0f;
        }
        assertTrue(anyFriction, "no manifold's friction moved: the relax sweep solved no friction");
    }
}
