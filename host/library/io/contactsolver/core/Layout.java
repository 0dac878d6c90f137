package io.contactsolver.core;

import io.contactsolver.layout.BodyField;
import io.contactsolver.layout.ContactBody;
import io.contactsolver.layout.ContactField;
import io.contactsolver.layout.DeltaField;
import io.contactsolver.layout.ImpulseField;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every data layout of the solver, public and internal, one constant each: the one place that
 * lists them and gives each its name in code.
 *
 * <p>A layout's fields and their order are declared by its enum: the public ones in
 * {@code io.contactsolver.layout} (users address batches and results with them), the internal ones
 * here in {@code core} (what the backends keep while they solve). A layout's name is its prefix:
 * field {@code F} of layout {@code L} is called {@code L_F} everywhere in code, its offset (the
 * field's ordinal) as
 * <ul>
 *   <li>an OpenCL build option {@code -DL_F=<ordinal>}, made from this list by
 *       {@code KernelSource.buildOptions}, so the kernels never spell an offset, and
 *   <li>a Java constant {@link FieldOffsets}{@code .L_F}, derived from the same ordinal, which the
 *       CPU backend's hot loops read (a {@code static final int} that C2 folds).
 * </ul>
 * Each layout also hands the kernels its size, {@code L_COUNT} (fields of a structure of arrays,
 * or of scratch) or {@code L_STRIDE} (floats of one array-of-structures record), and the prefix
 * lengths a kernel needs, such as {@code ROW_FRICTIONLESS_COUNT}. {@code KernelLayoutTest} checks the
 * rules: distinct names, every macro a kernel uses defined, every defined field either used or
 * read through the first field of its group, and the Java constants equal to the build options.
 */
public enum Layout {
    /** {@link BodyField}: the per-body inputs of a {@code BodyBatch}, structure of arrays (API). */
    BODY(BodyField.class, "COUNT"),
    /** {@link ContactField}: the per-contact float inputs of a {@code ContactBatch}, structure of arrays (API). */
    CONTACT(ContactField.class, "COUNT"),
    /** {@link ContactBody}: a contact's two body indices, structure of arrays (API). */
    LINK(ContactBody.class, "COUNT"),
    /** {@link DeltaField}: the per-body velocity changes of a result, and each side's response (API). */
    DELTA(DeltaField.class, "COUNT"),
    /** {@link PreparedBodyField}: a body's working record, array of structures. */
    PREP(PreparedBodyField.class, "STRIDE"),
    /** {@link ContactRowField}: the iterative solver's row of a contact. */
    ROW(ContactRowField.class, "COUNT", new PrefixLength("FRICTIONLESS_COUNT", ContactRowField.FRICTIONLESS_COUNT)),
    /** {@link StateField}: the iterative solver's per-body velocity change, array of structures. */
    STATE(StateField.class, "STRIDE"),
    /** {@link ImpulseField}: the per-contact impulses of a result, structure of arrays (API). */
    IMPULSE(ImpulseField.class, "COUNT"),
    /** {@link AccumulatedImpulse}: the impulses the iterative solver accumulates for a row. */
    ACC(AccumulatedImpulse.class, "COUNT"),
    /** {@link FrictionWork}: the scratch of a contact's friction maths. */
    WORK(FrictionWork.class, "COUNT"),
    /** {@link MotionField}: a body's motion within a soft step, array of structures. */
    MOTION(MotionField.class, "STRIDE"),
    /** {@link ManifoldField}: the soft step's constraint of a manifold. */
    MAN(ManifoldField.class, "COUNT"),
    /** {@link PointField}: a point of a soft-step manifold. */
    POINT(PointField.class, "COUNT"),
    /** {@link ManifoldImpulse}: the impulses the soft step accumulates for a manifold beside its points'. */
    MACC(ManifoldImpulse.class, "COUNT"),
    /** {@link WarmStartField}: a soft-step manifold row's warm start, worked out ahead. */
    WARM(WarmStartField.class, "COUNT"),
    /** {@link ManifoldVectorField}: a manifold's friction and angular vectors, its warm start and its result. */
    MVEC(ManifoldVectorField.class, "COUNT"),
    /** {@link GeometryField}: a solved point's geometry after recycling, as the soft step uses it. */
    GEOM(GeometryField.class, "COUNT"),
    /** {@link CaptureField}: what a soft step keeps of a contact for recycling it in the next step. */
    CAPTURE(CaptureField.class, "COUNT"),
    /** {@link ReportTally}: the scratch by which a manifold's impulses are shared out among its contacts. */
    TALLY(ReportTally.class, "COUNT"),
    /** {@link MagnitudeGroup}: the largest magnitudes the validator's screen keeps, one a group. */
    GROUP(MagnitudeGroup.class, "COUNT");

    private final Class<? extends Enum<?>> fields;
    private final Map<String, Integer> sizes;

    /** A length of leading fields the kernels need by name, such as a row's without friction. */
    private record PrefixLength(String name, int length) {
    }

    Layout(Class<? extends Enum<?>> fields, String size, PrefixLength... prefixLengths) {
        this.fields = fields;
        Map<String, Integer> named = new LinkedHashMap<>();
        named.put(name() + '_' + size, fields.getEnumConstants().length);
        for (PrefixLength prefix : prefixLengths) {
            named.put(name() + '_' + prefix.name(), prefix.length());
        }
        this.sizes = Collections.unmodifiableMap(named);
    }

    /** The enum that declares this layout's fields in storage order. */
    public Class<? extends Enum<?>> fieldType() {
        return fields;
    }

    /** The fields in storage order: a field's ordinal is its offset. */
    public List<? extends Enum<?>> fields() {
        return List.of(fields.getEnumConstants());
    }

    /** What every name of this layout in code starts with: its name and an underscore, such as {@code "ROW_"}. */
    public String prefix() {
        return name() + '_';
    }

    /** The name of {@code field} in code, such as {@code "ROW_NX"}: its build option and its {@link FieldOffsets} constant. */
    public String macro(Enum<?> field) {
        if (field.getDeclaringClass() != fields) {
            throw new IllegalArgumentException(field + " is not a field of " + this);
        }
        return prefix() + field.name();
    }

    /**
     * The sizes handed to the kernels beside the fields, by name in code: first the layout's size
     * ({@code ROW_COUNT}, {@code PREP_STRIDE}), then the prefix lengths the kernels need.
     */
    public Map<String, Integer> sizes() {
        return sizes;
    }

    /** Whether users see this layout: its enum is in the exported package {@code io.contactsolver.layout}. */
    public boolean isApi() {
        return fields.getPackageName().equals(BodyField.class.getPackageName());
    }
}
