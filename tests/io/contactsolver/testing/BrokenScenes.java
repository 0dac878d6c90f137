package io.contactsolver.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;

/**
 * A small good scene as file lines, and every way of breaking one line of it, with the location
 * and problem the one-line error must name. Shared by the reader's and the command line's tests.
 */
public final class BrokenScenes {
    private BrokenScenes() {
    }

    public static final String BODY_HEADER =
            "id,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz,inv_mass,inv_ixx,inv_iyy,inv_izz,inv_ixy,inv_ixz,inv_iyz";
    public static final String CONTACT_HEADER = "id,a,b,px,py,pz,nx,ny,nz,restitution";

    /** Two good bodies (ids 10 and 20) and two good contacts (ids 5 and 6), as file lines. */
    public static String[] goodBodies() {
        return new String[] {BODY_HEADER,
            "10,0,0,0,1,0,0,0,1,0,0,0,0,0,0.5,2,2,2,0,0,0",
            "20,1,0,0,1,0,0,0,-1,0,0,0,0,1,1,0,0,0,0,0,0"};
    }

    public static String[] goodContacts() {
        return new String[] {CONTACT_HEADER,
            "5,10,20,0.5,0,0,1,0,0,0.5",
            "6,-1,20,1,-1,0,0,1,0,1"};
    }

    /** Which file is broken, how, and the location the message must start with. */
    public record Broken(String name, boolean inBodies, int line, String replacement, String location, String problem) {
        @Override
        public String toString() {
            return name;
        }
    }

    public static Stream<Arguments> brokenFiles() {
        return Stream.of(
                new Broken("missing body column", true, 1, BODY_HEADER.replace(",inv_iyz", ""), ":1: column 'inv_iyz'", "missing"),
                new Broken("missing contact column", false, 1, CONTACT_HEADER.replace(",nz", ""), ":1: column 'nz'", "missing"),
                new Broken("column twice", false, 1, CONTACT_HEADER + ",px", ":1: column 'px'", "twice"),
                new Broken("non-numeric field", true, 3, "20,1,0,0,1,0,0,0,abc,0,0,0,0,1,1,0,0,0,0,0,0", ":3: column 'vx'", "'abc' is not a number"),
                new Broken("empty field", true, 2, "10,0,0,0,1,0,0,0,1,0,0,0,0,0,,2,2,2,0,0,0", ":2: column 'inv_mass'", "empty field is not a number"),
                new Broken("number with a type suffix", false, 2, "5,10,20,0.5f,0,0,1,0,0,0.5", ":2: column 'px'", "is not a number"),
                new Broken("decimal comma", false, 3, "6,-1,20,1,-1,0,0,1,0,0;5", ":3: column 'restitution'", "is not a number"),
                new Broken("short row", true, 3, "20,1,0,0,1,0,0,0,-1,0,0,0,0,1,1,0,0,0,0,0", ":3: ", "short row: 20 fields where the header has 21"),
                new Broken("long row", false, 2, "5,10,20,0.5,0,0,1,0,0,0.5,9", ":2: ", "long row"),
                new Broken("non-integer id", true, 2, "1.5,0,0,0,1,0,0,0,1,0,0,0,0,0,0.5,2,2,2,0,0,0", ":2: column 'id'", "not an integer"),
                new Broken("negative body id", true, 2, "-4,0,0,0,1,0,0,0,1,0,0,0,0,0,0.5,2,2,2,0,0,0", ":2: column 'id'", "negative"),
                new Broken("duplicate body id", true, 3, "10,1,0,0,1,0,0,0,-1,0,0,0,0,1,1,0,0,0,0,0,0", ":3: column 'id'", "duplicate body id 10 (first on line 2)"),
                new Broken("duplicate contact id", false, 3, "5,-1,20,1,-1,0,0,1,0,1", ":3: column 'id'", "duplicate contact id 5 (first on line 2)"),
                new Broken("unknown body id", false, 2, "5,10,21,0.5,0,0,1,0,0,0.5", ":2: column 'b'", "unknown body id 21"),
                new Broken("a == b", false, 2, "5,20,20,0.5,0,0,1,0,0,0.5", ":2: columns 'a', 'b' of contact id 5", "same body"),
                new Broken("both the world", false, 3, "6,-1,-1,1,-1,0,0,1,0,1", ":3: columns 'a', 'b' of contact id 6", "both bodies are the world"),
                new Broken("NaN", true, 3, "20,1,0,NaN,1,0,0,0,-1,0,0,0,0,1,1,0,0,0,0,0,0", ":3: column 'z' of body id 20", "not finite"),
                new Broken("infinity", false, 2, "5,10,20,0.5,0,-inf,1,0,0,0.5", ":2: column 'pz' of contact id 5", "not finite"),
                new Broken("overflow to infinity", true, 2, "10,0,0,0,1,0,0,0,1e39,0,0,0,0,0,0.5,2,2,2,0,0,0", ":2: column 'vx' of body id 10", "not finite"),
                new Broken("negative inverse mass", true, 3, "20,1,0,0,1,0,0,0,-1,0,0,0,0,1,-1,0,0,0,0,0,0", ":3: column 'inv_mass' of body id 20", "negative"),
                new Broken("inertia not PSD", true, 2, "10,0,0,0,1,0,0,0,1,0,0,0,0,0,0.5,1,1,1,3,0,0", ":2: columns 'inv_ixx', 'inv_iyy', 'inv_izz', 'inv_ixy', 'inv_ixz', 'inv_iyz' of body id 10", "not positive semi-definite"),
                new Broken("orientation not unit", true, 2, "10,0,0,0,0.7,0,0,0,1,0,0,0,0,0,0.5,2,2,2,0,0,0", ":2: columns 'qw', 'qx', 'qy', 'qz' of body id 10", "not a unit quaternion"),
                new Broken("zero normal", false, 2, "5,10,20,0.5,0,0,0,0,0,0.5", ":2: columns 'nx', 'ny', 'nz' of contact id 5", "not unit length"),
                new Broken("non-unit normal", false, 3, "6,-1,20,1,-1,0,0,0.99,0,1", ":3: columns 'nx', 'ny', 'nz' of contact id 6", "not unit length"),
                new Broken("restitution above 1", false, 3, "6,-1,20,1,-1,0,0,1,0,1.5", ":3: column 'restitution' of contact id 6", "outside [0, 1]"),
                new Broken("negative restitution", false, 2, "5,10,20,0.5,0,0,1,0,0,-0.5", ":2: column 'restitution' of contact id 5", "outside [0, 1]"))
                .map(Arguments::of);
    }

    /** The contacts header with the optional friction columns. */
    public static final String FRICTION_CONTACT_HEADER = CONTACT_HEADER + ",friction,rolling_resistance,torsion";

    /** {@link #goodContacts} with friction, rolling and torsional resistance, as file lines. */
    public static String[] goodFrictionContacts() {
        return new String[] {FRICTION_CONTACT_HEADER,
            "5,10,20,0.5,0,0,1,0,0,0.5,0.4,0.01,0.005",
            "6,-1,20,1,-1,0,0,1,0,1,0.8,0.02,0"};
    }

    /** Every way of breaking a friction, rolling or torsional resistance value in {@link #goodFrictionContacts}. */
    public static Stream<Arguments> brokenFrictionFiles() {
        return Stream.of(
                new Broken("negative friction", false, 2, "5,10,20,0.5,0,0,1,0,0,0.5,-0.4,0.01,0.005", ":2: column 'friction' of contact id 5", "friction -0.4 is negative"),
                new Broken("NaN friction", false, 3, "6,-1,20,1,-1,0,0,1,0,1,NaN,0.02,0", ":3: column 'friction' of contact id 6", "not finite"),
                new Broken("infinite friction", false, 2, "5,10,20,0.5,0,0,1,0,0,0.5,inf,0.01,0.005", ":2: column 'friction' of contact id 5", "not finite"),
                new Broken("friction overflowing to infinity", false, 3, "6,-1,20,1,-1,0,0,1,0,1,1e39,0.02,0", ":3: column 'friction' of contact id 6", "not finite"),
                new Broken("non-numeric friction", false, 2, "5,10,20,0.5,0,0,1,0,0,0.5,rough,0.01,0.005", ":2: column 'friction'", "'rough' is not a number"),
                new Broken("empty friction", false, 3, "6,-1,20,1,-1,0,0,1,0,1,,0.02,0", ":3: column 'friction'", "empty field is not a number"),
                new Broken("negative rolling resistance", false, 3, "6,-1,20,1,-1,0,0,1,0,1,0.8,-0.02,0", ":3: column 'rolling_resistance' of contact id 6", "rolling resistance -0.02 is negative"),
                new Broken("NaN rolling resistance", false, 2, "5,10,20,0.5,0,0,1,0,0,0.5,0.4,NaN,0.005", ":2: column 'rolling_resistance' of contact id 5", "not finite"),
                new Broken("infinite rolling resistance", false, 3, "6,-1,20,1,-1,0,0,1,0,1,0.8,-inf,0", ":3: column 'rolling_resistance' of contact id 6", "not finite"),
                new Broken("non-numeric rolling resistance", false, 2, "5,10,20,0.5,0,0,1,0,0,0.5,0.4,1cm,0.005", ":2: column 'rolling_resistance'", "'1cm' is not a number"),
                new Broken("negative torsion", false, 2, "5,10,20,0.5,0,0,1,0,0,0.5,0.4,0.01,-0.005", ":2: column 'torsion' of contact id 5", "torsion -0.005 is negative"),
                new Broken("NaN torsion", false, 3, "6,-1,20,1,-1,0,0,1,0,1,0.8,0.02,NaN", ":3: column 'torsion' of contact id 6", "not finite"),
                new Broken("infinite torsion", false, 2, "5,10,20,0.5,0,0,1,0,0,0.5,0.4,0.01,inf", ":2: column 'torsion' of contact id 5", "not finite"),
                new Broken("non-numeric torsion", false, 3, "6,-1,20,1,-1,0,0,1,0,1,0.8,0.02,5mm", ":3: column 'torsion'", "'5mm' is not a number"))
                .map(Arguments::of);
    }

    /** Writes the good scene with friction columns, one contact line replaced; returns {bodies, contacts}. */
    public static Path[] writeBrokenFriction(Path dir, Broken broken) throws IOException {
        String[] contacts = goodFrictionContacts();
        contacts[broken.line() - 1] = broken.replacement();
        return new Path[] {Files.write(dir.resolve("bodies.csv"), String.join("\n", goodBodies()).getBytes()),
            Files.write(dir.resolve("contacts.csv"), String.join("\n", contacts).getBytes())};
    }

    /** Writes the good scene with one line replaced; returns {bodies, contacts}. */
    public static Path[] writeBroken(Path dir, Broken broken) throws IOException {
        String[] bodies = goodBodies();
        String[] contacts = goodContacts();
        (broken.inBodies() ? bodies : contacts)[broken.line() - 1] = broken.replacement();
        return new Path[] {Files.write(dir.resolve("bodies.csv"), String.join("\n", bodies).getBytes()),
            Files.write(dir.resolve("contacts.csv"), String.join("\n", contacts).getBytes())};
    }

}
