package io.contactsolver.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.contactsolver.Backend;
import io.contactsolver.ContactBatch;
import io.contactsolver.ContactSolver;
import io.contactsolver.app.Scheme;
import io.contactsolver.testing.Backends;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.joml.Vector3f;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The demo's simulation on a small drop (300 spheres, a pile a few spheres deep): it settles,
 * stays in the box, comes to rest, keeps overlap at the slop, warm starting pays, and the CPU and
 * OpenCL give the same trajectory to the bit, with and without friction.
 */
class SimulationTest {
    private static final int PARTICLES = 300;
    private static final long SEED = 7;
    private static final float DT = 0.0025f;
    private static final float RESTITUTION = 0.3f;
    private static final int ITERATIONS = 10;
    /** At rest: no sphere faster than this, m/s, for {@link #REST_STEPS} steps in a row. */
    private static final float REST_SPEED = 0.002f;
    /** At rest: no contact still closing faster than this after the solve, m/s. */
    private static final float REST_APPROACH = 0.001f;
    private static final int REST_STEPS = 20;
    private static final int MAX_STEPS = 2000;

    /** The demo's settings on the two-solve scheme, which these tests are of unless they say otherwise. */
    private static Simulation.Settings twoSolves(int iterations) {
        return Simulation.Settings.of(DT, RESTITUTION, iterations).withScheme(Scheme.TWO_SOLVES);
    }

    private static Simulation simulation(Simulation.Settings settings) {
        return new Simulation(ParticleWorld.drop(PARTICLES, SEED), settings);
    }

    /**
     * Keeps stepping until the pile is at rest, judged by what the spheres do: their speeds, and
     * the approach velocity left at every contact after the solve, which comes from the velocities
     * the module's deltas produced. The solver's residual is not a test of rest (it only says the
     * last iteration changed little); it is checked to be what the module reported.
     */
    @Test
    void aSmallDropSettlesStaysInTheBoxAndComesToRest() {
        Simulation simulation = simulation(twoSolves(ITERATIONS));
        ParticleWorld world = simulation.world();
        double peakEnergy = 0.0;
        double energyAtRest = Double.NaN;
        int restingSteps = 0;
        int step = 0;
        try (ContactSolver solver = Backends.cpu()) {
            while (restingSteps < REST_STEPS) {
                if (++step > MAX_STEPS) {
                    fail("not at rest after " + MAX_STEPS + " steps: fastest sphere " + world.maxSpeed() + " m/s");
                }
                StepFigures figures = simulation.step(solver);
                assertInsideTheBox(world, step);
                assertEquals(simulation.lastResult().iterations(), figures.iterations(), "iterations as reported");
                assertEquals(simulation.lastResult().residual(), figures.residual(), "residual as reported");
                assertTrue(figures.iterations() <= ITERATIONS);
                assertEquals(world.maxSpeed(), figures.maxSpeed());
                peakEnergy = Math.max(peakEnergy, figures.kineticEnergy());
                boolean resting = figures.maxSpeed() < REST_SPEED && figures.largestApproach() < REST_APPROACH;
                restingSteps = resting ? restingSteps + 1 : 0;
                if (restingSteps == 1) {
                    energyAtRest = figures.kineticEnergy();
                }
            }
            double finalEnergy = world.kineticEnergy();
            assertTrue(peakEnergy > 0.1, "the drop gathers speed: peak " + peakEnergy + " J");
            assertTrue(finalEnergy < 1e-6 * peakEnergy, "settled far below the peak: " + finalEnergy + " J");
            assertTrue(Math.abs(finalEnergy - energyAtRest) < 1e-6 * peakEnergy, "and stays there");
            assertTrue(step > 200, "a pile takes a while to settle: " + step + " steps");
        }
    }

    /** Frictionless, and with friction and rolling resistance (spheres then spin). */
    @ParameterizedTest(name = "friction {0}, rolling resistance {1} m")
    @CsvSource({"0, 0", "0.5, 0.001"})
    void cpuAndOpenClGiveBitIdenticalTrajectories(float friction, float rollingResistance) {
        Simulation.Settings settings = twoSolves(ITERATIONS)
                .withFriction(friction, rollingResistance);
        Simulation onCpu = simulation(settings);
        Simulation onDevice = simulation(settings);
        try (ContactSolver cpu = Backends.cpu(); ContactSolver openCl = Backends.openClOrSkip()) {
            assertEquals(Backend.OPENCL, openCl.backend());
            int contacts = 0;
            for (int step = 1; step <= 250; step++) {
                StepFigures expected = onCpu.step(cpu);
                StepFigures actual = onDevice.step(openCl);
                assertEquals(Backend.OPENCL, onDevice.lastResult().backend(), "no fallback to the CPU");
                assertEquals(expected.contacts(), actual.contacts(), "step " + step);
                contacts += expected.contacts();
                if (step % 50 == 0) {
                    assertSameBits(onCpu.world(), onDevice.world(), "step " + step);
                }
            }
            assertTrue(contacts > 250 * PARTICLES, "the spheres landed and touched: " + contacts + " contacts");
        }
    }

    /**
     * Without warm starting the solver needs more iterations each step. With the demo's friction the
     * pile is still by step 300 and the warm-started impulses are already the solution (one iteration
     * a step here), while a cold solve uses all it may. Frictionless solid spheres in this drop still
     * shift until about step 800, and before that warm starting saves them less than half (125 of
     * 200 iterations over steps 500 to 700), so the test runs with friction.
     */
    @Test
    void warmStartingCarriesImpulsesAcrossStepsSoFewerIterationsReachTheTolerance() {
        float tolerance = 1e-7f; // N s; a resting sphere's contact carries about 1e-5
        Simulation.Settings settings = twoSolves(100).withTolerance(tolerance)
                .withFriction(0.5f, 0.001f);
        double warm = meanIterations(settings);
        double cold = meanIterations(settings.withWarmStart(false));
        assertTrue(warm < 0.5 * cold, "mean iterations warm " + warm + " vs cold " + cold);
    }

    /** Mean iterations the module reported over steps 300 to 500, once the pile has formed. */
    private static double meanIterations(Simulation.Settings settings) {
        return run(settings, 500).subList(300, 500).stream().mapToInt(StepFigures::iterations).average().orElseThrow();
    }

    /**
     * Positional correction keeps overlap within a few slops (it pushes out a fifth of the excess per
     * step while the pile still shifts); without it the impacts leave overlaps many times deeper.
     */
    @Test
    void penetrationDoesNotBuildUpWithPositionalCorrectionAndDoesWithout() {
        float with = deepestOverlapAtTheEnd(twoSolves(ITERATIONS));
        float without = deepestOverlapAtTheEnd(twoSolves(ITERATIONS)
                .withPositionalCorrection(false));
        float slop = Simulation.SLOP_PER_RADIUS * ParticleWorld.MAX_RADIUS;
        assertTrue(with <= 3.0f * slop, "with correction: deepest overlap " + with + " m, slop " + slop + " m");
        assertTrue(without > 10.0f * slop, "without: " + without + " m");
    }

    /** The deepest overlap over steps 700 to 800, once the pile has formed. */
    private static float deepestOverlapAtTheEnd(Simulation.Settings settings) {
        return (float) run(settings, 800).subList(700, 800).stream().mapToDouble(StepFigures::deepestOverlap).max()
                .orElseThrow();
    }

    /** The figures of {@code steps} steps of the small drop on the CPU. */
    private static List<StepFigures> run(Simulation.Settings settings, int steps) {
        Simulation simulation = simulation(settings);
        List<StepFigures> figures = new ArrayList<>();
        try (ContactSolver solver = Backends.cpu()) {
            for (int step = 1; step <= steps; step++) {
                figures.add(simulation.step(solver));
            }
        }
        return figures;
    }

    /**
     * Taking the next step's solve input (what the bench times the solver on) leaves the run as it
     * was, to the bit, on both schemes and with an inlet pouring; the input is what that step's
     * solve is then given.
     */
    @Test
    void takingTheNextSolveInputLeavesTheRunAsItWas() {
        List<Simulation.Settings> schemes = List.of(twoSolves(ITERATIONS),
                twoSolves(ITERATIONS).withFriction(0.5f, 0.001f).withSoftStep(4, 60.0f));
        for (Simulation.Settings settings : schemes) {
            Simulation plain = DemoScene.HEAP.simulation(200, SEED, settings);
            Simulation peeked = DemoScene.HEAP.simulation(200, SEED, settings);
            try (ContactSolver solver = Backends.cpu()) {
                for (int step = 1; step <= 120; step++) {
                    StepFigures expected = plain.step(solver);
                    io.contactsolver.scene.Scene input = null;
                    if (step % 7 == 0) {
                        input = peeked.nextSolveInput();
                        assertEquals(input.contacts().size(), peeked.nextSolveInput().contacts().size(),
                                "a second look takes no further step");
                    }
                    StepFigures actual = peeked.step(solver);
                    String when = settings.scheme().label() + ", step " + step;
                    assertEquals(expected.contacts(), actual.contacts(), when);
                    assertEquals(expected.particles(), actual.particles(), when);
                    assertEquals(expected.kineticEnergy(), actual.kineticEnergy(), when);
                    assertSameBits(plain.world(), peeked.world(), when);
                    if (input != null) {
                        assertEquals(actual.particles(), input.bodies().size(), when);
                        assertEquals(peeked.contacts().size(), input.contacts().size(), when);
                        for (int c = 0; c < input.contacts().size(); c++) {
                            assertEquals(peeked.contacts().id(c), input.contacts().id(c), when);
                            assertEquals(peeked.contacts().bodyA(c), input.contacts().bodyA(c), when);
                            assertEquals(peeked.contacts().bodyB(c), input.contacts().bodyB(c), when);
                        }
                    }
                }
                assertTrue(plain.world().count > 0 && plain.contacts().size() > 0, "the heap is pouring and touching");
            }
        }
    }

    /** Every step's ids are unique, and a pair in contact in two steps in a row keeps its id. */
    @Test
    void contactIdsAreUniqueWithinAStepAndKeptByPersistingContacts() {
        Simulation simulation = simulation(twoSolves(ITERATIONS));
        Map<Long, Integer> previous = new HashMap<>();
        int persisted = 0;
        try (ContactSolver solver = Backends.cpu()) {
            for (int step = 1; step <= 300; step++) {
                simulation.step(solver);
                ContactBatch contacts = simulation.contacts();
                Map<Long, Integer> current = new HashMap<>();
                Set<Integer> ids = new HashSet<>();
                for (int c = 0; c < contacts.size(); c++) {
                    int id = contacts.id(c);
                    assertTrue(ids.add(id), "step " + step + ": id " + id + " twice");
                    long key = contactKey(contacts, c);
                    assertTrue(current.put(key, id) == null, "step " + step + ": one contact per pair");
                    Integer before = previous.get(key);
                    if (before != null) {
                        assertEquals(before, id, "step " + step + ": contact " + c + " persisted");
                        persisted++;
                    }
                }
                previous = current;
            }
        }
        assertTrue(persisted > 100 * PARTICLES, "most contacts persist from step to step: " + persisted);
    }

    /** The pair of spheres, or the sphere and the wall its normal comes from. */
    private static long contactKey(ContactBatch contacts, int c) {
        if (contacts.bodyA(c) != ContactBatch.WORLD) {
            return ContactKeys.pairKey(contacts.bodyA(c), contacts.bodyB(c));
        }
        Vector3f normal = contacts.getNormal(c, new Vector3f());
        for (Wall wall : Wall.values()) {
            if (normal.equals(wall.normal(0), wall.normal(1), wall.normal(2))) {
                return ContactKeys.wallKey(contacts.bodyB(c), wall);
            }
        }
        throw new AssertionError("contact " + c + " has no wall's normal: " + normal);
    }

    /** Every centre is inside the walls by its radius, less a tenth of the smallest radius. */
    private static void assertInsideTheBox(ParticleWorld world, int step) {
        float tolerance = 0.1f * ParticleWorld.MIN_RADIUS;
        for (int i = 0; i < world.count; i++) {
            for (Wall wall : Wall.values()) {
                float gap = wall.gap(world.centre(wall.axis, i), world.radius[i], world.size(wall.axis));
                if (gap < -tolerance) {
                    fail("step " + step + ": sphere " + i + " is " + -gap + " m into the " + wall);
                }
            }
        }
    }

    private static void assertSameBits(ParticleWorld expected, ParticleWorld actual, String when) {
        float[][] left = {expected.x, expected.y, expected.z, expected.vx, expected.vy, expected.vz, expected.wx,
            expected.wy, expected.wz};
        float[][] right = {actual.x, actual.y, actual.z, actual.vx, actual.vy, actual.vz, actual.wx, actual.wy,
            actual.wz};
        String[] names = {"x", "y", "z", "vx", "vy", "vz", "wx", "wy", "wz"};
        for (int field = 0; field < left.length; field++) {
            for (int i = 0; i < expected.count; i++) {
                if (Float.floatToRawIntBits(left[field][i]) != Float.floatToRawIntBits(right[field][i])) {
                    fail(when + ": " + names[field] + " of sphere " + i + ": " + left[field][i] + " on the CPU, "
                            + right[field][i] + " on OpenCL");
                }
            }
        }
    }
}
