package io.contactsolver.scene;

import java.io.BufferedOutputStream;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Writes a set of files all or nothing: each is first written under a temporary name beside its
 * target, and all are renamed only when all are complete. A failure leaves no partial file, and
 * an earlier version of a target stays as it was. Files get the permissions any new file gets.
 */
public final class AtomicFiles {
    private AtomicFiles() {
    }

    /** What goes into one file, as text. */
    @FunctionalInterface
    public interface Text {
        void writeTo(BufferedWriter out) throws IOException;
    }

    /** What goes into one file, as bytes. */
    @FunctionalInterface
    public interface Bytes {
        void writeTo(OutputStream out) throws IOException;
    }

    /** A target file and its content. */
    public record Output(Path target, Bytes content) {
        /** A file of UTF-8 text. */
        public static Output text(Path target, Text text) {
            return new Output(target, out -> {
                BufferedWriter writer = new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8));
                text.writeTo(writer);
                writer.flush();
            });
        }
    }

    public static void write(List<Output> outputs) throws IOException {
        List<Path> temporaries = new ArrayList<>();
        try {
            for (Output output : outputs) {
                Path parent = output.target().toAbsolutePath().getParent();
                Files.createDirectories(parent);
                // not Files.createTempFile: its files are readable by their owner only, and the rename keeps that
                Path temporary = parent.resolve("." + output.target().getFileName() + "." + UUID.randomUUID() + ".tmp");
                try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(temporary,
                        StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE))) {
                    temporaries.add(temporary);
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

    private static void move(Path from, Path to) throws IOException {
        try {
            Files.move(from, to, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
        }
    }
}
