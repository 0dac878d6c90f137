package io.contactsolver.scene;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.contactsolver.scene.AtomicFiles.Output;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A set of outputs replaces the old one together or not at all, whichever rename fails. */
class AtomicFilesTest {
    @TempDir
    Path dir;

    private List<Output> outputs() {
        return List.of(Output.text(dir.resolve("deltas.csv"), out -> out.write("new deltas\n")),
                Output.text(dir.resolve("impulses.csv"), out -> out.write("new impulses\n")));
    }

    /** Replaces the first target, then fails as a full disk or a lost mount would. */
    private static AtomicFiles.Mover failingAtTheSecondRename() {
        int[] calls = {0};
        return (from, to) -> {
            if (++calls[0] == 2) {
                throw new IOException(to + ": injected failure");
            }
            Files.move(from, to, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                    java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        };
    }

    @Test
    void aFailedSecondRenamePutsTheFirstOldFileBack() throws IOException {
        Files.writeString(dir.resolve("deltas.csv"), "old deltas\n");
        Files.writeString(dir.resolve("impulses.csv"), "old impulses\n");
        IOException failure = assertThrows(IOException.class, () -> AtomicFiles.write(outputs(), failingAtTheSecondRename()));
        assertEquals(dir.resolve("impulses.csv") + ": injected failure", failure.getMessage());
        assertEquals("old deltas\n", Files.readString(dir.resolve("deltas.csv")));
        assertEquals("old impulses\n", Files.readString(dir.resolve("impulses.csv")));
        assertEquals(List.of("deltas.csv", "impulses.csv"), names(), "no temporary or backup left");
    }

    @Test
    void aFailedSecondRenameRemovesAFirstFileThatWasNotThereBefore() throws IOException {
        Files.writeString(dir.resolve("impulses.csv"), "old impulses\n");
        assertThrows(IOException.class, () -> AtomicFiles.write(outputs(), failingAtTheSecondRename()));
        assertEquals(List.of("impulses.csv"), names());
        assertEquals("old impulses\n", Files.readString(dir.resolve("impulses.csv")));
    }

    /** A real failure: the second target is a directory with something in it, which no rename replaces. */
    @Test
    void aTargetThatIsADirectoryLeavesTheOtherOldFileAsItWas() throws IOException {
        Files.writeString(dir.resolve("deltas.csv"), "old deltas\n");
        Files.writeString(Files.createDirectories(dir.resolve("impulses.csv")).resolve("inside"), "x");
        assertThrows(IOException.class, () -> AtomicFiles.write(outputs()));
        assertEquals("old deltas\n", Files.readString(dir.resolve("deltas.csv")));
        assertEquals(List.of("deltas.csv", "impulses.csv"), names());
        assertEquals("x", Files.readString(dir.resolve("impulses.csv").resolve("inside")));
    }

    @Test
    void aSuccessReplacesAllAndLeavesNothingElse() throws IOException {
        Files.writeString(dir.resolve("deltas.csv"), "old deltas\n");
        AtomicFiles.write(outputs());
        assertEquals("new deltas\n", Files.readString(dir.resolve("deltas.csv")));
        assertEquals("new impulses\n", Files.readString(dir.resolve("impulses.csv")));
        assertEquals(List.of("deltas.csv", "impulses.csv"), names());
        assertFalse(Files.isSameFile(dir.resolve("deltas.csv"), dir.resolve("impulses.csv")));
    }

    private List<String> names() throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(path -> path.getFileName().toString()).sorted().toList();
        }
    }
}
