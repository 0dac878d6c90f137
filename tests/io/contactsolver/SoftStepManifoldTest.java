package io.contactsolver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.contactsolver.testing.Backends;
import io.contactsolver.testing.Bits;
import java.util.function.Supplier;
import org.joml.Matrix3f;
import org.joml.Quaternionf;
import org.joml.Vector3f;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The soft step's manifolds (docs/physics.md, "Manifolds" and "Contact recycling") against
 * analytic cases: a box sliding, sticking and spinning on the ground, a sphere spinning on its one
 * point with and without torsional resistance; what a manifold's contacts report; and when a
 * manifold is recycled. Gravity 10 m/s^2, 60 Hz, the defaults.
 */
class SoftStepManifoldTest {
    private static final float DT = 1.0f / 60.0f;
    private static final float G = 10.0f;
    private static final Vector3f GRAVITY = new Vector3f(0.0f, -G, 0.0f);

    /** A unit box of mass 1 resting on the ground at {@code y}, its four bottom corners one manifold. */
    private static void corners(BodyBatch bodies, int box, ContactBatch contacts, float mu, boolean manifold) {
        Vector3f x = bodies.getPosition(box, new Vector3f());
        Quaternionf q = bodies.getOrientation(box, new Quaternionf());
        int id = 0;
        for (int sx = -1; sx <= 1; sx += 2) {
            for (int sz = -1; sz <= 1; sz += 2) {
                Vector3f corner = q.transform(new Vector3f(0.5f * sx, -0.5f, 0.5f * sz)).add(x);
                int c = contacts.add(ContactBatch.WORLD, box, corner.x, 0.0f, corner.z, 0.0f, 1.0f, 0.0f, 0.0f);
                contacts.setSeparation(c, corner.y).setFriction(c, mu).setId(c, id++);
                contacts.setManifold(c, manifold ? 7 : ContactBatch.NO_MANIFOLD);
            }
        }
    }

    private static BodyBatch restingBox() {
        BodyBatch bodies = new BodyBatch();
        int box = bodies.add();
        // a unit cube's inertia is m s^2 / 6 about every axis; it rests where its springs hold it
        bodies.setMassProperties(box, 1.0f, new Matrix3f().scaling(1.0f / 6.0f)).setPosition(box, 0.0f, 0.5f - 7e-5f,
                0.0f);
        return bodies;
    }

    /** Runs {@code steps} steps of the box on its corners; returns its angular velocity about y after each. */
    private static float[] spinDown(ContactSolver solver, BodyBatch bodies, float mu, boolean manifold, int steps) {
        ContactBatch contacts = new ContactBatch();
        SolveHistory history = new SolveHistory();
        float[] spin = new float[steps];
        for (int step = 0; step < steps; step++) {
            contacts.clear();
            corners(bodies, 0, contacts, mu, manifold);
            solver.step(bodies, contacts, SolveSettings.softStep(), GRAVITY, DT, history);
            spin[step] = bodies.getAngularVelocity(0, new Vector3f()).y;
        }
        return spin;
    }

    /**
     * A box spinning on its face stops by the grip of its corners: the twist is limited by
     * {@code mu sum(lever j)}, each corner {@code sqrt(2) / 2} from the centre, the corners carrying
     * the weight: an angular impulse of {@code mu (sqrt(2) / 2) m g dt} a step against {@code I = m / 6}.
     */
    @ParameterizedTest
    @EnumSource(value = Backend.class, names = {"CPU", "OPENCL"})
    void aBoxSpinningOnItsFaceStopsByTheGripOfItsCorners(Backend backend) {
        float mu = 0.5f;
        float spin0 = 3.0f;
        BodyBatch bodies = restingBox();
        bodies.setAngularVelocity(0, 0.0f, spin0, 0.0f);
        float[] spin;
        try (ContactSolver solver = Backends.open(backend)) {
            spin = spinDown(solver, bodies, mu, true, 30);
        }
        double perStep = mu * Math.sqrt(0.5) * G * DT * 6.0;
        for (int step = 1; step < 6; step++) {
            assertEquals(spin0 - perStep * (step + 1), spin[step], 0.03 * spin0, "step " + step);
        }
        int stops = (int) Math.ceil(spin0 / perStep);
        for (int step = stops + 1; step < spin.length; step++) {
            assertEquals(0.0f, spin[step], 1e-4f, "stopped, and does not turn back, at step " + step);
        }
    }

    /** The same corners without a manifold grip as four points: each alone, with friction, slows the spin too. */
    @Test
    void cornersWithoutAManifoldStillStopTheSpinByTheirOwnFriction() {
        BodyBatch bodies = restingBox();
        bodies.setAngularVelocity(0, 0.0f, 3.0f, 0.0f);
        try (ContactSolver solver = Backends.open(Backend.CPU)) {
            float[] spin = spinDown(solver, bodies, 0.5f, false, 30);
            assertEquals(0.0f, spin[spin.length - 1], 1e-4f, "stopped");
        }
    }

    /** A sphere spins on its one point until torsional resistance {@code tau} takes {@code tau j} a step. */
    @ParameterizedTest
    @EnumSource(value = Backend.class, names = {"CPU", "OPENCL"})
    void aSphereSpinningOnTheGroundStopsOnlyWithTorsionalResistance(Backend backend) {
        float radius = 0.5f;
        float tau = 0.05f;
        float spin0 = 2.0f;
        for (float torsion : new float[] {tau, 0.0f}) {
            BodyBatch bodies = new BodyBatch();
            int ball = bodies.add();
            float inertia = 0.4f * radius * radius; // solid sphere, m = 1
            bodies.setMassProperties(ball, 1.0f, new Matrix3f().scaling(inertia)).setPosition(ball, 0.0f, radius, 0.0f)
                    .setAngularVelocity(ball, 0.0f, spin0, 0.0f);
            ContactBatch contacts = new ContactBatch();
            SolveHistory history = new SolveHistory();
            float[] spin = new float[60];
            try (ContactSolver solver = Backends.open(backend)) {
                for (int step = 0; step < spin.length; step++) {
                    float y = bodies.getPosition(ball, new Vector3f()).y;
                    contacts.clear();
                    int c = contacts.add(ContactBatch.WORLD, ball, 0.0f, 0.0f, 0.0f, 0.0f, 1.0f, 0.0f, 0.0f);
                    contacts.setSeparation(c, y - radius).setFriction(c, 0.5f).setRollingResistance(c, 0.01f)
                            .setTorsion(c, torsion).setId(c, 1);
                    solver.step(bodies, contacts, SolveSettings.softStep(), GRAVITY, DT, history);
                    spin[step] = bodies.getAngularVelocity(ball, new Vector3f()).y;
                }
            }
            if (torsion > 0.0f) {
                double perStep = torsion * G * DT / inertia;
                for (int step = 2; step < 10; step++) {
                    assertEquals(spin0 - perStep * (step + 1), spin[step], 0.03 * spin0, "step " + step);
                }
                int stops = (int) Math.ceil(spin0 / perStep);
                assertEquals(0.0f, spin[stops + 2], 1e-4f, "stopped by step " + (stops + 2));
                assertEquals(0.0f, spin[spin.length - 1], 1e-4f, "and stays stopped");
            } else {
                assertEquals(spin0, spin[spin.length - 1], 1e-4f, "nothing resists the spin about the normal");
            }
        }
    }

    /** A box sliding on the ground slows by {@code mu g} and neither tips nor turns. */
    @ParameterizedTest
    @EnumSource(value = Backend.class, names = {"CPU", "OPENCL"})
    void aBoxSlidingOnItsFaceSlowsByMuG(Backend backend) {
        float mu = 0.4f;
        float speed = 3.0f;
        BodyBatch bodies = restingBox();
        bodies.setLinearVelocity(0, speed, 0.0f, 0.0f);
        ContactBatch contacts = new ContactBatch();
        SolveHistory history = new SolveHistory();
        try (ContactSolver solver = Backends.open(backend)) {
            for (int step = 0; step < 30; step++) {
                contacts.clear();
                corners(bodies, 0, contacts, mu, true);
                solver.step(bodies, contacts, SolveSettings.softStep(), GRAVITY, DT, history);
                float expected = speed - mu * G * DT * (step + 1);
                assertEquals(expected, bodies.getLinearVelocity(0, new Vector3f()).x, 0.01f, "step " + step);
            }
        }
        assertEquals(0.0f, bodies.getAngularVelocity(0, new Vector3f()).length(), 0.02f, "neither tips nor turns");
    }

    /** A manifold's contacts report its impulses between them: normal impulses, and shares of its friction. */
    @Test
    void aManifoldsContactsReportWhatItCarries() {
        BodyBatch bodies = restingBox();
        bodies.setLinearVelocity(0, 1.0f, 0.0f, 0.0f);
        ContactBatch contacts = new ContactBatch();
        corners(bodies, 0, contacts, 0.3f, true);
        SolveResult result;
        try (ContactSolver solver = Backends.open(Backend.CPU)) {
            result = solver.step(bodies, contacts, SolveSettings.softStep(), GRAVITY, DT, null, new SolveResult());
        }
        float normal = 0.0f;
        Vector3f friction = new Vector3f();
        for (int c = 0; c < 4; c++) {
            normal += result.impulse(c);
            friction.add(result.getTangentImpulse(c, new Vector3f()));
            Vector3f share = result.getTangentImpulse(c, new Vector3f());
            assertEquals(result.impulse(c) * 0.3f, share.length(), 1e-5f, "sliding: each share at mu j");
        }
        // per substep, the weight's m g h, and friction against the sliding at mu of it
        assertEquals(G * DT / 4.0f, normal, 0.02f * G * DT / 4.0f, "the weight, a substep's share");
        assertEquals(-0.3f * normal, friction.x, 1e-5f, "against the sliding, mu times the normal impulse");
    }

    /** A resting box's manifold is recycled step after step; switched off, moved or turned, it is taken fresh. */
    @Test
    void aManifoldIsRecycledWhileItsBodiesHaveBarelyMoved() {
        BodyBatch bodies = restingBox();
        ContactBatch contacts = new ContactBatch();
        SolveHistory history = new SolveHistory();
        try (ContactSolver solver = Backends.open(Backend.CPU)) {
            int[] recycled = new int[6];
            for (int step = 0; step < recycled.length; step++) {
                contacts.clear();
                corners(bodies, 0, contacts, 0.5f, true);
                if (step == 3) {
                    bodies.setPosition(0, 0.1f, 0.5f, 0.0f); // 10 cm: beyond a twentieth of its 0.87 m arm
                    contacts.clear();
                    corners(bodies, 0, contacts, 0.5f, true);
                }
                if (step == 5) {
                    bodies.setOrientation(0, new Quaternionf().rotationY((float) Math.toRadians(12.0)));
                    contacts.clear();
                    corners(bodies, 0, contacts, 0.5f, true);
                }
                recycled[step] = solver.step(bodies, contacts, SolveSettings.softStep(), GRAVITY, DT, history)
                        .recycledCount();
            }
            assertEquals(0, recycled[0], "nothing to recycle on the first step");
            assertEquals(4, recycled[1], "its four points kept");
            assertEquals(4, recycled[2], "and kept");
            assertEquals(0, recycled[3], "moved 10 cm: taken fresh");
            assertEquals(4, recycled[4], "then kept again");
            assertEquals(0, recycled[5], "turned 12 degrees: taken fresh");

            SolveHistory fresh = new SolveHistory();
            for (int step = 0; step < 3; step++) {
                contacts.clear();
                corners(bodies, 0, contacts, 0.5f, true);
                assertEquals(0, solver.step(bodies, contacts, SolveSettings.softStep().withRecycleDistance(0.0f),
                        GRAVITY, DT, fresh).recycledCount(), "recycling off");
            }
        }
    }

    /**
     * A kept manifold solves the points it kept, however many the batch gives it: two resting boxes
     * side by side, the first given only three of its corners for a step, move to the same bits as
     * when it is given all four, and so does the second, whose points come after the first's four.
     */
    @ParameterizedTest
    @EnumSource(value = Backend.class, names = {"CPU", "OPENCL"})
    void aKeptManifoldSolvesItsKeptPointsWhenTheBatchGivesFewer(Backend backend) {
        try (ContactSolver solver = Backends.open(backend)) {
            BodyBatch whole = twoRestingBoxes();
            BodyBatch partial = twoRestingBoxes();
            SolveHistory wholeHistory = new SolveHistory();
            SolveHistory partialHistory = new SolveHistory();
            ContactBatch contacts = new ContactBatch();
            for (int step = 0; step < 4; step++) {
                contacts.clear();
                for (int box = 0; box < 2; box++) {
                    numberedCorners(whole, box, contacts, 4);
                }
                SolveResult wholeResult = solver.step(whole, contacts, SolveSettings.softStep(), GRAVITY, DT,
                        wholeHistory);
                contacts.clear();
                for (int box = 0; box < 2; box++) {
                    numberedCorners(partial, box, contacts, box == 0 && step >= 2 ? 3 : 4);
                }
                SolveResult partialResult = solver.step(partial, contacts, SolveSettings.softStep(), GRAVITY, DT,
                        partialHistory);
                assertEquals(step == 0 ? 0 : 8, wholeResult.recycledCount(), "step " + step + ", four corners each");
                assertEquals(step == 0 ? 0 : 8, partialResult.recycledCount(), "step " + step + ", three corners given");
                for (int box = 0; box < 2; box++) {
                    assertEquals(whole.getPosition(box, new Vector3f()), partial.getPosition(box, new Vector3f()),
                            "step " + step + ", box " + box + " position");
                    assertEquals(whole.getLinearVelocity(box, new Vector3f()), partial.getLinearVelocity(box, new Vector3f()),
                            "step " + step + ", box " + box + " velocity");
                    assertEquals(whole.getAngularVelocity(box, new Vector3f()),
                            partial.getAngularVelocity(box, new Vector3f()), "step " + step + ", box " + box + " spin");
                }
            }
        }
    }

    /**
     * A plan that lays a manifold's points otherwise than its contacts (box 0 kept with four points
     * while the batch gives three) between two plans that take every contact fresh from the same
     * batch layout: the third step lays the points as its contacts again, and moves the boxes to the
     * bits of a solver that never saw the other plans.
     */
    @ParameterizedTest
    @EnumSource(value = Backend.class, names = {"CPU", "OPENCL"})
    void aFreshPlanAfterAKeptOneLaysThePointsAsTheContactsAgain(Backend backend) {
        BodyBatch bodies = twoRestingBoxes();
        ContactBatch whole = new ContactBatch();
        ContactBatch partial = new ContactBatch();
        try (ContactSolver solver = Backends.open(backend)) {
            for (int box = 0; box < 2; box++) {
                numberedCorners(bodies, box, whole, 4);
            }
            SolveResult fourCorners = solver.step(bodies, whole, SolveSettings.softStep(), GRAVITY, DT, null,
                    new SolveResult());
            for (int box = 0; box < 2; box++) {
                numberedCorners(bodies, box, partial, box == 0 ? 3 : 4);
            }
            solver.step(bodies, partial, SolveSettings.softStep(), GRAVITY, DT, null, new SolveResult());
            SolveResult kept = solver.step(bodies, partial, SolveSettings.softStep(), GRAVITY, DT, fourCorners,
                    new SolveResult());
            assertEquals(8, kept.recycledCount(), "box 0 kept its four points, box 1 its four");
            BodyBatch alone = twoRestingBoxes();
            for (int box = 0; box < 2; box++) {
                alone.setPosition(box, bodies.getPosition(box, new Vector3f()))
                        .setOrientation(box, bodies.getOrientation(box, new Quaternionf()))
                        .setLinearVelocity(box, bodies.getLinearVelocity(box, new Vector3f()))
                        .setAngularVelocity(box, bodies.getAngularVelocity(box, new Vector3f()));
            }
            SolveResult fresh = solver.step(bodies, partial, SolveSettings.softStep(), GRAVITY, DT, null,
                    new SolveResult());
            try (ContactSolver other = Backends.open(backend)) {
                SolveResult expected = other.step(alone, partial, SolveSettings.softStep(), GRAVITY, DT, null,
                        new SolveResult());
                Bits.assertIdentical(expected, fresh, "the fresh step after the kept one");
                Bits.assertIdentical(alone, bodies, "the boxes after it");
            }
        }
    }

    private static BodyBatch twoRestingBoxes() {
        BodyBatch bodies = new BodyBatch();
        for (int box = 0; box < 2; box++) {
            bodies.add();
            bodies.setMassProperties(box, 1.0f, new Matrix3f().scaling(1.0f / 6.0f)).setPosition(box, 2.0f * box,
                    0.5f - 7e-5f, 0.0f);
        }
        return bodies;
    }

    /** The first {@code count} bottom corners of {@code box}, manifold {@code box}, ids {@code 4 box + corner}. */
    private static void numberedCorners(BodyBatch bodies, int box, ContactBatch contacts, int count) {
        Vector3f x = bodies.getPosition(box, new Vector3f());
        Quaternionf q = bodies.getOrientation(box, new Quaternionf());
        for (int corner = 0; corner < count; corner++) {
            float sx = (corner & 1) == 0 ? -0.5f : 0.5f;
            float sz = (corner & 2) == 0 ? -0.5f : 0.5f;
            Vector3f p = q.transform(new Vector3f(sx, -0.5f, sz)).add(x);
            int c = contacts.add(ContactBatch.WORLD, box, p.x, 0.0f, p.z, 0.0f, 1.0f, 0.0f, 0.0f);
            contacts.setSeparation(c, p.y).setFriction(c, 0.5f).setId(c, 4 * box + corner).setManifold(c, box);
        }
    }

    /** A manifold's rules are checked with the rest of the input: one line naming the contact and the field. */
    @Test
    void aManifoldThatBreaksItsRulesIsRefusedNamingTheContact() {
        BodyBatch bodies = restingBox();
        bodies.add();
        bodies.setMass(1, 1.0f).setPosition(1, 3.0f, 0.5f, 0.0f);
        ContactBatch contacts = new ContactBatch();
        corners(bodies, 0, contacts, 0.5f, true);
        int fifth = contacts.add(ContactBatch.WORLD, 0, 0.0f, 0.0f, 0.0f, 0.0f, 1.0f, 0.0f, 0.0f);
        contacts.setFriction(fifth, 0.5f).setManifold(fifth, 7).setId(fifth, 9);
        assertRefused(bodies, contacts, "contact 4, field 'manifold': manifold 7 has more than 4 points (it starts at "
                + "contact 0)");

        contacts.setManifold(fifth, 8).setBodies(fifth, ContactBatch.WORLD, 1);
        contacts.setManifold(3, 7).setBodies(3, ContactBatch.WORLD, 1);
        assertRefused(bodies, contacts, "contact 3, fields 'a', 'b': manifold 7 joins bodies (-1, 0) at its first "
                + "point, contact 0, but (-1, 1) here");

        contacts.setBodies(3, ContactBatch.WORLD, 0).setFriction(2, 0.25f);
        assertRefused(bodies, contacts, "contact 2, field 'friction': manifold 7 has friction 0.5 at its first point, "
                + "contact 0, but 0.25 here; a manifold's points share it");

        contacts.setFriction(2, 0.5f).setTorsion(1, 0.01f);
        assertRefused(bodies, contacts, "contact 1, field 'torsion': manifold 7 has torsion 0.0 at its first point, "
                + "contact 0, but 0.01 here; a manifold's points share it");

        contacts.setTorsion(1, 0.0f).setNormal(3, 0.0f, 0.99999994f, 3e-4f);
        assertRefused(bodies, contacts, "contact 3, field 'ny': manifold 7 has ny 1.0 at its first point, contact 0, "
                + "but 0.99999994 here; a manifold's points share it");
    }

    /**
     * The rules hold across the blocks the check takes at once (1,024 contacts): a run that starts
     * before a block and ends in it is checked against its first point all the same.
     */
    @Test
    void aManifoldAcrossTheChecksBlocksIsCheckedWhole() {
        BodyBatch bodies = restingBoxAndAnother();
        // runs of four from contact 2: 1022-1025 and 2046-2049 straddle the blocks
        ContactBatch contacts = runsOfFourOnTheGround(3000, 2);
        ContactSolver.validate(bodies, contacts);

        contacts.setFriction(1024, 0.25f);
        assertRefused(bodies, contacts, "contact 1024, field 'friction': manifold 256 has friction 0.5 at its first "
                + "point, contact 1022, but 0.25 here; a manifold's points share it");

        contacts.setFriction(1024, 0.5f).setManifold(1026, 256);
        assertRefused(bodies, contacts, "contact 1026, field 'manifold': manifold 256 has more than 4 points (it "
                + "starts at contact 1022)");

        contacts.setManifold(1026, 257).setBodies(2049, ContactBatch.WORLD, 1);
        assertRefused(bodies, contacts, "contact 2049, fields 'a', 'b': manifold 512 joins bodies (-1, 0) at its "
                + "first point, contact 2046, but (-1, 1) here");
    }

    /**
     * The manifolds' rules are screened with the rest of each contact, range by range on the
     * solver's threads: the lowest broken rule is the one named on 1 and 3 threads, wherever the
     * ranges split the batch, and a contact's own fault anywhere in the batch is named before any
     * broken rule, as when the rules were checked after the contacts.
     */
    @Test
    void theLowestBrokenRuleIsNamedOnAnyNumberOfThreadsAndAContactsOwnFaultFirst() {
        BodyBatch bodies = restingBoxAndAnother();
        ContactBatch contacts = runsOfFourOnTheGround(60_000, 1);
        contacts.setFriction(49_153, 0.25f); // the second point of a run that starts at 49,151
        contacts.setRollingResistance(16_385, 0.01f); // the second point of a run that starts at 16,383
        Vector3f gravity = new Vector3f(0.0f, -10.0f, 0.0f);
        String lowest = "contact 16385, field 'rolling_resistance': manifold 4096 has rolling resistance 0.0 at its "
                + "first point, contact 16383, but 0.01 here; a manifold's points share it";
        for (int threads : new int[] {1, 3}) {
            try (ContactSolver solver = Backends.cpu(threads)) {
                InvalidInputException refused = assertThrows(InvalidInputException.class, () -> solver.step(bodies,
                        contacts, SolveSettings.softStep(), gravity, 0.01f, null, new SolveResult()));
                assertEquals(lowest, refused.getMessage(), threads + " threads");
            }
        }
        assertRefused(bodies, contacts, lowest);
        contacts.setRestitution(59_000, 2.0f);
        InvalidInputException refused = assertThrows(InvalidInputException.class,
                () -> ContactSolver.validate(bodies, contacts));
        assertTrue(refused.getMessage().startsWith("contact 59000, field 'restitution'"), refused.getMessage());
    }

    /**
     * The soft step on a device screens the manifolds' rules there (each point against the first of
     * its run) and checks only what the screen cannot clear: each broken rule of the two tests above
     * is refused with the CPU's message, bodies untouched; the batch mended, both step alike.
     */
    @Test
    void theDeviceChecksAManifoldsRulesAsTheHostDoes() {
        Supplier<BodyBatch> twoBodies = SoftStepManifoldTest::restingBoxAndAnother;
        BodyBatch bodies = twoBodies.get();
        ContactBatch contacts = new ContactBatch();
        for (int c = 0; c < 3000; c++) {
            int added = contacts.add(ContactBatch.WORLD, 0, 0.0f, 0.0f, 0.0f, 0.0f, 1.0f, 0.0f, 0.0f);
            contacts.setFriction(added, 0.5f).setManifold(added, c < 2000 ? (c + 2) / 4 : ContactBatch.NO_MANIFOLD)
                    .setId(added, c);
        }
        Runnable[] breaks = {
            () -> contacts.setFriction(1024, 0.25f),
            () -> contacts.setFriction(1024, 0.5f).setManifold(1026, 256),
            () -> contacts.setManifold(1026, 257).setBodies(1049, ContactBatch.WORLD, 1),
            () -> contacts.setBodies(1049, ContactBatch.WORLD, 0).setTorsion(5, 0.01f),
            () -> contacts.setTorsion(5, 0.0f).setNormal(1999, 0.0f, 0.99999994f, 3e-4f),
            () -> contacts.setNormal(1999, 0.0f, 1.0f, 0.0f).setManifold(2500, 499).setManifold(2501, 499)
                    .setFriction(2501, 0.0f),
        };
        Vector3f gravity = new Vector3f(0.0f, -10.0f, 0.0f);
        try (ContactSolver cpu = Backends.cpu(); ContactSolver device = Backends.openClOrSkip()) {
            for (int k = 0; k < breaks.length; k++) {
                breaks[k].run();
                InvalidInputException expected = assertThrows(InvalidInputException.class, () -> cpu.step(bodies,
                        contacts, SolveSettings.softStep(), gravity, 0.01f, null, new SolveResult()), "break " + k);
                InvalidInputException actual = assertThrows(InvalidInputException.class, () -> device.step(bodies,
                        contacts, SolveSettings.softStep(), gravity, 0.01f, null, new SolveResult()), "break " + k);
                assertEquals(expected.getMessage(), actual.getMessage(), "break " + k);
                assertEquals(Backend.OPENCL, device.backend(), "bad input is no device failure");
                Bits.assertIdentical(twoBodies.get(), bodies, "bodies untouched, break " + k);
            }
            contacts.setFriction(2501, 0.5f);
            BodyBatch onCpu = twoBodies.get();
            SolveResult expected = cpu.step(onCpu, contacts, SolveSettings.softStep(), gravity, 0.01f, null,
                    new SolveResult());
            SolveResult actual = device.step(bodies, contacts, SolveSettings.softStep(), gravity, 0.01f, null,
                    new SolveResult());
            assertEquals(Backend.OPENCL, actual.backend());
            Bits.assertIdentical(expected, actual, "the mended batch's step");
            Bits.assertIdentical(onCpu, bodies, "bodies");
        }
    }

    /**
     * A step that plans from its own last step takes the shortcuts of a scene whose manifolds
     * persist (the manifolds matched to themselves, their fates and points known from the kept
     * cache, the colouring and the firsts kept by version); one that plans from another solver's
     * step cannot, and plans in full. Both give the same bits, step after step: a box pyramid
     * settling, its contacts found anew before each step, on one solver stepping from its own
     * results and on another stepping from the first one's.
     */
    @Test
    void aStepFromItsOwnLastStepPlansAsOneFromAnotherSolversStep() {
        BodyBatch own = io.contactsolver.scene.BoxScene.pyramid(8).bodies();
        BodyBatch other = io.contactsolver.scene.BoxScene.pyramid(8).bodies();
        ContactBatch ownContacts = new ContactBatch();
        ContactBatch otherContacts = new ContactBatch();
        io.contactsolver.scene.BoxContacts collision = new io.contactsolver.scene.BoxContacts(
                io.contactsolver.scene.BoxScene.HALF_EXTENT, 0.02f, io.contactsolver.scene.BoxContacts.DEFAULT_FRICTION);
        Vector3f gravity = new Vector3f(0.0f, -10.0f, 0.0f);
        SolveResult[] results = {new SolveResult(), new SolveResult()};
        try (ContactSolver first = Backends.cpu(2); ContactSolver second = Backends.cpu(2)) {
            for (int step = 0; step < 30; step++) {
                collision.find(own, ownContacts);
                collision.find(other, otherContacts);
                SolveResult warm = step == 0 ? null : results[(step + 1) & 1];
                SolveResult fromOther = second.step(other, otherContacts, SolveSettings.softStep(), gravity, 0.01f, warm,
                        new SolveResult());
                SolveResult fromOwn = first.step(own, ownContacts, SolveSettings.softStep(), gravity, 0.01f, warm,
                        results[step & 1]);
                Bits.assertIdentical(fromOwn, fromOther, "step " + step);
                Bits.assertIdentical(own, other, "step " + step + ": bodies");
                assertEquals(fromOwn.recycledCount(), fromOther.recycledCount(), "step " + step + ": recycled");
            }
            assertTrue(results[1].recycledCount() > 0, "the manifolds were recycled");
        }
    }

    /**
     * A kept cache holds the point starts of the step that kept it, whichever steps the results
     * it takes turns with kept: the manifolds' count and points change at the end of the batch (12
     * one-point manifolds, then the eleventh with two points, then fewer manifolds, then 12 again),
     * each taken fresh, so each manifold's points are its contacts. (A cache once took itself to
     * hold the starts of a plan with more manifolds than it was kept with, and kept another step's
     * beyond its own.)
     */
    @Test
    void aKeptCacheHoldsThePointStartsOfItsOwnStep() {
        int[] counts = {12, 12, 12, 8, 12, 12, 12, 12};
        BodyBatch bodies = new BodyBatch();
        for (int i = 0; i < 12; i++) {
            bodies.setParticle(bodies.add(), 1.0f).setPosition(i, 2.0f * i, 0.499f, 0.0f);
        }
        SoftStepSettings settings = SolveSettings.softStep().withRecycleDistance(0.0f);
        Vector3f gravity = new Vector3f(0.0f, -10.0f, 0.0f);
        SolveResult[] results = {new SolveResult(), new SolveResult()};
        try (ContactSolver solver = Backends.cpu(1)) {
            for (int step = 0; step < counts.length; step++) {
                ContactBatch contacts = new ContactBatch();
                for (int i = 0; i < counts[step]; i++) {
                    int points = step == 1 && i == 10 ? 2 : 1;
                    for (int p = 0; p < points; p++) {
                        int c = contacts.add(ContactBatch.WORLD, i, 2.0f * i + 0.1f * p, 0.0f, 0.0f, 0.0f, 1.0f,
                                0.0f, 0.0f);
                        contacts.setSeparation(c, -0.001f).setFriction(c, 0.5f).setId(c, 2 * i + p).setManifold(c, i);
                    }
                }
                SolveResult result = solver.step(bodies, contacts, settings, gravity, 0.01f,
                        step == 0 ? null : results[(step + 1) & 1], results[step & 1]);
                io.contactsolver.core.ManifoldCache cache = result.manifoldCache();
                int manifolds = cache.manifoldCount();
                assertEquals(counts[step], manifolds, "step " + step);
                assertEquals(contacts.size(), cache.contactStart()[manifolds], "step " + step);
                for (int m = 0; m <= manifolds; m++) {
                    assertEquals(cache.contactStart()[m], cache.pointStart()[m], "step " + step + ", manifold " + m);
                }
            }
        }
    }

    /** The resting box (body 0) and a second box of 1 kg beside it (body 1). */
    private static BodyBatch restingBoxAndAnother() {
        BodyBatch bodies = restingBox();
        bodies.add();
        bodies.setMass(1, 1.0f).setPosition(1, 3.0f, 0.5f, 0.0f);
        return bodies;
    }

    /** {@code count} contacts of body 0 with the ground, friction 0.5, in manifolds of four from contact {@code shift}. */
    private static ContactBatch runsOfFourOnTheGround(int count, int shift) {
        ContactBatch contacts = new ContactBatch();
        for (int c = 0; c < count; c++) {
            int added = contacts.add(ContactBatch.WORLD, 0, 0.0f, 0.0f, 0.0f, 0.0f, 1.0f, 0.0f, 0.0f);
            contacts.setFriction(added, 0.5f).setManifold(added, (c + shift) / 4).setId(added, c);
        }
        return contacts;
    }

    private static void assertRefused(BodyBatch bodies, ContactBatch contacts, String message) {
        InvalidInputException refused = assertThrows(InvalidInputException.class,
                () -> ContactSolver.validate(bodies, contacts));
        assertEquals(message, refused.getMessage());
        assertTrue(message.lines().count() == 1, "one line");
    }
}
