package io.contactsolver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.contactsolver.core.InputMagnitudes;
import io.contactsolver.core.InputValidator;
import io.contactsolver.core.ParallelRunner;
import io.contactsolver.cpu.Integrator;
import io.contactsolver.cpu.NormalRows;
import java.util.Random;
import org.joml.Quaternionf;
import org.junit.jupiter.api.Test;

/**
 * The shortcut that spares ordinary batches the host's evaluation of every normal row is sound:
 * wherever the magnitudes the validator gathers say that every {@code K} and {@code v_n} is finite,
 * evaluating every row as the solvers do finds none that is not, up to the bound's edge, on bodies
 * built to make the rows as large as their magnitudes allow.
 */
class NormalRowBoundTest {
    private static final int BODIES = 24;
    private static final float GRAVITY = -9.81f;

    /** Which magnitude a sweep grows, by a factor of 2 a batch, until the bound gives up. */
    private enum Grown {
        INVERSE_INERTIA, INVERSE_MASS, REACH, LINEAR_VELOCITY, ANGULAR_VELOCITY, TIME_STEP
    }

    @Test
    void whereTheMagnitudesBoundTheRowsEveryRowIsFinite() {
        try (ParallelRunner runner = new ParallelRunner(1)) {
            for (Grown grown : Grown.values()) {
                for (long seed = 1; seed <= 4; seed++) {
                    int bounded = 0;
                    for (int doubling = 0; doubling < 300; doubling++) {
                        double factor = Math.pow(2.0, doubling);
                        if (!bounded(grown, factor, seed, runner)) {
                            break;
                        }
                        bounded++;
                    }
                    assertTrue(bounded > 0 && bounded < 300, grown + ", seed " + seed + ": bounded for " + bounded
                            + " doublings; the sweep must cross the bound's edge");
                }
            }
        }
    }

    /**
     * Builds the batch with {@code grown} scaled by {@code factor}; if its magnitudes bound the rows
     * (for a step, with gravity's slack, after gravity is applied), asserts every row finite.
     *
     * @return whether the magnitudes bound the rows
     */
    private static boolean bounded(Grown grown, double factor, long seed, ParallelRunner runner) {
        float inertia = scaled(1.0, grown == Grown.INVERSE_INERTIA, factor);
        float mass = scaled(1.0, grown == Grown.INVERSE_MASS, factor);
        float reach = scaled(10.0, grown == Grown.REACH, factor);
        float speed = scaled(1.0, grown == Grown.LINEAR_VELOCITY, factor);
        float spin = scaled(1.0, grown == Grown.ANGULAR_VELOCITY, factor);
        float timeStep = scaled(0.01, grown == Grown.TIME_STEP, factor);
        BodyBatch bodies = new BodyBatch();
        ContactBatch contacts = new ContactBatch();
        fill(bodies, contacts, new Random(seed), inertia, mass, reach, speed, spin);
        InputMagnitudes magnitudes = InputValidator.validate(bodies.block(), bodies.size(), contacts.floatBlock(),
                contacts.linkBlock(), contacts.size(), null, runner);
        double slack = grown == Grown.TIME_STEP ? Math.abs(GRAVITY) * (double) timeStep : 0.0;
        if (!magnitudes.boundNormalRows(slack)) {
            return false;
        }
        if (grown == Grown.TIME_STEP) {
            for (int i = 0; i < bodies.size(); i++) {
                Integrator.applyGravity(bodies.block(), i, 0.0f, GRAVITY, 0.0f, timeStep);
            }
        }
        assertEquals(-1, NormalRows.firstNonFinite(bodies.block(), contacts.floatBlock(), contacts.linkBlock(),
                contacts.size(), runner), grown + " x" + factor + ", seed " + seed);
        return true;
    }

    private static float scaled(double base, boolean grown, double factor) {
        return (float) (grown ? base * factor : base);
    }

    /**
     * Bodies at the corners of the reach, with orientations and normals at the validator's
     * tolerance, rank-one inverse inertias whose every entry is {@code inertia} (as large as their
     * magnitude allows), and velocities of full magnitude; each touched by the world and its
     * neighbour at the opposite corner.
     */
    private static void fill(BodyBatch bodies, ContactBatch contacts, Random random, float inertia, float mass,
            float reach, float speed, float spin) {
        for (int i = 0; i < BODIES; i++) {
            int body = bodies.add();
            float half = reach / 2;
            float sx = sign(random);
            float sy = sign(random);
            float sz = sign(random);
            bodies.setInverseMass(body, mass)
                    .setInverseInertia(body, inertia, inertia, inertia, sx * sy * inertia, sx * sz * inertia,
                            sy * sz * inertia)
                    .setPosition(body, sign(random) * half, sign(random) * half, sign(random) * half)
                    .setLinearVelocity(body, sign(random) * speed, sign(random) * speed, sign(random) * speed)
                    .setAngularVelocity(body, sign(random) * spin, sign(random) * spin, sign(random) * spin);
            // a quaternion of norm 1 + 0.9e-4, inside the tolerance of 1e-4
            float q = (1.0f + 0.9e-4f) / 2;
            bodies.setOrientation(body, new Quaternionf(sign(random) * q, sign(random) * q, sign(random) * q, q));
            // a normal of length 1 + 0.9e-3, inside the tolerance of 1e-3
            float n = (float) ((1.0 + 0.9e-3) / Math.sqrt(3.0));
            float nx = sign(random) * n;
            float ny = sign(random) * n;
            float nz = sign(random) * n;
            contacts.add(ContactBatch.WORLD, body, -sign(random) * half, -sign(random) * half, -sign(random) * half,
                    nx, ny, nz, 0.5f);
            if (i > 0) {
                contacts.add(body - 1, body, -sign(random) * half, -sign(random) * half, -sign(random) * half,
                        nx, ny, nz, 0.5f);
            }
        }
    }

    private static float sign(Random random) {
        return random.nextBoolean() ? 1.0f : -1.0f;
    }
}
