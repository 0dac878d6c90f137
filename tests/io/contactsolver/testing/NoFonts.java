package io.contactsolver.testing;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * A child JVM's environment in which the JDK's font manager cannot load its text shaper, as on a
 * trimmed runtime without the system's font libraries: an empty {@code libharfbuzz.so.0} first on
 * {@code LD_LIBRARY_PATH}, which the dynamic loader refuses. Skips the test where this JDK's font
 * manager does not load the system's harfbuzz (it cannot be taken away there).
 */
public final class NoFonts {
    private NoFonts() {
    }

    public static Map<String, String> environment(Path scratch) throws IOException {
        Path fontManager = Path.of(System.getProperty("java.home"), "lib", "libfontmanager.so");
        assumeTrue(Files.isRegularFile(fontManager) && new String(Files.readAllBytes(fontManager),
                StandardCharsets.ISO_8859_1).contains("libharfbuzz.so.0"),
                "this JDK's font manager does not load the system's libharfbuzz.so.0, so it cannot be taken away");
        Path broken = Files.createDirectories(scratch.resolve("no-fonts"));
        Files.write(broken.resolve("libharfbuzz.so.0"), new byte[0]);
        String path = System.getenv("LD_LIBRARY_PATH");
        return Map.of("LD_LIBRARY_PATH", broken + (path == null ? "" : ":" + path));
    }
}
