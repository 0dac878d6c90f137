package io.contactsolver.scene;

import io.contactsolver.BodyBatch;
import io.contactsolver.ContactBatch;
import io.contactsolver.ContactSolver;
import io.contactsolver.InvalidInputException;
import io.contactsolver.NonFiniteResultException;
import io.contactsolver.layout.BodyField;
import io.contactsolver.layout.ContactField;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Reads {@code bodies.csv} and {@code contacts.csv} (docs/formats.md) into a {@link Scene}.
 *
 * <p>A scene that reads is one a solver accepts. The files' own rules are checked while reading
 * (header, field counts, numbers, integer ids, duplicate ids, contacts naming unknown bodies); then
 * the solver's checks ({@link ContactSolver#validate}: finite values, unit normals and quaternions,
 * positive semi-definite inertia, ...) run, and a fault is reported at the line and column it came
 * from.
 */
public final class SceneReader {
    static final String ID = "id";
    /** The optional column of a contact's manifold number ({@code ContactBatch.setManifold}). */
    static final String MANIFOLD = "manifold";

    private SceneReader() {
    }

    public static Scene read(Path bodiesFile, Path contactsFile) throws IOException, SceneFormatException {
        Scene scene = parse(bodiesFile, contactsFile);
        try {
            ContactSolver.validate(scene.bodies(), scene.contacts());
        } catch (InvalidInputException fault) {
            throw locate(scene, bodiesFile, contactsFile, fault);
        }
        return scene;
    }

    private static Scene parse(Path bodiesFile, Path contactsFile) throws IOException, SceneFormatException {
        BodyBatch bodies = new BodyBatch(1024);
        int[] bodyIds = new int[1024];
        int[] bodyLines = new int[1024];
        try (CsvReader csv = new CsvReader(bodiesFile)) {
            int idColumn = csv.column(ID);
            BodyField[] fields = BodyField.values();
            int[] columns = new int[fields.length];
            for (BodyField field : fields) {
                columns[field.ordinal()] = csv.column(field.column());
            }
            while (csv.next()) {
                int id = csv.integer(idColumn, ID);
                if (id < 0) {
                    throw new SceneFormatException(bodiesFile, csv.line(), SceneFormatException.column(ID),
                            "body id " + id + " is negative");
                }
                int body = bodies.add();
                if (body == bodyIds.length) {
                    bodyIds = Arrays.copyOf(bodyIds, body * 2);
                    bodyLines = Arrays.copyOf(bodyLines, body * 2);
                }
                // recorded before the fields are read: a repeated id is its line's first fault
                bodyIds[body] = id;
                bodyLines[body] = csv.line();
                for (BodyField field : fields) {
                    bodies.set(field, body, csv.number(columns[field.ordinal()], field.column()));
                }
            }
        } catch (SceneFormatException fault) {
            SceneFormatException earlier = repeat(bodiesFile, "body", IdTable.of(bodyIds, bodies.size()), bodyIds,
                    bodyLines);
            throw earlier != null ? earlier : fault;
        }
        IdTable bodyIndex = IdTable.of(bodyIds, bodies.size());
        SceneFormatException repeatedBody = repeat(bodiesFile, "body", bodyIndex, bodyIds, bodyLines);
        if (repeatedBody != null) {
            throw repeatedBody;
        }

        ContactBatch contacts = new ContactBatch(1024);
        int[] contactIds = new int[1024];
        int[] contactLines = new int[1024];
        int recorded = 0; // contacts whose id and line are in the arrays
        try (CsvReader csv = new CsvReader(contactsFile)) {
            int idColumn = csv.column(ID);
            int aColumn = csv.column("a");
            int bColumn = csv.column("b");
            int manifoldColumn = csv.optionalColumn(MANIFOLD);
            ContactField[] fields = ContactField.values();
            int[] columns = new int[fields.length];
            for (ContactField field : fields) {
                columns[field.ordinal()] = field.isOptional() ? csv.optionalColumn(field.column())
                        : csv.column(field.column());
            }
            while (csv.next()) {
                int id = csv.integer(idColumn, ID);
                int a = bodyReference(csv, aColumn, "a", bodyIndex);
                int b = bodyReference(csv, bColumn, "b", bodyIndex);
                int contact = contacts.add(a, b, 0, 0, 0, 0, 0, 0, 0);
                if (contact == contactLines.length) {
                    contactIds = Arrays.copyOf(contactIds, contact * 2);
                    contactLines = Arrays.copyOf(contactLines, contact * 2);
                }
                // recorded after the bodies it names and before the fields: the order of a line's faults
                contactIds[contact] = id;
                contactLines[contact] = csv.line();
                recorded = contact + 1;
                contacts.setId(contact, id);
                if (manifoldColumn >= 0) {
                    contacts.setManifold(contact, csv.integer(manifoldColumn, MANIFOLD));
                }
                for (ContactField field : fields) {
                    int column = columns[field.ordinal()];
                    contacts.set(field, contact, column < 0 ? 0.0f : csv.number(column, field.column()));
                }
            }
        } catch (SceneFormatException fault) {
            SceneFormatException earlier = repeat(contactsFile, "contact", IdTable.of(contactIds, recorded),
                    contactIds, contactLines);
            throw earlier != null ? earlier : fault;
        }
        SceneFormatException repeatedContact = repeat(contactsFile, "contact", IdTable.of(contactIds, recorded),
                contactIds, contactLines);
        if (repeatedContact != null) {
            throw repeatedContact;
        }
        return new Scene(bodies, Arrays.copyOf(bodyIds, bodies.size()), contacts,
                Arrays.copyOf(bodyLines, bodies.size()), Arrays.copyOf(contactLines, contacts.size()));
    }

    /**
     * The fault of the first record of {@code table}, in file order, whose id an earlier record
     * already had, or null if its ids are unique. Checked once the records are read, and when a
     * fault stops the reading (on the records read until then), so that a file is refused at its
     * first fault, as if each id had been checked as it came.
     */
    private static SceneFormatException repeat(Path file, String noun, IdTable table, int[] ids, int[] lines) {
        int repeat = table.firstRepeat();
        if (repeat < 0) {
            return null;
        }
        return new SceneFormatException(file, lines[repeat], SceneFormatException.column(ID), "duplicate " + noun
                + " id " + ids[repeat] + " (first on line " + lines[table.recordOf(ids[repeat])] + ")");
    }

    /** Where in the files a fault found by the solver came from: the file, line, column(s) and id. */
    private static SceneFormatException locate(Scene scene, Path bodiesFile, Path contactsFile,
            InvalidInputException fault) {
        boolean body = fault.subject() == InvalidInputException.Subject.BODY;
        int index = fault.index();
        int line = body ? lineOf(scene.bodyLines(), index) : lineOf(scene.contactLines(), index);
        int id = body ? scene.bodyIds()[index] : scene.contacts().id(index);
        String location = InvalidInputException.describe("column", fault.fields()) + " of "
                + (body ? "body" : "contact") + " id " + id;
        return new SceneFormatException(body ? bodiesFile : contactsFile, line, location, fault.problem());
    }

    /**
     * A result that cannot be used, located at the record it belongs to:
     * {@code FILE:LINE: contact id 6: problem}.
     */
    public static SceneFormatException locate(Scene scene, Path bodiesFile, Path contactsFile,
            NonFiniteResultException fault) {
        boolean body = fault.subject() == InvalidInputException.Subject.BODY;
        int index = fault.index();
        int line = body ? lineOf(scene.bodyLines(), index) : lineOf(scene.contactLines(), index);
        int id = body ? scene.bodyIds()[index] : scene.contacts().id(index);
        return new SceneFormatException(body ? bodiesFile : contactsFile, line, (body ? "body" : "contact") + " id " + id,
                fault.problem());
    }

    private static int lineOf(int[] lines, int index) {
        return lines == null ? 0 : lines[index];
    }

    private static int bodyReference(CsvReader csv, int column, String name, IdTable bodyIndex)
            throws SceneFormatException {
        int id = csv.integer(column, name);
        if (id == ContactBatch.WORLD) {
            return ContactBatch.WORLD;
        }
        int index = bodyIndex.recordOf(id);
        if (index < 0) {
            throw new SceneFormatException(csv.file(), csv.line(), SceneFormatException.column(name),
                    "unknown body id " + id);
        }
        return index;
    }
}
