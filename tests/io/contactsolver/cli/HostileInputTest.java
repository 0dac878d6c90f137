package io.contactsolver.cli;

import io.contactsolver.app.ExitCode;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.contactsolver.testing.BrokenScenes;
import io.contactsolver.testing.Cli.Run;
import io.contactsolver.testing.Cli;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Options, files and conditions a careless or hostile user brings: every refusal is one line on
 * stderr with the right exit status, names what and where, quotes input safely, and happens
 * before any work; nothing old is lost.
 */
class HostileInputTest {
    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"solve --threads 0", "solve --threads -1", "solve --threads 32768", "solve --threads many",
        "bench --threads 0", "bench --sections foo", "bench --sections sweep,foo", "generate --contacts 2000000000",
        "generate --bodies 2000000000", "generate --bodies 1", "generate --contacts -1"})
    void everyOptionErrorIsExitTwoWithOneLine(String options) throws IOException {
        String[] words = options.split(" ");
        Path bodies = file("bodies.csv", BrokenScenes.goodBodies());
        Path contacts = file("contacts.csv", BrokenScenes.goodContacts());
        List<String> args = switch (words[0]) {
            case "solve" -> List.of("solve", "--bodies", bodies.toString(), "--contacts", contacts.toString(), "--out",
                    dir.resolve("out").toString());
            case "generate" -> List.of("generate", "--out", dir.resolve("out").toString());
            default -> List.of("bench", "--contacts", "1000", "--backends", "cpu", "--min-time", "0.01");
        };
        String[] all = Stream.concat(args.stream(), Stream.of(words).skip(1)).toArray(String[]::new);
        Run run = Cli.inProcess(all);
        assertEquals(ExitCode.BAD_INPUT, run.exitCode(), run.err());
        assertEquals(1, run.errLines().size(), run.err());
        assertTrue(run.err().startsWith("error: "), run.err());
        assertFalse(run.err().contains("null"), run.err());
        assertEquals("", run.out());
        assertTrue(Files.notExists(dir.resolve("out")), "nothing done");
    }

    @Test
    void theContactLimitOfGenerateIsStatedUpFront() {
        Run run = Cli.inProcess("generate", "--out", dir.toString(), "--contacts", "2000000000");
        assertEquals("error: --contacts must be from 0 to " + io.contactsolver.ContactBatch.MAX_SIZE
                + " (one contact batch holds at most that many), got 2000000000 (see 'contact-solver generate --help')",
                run.err().strip());
    }

    /**
     * A value out of range is refused as its option's, the way picocli refuses a malformed one: one
     * line naming the option and its value, the pointer to the command's help, exit 2, before any
     * work (a bench of 2^31 contacts is refused at once, not after generating them).
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"solve --iterations 0", "solve --tolerance -1", "solve --restitution-threshold NaN",
        "demo --particles 0", "demo --steps 0", "bench --min-time -1", "bench --min-time Infinity",
        "bench --contacts 2147483647", "bench --frames 1", "generate --bodies 1"})
    void aValueOutOfRangeNamesItsOptionAndTheHelp(String options) throws IOException {
        String[] words = options.split(" ");
        List<String> args = switch (words[0]) {
            case "solve" -> List.of("solve", "--bodies", file("bodies.csv", BrokenScenes.goodBodies()).toString(),
                    "--contacts", file("contacts.csv", BrokenScenes.goodContacts()).toString(), "--out",
                    dir.resolve("out").toString());
            case "demo", "generate" -> List.of(words[0], "--out", dir.resolve("out").toString());
            default -> List.of("bench", "--backends", "cpu");
        };
        String[] all = Stream.concat(args.stream(), Stream.of(words).skip(1)).toArray(String[]::new);
        long start = System.nanoTime();
        Run run = Cli.inProcess(all);
        assertEquals(ExitCode.BAD_INPUT, run.exitCode(), run.err());
        assertEquals(1, run.errLines().size(), run.err());
        assertTrue(run.err().startsWith("error: " + words[1] + " "), run.err());
        assertTrue(run.err().strip().endsWith("(see 'contact-solver " + words[0] + " --help')"), run.err());
        assertEquals("", run.out());
        assertTrue(Files.notExists(dir.resolve("out")), "nothing done");
        assertTrue(System.nanoTime() - start < 20_000_000_000L, "refused before any work");
    }

    /** An input that is a folder is named with its path, not by the reader's bare "Is a directory". */
    @Test
    void anInputThatIsAFolderIsNamed() throws IOException {
        Path folder = Files.createDirectory(dir.resolve("scene"));
        Run run = Cli.inProcess("solve", "--bodies", folder.toString(), "--contacts",
                file("contacts.csv", BrokenScenes.goodContacts()).toString(), "--out", dir.resolve("out").toString());
        assertEquals(ExitCode.FAILURE, run.exitCode(), run.err());
        assertEquals("error: " + folder + ": is a folder, not a file", run.err().strip());
        assertTrue(Files.notExists(dir.resolve("out")), "nothing done");
    }

    @Test
    void anOutputFolderThatIsAFileFailsAtOnceNamingIt() throws IOException {
        Path notAFolder = Files.writeString(dir.resolve("out"), "a file");
        Run solve = Cli.inProcess("solve", "--bodies", file("bodies.csv", BrokenScenes.goodBodies()).toString(),
                "--contacts", file("contacts.csv", BrokenScenes.goodContacts()).toString(), "--out",
                notAFolder.toString(), "--backend", "cpu");
        assertEquals(ExitCode.FAILURE, solve.exitCode());
        assertEquals(List.of("error: " + notAFolder + ": is a file, not a folder"), solve.errLines());
        Run generate = Cli.inProcess("generate", "--out", notAFolder.toString());
        assertEquals(List.of("error: " + notAFolder + ": is a file, not a folder"), generate.errLines());
        assertEquals("a file", Files.readString(notAFolder));
    }

    /** A simulation that would run for hours: refused in well under a second, before it starts. */
    @Test
    void theDemoChecksItsOutputsBeforeSimulating() throws IOException {
        Path notAFolder = Files.writeString(dir.resolve("out"), "a file");
        long start = System.nanoTime();
        Run run = Cli.inProcess("demo", "--particles", "2000000", "--steps", "1000000", "--backend", "cpu", "--out",
                notAFolder.toString());
        assertEquals(ExitCode.FAILURE, run.exitCode());
        assertEquals(List.of("error: " + notAFolder + ": is a file, not a folder"), run.errLines());
        assertTrue(System.nanoTime() - start < 5_000_000_000L, "failed before the work");
        Run csv = Cli.inProcess("demo", "--particles", "2000000", "--steps", "1000000", "--backend", "cpu", "--out",
                dir.resolve("pictures").toString(), "--csv", notAFolder.resolve("steps.csv").toString());
        assertEquals(List.of("error: " + notAFolder + ": is a file, not a folder"), csv.errLines());
        assertTrue(Files.notExists(dir.resolve("pictures")));
    }

    @Test
    void anOutputFileThatIsAFolderFailsBeforeSolvingAndKeepsTheOtherOldFile() throws IOException {
        Path out = Files.createDirectories(dir.resolve("out"));
        Files.writeString(out.resolve("deltas.csv"), "earlier\n");
        Files.createDirectories(out.resolve("impulses.csv"));
        Run run = Cli.inProcess("solve", "--bodies", file("bodies.csv", BrokenScenes.goodBodies()).toString(),
                "--contacts", file("contacts.csv", BrokenScenes.goodContacts()).toString(), "--out", out.toString(),
                "--backend", "cpu");
        assertEquals(ExitCode.FAILURE, run.exitCode());
        assertEquals(List.of("error: " + out.resolve("impulses.csv") + ": is a folder, where the output file would go"),
                run.errLines());
        assertEquals("earlier\n", Files.readString(out.resolve("deltas.csv")));
    }

    @Test
    void aFolderThatCannotBeWrittenIsNamed() throws IOException {
        Path locked = Files.createDirectories(dir.resolve("locked"));
        assertTrue(locked.toFile().setWritable(false, false));
        try {
            Assumptions.assumeFalse(Files.isWritable(locked), "running as a user who may write anywhere");
            Run run = Cli.inProcess("generate", "--out", locked.resolve("sub").toString());
            assertEquals(ExitCode.FAILURE, run.exitCode());
            assertEquals(List.of("error: " + locked.resolve("sub") + ": cannot be created, " + locked
                    + " is not writable"), run.errLines());
        } finally {
            locked.toFile().setWritable(true, false);
        }
    }

    /** Bytes that are not UTF-8 far into a file: the line is the right one, though readers read ahead. */
    @Test
    void inputThatIsNotUtf8IsRefusedAtItsLine() throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        bytes.writeBytes((BrokenScenes.BODY_HEADER + "\n").getBytes(StandardCharsets.US_ASCII));
        for (int i = 0; i < 998; i++) {
            bytes.writeBytes((i + ",0,0,0,1,0,0,0,0,0,0,0,0,0,1,1,1,1,0,0,0\n").getBytes(StandardCharsets.US_ASCII));
        }
        bytes.writeBytes("998,0,0,0,1,0,0,0,0,0,0,0,0,0,1,1,1,1,0,0,\u00e9\n".getBytes(StandardCharsets.ISO_8859_1));
        Path bodies = Files.write(dir.resolve("bodies.csv"), bytes.toByteArray());
        Run run = solve(bodies, file("contacts.csv", BrokenScenes.goodContacts()));
        assertEquals(ExitCode.BAD_INPUT, run.exitCode());
        assertEquals(List.of(bodies + ":1000: not UTF-8 text: byte 0xe9 at byte 43 of the line (is this a binary file, "
                + "or another encoding?)"), run.errLines());
    }

    @Test
    void aBinaryFileIsRefusedNamingFileAndLine() throws IOException {
        byte[] binary = new byte[4096];
        for (int i = 0; i < binary.length; i++) {
            binary[i] = (byte) (i * 31 + 7);
        }
        Path contacts = Files.write(dir.resolve("contacts.csv"), binary);
        Run run = solve(file("bodies.csv", BrokenScenes.goodBodies()), contacts);
        assertEquals(ExitCode.BAD_INPUT, run.exitCode());
        assertEquals(1, run.errLines().size(), run.err());
        assertTrue(run.err().startsWith(contacts + ":1: not "), run.err());
        assertFalse(run.err().contains("Input length"), run.err());
        Path noLineBreaks = Files.write(dir.resolve("long.csv"), "1,".repeat(1 << 20).getBytes(StandardCharsets.US_ASCII));
        Run longLine = solve(noLineBreaks, contacts);
        assertEquals(List.of(noLineBreaks + ":1: line longer than 1048576 bytes: not a CSV file of this format"),
                longLine.errLines());
    }

    @Test
    void aByteOrderMarkIsAccepted() throws IOException {
        Path plain = dir.resolve("plain");
        Run expected = Cli.inProcess("solve", "--bodies", file("bodies.csv", BrokenScenes.goodBodies()).toString(),
                "--contacts", file("contacts.csv", BrokenScenes.goodContacts()).toString(), "--out", plain.toString(),
                "--backend", "cpu");
        assertEquals(ExitCode.OK, expected.exitCode(), expected.err());
        Path bodies = Files.writeString(dir.resolve("bom-bodies.csv"), "\ufeff" + String.join("\r\n", BrokenScenes.goodBodies()));
        Path contacts = Files.writeString(dir.resolve("bom-contacts.csv"), "\ufeff" + String.join("\n", BrokenScenes.goodContacts()));
        Run run = Cli.inProcess("solve", "--bodies", bodies.toString(), "--contacts", contacts.toString(), "--out",
                dir.resolve("bom").toString(), "--backend", "cpu");
        assertEquals(ExitCode.OK, run.exitCode(), run.err());
        for (String name : new String[] {"deltas.csv", "impulses.csv"}) {
            assertArrayEquals(Files.readAllBytes(plain.resolve(name)), Files.readAllBytes(dir.resolve("bom").resolve(name)));
        }
    }

    /** A field that would set the terminal's title, 300 characters long: escaped and cut. */
    @Test
    void errorLinesQuoteInputSafely() throws IOException {
        String hostile = "\u001b]0;owned\u0007" + "9".repeat(300) + "\u202e";
        String[] bodies = BrokenScenes.goodBodies();
        bodies[2] = "20,1,0,0,1,0,0,0," + hostile + ",0,0,0,0,1,1,0,0,0,0,0,0";
        Run run = solve(file("bodies.csv", bodies), file("contacts.csv", BrokenScenes.goodContacts()));
        assertEquals(ExitCode.BAD_INPUT, run.exitCode());
        assertEquals(1, run.errLines().size(), run.err());
        String line = run.errLines().get(0);
        assertTrue(line.contains("column 'vx': '\\u001b]0;owned\\u000799999"), line);
        assertTrue(line.contains("... (311 characters)' is not a number"), line);
        assertTrue(line.length() < 200, line);
        assertTrue(line.chars().noneMatch(Character::isISOControl), line);

        String[] header = BrokenScenes.goodContacts();
        header[0] = header[0] + ",x\u001b[2J" + ",x\u001b[2J";
        Run twice = solve(file("bodies.csv", BrokenScenes.goodBodies()), file("contacts.csv", header));
        assertTrue(twice.err().contains("column 'x\\u001b[2j': appears twice"), twice.err());

        Run option = Cli.inProcess("solve", "--bodies", "b", "--contacts", "c", "--out", "o", "--backend",
                "\u001b]0;owned\u0007" + "x".repeat(500));
        assertEquals(ExitCode.BAD_INPUT, option.exitCode());
        assertEquals(1, option.errLines().size(), option.err());
        assertTrue(option.err().strip().chars().noneMatch(Character::isISOControl), option.err());
        assertTrue(option.err().length() < 400, option.err());
    }

    /** A heap too small for the job: one line saying what did not fit and how to give more; old files kept. */
    @Test
    void outOfMemoryIsOneLineWithAdviceAndKeepsEarlierOutput() throws Exception {
        Path out = Files.createDirectories(dir.resolve("out"));
        Files.writeString(out.resolve("bodies.csv"), "earlier\n");
        Run run = Cli.child(List.of("-Xmx32m"), Map.of(), "generate", "--out", out.toString(), "--bodies", "2000000",
                "--contacts", "4000000");
        assertEquals(ExitCode.FAILURE, run.exitCode(), run.err());
        assertEquals(1, run.errLines().size(), run.err());
        String line = run.errLines().get(0);
        assertTrue(line.startsWith("error: out of memory generating 2,000,000 bodies and 4,000,000 contacts ("), line);
        assertTrue(line.contains("at most 32 MiB of heap") && line.contains("java -Xmx2g -jar contact-solver.jar generate"),
                line);
        assertEquals("earlier\n", Files.readString(out.resolve("bodies.csv")));
        try (Stream<Path> left = Files.list(out)) {
            assertEquals(List.of(out.resolve("bodies.csv")), left.toList());
        }
    }

    /**
     * Output that cannot be written to stdout (a full disk) fails the command, with one line on
     * stderr, where it used to exit 0 with the output lost: the real process, stdout on /dev/full.
     */
    @Test
    void aStdoutThatCannotBeWrittenFailsTheCommand() throws IOException, InterruptedException {
        java.io.File full = new java.io.File("/dev/full");
        Assumptions.assumeTrue(full.exists(), "no /dev/full here");
        List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                System.getProperty("java.class.path"), Main.class.getName(), "generate", "--out",
                dir.resolve("scene").toString(), "--bodies", "10", "--contacts", "10");
        Process process = new ProcessBuilder(command).redirectOutput(full).start();
        process.getOutputStream().close();
        String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(120, java.util.concurrent.TimeUnit.SECONDS));
        assertEquals(ExitCode.FAILURE, process.exitValue(), err);
        assertEquals(List.of("error: the output could not be written to standard output (a full disk, or a closed "
                + "pipe?); it is incomplete"), err.lines().toList());
    }

    /** The same in this JVM: a writer that fails is noticed whatever the command. */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"devices", "--version", "generate --help"})
    void anOutputWriterThatFailsFailsTheCommand(String args) {
        java.io.Writer failing = new java.io.Writer() {
            @Override
            public void write(char[] buffer, int offset, int length) throws IOException {
                throw new IOException("No space left on device");
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        java.io.StringWriter err = new java.io.StringWriter();
        int code = Main.run(new java.io.PrintWriter(failing, true), new java.io.PrintWriter(err, true),
                args.split(" "));
        assertEquals(ExitCode.FAILURE, code, err.toString());
        assertTrue(err.toString().strip().endsWith("error: the output could not be written to standard output (a "
                + "full disk, or a closed pipe?); it is incomplete"), err.toString());
    }

    /** An empty path would quietly mean the current folder: every path option refuses it, naming itself. */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"demo --out", "demo --csv", "solve --out", "solve --bodies", "solve --contacts",
        "generate --out", "bench --csv", "bench --plot"})
    void anEmptyPathIsRefusedNamingItsOption(String commandAndOption) throws IOException {
        String[] words = commandAndOption.split(" ");
        List<String> args = new java.util.ArrayList<>(switch (words[0]) {
            case "solve" -> List.of("solve", "--bodies", file("bodies.csv", BrokenScenes.goodBodies()).toString(),
                    "--contacts", file("contacts.csv", BrokenScenes.goodContacts()).toString(), "--out",
                    dir.resolve("out").toString());
            case "bench" -> List.of("bench", "--backends", "cpu");
            default -> List.of(words[0], "--out", dir.resolve("out").toString());
        });
        args.addAll(List.of(words[1], ""));
        Run run = Cli.inProcess(args.toArray(String[]::new));
        assertEquals(ExitCode.BAD_INPUT, run.exitCode(), run.err());
        assertEquals(List.of("error: Invalid value for option '" + words[1] + "': an empty path (give a name; '.' is "
                + "the current folder) (see 'contact-solver " + words[0] + " --help')"), run.errLines());
        assertTrue(Files.notExists(dir.resolve("out")), "nothing done");
    }

    /**
     * An option the chosen solver or backend ignores is refused, as in demo and bench: exit 2, one
     * line naming it and what it is for, before any work.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {
        "solve --iterations 5|--iterations does nothing with --solver single-pass: it is for --solver iterative only",
        "solve --tolerance 0.1|--tolerance does nothing with --solver single-pass: it is for --solver iterative only",
        "solve --backend cpu --device 0|--device does nothing with --backend cpu: it is for --backend opencl or auto "
            + "only",
        "bench --frames 60|--frames does nothing with --sections sweep,iterative,step: it is for --sections pyramid "
            + "only",
        "bench --sections sweep --box2d-ms 3|--box2d-ms does nothing with --sections sweep: it is for --sections "
            + "pyramid only",
        "bench --device 0|--device does nothing with --backends cpu: it is for --backends with opencl only"})
    void anOptionTheChosenModeIgnoresIsRefused(String caseLine) throws IOException {
        String[] words = caseLine.split("\\|")[0].split(" ");
        String message = caseLine.split("\\|")[1];
        List<String> args = new java.util.ArrayList<>(words[0].equals("solve")
                ? List.of("solve", "--bodies", file("bodies.csv", BrokenScenes.goodBodies()).toString(), "--contacts",
                        file("contacts.csv", BrokenScenes.goodContacts()).toString(), "--out",
                        dir.resolve("out").toString())
                : List.of("bench", "--backends", "cpu", "--contacts", "1000", "--min-time", "0.01"));
        args.addAll(List.of(words).subList(1, words.length));
        Run run = Cli.inProcess(args.toArray(String[]::new));
        assertEquals(ExitCode.BAD_INPUT, run.exitCode(), run.err());
        assertEquals(List.of("error: " + message + " (see 'contact-solver " + words[0] + " --help')"), run.errLines());
        assertTrue(Files.notExists(dir.resolve("out")), "nothing done");
    }

    /** bench's outputs: --plot or --csv on a file another of them writes is refused before measuring. */
    @Test
    void benchRefusesTwoOutputsThatAreOneFile() {
        Path csv = dir.resolve("bench.csv");
        Run run = Cli.inProcess("bench", "--backends", "cpu", "--contacts", "1000", "--min-time", "0.01", "--csv",
                csv.toString(), "--plot", dir.resolve("bench-iteration-cost.csv").toString());
        assertEquals(ExitCode.BAD_INPUT, run.exitCode(), run.err());
        assertEquals(List.of("error: --plot " + dir.resolve("bench-iteration-cost.csv") + " is the same file as --csv "
                + csv + " (its iteration-cost table): one would overwrite the other (see 'contact-solver bench "
                + "--help')"), run.errLines());
    }

    private Run solve(Path bodies, Path contacts) {
        return Cli.inProcess("solve", "--bodies", bodies.toString(), "--contacts", contacts.toString(), "--out",
                dir.resolve("out").toString(), "--backend", "cpu");
    }

    private Path file(String name, String[] lines) throws IOException {
        return Files.write(dir.resolve(name), String.join("\n", lines).getBytes(StandardCharsets.UTF_8));
    }
}
