package io.contactsolver.app;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** I/O failures as one line naming the path and the reason, and checks of output paths before any work. */
public final class IoErrors {
    private IoErrors() {
    }

    /** {@code PATH: reason}: the file system's exceptions often carry only the path. */
    public static String describe(IOException e) {
        if (e instanceof FileSystemException fs && fs.getFile() != null) {
            String path = fs.getFile() + (fs.getOtherFile() == null ? "" : " -> " + fs.getOtherFile());
            String reason;
            if (e instanceof NoSuchFileException) {
                reason = "no such file or directory";
            } else if (e instanceof AccessDeniedException) {
                reason = "permission denied";
            } else if (e instanceof FileAlreadyExistsException) {
                reason = "exists and is in the way";
            } else if (e instanceof NotDirectoryException) {
                reason = "not a directory";
            } else if (e instanceof DirectoryNotEmptyException) {
                reason = "a directory that is not empty";
            } else {
                reason = fs.getReason() != null ? fs.getReason() : e.getClass().getSimpleName();
            }
            return path + ": " + reason;
        }
        return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
    }

    /**
     * Where two outputs of one command would be one file, as {@code "B is the same file as A: one
     * would overwrite the other"}, or null: checked before anything is written, since the later
     * would silently replace the earlier. Paths are compared as the file system resolves them when
     * they are written: through {@code ..} and symbolic links (of the folders, and of a file that
     * exists), and an existing file by its identity (a hard link). Names that differ only in case
     * count as one file, as they are on macOS and Windows, so a command line means the same on
     * every machine.
     *
     * @param outputs each output's name for the message (its option, and for a folder's file the
     *     file's name) and its path, in the order the command names them
     * @return the problem naming both outputs, or null
     */
    public static String sameFileProblem(Map<String, Path> outputs) {
        List<Map.Entry<String, Path>> entries = List.copyOf(outputs.entrySet());
        List<String> keys = entries.stream().map(entry -> resolved(entry.getValue()).toString().toLowerCase(Locale.ROOT))
                .toList();
        for (int later = 1; later < entries.size(); later++) {
            for (int earlier = 0; earlier < later; earlier++) {
                if (keys.get(earlier).equals(keys.get(later))
                        || sameExistingFile(entries.get(earlier).getValue(), entries.get(later).getValue())) {
                    return entries.get(later).getKey() + " is the same file as " + entries.get(earlier).getKey()
                            + ": one would overwrite the other";
                }
            }
        }
        return null;
    }

    /**
     * The absolute path {@code file} is written at: its longest existing ancestor (or itself) as
     * the file system resolves it ({@code ..} after a symbolic link included), the rest, which
     * cannot hold a link, normalized.
     */
    private static Path resolved(Path file) {
        Path absolute = file.toAbsolutePath();
        Path existing = absolute;
        while (existing != null && !Files.exists(existing)) {
            existing = existing.getParent();
        }
        if (existing == null) {
            return absolute.normalize();
        }
        try {
            return existing.toRealPath().resolve(existing.relativize(absolute)).normalize();
        } catch (IOException e) {
            return absolute.normalize();
        }
    }

    private static boolean sameExistingFile(Path a, Path b) {
        try {
            return Files.exists(a) && Files.exists(b) && Files.isSameFile(a, b);
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Why {@code file} cannot be read as an input file, or null if it can: checked before any work,
     * so a folder or an unreadable file is named with its path rather than by the reader's bare
     * "Is a directory".
     */
    public static String inputProblem(Path file) {
        if (!Files.exists(file)) {
            return file + ": no such file or directory";
        }
        if (Files.isDirectory(file)) {
            return file + ": is a folder, not a file";
        }
        if (!Files.isReadable(file)) {
            return file + ": permission denied";
        }
        return null;
    }

    /** Why {@code file} cannot be written, or null: {@link #outputProblem} for its folder and name. */
    public static String fileProblem(Path file) {
        Path parent = file.toAbsolutePath().normalize().getParent();
        return outputProblem(parent == null ? file : parent, file.getFileName().toString());
    }

    /**
     * Why {@code dir} cannot receive the files {@code names}, or null if it can: checked before any
     * work starts, so a bad {@code --out} fails at once, not after the work. A missing folder is
     * fine where its nearest existing ancestor is a writable folder (it is created then).
     */
    public static String outputProblem(Path dir, String... names) {
        Path absolute = dir.toAbsolutePath().normalize();
        if (Files.exists(absolute)) {
            if (!Files.isDirectory(absolute)) {
                return dir + ": is a file, not a folder";
            }
            if (!Files.isWritable(absolute)) {
                return dir + ": folder not writable";
            }
            for (String name : names) {
                Path target = absolute.resolve(name);
                if (Files.isDirectory(target)) {
                    return dir.resolve(name) + ": is a folder, where the output file would go";
                }
                if (Files.exists(target) && !Files.isWritable(target) && !Files.isWritable(absolute)) {
                    return dir.resolve(name) + ": not writable";
                }
            }
            return null;
        }
        Path ancestor = absolute.getParent();
        while (ancestor != null && !Files.exists(ancestor)) {
            ancestor = ancestor.getParent();
        }
        if (ancestor == null) {
            return dir + ": cannot be created";
        }
        if (!Files.isDirectory(ancestor)) {
            return dir + ": cannot be created, " + ancestor + " is a file";
        }
        if (!Files.isWritable(ancestor)) {
            return dir + ": cannot be created, " + ancestor + " is not writable";
        }
        return null;
    }
}
