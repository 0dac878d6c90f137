package io.contactsolver.opencl;

import io.contactsolver.core.Layout;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The OpenCL C sources (classpath {@code /kernels/}) and the build options that hand them the data
 * layout. The kernels name every field offset as a macro; the names and values come only from
 * {@link Layout}, which lists every layout's enum, so the layout has one definition.
 */
final class KernelSource {
    /** Source files in the order they are compiled as one program. */
    static final List<String> FILES = List.of("common.cl", "single_pass.cl", "iterative.cl", "integrate.cl",
            "soft_step.cl", "outputs.cl");

    private KernelSource() {
    }

    /** The sources of {@link #FILES}. */
    static List<String> load() {
        return load(FILES);
    }

    /** The sources of {@code files}; a missing resource is an error, never an empty source. */
    static List<String> load(List<String> files) {
        List<String> sources = new ArrayList<>();
        for (String file : files) {
            String path = "/kernels/" + file;
            try (InputStream in = KernelSource.class.getResourceAsStream(path)) {
                if (in == null) {
                    throw new IllegalStateException("OpenCL kernel source " + path + " is missing from the classpath");
                }
                sources.add(new String(in.readAllBytes(), StandardCharsets.UTF_8));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read OpenCL kernel source " + path, e);
            }
        }
        return sources;
    }

    /** The layout macros, argument information, then the floating-point options that keep results equal to the JVM's. */
    static String buildOptions(boolean correctlyRoundedDivide) {
        StringBuilder options = new StringBuilder();
        for (Layout layout : Layout.values()) {
            for (Enum<?> field : layout.fields()) {
                define(options, layout.macro(field), field.ordinal());
            }
        }
        for (Layout layout : Layout.values()) {
            layout.sizes().forEach((name, value) -> define(options, name, value));
        }
        define(options, "RESIDUAL_SLOTS", IterativePipeline.RESIDUAL_SLOTS);
        // argument names and types kept in the program, so Kernels can check its launchers against them
        options.append(" -cl-kernel-arg-info");
        if (correctlyRoundedDivide) {
            options.append(" -cl-fp32-correctly-rounded-divide-sqrt");
        }
        return options.toString().trim();
    }

    private static void define(StringBuilder options, String macro, int value) {
        options.append(" -D").append(macro).append('=').append(value);
    }
}
