package io.contactsolver.opencl;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The search for libOpenCL.so.1 that spares the user JOCL's own lines about a missing library. */
class OpenClLibraryTest {
    private static final int ELF64 = 2;

    @TempDir
    Path dir;

    @Test
    void nothingAnywhereIsNotFound() throws IOException {
        Path system = Files.createDirectories(dir.resolve("lib"));
        assertEquals(Optional.of("libOpenCL.so.1 not found"),
                OpenClLibrary.probe(null, dir.resolve("no-cache"), List.of(system), ELF64));
    }

    @Test
    void theFirstFileFoundDecidesUnlessItIsOfTheOtherWordSize() throws IOException {
        Path first = Files.createDirectories(dir.resolve("first"));
        Path system = Files.createDirectories(dir.resolve("system"));
        elf(system.resolve("libOpenCL.so.1"), ELF64);
        assertEquals(Optional.empty(), OpenClLibrary.probe(first.toString(), dir.resolve("none"), List.of(system), ELF64));

        Path empty = Files.createFile(first.resolve("libOpenCL.so.1"));
        assertEquals(Optional.of(empty + ": file too short"),
                OpenClLibrary.probe(first.toString(), dir.resolve("none"), List.of(system), ELF64));

        Files.writeString(empty, "INPUT(libOpenCL.so.1) this is a linker script, not a library\n".repeat(2));
        assertEquals(Optional.of(empty + ": invalid ELF header"),
                OpenClLibrary.probe(first.toString(), dir.resolve("none"), List.of(system), ELF64));

        elf(empty, 1);
        assertEquals(Optional.empty(), OpenClLibrary.probe(first.toString(), dir.resolve("none"), List.of(system), ELF64),
                "a 32-bit library is passed over, as the loader does");
    }

    @Test
    void theLoaderCacheIsSearched() throws IOException {
        Path elsewhere = Files.createDirectories(dir.resolve("elsewhere"));
        Path library = elf(elsewhere.resolve("libOpenCL.so.1"), ELF64);
        Path cache = Files.write(dir.resolve("ld.so.cache"), ("glibc-ld.so.cache1.1\0libOpenCL.so.1\0" + library
                + "\0libm.so.6\0/lib/libm.so.6\0").getBytes(StandardCharsets.ISO_8859_1));
        assertEquals(Optional.empty(), OpenClLibrary.probe("", cache, List.of(), ELF64));
    }

    private static Path elf(Path file, int elfClass) throws IOException {
        byte[] header = new byte[64];
        header[0] = 0x7f;
        header[1] = 'E';
        header[2] = 'L';
        header[3] = 'F';
        header[4] = (byte) elfClass;
        return Files.write(file, header);
    }
}
