package io.contactsolver.opencl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.contactsolver.Backend;
import io.contactsolver.ContactSolver;
import io.contactsolver.FrictionInvariantsTestAccess;
import io.contactsolver.RigidSettings;
import io.contactsolver.SolveResult;
import io.contactsolver.SolveSettings;
import io.contactsolver.SolverKind;
import io.contactsolver.layout.BodyField;
import io.contactsolver.scene.Scene;
import io.contactsolver.scene.SceneGenerator;
import io.contactsolver.testing.Backends;
import io.contactsolver.testing.Bits;
import io.contactsolver.testing.FrictionScenes;
import java.util.SplittableRandom;
import org.joml.Vector3f;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Friction, rolling and torsional resistance on the OpenCL kernels against the CPU path they
 * mirror, and the CPU path against itself across thread counts: the same bits (deltas, all seven
 * impulse fields, iteration figures), on random scenes of 120,000 contacts with many contacts per
 * body, static bodies, particles, the world, shuffled ids, and friction, rolling and torsional
 * resistance random with some of each zero.
 */
class FrictionAgreementTest {

    private static Scene frictionalScene(long seed, int bodies, int contacts) {
        Scene scene = SceneGenerator.randomGraph(seed, bodies, contacts);
        FrictionScenes.randomFriction(new SplittableRandom(seed), scene.contacts());
        return scene;
    }

    /** Which coefficients a torsion scene keeps besides its torsional resistance. */
    enum Mix {
        /** Friction and rolling resistance too: every row field and impulse in use. */
        ALL,
        /** Friction, no rolling resistance: the rolling fields kept but unused. */
        FRICTION,
        /** Torsional resistance alone: every tangent and rolling pair switched off. */
        TORSION_ONLY
    }

    private static Scene torsionScene(long seed, int bodies, int contacts, Mix mix) {
        Scene scene = frictionalScene(seed, bodies, contacts);
        FrictionScenes.randomTorsion(new SplittableRandom(seed + 1), scene.contacts());
        for (int c = 0; c < scene.contacts().size(); c++) {
            if (mix != Mix.ALL) {
                scene.contacts().setRollingResistance(c, 0.0f);
            }
            if (mix == Mix.TORSION_ONLY) {
                scene.contacts().setFriction(c, 0.0f);
            }
        }
        return scene;
    }

    /**
     * The twist row: CPU (one thread and a team) and OpenCL give the same bits cold, warm-started
     * after the normals turned (the twist carried along the new normal, clamped into its limit) and
     * with a colour budget that leaves overflow rows, for each mix of coefficients a batch with
     * torsion may have.
     */
    @ParameterizedTest
    @EnumSource(Mix.class)
    void iterativeSolveWithTorsionIsBitIdentical(Mix mix) {
        int contacts = mix == Mix.ALL ? 120_000 : 30_000;
        Scene scene = torsionScene(3006, contacts / 6, contacts, mix);
        try (ContactSolver one = Backends.cpu(1); ContactSolver team = Backends.cpu(3);
                ContactSolver openCl = Backends.openClOrSkip()) {
            for (RigidSettings settings : new RigidSettings[] {SolveSettings.iterative(20),
                SolveSettings.iterative(12).withColourBudget(6)}) {
                SolveResult expected = one.solve(scene.bodies(), scene.contacts(), settings, new SolveResult());
                assertTwisted(scene, expected);
                SolveResult actual = openCl.solve(scene.bodies(), scene.contacts(), settings, new SolveResult());
                assertEquals(Backend.OPENCL, actual.backend());
                Bits.assertIdentical(expected, actual, mix + ", " + settings + ", CPU vs OpenCL");
                assertEquals(expected.iterations(), actual.iterations(), "iterations " + settings);
                assertEquals(expected.residual(), actual.residual(), "residual " + settings);
                SolveResult parallel = team.solve(scene.bodies(), scene.contacts(), settings, new SolveResult());
                Bits.assertIdentical(expected, parallel, mix + ", " + settings + ", 1 vs 3 threads");

                Scene turned = torsionScene(3006, contacts / 6, contacts, mix);
                turnNormals(turned, 0.1);
                SolveResult expectedNext = one.solve(turned.bodies(), turned.contacts(), settings, expected,
                        new SolveResult());
                assertTwisted(turned, expectedNext);
                Bits.assertIdentical(expectedNext, openCl.solve(turned.bodies(), turned.contacts(), settings, actual,
                        new SolveResult()), mix + ", warm-started " + settings + ", CPU vs OpenCL");
                Bits.assertIdentical(expectedNext, team.solve(turned.bodies(), turned.contacts(), settings, parallel,
                        new SolveResult()), mix + ", warm-started " + settings + ", 1 vs 3 threads");
            }
        }
    }

    /** The comparison means something only if the twist acted: many contacts with an angular impulse along n. */
    private static void assertTwisted(Scene scene, SolveResult result) {
        int twisted = 0;
        Vector3f n = new Vector3f();
        Vector3f r = new Vector3f();
        for (int c = 0; c < result.contactCount(); c++) {
            scene.contacts().getNormal(c, n);
            result.getRollingImpulse(c, r);
            twisted += Math.abs(r.dot(n)) > 1e-3f * r.length() && r.lengthSquared() > 0 ? 1 : 0;
        }
        assertTrue(twisted > result.contactCount() / 5, "contacts with a twist: " + twisted);
    }

    @Test
    void singlePassIsBitIdentical() {
        Scene scene = frictionalScene(3001, 20_000, 120_000);
        try (ContactSolver cpu = Backends.cpu(); ContactSolver openCl = Backends.openClOrSkip()) {
            SolveResult expected = cpu.solve(scene.bodies(), scene.contacts(), new SolveResult());
            SolveResult actual = openCl.solve(scene.bodies(), scene.contacts(), new SolveResult());
            assertEquals(Backend.OPENCL, actual.backend());
            assertFrictional(expected, false);
            Bits.assertIdentical(expected, actual, "single pass, CPU vs OpenCL");
        }
    }

    @Test
    void iterativeSolveIsBitIdenticalColdAndWarmStarted() {
        Scene scene = frictionalScene(3002, 20_000, 120_000);
        try (ContactSolver cpu = Backends.cpu(); ContactSolver openCl = Backends.openClOrSkip()) {
            for (RigidSettings settings : new RigidSettings[] {SolveSettings.iterative(20),
                SolveSettings.iterative(12).withColourBudget(6).withRestitutionThreshold(0.5f)}) {
                SolveResult expected = cpu.solve(scene.bodies(), scene.contacts(), settings, new SolveResult());
                SolveResult actual = openCl.solve(scene.bodies(), scene.contacts(), settings, new SolveResult());
                assertEquals(Backend.OPENCL, actual.backend());
                assertFrictional(expected, true);
                Bits.assertIdentical(expected, actual, settings.toString());
                assertEquals(expected.iterations(), actual.iterations(), "iterations " + settings);
                assertEquals(expected.residual(), actual.residual(), "residual " + settings);
                assertEquals(expected.overflowCount(), actual.overflowCount(), "overflow " + settings);

                // the next step, warm-started on each backend from its own result, after the normals
                // turned: the carried vectors are projected and clamped the same way
                Scene turned = frictionalScene(3002, 20_000, 120_000);
                turnNormals(turned, 0.1);
                SolveResult expectedNext = cpu.solve(turned.bodies(), turned.contacts(), settings, expected,
                        new SolveResult());
                SolveResult actualNext = openCl.solve(turned.bodies(), turned.contacts(), settings, actual,
                        new SolveResult());
                Bits.assertIdentical(expectedNext, actualNext, "warm-started " + settings);
            }
        }
    }

    /**
     * Targets other than {@code -e v_n}: positional correction (speculative gaps and Baumgarte
     * overlap) and the restitution threshold, with friction and rolling resistance, both solvers.
     */
    @Test
    void otherTargetsWithFrictionAreBitIdentical() {
        Scene scene = frictionalScene(3005, 5000, 30_000);
        SplittableRandom random = new SplittableRandom(5);
        for (int c = 0; c < scene.contacts().size(); c++) {
            scene.contacts().setSeparation(c, (float) (random.nextDouble() * 0.2 - 0.12));
        }
        try (ContactSolver cpu = Backends.cpu(); ContactSolver openCl = Backends.openClOrSkip()) {
            for (RigidSettings settings : new RigidSettings[] {SolveSettings.singlePass(), SolveSettings.iterative(10)}) {
                for (RigidSettings target : new RigidSettings[] {
                    settings.withPositionalCorrection(0.2f, 0.005f),
                    settings.withRestitutionThreshold(1.0f)}) {
                    float dt = 1.0f / 60.0f;
                    SolveResult expected = cpu.solve(scene.bodies(), scene.contacts(), target, dt, null,
                            new SolveResult());
                    assertFrictional(expected, settings.kind() == SolverKind.ITERATIVE);
                    Bits.assertIdentical(expected, openCl.solve(scene.bodies(), scene.contacts(), target, dt, null,
                            new SolveResult()), target.toString());
                    FrictionInvariantsTestAccess.assertInsideCones(scene, expected, target);
                }
            }
        }
    }

    /** The device keeps its own bodies between steps; with friction the trajectory is still the CPU's, bit for bit. */
    @Test
    void deviceResidentStepsFollowTheCpuTrajectory() {
        Scene onCpu = frictionalScene(3003, 20_000, 100_000);
        Scene onDevice = frictionalScene(3003, 20_000, 100_000);
        RigidSettings settings = SolveSettings.iterative(8);
        Vector3f gravity = new Vector3f(0.0f, -9.81f, 0.0f);
        try (ContactSolver cpu = Backends.cpu(); ContactSolver openCl = Backends.openClOrSkip()) {
            SolveResult[] cpuResults = {new SolveResult(), new SolveResult()};
            SolveResult[] deviceResults = {new SolveResult(), new SolveResult()};
            for (int step = 0; step < 4; step++) {
                SolveResult expected = cpu.step(onCpu.bodies(), onCpu.contacts(), settings, gravity, 1.0f / 60.0f,
                        step == 0 ? null : cpuResults[(step + 1) & 1], cpuResults[step & 1]);
                SolveResult actual = openCl.step(onDevice.bodies(), onDevice.contacts(), settings, gravity, 1.0f / 60.0f,
                        step == 0 ? null : deviceResults[(step + 1) & 1], deviceResults[step & 1]);
                assertEquals(Backend.OPENCL, actual.backend());
                Bits.assertIdentical(expected, actual, "step " + step);
            }
            assertFrictional(cpuResults[1], true);
        }
        for (int i = 0; i < onCpu.bodies().size(); i++) {
            for (BodyField field : BodyField.values()) {
                assertEquals(Float.floatToRawIntBits(onCpu.bodies().get(field, i)),
                        Float.floatToRawIntBits(onDevice.bodies().get(field, i)), field + " of body " + i);
            }
        }
    }

    @Test
    void cpuResultsDoNotDependOnTheThreadCount() {
        Scene scene = frictionalScene(3004, 20_000, 120_000);
        SolveResult singlePass;
        SolveResult iterative;
        SolveResult warm;
        RigidSettings settings = SolveSettings.iterative(10);
        try (ContactSolver one = Backends.cpu(1)) {
            singlePass = one.solve(scene.bodies(), scene.contacts(), new SolveResult());
            iterative = one.solve(scene.bodies(), scene.contacts(), settings, new SolveResult());
            warm = one.solve(scene.bodies(), scene.contacts(), settings, iterative, new SolveResult());
        }
        assertFrictional(singlePass, false);
        assertFrictional(iterative, true);
        for (int threads : new int[] {2, 5}) {
            try (ContactSolver many = Backends.cpu(threads)) {
                Bits.assertIdentical(singlePass, many.solve(scene.bodies(), scene.contacts(), new SolveResult()),
                        "single pass, 1 vs " + threads + " threads");
                SolveResult parallel = many.solve(scene.bodies(), scene.contacts(), settings, new SolveResult());
                Bits.assertIdentical(iterative, parallel, "iterative, 1 vs " + threads + " threads");
                Bits.assertIdentical(warm, many.solve(scene.bodies(), scene.contacts(), settings, parallel,
                        new SolveResult()), "warm-started, 1 vs " + threads + " threads");
            }
        }
    }

    private static void turnNormals(Scene scene, double amount) {
        SplittableRandom random = new SplittableRandom(77);
        Vector3f n = new Vector3f();
        for (int c = 0; c < scene.contacts().size(); c++) {
            scene.contacts().getNormal(c, n).add((float) random.nextDouble(-amount, amount),
                    (float) random.nextDouble(-amount, amount), (float) random.nextDouble(-amount, amount)).normalize();
            scene.contacts().setNormal(c, n);
        }
    }

    /** The comparison means something only if friction (and, iterating, rolling resistance) acted. */
    private static void assertFrictional(SolveResult result, boolean rolling) {
        int tangential = 0;
        int rolled = 0;
        for (int c = 0; c < result.contactCount(); c++) {
            tangential += result.getTangentImpulse(c, new Vector3f()).lengthSquared() > 0 ? 1 : 0;
            rolled += result.getRollingImpulse(c, new Vector3f()).lengthSquared() > 0 ? 1 : 0;
        }
        assertTrue(tangential > result.contactCount() / 5, "contacts with friction impulses: " + tangential);
        assertTrue(tangential < result.contactCount(), "some contacts must be frictionless or separating");
        if (rolling) {
            assertTrue(rolled > result.contactCount() / 5, "contacts with rolling impulses: " + rolled);
        }
    }
}
