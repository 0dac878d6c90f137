package io.contactsolver.scene;

import java.io.BufferedOutputStream;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Writes a set of files all or nothing: each is first written under a temporary name beside its
 * target, and all are renamed only when all are complete; if a rename fails, the targets already
 * replaced get their earlier versions back. A failure leaves no partial file and no mix of new and
 * old files. Files get the permissions any new file gets.
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

    /** Renames a finished file over its target; a seam so tests can make a rename fail. */
    @FunctionalInterface
    interface Mover {
        void move(Path from, Path to) throws IOException;
    }

    /**
     * Writes every output under a temporary name, then replaces the targets. Before the first
     * replacement each existing target gets a backup (a hard link where the file system has them,
     * else a copy) beside it; if any replacement fails, the targets already replaced are put back
     * from their backups (or removed, where there was none), so the targets are all new or all as
     * they were. Backups and temporaries are removed at the end, whatever happened.
     *
     * @throws IOException the first failure; a failure to put an old file back is added to it as
     *     suppressed, naming the backup that was then kept
     */
    public static void write(List<Output> outputs) throws IOException {
        write(outputs, AtomicFiles::move);
    }

    static void write(List<Output> outputs, Mover mover) throws IOException {
        List<Path> temporaries = new ArrayList<>();
        List<Path> backups = new ArrayList<>();
        try {
            for (Output output : outputs) {
                Path parent = output.target().toAbsolutePath().getParent();
                Files.createDirectories(parent);
                Path temporary = sibling(output.target(), ".tmp");
                try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(temporary,
                        StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE))) {
                    temporaries.add(temporary);
                    output.content().writeTo(out);
                }
            }
            for (Output output : outputs) {
                backups.add(backUp(output.target()));
            }
            int replaced = 0;
            try {
                for (; replaced < outputs.size(); replaced++) {
                    mover.move(temporaries.get(replaced), outputs.get(replaced).target());
                }
            } catch (IOException | RuntimeException failure) {
                for (int i = replaced - 1; i >= 0; i--) {
                    restore(outputs.get(i).target(), backups.get(i), failure);
                    if (backups.get(i) != null && Files.exists(backups.get(i), LinkOption.NOFOLLOW_LINKS)) {
                        backups.set(i, null); // kept: the failure names it
                    }
                }
                throw failure;
            }
        } finally {
            for (Path temporary : temporaries) {
                Files.deleteIfExists(temporary);
            }
            for (Path backup : backups) {
                if (backup != null) {
                    Files.deleteIfExists(backup);
                }
            }
        }
    }

    /**
     * A hidden name beside {@code target}. Not Files.createTempFile: its files are readable by their
     * owner only, and the rename keeps that.
     */
    private static Path sibling(Path target, String suffix) {
        return target.toAbsolutePath().getParent().resolve("." + target.getFileName() + "." + UUID.randomUUID() + suffix);
    }

    /** A second name for the current {@code target}, or null if there is none to keep. */
    private static Path backUp(Path target) throws IOException {
        if (!Files.isRegularFile(target, LinkOption.NOFOLLOW_LINKS)) {
            return null; // nothing, or something the rename will refuse to replace (a directory)
        }
        Path backup = sibling(target, ".old");
        try {
            Files.createLink(backup, target);
        } catch (UnsupportedOperationException | IOException e) {
            Files.copy(target, backup, StandardCopyOption.COPY_ATTRIBUTES);
        }
        return backup;
    }

    /** Puts the old {@code target} back from {@code backup}, or removes the new one if there was none. */
    private static void restore(Path target, Path backup, Throwable failure) {
        try {
            if (backup == null) {
                Files.deleteIfExists(target);
            } else {
                move(backup, target);
            }
        } catch (IOException | RuntimeException e) {
            IOException lost = new IOException("could not put back the old " + target
                    + (backup == null ? "" : "; it is kept as " + backup) + ": " + e.getMessage(), e);
            failure.addSuppressed(lost);
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
