package io.contactsolver.demo;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Writes the demo's output files as the project writes all its files (see {@code SceneWriter}):
 * each first under a temporary name beside its target, all renamed only once all are complete, so
 * a failure leaves no partial file and keeps earlier output.
 */
final class DemoFiles {
    private DemoFiles() {
    }

    /** Writes every {@code target -> content} pair, in the map's order, creating folders as needed. */
    static void writeAll(Map<Path, byte[]> files) throws IOException {
        List<Path> temporaries = new ArrayList<>();
        List<Path> targets = new ArrayList<>(files.keySet());
        try {
            for (Path target : targets) {
                Path folder = target.toAbsolutePath().getParent();
                Files.createDirectories(folder);
                Path temporary = Files.createTempFile(folder, "." + target.getFileName(), ".tmp");
                temporaries.add(temporary);
                Files.write(temporary, files.get(target));
            }
            for (int i = 0; i < targets.size(); i++) {
                try {
                    Files.move(temporaries.get(i), targets.get(i), StandardCopyOption.REPLACE_EXISTING,
                            StandardCopyOption.ATOMIC_MOVE);
                } catch (AtomicMoveNotSupportedException e) {
                    Files.move(temporaries.get(i), targets.get(i), StandardCopyOption.REPLACE_EXISTING);
                }
            }
        } finally {
            for (Path temporary : temporaries) {
                Files.deleteIfExists(temporary);
            }
        }
    }

    /** The per-step figures as CSV, one row per step after a header. */
    static byte[] csv(List<StepFigures> figures) {
        StringBuilder text = new StringBuilder(StepFigures.CSV_HEADER).append('\n');
        for (StepFigures step : figures) {
            text.append(step.csvRow()).append('\n');
        }
        return text.toString().getBytes(StandardCharsets.UTF_8);
    }
}
