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
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The package arrows, drawn from the sources' imports and qualified names, point one way: the API
 * uses the backends, the backends use the core, everything reads the layout, and the application
 * (command line, demo, bench, and the app and scene packages they share) sits on top of the
 * library, uses its API only, and the library never reaches back into it. The compiler holds the
 * application to the API too (the library's module exports nothing else); this test says so where a
 * reader looks, and holds every package to its module's folder and the modules to their API.
 */
class ArchitectureTest {
    private static final String ROOT = "io.contactsolver";
    /** What the library exports: all the application may use of it. */
    private static final Set<String> API = Set.of(ROOT, ROOT + ".layout");
    private static final Set<String> INTERNAL = Set.of(ROOT + ".core", ROOT + ".cpu", ROOT + ".opencl");
    private static final Set<String> APPLICATION = Set.of(ROOT + ".app", ROOT + ".cli", ROOT + ".demo",
            ROOT + ".bench", ROOT + ".scene");
    private static final Path LIBRARY_FOLDER = Path.of("host", "library");
    private static final Path APPLICATION_FOLDER = Path.of("host", "application");
    private static final Pattern PACKAGE = Pattern.compile("^package ([\\w.]+);", Pattern.MULTILINE);
    /**
     * A project type named in code: an import or a qualified name, {@code io.contactsolver[.pkg].Type},
     * or a whole package imported, {@code io.contactsolver[.pkg].*}.
     */
    private static final Pattern REFERENCE = Pattern.compile("\\b(io\\.contactsolver(?:\\.[a-z]\\w*)*)\\.(?:[A-Z]|\\*)");
    private static final Pattern EXPORTS = Pattern.compile("^\\s*exports ([\\w.]+);", Pattern.MULTILINE);

    /** Each package, and the project packages its sources name. */
    private static final Map<String, Set<String>> uses = new TreeMap<>();
    /** Each package, and the module folders its sources are in. */
    private static final Map<String, Set<Path>> folders = new TreeMap<>();

    @BeforeAll
    static void readSources() throws IOException {
        for (Path module : List.of(LIBRARY_FOLDER, APPLICATION_FOLDER)) {
            try (Stream<Path> files = Files.walk(module)) {
                for (Path file : files.filter(f -> f.toString().endsWith(".java"))
                        .filter(f -> !f.endsWith("module-info.java")).toList()) {
                    Uses found = Uses.of(Files.readString(file));
                    assertTrue(found != null, "no package in " + file);
                    uses.computeIfAbsent(found.from(), k -> new TreeSet<>()).addAll(found.targets());
                    folders.computeIfAbsent(found.from(), k -> new TreeSet<>()).add(module);
                }
            }
        }
        assertTrue(uses.size() >= 10, "found the packages: " + uses.keySet());
    }

    /**
     * What one source file declares and names.
     *
     * @param from the package it declares
     * @param targets the project packages it names, its own left out
     */
    record Uses(String from, Set<String> targets) {
        /** The uses of one source text; null when it declares no package. */
        static Uses of(String source) {
            Matcher declared = PACKAGE.matcher(source);
            if (!declared.find()) {
                return null;
            }
            Set<String> targets = new TreeSet<>();
            Matcher reference = REFERENCE.matcher(source);
            while (reference.find()) {
                if (!reference.group(1).equals(declared.group(1))) {
                    targets.add(reference.group(1));
                }
            }
            return new Uses(declared.group(1), targets);
        }
    }

    /** Every use of a library package outside the API by an application package, as "FROM uses TO". */
    static List<String> applicationUsesInsideTheLibrary(Map<String, Set<String>> graph) {
        List<String> found = new ArrayList<>();
        graph.forEach((from, targets) -> {
            if (APPLICATION.contains(from)) {
                for (String target : targets) {
                    if (!APPLICATION.contains(target) && !API.contains(target)) {
                        found.add(from + " uses " + target);
                    }
                }
            }
        });
        return found;
    }

    @Test
    void everyPackageIsTheLibrarysOrTheApplicationsAndInItsModulesFolder() {
        Set<String> known = new TreeSet<>(API);
        known.addAll(INTERNAL);
        known.addAll(APPLICATION);
        assertEquals(known, uses.keySet(), "a new package joins API, INTERNAL or APPLICATION here");
        folders.forEach((pkg, in) -> assertEquals(Set.of(APPLICATION.contains(pkg) ? APPLICATION_FOLDER : LIBRARY_FOLDER),
                in, pkg));
    }

    @Test
    void theApplicationUsesTheLibraryOnlyThroughItsApi() {
        assertEquals(List.of(), applicationUsesInsideTheLibrary(uses));
    }

    /** The check above on planted sources: each way of naming an internal type is reported. */
    @Test
    void anApplicationSourceThatReachesInsideTheLibraryIsReported() {
        Map<String, Set<String>> graph = new TreeMap<>();
        for (String source : List.of("""
                package io.contactsolver.scene;

                import io.contactsolver.ContactBatch;
                import io.contactsolver.core.Quoting;
                """, """
                package io.contactsolver.demo;

                import io.contactsolver.layout.BodyField;
                import static io.contactsolver.cpu.Integrator.step;

                class Planted {
                    Object device = io.contactsolver.opencl.OpenClDevices.class;
                }
                """, """
                package io.contactsolver.bench;

                import io.contactsolver.core.*;
                import io.contactsolver.scene.Scene;
                """, """
                package io.contactsolver.cli;

                import io.contactsolver.ContactSolver;
                import io.contactsolver.app.ExitCode;
                """)) {
            Uses planted = Uses.of(source);
            graph.computeIfAbsent(planted.from(), k -> new TreeSet<>()).addAll(planted.targets());
        }
        assertEquals(List.of("io.contactsolver.bench uses io.contactsolver.core",
                "io.contactsolver.demo uses io.contactsolver.cpu", "io.contactsolver.demo uses io.contactsolver.opencl",
                "io.contactsolver.scene uses io.contactsolver.core"), applicationUsesInsideTheLibrary(graph));
    }

    @Test
    void theLibraryModuleExportsItsApiOnlyAndTheApplicationRequiresIt() throws IOException {
        String library = Files.readString(LIBRARY_FOLDER.resolve("module-info.java"));
        Set<String> exported = EXPORTS.matcher(library).results().map(m -> m.group(1)).collect(Collectors.toSet());
        assertEquals(API, exported);
        assertTrue(library.contains("module io.contactsolver {"), library);
        String application = Files.readString(APPLICATION_FOLDER.resolve("module-info.java"));
        assertTrue(application.contains("requires io.contactsolver;"), application);
        assertTrue(!EXPORTS.matcher(application).find(), "the application is no API: " + application);
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
