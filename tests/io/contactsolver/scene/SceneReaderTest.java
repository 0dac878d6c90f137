package io.contactsolver.scene;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.contactsolver.ContactBatch;
import io.contactsolver.ContactSolver;
import io.contactsolver.RigidSettings;
import io.contactsolver.SolveResult;
import io.contactsolver.SolveSettings;
import io.contactsolver.layout.BodyField;
import io.contactsolver.testing.Backends;
import io.contactsolver.testing.Bits;
import io.contactsolver.testing.BrokenScenes.Broken;
import io.contactsolver.testing.BrokenScenes;
import io.contactsolver.testing.FrictionScenes;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import org.joml.Vector3f;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** bodies.csv and contacts.csv as docs/formats.md defines them, and every way they can be wrong. */
class SceneReaderTest {
    @TempDir
    Path dir;

    @Test
    void readsColumnsInAnyOrderIgnoringExtrasBlankLinesAndSpaces() throws Exception {
        Path bodies = write("bodies.csv",
                "inv_iyz, inv_ixz,inv_ixy,inv_izz,inv_iyy,inv_ixx,inv_mass,wz,wy,wx,vz,vy,vx,qz,qy,qx,qw,z,y,x,id,colour",
                "0,0,0,2,2,2,0.5,0,0,0,0,0,1,0,0,0,1,0,0,0,10,red",
                "",
                "0,0,0,0,0,0,1,1,0,0,0,0,-1,0,0,0,1,0,0,1 ,20,blue\r");
        Path contacts = write("contacts.csv", "restitution,nz,ny,nx,pz,py,px,b,a,id,note", "0.5,0,0,1,0,0,0.5,20,10,5,x");
        Scene scene = SceneReader.read(bodies, contacts);
        assertEquals(2, scene.bodies().size());
        assertEquals(20, scene.bodyIds()[1]);
        assertEquals(1.0f, scene.bodies().get(BodyField.X, 1));
        assertEquals(-1.0f, scene.bodies().get(BodyField.VX, 1));
        assertEquals(4, scene.bodyLines()[1], "line numbers count blank lines");
        assertEquals(0, scene.contacts().bodyA(0));
        assertEquals(1, scene.contacts().bodyB(0));
        assertEquals(5, scene.contacts().id(0));
    }

    @Test
    void theSeparationColumnIsOptional() throws Exception {
        Scene without = SceneReader.read(write("bodies.csv", BrokenScenes.goodBodies()),
                write("contacts.csv", BrokenScenes.goodContacts()));
        assertEquals(0.0f, without.contacts().separation(0));
        Scene with = SceneReader.read(write("bodies.csv", BrokenScenes.goodBodies()),
                write("contacts.csv", "separation," + BrokenScenes.CONTACT_HEADER, "-0.25,5,10,20,0.5,0,0,1,0,0,0.5"));
        assertEquals(-0.25f, with.contacts().separation(0));
    }

    @Test
    void theWorldIsBodyIdMinusOne() throws Exception {
        Scene scene = SceneReader.read(write("bodies.csv", BrokenScenes.goodBodies()), write("contacts.csv", BrokenScenes.goodContacts()));
        assertEquals(ContactBatch.WORLD, scene.contacts().bodyA(1));
        assertEquals(new Vector3f(0, 1, 0), scene.contacts().getNormal(1, new Vector3f()));
    }

    @Test
    void aWrittenSceneReadsBackToTheSameBitsAndTheSameSolution() throws Exception {
        Scene original = SceneGenerator.randomGraph(9, 300, 2000);
        Path bodies = dir.resolve("b.csv");
        Path contacts = dir.resolve("c.csv");
        SceneWriter.writeScene(bodies, contacts, original);
        Scene read = SceneReader.read(bodies, contacts);
        for (int c = 0; c < original.contacts().size(); c++) {
            assertEquals(original.contacts().id(c), read.contacts().id(c));
        }
        try (ContactSolver solver = Backends.cpu()) {
            SolveResult expected = solver.solve(original.bodies(), original.contacts(), new SolveResult());
            SolveResult actual = solver.solve(read.bodies(), read.contacts(), new SolveResult());
            Bits.assertIdentical(expected, actual, "written and read back");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.contactsolver.testing.BrokenScenes#brokenFiles")
    void refusesBrokenFilesNamingFileLineAndColumn(Broken broken) throws IOException {
        Path[] files = BrokenScenes.writeBroken(dir, broken);
        SceneFormatException fault = assertThrows(SceneFormatException.class, () -> SceneReader.read(files[0], files[1]));
        Path culprit = broken.inBodies() ? files[0] : files[1];
        assertTrue(fault.getMessage().startsWith(culprit + broken.location()), fault.getMessage());
        assertTrue(fault.getMessage().contains(broken.problem()), fault.getMessage());
        assertEquals(broken.line(), fault.line());
        assertEquals(1, fault.getMessage().lines().count(), "one line");
    }

    /**
     * Ids are checked for repeats once a file is read, or once a fault stops it, yet a file is
     * refused at its first fault: a repeated id before a bad field, the bad field before a later
     * repeat, and on one line the repeat before the fields, after the bodies a contact names.
     */
    @Test
    void aFileIsRefusedAtItsFirstFaultWhetherThatIsARepeatedIdOrNot() throws IOException {
        String body = ",0,0,0,1,0,0,0,1,0,0,0,0,0,0.5,2,2,2,0,0,0";
        String badBody = ",0,0,0,1,0,0,0,1,0,0,0,0,0,x,2,2,2,0,0,0";
        Path contacts = write("contacts.csv", BrokenScenes.goodContacts());
        assertRefusedAt(write("bodies.csv", BrokenScenes.BODY_HEADER, "10" + body, "20" + body, "10" + body,
                "30" + badBody), contacts, 4, "duplicate body id 10 (first on line 2)");
        assertRefusedAt(write("bodies.csv", BrokenScenes.BODY_HEADER, "10" + body, "20" + badBody, "10" + body),
                contacts, 3, "column 'inv_mass'");
        assertRefusedAt(write("bodies.csv", BrokenScenes.BODY_HEADER, "10" + body, "20" + body, "10" + badBody),
                contacts, 4, "duplicate body id 10 (first on line 2)");

        Path bodies = write("bodies.csv", BrokenScenes.goodBodies());
        assertRefusedAt(bodies, write("contacts.csv", BrokenScenes.CONTACT_HEADER, "7,10,20,0.5,0,0,1,0,0,0.5",
                "8,-1,20,1,-1,0,0,1,0,1", "7,-1,10,1,-1,0,0,1,0,y", "9,10,21,0.5,0,0,1,0,0,0.5"), 4,
                "duplicate contact id 7 (first on line 2)");
        assertRefusedAt(bodies, write("contacts.csv", BrokenScenes.CONTACT_HEADER, "7,10,20,0.5,0,0,1,0,0,0.5",
                "7,10,21,0.5,0,0,1,0,0,0.5"), 3, "unknown body id 21");
        // a file's ids in any order, not only counting up: the repeat is the earliest line of any id given before
        assertRefusedAt(bodies, write("contacts.csv", BrokenScenes.CONTACT_HEADER, "9,10,20,0.5,0,0,1,0,0,0.5",
                "3,-1,20,1,-1,0,0,1,0,1", "8,-1,10,1,-1,0,0,1,0,1", "3,-1,10,1,-1,0,0,1,0,1",
                "9,-1,10,1,-1,0,0,1,0,1"), 5, "duplicate contact id 3 (first on line 3)");
    }

    private static void assertRefusedAt(Path bodies, Path contacts, int line, String problem) {
        SceneFormatException fault = assertThrows(SceneFormatException.class, () -> SceneReader.read(bodies, contacts));
        assertEquals(line, fault.line(), fault.getMessage());
        assertTrue(fault.getMessage().contains(problem), fault.getMessage());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.contactsolver.testing.BrokenScenes#brokenFrictionFiles")
    void refusesBadFrictionNamingFileLineAndColumn(Broken broken) throws IOException {
        Path[] files = BrokenScenes.writeBrokenFriction(dir, broken);
        SceneFormatException fault = assertThrows(SceneFormatException.class, () -> SceneReader.read(files[0], files[1]));
        assertTrue(fault.getMessage().startsWith(files[1] + broken.location()), fault.getMessage());
        assertTrue(fault.getMessage().contains(broken.problem()), fault.getMessage());
        assertEquals(broken.line(), fault.line());
        assertEquals(1, fault.getMessage().lines().count(), "one line");
    }

    @Test
    void frictionColumnsAreOptionalAndRead() throws Exception {
        Scene without = SceneReader.read(write("bodies.csv", BrokenScenes.goodBodies()),
                write("contacts.csv", BrokenScenes.goodContacts()));
        assertEquals(0.0f, without.contacts().friction(1));
        assertEquals(0.0f, without.contacts().rollingResistance(1));
        Scene with = SceneReader.read(write("bodies.csv", BrokenScenes.goodBodies()),
                write("contacts.csv", BrokenScenes.goodFrictionContacts()));
        assertEquals(0.8f, with.contacts().friction(1));
        assertEquals(0.02f, with.contacts().rollingResistance(1));
        // in any order, and either alone
        Scene reordered = SceneReader.read(write("bodies.csv", BrokenScenes.goodBodies()),
                write("contacts.csv", "rolling_resistance," + BrokenScenes.CONTACT_HEADER, "0.03,5,10,20,0.5,0,0,1,0,0,0.5"));
        assertEquals(0.03f, reordered.contacts().rollingResistance(0));
        assertEquals(0.0f, reordered.contacts().friction(0));
    }

    /**
     * docs/formats.md, "contacts.csv": the optional manifold column, an integer a contact (default -1,
     * a manifold of its own), whose runs of equal numbers the solvers check as manifolds; written by
     * SceneWriter only when some contact has a manifold, and read back to the same numbers.
     */
    @Test
    void theManifoldColumnIsOptionalReadCheckedAndWritten() throws Exception {
        Path bodies = write("bodies.csv", BrokenScenes.goodBodies());
        Scene without = SceneReader.read(bodies, write("contacts.csv", BrokenScenes.goodContacts()));
        assertEquals(ContactBatch.NO_MANIFOLD, without.contacts().manifold(0));
        Scene with = SceneReader.read(bodies, write("contacts.csv", "manifold," + BrokenScenes.CONTACT_HEADER,
                "3,5,10,20,0.5,0,0,1,0,0,0.5", "3,6,10,20,-0.5,0,0,1,0,0,0.5"));
        assertEquals(3, with.contacts().manifold(0));
        assertEquals(3, with.contacts().manifold(1));
        ContactSolver.validate(with.bodies(), with.contacts());

        Path mismatched = write("contacts.csv", "manifold," + BrokenScenes.CONTACT_HEADER,
                "3,5,10,20,0.5,0,0,1,0,0,0.5", "3,6,10,20,-0.5,0,0,1,0,0,0.25");
        SceneFormatException refused = assertThrows(SceneFormatException.class,
                () -> SceneReader.read(bodies, mismatched));
        assertEquals(mismatched + ":3: column 'restitution' of contact id 6: manifold 3 has restitution 0.5 at its "
                + "first point, contact 0, but 0.25 here; a manifold's points share it", refused.getMessage());

        SceneFormatException notANumber = assertThrows(SceneFormatException.class, () -> SceneReader.read(bodies,
                write("contacts.csv", "manifold," + BrokenScenes.CONTACT_HEADER, "x,5,10,20,0.5,0,0,1,0,0,0.5")));
        assertTrue(notANumber.getMessage().contains("manifold"), notANumber.getMessage());

        Path writtenBodies = dir.resolve("mb.csv");
        Path writtenContacts = dir.resolve("mc.csv");
        SceneWriter.writeScene(writtenBodies, writtenContacts, with);
        assertTrue(Files.readAllLines(writtenContacts).get(0).endsWith(",manifold"), "the header names the column");
        Scene read = SceneReader.read(writtenBodies, writtenContacts);
        assertEquals(3, read.contacts().manifold(1));
        SceneWriter.writeScene(writtenBodies, writtenContacts, without);
        assertTrue(!Files.readAllLines(writtenContacts).get(0).contains("manifold"), "no column without manifolds");
    }

    /**
     * docs/formats.md, "contacts.csv": the optional torsion column, read like rolling_resistance
     * (default 0, any order, alone), written by SceneWriter after it and read back to the same bits
     * and the same iterative solution.
     */
    @Test
    void theTorsionColumnIsOptionalReadAndWritten() throws Exception {
        Path bodies = write("bodies.csv", BrokenScenes.goodBodies());
        assertEquals(0.0f, SceneReader.read(bodies, write("contacts.csv", BrokenScenes.goodContacts())).contacts()
                .torsion(1));
        Scene with = SceneReader.read(bodies, write("contacts.csv", BrokenScenes.goodFrictionContacts()));
        assertEquals(0.005f, with.contacts().torsion(0));
        assertEquals(0.0f, with.contacts().torsion(1));
        assertEquals(0.02f, with.contacts().rollingResistance(1));
        Scene alone = SceneReader.read(bodies,
                write("contacts.csv", "torsion," + BrokenScenes.CONTACT_HEADER, "0.012,5,10,20,0.5,0,0,1,0,0,0.5"));
        assertEquals(0.012f, alone.contacts().torsion(0));
        assertEquals(0.0f, alone.contacts().rollingResistance(0));
        assertEquals(0.0f, alone.contacts().friction(0));

        Scene original = SceneGenerator.randomGraph(10, 300, 2000);
        FrictionScenes.randomFriction(new SplittableRandom(10), original.contacts());
        FrictionScenes.randomTorsion(new SplittableRandom(11), original.contacts());
        Path writtenBodies = dir.resolve("b.csv");
        Path writtenContacts = dir.resolve("c.csv");
        SceneWriter.writeScene(writtenBodies, writtenContacts, original);
        assertTrue(Files.readAllLines(writtenContacts).get(0).endsWith(",friction,rolling_resistance,torsion"),
                "the header names the column");
        Scene read = SceneReader.read(writtenBodies, writtenContacts);
        for (int c = 0; c < original.contacts().size(); c++) {
            assertEquals(Float.floatToRawIntBits(original.contacts().torsion(c)),
                    Float.floatToRawIntBits(read.contacts().torsion(c)), "torsion of contact " + c);
        }
        try (ContactSolver solver = Backends.cpu()) {
            RigidSettings settings = SolveSettings.iterative(10);
            SolveResult expected = solver.solve(original.bodies(), original.contacts(), settings, new SolveResult());
            Bits.assertIdentical(expected, solver.solve(read.bodies(), read.contacts(), settings, new SolveResult()),
                    "written and read back, with torsion");
        }
    }

    @Test
    void refusesEmptyAndMissingFiles() throws IOException {
        Path empty = write("empty.csv");
        Path contacts = write("contacts.csv", BrokenScenes.goodContacts());
        SceneFormatException fault = assertThrows(SceneFormatException.class, () -> SceneReader.read(empty, contacts));
        assertEquals(empty + ": empty file, expected a header row", fault.getMessage());
        Path missing = dir.resolve("nope.csv");
        fault = assertThrows(SceneFormatException.class, () -> SceneReader.read(missing, contacts));
        assertEquals(missing + ": no such file", fault.getMessage());
    }

    /**
     * The number grammar docs/formats.md states, example by example: the document lists each of
     * these, and the reader reads them to the value it says (it no longer claims "as Java reads a
     * float", which would take hexadecimal and type suffixes).
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = ';', value = {"1;1.0", "-2.5;-2.5", "+.5;0.5", "5.;5.0", "1e-3;0.001",
        "6.02E+23;6.02E23"})
    void readsTheDecimalsFormatsMdLists(String text, float value) throws Exception {
        assertTrue(numbersRule().contains("`" + text + "`"), "docs/formats.md lists " + text);
        Scene scene = SceneReader.read(bodyWithX(text), write("contacts.csv", BrokenScenes.goodContacts()));
        assertEquals(value, scene.bodies().get(BodyField.X, 0));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"0x1p3", "1f", "2d"})
    void refusesWhatFormatsMdSaysIsNotANumber(String text) throws Exception {
        assertTrue(numbersRule().contains("`" + text + "`"), "docs/formats.md lists " + text);
        assertFalse(numbersRule().contains("as Java reads"), "the grammar, not Java's");
        Path bodies = bodyWithX(text);
        SceneFormatException refused = assertThrows(SceneFormatException.class,
                () -> SceneReader.read(bodies, write("contacts.csv", BrokenScenes.goodContacts())));
        assertEquals(bodies + ":2: column 'x': '" + text + "' is not a number", refused.getMessage());
    }

    /** The numbers rule of docs/formats.md, "General rules": from its bullet to the next one. */
    private static String numbersRule() throws IOException {
        String doc = Files.readString(Path.of("docs/formats.md"));
        int start = doc.indexOf("\n- Numbers ");
        assertTrue(start >= 0, "docs/formats.md has a rule for numbers");
        return doc.substring(start, doc.indexOf("\n- ", start + 1));
    }

    /** bodies.csv of BrokenScenes.goodBodies() with its first body's x written as {@code text}. */
    private Path bodyWithX(String text) throws IOException {
        String[] lines = BrokenScenes.goodBodies();
        lines[1] = lines[1].replaceFirst("^10,0,", "10," + text + ",");
        return write("bodies.csv", lines);
    }

    private Path write(String name, String... lines) throws IOException {
        return Files.write(dir.resolve(name), String.join("\n", lines).getBytes());
    }
}
