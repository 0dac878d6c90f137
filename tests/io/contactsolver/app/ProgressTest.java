package io.contactsolver.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.contactsolver.testing.Cli.Run;
import io.contactsolver.testing.Cli;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The progress of demo and bench: a bar on a terminal only, plain lines in a log, nothing on request. */
class ProgressTest {
    @TempDir
    Path dir;

    @AfterEach
    void clearProperty() {
        System.clearProperty(Progress.PROPERTY);
    }

    @Test
    void stderrThatIsNotATerminalGetsPlainLinesWithoutCarriageReturns() {
        assertFalse(Progress.stderrIsTerminal(), "the tests' stderr is a pipe");
        assertEquals(Progress.Mode.LINES, Progress.mode());
        StringWriter text = new StringWriter();
        try (Progress progress = Progress.open("demo", 500, " steps", new PrintWriter(text))) {
            for (int i = 0; i < 500; i++) {
                progress.setExtraMessage("step " + i);
                progress.step();
            }
        }
        List<String> lines = text.toString().lines().toList();
        assertEquals(1, lines.size(), "only the closing line within the first ten seconds: " + text);
        assertTrue(lines.get(0).startsWith("demo: 500/500 steps, step 499 ("), lines.get(0));
        assertFalse(text.toString().contains("\r"));
    }

    @Test
    void thePropertyChoosesTheMode() {
        System.setProperty(Progress.PROPERTY, "none");
        assertEquals(Progress.Mode.NONE, Progress.mode());
        StringWriter text = new StringWriter();
        try (Progress progress = Progress.open("bench", 3, "", new PrintWriter(text))) {
            progress.step();
        }
        assertEquals("", text.toString());
        System.setProperty(Progress.PROPERTY, "BAR");
        assertEquals(Progress.Mode.BAR, Progress.mode());
        try (Progress progress = Progress.open(Progress.mode(), "bench", 3, "", new PrintWriter(text))) {
            progress.step();
        }
        assertTrue(text.toString().contains("\r"), "the bar redraws in place: " + text);
        System.setProperty(Progress.PROPERTY, "fancy");
        assertThrows(IllegalArgumentException.class, Progress::mode);
    }

    /** The demo with its stderr going to a file or pipe, as in a log: no redrawn bar. */
    @Test
    void theDemoWritesNoCarriageReturnIntoALog() throws Exception {
        Run run = Cli.child(Map.of(), "demo", "--particles", "200", "--steps", "30", "--backend", "cpu",
                "--out", dir.resolve("out").toString());
        assertEquals(ExitCode.OK, run.exitCode(), run.err());
        assertFalse(run.err().contains("\r"), run.err());
        assertTrue(run.err().contains("demo: 30/30 steps"), run.err());
    }
}
