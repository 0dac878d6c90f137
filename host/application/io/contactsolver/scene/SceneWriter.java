package io.contactsolver.scene;

import io.contactsolver.ContactBatch;
import io.contactsolver.SolveResult;
import io.contactsolver.layout.BodyField;
import io.contactsolver.layout.ContactField;
import io.contactsolver.layout.DeltaField;
import io.contactsolver.layout.ImpulseField;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Writes the files of docs/formats.md: the outputs of {@code solve} ({@code deltas.csv}, one row per
 * body, and {@code impulses.csv}, one row per contact, in input order, keyed by id) and scenes
 * ({@code bodies.csv}, {@code contacts.csv}).
 *
 * <p>Each set of files is written with {@link AtomicFiles}: a failure leaves no partial file and
 * keeps earlier output intact. Floats are printed with {@link Float#toString(float)}, which reads
 * back to the same bits.
 */
public final class SceneWriter {
    public static final String DELTAS = "deltas.csv";
    public static final String IMPULSES = "impulses.csv";

    private SceneWriter() {
    }

    /** Writes {@code deltas.csv} and {@code impulses.csv} into {@code outDir}, creating it if needed. */
    public static void writeResults(Path outDir, Scene scene, SolveResult result) throws IOException {
        Files.createDirectories(outDir);
        AtomicFiles.write(List.of(
                AtomicFiles.Output.text(outDir.resolve(DELTAS), out -> writeDeltas(out, scene, result)),
                AtomicFiles.Output.text(outDir.resolve(IMPULSES), out -> writeImpulses(out, scene, result))));
    }

    /** Writes a scene as a bodies file and a contacts file. */
    public static void writeScene(Path bodiesFile, Path contactsFile, Scene scene) throws IOException {
        AtomicFiles.write(List.of(AtomicFiles.Output.text(bodiesFile, out -> writeBodies(out, scene)),
                AtomicFiles.Output.text(contactsFile, out -> writeContacts(out, scene))));
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
        StringBuilder row = new StringBuilder(SceneReader.ID);
        for (ImpulseField field : ImpulseField.values()) {
            row.append(',').append(field.column());
        }
        out.append(row).append('\n');
        for (int c = 0; c < result.contactCount(); c++) {
            row.setLength(0);
            row.append(scene.contacts().id(c));
            for (ImpulseField field : ImpulseField.values()) {
                row.append(',').append(result.impulse(field, c));
            }
            out.append(row).append('\n');
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
        ContactBatch contacts = scene.contacts();
        boolean manifolds = false;
        for (int c = 0; c < contacts.size() && !manifolds; c++) {
            manifolds = contacts.manifold(c) != ContactBatch.NO_MANIFOLD;
        }
        if (manifolds) {
            row.append(',').append(SceneReader.MANIFOLD);
        }
        out.append(row).append('\n');
        for (int c = 0; c < contacts.size(); c++) {
            row.setLength(0);
            row.append(contacts.id(c)).append(',').append(fileId(scene, contacts.bodyA(c))).append(',')
                    .append(fileId(scene, contacts.bodyB(c)));
            for (ContactField field : ContactField.values()) {
                row.append(',').append(contacts.get(field, c));
            }
            if (manifolds) {
                row.append(',').append(contacts.manifold(c));
            }
            out.append(row).append('\n');
        }
    }

    private static int fileId(Scene scene, int body) {
        return body == ContactBatch.WORLD ? ContactBatch.WORLD : scene.bodyIds()[body];
    }
}
