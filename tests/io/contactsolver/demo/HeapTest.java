package io.contactsolver.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.contactsolver.ContactSolver;
import io.contactsolver.app.Scheme;
import io.contactsolver.testing.Backends;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The heap scene: a small poured heap stands steeper with friction than without, spheres spin only
 * with friction and stop spinning with torsion, and the slope measurement reads a known cone's angle.
 */
class HeapTest {
    /** Small enough to run in seconds, large enough for a flank of a few rings. */
    private static final int PARTICLES = 800;
    private static final long SEED = 1;
    private static final float DT = 0.0025f;
    private static final int MAX_STEPS = 1500;

    @Test
    void aHeapWithFrictionStandsSteeperThanAFrictionlessOneAndOnlyItsSpheresSpin() {
        Simulation withFriction = heap(0.5f, 0.001f);
        DemoScene.RestWatch restWatch = new DemoScene.RestWatch();
        int steps = 0;
        try (ContactSolver solver = Backends.cpu()) {
            boolean atRest = false;
            while (!atRest) {
                assertTrue(++steps <= MAX_STEPS, "not at rest after " + MAX_STEPS + " steps");
                withFriction.step(solver);
                atRest = restWatch.atRest(withFriction);
            }
            // the frictionless spheres are still sliding apart then; what matters is that they spread
            Simulation frictionless = heap(0.0f, 0.0f);
            for (int s = 0; s < steps; s++) {
                frictionless.step(solver);
            }
            HeapSlope steep = HeapSlope.measure(withFriction.world());
            HeapSlope flat = HeapSlope.measure(frictionless.world());
            assertFalse(steep.flat(), "with friction a heap stands: " + steep);
            assertTrue(steep.degrees() > 12.0, "with friction: " + steep);
            assertTrue(flat.flat() && Math.abs(flat.degrees()) < 6.0, "frictionless spheres spread flat: " + flat);
            assertTrue(steep.degrees() > flat.degrees() + 8.0, steep.degrees() + " vs " + flat.degrees());

            assertTrue(fastestSpin(withFriction.world()) > 1.0f, "friction spins spheres: "
                    + fastestSpin(withFriction.world()) + " rad/s");
            // a frictionless contact acts through the centre; only rounding in r x n turns a sphere, slowly
            assertTrue(fastestSpin(frictionless.world()) < 0.1f, "without friction nothing spins: "
                    + fastestSpin(frictionless.world()) + " rad/s");
        }
    }

    /**
     * On the soft step at the demo's defaults a heap's spheres come to rest in their spin too, with
     * torsional resistance: without it, spin about the contact normals is what is left of the
     * kinetic energy once the centres are at rest.
     */
    @Test
    void torsionStopsTheSpinThatIsLeftOnceTheCentresRest() {
        double[] spin = new double[2];
        for (int run = 0; run < 2; run++) {
            float torsion = run == 0 ? 0.0f : DemoCommand.DEFAULT_TORSION;
            Simulation heap = DemoScene.HEAP.simulation(PARTICLES, SEED, Simulation.Settings.of(DT, 0.3f, 10)
                    .withFriction(0.5f, 0.001f).withTorsion(torsion).withSoftStep(4, 0.0f));
            DemoScene.RestWatch restWatch = new DemoScene.RestWatch();
            try (ContactSolver solver = Backends.cpu()) {
                int steps = 0;
                while (!restWatch.atRest(heap)) {
                    assertTrue(++steps <= MAX_STEPS, "not at rest after " + MAX_STEPS + " steps, torsion " + torsion);
                    heap.step(solver);
                }
                for (int s = 0; s < 200; s++) {
                    heap.step(solver);
                }
            }
            ParticleWorld world = heap.world();
            spin[run] = world.kineticEnergy() - world.translationalEnergy();
        }
        assertTrue(spin[0] > 1e-6 && spin[1] < 1e-9, "spin energy without torsion " + spin[0] + " J, with "
                + spin[1] + " J");
    }

    @Test
    void aFrictionlessHeapEndsOnceItsShapeStopsChanging() {
        Simulation frictionless = heap(0.0f, 0.0f);
        DemoScene.RestWatch restWatch = new DemoScene.RestWatch();
        int steps = 0;
        try (ContactSolver solver = Backends.cpu()) {
            boolean ended = false;
            while (!ended) {
                assertTrue(++steps <= 3 * MAX_STEPS, "still running after " + 3 * MAX_STEPS + " steps");
                frictionless.step(solver);
                ended = restWatch.atRest(frictionless);
            }
        }
        assertTrue(frictionless.allPoured());
        assertTrue(restWatch.reason().startsWith("shape settled"), restWatch.reason());
        // the shape test, not the energy test, ended the run (the reason above), with the spheres still moving
        ParticleWorld world = frictionless.world();
        assertTrue(world.translationalEnergy() > 0.0, "spheres still move");
        assertTrue(HeapSlope.measure(world).flat(), "spread flat");
    }

    /** Spheres filling a cone of 30 degrees: the measured slope is the cone's. */
    @Test
    void theSlopeOfAConeOfSpheresIsTheCone() {
        double degrees = 30.0;
        HeapSlope slope = HeapSlope.measure(cone(degrees, 0.3f, 20_000));
        assertFalse(slope.flat(), slope.toString());
        assertEquals(degrees, slope.degrees(), 2.0, slope.toString());
        assertTrue(slope.rings() >= 4, slope.toString());
        assertEquals(0.5, slope.axisX(), 5e-3, "the axis is the heap's own");
        assertEquals(0.4, slope.axisZ(), 5e-3, "the axis is the heap's own");
    }

    /** One layer on the floor, with a few spheres perched on it, is flat. */
    @Test
    void aSingleLayerIsFlat() {
        ParticleWorld layer = cone(0.0, 0.3f, 2_000);
        float r = ParticleWorld.MAX_RADIUS;
        float[][] perched = {{0.52f, 0.41f}, {0.31f, 0.25f}, {0.7f, 0.6f}, {0.45f, 0.62f}};
        for (float[] at : perched) {
            layer.setSphere(layer.count, r, 0.01f);
            layer.add(at[0], 3.0f * r, at[1], 0.0f, 0.0f, 0.0f);
        }
        HeapSlope slope = HeapSlope.measure(layer);
        assertTrue(slope.flat(), slope.toString());
        assertEquals(0.0, slope.degrees(), 2.0, slope.toString());
    }

    /**
     * A bowl (a layer with spheres piled at its rim) is no heap: it is reported flat at 0 degrees,
     * never a negative angle of repose or -0.0.
     */
    @Test
    void aBowlIsFlatAtZeroDegreesNotANegativeAngle() {
        ParticleWorld bowl = cone(0.0, 0.3f, 2_000);
        float r = ParticleWorld.MAX_RADIUS;
        for (int k = 0; k < 4; k++) {
            double angle = 0.5 * Math.PI * k;
            bowl.setSphere(bowl.count, r, 0.01f);
            bowl.add((float) (0.5 + 0.27 * Math.cos(angle)), 9.0f * r, (float) (0.4 + 0.27 * Math.sin(angle)),
                    0.0f, 0.0f, 0.0f);
        }
        HeapSlope slope = HeapSlope.measure(bowl);
        assertTrue(slope.flat(), slope.toString());
        assertEquals(0, Double.compare(slope.degrees(), 0.0), slope.toString());
    }

    private static Simulation heap(float friction, float rollingResistance) {
        return DemoScene.HEAP.simulation(PARTICLES, SEED,
                Simulation.Settings.of(DT, 0.3f, 10).withFriction(friction, rollingResistance)
                        .withScheme(Scheme.TWO_SOLVES));
    }

    private static float fastestSpin(ParticleWorld world) {
        float fastest = 0.0f;
        for (int i = 0; i < world.count; i++) {
            fastest = Math.max(fastest, (float) Math.sqrt(world.wx[i] * world.wx[i] + world.wy[i] * world.wy[i]
                    + world.wz[i] * world.wz[i]));
        }
        return fastest;
    }

    /**
     * {@code count} equal spheres at seeded random places inside a cone of the given angle and base
     * radius standing on the floor, centred at (0.5, 0.4): the top of each lies under the cone's
     * surface, uniformly in height, and the heap is dense enough that every sector of every ring
     * holds spheres close under the surface. Overlaps do not matter to the measurement.
     */
    private static ParticleWorld cone(double degrees, float baseRadius, int count) {
        float r = ParticleWorld.MAX_RADIUS;
        double tan = Math.tan(Math.toRadians(degrees));
        SplittableRandom random = new SplittableRandom(5);
        ParticleWorld world = new ParticleWorld(count + 4, 0, 1.0f, 1.0f, 0.8f); // room for a few more
        for (int i = 0; i < count; i++) {
            double distance = baseRadius * Math.sqrt(random.nextDouble());
            double angle = 2.0 * Math.PI * random.nextDouble();
            double surface = Math.max(2.0 * r, (baseRadius - distance) * tan);
            double top = 2.0 * r + (surface - 2.0 * r) * random.nextDouble();
            world.setSphere(i, r, 0.01f);
            world.add((float) (0.5 + distance * Math.cos(angle)), (float) (top - r),
                    (float) (0.4 + distance * Math.sin(angle)), 0.0f, 0.0f, 0.0f);
        }
        return world;
    }
}
