package io.contactsolver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The package arrows, drawn from the sources' imports and qualified names, point one way: the API
 * uses the backends, the backends use the core, everything reads the layout, and the application
 * (command line, demo, bench) sits on top of the library, which never reaches back into it.
 */
class ArchitectureTest {
    private static final String ROOT = "io.contactsolver";
    private static final Set<String> APPLICATION = Set.of(ROOT + ".app", ROOT + ".cli", ROOT + ".demo",
            ROOT + ".bench");
    private static final Pattern PACKAGE = Pattern.compile("^package ([\\w.]+);", Pattern.MULTILINE);
    /** A project type named in code: an import or a qualified name, {@code io.contactsolver[.pkg].Type}. */
    private static final Pattern REFERENCE = Pattern.compile("\\b(io\\.contactsolver(?:\\.[a-z]\\w*)*)\\.[A-Z]");

    private static final Map<String, Set<String>> uses = new TreeMap<>();

    @BeforeAll
    static void readSources() throws IOException {
        try (Stream<Path> files = Files.walk(Path.of("host"))) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java"))
                    .filter(f -> !f.endsWith("module-info.java")).toList()) {
                String source = Files.readString(file);
                Matcher declared = PACKAGE.matcher(source);
                assertTrue(declared.find(), "no package in " + file);
                String from = declared.group(1);
                Set<String> targets = uses.computeIfAbsent(from, k -> new TreeSet<>());
                Matcher reference = REFERENCE.matcher(source);
                while (reference.find()) {
                    if (!reference.group(1).equals(from)) {
                        targets.add(reference.group(1));
                    }
                }
            }
        }
        assertTrue(uses.size() >= 10, "found the packages: " + uses.keySet());
    }

    @Test
    void noPackageCycles() {
        List<String> cycle = findCycle();
        assertEquals(List.of(), cycle, "a package cycle; the graph: " + uses);
    }

    @Test
    void theLayoutIsALeaf() {
        assertEquals(Set.of(), uses.get(ROOT + ".layout"));
    }

    @Test
    void theCoreKnowsOnlyTheLayoutAndTheBackendsOnlyTheCore() {
        assertEquals(Set.of(ROOT + ".layout"), uses.get(ROOT + ".core"));
        for (String backend : List.of(ROOT + ".cpu", ROOT + ".opencl")) {
            assertEquals(Set.of(ROOT + ".core", ROOT + ".layout"), uses.get(backend), backend);
        }
    }

    @Test
    void theLibraryNeverUsesTheApplication() {
        for (Map.Entry<String, Set<String>> entry : uses.entrySet()) {
            if (!APPLICATION.contains(entry.getKey())) {
                for (String target : entry.getValue()) {
                    assertTrue(!APPLICATION.contains(target), entry.getKey() + " uses " + target);
                }
            }
        }
    }

    /** A cycle in the package graph as a list of packages, or an empty list. */
    private static List<String> findCycle() {
        Map<String, Integer> state = new TreeMap<>(); // absent: unvisited, 1: on the path, 2: done
        for (String start : uses.keySet()) {
            List<String> path = new ArrayList<>();
            if (visit(start, state, path)) {
                return path;
            }
        }
        return List.of();
    }

    private static boolean visit(String node, Map<String, Integer> state, List<String> path) {
        Integer seen = state.get(node);
        if (seen != null) {
            if (seen == 1) {
                path.add(node);
                return true;
            }
            return false;
        }
        state.put(node, 1);
        path.add(node);
        for (String next : uses.getOrDefault(node, Set.of())) {
            if (visit(next, state, path)) {
                return true;
            }
        }
        path.remove(path.size() - 1);
        state.put(node, 2);
        return false;
    }
}
