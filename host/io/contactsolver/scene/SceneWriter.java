package io.contactsolver.scene;

import io.contactsolver.BodyField;
import io.contactsolver.ContactBatch;
import io.contactsolver.ContactField;
import io.contactsolver.DeltaField;
import io.contactsolver.SolveResult;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes the files of FORMATS.md: the outputs of {@code solve} ({@code deltas.csv}, one row per
 * body, and {@code impulses.csv}, one row per contact, in input order, keyed by id) and scenes
 * ({@code bodies.csv}, {@code contacts.csv}).
 *
 * <p>Every file of a set is first written under a temporary name beside its target, and all are
 * renamed only when all are complete: a failure leaves no partial file and keeps earlier output
 * intact. Floats are printed with {@link Float#toString(float)}, which reads back to the same bits.
 */
public final class SceneWriter {
    public static final String DELTAS = "deltas.csv";
    public static final String IMPULSES = "impulses.csv";

    private SceneWriter() {
    }

    /** Writes {@code deltas.csv} and {@code impulses.csv} into {@code outDir}, creating it if needed. */
    public static void writeResults(Path outDir, Scene scene, SolveResult result) throws IOException {
        Files.createDirectories(outDir);
        writeAll(List.of(
                new Output(outDir.resolve(DELTAS), out -> writeDeltas(out, scene, result)),
                new Output(outDir.resolve(IMPULSES), out -> writeImpulses(out, scene, result))));
    }

    /** Writes a scene as a bodies file and a contacts file. */
    public static void writeScene(Path bodiesFile, Path contactsFile, Scene scene) throws IOException {
        writeAll(List.of(new Output(bodiesFile, out -> writeBodies(out, scene)),
                new Output(contactsFile, out -> writeContacts(out, scene))));
    }

    @FunctionalInterface
    private interface Content {
        void writeTo(BufferedWriter out) throws IOException;
    }

    private record Output(Path target, Content content) {
    }

    private static void writeAll(List<Output> outputs) throws IOException {
        List<Path> temporaries = new ArrayList<>();
        try {
            for (Output output : outputs) {
                Path parent = output.target().toAbsolutePath().getParent();
                Files.createDirectories(parent);
                Path temporary = Files.createTempFile(parent, "." + output.target().getFileName(), ".tmp");
                temporaries.add(temporary);
                try (BufferedWriter out = Files.newBufferedWriter(temporary, StandardCharsets.UTF_8)) {
                    output.content().writeTo(out);
                }
            }
            for (int i = 0; i < outputs.size(); i++) {
                move(temporaries.get(i), outputs.get(i).target());
            }
        } finally {
            for (Path temporary : temporaries) {
                Files.deleteIfExists(temporary);
            }
        }
    }

    private static void writeDeltas(BufferedWriter out, Scene scene, SolveResult result) throws IOException {
        StringBuilder row = new StringBuilder(SceneReader.ID);
        for (DeltaField field : DeltaField.values()) {
            row.append(',').append(field.column());
        }
        out.append(row).append('\n');
        for (int i = 0; i < result.bodyCount(); i++) {
            row.setLength(0);
            row.append(scene.bodyIds()[i]);
            for (DeltaField field : DeltaField.values()) {
                row.append(',').append(result.delta(field, i));
            }
            out.append(row).append('\n');
        }
    }

    private static void writeImpulses(BufferedWriter out, Scene scene, SolveResult result) throws IOException {
        out.append(SceneReader.ID).append(",j\n");
        StringBuilder row = new StringBuilder();
        for (int c = 0; c < result.contactCount(); c++) {
            row.setLength(0);
            row.append(scene.contacts().id(c)).append(',').append(result.impulse(c)).append('\n');
            out.append(row);
        }
    }

    private static void writeBodies(BufferedWriter out, Scene scene) throws IOException {
        StringBuilder row = new StringBuilder(SceneReader.ID);
        for (BodyField field : BodyField.values()) {
            row.append(',').append(field.column());
        }
        out.append(row).append('\n');
        for (int i = 0; i < scene.bodies().size(); i++) {
            row.setLength(0);
            row.append(scene.bodyIds()[i]);
            for (BodyField field : BodyField.values()) {
                row.append(',').append(scene.bodies().get(field, i));
            }
            out.append(row).append('\n');
        }
    }

    private static void writeContacts(BufferedWriter out, Scene scene) throws IOException {
        StringBuilder row = new StringBuilder(SceneReader.ID).append(",a,b");
        for (ContactField field : ContactField.values()) {
            row.append(',').append(field.column());
        }
        out.append(row).append('\n');
        ContactBatch contacts = scene.contacts();
        for (int c = 0; c < contacts.size(); c++) {
            row.setLength(0);
            row.append(contacts.id(c)).append(',').append(fileId(scene, contacts.bodyA(c))).append(',')
                    .append(fileId(scene, contacts.bodyB(c)));
            for (ContactField field : ContactField.values()) {
                row.append(',').append(contacts.get(field, c));
            }
            out.append(row).append('\n');
        }
    }

    private static int fileId(Scene scene, int body) {
        return body == ContactBatch.WORLD ? ContactBatch.WORLD : scene.bodyIds()[body];
    }

    private static void move(Path from, Path to) throws IOException {
        try {
            Files.move(from, to, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
        }
    }
}
