package io.contactsolver.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.contactsolver.opencl.SignalChaining;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/**
 * Signal chaining: the tests themselves run with it (the build preloads libjsig), and a command
 * line started without it starts itself again with it.
 */
class SignalChainedLaunchTest {
    @Test
    void theTestJvmRunsWithSignalChaining() {
        assumeTrue(SignalChaining.library().isPresent(), "this JDK has no lib/libjsig.so");
        assertTrue(SignalChaining.active(), "libjsig is not loaded: the build's LD_PRELOAD for the tests is missing");
    }

    @Test
    void aLaunchWithoutChainingRunsItsCommandAgainWithIt() throws IOException, InterruptedException {
        assumeTrue(SignalChaining.library().isPresent(), "this JDK has no lib/libjsig.so");
        ProcessBuilder builder = new ProcessBuilder(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                System.getProperty("java.class.path"), Probe.class.getName(), "first", "second"));
        builder.environment().remove("LD_PRELOAD");
        builder.redirectErrorStream(true);
        Process probe = builder.start();
        String output = new String(probe.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertEquals(7, probe.waitFor(), output);
        assertEquals("chained: true, arguments: [first, second]", output, "the command ran once, in the child");
    }

    /** Reports what the command line would run under, with the launcher's exit status 7. */
    public static final class Probe {
        public static void main(String[] args) throws InterruptedException {
            OptionalInt chained = SignalChainedLaunch.run(Probe.class, args);
            if (chained.isPresent()) {
                System.exit(chained.getAsInt());
            }
            System.out.println("chained: " + SignalChaining.active() + ", arguments: " + List.of(args));
            System.exit(7);
        }
    }
}
