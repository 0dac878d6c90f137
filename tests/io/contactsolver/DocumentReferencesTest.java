package io.contactsolver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every document that the sources' comments cite is a file of this repository, and every section
 * they cite by name is a section of that document. The sources are host/, kernels/, tests/, .ci/
 * and pom.xml; a document is a path ending in the Markdown suffix, taken from the repository root
 * (docs/physics.md, README.md), and a section is cited by the quoted title right after the
 * document's name, after a comma or an opening parenthesis, as in (docs/physics.md, "Sign
 * convention"), even when the comment breaks the title over two lines. A section is a Markdown
 * heading of the document or a paragraph that opens with a bold title ending in a full stop.
 */
class DocumentReferencesTest {
    private static final List<String> SOURCES = List.of("host", "kernels", "tests", ".ci", "pom.xml");
    /** The Markdown suffix, spelt in two parts so that this file cites no document by accident. */
    private static final String MD = "." + "md";
    /** A document's name: letters, digits and {@code _ . / -}, ending in the suffix. */
    private static final Pattern DOCUMENT = Pattern.compile("(?<![\\w./-])([\\w./-]*\\w" + Pattern.quote(MD) + ")\\b");
    /** A section cited by title right after the document's name: {@code , "Title"} or {@code ("Title"}. */
    private static final Pattern SECTION = Pattern.compile("\\G(?:'s)?(?:,\\s*|\\s*\\(\\s*)\"([^\"]+)\"");
    /** A line break in a comment, with the next line's comment marker ({@code *}, {@code //}, {@code #}). */
    private static final Pattern CONTINUATION = Pattern.compile("[ \\t]*\\R[ \\t]*(?:\\*(?!/)|//|#)?[ \\t]*");
    private static final Pattern HEADING = Pattern.compile("^#{1,6}[ \\t]+(.+?)[ \\t]*#*[ \\t]*$", Pattern.MULTILINE);
    private static final Pattern BOLD_TITLE = Pattern.compile("^\\*\\*([^*]+?)\\.\\*\\*", Pattern.MULTILINE);

    private final Map<Path, Set<String>> sections = new HashMap<>();

    @Test
    void everyCitedDocumentAndSectionIsInTheRepository() throws IOException {
        List<String> problems = new ArrayList<>();
        int citations = 0;
        for (Path file : sourceFiles()) {
            List<String> found = new ArrayList<>();
            problems.addAll(check(Path.of(""), file, Files.readString(file), found));
            citations += found.size();
        }
        // the sources cite docs/physics.md and docs/formats.md dozens of times: a scan that finds
        // none has stopped reading them, not proved them right
        assertTrue(citations >= 20, "only " + citations + " document citations found");
        assertEquals(List.of(), problems, "citations of documents or sections that do not exist");
    }

    @Test
    void aMissingDocumentOrSectionIsReported(@TempDir Path root) throws IOException {
        Files.createDirectories(root.resolve("docs"));
        Files.writeString(root.resolve("docs/guide" + MD),
                "# Guide\n\n## Sign convention\n\nText.\n\n**A bold title.** More text.\n");
        String source = "/**\n * See docs/guide" + MD + ", \"Sign convention\", docs/guide" + MD + " (\"A bold\n"
                + " * title\"), docs/guide" + MD + ", \"No such section\" and NOTES" + MD + ".\n */\n";
        List<String> found = new ArrayList<>();
        List<String> problems = check(root, Path.of("Example.java"), source, found);
        assertEquals(List.of("docs/guide" + MD, "docs/guide" + MD + ", \"Sign convention\"",
                "docs/guide" + MD, "docs/guide" + MD + ", \"A bold title\"", "docs/guide" + MD,
                "docs/guide" + MD + ", \"No such section\"", "NOTES" + MD), found);
        assertEquals(List.of("Example.java:3: docs/guide" + MD + " has no section \"No such section\"",
                "Example.java:3: NOTES" + MD + " is not a file of the repository"), problems);
    }

    private static List<Path> sourceFiles() throws IOException {
        List<Path> files = new ArrayList<>();
        for (String source : SOURCES) {
            try (Stream<Path> walk = Files.walk(Path.of(source))) {
                walk.filter(Files::isRegularFile).sorted().forEach(files::add);
            }
        }
        return files;
    }

    /**
     * The problems of the citations in {@code text}, one line each naming the file and the line;
     * every citation found (a document, or a document and a section) is added to {@code found}.
     */
    private List<String> check(Path root, Path file, String text, List<String> found) throws IOException {
        List<String> problems = new ArrayList<>();
        Matcher document = DOCUMENT.matcher(text);
        while (document.find()) {
            String name = document.group(1);
            int line = lineOf(text, document.start());
            found.add(name);
            Path path = root.resolve(name);
            if (!Files.isRegularFile(path)) {
                problems.add(file + ":" + line + ": " + name + " is not a file of the repository");
                continue;
            }
            // the title may run over a comment's line break: read it with the breaks joined
            String after = CONTINUATION.matcher(text.substring(document.end(), Math.min(text.length(),
                    document.end() + 300))).replaceAll(" ");
            Matcher section = SECTION.matcher(after);
            if (section.find()) {
                String title = section.group(1);
                found.add(name + ", \"" + title + "\"");
                if (!sectionsOf(path).contains(title)) {
                    problems.add(file + ":" + line + ": " + name + " has no section \"" + title + "\"");
                }
            }
        }
        return problems;
    }

    private Set<String> sectionsOf(Path document) throws IOException {
        Set<String> titles = sections.get(document);
        if (titles == null) {
            String text = Files.readString(document);
            titles = new LinkedHashSet<>();
            for (Pattern pattern : List.of(HEADING, BOLD_TITLE)) {
                Matcher title = pattern.matcher(text);
                while (title.find()) {
                    titles.add(title.group(1).trim());
                }
            }
            sections.put(document, titles);
        }
        return titles;
    }

    private static int lineOf(String text, int offset) {
        int line = 1;
        for (int i = 0; i < offset; i++) {
            if (text.charAt(i) == '\n') {
                line++;
            }
        }
        return line;
    }
}
