package io.contactsolver;

import io.contactsolver.layout.BodyField;
import io.contactsolver.layout.ContactField;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.contactsolver.InvalidInputException.Subject;
import io.contactsolver.core.InputScreen;
import io.contactsolver.core.InputValidator;
import io.contactsolver.core.ManifoldGrouping;
import io.contactsolver.core.ParallelRunner;
import io.contactsolver.core.SolveMeter;
import io.contactsolver.core.SolverBackend;
import io.contactsolver.opencl.OpenClTestAccess;
import io.contactsolver.testing.Backends;
import io.contactsolver.testing.Bits;
import java.util.List;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.stream.Stream;
import org.joml.Vector3f;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Every kind of bad input is refused before anything runs, naming the record and the field. */
class ContactSolverValidationTest {

    /** Three good bodies and three good contacts; each case breaks exactly one thing. */
    static BodyBatch bodies() {
        BodyBatch bodies = new BodyBatch();
        for (int i = 0; i < 3; i++) {
            int body = bodies.add();
            bodies.setParticle(body, 1.0f + i).setPosition(body, i, 0, 0).setLinearVelocity(body, -i, 0, 0);
        }
        bodies.setInverseInertia(1, 2.0f, 2.0f, 2.0f, 0.5f, 0.0f, 0.0f);
        return bodies;
    }

    static ContactBatch contacts() {
        ContactBatch contacts = new ContactBatch();
        contacts.add(0, 1, new Vector3f(0.5f, 0, 0), new Vector3f(1, 0, 0), 0.5f);
        contacts.add(1, 2, new Vector3f(1.5f, 0, 0), new Vector3f(1, 0, 0), 0.5f);
        contacts.add(ContactBatch.WORLD, 2, new Vector3f(2, -1, 0), new Vector3f(0, 1, 0), 0.5f);
        return contacts;
    }

    record Case(String name, BiConsumer<BodyBatch, ContactBatch> breakIt, Subject subject, int index,
            List<String> fields, String problem) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Arguments> badInputs() {
        return Stream.of(
                new Case("NaN position", (b, c) -> b.set(BodyField.Y, 1, Float.NaN), Subject.BODY, 1, List.of("y"), "not finite"),
                new Case("infinite velocity", (b, c) -> b.set(BodyField.WZ, 2, Float.NEGATIVE_INFINITY), Subject.BODY, 2, List.of("wz"), "not finite"),
                new Case("NaN inverse inertia", (b, c) -> b.set(BodyField.INV_IXZ, 0, Float.NaN), Subject.BODY, 0, List.of("inv_ixz"), "not finite"),
                new Case("negative inverse mass", (b, c) -> b.setInverseMass(1, -0.5f), Subject.BODY, 1, List.of("inv_mass"), "negative"),
                new Case("inverse inertia with a negative moment", (b, c) -> b.setInverseInertia(2, 1, -1, 1, 0, 0, 0), Subject.BODY, 2,
                        List.of("inv_ixx", "inv_iyy", "inv_izz", "inv_ixy", "inv_ixz", "inv_iyz"), "not positive semi-definite"),
                new Case("inverse inertia indefinite off the diagonal", (b, c) -> b.setInverseInertia(0, 1, 1, 1, 2, 0, 0), Subject.BODY, 0,
                        List.of("inv_ixx", "inv_iyy", "inv_izz", "inv_ixy", "inv_ixz", "inv_iyz"), "not positive semi-definite"),
                new Case("orientation not unit", (b, c) -> b.set(BodyField.QW, 1, 1.001f), Subject.BODY, 1,
                        List.of("qw", "qx", "qy", "qz"), "not a unit quaternion"),
                new Case("zero orientation", (b, c) -> b.set(BodyField.QW, 0, 0.0f), Subject.BODY, 0,
                        List.of("qw", "qx", "qy", "qz"), "not a unit quaternion"),
                new Case("body index past the end", (b, c) -> c.setBodies(1, 1, 3), Subject.CONTACT, 1, List.of("b"), "outside [-1, 3)"),
                new Case("body index below the world", (b, c) -> c.setBodies(0, -2, 1), Subject.CONTACT, 0, List.of("a"), "outside [-1, 3)"),
                new Case("a == b", (b, c) -> c.setBodies(1, 2, 2), Subject.CONTACT, 1, List.of("a", "b"), "same body"),
                new Case("both the world", (b, c) -> c.setBodies(2, -1, -1), Subject.CONTACT, 2, List.of("a", "b"), "both bodies are the world"),
                new Case("NaN contact point", (b, c) -> c.set(ContactField.PZ, 0, Float.NaN), Subject.CONTACT, 0, List.of("pz"), "not finite"),
                new Case("infinite normal", (b, c) -> c.set(ContactField.NX, 2, Float.POSITIVE_INFINITY), Subject.CONTACT, 2, List.of("nx"), "not finite"),
                new Case("zero normal", (b, c) -> c.setNormal(1, 0, 0, 0), Subject.CONTACT, 1, List.of("nx", "ny", "nz"), "not unit length"),
                new Case("normal too long", (b, c) -> c.setNormal(0, 1.002f, 0, 0), Subject.CONTACT, 0, List.of("nx", "ny", "nz"), "not unit length"),
                new Case("restitution above 1", (b, c) -> c.setRestitution(2, 1.01f), Subject.CONTACT, 2, List.of("restitution"), "outside [0, 1]"),
                new Case("negative restitution", (b, c) -> c.setRestitution(0, -0.1f), Subject.CONTACT, 0, List.of("restitution"), "outside [0, 1]"),
                new Case("NaN restitution", (b, c) -> c.setRestitution(1, Float.NaN), Subject.CONTACT, 1, List.of("restitution"), "not finite"),
                new Case("negative friction", (b, c) -> c.setFriction(1, -0.5f), Subject.CONTACT, 1, List.of("friction"), "friction -0.5 is negative"),
                new Case("tiny negative friction", (b, c) -> c.setFriction(0, -Float.MIN_VALUE), Subject.CONTACT, 0, List.of("friction"), "is negative"),
                new Case("NaN friction", (b, c) -> c.setFriction(0, Float.NaN), Subject.CONTACT, 0, List.of("friction"), "not finite"),
                new Case("infinite friction", (b, c) -> c.setFriction(2, Float.POSITIVE_INFINITY), Subject.CONTACT, 2, List.of("friction"), "not finite"),
                new Case("negative rolling resistance", (b, c) -> c.setRollingResistance(2, -0.01f), Subject.CONTACT, 2, List.of("rolling_resistance"), "rolling resistance -0.01 is negative"),
                new Case("NaN rolling resistance", (b, c) -> c.setRollingResistance(1, Float.NaN), Subject.CONTACT, 1, List.of("rolling_resistance"), "not finite"),
                new Case("infinite rolling resistance", (b, c) -> c.setRollingResistance(0, Float.POSITIVE_INFINITY), Subject.CONTACT, 0, List.of("rolling_resistance"), "not finite"),
                new Case("minus infinite rolling resistance", (b, c) -> c.setRollingResistance(2, Float.NEGATIVE_INFINITY), Subject.CONTACT, 2, List.of("rolling_resistance"), "not finite"),
                new Case("negative torsion", (b, c) -> c.setTorsion(1, -0.005f), Subject.CONTACT, 1, List.of("torsion"), "torsion -0.005 is negative"),
                new Case("NaN torsion", (b, c) -> c.setTorsion(2, Float.NaN), Subject.CONTACT, 2, List.of("torsion"), "not finite"))
                .map(Arguments::of);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badInputs")
    void refusesBadInputBeforeSolving(Case bad) {
        BodyBatch bodies = bodies();
        ContactBatch contacts = contacts();
        bad.breakIt().accept(bodies, contacts);
        SolveResult dest = new SolveResult();
        try (ContactSolver solver = Backends.cpu()) {
            InvalidInputException fault = assertThrows(InvalidInputException.class,
                    () -> solver.solve(bodies, contacts, dest));
            assertEquals(bad.subject(), fault.subject(), "subject");
            assertEquals(bad.index(), fault.index(), "index");
            assertEquals(bad.fields(), fault.fields(), "fields");
            assertTrue(fault.problem().contains(bad.problem()), fault.problem());
            assertTrue(fault.getMessage().startsWith(bad.subject().name().toLowerCase() + " " + bad.index() + ", field"),
                    fault.getMessage());
        }
        assertEquals(0, dest.bodyCount(), "nothing was written to dest");
        assertEquals(null, dest.backend(), "nothing was written to dest");
    }

    /**
     * The soft step on a device screens the batch there and checks only what the screen cannot
     * clear: every bad input is refused with the CPU's message, and every body left as it was.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("badInputs")
    void aSoftStepOnTheDeviceRefusesBadInputAsTheCpuDoes(Case bad) {
        BodyBatch onCpu = bodies();
        ContactBatch cpuContacts = contacts();
        bad.breakIt().accept(onCpu, cpuContacts);
        BodyBatch onDevice = bodies();
        ContactBatch deviceContacts = contacts();
        bad.breakIt().accept(onDevice, deviceContacts);
        Vector3f gravity = new Vector3f(0, -9.81f, 0);
        Vector3f before = onDevice.getPosition(2, new Vector3f());
        InvalidInputException expected;
        try (ContactSolver cpu = Backends.cpu()) {
            expected = assertThrows(InvalidInputException.class, () -> cpu.step(onCpu, cpuContacts,
                    SolveSettings.softStep(), gravity, 0.01f, null, new SolveResult()));
        }
        try (ContactSolver device = Backends.openClOrSkip()) {
            InvalidInputException actual = assertThrows(InvalidInputException.class, () -> device.step(onDevice,
                    deviceContacts, SolveSettings.softStep(), gravity, 0.01f, null, new SolveResult()));
            assertEquals(expected.getMessage(), actual.getMessage());
            assertEquals(Backend.OPENCL, device.backend(), "bad input is no device failure");
        }
        assertEquals(before, onDevice.getPosition(2, new Vector3f()), "the bodies left as they were");
    }

    /**
     * Valid input the screen sends to the full check (an inverse inertia off the diagonal, a
     * tensor with a zero moment, zero and large coefficients) steps on the device as on the CPU.
     */
    @Test
    void aSoftStepOnTheDeviceTakesWhatTheScreenCannotClearButTheCheckAccepts() {
        BodyBatch onCpu = bodies();
        BodyBatch onDevice = bodies();
        for (BodyBatch bodies : new BodyBatch[] {onCpu, onDevice}) {
            bodies.setInverseInertia(0, 0.5f, 0.5f, 1e-9f, 0.5f, 0.0f, 0.0f);
        }
        ContactBatch cpuContacts = contacts();
        ContactBatch deviceContacts = contacts();
        for (ContactBatch contacts : new ContactBatch[] {cpuContacts, deviceContacts}) {
            contacts.setFriction(0, 0.0f).setRollingResistance(0, -0.0f);
            contacts.setFriction(2, 1e30f).setRollingResistance(2, 1e30f);
        }
        Vector3f gravity = new Vector3f(0, -9.81f, 0);
        try (ContactSolver cpu = Backends.cpu(); ContactSolver device = Backends.openClOrSkip()) {
            SolveResult expected = cpu.step(onCpu, cpuContacts, SolveSettings.softStep(), gravity, 0.01f, null,
                    new SolveResult());
            SolveResult actual = device.step(onDevice, deviceContacts, SolveSettings.softStep(), gravity, 0.01f, null,
                    new SolveResult());
            assertEquals(Backend.OPENCL, actual.backend());
            Bits.assertIdentical(expected, actual, "step");
            Bits.assertIdentical(onCpu, onDevice, "bodies");
        }
    }

    /**
     * The device's screen finds which of friction, rolling and torsional resistance the batch uses
     * as the host's validation does ({@code InputMagnitudes.frictionUse}), for every combination, each on another
     * contact than the others.
     */
    @Test
    void theDevicesScreenFindsTheCoefficientsInUseAsTheHostDoes() throws Exception {
        OpenClTestAccess.requireDevice();
        try (SolverBackend device = OpenClTestAccess.open(Optional.empty());
                ParallelRunner runner = new ParallelRunner(2)) {
            for (int combination = 0; combination < 8; combination++) {
                BodyBatch bodies = bodies();
                ContactBatch contacts = contacts();
                contacts.setFriction(0, (combination & 1) != 0 ? 0.5f : 0.0f);
                contacts.setRollingResistance(1, (combination & 2) != 0 ? 0.01f : 0.0f);
                contacts.setTorsion(2, (combination & 4) != 0 ? 0.02f : -0.0f);
                InputScreen screen = device.screen(bodies.block(), bodies.size(), contacts.floatBlock(),
                        contacts.linkBlock(), contacts.manifoldArray(), new ManifoldGrouping(), contacts.size(),
                        new SolveMeter());
                assertEquals(InputValidator.validate(bodies.block(), bodies.size(), contacts.floatBlock(),
                        contacts.linkBlock(), contacts.size(), null, runner).frictionUse(), screen.uses(),
                        "combination " + combination);
                assertEquals(combination, screen.uses().bits(), "combination " + combination);
            }
        }
    }

    @Test
    void theUnbrokenInputSolves() {
        try (ContactSolver solver = Backends.cpu()) {
            SolveResult result = solver.solve(bodies(), contacts(), new SolveResult());
            assertEquals(3, result.bodyCount());
            assertTrue(result.impulse(0) > 0);
        }
    }

    @Test
    void reportsTheLowestFaultyIndexWhateverTheThreads() {
        BodyBatch bodies = particles(200_000);
        bodies.setInverseMass(150_001, -1.0f);
        bodies.set(BodyField.X, 70_000, Float.NaN);
        ContactBatch contacts = new ContactBatch();
        try (ContactSolver solver = Backends.cpu(4)) {
            InvalidInputException fault = assertThrows(InvalidInputException.class,
                    () -> solver.solve(bodies, contacts, new SolveResult()));
            assertEquals(70_000, fault.index());
            assertEquals(List.of("x"), fault.fields());
        }
    }

    /**
     * Bodies and contacts are screened in one loop, on any thread: a fault of the last body still
     * comes before the faults of the contacts that other threads meet first.
     */
    @Test
    void aBodysFaultComesBeforeEveryContactsOnAnyNumberOfThreads() {
        BodyBatch bodies = particles(30_000);
        ContactBatch contacts = onTheGround(120_000, 30_000);
        contacts.setRestitution(0, 2.0f);
        contacts.setFriction(60_000, -1.0f);
        contacts.setFriction(119_999, Float.NaN);
        bodies.set(BodyField.X, 29_999, Float.NaN);
        for (int threads : new int[] {1, 2, 3}) {
            assertSolveRefuses(bodies, contacts, threads, Subject.BODY, 29_999);
        }
        bodies.set(BodyField.X, 29_999, 0.0f);
        for (int threads : new int[] {1, 2, 3}) {
            assertSolveRefuses(bodies, contacts, threads, Subject.CONTACT, 0);
        }
    }

    private static void assertSolveRefuses(BodyBatch bodies, ContactBatch contacts, int threads, Subject subject,
            int index) {
        try (ContactSolver solver = Backends.cpu(threads)) {
            InvalidInputException fault = assertThrows(InvalidInputException.class,
                    () -> solver.solve(bodies, contacts, new SolveResult()));
            assertEquals(subject, fault.subject(), threads + " threads");
            assertEquals(index, fault.index(), threads + " threads");
        }
    }

    /** {@code count} particles of unit mass at the origin, at rest. */
    private static BodyBatch particles(int count) {
        BodyBatch bodies = new BodyBatch();
        for (int i = 0; i < count; i++) {
            bodies.setParticle(bodies.add(), 1.0f);
        }
        return bodies;
    }

    /** {@code count} contacts of the bodies {@code 0 .. bodyCount - 1} in turn with the ground below them. */
    private static ContactBatch onTheGround(int count, int bodyCount) {
        ContactBatch contacts = new ContactBatch();
        for (int c = 0; c < count; c++) {
            contacts.add(ContactBatch.WORLD, c % bodyCount, new Vector3f(0, -0.5f, 0), new Vector3f(0, 1, 0), 0.5f);
        }
        return contacts;
    }

    /** The device lists its suspects in any order: the soft step still names the lowest faulty body, then contact. */
    @Test
    void aSoftStepOnTheDeviceReportsTheLowestFaultyIndex() {
        BodyBatch bodies = particles(200_000);
        ContactBatch contacts = onTheGround(50_000, 200_000);
        contacts.setFriction(40_000, -1.0f);
        contacts.setRestitution(30_001, 2.0f);
        Vector3f gravity = new Vector3f(0, -9.81f, 0);
        try (ContactSolver device = Backends.openClOrSkip()) {
            InvalidInputException fault = assertThrows(InvalidInputException.class, () -> device.step(bodies,
                    contacts, SolveSettings.softStep(), gravity, 0.01f, null, new SolveResult()));
            assertEquals(Subject.CONTACT, fault.subject());
            assertEquals(30_001, fault.index());
            bodies.setInverseMass(150_001, -1.0f);
            bodies.set(BodyField.X, 70_000, Float.NaN);
            fault = assertThrows(InvalidInputException.class, () -> device.step(bodies, contacts,
                    SolveSettings.softStep(), gravity, 0.01f, null, new SolveResult()));
            assertEquals(Subject.BODY, fault.subject());
            assertEquals(70_000, fault.index());
            assertEquals(List.of("x"), fault.fields());
        }
    }

    @Test
    void bodyFaultsAreReportedBeforeContactFaults() {
        BodyBatch bodies = bodies();
        ContactBatch contacts = contacts();
        contacts.setRestitution(0, 7.0f);
        bodies.setInverseMass(2, -1.0f);
        InvalidInputException fault = assertThrows(InvalidInputException.class,
                () -> ContactSolver.validate(bodies, contacts));
        assertEquals(Subject.BODY, fault.subject());
    }

    /** Friction and rolling resistance: 0, -0.0 (which is 0) and large finite values are fine. */
    @Test
    void zeroNegativeZeroAndLargeFrictionAreAccepted() {
        ContactBatch contacts = contacts();
        contacts.setFriction(0, 0.0f).setRollingResistance(0, -0.0f);
        contacts.setFriction(1, -0.0f).setRollingResistance(1, 0.0f);
        contacts.setFriction(2, 1e30f).setRollingResistance(2, 1e30f);
        ContactSolver.validate(bodies(), contacts);
        try (ContactSolver solver = Backends.cpu()) {
            SolveResult result = solver.solve(bodies(), contacts, SolveSettings.iterative(10), new SolveResult());
            assertTrue(Float.isFinite(result.impulse(2)), "a huge coefficient is just a rough contact");
        }
    }

    /** A bad coefficient is refused by every entry point, before anything is written. */
    @Test
    void badFrictionIsRefusedByTheIterativeSolverAndTheStepToo() {
        ContactBatch contacts = contacts();
        contacts.setRollingResistance(1, -2.0f);
        BodyBatch bodies = bodies();
        Vector3f before = bodies.getLinearVelocity(2, new Vector3f());
        try (ContactSolver solver = Backends.cpu()) {
            InvalidInputException fault = assertThrows(InvalidInputException.class,
                    () -> solver.solve(bodies, contacts, SolveSettings.iterative(5), new SolveResult()));
            assertEquals(List.of("rolling_resistance"), fault.fields());
            assertEquals(1, fault.index());
            fault = assertThrows(InvalidInputException.class, () -> solver.step(bodies, contacts,
                    SolveSettings.iterative(5), new Vector3f(0, -10, 0), 0.01f, null, new SolveResult()));
            assertEquals(List.of("rolling_resistance"), fault.fields());
        }
        assertEquals(before, bodies.getLinearVelocity(2, new Vector3f()), "the step left the bodies alone");
    }

    @Test
    void aTensorWithAZeroMomentIsAccepted() {
        BodyBatch bodies = bodies();
        // positive semi-definite with a zero moment: its minors are zero, within rounding
        bodies.setInverseInertia(0, 0.5f, 0.5f, 1e-9f, 0.5f, 0.0f, 0.0f);
        ContactSolver.validate(bodies, contacts());
    }

    /**
     * Contact ids are distinct in every call that matches by them, cold or warm: the iterative
     * solve and the soft step refuse a repeated id on the first call (a cold one's result is the
     * next call's warm start), naming the later contact and the id, before {@code dest} or any body
     * is touched; with the ids made distinct the same call goes through.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"iterative solve", "iterative step", "soft step"})
    void aRepeatedIdIsRefusedOnEveryCallThatMatchesByIdColdOrWarm(String call) {
        BodyBatch bodies = bodies();
        ContactBatch contacts = contacts();
        contacts.setId(2, contacts.id(0));
        Vector3f position = bodies.getPosition(2, new Vector3f());
        Vector3f velocity = bodies.getLinearVelocity(2, new Vector3f());
        try (ContactSolver solver = Backends.cpu()) {
            SolveResult previous = run(solver, call, bodies(), contacts(), null, new SolveResult());
            for (SolveResult warmStart : new SolveResult[] {null, previous}) {
                SolveResult dest = new SolveResult();
                InvalidInputException fault = assertThrows(InvalidInputException.class,
                        () -> run(solver, call, bodies, contacts, warmStart, dest));
                assertEquals("contact 2, field 'id': duplicate contact id 0 (also contact 0); warm starting matches "
                        + "by id", fault.getMessage(), warmStart == null ? "cold" : "warm");
                assertEquals(0, dest.bodyCount(), "nothing was written to dest");
                assertEquals(position, bodies.getPosition(2, new Vector3f()), "no body moved");
                assertEquals(velocity, bodies.getLinearVelocity(2, new Vector3f()), "no body moved");
            }
            contacts.setId(2, 7);
            assertEquals(3, run(solver, call, bodies, contacts, null, new SolveResult()).contactCount());
        }
    }

    /**
     * A step does not compare ids it found distinct last step while they are unwritten; an id
     * written since, one at a time, in bulk or by adding the contacts again, is checked again: the
     * same batch, the same count, now repeating an id, is refused on the soft step from its last
     * result.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"setId", "setIds", "clear and add"})
    void anIdRepeatedInPlaceAfterAStepIsRefusedOnTheNext(String write) {
        BodyBatch bodies = bodies();
        ContactBatch contacts = contacts();
        try (ContactSolver solver = Backends.cpu()) {
            SolveResult first = run(solver, "soft step", bodies, contacts, null, new SolveResult());
            SolveResult second = run(solver, "soft step", bodies, contacts, first, new SolveResult());
            switch (write) {
                case "setId" -> contacts.setId(2, contacts.id(0));
                case "setIds" -> contacts.setIds(1, new int[] {contacts.id(1), contacts.id(0)}, 0, 2);
                default -> {
                    contacts.clear();
                    contacts.add(0, 1, new Vector3f(0.5f, 0, 0), new Vector3f(1, 0, 0), 0.5f);
                    contacts.add(1, 2, new Vector3f(1.5f, 0, 0), new Vector3f(1, 0, 0), 0.5f);
                    contacts.add(ContactBatch.WORLD, 2, new Vector3f(2, -1, 0), new Vector3f(0, 1, 0), 0.5f, 0.0f,
                            0.0f, 0.0f, 0);
                }
            }
            InvalidInputException fault = assertThrows(InvalidInputException.class,
                    () -> run(solver, "soft step", bodies, contacts, second, new SolveResult()));
            assertEquals("contact 2, field 'id': duplicate contact id 0 (also contact 0); warm starting matches "
                    + "by id", fault.getMessage());
        }
    }

    private static SolveResult run(ContactSolver solver, String call, BodyBatch bodies, ContactBatch contacts,
            SolveResult warmStart, SolveResult dest) {
        Vector3f gravity = new Vector3f(0, -10, 0);
        return switch (call) {
            case "iterative solve" -> solver.solve(bodies, contacts, SolveSettings.iterative(5), warmStart, dest);
            case "iterative step" -> solver.step(bodies, contacts, SolveSettings.iterative(5), gravity, 0.01f,
                    warmStart, dest);
            default -> solver.step(bodies, contacts, SolveSettings.softStep(), gravity, 0.01f, warmStart, dest);
        };
    }

    /**
     * The single pass reads no id, so it takes repeated ones; but its result cannot warm start a
     * solve that matches by id: the two impulses of one id could not be told apart, and the call
     * says so, naming both contacts and the id.
     */
    @Test
    void aSinglePassTakesRepeatedIdsButItsResultCannotWarmStartWithThem() {
        ContactBatch repeated = contacts();
        repeated.setId(2, repeated.id(0));
        try (ContactSolver solver = Backends.cpu()) {
            SolveResult single = solver.solve(bodies(), repeated, new SolveResult());
            assertEquals(3, single.contactCount());
            IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> solver.solve(
                    bodies(), contacts(), SolveSettings.iterative(5), single, new SolveResult()));
            assertEquals("warmStart: its contacts 0 and 2 share id 0, so their impulses cannot be told apart (the "
                    + "single pass does not check ids; a warm start needs distinct ones)", refused.getMessage());
        }
    }
}
