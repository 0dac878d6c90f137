package io.contactsolver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.contactsolver.scene.BoxContacts;
import io.contactsolver.scene.BoxScene;
import io.contactsolver.testing.Backends;
import org.joml.Quaternionf;
import org.joml.Vector3f;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The soft step holds stacked boxes at Box3D's budget (docs/physics.md, "Soft step"): 60 Hz, 4
 * substeps of one soft and one relax sweep, contacts from the bench's box collision (four corner
 * points a face, one manifold a pair, 2 cm speculative margin, ids kept while a contact lasts)
 * found before every step. Each test measures where the boxes went, how they turned, how fast they
 * still move and how far they sank, and {@link #aRunWithoutContactsFailsEveryCheck} shows that
 * those checks fail for boxes that fall.
 */
class SoftStepStackingTest {
    private static final float DT = 1.0f / 60.0f;
    private static final float G = 10.0f;

    /** What a run did to its boxes. */
    record Outcome(float sideways, float outOfPlane, float tiltDegrees, float topSink, float fastest,
            double kineticEnergy, float recycledShare, float topRise, double[] energyByTenth) {
        /**
         * Whether every box stayed within {@code reach} m sideways and {@code tilt} degrees, the top
         * sank (by less than a box) rather than fell, and all move slower than {@code restSpeed} m/s.
         */
        boolean stands(float reach, float tilt, float restSpeed) {
            return sideways < reach && tiltDegrees < tilt && fastest < restSpeed && topSink > 0.0f && topSink < 0.5f;
        }

        @Override
        public String toString() {
            return String.format(java.util.Locale.ROOT, "sideways %.4f m, out of plane %.4f m, tilt %.2f deg, top sank "
                    + "%.4f m and rose at most %.5f m, fastest %.2e m/s, kinetic energy %.2e J (each tenth of the run: %s), "
                    + "%.1f%% recycled", sideways, outOfPlane, tiltDegrees, topSink, topRise, fastest, kineticEnergy,
                    java.util.Arrays.toString(energyByTenth), 100.0f * recycledShare);
        }
    }

    private static double kineticEnergy(BodyBatch bodies, float halfExtent) {
        double energy = 0.0;
        Vector3f v = new Vector3f();
        for (int i = 0; i < bodies.size(); i++) {
            bodies.getLinearVelocity(i, v);
            energy += 0.5 * v.lengthSquared() / bodies.inverseMass(i);
            bodies.getAngularVelocity(i, v);
            energy += 0.5 * v.lengthSquared() * (2.0f * halfExtent) * (2.0f * halfExtent)
                    / (6.0 * bodies.inverseMass(i)); // a cube's I = m s^2 / 6
        }
        return energy;
    }

    /**
     * Runs {@code scene} for {@code steps} steps with {@code settings}; with {@code contacts} false the
     * collision's contacts are dropped before every step (a planted failure: the boxes fall).
     */
    private static Outcome run(BoxScene scene, int steps, SolveSettings settings, boolean contacts) {
        return run(scene, steps, settings, contacts, DT);
    }

    /** As {@link #run(BoxScene, int, SolveSettings, boolean)}, stepping {@code dt} seconds; the energy sampled every tenth of the run. */
    private static Outcome run(BoxScene scene, int steps, SolveSettings settings, boolean contacts, float dt) {
        BodyBatch bodies = scene.bodies();
        int count = bodies.size();
        Vector3f[] start = new Vector3f[count];
        for (int i = 0; i < count; i++) {
            start[i] = bodies.getPosition(i, new Vector3f());
        }
        int top = count - 1;
        BoxContacts collision = new BoxContacts(scene.halfExtent(), 0.02f, BoxContacts.DEFAULT_FRICTION);
        ContactBatch batch = new ContactBatch();
        SolveResult[] results = {new SolveResult(), new SolveResult()};
        Vector3f gravity = new Vector3f(0.0f, -G, 0.0f);
        Vector3f now = new Vector3f();
        Quaternionf turn = new Quaternionf();
        float sideways = 0.0f;
        float outOfPlane = 0.0f;
        float tilt = 0.0f;
        float topRise = 0.0f;
        long recycled = 0;
        long points = 0;
        int sample = Math.max(1, steps / 10);
        double[] energyByTenth = new double[steps / sample];
        try (ContactSolver solver = Backends.open(Backend.CPU)) {
            for (int step = 0; step < steps; step++) {
                collision.find(bodies, batch);
                if (!contacts) {
                    batch.clear();
                }
                SolveResult result = solver.step(bodies, batch, settings, gravity, dt,
                        step == 0 ? null : results[(step + 1) & 1], results[step & 1]);
                recycled += result.recycledCount();
                points += batch.size();
                for (int i = 0; i < count; i++) {
                    bodies.getPosition(i, now);
                    sideways = Math.max(sideways, (float) Math.hypot(now.x - start[i].x, now.z - start[i].z));
                    outOfPlane = Math.max(outOfPlane, Math.abs(now.z - start[i].z));
                    bodies.getOrientation(i, turn);
                    tilt = Math.max(tilt, (float) Math.toDegrees(2.0 * Math.acos(Math.min(1.0, Math.abs(turn.w)))));
                }
                topRise = Math.max(topRise, bodies.getPosition(top, now).y - start[top].y);
                if ((step + 1) % sample == 0) {
                    energyByTenth[step / sample] = (float) kineticEnergy(bodies, scene.halfExtent());
                }
            }
        }
        float fastest = 0.0f;
        Vector3f v = new Vector3f();
        for (int i = 0; i < count; i++) {
            fastest = Math.max(fastest, bodies.getLinearVelocity(i, v).length());
            fastest = Math.max(fastest, bodies.getAngularVelocity(i, v).length() * scene.halfExtent());
        }
        float topSink = start[top].y - bodies.getPosition(top, now).y;
        return new Outcome(sideways, outOfPlane, tilt, topSink, fastest, kineticEnergy(bodies, scene.halfExtent()),
                points == 0 ? 0.0f : (float) recycled / points, topRise, energyByTenth);
    }

    /**
     * How far the top of a column of {@code boxes} unit boxes of mass 1 sinks at the defaults: each
     * face is 4 points sharing the weight above it, each giving {@code F K / omega^2}
     * (docs/physics.md, "Stiffness and stability"): {@code K = 8} between boxes at 30 Hz (an eighth
     * of 240 Hz), {@code K = 4} on the ground at twice that.
     */
    private static double columnSink(int boxes) {
        double betweenBoxes = Math.pow(2.0 * Math.PI * 30.0, 2.0);
        double onGround = Math.pow(2.0 * Math.PI * 60.0, 2.0);
        double sink = (G * boxes / 4.0) * 4.0 / onGround;
        for (int above = boxes - 1; above >= 1; above--) {
            sink += (G * above / 4.0) * 8.0 / betweenBoxes;
        }
        return sink;
    }

    @Test
    void aTwentyBoxColumnStandsAThousandStepsAtTheDefaultsAndSinksByItsSprings() {
        Outcome outcome = run(BoxScene.stack(20), 1000, SolveSettings.softStep(), true);
        assertTrue(outcome.stands(0.03f, 1.0f, 1e-2f), "stands and rests: " + outcome);
        assertEquals(columnSink(20), outcome.topSink(), 0.05 * columnSink(20), "the springs' give: " + outcome);
        assertTrue(outcome.recycledShare() > 0.9f, "its manifolds are recycled: " + outcome);
    }

    /**
     * A wall one box thick, 20 rows (Box3D's large_pyramid at a fifth of its size): out of its plane
     * it has only its contacts' tilt stiffness, and fresh points' jitter topples it; recycled, it
     * stands.
     */
    @Test
    void aOneBoxThickWallOfTwentyRowsStandsAThousandSteps() {
        Outcome outcome = run(BoxScene.pyramid(20), 1000, SolveSettings.softStep(), true);
        assertTrue(outcome.stands(0.05f, 2.0f, 1e-2f), "stands and rests: " + outcome);
        assertTrue(outcome.outOfPlane() < 0.01f, "within 1 cm of its plane: " + outcome);
        assertTrue(outcome.kineticEnergy() < 1e-3, "at rest: " + outcome);
    }

    /** The checks above can fail: boxes whose contacts are dropped fall through the ground. */
    @Test
    void aRunWithoutContactsFailsEveryCheck() {
        Outcome outcome = run(BoxScene.stack(3), 60, SolveSettings.softStep(), false);
        assertFalse(outcome.stands(0.01f, 1.0f, 1e-3f), "a falling column does not stand: " + outcome);
        assertTrue(outcome.topSink() > 1.0f && outcome.fastest() > 5.0f, "it fell: " + outcome);
    }

    /**
     * The push-out speed caps the force a point holds, {@code F_max = v_push m_eff omega (2 zeta + h
     * omega)} (docs/physics.md, "What a contact can carry"): between unit boxes ({@code m_eff = m / 8})
     * a column of {@code N} holds while {@code N <= 1 + v_push omega a1 / (2 g)}, 6.9 boxes at 0.03
     * m/s at the defaults. Below that height it comes to rest; above it the lowest contact sinks and
     * the column leans away.
     */
    @Test
    void aSlowPushOutHoldsAColumnOnlyUpToItsForceCap() {
        float pushOut = 0.03f;
        double omega = 2.0 * Math.PI * 30.0; // the default frequency at 60 Hz in 4 substeps
        double a1 = 2.0 * SoftStepSettings.DEFAULT_DAMPING_RATIO + omega * DT / 4.0;
        int tallest = (int) Math.floor(1.0 + pushOut * omega * a1 / (2.0 * G));
        assertEquals(6, tallest, "the cap's column");
        SoftStepSettings settings = SolveSettings.softStep().withPushOutSpeed(pushOut);
        Outcome held = run(BoxScene.stack(tallest), 600, settings, true);
        assertTrue(held.stands(0.01f, 0.5f, 1e-3f), "at the cap's height it stands and rests: " + held);
        Outcome over = run(BoxScene.stack(tallest + 3), 600, settings, true);
        assertFalse(over.stands(0.05f, 1.0f, 0.05f), "three boxes over it, it leans away: " + over);
        Outcome atDefault = run(BoxScene.stack(tallest + 3), 600, SolveSettings.softStep(), true);
        assertTrue(atDefault.stands(0.01f, 0.5f, 1e-3f), "the default push-out holds it: " + atDefault);
    }

    /**
     * Soft contacts cap the height of a column that stands: a face on four corner springs resists a
     * tilt only while {@code N <= 1 + omega / (2 sqrt(g / a))} (docs/physics.md, "What a contact can
     * carry"), 15.9 unit boxes at 15 Hz, the default of 60 Hz in 2 substeps. A column of 10 stands
     * there; one of 30 leans away in 2 substeps and stands in 4 (30 Hz, 30.8 boxes).
     */
    @Test
    void aColumnTallerThanItsContactsHoldLeansAwayAndMoreSubstepsHoldIt() {
        SoftStepSettings twoSubsteps = SolveSettings.softStep().withSubsteps(2);
        assertEquals(15.0f, twoSubsteps.highestContactHertz(DT), 1e-3f, "the default frequency in 2 substeps");
        Outcome low = run(BoxScene.stack(10), 600, twoSubsteps, true);
        assertTrue(low.stands(0.03f, 1.0f, 1e-2f), "10 boxes stand in 2 substeps: " + low);
        Outcome tall = run(BoxScene.stack(30), 600, twoSubsteps, true);
        assertFalse(tall.stands(0.05f, 1.0f, 0.05f), "30 lean away in 2 substeps: " + tall);
        Outcome finer = run(BoxScene.stack(30), 600, SolveSettings.softStep(), true);
        assertTrue(finer.stands(0.05f, 1.0f, 1e-2f), "and stand in 4: " + finer);
    }

    /**
     * At the edges of what the settings accept (1 to 32 substeps, steps from 1/60 s to 0.5 ms, the
     * stiffest contacts each allows, damping ratios from 0 to 10) a resting column with friction
     * never gains energy: its top never rises, and it comes to rest, 10 s of it.
     */
    @ParameterizedTest(name = "{0} substeps, damping ratio {1}, step {2} s")
    @CsvSource({"1, 10, 0.0166667", "2, 10, 0.0166667", "4, 10, 0.0166667", "8, 10, 0.0166667",
        "1, 0, 0.0166667", "4, 0, 0.0166667", "8, 0.5, 0.0166667", "16, 1, 0.0166667", "32, 10, 0.0166667",
        "16, 0, 0.0083333", "1, 10, 0.002", "2, 0, 0.002", "4, 10, 0.002", "4, 0, 0.002", "8, 2, 0.002",
        "16, 10, 0.002", "1, 10, 0.0005", "1, 0, 0.0005", "2, 10, 0.001", "1, 0.5, 0.0166667", "2, 0, 0.0333333", "2, 0.5, 0.0333333", "2, 10, 0.0333333", "6, 0, 0.1", "6, 10, 0.1", "1, 2, 0.0166667"})
    void aRestingColumnNeverGainsEnergyAtTheEdgesOfTheSettings(int substeps, float dampingRatio, float dt) {
        SoftStepSettings settings = SolveSettings.softStep().withSubsteps(substeps).withDampingRatio(dampingRatio);
        float stiffest = settings.highestContactHertz(dt);
        settings = settings.withContactHertz(stiffest);
        Outcome outcome = run(BoxScene.stack(5), Math.round(10.0f / dt), settings, true, dt);
        assertTrue(outcome.topRise() < 1e-4f, "the top never rose: " + outcome);
        assertTrue(outcome.stands(0.05f, 1.0f, 0.05f), "the column stands: " + outcome);
        // the first two tenths of the run settle the springs; after them the energy never climbs above
        // where it was at the end of the second, nor above the floor of float positions (a top box
        // moved by one ulp of its height a step: the column's mass at that speed)
        double[] energy = outcome.energyByTenth();
        double floor = 0.5 * 5.0 * Math.pow(Math.ulp(4.5f) / dt, 2.0);
        double settled = Math.max(energy[1], floor);
        for (int tenth = 2; tenth < energy.length; tenth++) {
            assertTrue(energy[tenth] <= settled, "no later tenth holds more energy than the second did: "
                    + outcome);
        }
        assertTrue(energy[energy.length - 1] < Math.max(0.1 * energy[1], floor), "and it dies away: " + outcome);
    }

    /**
     * Below 60 substeps a second the contacts are too soft to hold a column (5 boxes at 30 Hz in 1
     * substep, damping ratio 0, toppled), so such a step is refused, saying how many substeps would
     * do, and nothing moves; 2 substeps of the same step are taken.
     */
    @Test
    void aSubstepRateBelowSixtyHertzIsRefused() {
        BodyBatch bodies = BoxScene.stack(2).bodies();
        ContactBatch contacts = contactsOf(bodies);
        Vector3f before = bodies.getPosition(1, new Vector3f());
        float dt = 1.0f / 30.0f;
        try (ContactSolver solver = Backends.open(Backend.CPU)) {
            IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                    () -> solver.step(bodies, contacts, SolveSettings.softStep().withSubsteps(1),
                            new Vector3f(0.0f, -G, 0.0f), dt, null, new SolveResult()));
            assertEquals("time step dt = 0.033333335 s in 1 substeps is 29.999998 substeps a second, below 60.0: "
                    + "under gravity contacts that soft let a resting stack rock and topple; take at least 2 "
                    + "substeps, or a shorter step", refused.getMessage());
            assertEquals(before, bodies.getPosition(1, new Vector3f()), "nothing moved");
            solver.step(bodies, contacts, SolveSettings.softStep().withSubsteps(2), new Vector3f(0.0f, -G, 0.0f), dt,
                    null, new SolveResult());
        }
        assertTrue(bodies.getPosition(1, new Vector3f()).y < before.y, "2 substeps of 1/30 s are taken");
    }

    /** A stiffer setting than a step allows is refused at the step, naming it, and nothing moves. */
    @Test
    void aContactFrequencyAboveTheStiffestAStepAllowsIsRefused() {
        BodyBatch bodies = BoxScene.stack(2).bodies();
        ContactBatch contacts = contactsOf(bodies);
        Vector3f before = bodies.getPosition(1, new Vector3f());
        try (ContactSolver solver = Backends.open(Backend.CPU)) {
            IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                    () -> solver.step(bodies, contacts, SolveSettings.softStep().withContactHertz(31.0f),
                            new Vector3f(0.0f, -G, 0.0f), DT, null, new SolveResult()));
            assertTrue(refused.getMessage().startsWith("contact hertz 31.0 is above the stiffest a step allows, "
                    + "29.999998 Hz for a step of 0.016666668 s in 4 substeps"), refused.getMessage());
            solver.step(bodies, contacts, SolveSettings.softStep().withContactHertz(30.0f),
                    new Vector3f(0.0f, -G, 0.0f), DT, null, new SolveResult());
        }
        assertTrue(bodies.getPosition(1, new Vector3f()).y <= before.y, "30 Hz, the bound itself, is taken");
    }

    /** The collision's contacts of a stack of unit boxes as it stands. */
    private static ContactBatch contactsOf(BodyBatch bodies) {
        ContactBatch contacts = new ContactBatch();
        new BoxContacts(BoxScene.HALF_EXTENT, 0.02f, BoxContacts.DEFAULT_FRICTION).find(bodies, contacts);
        return contacts;
    }
}
