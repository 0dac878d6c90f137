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
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The documentation's references resolve.
 *
 * <p>Links: every relative link of the Markdown documents (README.md, CONTRIBUTING.md and every
 * Markdown file under docs/), {@code [text](path)}, {@code ![image](path)} and {@code [label]: path},
 * names a file or folder of the repository, and every {@code #anchor}, alone or after a Markdown
 * file, is the anchor of one of that document's headings as GitHub makes it (lower case, punctuation
 * dropped, spaces as hyphens, {@code -1}, {@code -2} after repeats) or an {@code <a id>} of it. Links
 * in code blocks and code spans are text, not links; links with a scheme ({@code https:}) are not
 * followed. The README links every document of docs/ and CONTRIBUTING.md: it is their index.
 *
 * <p>Citations: every document that the sources' comments or the documents' prose cite is a file of
 * this repository, and every section they cite by name is a section of that document. The sources
 * are host/, kernels/, tests/, .ci/ and pom.xml; a document is a path ending in the Markdown suffix,
 * taken from the repository root (docs/physics.md, README.md), or in a document also from its own
 * folder, and a section is cited by the quoted title right after the document's name, after a comma
 * or an opening parenthesis, as in (docs/physics.md, "Sign convention"), even when the comment breaks
 * the title over two lines. A section is a Markdown heading of the document or a paragraph that
 * opens with a bold title ending in a full stop.
 */
class DocumentReferencesTest {
    private static final List<String> SOURCES = List.of("host", "kernels", "tests", ".ci", "pom.xml");
    /** The Markdown suffix, spelt in two parts so that this file cites no document by accident. */
    private static final String MD = "." + "md";
    /** The documents at the root; the rest are under {@link #DOCS}. */
    private static final List<String> ROOT_DOCUMENTS = List.of("README" + MD, "CONTRIBUTING" + MD);
    private static final String DOCS = "docs";
    /** A document's name: letters, digits and {@code _ . / -}, ending in the suffix. */
    private static final Pattern DOCUMENT = Pattern.compile("(?<![\\w./-])([\\w./-]*\\w" + Pattern.quote(MD) + ")\\b");
    /** A section cited by title right after the document's name: {@code , "Title"} or {@code ("Title"}. */
    private static final Pattern SECTION = Pattern.compile("\\G(?:'s)?(?:,\\s*|\\s*\\(\\s*)\"([^\"]+)\"");
    /** A line break in a comment, with the next line's comment marker ({@code *}, {@code //}, {@code #}). */
    private static final Pattern CONTINUATION = Pattern.compile("[ \\t]*\\R[ \\t]*(?:\\*(?!/)|//|#)?[ \\t]*");
    private static final Pattern HEADING = Pattern.compile("^#{1,6}[ \\t]+(.+?)[ \\t]*#*[ \\t]*$", Pattern.MULTILINE);
    private static final Pattern BOLD_TITLE = Pattern.compile("^\\*\\*([^*]+?)\\.\\*\\*", Pattern.MULTILINE);
    /** A fence line that opens or closes a code block: three or more backticks or tildes. */
    private static final Pattern FENCE = Pattern.compile("^ {0,3}(`{3,}|~{3,})");
    /** A code span: a run of backticks, anything but a blank line, the same run again. */
    private static final Pattern CODE_SPAN = Pattern.compile("(?<!`)(`+)(?!`)((?:(?!\\n[ \\t]*\\n)[\\s\\S])+?)(?<!`)\\1(?!`)");
    /** An inline link or image: {@code [text](target "title")}; the text may run over lines. */
    private static final Pattern INLINE_LINK = Pattern.compile("\\[((?:[^\\[\\]]|\\[[^\\[\\]]*\\])*)\\]\\(\\s*(<[^>\\n]*>|[^\\s)]+)(?:\\s+\"[^\"\\n]*\")?\\s*\\)");
    /** A link reference definition: {@code [label]: target}. */
    private static final Pattern REFERENCE_DEFINITION = Pattern.compile("^ {0,3}\\[[^\\]\\n]+\\]:[ \\t]*(<[^>\\n]*>|\\S+)", Pattern.MULTILINE);
    /** A target with a scheme ({@code https:}, {@code mailto:}) or a network path: not a file here. */
    private static final Pattern EXTERNAL = Pattern.compile("^(?:[A-Za-z][A-Za-z0-9+.-]*:|//)");
    private static final Pattern ATX_HEADING = Pattern.compile("^ {0,3}#{1,6}(?:[ \\t]+(.*?))?(?:[ \\t]+#+)?[ \\t]*$");
    private static final Pattern HTML_ANCHOR = Pattern.compile("<a\\s+(?:id|name)=\"([^\"]+)\"");
    private static final Pattern LINK_IN_HEADING = Pattern.compile("!?\\[([^\\]]*)\\]\\([^)]*\\)");

    private final Map<Path, Set<String>> sections = new HashMap<>();
    private final Map<Path, Set<String>> anchors = new HashMap<>();

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
        for (Path document : documents(Path.of(""))) {
            problems.addAll(checkProse(Path.of(""), document));
        }
        assertEquals(List.of(), problems, "citations of documents or sections that do not exist");
    }

    @Test
    void everyLinkOfTheDocumentationResolves() throws IOException {
        List<String> problems = new ArrayList<>();
        List<String> found = new ArrayList<>();
        for (Path document : documents(Path.of(""))) {
            problems.addAll(checkLinks(Path.of(""), document, found));
        }
        // the documents link each other and their sections well over a hundred times
        assertTrue(found.size() >= 50, "only " + found.size() + " links found");
        assertTrue(found.stream().anyMatch(link -> link.contains("#")), "no link to a section found");
        assertEquals(List.of(), problems, "links to files or sections that do not exist");
    }

    @Test
    void theReadmeIndexesEveryDocument() throws IOException {
        Path root = Path.of("");
        List<String> links = new ArrayList<>();
        checkLinks(root, root.resolve(ROOT_DOCUMENTS.get(0)), links);
        Set<Path> linked = new TreeSet<>();
        for (String link : links) {
            String path = link.substring(link.indexOf(" -> ") + 4).replaceFirst("#.*", "");
            if (!path.isEmpty()) {
                linked.add(Path.of(path).normalize());
            }
        }
        List<Path> missing = new ArrayList<>();
        for (Path document : documents(root)) {
            if (!document.equals(root.resolve(ROOT_DOCUMENTS.get(0))) && !linked.contains(document.normalize())) {
                missing.add(document);
            }
        }
        assertEquals(List.of(), missing, "documents the README's index does not link");
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

    @Test
    void aCitationInADocumentIsFoundFromItsFolderAndCodeIsNotACitation(@TempDir Path root) throws IOException {
        Files.createDirectories(root.resolve("docs"));
        Files.writeString(root.resolve("docs/guide" + MD), "# Guide\n\n## Sign convention\n");
        Path other = root.resolve("docs/other" + MD);
        Files.writeString(other, "# Other\n\nAs guide" + MD + ", \"Sign convention\" says, and guide" + MD
                + ", \"Gone\" does not.\n\n`guide" + MD + ", \"Code\"` and\n\n```\ndocs/guide" + MD
                + ", \"Fenced\"\n```\n");
        assertEquals(List.of("docs/other" + MD + ":3: guide" + MD + " has no section \"Gone\""),
                checkProse(root, other));
    }

    @Test
    void aBrokenLinkOrAnchorIsReported(@TempDir Path root) throws IOException {
        Files.createDirectories(root.resolve("docs/bench"));
        Files.writeString(root.resolve("docs/bench/out.txt"), "figures\n");
        Files.writeString(root.resolve("docs/guide" + MD), "# Guide\n\n## Bodies kept on the device: `step`\n\n"
                + "## Twice\n\n## Twice\n\n<a id=\"by-hand\"></a>\n\n```sh\n# not a heading\n```\n");
        Path readme = root.resolve("README" + MD);
        Files.writeString(readme, String.join("\n",
                "# Project",
                "",
                "## Quick start",
                "",
                "[guide](docs/guide" + MD + ") and [its step](docs/guide" + MD + "#bodies-kept-on-the-device-step),",
                "[the second Twice](docs/guide" + MD + "#twice-1), [by hand](docs/guide" + MD + "#by-hand),",
                "[a folder](docs/bench/) and [a file](docs/bench/out.txt \"figures\"), [here](#quick-start),",
                "[the web](https://example.com/missing" + MD + "), ![plot](docs/bench/plot.png),",
                "[gone](docs/gone" + MD + "), [no section](docs/guide" + MD + "#no-such-section),",
                "[a third Twice](docs/guide" + MD + "#twice-2), [not a heading](docs/guide" + MD + "#not-a-heading),",
                "[nowhere](#nowhere), [a text",
                "over two lines](docs/missing.txt), [anchor of a text](docs/bench/out.txt#L1),",
                "`[in code](docs/none" + MD + ")`",
                "",
                "```",
                "[in a block](docs/none" + MD + ")",
                "```",
                "",
                "[ref]: docs/nothing.txt",
                ""));
        List<String> found = new ArrayList<>();
        List<String> problems = checkLinks(root, readme, found);
        assertEquals(16, found.size(), "links found: " + found);
        String at = "README" + MD + ":";
        assertEquals(List.of(
                at + "8: docs/bench/plot.png is not a file or folder of the repository",
                at + "9: docs/gone" + MD + " is not a file or folder of the repository",
                at + "9: docs/guide" + MD + " has no section with anchor #no-such-section",
                at + "10: docs/guide" + MD + " has no section with anchor #twice-2",
                at + "10: docs/guide" + MD + " has no section with anchor #not-a-heading",
                at + "11: README" + MD + " has no section with anchor #nowhere",
                at + "12: docs/missing.txt is not a file or folder of the repository",
                at + "12: docs/bench/out.txt#L1: an anchor needs a Markdown document",
                at + "19: docs/nothing.txt is not a file or folder of the repository"), problems);
    }

    @Test
    void headingsGetGitHubsAnchors() {
        assertEquals("bodies-kept-on-the-device-step", slug("Bodies kept on the device: `step`"));
        assertEquals("soft-step-the-box-pyramid-against-box2d-v3", slug("Soft step: the box pyramid against Box2D v3"));
        assertEquals("outputs-of-solve", slug("Outputs of `solve`"));
        assertEquals("threads-where-a-team-starts-to-pay", slug("Threads: where a team starts to pay"));
        assertEquals("team_rows-per-thread", slug("TEAM_ROWS per thread"));
        assertEquals("see-the-guide", slug("See [the guide](docs/guide" + MD + ")"));
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

    /** README.md and CONTRIBUTING.md, then every Markdown file under docs/, in order. */
    private static List<Path> documents(Path root) throws IOException {
        List<Path> files = new ArrayList<>();
        for (String name : ROOT_DOCUMENTS) {
            files.add(root.resolve(name));
        }
        try (Stream<Path> walk = Files.walk(root.resolve(DOCS))) {
            walk.filter(path -> Files.isRegularFile(path) && path.getFileName().toString().endsWith(MD))
                    .sorted().forEach(files::add);
        }
        return files;
    }

    /**
     * The problems of the citations in {@code text}, one line each naming the file and the line;
     * every citation found (a document, or a document and a section) is added to {@code found}.
     * A cited document is looked for from {@code root}, else from {@code folder} if not null.
     */
    private List<String> check(Path root, Path file, String text, List<String> found) throws IOException {
        return check(root, null, file, text, found);
    }

    private List<String> check(Path root, Path folder, Path file, String text, List<String> found) throws IOException {
        List<String> problems = new ArrayList<>();
        Matcher document = DOCUMENT.matcher(text);
        while (document.find()) {
            String name = document.group(1);
            int line = lineOf(text, document.start());
            found.add(name);
            Path path = root.resolve(name);
            if (!Files.isRegularFile(path) && folder != null) {
                path = folder.resolve(name);
            }
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

    /**
     * The citations of a Markdown document's prose: its code blocks, code spans and link targets
     * are not prose; a document's name is looked for from the root, else from the document's folder.
     */
    private List<String> checkProse(Path root, Path document) throws IOException {
        String prose = blankLinkTargets(blankCode(Files.readString(document)));
        return check(root, document.getParent(), root.relativize(document), prose, new ArrayList<>());
    }

    /**
     * The problems of the links of a Markdown document, one line each naming the document and the
     * line; each link found is added to {@code found} as {@code line -> target}, the target's path
     * relative to {@code root}.
     */
    private List<String> checkLinks(Path root, Path document, List<String> found) throws IOException {
        String text = blankCode(Files.readString(document));
        Path base = root.toAbsolutePath().normalize();
        Path folder = document.toAbsolutePath().normalize().getParent();
        String name = base.relativize(document.toAbsolutePath().normalize()).toString().replace('\\', '/');
        List<Link> links = new ArrayList<>();
        for (Pattern pattern : List.of(INLINE_LINK, REFERENCE_DEFINITION)) {
            Matcher link = pattern.matcher(text);
            while (link.find()) {
                int group = pattern == INLINE_LINK ? 2 : 1;
                links.add(new Link(lineOf(text, link.start(group)), link.start(group), link.group(group)));
            }
        }
        links.sort((x, y) -> Integer.compare(x.offset(), y.offset()));
        List<String> problems = new ArrayList<>();
        for (Link link : links) {
            String target = link.target();
            if (target.startsWith("<") && target.endsWith(">")) {
                target = target.substring(1, target.length() - 1);
            }
            if (EXTERNAL.matcher(target).find()) {
                continue;
            }
            int hash = target.indexOf('#');
            String path = hash < 0 ? target : target.substring(0, hash);
            String anchor = hash < 0 ? null : target.substring(hash + 1);
            Path resolved = path.isEmpty() ? document.toAbsolutePath().normalize() : folder.resolve(path).normalize();
            found.add(link.line() + " -> " + base.relativize(resolved).toString().replace('\\', '/')
                    + (anchor != null ? "#" + anchor : ""));
            String at = name + ":" + link.line() + ": ";
            if (!resolved.startsWith(base) || !Files.exists(resolved)) {
                problems.add(at + path + " is not a file or folder of the repository");
            } else if (anchor == null) {
                continue;
            } else if (!Files.isRegularFile(resolved) || !resolved.toString().endsWith(MD)) {
                problems.add(at + target + ": an anchor needs a Markdown document");
            } else if (!anchorsOf(resolved).contains(anchor)) {
                problems.add(at + (path.isEmpty() ? name : path) + " has no section with anchor #" + anchor);
            }
        }
        return problems;
    }

    /** A link of a document: its line, where its target starts in the text, and the target. */
    private record Link(int line, int offset, String target) {
    }

    /** The text with its fenced code blocks and code spans turned to spaces, line breaks kept. */
    private static String blankCode(String text) {
        Matcher span = CODE_SPAN.matcher(blankFences(text));
        StringBuilder result = new StringBuilder(text.length());
        while (span.find()) {
            span.appendReplacement(result, Matcher.quoteReplacement(blank(span.group())));
        }
        span.appendTail(result);
        return result.toString();
    }

    /** The text with its fenced code blocks turned to spaces, line breaks kept. */
    private static String blankFences(String text) {
        StringBuilder out = new StringBuilder(text.length());
        String fence = null;
        for (String line : text.split("\n", -1)) {
            Matcher opening = FENCE.matcher(line);
            boolean isFence = opening.find();
            if (fence == null && isFence) {
                fence = opening.group(1);
                out.append(blank(line));
            } else if (fence != null) {
                if (isFence && opening.group(1).charAt(0) == fence.charAt(0)
                        && opening.group(1).length() >= fence.length() && line.trim().equals(opening.group(1))) {
                    fence = null;
                }
                out.append(blank(line));
            } else {
                out.append(line);
            }
            out.append('\n');
        }
        out.setLength(out.length() - 1);
        return out.toString();
    }

    /** The text with the targets of its inline links turned to spaces: a target is not prose. */
    private static String blankLinkTargets(String text) {
        Matcher link = INLINE_LINK.matcher(text);
        StringBuilder result = new StringBuilder(text.length());
        while (link.find()) {
            String whole = link.group();
            int cut = link.start(2) - link.start();
            link.appendReplacement(result, Matcher.quoteReplacement(whole.substring(0, cut) + blank(whole.substring(cut))));
        }
        link.appendTail(result);
        return result.toString();
    }

    private static String blank(String text) {
        return text.replaceAll("[^\\n]", " ");
    }

    /** The anchors of a Markdown document: its headings' (outside code blocks) and its {@code <a id>}s. */
    private Set<String> anchorsOf(Path document) throws IOException {
        Set<String> found = anchors.get(document.toAbsolutePath().normalize());
        if (found == null) {
            found = new LinkedHashSet<>();
            Map<String, Integer> seen = new HashMap<>();
            // a heading's code spans are part of its anchor: only code blocks are left out
            String text = blankFences(Files.readString(document));
            for (String line : text.split("\n")) {
                Matcher heading = ATX_HEADING.matcher(line);
                if (heading.matches()) {
                    String base = slug(heading.group(1) == null ? "" : heading.group(1));
                    int repeats = seen.merge(base, 1, Integer::sum) - 1;
                    found.add(repeats == 0 ? base : base + "-" + repeats);
                }
                Matcher html = HTML_ANCHOR.matcher(line);
                while (html.find()) {
                    found.add(html.group(1));
                }
            }
            anchors.put(document.toAbsolutePath().normalize(), found);
        }
        return found;
    }

    /**
     * A heading's anchor as GitHub makes it: the text of its links kept and their targets dropped,
     * lower case, every character but letters, digits, spaces, hyphens and underscores dropped, each
     * space a hyphen.
     */
    static String slug(String heading) {
        String text = LINK_IN_HEADING.matcher(heading).replaceAll("$1").toLowerCase(Locale.ROOT);
        StringBuilder slug = new StringBuilder(text.length());
        text.codePoints().forEach(c -> {
            if (c == ' ') {
                slug.append('-');
            } else if (Character.isLetterOrDigit(c) || c == '-' || c == '_') {
                slug.appendCodePoint(c);
            }
        });
        return slug.toString();
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

    private static int lineOf(CharSequence text, int offset) {
        int line = 1;
        for (int i = 0; i < offset; i++) {
            if (text.charAt(i) == '\n') {
                line++;
            }
        }
        return line;
    }
}
