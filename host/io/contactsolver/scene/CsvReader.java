package io.contactsolver.scene;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Reads the project's plain CSV: a header row naming the columns (in any order; names the format
 * does not use are ignored), then one record a line, comma separated, {@code .} as the decimal
 * point, no quoting. Blank lines are skipped. Every fault is reported with its file, line and
 * column.
 */
final class CsvReader implements AutoCloseable {
    /** A decimal number: no hex, no type suffix, no thousands separator. */
    private static final Pattern DECIMAL = Pattern.compile("[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?");
    /** Spelled non-finite values, read so that validation can refuse them by column. */
    private static final Pattern NON_FINITE = Pattern.compile("[+-]?(nan|inf|infinity)", Pattern.CASE_INSENSITIVE);
    private static final Pattern INTEGER = Pattern.compile("[+-]?\\d+");

    private final Path file;
    private final BufferedReader reader;
    private final Map<String, Integer> header = new HashMap<>();
    private final List<String> fields = new ArrayList<>();
    private int headerSize;
    private int line;

    CsvReader(Path file) throws IOException, SceneFormatException {
        this.file = file;
        try {
            this.reader = Files.newBufferedReader(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new SceneFormatException(file, 0, null, "no such file");
        }
        if (!nextNonBlank()) {
            reader.close();
            throw new SceneFormatException(file, 0, null, "empty file, expected a header row");
        }
        headerSize = fields.size();
        for (int i = 0; i < fields.size(); i++) {
            String name = fields.get(i).toLowerCase(Locale.ROOT);
            if (header.putIfAbsent(name, i) != null) {
                reader.close();
                throw new SceneFormatException(file, line, SceneFormatException.column(name), "appears twice in the header");
            }
        }
    }

    /** The position of a required column. */
    int column(String name) throws SceneFormatException {
        Integer index = header.get(name);
        if (index == null) {
            throw new SceneFormatException(file, line, SceneFormatException.column(name), "missing from the header");
        }
        return index;
    }

    /** The position of an optional column, or -1 if the header does not name it. */
    int optionalColumn(String name) {
        Integer index = header.get(name);
        return index == null ? -1 : index;
    }

    /** Advances to the next record; false at the end of the file. */
    boolean next() throws IOException, SceneFormatException {
        if (!nextNonBlank()) {
            return false;
        }
        if (fields.size() != headerSize) {
            throw new SceneFormatException(file, line, null, (fields.size() < headerSize ? "short row: " : "long row: ")
                    + fields.size() + " fields where the header has " + headerSize);
        }
        return true;
    }

    int line() {
        return line;
    }

    Path file() {
        return file;
    }

    float number(int column, String name) throws SceneFormatException {
        String text = fields.get(column);
        if (DECIMAL.matcher(text).matches()) {
            return Float.parseFloat(text);
        }
        if (NON_FINITE.matcher(text).matches()) {
            if (text.toLowerCase(Locale.ROOT).endsWith("nan")) {
                return Float.NaN;
            }
            return text.startsWith("-") ? Float.NEGATIVE_INFINITY : Float.POSITIVE_INFINITY;
        }
        throw new SceneFormatException(file, line, SceneFormatException.column(name),
                (text.isEmpty() ? "empty field" : "'" + text + "'") + " is not a number");
    }

    int integer(int column, String name) throws SceneFormatException {
        String text = fields.get(column);
        if (INTEGER.matcher(text).matches()) {
            try {
                return Integer.parseInt(text);
            } catch (NumberFormatException e) {
                throw new SceneFormatException(file, line, SceneFormatException.column(name),
                        "'" + text + "' is outside the 32-bit integer range");
            }
        }
        throw new SceneFormatException(file, line, SceneFormatException.column(name),
                (text.isEmpty() ? "empty field" : "'" + text + "'") + " is not an integer");
    }

    private boolean nextNonBlank() throws IOException {
        String text;
        do {
            text = reader.readLine();
            if (text == null) {
                return false;
            }
            line++;
        } while (text.isBlank());
        fields.clear();
        int start = 0;
        for (int comma = text.indexOf(','); comma >= 0; comma = text.indexOf(',', start)) {
            fields.add(text.substring(start, comma).strip());
            start = comma + 1;
        }
        fields.add(text.substring(start).strip());
        return true;
    }

    @Override
    public void close() throws IOException {
        reader.close();
    }
}
