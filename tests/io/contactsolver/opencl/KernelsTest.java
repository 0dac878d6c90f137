package io.contactsolver.opencl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.contactsolver.core.BackendUnavailableException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The typed launchers match the kernels as built, argument for argument and name for name; a kernel
 * that drifts is refused when the program is built, and a launch that sets an argument under
 * another name or kind than the kernel declares is refused before it is set.
 */
class KernelsTest {

    @Test
    void everyLauncherMatchesItsKernel() throws BackendUnavailableException {
        OpenClTestAccess.requireDevice();
        try (OpenClBackend backend = OpenClBackend.open(Optional.empty())) {
            for (Kernels.Signature signature : Kernels.Signature.values()) {
                assertNull(backend.kernels().mismatch(signature), signature.kernelName);
            }
            // on PoCL (CI) the check covers address spaces and types, not only the argument counts
            assertTrue(backend.kernels().reportsArgumentTypes() || !"true".equals(System.getenv("CI")),
                    "the CI device reports kernel argument types");
        }
    }

    @Test
    void aKernelWithAnArgumentMoreThanItsLauncherIsRefused() {
        OpenClTestAccess.requireDevice();
        List<String> sources = edited("const int contactCount, const int worldRecord,",
                "const int contactCount, const int extra, const int worldRecord,");
        BackendUnavailableException refused = assertThrows(BackendUnavailableException.class,
                () -> OpenClBackend.open(Optional.empty(), sources).close());
        assertEquals("OpenCL kernel 'solve_contacts' does not match its launcher: 14 arguments, the launcher sets 13",
                refused.getMessage());
    }

    @Test
    void aKernelWithAnArgumentOfAnotherTypeIsRefused() throws BackendUnavailableException {
        OpenClTestAccess.requireDevice();
        try (OpenClBackend backend = OpenClBackend.open(Optional.empty())) {
            if (!backend.kernels().reportsArgumentTypes()) {
                return; // such a device can only be checked on argument counts (the test above)
            }
        }
        List<String> sources = edited("const int contactCount, const int worldRecord,",
                "const int contactCount, const float worldRecord,");
        BackendUnavailableException refused = assertThrows(BackendUnavailableException.class,
                () -> OpenClBackend.open(Optional.empty(), sources).close());
        assertEquals("OpenCL kernel 'solve_contacts' does not match its launcher: argument 4 is 'float', "
                + "the launcher sets INT", refused.getMessage());
    }

    @Test
    void aKernelWhoseTwoIntArgumentsChangePlacesIsRefused() throws BackendUnavailableException {
        OpenClTestAccess.requireDevice();
        try (OpenClBackend backend = OpenClBackend.open(Optional.empty())) {
            if (!backend.kernels().reportsArgumentTypes()) {
                return; // such a device can only be checked on argument counts
            }
        }
        // same count, same types: only the names tell that the launcher would now set them swapped
        List<String> sources = edited("const int contactCount, const int worldRecord,",
                "const int worldRecord, const int contactCount,");
        BackendUnavailableException refused = assertThrows(BackendUnavailableException.class,
                () -> OpenClBackend.open(Optional.empty(), sources).close());
        assertEquals("OpenCL kernel 'solve_contacts' does not match its launcher: argument 3 is named 'worldRecord', "
                + "the launcher sets INT 'contactCount'", refused.getMessage());
    }

    /** What a launcher's {@code Launch} asks of each argument it sets, before it sets it. */
    @Test
    void aLaunchThatSetsAnArgumentUnderAnotherNameOrKindIsRefused() {
        Kernels.Signature solve = Kernels.Signature.SOLVE_CONTACTS;
        assertNull(solve.refusal(3, Kernels.Arg.INT, "contactCount"), "as declared");
        assertEquals("solve_contacts: argument 3 set as INT 'worldRecord', declared INT 'contactCount'",
                solve.refusal(3, Kernels.Arg.INT, "worldRecord"), "two ints swapped");
        assertEquals("solve_contacts: argument 3 set as FLOAT 'contactCount', declared INT 'contactCount'",
                solve.refusal(3, Kernels.Arg.FLOAT, "contactCount"), "another kind");
        assertEquals("solve_contacts: argument 13 set as INT 'extra', declared absent",
                solve.refusal(13, Kernels.Arg.INT, "extra"), "one too many");
    }

    @Test
    void noKernelDeclaresTwoArgumentsOfOneName() {
        for (Kernels.Signature signature : Kernels.Signature.values()) {
            java.util.Set<String> names = new java.util.HashSet<>();
            for (Kernels.Param param : signature.args) {
                assertTrue(names.add(param.name()), signature.kernelName + ": '" + param.name() + "' twice");
            }
        }
    }

    /** The packaged sources with one declaration of single_pass.cl changed. */
    private static List<String> edited(String declaration, String replacement) {
        List<String> sources = new ArrayList<>(KernelSource.load());
        int file = KernelSource.FILES.indexOf("single_pass.cl");
        assertTrue(sources.get(file).contains(declaration), "the test edits a declaration that exists");
        sources.set(file, sources.get(file).replace(declaration, replacement));
        return sources;
    }
}
