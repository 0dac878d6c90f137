package io.contactsolver.cli;

import io.contactsolver.app.ExitCode;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.contactsolver.opencl.OpenClTestAccess;
import io.contactsolver.scene.Scene;
import io.contactsolver.scene.SceneGenerator;
import io.contactsolver.scene.SceneWriter;
import io.contactsolver.testing.Backends;
import io.contactsolver.testing.BrokenScenes.Broken;
import io.contactsolver.testing.BrokenScenes;
import io.contactsolver.testing.Cli.Run;
import io.contactsolver.testing.Cli;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/** {@code solve} as docs/formats.md specifies it: outputs, exit status, one-line errors, nothing half-written. */
class SolveCommandTest {
    @TempDir
    Path dir;

    @Test
    void writesDeltasAndImpulsesInInputOrderKeyedById() throws IOException {
        Path out = dir.resolve("out");
        Run run = Cli.inProcess("solve", "--bodies", file("bodies.csv", BrokenScenes.goodBodies()).toString(),
                "--contacts", file("contacts.csv", BrokenScenes.goodContacts()).toString(), "--out", out.toString(),
                "--backend", "cpu");
        assertEquals(ExitCode.OK, run.exitCode(), run.err());
        List<String> deltas = Files.readAllLines(out.resolve("deltas.csv"));
        assertEquals(List.of("id", "dvx", "dvy", "dvz", "dwx", "dwy", "dwz"), List.of(deltas.get(0).split(",")));
        assertEquals(3, deltas.size());
        assertTrue(deltas.get(1).startsWith("10,"), deltas.get(1));
        assertTrue(deltas.get(2).startsWith("20,"), deltas.get(2));
        List<String> impulses = Files.readAllLines(out.resolve("impulses.csv"));
        assertEquals("id,j,tx,ty,tz,rx,ry,rz", impulses.get(0));
        assertTrue(impulses.get(1).startsWith("5,"));
        assertTrue(impulses.get(2).startsWith("6,"));
        // contact 5: v_n = -1 - 1 = -2, K = 0.5 + 1 (no lever arm), j = (1 + 0.5) * 2 / 1.5 = 2
        assertEquals(2.0f, Float.parseFloat(impulses.get(1).split(",")[1]), "approaching contact");
        // contact 6: body 20 spins so that its point on the floor is at rest, v_n = 0
        assertEquals(0.0f, Float.parseFloat(impulses.get(2).split(",")[1]), "resting contact");
        assertTrue(run.out().startsWith("solved 2 contacts on 2 bodies (single-pass) with CPU"), run.out());
    }

    @Test
    void cpuAndOpenClWriteByteIdenticalFiles() throws IOException {
        Path scene = dir.resolve("scene");
        assertEquals(ExitCode.OK, Cli.inProcess("generate", "--out", scene.toString(), "--bodies", "3000",
                "--contacts", "20000", "--seed", "4").exitCode());
        String[] common = {"solve", "--bodies", scene.resolve("bodies.csv").toString(), "--contacts",
            scene.resolve("contacts.csv").toString()};
        Run cpu = Cli.inProcess(concat(common, "--out", dir.resolve("cpu").toString(), "--backend", "cpu"));
        Run openCl = Cli.inProcess(concat(common, "--out", dir.resolve("cl").toString(), "--backend", "opencl"));
        assertEquals(ExitCode.OK, cpu.exitCode(), cpu.err());
        if (openCl.exitCode() != ExitCode.OK) {
            Backends.skipOrFail(openCl.err().strip());
        }
        for (String name : new String[] {"deltas.csv", "impulses.csv"}) {
            assertArrayEquals(Files.readAllBytes(dir.resolve("cpu").resolve(name)),
                    Files.readAllBytes(dir.resolve("cl").resolve(name)), name);
        }
    }

    static Stream<Broken> brokenFiles() {
        return BrokenScenes.brokenFiles().map(arguments -> (Broken) arguments.get()[0]);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("brokenFiles")
    void refusesBadInputWithOneLineAndLeavesNoOutput(Broken broken) throws IOException {
        assertRefused(broken, BrokenScenes.writeBroken(dir, broken));
    }

    static Stream<Broken> brokenFrictionFiles() {
        return BrokenScenes.brokenFrictionFiles().map(arguments -> (Broken) arguments.get()[0]);
    }

    /** A bad friction, rolling or torsional resistance value: exit status 2, one line naming file, line and column. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("brokenFrictionFiles")
    void refusesBadFrictionWithOneLineAndLeavesNoOutput(Broken broken) throws IOException {
        assertRefused(broken, BrokenScenes.writeBrokenFriction(dir, broken));
    }

    /** The good scene with friction columns solves, and impulses.csv carries the friction and rolling vectors. */
    @Test
    void writesTheFrictionAndRollingImpulses() throws IOException {
        Path bodies = file("bodies.csv", BrokenScenes.goodBodies());
        Path contacts = file("contacts.csv", BrokenScenes.goodFrictionContacts());
        Path out = dir.resolve("out");
        Run run = Cli.inProcess("solve", "--bodies", bodies.toString(), "--contacts", contacts.toString(), "--out",
                out.toString(), "--backend", "cpu", "--solver", "iterative", "--iterations", "20");
        assertEquals(ExitCode.OK, run.exitCode(), run.err());
        List<String> impulses = Files.readAllLines(out.resolve("impulses.csv"));
        assertEquals(List.of("id", "j", "tx", "ty", "tz", "rx", "ry", "rz"), List.of(impulses.get(0).split(",")));
        String[] first = impulses.get(1).split(",");
        assertEquals("5", first[0]);
        // contact 5: the point of body 20 slides along -y at 0.5 m/s (w = +z, r = -0.5 x), so
        // friction acts on body 20 along +y, within mu j
        float j = Float.parseFloat(first[1]);
        float ty = Float.parseFloat(first[3]);
        assertTrue(j > 0.0f && ty > 0.0f && ty <= 0.4f * j * (1 + 1e-6f), impulses.get(1));
        assertEquals(0.0f, Float.parseFloat(first[2]), "no friction along the normal");
    }

    private void assertRefused(Broken broken, Path[] files) throws IOException {
        Path out = dir.resolve("out");
        Files.createDirectories(out);
        Files.writeString(out.resolve("deltas.csv"), "earlier output\n");

        Run run = Cli.inProcess("solve", "--bodies", files[0].toString(), "--contacts", files[1].toString(),
                "--out", out.toString(), "--backend", "cpu");

        assertEquals(ExitCode.BAD_INPUT, run.exitCode());
        assertEquals(1, run.errLines().size(), run.err());
        Path culprit = broken.inBodies() ? files[0] : files[1];
        assertTrue(run.err().startsWith(culprit + broken.location()), run.err());
        assertEquals("", run.out());
        try (Stream<Path> left = Files.list(out)) {
            assertEquals(List.of(out.resolve("deltas.csv")), left.toList(), "no new or temporary file");
        }
        assertEquals("earlier output\n", Files.readString(out.resolve("deltas.csv")), "earlier output kept");
    }

    /** The command: a stack of boxes solved iteratively ends at rest, byte-identical on both backends. */
    @Test
    void solvesIterativelyOnBothBackendsToTheSameBytes() throws IOException {
        Scene stack = SceneGenerator.boxStack(10, 0.0f, 2);
        Path bodies = dir.resolve("bodies.csv");
        Path contacts = dir.resolve("contacts.csv");
        SceneWriter.writeScene(bodies, contacts, stack);
        String[] common = {"solve", "--bodies", bodies.toString(), "--contacts", contacts.toString(),
            "--solver", "iterative", "--iterations", "1000"};
        Run cpu = Cli.inProcess(concat(common, "--out", dir.resolve("cpu").toString(), "--backend", "cpu"));
        assertEquals(ExitCode.OK, cpu.exitCode(), cpu.err());
        assertTrue(cpu.out().contains("(iterative, 1000 iterations, residual "), cpu.out());
        for (String line : Files.readAllLines(dir.resolve("cpu").resolve("deltas.csv")).subList(1, 11)) {
            String[] fields = line.split(",");
            assertTrue(Float.parseFloat(fields[2]) > 0.8f, "every box is stopped from falling at about 1 m/s: " + line);
        }
        Run openCl = Cli.inProcess(concat(common, "--out", dir.resolve("cl").toString(), "--backend", "opencl"));
        if (openCl.exitCode() != ExitCode.OK) {
            Backends.skipOrFail(openCl.err().strip());
        }
        for (String name : new String[] {"deltas.csv", "impulses.csv"}) {
            assertArrayEquals(Files.readAllBytes(dir.resolve("cpu").resolve(name)),
                    Files.readAllBytes(dir.resolve("cl").resolve(name)), name);
        }
    }

    /** Input that passes every check but overflows float in the solve: exit 2, one line, nothing written. */
    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({"cpu, single-pass, :3: contact id 6", "cpu, iterative, :2: contact id 5",
        "opencl, single-pass, :3: contact id 6", "opencl, iterative, :2: contact id 5"})
    void aSolveThatOverflowsIsRefusedInOneLineAndWritesNothing(String backend, String solver, String location)
            throws IOException {
        String[] bodyLines = BrokenScenes.goodBodies();
        bodyLines[2] = "20,1,0,0,1,0,0,0,-1,-3e38,0,0,0,1,1,0,0,0,0,0,0";
        Path bodies = file("bodies.csv", bodyLines);
        Path contacts = file("contacts.csv", BrokenScenes.goodContacts());
        Path out = Files.createDirectories(dir.resolve("out"));
        Files.writeString(out.resolve("deltas.csv"), "earlier output\n");
        Run run = Cli.inProcess("solve", "--bodies", bodies.toString(), "--contacts", contacts.toString(),
                "--out", out.toString(), "--backend", backend, "--solver", solver);
        if (backend.equals("opencl") && run.exitCode() == ExitCode.FAILURE) {
            Backends.skipOrFail(run.err().strip());
        }
        assertEquals(ExitCode.BAD_INPUT, run.exitCode(), run.err());
        assertEquals(1, run.errLines().size(), run.err());
        // the iterative solver couples the contacts: the other one sharing body 20 is the first to overflow there
        assertTrue(run.err().startsWith(contacts + location + ": the solve overflowed: impulse 'j' is "), run.err());
        assertTrue(run.err().strip().endsWith("; nothing written"), run.err());
        assertEquals("", run.out());
        try (Stream<Path> left = Files.list(out)) {
            assertEquals(List.of(out.resolve("deltas.csv")), left.toList(), "no new or temporary file");
        }
        assertEquals("earlier output\n", Files.readString(out.resolve("deltas.csv")));
    }

    @Test
    void refusesBadSolverSettings() {
        Run run = Cli.inProcess("solve", "--bodies", "b", "--contacts", "c", "--out", "o", "--solver", "jacobi");
        assertEquals(ExitCode.BAD_INPUT, run.exitCode());
        assertTrue(run.err().contains("unknown solver 'jacobi' (single-pass, iterative or soft-step)"), run.err());
        Run soft = Cli.inProcess("solve", "--bodies", "b", "--contacts", "c", "--out", "o", "--solver", "soft-step");
        assertEquals(ExitCode.BAD_INPUT, soft.exitCode());
        assertTrue(soft.err().contains("solver 'soft-step' moves bodies in substeps and is no solve (single-pass or "
                + "iterative)"), soft.err());
        Run zero = Cli.inProcess("solve", "--bodies", "b", "--contacts", "c", "--out", "o", "--solver", "iterative",
                "--iterations", "0");
        assertEquals(ExitCode.BAD_INPUT, zero.exitCode());
        assertTrue(zero.err().contains("iterations must be at least 1"), zero.err());
    }

    @Test
    void refusesUnknownOptionsAndBadEnumValuesInOneLine() {
        Run run = Cli.inProcess("solve", "--bodies", "b", "--contacts", "c", "--out", "o", "--backend", "gpu");
        assertEquals(ExitCode.BAD_INPUT, run.exitCode());
        assertTrue(run.err().contains("--backend"), run.err());
        assertEquals(1, run.errLines().size(), run.err());
        assertTrue(run.err().endsWith("(see 'contact-solver solve --help')\n"), run.err());
        Run missing = Cli.inProcess("solve", "--bodies", "b");
        assertEquals(ExitCode.BAD_INPUT, missing.exitCode());
        assertEquals(1, missing.errLines().size(), missing.err());
    }

    @Test
    void outputFilesGetTheUsualPermissionsNotOwnerOnly() throws IOException {
        Path out = dir.resolve("out");
        Run run = Cli.inProcess("solve", "--bodies", file("bodies.csv", BrokenScenes.goodBodies()).toString(),
                "--contacts", file("contacts.csv", BrokenScenes.goodContacts()).toString(), "--out", out.toString(),
                "--backend", "cpu");
        assertEquals(ExitCode.OK, run.exitCode(), run.err());
        Path plain = Files.createFile(out.resolve("plain"));
        assertEquals(Files.getPosixFilePermissions(plain), Files.getPosixFilePermissions(out.resolve("deltas.csv")));
        assertEquals(Files.getPosixFilePermissions(plain), Files.getPosixFilePermissions(out.resolve("impulses.csv")));
    }

    /** In a child JVM stderr is the real one: the error line is all there is, no log line before it. */
    @Test
    void aChildProcessPrintsExactlyOneLineOnStderrForBadInput() throws Exception {
        Broken broken = brokenFiles().filter(b -> b.name().equals("negative inverse mass")).findFirst()
                .orElseThrow();
        Path[] files = BrokenScenes.writeBroken(dir, broken);
        Run run = Cli.child(Map.of(), "solve", "--bodies", files[0].toString(), "--contacts", files[1].toString(),
                "--out", dir.resolve("out").toString());
        assertEquals(ExitCode.BAD_INPUT, run.exitCode());
        assertEquals(List.of(files[0] + ":3: column 'inv_mass' of body id 20: inverse mass -1.0 is negative"),
                run.errLines());
        assertTrue(Files.notExists(dir.resolve("out").resolve("deltas.csv")));
    }

    /**
     * A machine where the OpenCL loader finds no platform: auto falls back and says why; opencl
     * refuses. Where this machine has no loadable OpenCL library at all, that is the reason given
     * instead; where the loader ignores {@code OCL_ICD_VENDORS}, no platform-less machine can be
     * made here and the test is skipped.
     */
    @Test
    void withoutAnOpenClPlatformAutoFallsBackToTheCpuAndSaysWhy() throws Exception {
        Path vendors = Files.createDirectories(dir.resolve("no-vendors"));
        Map<String, String> noPlatform = Map.of("OCL_ICD_VENDORS", vendors.toString());
        Optional<String> noLibrary = OpenClTestAccess.unloadableLibrary();
        String reason = noLibrary.map(why -> "OpenCL library could not be loaded (" + why + ")")
                .orElse("no OpenCL platform found (CL_PLATFORM_NOT_FOUND_KHR)");
        Run devices = Cli.child(noPlatform, "devices");
        Assumptions.assumeFalse(devices.exitCode() == ExitCode.OK,
                "this OpenCL loader ignores OCL_ICD_VENDORS: " + devices.out());
        assertEquals(ExitCode.FAILURE, devices.exitCode());
        assertEquals("no OpenCL devices: " + reason, devices.out().strip());
        assertFallsBackSayingOnce(noPlatform, reason);
    }

    /**
     * A machine without a loadable OpenCL library (here an empty {@code libOpenCL.so.1} first on the
     * library path): one line says so, nothing else mentions OpenCL, on either stream.
     */
    @Test
    void withoutALoadableOpenClLibraryAutoFallsBackAndSaysSoOnce() throws Exception {
        Path libraries = Files.createDirectories(dir.resolve("no-opencl"));
        Path empty = Files.createFile(libraries.resolve("libOpenCL.so.1"));
        Map<String, String> noLibrary = Map.of("LD_LIBRARY_PATH", libraries.toString());
        String reason = "OpenCL library could not be loaded (" + empty + ": file too short)";
        assertFallsBackSayingOnce(noLibrary, reason);
        Run devices = Cli.child(noLibrary, "devices");
        assertEquals(ExitCode.FAILURE, devices.exitCode());
        assertEquals(List.of("no OpenCL devices: " + reason), devices.out().lines().toList());
        assertEquals("", devices.err());
    }

    private void assertFallsBackSayingOnce(Map<String, String> environment, String reason) throws Exception {
        Path bodies = file("bodies.csv", BrokenScenes.goodBodies());
        Path contacts = file("contacts.csv", BrokenScenes.goodContacts());
        Run auto = Cli.child(environment, "solve", "--bodies", bodies.toString(), "--contacts", contacts.toString(),
                "--out", dir.resolve("auto").toString());
        assertEquals(ExitCode.OK, auto.exitCode(), auto.err());
        assertEquals(List.of("INFO: contact-solver: backend CPU (" + threads() + "); OpenCL not used: " + reason),
                auto.errLines());
        assertEquals(1, auto.out().lines().count(), "nothing but the summary on stdout: " + auto.out());
        assertTrue(auto.out().startsWith("solved 2 contacts"), auto.out());
        assertTrue(Files.exists(dir.resolve("auto").resolve("deltas.csv")));

        Run openCl = Cli.child(environment, "solve", "--bodies", bodies.toString(), "--contacts", contacts.toString(),
                "--out", dir.resolve("opencl").toString(), "--backend", "opencl");
        assertEquals(ExitCode.FAILURE, openCl.exitCode());
        assertEquals(List.of("error: OpenCL backend unavailable: " + reason), openCl.errLines());
        assertEquals("", openCl.out());
    }

    /** CONTACT_SOLVER_DEVICE chooses the device; one matching nothing makes auto fall back, saying so. */
    @Test
    void theDeviceEnvironmentVariableIsHonoured() throws Exception {
        OpenClTestAccess.requireDevice();
        Path bodies = file("bodies.csv", BrokenScenes.goodBodies());
        Path contacts = file("contacts.csv", BrokenScenes.goodContacts());
        Run run = Cli.child(Map.of("CONTACT_SOLVER_DEVICE", "no-such-device"), "solve", "--bodies", bodies.toString(),
                "--contacts", contacts.toString(), "--out", dir.resolve("out").toString());
        assertEquals(ExitCode.OK, run.exitCode(), run.err());
        assertTrue(run.err().contains("OpenCL not used: no OpenCL device matches 'no-such-device' (devices: 0 '"),
                run.err());
        Run chosen = Cli.child(Map.of("CONTACT_SOLVER_DEVICE", "0"), "solve", "--bodies", bodies.toString(),
                "--contacts", contacts.toString(), "--out", dir.resolve("out").toString());
        assertTrue(chosen.err().startsWith("INFO: contact-solver: backend OpenCL on '"), chosen.err());
    }

    private static String threads() {
        int n = Runtime.getRuntime().availableProcessors();
        return n + (n == 1 ? " thread" : " threads");
    }

    private Path file(String name, String[] lines) throws IOException {
        return Files.write(dir.resolve(name), String.join("\n", lines).getBytes());
    }

    private static String[] concat(String[] first, String... more) {
        String[] all = new String[first.length + more.length];
        System.arraycopy(first, 0, all, 0, first.length);
        System.arraycopy(more, 0, all, first.length, more.length);
        return all;
    }
}
