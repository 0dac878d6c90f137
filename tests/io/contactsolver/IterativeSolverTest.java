package io.contactsolver;

import io.contactsolver.layout.DeltaField;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.contactsolver.scene.Scene;
import io.contactsolver.scene.SceneGenerator;
import io.contactsolver.testing.Backends;
import io.contactsolver.testing.Bits;
import io.contactsolver.testing.ReferencePgs;
import io.contactsolver.testing.Scenes;
import org.joml.Vector3d;
import org.joml.Vector3f;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The iterative solver of docs/physics.md, "Several contacts: single pass and iterative solver", on
 * both backends, against a float64 oracle.
 */
class IterativeSolverTest {

    private static SolveResult solve(Backend backend, Scene scene, RigidSettings settings) {
        try (ContactSolver solver = Backends.open(backend)) {
            SolveResult result = solver.solve(scene.bodies(), scene.contacts(), settings, new SolveResult());
            assertEquals(backend, result.backend());
            assertEquals(SolverKind.ITERATIVE, result.solver());
            return result;
        }
    }

    /** Pairs of bodies with one contact each: nothing couples the contacts. */
    private static Scene isolatedPairs() {
        Scene scene = SceneGenerator.randomGraph(41, 2000, 0);
        ContactBatch contacts = scene.contacts();
        for (int pair = 0; pair + 1 < scene.bodies().size(); pair += 2) {
            Vector3f xa = scene.bodies().getPosition(pair, new Vector3f());
            Vector3f xb = scene.bodies().getPosition(pair + 1, new Vector3f());
            Vector3f n = new Vector3f(xb).sub(xa).normalize();
            Vector3f p = new Vector3f(xa).lerp(xb, 0.5f).add(0.1f, -0.2f, 0.05f);
            contacts.add(pair, pair + 1, p, n, (pair % 5) / 4.0f);
        }
        return scene;
    }

    @ParameterizedTest
    @EnumSource(value = Backend.class, names = {"CPU", "OPENCL"})
    void itsFirstIterationOnAnIsolatedContactIsTheSinglePassToTheBit(Backend backend) {
        Scene scene = isolatedPairs();
        SolveResult single = SinglePassPhysicsTest.solve(backend, scene.bodies(), scene.contacts());
        SolveResult first = solve(backend, scene, SolveSettings.iterative(1));
        Bits.assertIdentical(single, first, "single pass vs one iteration");
    }

    /**
     * Later iterations re-solve a row that is already solved: each sees {@code v_n} with an ulp or
     * so of rounding and corrects by that much, so the result hovers at the single pass within
     * float noise (measured: 4e-6 relative after 200 iterations) instead of staying on its bits.
     */
    @ParameterizedTest
    @EnumSource(value = Backend.class, names = {"CPU", "OPENCL"})
    void anIsolatedContactStaysAtTheSinglePassResult(Backend backend) {
        Scene scene = isolatedPairs();
        SolveResult single = SinglePassPhysicsTest.solve(backend, scene.bodies(), scene.contacts());
        SolveResult converged = solve(backend, scene, SolveSettings.iterative(200));
        for (int c = 0; c < scene.contacts().size(); c++) {
            SinglePassPhysicsTest.assertNear(single.impulse(c), converged.impulse(c), 1e-5, "j of contact " + c);
        }
        for (int i = 0; i < scene.bodies().size(); i++) {
            for (DeltaField field : DeltaField.values()) {
                SinglePassPhysicsTest.assertNear(single.delta(field, i), converged.delta(field, i), 1e-5,
                        field + " of body " + i);
            }
        }
    }

    /** Ten boxes on the world, e = 0: nothing approaches afterwards, and complementarity holds. */
    @ParameterizedTest
    @EnumSource(value = Backend.class, names = {"CPU", "OPENCL"})
    void aStackOfBoxesStopsWithComplementarity(Backend backend) {
        Scene scene = SceneGenerator.boxStack(10, 0.0f, 7);
        SolveResult result = solve(backend, scene, SolveSettings.iterative(1000));
        ReferencePgs reference = ReferencePgs.solve(scene.bodies(), scene.contacts(), 0.0, 200_000);
        double largest = 0.0;
        for (int c = 0; c < scene.contacts().size(); c++) {
            double after = normalVelocityAfter(scene, result, c);
            largest = Math.max(largest, result.impulse(c));
            assertTrue(after >= -1e-4, "contact " + c + " still approaches at " + after);
            if (result.impulse(c) > 1e-3) {
                assertEquals(0.0, after, 1e-4, "contact " + c + " pushes (j = " + result.impulse(c) + "), so v_n' = 0");
            }
        }
        assertTrue(largest > 1.0, "the stack must be pushed");
        assertDeltasMatch(reference, result, scene, 1e-3);
    }

    /** A ball runs into a row of touching balls, e = 0: the whole row moves on together. */
    @ParameterizedTest
    @EnumSource(value = Backend.class, names = {"CPU", "OPENCL"})
    void aRowOfTouchingBallsMovesOnTogether(Backend backend) {
        int count = 8;
        Scene scene = Scenes.ballRow(count, 4.0f, 0.0f);
        SolveResult result = solve(backend, scene, SolveSettings.iterative(2000).withTolerance(1e-7f));
        for (int i = 0; i < count; i++) {
            Vector3f v = scene.bodies().getLinearVelocity(i, new Vector3f()).add(result.getLinearDelta(i, new Vector3f()));
            assertEquals(4.0 / count, v.x, 1e-4, "ball " + i + " ends with the row's common speed");
            assertEquals(0.0f, v.y);
        }
        assertTrue(result.iterations() < 2000, "converged before the limit: " + result.iterations());
        assertTrue(result.residual() <= 1e-7f);
    }

    /** With e = 1 the row has no closed form; the float64 oracle decides. */
    @ParameterizedTest
    @EnumSource(value = Backend.class, names = {"CPU", "OPENCL"})
    void aRowOfElasticBallsMatchesTheFloat64Solution(Backend backend) {
        Scene scene = Scenes.ballRow(6, 3.0f, 1.0f);
        SolveResult result = solve(backend, scene, SolveSettings.iterative(3000));
        assertDeltasMatch(ReferencePgs.solve(scene.bodies(), scene.contacts(), 0.0, 1_000_000), result, scene, 1e-4);
    }

    @ParameterizedTest
    @EnumSource(value = Backend.class, names = {"CPU", "OPENCL"})
    void randomClustersMatchTheFloat64SolutionAndConserveMomentum(Backend backend) {
        Scene scene = SceneGenerator.randomGraph(17, 300, 700);
        SolveResult result = solve(backend, scene, SolveSettings.iterative(3000));
        assertDeltasMatch(ReferencePgs.solve(scene.bodies(), scene.contacts(), 0.0, 1_000_000), result, scene, 2e-3);
        // linear momentum: what dynamic bodies gained, static bodies and the world gave
        Vector3d total = new Vector3d();
        double scale = 0.0;
        for (int i = 0; i < scene.bodies().size(); i++) {
            if (!scene.bodies().isStatic(i)) {
                total.add(new Vector3d(result.getLinearDelta(i, new Vector3f())).div(scene.bodies().inverseMass(i)));
            }
        }
        for (int c = 0; c < scene.contacts().size(); c++) {
            Vector3d impulse = new Vector3d(scene.contacts().getNormal(c, new Vector3f())).mul(result.impulse(c));
            scale += result.impulse(c);
            int a = scene.contacts().bodyA(c), b = scene.contacts().bodyB(c);
            if (a < 0 || scene.bodies().isStatic(a)) {
                total.sub(impulse);
            }
            if (b < 0 || scene.bodies().isStatic(b)) {
                total.add(impulse);
            }
        }
        assertTrue(total.length() < 1e-5 * scale, "momentum change " + total + " for total impulse " + scale);
    }

    @ParameterizedTest
    @EnumSource(value = Backend.class, names = {"CPU", "OPENCL"})
    void contactsBeyondTheColourBudgetAreSolvedInTheOverflow(Backend backend) {
        Scene scene = SceneGenerator.randomGraph(17, 300, 700);
        SolveResult result = solve(backend, scene, SolveSettings.iterative(3000).withColourBudget(3));
        assertEquals(3, result.colourCount());
        assertTrue(result.overflowCount() > 50, "overflow " + result.overflowCount());
        assertDeltasMatch(ReferencePgs.solve(scene.bodies(), scene.contacts(), 0.0, 1_000_000), result, scene, 2e-3);
    }

    @ParameterizedTest
    @EnumSource(value = Backend.class, names = {"CPU", "OPENCL"})
    void theRestitutionThresholdStopsSlowContactsBouncing(Backend backend) {
        Scene scene = Scenes.ballRow(2, 0.5f, 1.0f);
        SolveResult bouncing = solve(backend, scene, SolveSettings.iterative(10));
        SolveResult damped = solve(backend, scene, SolveSettings.iterative(10).withRestitutionThreshold(1.0f));
        assertEquals(0.5, normalVelocityAfter(scene, bouncing, 0), 1e-6, "e = 1: v_n' = -v_n");
        assertEquals(0.0, normalVelocityAfter(scene, damped, 0), 1e-6, "slower than the threshold: no bounce");
        SolveResult singlePass;
        try (ContactSolver solver = Backends.open(backend)) {
            singlePass = solver.solve(scene.bodies(), scene.contacts(),
                    SolveSettings.singlePass().withRestitutionThreshold(1.0f), new SolveResult());
        }
        assertEquals(0.0, normalVelocityAfter(scene, singlePass, 0), 1e-6, "the single pass honours it too");
    }

    @ParameterizedTest
    @EnumSource(value = Backend.class, names = {"CPU", "OPENCL"})
    void aWarmStartReachesTheSameAnswerInFewerIterations(Backend backend) {
        Scene scene = SceneGenerator.boxStack(10, 0.0f, 3);
        RigidSettings settings = SolveSettings.iterative(5000).withTolerance(1e-5f);
        try (ContactSolver solver = Backends.open(backend)) {
            SolveResult cold = solver.solve(scene.bodies(), scene.contacts(), settings, new SolveResult());
            SolveResult warm = solver.solve(scene.bodies(), scene.contacts(), settings, cold, new SolveResult());
            assertTrue(cold.iterations() > 20, "cold start needs real work: " + cold.iterations());
            assertTrue(warm.iterations() * 4 < cold.iterations(), "warm " + warm.iterations() + " vs cold "
                    + cold.iterations());
            for (int i = 0; i < scene.bodies().size(); i++) {
                for (DeltaField field : DeltaField.values()) {
                    assertEquals(cold.delta(field, i), warm.delta(field, i), 2e-4, field + " of body " + i);
                }
            }
        }
    }

    @Test
    void aWarmStartMatchesImpulsesById() {
        Scene scene = SceneGenerator.boxStack(3, 0.0f, 5);
        try (ContactSolver solver = Backends.cpu()) {
            RigidSettings settings = SolveSettings.iterative(500);
            SolveResult previous = solver.solve(scene.bodies(), scene.contacts(), settings, new SolveResult());
            // the same contacts in reverse order with their ids: the match must follow the ids
            ContactBatch reversed = new ContactBatch();
            for (int c = scene.contacts().size() - 1; c >= 0; c--) {
                int copy = reversed.add(scene.contacts().bodyA(c), scene.contacts().bodyB(c),
                        scene.contacts().getPoint(c, new Vector3f()), scene.contacts().getNormal(c, new Vector3f()),
                        scene.contacts().restitution(c));
                reversed.setId(copy, scene.contacts().id(c));
            }
            SolveResult warm = solver.solve(scene.bodies(), reversed, SolveSettings.iterative(1).withTolerance(1e-4f),
                    previous, new SolveResult());
            assertTrue(warm.residual() < 1e-3f, "started at the answer, residual " + warm.residual());
            for (int c = 0; c < reversed.size(); c++) {
                assertEquals(reversed.id(c), warm.contactId(c));
            }
        }
    }

    @Test
    void aWarmStartRefusesDuplicateContactIdsAndSharingTheResult() {
        Scene scene = SceneGenerator.boxStack(2, 0.0f, 5);
        try (ContactSolver solver = Backends.cpu()) {
            SolveResult previous = solver.solve(scene.bodies(), scene.contacts(), SolveSettings.iterative(5),
                    new SolveResult());
            scene.contacts().setId(5, scene.contacts().id(2));
            InvalidInputException duplicate = assertThrows(InvalidInputException.class, () -> solver.solve(
                    scene.bodies(), scene.contacts(), SolveSettings.iterative(5), previous, new SolveResult()));
            assertEquals(5, duplicate.index());
            assertTrue(duplicate.problem().startsWith("duplicate contact id"));
            assertThrows(IllegalArgumentException.class, () -> solver.solve(scene.bodies(), scene.contacts(),
                    SolveSettings.iterative(5), previous, previous));
        }
    }

    @Test
    void iterationCountAndResidualAreReported() {
        Scene scene = SceneGenerator.boxStack(10, 0.0f, 9);
        try (ContactSolver solver = Backends.cpu()) {
            SolveResult capped = solver.solve(scene.bodies(), scene.contacts(), SolveSettings.iterative(3),
                    new SolveResult());
            assertEquals(3, capped.iterations());
            assertTrue(capped.residual() > 1e-3f, "three iterations cannot settle a stack: " + capped.residual());
            SolveResult early = solver.solve(scene.bodies(), scene.contacts(),
                    SolveSettings.iterative(100_000).withTolerance(1e-4f), new SolveResult());
            assertTrue(early.iterations() < 100_000);
            assertTrue(early.residual() <= 1e-4f);
            SolveResult oneLess = solver.solve(scene.bodies(), scene.contacts(),
                    SolveSettings.iterative(early.iterations() - 1), new SolveResult());
            assertTrue(oneLess.residual() > 1e-4f, "the exit was the first iteration under the tolerance");
        }
    }

    // ---- helpers ----------------------------------------------------------------------------

    static double normalVelocityAfter(Scene scene, SolveResult result, int c) {
        double[][] deltas = new double[result.bodyCount()][6];
        for (int i = 0; i < result.bodyCount(); i++) {
            for (DeltaField field : DeltaField.values()) {
                deltas[i][field.ordinal()] = result.delta(field, i);
            }
        }
        ContactBatch contacts = scene.contacts();
        Vector3d p = new Vector3d(contacts.getPoint(c, new Vector3f()));
        Vector3d n = new Vector3d(contacts.getNormal(c, new Vector3f()));
        Vector3d[] velocity = new Vector3d[2];
        for (int side = 0; side < 2; side++) {
            int body = side == 0 ? contacts.bodyA(c) : contacts.bodyB(c);
            Vector3d r = body < 0 ? new Vector3d()
                    : new Vector3d(p).sub(new Vector3d(scene.bodies().getPosition(body, new Vector3f())));
            velocity[side] = ReferencePgs.pointVelocity(scene.bodies(), body, r, deltas);
        }
        return velocity[1].sub(velocity[0]).dot(n);
    }

    /** Body velocity changes within {@code relative} of the oracle's, scaled by the largest change. */
    static void assertDeltasMatch(ReferencePgs reference, SolveResult result, Scene scene, double relative) {
        double scale = 1e-9;
        for (double[] delta : reference.deltas) {
            for (double value : delta) {
                scale = Math.max(scale, Math.abs(value));
            }
        }
        double worst = 0.0;
        String where = "";
        for (int i = 0; i < scene.bodies().size(); i++) {
            for (DeltaField field : DeltaField.values()) {
                double error = Math.abs(result.delta(field, i) - reference.deltas[i][field.ordinal()]);
                if (error > worst) {
                    worst = error;
                    where = field + " of body " + i;
                }
            }
        }
        assertTrue(worst <= relative * scale, "largest difference from float64 " + worst + " at " + where
                + " (scale " + scale + ", oracle iterations " + reference.iterations + ")");
    }
}
