package io.contactsolver.opencl;

import io.contactsolver.core.ContactColoring;
import io.contactsolver.core.FrictionUse;
import io.contactsolver.core.InputValidator;
import io.contactsolver.core.Layout;
import io.contactsolver.core.ManifoldGrouping;
import io.contactsolver.core.Recycler;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The OpenCL C sources (classpath {@code /kernels/}) and the build options that hand them the data
 * layout. The kernels name every field offset as a macro; the names and values come only from
 * {@link Layout}, which lists every layout's enum, so the layout has one definition.
 */
final class KernelSource {
    /** Source files in the order they are compiled as one program. */
    static final List<String> FILES = List.of("common.cl", "single_pass.cl", "iterative.cl", "integrate.cl",
            "soft_step.cl", "recycling.cl", "checks.cl", "colouring.cl");

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
        constants().forEach((name, value) -> options.append(" -D").append(name).append('=').append(value));
        // argument names and types kept in the program, so Kernels can check its launchers against them
        options.append(" -cl-kernel-arg-info");
        if (correctlyRoundedDivide) {
            options.append(" -cl-fp32-correctly-rounded-divide-sqrt");
        }
        return options.toString().trim();
    }

    /**
     * The build options that belong to no layout: constants the kernels share with the host, each
     * from its one definition in Java, as C literals (the floating-point ones hexadecimal, exact; the
     * double one unsuffixed, for the kernels built with double precision).
     */
    static Map<String, String> constants() {
        Map<String, String> constants = new LinkedHashMap<>();
        constants.put("RESIDUAL_SLOTS", Integer.toString(IterativePipeline.RESIDUAL_SLOTS));
        constants.put("COLOUR_MAX", Integer.toString(ContactColoring.MAX_COLOURS));
        constants.put("PRIORITY_MIX_A", Integer.toUnsignedString(ContactColoring.PRIORITY_MIX_A) + "u");
        constants.put("PRIORITY_MIX_B", Integer.toUnsignedString(ContactColoring.PRIORITY_MIX_B) + "u");
        constants.put("MANIFOLD_MAX_POINTS", Integer.toString(ManifoldGrouping.MAX_POINTS));
        constants.put("MANIFOLD_NONE", Integer.toString(ManifoldGrouping.NONE));
        constants.put("MANIFOLD_SHARED_FIELDS", Integer.toString(ManifoldGrouping.sharedFieldMask()));
        constants.put("RECYCLE_KEPT", Integer.toString(Recycler.KEPT));
        constants.put("RECYCLE_EITHER", Integer.toString(Recycler.EITHER));
        constants.put("RECYCLE_SCRATCH", Integer.toString(Recycler.SCRATCH));
        constants.put("RECYCLE_TURN_A", Integer.toString(Recycler.TURN_A));
        constants.put("RECYCLE_TURN_B", Integer.toString(Recycler.TURN_B));
        constants.put("RECYCLE_MIN_HALF_TURN_COS2", Float.toHexString(Recycler.MIN_HALF_TURN_COS2) + "f");
        constants.put("RECYCLE_ARM_SHARE_SQUARED", Double.toHexString(Recycler.ARM_SHARE_SQUARED));
        constants.put("USE_FRICTION", Integer.toString(FrictionUse.FRICTION_BIT));
        constants.put("USE_ROLLING", Integer.toString(FrictionUse.ROLLING_BIT));
        constants.put("USE_TORSION", Integer.toString(FrictionUse.TORSION_BIT));
        constants.put("SCREEN_NORM2_LOW", Float.toHexString(InputValidator.NORM2_LOW) + "f");
        constants.put("SCREEN_NORM2_HIGH", Float.toHexString(InputValidator.NORM2_HIGH) + "f");
        constants.put("SCREEN_LENGTH2_LOW", Float.toHexString(InputValidator.LENGTH2_LOW) + "f");
        constants.put("SCREEN_LENGTH2_HIGH", Float.toHexString(InputValidator.LENGTH2_HIGH) + "f");
        return constants;
    }

    private static void define(StringBuilder options, String macro, int value) {
        options.append(" -D").append(macro).append('=').append(value);
    }
}
