package io.contactsolver.scene;

import io.contactsolver.InvalidInputException;
import io.contactsolver.Quoting;
import java.nio.file.Path;
import java.util.List;

/**
 * A scene file that cannot be used, located as {@code FILE:LINE: column 'NAME': problem}: one line
 * that says which file, which line and which column (or id) is at fault. The message is safe to
 * print: control characters are escaped ({@link Quoting}), and fields quoted from a file are cut.
 */
public final class SceneFormatException extends Exception {
    private static final long serialVersionUID = 1L;

    private final transient Path file;
    private final int line;

    /**
     * @param file the file at fault
     * @param line 1-based line number, or 0 for the file as a whole
     * @param location what on the line is at fault ({@code column 'vx'}, {@code body id 7}), or null
     * @param problem what is wrong
     */
    public SceneFormatException(Path file, int line, String location, String problem) {
        super(Quoting.escape(file + (line > 0 ? ":" + line : "") + ": " + (location == null ? "" : location + ": ")
                + problem));
        this.file = file;
        this.line = line;
    }

    public Path file() {
        return file;
    }

    public int line() {
        return line;
    }

    /** {@code column 'NAME'}, the name cut and escaped as a field from a file ({@link Quoting#field}). */
    static String column(String name) {
        return InvalidInputException.describe("column", List.of(Quoting.field(name)));
    }
}
