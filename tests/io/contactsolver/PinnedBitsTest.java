package io.contactsolver;

import io.contactsolver.testing.Backends;
import io.contactsolver.testing.Fingerprint;
import io.contactsolver.testing.PinnedRuns;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every bit of every solver's output, friction and rolling resistance and the soft step included,
 * stays what it was when {@link PinnedRuns} recorded it (commit f8422c1, CPU, one thread; the soft
 * step's six again when it moved to contact manifolds with recycling, commit 0d7caaf, and the
 * pyramid's two when a manifold's points were coupled in the sweep, and all six when the sweep's
 * arithmetic was rearranged for shorter dependency chains): the
 * guard that lets the code be reshaped without changing a result. The OpenCL backend and a CPU
 * team must give the same bits. A deliberate change of the maths records the new values with
 * {@code PinnedRuns.main} and says why in its commit.
 */
class PinnedBitsTest {
    private static final Map<String, Long> RECORDED = Map.ofEntries(
            Map.entry("clusters, single pass", 0xccd565c7bf376d78L),
            Map.entry("clusters, iterative", 0x110f17a3a3555f5fL),
            Map.entry("clusters, iterative warm-started", 0x2c70cb9fe89a8a1bL),
            Map.entry("pile, iterative", 0xed6fa5e11227f447L),
            Map.entry("pile, iterative with positional correction", 0x6b2c12e003570595L),
            Map.entry("pile, soft steps, last result", 0x410a1c16f9e002a5L),
            Map.entry("pile, soft steps, bodies", 0x0e434510ea7571f9L),
            Map.entry("pile, soft steps without friction, last result", 0xb31e14a897582ed6L),
            Map.entry("pile, soft steps without friction, bodies", 0xbb61b3baa264e3e1L),
            Map.entry("pyramid, soft steps, last result", 0x7287b2d526bc292cL),
            Map.entry("pyramid, soft steps, bodies", 0x7bf33708a7852a7cL),
            Map.entry("pile, iterative steps, last result", 0x2bc401c3d38fb371L),
            Map.entry("pile, iterative steps, bodies", 0x357e083c35b4ba76L));

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"CPU, 1 thread", "CPU, 2 threads", "OpenCL"})
    void everyResultKeepsItsRecordedBits(String backend) {
        try (ContactSolver solver = switch (backend) {
            case "CPU, 1 thread" -> Backends.cpu(1);
            case "CPU, 2 threads" -> Backends.cpu(2);
            default -> Backends.openClOrSkip();
        }) {
            Map<String, Long> prints = PinnedRuns.run(solver);
            Fingerprint.assertRecorded(RECORDED, prints);
        }
    }
}
