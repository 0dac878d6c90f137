package io.contactsolver.opencl;

import io.contactsolver.core.AccumulatedImpulse;
import io.contactsolver.core.ContactRowField;
import io.contactsolver.core.FrictionWork;
import io.contactsolver.core.MotionField;
import io.contactsolver.core.PreparedBodyField;
import io.contactsolver.core.SoftRowField;
import io.contactsolver.core.StateField;
import io.contactsolver.layout.BodyField;
import io.contactsolver.layout.ContactBody;
import io.contactsolver.layout.ContactField;
import io.contactsolver.layout.DeltaField;
import io.contactsolver.layout.ImpulseField;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The OpenCL C sources (classpath {@code /kernels/}) and the build options that hand them the data
 * layout. The kernels name every field offset as a macro; the values come only from the Java enums
 * here, so the layout has one definition.
 */
final class KernelSource {
    /** Source files in the order they are compiled as one program. */
    static final List<String> FILES = List.of("common.cl", "single_pass.cl", "iterative.cl", "integrate.cl",
            "soft_step.cl");

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
        define(options, "BODY_", BodyField.values());
        define(options, "CONTACT_", ContactField.values());
        define(options, "LINK_", ContactBody.values());
        define(options, "DELTA_", DeltaField.values());
        define(options, "PREP_", PreparedBodyField.values());
        define(options, "ROW_", ContactRowField.values());
        define(options, "STATE_", StateField.values());
        define(options, "IMPULSE_", ImpulseField.values());
        define(options, "ACC_", AccumulatedImpulse.values());
        define(options, "WORK_", FrictionWork.values());
        define(options, "SOFT_", SoftRowField.values());
        define(options, "MOTION_", MotionField.values());
        options.append(" -DBODY_COUNT=").append(BodyField.COUNT)
                .append(" -DCONTACT_COUNT=").append(ContactField.COUNT)
                .append(" -DLINK_COUNT=").append(ContactBody.COUNT)
                .append(" -DDELTA_COUNT=").append(DeltaField.COUNT)
                .append(" -DPREP_STRIDE=").append(PreparedBodyField.STRIDE)
                .append(" -DROW_COUNT=").append(ContactRowField.COUNT)
                .append(" -DSTATE_STRIDE=").append(StateField.STRIDE)
                .append(" -DWORK_COUNT=").append(FrictionWork.COUNT)
                .append(" -DSOFT_COUNT=").append(SoftRowField.COUNT)
                .append(" -DMOTION_STRIDE=").append(MotionField.STRIDE)
                .append(" -DROW_FRICTIONLESS_COUNT=").append(ContactRowField.FRICTIONLESS_COUNT)
                .append(" -DRESIDUAL_SLOTS=").append(IterativePipeline.RESIDUAL_SLOTS);
        // argument names and types kept in the program, so Kernels can check its launchers against them
        options.append(" -cl-kernel-arg-info");
        if (correctlyRoundedDivide) {
            options.append(" -cl-fp32-correctly-rounded-divide-sqrt");
        }
        return options.toString().trim();
    }

    private static void define(StringBuilder options, String prefix, Enum<?>[] fields) {
        for (Enum<?> field : fields) {
            options.append(" -D").append(prefix).append(field.name()).append('=').append(field.ordinal());
        }
    }
}
