package io.contactsolver.scene;

import io.contactsolver.Quoting;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Reads the project's plain CSV: a header row naming the columns (in any order; names the format
 * does not use are ignored), then one record a line, comma separated, {@code .} as the decimal
 * point, no quoting, UTF-8 (a byte-order mark at the start is accepted). Blank lines are skipped.
 * Every fault is reported with its file, line and column; bytes that are not text, with their line.
 */
final class CsvReader implements AutoCloseable {
    /** A decimal number: no hex, no type suffix, no thousands separator. */
    private static final Pattern DECIMAL = Pattern.compile("[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?");
    /** Spelled non-finite values, read so that validation can refuse them by column. */
    private static final Pattern NON_FINITE = Pattern.compile("[+-]?(nan|inf|infinity)", Pattern.CASE_INSENSITIVE);
    private static final Pattern INTEGER = Pattern.compile("[+-]?\\d+");

    /** Longest line read: a file without line breaks is not CSV, and is not read whole into memory. */
    static final int MAX_LINE_BYTES = 1 << 20;

    private final Path file;
    private final InputStream in;
    private final byte[] buffer = new byte[1 << 16];
    private int buffered;
    private int position;
    private byte[] lineBytes = new byte[256];
    private CharBuffer lineChars = CharBuffer.allocate(256);
    private final CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
    private final Map<String, Integer> header = new HashMap<>();
    private final List<String> fields = new ArrayList<>();
    private int headerSize;
    private int line;

    CsvReader(Path file) throws IOException, SceneFormatException {
        this.file = file;
        try {
            this.in = Files.newInputStream(file);
        } catch (NoSuchFileException e) {
            throw new SceneFormatException(file, 0, null, "no such file");
        }
        try {
            if (!nextNonBlank()) {
                throw new SceneFormatException(file, 0, null, "empty file, expected a header row");
            }
        } catch (IOException | SceneFormatException | RuntimeException e) {
            in.close();
            throw e;
        }
        headerSize = fields.size();
        for (int i = 0; i < fields.size(); i++) {
            String name = fields.get(i).toLowerCase(Locale.ROOT);
            if (header.putIfAbsent(name, i) != null) {
                in.close();
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
                (text.isEmpty() ? "empty field" : "'" + Quoting.field(text) + "'") + " is not a number");
    }

    int integer(int column, String name) throws SceneFormatException {
        String text = fields.get(column);
        if (INTEGER.matcher(text).matches()) {
            try {
                return Integer.parseInt(text);
            } catch (NumberFormatException e) {
                throw new SceneFormatException(file, line, SceneFormatException.column(name),
                        "'" + Quoting.field(text) + "' is outside the 32-bit integer range");
            }
        }
        throw new SceneFormatException(file, line, SceneFormatException.column(name),
                (text.isEmpty() ? "empty field" : "'" + Quoting.field(text) + "'") + " is not an integer");
    }

    private boolean nextNonBlank() throws IOException, SceneFormatException {
        String text;
        do {
            text = readLine();
            if (text == null) {
                return false;
            }
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

    /**
     * The next line as text, without its line break; null at the end. Read as bytes and decoded
     * one line at a time, so bytes that are not UTF-8 are reported at their own line (a decoding
     * reader reads ahead); a UTF-8 byte-order mark at the start of the file is skipped.
     */
    private String readLine() throws IOException, SceneFormatException {
        int length = 0;
        boolean any = false;
        while (true) {
            if (position == buffered) {
                buffered = in.read(buffer, 0, buffer.length);
                position = 0;
                if (buffered <= 0) {
                    buffered = 0;
                    if (!any) {
                        return null;
                    }
                    break;
                }
            }
            any = true;
            byte b = buffer[position++];
            if (b == '\n') {
                break;
            }
            if (length == MAX_LINE_BYTES) {
                throw new SceneFormatException(file, line + 1, null, "line longer than " + MAX_LINE_BYTES
                        + " bytes: not a CSV file of this format");
            }
            if (length == lineBytes.length) {
                lineBytes = Arrays.copyOf(lineBytes, Math.min(MAX_LINE_BYTES, 2 * length));
            }
            lineBytes[length++] = b;
        }
        line++;
        if (length > 0 && lineBytes[length - 1] == '\r') {
            length--;
        }
        int start = 0;
        if (line == 1 && length >= 3 && lineBytes[0] == (byte) 0xEF && lineBytes[1] == (byte) 0xBB
                && lineBytes[2] == (byte) 0xBF) {
            start = 3;
        }
        return decode(start, length);
    }

    private String decode(int start, int end) throws SceneFormatException {
        for (int i = start; i < end; i++) {
            if (lineBytes[i] == 0) {
                throw new SceneFormatException(file, line, null, "not text: a NUL byte at byte " + (i + 1)
                        + " of the line (is this a binary file?)");
            }
        }
        if (lineChars.capacity() < end - start) {
            lineChars = CharBuffer.allocate(Math.max(end - start, 2 * lineChars.capacity()));
        }
        lineChars.clear();
        ByteBuffer bytes = ByteBuffer.wrap(lineBytes, start, end - start);
        decoder.reset();
        CoderResult result = decoder.decode(bytes, lineChars, true);
        if (!result.isError()) {
            result = decoder.flush(lineChars);
        }
        if (result.isError()) {
            int at = bytes.position();
            throw new SceneFormatException(file, line, null, String.format(Locale.ROOT,
                    "not UTF-8 text: byte 0x%02x at byte %d of the line (is this a binary file, or another encoding?)",
                    lineBytes[at] & 0xff, at + 1));
        }
        lineChars.flip();
        return lineChars.toString();
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
