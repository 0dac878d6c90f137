package io.contactsolver.opencl;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Looks for the OpenCL library before JOCL does. When JOCL's native code cannot load
 * {@code libOpenCL.so.1} it prints its own "Could not load ..." lines straight to the process's
 * standard output, which no Java logging setting reaches. So on Linux the library is first looked
 * for the way the dynamic loader looks for it ({@code LD_LIBRARY_PATH}, {@code /etc/ld.so.cache},
 * the system directories), reading only the file headers: where the loader would certainly fail
 * (no such file, or the first one found is not a shared object: empty, too short, not ELF), the
 * reason is given here and JOCL is never asked. A file of the other word size is skipped, as the
 * loader skips it. Anywhere else, or when a plausible library is found, JOCL decides.
 */
final class OpenClLibrary {
    /** The names JOCL tries on Linux, in its order. */
    static final List<String> NAMES = List.of("libOpenCL.so.1", "libOpenCL.so");
    private static final int ELF64_HEADER = 64;
    private static final int ELF32_HEADER = 52;
    private static Optional<String> cached;

    private OpenClLibrary() {
    }

    /** Why the OpenCL library certainly cannot be loaded, or empty where it may be (JOCL then decides). */
    static synchronized Optional<String> unloadable() {
        if (cached == null) {
            cached = System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("linux")
                    ? probe(System.getenv("LD_LIBRARY_PATH"), Path.of("/etc/ld.so.cache"), systemDirectories(),
                            !System.getProperty("os.arch", "").contains("64") || "32".equals(
                                    System.getProperty("sun.arch.data.model")) ? 1 : 2)
                    : Optional.empty();
        }
        return cached;
    }

    /**
     * The search itself, for tests: {@code elfClass} is 1 for 32-bit, 2 for 64-bit processes.
     * Empty when some name resolves to a plausible shared object.
     */
    static Optional<String> probe(String libraryPath, Path cache, List<Path> systemDirectories, int elfClass) {
        List<String> reasons = new ArrayList<>();
        for (String name : NAMES) {
            String reason = null;
            for (Path candidate : candidates(name, libraryPath, cache, systemDirectories)) {
                String problem = problemWith(candidate, elfClass);
                if (problem == null) {
                    return Optional.empty();
                }
                if (!problem.isEmpty()) {
                    reason = candidate + ": " + problem; // the loader stops at the first bad file
                    break;
                }
            }
            reasons.add(reason != null ? reason : name + " not found");
        }
        return Optional.of(reasons.get(0));
    }

    private static Set<Path> candidates(String name, String libraryPath, Path cache, List<Path> systemDirectories) {
        Set<Path> candidates = new LinkedHashSet<>();
        if (libraryPath != null) {
            for (String directory : libraryPath.split(":", -1)) {
                candidates.add(Path.of(directory.isEmpty() ? "." : directory).resolve(name));
            }
        }
        candidates.addAll(cached(name, cache));
        for (Path directory : systemDirectories) {
            candidates.add(directory.resolve(name));
        }
        candidates.removeIf(path -> !Files.exists(path));
        return candidates;
    }

    /** The paths {@code ld.so.cache} lists for {@code name}: its strings are NUL-terminated, the paths absolute. */
    private static List<Path> cached(String name, Path cache) {
        List<Path> paths = new ArrayList<>();
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(cache);
        } catch (IOException | RuntimeException e) {
            return paths;
        }
        int start = 0;
        for (int i = 0; i <= bytes.length; i++) {
            if (i == bytes.length || bytes[i] == 0) {
                if (i - start > name.length() && bytes[start] == '/') {
                    String text = new String(bytes, start, i - start, StandardCharsets.ISO_8859_1);
                    if (text.endsWith("/" + name)) {
                        paths.add(Path.of(text));
                    }
                }
                start = i + 1;
            }
        }
        return paths;
    }

    /**
     * Null for a plausible shared object, "" for a file the loader passes over (unreadable, the
     * other word size), else what makes the loader give up.
     */
    private static String problemWith(Path file, int elfClass) {
        byte[] header = new byte[ELF64_HEADER];
        int length;
        try (InputStream in = Files.newInputStream(file)) {
            length = in.readNBytes(header, 0, header.length);
        } catch (IOException | RuntimeException e) {
            return "";
        }
        if (length < (elfClass == 2 ? ELF64_HEADER : ELF32_HEADER)) {
            return "file too short";
        }
        if (header[0] != 0x7f || header[1] != 'E' || header[2] != 'L' || header[3] != 'F') {
            return "invalid ELF header";
        }
        return header[4] == elfClass ? null : "";
    }

    private static List<Path> systemDirectories() {
        String arch = System.getProperty("os.arch", "");
        String triplet = switch (arch) {
            case "amd64", "x86_64" -> "x86_64-linux-gnu";
            case "aarch64" -> "aarch64-linux-gnu";
            case "ppc64le" -> "powerpc64le-linux-gnu";
            case "s390x" -> "s390x-linux-gnu";
            default -> arch + "-linux-gnu";
        };
        return List.of(Path.of("/lib", triplet), Path.of("/usr/lib", triplet), Path.of("/lib64"), Path.of("/usr/lib64"),
                Path.of("/lib"), Path.of("/usr/lib"), Path.of("/usr/local/lib"));
    }
}
