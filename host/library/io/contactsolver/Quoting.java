package io.contactsolver;

/**
 * How the library quotes text that came from outside (a device selector, a name read from a file)
 * in a one-line message: control characters (escape sequences that could set a terminal's title or
 * move its cursor, line breaks that would split the line) and bidirectional-text controls are
 * written as {@code \\uXXXX} ({@code \\t}, {@code \\n}, {@code \\r} for the common ones), and a
 * quoted field is cut to {@value #FIELD_LIMIT} characters.
 *
 * <p>Public so that a program which prints its own errors beside the library's quotes by the same
 * rules, and a line is safe to print whichever of them wrote it: the contact-solver command line
 * quotes its files' fields and its options' values so. The rules are kept once, inside the
 * library, where the backends' own messages use them; this class hands them out.
 */
public final class Quoting {
    /** The most characters of one field a message shows. */
    public static final int FIELD_LIMIT = io.contactsolver.core.Quoting.FIELD_LIMIT;

    private Quoting() {
    }

    /**
     * A field from outside as a message quotes it: escaped, and past {@value #FIELD_LIMIT}
     * characters cut, as {@code abc... (1234 characters)}, never inside a character.
     *
     * @param text the field as it came
     * @return the text to put between the message's quotes
     */
    public static String field(String text) {
        return io.contactsolver.core.Quoting.field(text);
    }

    /**
     * Text from outside made safe to print in one line, whatever its length.
     *
     * @param text the text as it came
     * @return {@code text} with every control character escaped, its length otherwise kept
     */
    public static String escape(String text) {
        return io.contactsolver.core.Quoting.escape(text);
    }
}
