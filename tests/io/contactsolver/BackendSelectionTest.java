package io.contactsolver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.contactsolver.core.BackendUnavailableException;
import io.contactsolver.opencl.OpenClTestAccess;
import io.contactsolver.scene.BoxContacts;
import io.contactsolver.scene.BoxScene;
import io.contactsolver.scene.Scene;
import io.contactsolver.scene.SceneGenerator;
import io.contactsolver.testing.Backends;
import io.contactsolver.testing.Bits;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.ObjIntConsumer;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.joml.Vector3f;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * AUTO picks OpenCL when it can and otherwise runs on the CPU, saying why in one log line; a
 * device failing during a solve is dropped and the batch recomputed on the CPU. Each way of
 * failing is injected through the solver's OpenCL factory seam, or caused for real on PoCL.
 */
class BackendSelectionTest {
    private final List<LogRecord> log = new ArrayList<>();
    private final Handler capture = new Handler() {
        @Override
        public void publish(LogRecord record) {
            log.add(record);
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    private static final Logger LIBRARY_LOG = Logger.getLogger("io.contactsolver");
    private Level levelBefore;

    @BeforeEach
    void captureLog() {
        levelBefore = LIBRARY_LOG.getLevel();
        LIBRARY_LOG.setLevel(Level.ALL); // the backend line is at DEBUG (FINE), below the default
        LIBRARY_LOG.addHandler(capture);
    }

    @AfterEach
    void releaseLog() {
        LIBRARY_LOG.removeHandler(capture);
        LIBRARY_LOG.setLevel(levelBefore);
    }

    private static final SolverConfig AUTO = SolverConfig.defaults().withBackend(Backend.AUTO);
    private static final SolverConfig OPENCL = SolverConfig.defaults().withBackend(Backend.OPENCL);

    @Test
    void nativeLibraryMissingFallsBackToTheCpuAndSaysWhy() {
        try (ContactSolver solver = ContactSolver.create(AUTO, selector -> {
            throw new UnsatisfiedLinkError("no JOCL_2_0_6-linux-x86_64 in java.library.path");
        })) {
            assertEquals(Backend.CPU, solver.backend());
            assertEquals("OpenCL library could not be loaded (java.lang.UnsatisfiedLinkError: no JOCL_2_0_6-linux-x86_64 "
                    + "in java.library.path)", solver.fallbackReason().orElseThrow());
            assertOneLine(Level.FINE, "contact-solver: backend CPU (", "OpenCL not used: OpenCL library could not be loaded");
            assertNothingAtInfoOrAbove();
            assertSolvesLikeTheCpu(solver);
        }
    }

    /** The proof that a run meant to have no OpenCL library (CI's second run) really has none. */
    @Test
    void aRunWithoutOpenClByDesignFallsBackForWantOfTheLibrary() {
        Assumptions.assumeTrue(Backends.withoutOpenClByDesign(), Backends.WITHOUT_OPENCL + " is not set");
        try (ContactSolver solver = ContactSolver.create(AUTO)) {
            assertEquals(Backend.CPU, solver.backend());
            String reason = solver.fallbackReason().orElseThrow();
            assertTrue(reason.startsWith("OpenCL library could not be loaded ("), reason);
            assertOneLine(Level.FINE, "contact-solver: backend CPU (", reason);
            assertNothingAtInfoOrAbove();
        }
    }

    @Test
    void jOclClassesMissingFallBackToo() {
        try (ContactSolver solver = ContactSolver.create(AUTO, selector -> {
            throw new NoClassDefFoundError("org/jocl/CL");
        })) {
            assertEquals(Backend.CPU, solver.backend());
            assertTrue(solver.fallbackReason().orElseThrow().contains("NoClassDefFoundError"));
        }
    }

    @Test
    void noPlatformOrNoDeviceFallsBack() {
        try (ContactSolver solver = ContactSolver.create(AUTO, selector -> {
            throw new BackendUnavailableException("no OpenCL device found on 1 platform(s)");
        })) {
            assertEquals(Backend.CPU, solver.backend());
            assertOneLine(Level.FINE, "backend CPU", "OpenCL not used: no OpenCL device found on 1 platform(s)");
            assertNothingAtInfoOrAbove();
        }
    }

    @Test
    void explicitlyAskingForOpenClDoesNotFallBackAtCreation() {
        IllegalStateException failure = assertThrows(IllegalStateException.class, () -> ContactSolver.create(OPENCL,
                selector -> {
                    throw new UnsatisfiedLinkError("libOpenCL.so.1: cannot open shared object file");
                }));
        assertTrue(failure.getMessage().startsWith("OpenCL backend unavailable: OpenCL library could not be loaded"));
    }

    @Test
    void theCpuBackendNeverTouchesOpenCl() {
        try (ContactSolver solver = ContactSolver.create(SolverConfig.defaults().withBackend(Backend.CPU), selector -> {
            throw new AssertionError("OpenCL must not be opened");
        })) {
            assertEquals(Backend.CPU, solver.backend());
            assertTrue(solver.fallbackReason().isEmpty());
        }
    }

    @Test
    void aKernelBuildFailureFallsBackWithTheBuildLog() {
        OpenClTestAccess.requireDevice();
        try (ContactSolver solver = ContactSolver.create(AUTO, selector -> OpenClTestAccess.openWithSources(selector,
                List.of("__kernel void prepare_bodies(__global float* x) { x[0] = not_declared_anywhere; }")))) {
            assertEquals(Backend.CPU, solver.backend());
            String reason = solver.fallbackReason().orElseThrow();
            assertTrue(reason.startsWith("OpenCL kernel build failed on '"), reason);
            assertTrue(reason.contains("not_declared_anywhere"), "build log in the reason: " + reason);
            assertOneLine(Level.WARNING, "backend CPU", "not_declared_anywhere"); // a device was there and failed
        }
    }

    @Test
    void autoTakesAGpuOrAcceleratorAndLeavesAnOpenClCpuDeviceUnasked() {
        OpenClTestAccess.requireDevice();
        boolean offload = ContactSolver.devices().stream().anyMatch(d -> !d.type().equals("CPU"));
        try (ContactSolver solver = ContactSolver.create(AUTO)) {
            if (offload) {
                assertEquals(Backend.OPENCL, solver.backend());
                assertOneLine(Level.FINE, "contact-solver: backend OpenCL on '", "");
                assertNothingAtInfoOrAbove();
            } else {
                assertEquals(Backend.CPU, solver.backend());
                String reason = solver.fallbackReason().orElseThrow();
                assertTrue(reason.startsWith("no GPU or accelerator among the OpenCL devices (0 '"), reason);
                assertTrue(reason.contains("[CPU]") && reason.contains("only when asked for"), reason);
                assertOneLine(Level.FINE, "contact-solver: backend CPU (", "OpenCL not used: no GPU or accelerator");
                assertNothingAtInfoOrAbove();
            }
        }
    }

    @Test
    void anOpenClCpuDeviceIsUsedWhenNamed() {
        OpenClTestAccess.requireDevice();
        try (ContactSolver solver = ContactSolver.create(AUTO.withDevice("0"))) {
            assertEquals(Backend.OPENCL, solver.backend(), "a selector is asking for the device");
        }
        try (ContactSolver solver = ContactSolver.create(OPENCL)) {
            assertEquals(Backend.OPENCL, solver.backend(), "so is the OpenCL backend");
        }
    }

    @Test
    void aSelectorMatchingNoDeviceFallsBackUnderAutoAndFailsUnderOpenCl() {
        OpenClTestAccess.requireDevice();
        try (ContactSolver solver = ContactSolver.create(AUTO.withDevice("no-such-device-anywhere"))) {
            assertEquals(Backend.CPU, solver.backend());
            assertTrue(solver.fallbackReason().orElseThrow().startsWith("no OpenCL device matches 'no-such-device-anywhere'"));
            assertOneLine(Level.WARNING, "backend CPU", "no-such-device-anywhere"); // the user named a device
        }
        assertThrows(IllegalStateException.class, () -> ContactSolver.create(OPENCL.withDevice("99")));
    }

    @ParameterizedTest
    @ValueSource(strings = {"upload", "kernels", "readback"})
    void aDeviceFailingDuringASolveIsDroppedAndTheBatchRecomputedOnTheCpu(String stage) {
        OpenClTestAccess.requireDevice();
        Scene scene = SceneGenerator.randomGraph(8, 2000, 10_000);
        Scene other = SceneGenerator.randomGraph(9, 2000, 10_000);
        SolveResult expected;
        try (ContactSolver cpu = Backends.cpu()) {
            expected = cpu.solve(scene.bodies(), scene.contacts(), new SolveResult());
        }
        try (ContactSolver solver = ContactSolver.create(AUTO, selector -> OpenClTestAccess.openFailingAt(selector, stage))) {
            assertEquals(Backend.OPENCL, solver.backend());
            SolveResult result = new SolveResult();
            try (ContactSolver cpu = Backends.cpu()) {
                cpu.solve(other.bodies(), other.contacts(), result); // stale values the recompute must replace
            }
            solver.solve(scene.bodies(), scene.contacts(), result);
            assertEquals(Backend.CPU, result.backend());
            assertEquals(Backend.CPU, solver.backend(), "later solves stay on the CPU");
            Bits.assertIdentical(expected, result, "recomputed batch");
            assertOneLine(Level.WARNING, "failed during a solve (CL_OUT_OF_RESOURCES (injected)", "recomputed on the CPU");
            assertTrue(solver.fallbackReason().orElseThrow().startsWith("device failed during a solve"));
            solver.solve(scene.bodies(), scene.contacts(), result);
            Bits.assertIdentical(expected, result, "next solve");
        }
    }

    /**
     * A device failing in the third step of a soft-step simulation, at each stage, once its own
     * recycling is under way (the points it writes left unwritten), or as it is about to read the
     * checked next state into the bodies ("commit"): that step is recomputed on the CPU, which
     * writes them, and the trajectory is the CPU's bit for bit, step after step.
     */
    @ParameterizedTest
    @ValueSource(strings = {"upload", "kernels", "readback", "commit"})
    void aDeviceFailingDuringASoftStepIsDroppedAndTheStepRecomputedOnTheCpu(String stage) {
        OpenClTestAccess.requireDevice();
        try (ContactSolver solver = ContactSolver.create(AUTO,
                selector -> OpenClTestAccess.openFailingAt(selector, stage, 3))) {
            stepThePyramidBesideTheCpu(solver, 5, (result, step) ->
                    assertEquals(step < 2 ? Backend.OPENCL : Backend.CPU, result.backend(), "step " + step));
            assertOneLine(Level.WARNING, "failed during a solve (CL_OUT_OF_RESOURCES (injected)", "recomputed on the CPU");
        }
    }

    /**
     * A device without double precision (the recycling's kernel not built there) steps a
     * soft-step simulation on the device all the same, the host writing the recycled points each
     * step: the trajectory is the CPU's bit for bit.
     */
    @Test
    void aDeviceWithoutDoublePrecisionStepsLikeTheCpuWithTheHostRecycling() {
        OpenClTestAccess.requireDevice();
        try (ContactSolver solver = ContactSolver.create(AUTO, OpenClTestAccess::openWithoutDoubles)) {
            stepThePyramidBesideTheCpu(solver, 4, (result, step) -> {
                assertEquals(Backend.OPENCL, result.backend(), "step " + step);
                assertEquals(step > 0, result.recycledCount() > 0, "step " + step + ": recycled");
            });
        }
    }

    /**
     * Steps a box pyramid (base 8, with its own collision) {@code steps} times on {@code solver} and on
     * the CPU beside it, each from its own last result, and asserts the same bits after each step;
     * {@code check} sees each of the solver's results first.
     */
    private static void stepThePyramidBesideTheCpu(ContactSolver solver, int steps,
            ObjIntConsumer<SolveResult> check) {
        BodyBatch expectedBodies = BoxScene.pyramid(8).bodies();
        BodyBatch bodies = BoxScene.pyramid(8).bodies();
        ContactBatch expectedContacts = new ContactBatch();
        ContactBatch contacts = new ContactBatch();
        BoxContacts expectedCollision = new BoxContacts(BoxScene.HALF_EXTENT, 0.02f, BoxContacts.DEFAULT_FRICTION);
        BoxContacts collision = new BoxContacts(BoxScene.HALF_EXTENT, 0.02f, BoxContacts.DEFAULT_FRICTION);
        Vector3f gravity = new Vector3f(0.0f, -10.0f, 0.0f);
        SolveResult[] expected = {new SolveResult(), new SolveResult()};
        SolveResult[] actual = {new SolveResult(), new SolveResult()};
        try (ContactSolver cpu = Backends.cpu()) {
            for (int step = 0; step < steps; step++) {
                expectedCollision.find(expectedBodies, expectedContacts);
                collision.find(bodies, contacts);
                cpu.step(expectedBodies, expectedContacts, SolveSettings.softStep(), gravity, 1.0f / 60.0f,
                        step == 0 ? null : expected[(step + 1) & 1], expected[step & 1]);
                SolveResult result = solver.step(bodies, contacts, SolveSettings.softStep(), gravity, 1.0f / 60.0f,
                        step == 0 ? null : actual[(step + 1) & 1], actual[step & 1]);
                check.accept(result, step);
                Bits.assertIdentical(expected[step & 1], result, "step " + step);
                Bits.assertIdentical(expectedBodies, bodies, "step " + step);
            }
        }
    }

    /** A library is quiet when all is as the machine allows: nothing at INFO or above. */
    private void assertNothingAtInfoOrAbove() {
        List<String> loud = log.stream().filter(r -> r.getLevel().intValue() >= Level.INFO.intValue())
                .map(r -> r.getLevel() + ": " + r.getMessage()).toList();
        assertEquals(List.of(), loud);
    }

    private void assertOneLine(Level level, String start, String part) {
        List<LogRecord> matching = log.stream().filter(r -> r.getLevel().equals(level)).toList();
        assertEquals(1, matching.size(), "one " + level + " line: " + log.stream().map(LogRecord::getMessage).toList());
        String message = matching.get(0).getMessage();
        assertTrue(message.contains(start) && message.contains(part), message);
    }

    private static void assertSolvesLikeTheCpu(ContactSolver solver) {
        Scene scene = SceneGenerator.randomGraph(3, 200, 800);
        try (ContactSolver cpu = Backends.cpu()) {
            Bits.assertIdentical(cpu.solve(scene.bodies(), scene.contacts(), new SolveResult()),
                    solver.solve(scene.bodies(), scene.contacts(), new SolveResult()), "fallback solver");
        }
    }

}
