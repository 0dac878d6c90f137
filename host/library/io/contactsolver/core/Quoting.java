package io.contactsolver.core;

/**
 * Makes text from files and command lines safe to print in a one-line error: control characters
 * (escape sequences that could set a terminal's title or move its cursor, line breaks that would
 * split the line) and bidirectional-text controls are written as {@code \\uXXXX} ({@code \\t},
 * {@code \\n}, {@code \\r} for the common ones), and a quoted field is cut to
 * {@value #FIELD_LIMIT} characters. The API's {@code Quoting} hands these rules out to programs.
 */
public final class Quoting {
    /** The most characters of one field an error line shows. */
    public static final int FIELD_LIMIT = 80;

    private Quoting() {
    }

    /** {@code text} escaped and, past {@value #FIELD_LIMIT} characters, cut: {@code abc... (1234 characters)}. */
    public static String field(String text) {
        if (text.length() <= FIELD_LIMIT) {
            return escape(text);
        }
        int cut = FIELD_LIMIT - 3;
        if (Character.isHighSurrogate(text.charAt(cut - 1))) {
            cut--; // never half a character
        }
        return escape(text.substring(0, cut)) + "... (" + text.length() + " characters)";
    }

    /** {@code text} with every control character escaped, its length otherwise kept. */
    public static String escape(String text) {
        StringBuilder safe = null;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (!unsafe(c)) {
                if (safe != null) {
                    safe.append(c);
                }
                continue;
            }
            if (safe == null) {
                safe = new StringBuilder(text.length() + 16).append(text, 0, i);
            }
            switch (c) {
                case '\t' -> safe.append("\\t");
                case '\n' -> safe.append("\\n");
                case '\r' -> safe.append("\\r");
                default -> safe.append(String.format("\\u%04x", (int) c));
            }
        }
        return safe == null ? text : safe.toString();
    }

    private static boolean unsafe(char c) {
        return Character.isISOControl(c) // C0, DEL, C1 (U+009B starts an escape sequence on some terminals)
                || c == '\u2028' || c == '\u2029' // line and paragraph separators
                || (c >= '\u202a' && c <= '\u202e') || (c >= '\u2066' && c <= '\u2069') // bidi embeddings, isolates
                || c == '\u200e' || c == '\u200f' || c == '\u061c' // bidi marks
                || c == '\ufeff'; // a byte-order mark inside a field
    }
}
