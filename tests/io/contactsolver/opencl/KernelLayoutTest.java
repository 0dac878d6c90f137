package io.contactsolver.opencl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.contactsolver.core.AccumulatedImpulse;
import io.contactsolver.core.ContactRowField;
import io.contactsolver.core.FieldOffsets;
import io.contactsolver.core.Layout;
import io.contactsolver.core.MotionField;
import io.contactsolver.core.PreparedBodyField;
import io.contactsolver.core.StateField;
import io.contactsolver.layout.DeltaField;
import io.contactsolver.layout.ImpulseField;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The rules of the layout's names ({@link Layout}): one prefix a layout, one name a field, the
 * same in the kernels' build options and in the Java code, every macro the kernels use defined, and
 * the prefix lengths of the rows and impulses where the backends expect them.
 */
class KernelLayoutTest {
    /** {@code -DNAME=VALUE} in the build options. */
    private static final Pattern DEFINE = Pattern.compile("-D(\\w+)=(\\S+)");

    /** The build options' macros, name to value, in order; a name defined twice fails. */
    private static Map<String, String> defined() {
        Map<String, String> macros = new LinkedHashMap<>();
        Matcher define = DEFINE.matcher(KernelSource.buildOptions(true));
        while (define.find()) {
            String before = macros.put(define.group(1), define.group(2));
            assertEquals(null, before, define.group(1) + " is defined twice");
        }
        return macros;
    }

    /** Every layout's fields by name in code, with their offsets. */
    private static Map<String, Integer> fieldMacros() {
        Map<String, Integer> fields = new TreeMap<>();
        for (Layout layout : Layout.values()) {
            for (Enum<?> field : layout.fields()) {
                assertEquals(null, fields.put(layout.macro(field), field.ordinal()), layout.macro(field));
            }
        }
        return fields;
    }

    /** The identifiers of the kernels' code, comments left out. */
    private static Set<String> kernelIdentifiers() {
        Set<String> names = new HashSet<>();
        for (String source : KernelSource.load()) {
            String code = source.replaceAll("(?s)/\\*.*?\\*/", " ").replaceAll("//[^\n]*", " ");
            Matcher identifier = Pattern.compile("\\b[A-Za-z_]\\w*\\b").matcher(code);
            while (identifier.find()) {
                names.add(identifier.group());
            }
        }
        return names;
    }

    private static Layout layoutOf(String macro) {
        Layout owner = null;
        for (Layout layout : Layout.values()) {
            if (macro.startsWith(layout.prefix())) {
                assertEquals(null, owner, macro + " starts with the prefixes of " + owner + " and " + layout);
                owner = layout;
            }
        }
        return owner;
    }

    @Test
    void everyLayoutHasItsOwnPrefixAndEveryMacroOneMeaning() {
        for (Layout a : Layout.values()) {
            for (Layout b : Layout.values()) {
                assertTrue(a == b || !a.prefix().startsWith(b.prefix()), a + " and " + b + " share a prefix");
            }
        }
        Map<String, String> defined = defined(); // fails on a name defined twice
        for (String macro : defined.keySet()) {
            assertTrue(KernelSource.constants().containsKey(macro) || layoutOf(macro) != null,
                    macro + " belongs to no layout and is no shared constant");
        }
        Set<String> names = new HashSet<>(fieldMacros().keySet());
        for (Layout layout : Layout.values()) {
            for (String size : layout.sizes().keySet()) {
                assertTrue(names.add(size), size + " is both a field and a size");
            }
        }
    }

    @Test
    void theBuildOptionsAreTheLayoutsAndTheSharedConstants() {
        Map<String, Integer> expected = new TreeMap<>(fieldMacros());
        for (Layout layout : Layout.values()) {
            expected.putAll(layout.sizes());
        }
        Map<String, String> literals = new LinkedHashMap<>(KernelSource.constants());
        expected.forEach((name, value) -> literals.put(name, Integer.toString(value)));
        assertEquals(List.of(), differences(literals, defined()), "build options against the layouts and constants");
    }

    @Test
    void eachSizeIsItsEnumsOwnConstant() throws ReflectiveOperationException {
        for (Layout layout : Layout.values()) {
            for (Map.Entry<String, Integer> size : layout.sizes().entrySet()) {
                String constant = size.getKey().substring(layout.prefix().length());
                Field field = layout.fieldType().getField(constant);
                assertEquals(size.getValue(), field.get(null), size.getKey() + " is not " + field);
            }
            Integer whole = layout.sizes().values().iterator().next();
            assertEquals(layout.fields().size(), whole, layout + ": its first size is its number of fields");
        }
    }

    @Test
    void theJavaOffsetsAreTheBuildOptionsFields() throws IllegalAccessException {
        Map<String, Integer> offsets = new TreeMap<>();
        for (Field field : FieldOffsets.class.getDeclaredFields()) {
            int modifiers = field.getModifiers();
            assertTrue(Modifier.isPublic(modifiers) && Modifier.isStatic(modifiers) && Modifier.isFinal(modifiers)
                    && field.getType() == int.class, field + " is not a public static final int");
            offsets.put(field.getName(), field.getInt(null));
        }
        assertEquals(List.of(), differences(fieldMacros(), offsets), "FieldOffsets against the build options");
    }

    /** What two name-to-value maps disagree on, one line a name. */
    private static <V> List<String> differences(Map<String, V> expected, Map<String, V> actual) {
        Set<String> names = new TreeSet<>(expected.keySet());
        names.addAll(actual.keySet());
        List<String> differ = new ArrayList<>();
        for (String name : names) {
            if (!Objects.equals(expected.get(name), actual.get(name))) {
                differ.add(name + ": expected " + expected.get(name) + ", is " + actual.get(name));
            }
        }
        return differ;
    }

    @Test
    void everyLayoutMacroTheKernelsUseIsDefined() {
        Map<String, String> defined = defined();
        Set<String> undefined = new TreeSet<>();
        for (String name : kernelIdentifiers()) {
            if ((layoutOf(name) != null || KernelSource.constants().containsKey(name)) && !defined.containsKey(name)) {
                undefined.add(name);
            }
        }
        assertEquals(Set.of(), undefined, "used by the kernels, defined by no layout");
    }

    /**
     * The layouts only the host reads, with the reason: {@link Layout#CAPTURE}, what a soft step keeps
     * of a contact for recycling it, which the {@code Recycler} reads and writes on the host before
     * either backend runs. Their macros are defined like every layout's; no kernel may use them.
     */
    private static final Set<Layout> HOST_ONLY = Set.of();

    /**
     * A field macro no kernel names is padding ({@code PAD_*}) or a later member of a group the
     * kernels read through its first member, {@code ROW_DIRT1_AX + 1}: a run of fields of one stem
     * (the name less its trailing axes, a quaternion's w with them, or digits) whose first field the kernels use. A layout's
     * size is offered whether or not a kernel needs it; any other size is there because one does.
     * A layout of {@link #HOST_ONLY} is used by no kernel at all (else it is no longer host-only).
     */
    @Test
    void everyDefinedMacroIsUsedOrDeliberatelyUnused() {
        Set<String> used = kernelIdentifiers();
        List<String> unexplained = new ArrayList<>();
        for (Layout layout : Layout.values()) {
            if (HOST_ONLY.contains(layout)) {
                for (String name : used) {
                    assertFalse(name.startsWith(layout.prefix()), name + ": a kernel uses " + layout
                            + ", declared host-only here; take it off HOST_ONLY");
                }
                continue;
            }
            List<? extends Enum<?>> fields = layout.fields();
            boolean any = false;
            for (int i = 0; i < fields.size(); i++) {
                String name = fields.get(i).name();
                boolean named = used.contains(layout.macro(fields.get(i)));
                any |= named;
                if (name.startsWith("PAD_")) {
                    assertFalse(named, layout.macro(fields.get(i)) + " is padding, yet a kernel reads it");
                    continue;
                }
                int first = i;
                while (first > 0 && !stem(name).isEmpty() && stem(fields.get(first - 1).name()).equals(stem(name))) {
                    first--;
                }
                if (!named && (first == i || !used.contains(layout.macro(fields.get(first))))) {
                    unexplained.add(layout.macro(fields.get(i)));
                }
            }
            assertTrue(any, layout + ": no kernel uses this layout");
            List<String> sizes = new ArrayList<>(layout.sizes().keySet());
            for (String prefixLength : sizes.subList(1, sizes.size())) {
                if (!used.contains(prefixLength)) {
                    unexplained.add(prefixLength);
                }
            }
        }
        for (String constant : KernelSource.constants().keySet()) {
            assertTrue(used.contains(constant), constant + ": a shared constant no kernel uses");
        }
        assertEquals(List.of(), unexplained, "defined for the kernels, yet no kernel reads them");
    }

    private static String stem(String field) {
        return field.replaceFirst("(W?[XYZ]*|[0-9]+)$", "");
    }

    @Test
    void rowFieldsGrowByPrefixesNormalFrictionlessFrictionRollingTorsion() {
        List<ContactRowField> fields = List.of(ContactRowField.values());
        assertTrue(0 < ContactRowField.NORMAL_COUNT && ContactRowField.NORMAL_COUNT < ContactRowField.FRICTIONLESS_COUNT
                && ContactRowField.FRICTIONLESS_COUNT < ContactRowField.FRICTION_COUNT
                && ContactRowField.FRICTION_COUNT < ContactRowField.ROLLING_COUNT
                && ContactRowField.ROLLING_COUNT < ContactRowField.COUNT);
        // a frictionless row of a frictional batch: the normal row and MU, RHO, which say it is frictionless
        assertEquals(List.of(ContactRowField.MU, ContactRowField.RHO),
                fields.subList(ContactRowField.NORMAL_COUNT, ContactRowField.FRICTIONLESS_COUNT));
        // the friction-only row holds no rolling term, and every rolling term comes after it; the
        // twist terms come last, TAU first, so a batch without torsion keeps none of them
        assertEquals(ContactRowField.TAU, fields.get(ContactRowField.ROLLING_COUNT));
        for (ContactRowField field : fields) {
            boolean twist = field == ContactRowField.TAU || field.name().startsWith("TWIST")
                    || field == ContactRowField.KTW || field == ContactRowField.WN_0;
            assertEquals(twist, field.ordinal() >= ContactRowField.ROLLING_COUNT, field.name());
            boolean rolling = field.name().startsWith("ROLL") || field == ContactRowField.KR
                    || field.name().startsWith("WT");
            assertEquals(rolling, field.ordinal() >= ContactRowField.FRICTION_COUNT
                    && field.ordinal() < ContactRowField.ROLLING_COUNT, field.name());
            boolean tangential = field.name().matches("(T[12]|RXT[12]|DIRT[12]|VT[12]).*") || field == ContactRowField.KT;
            assertEquals(tangential, field.ordinal() >= ContactRowField.FRICTIONLESS_COUNT
                    && field.ordinal() < ContactRowField.FRICTION_COUNT, field.name());
        }
    }

    @Test
    void impulsesComeNormalThenTangentThenRollingThenTwistInBothLayouts() {
        assertEquals(List.of(AccumulatedImpulse.N), List.of(AccumulatedImpulse.values()).subList(0, AccumulatedImpulse.NORMAL_COUNT));
        assertEquals(List.of(AccumulatedImpulse.T1, AccumulatedImpulse.T2), List.of(AccumulatedImpulse.values())
                .subList(AccumulatedImpulse.NORMAL_COUNT, AccumulatedImpulse.FRICTION_COUNT));
        assertEquals(List.of(AccumulatedImpulse.R1, AccumulatedImpulse.R2), List.of(AccumulatedImpulse.values())
                .subList(AccumulatedImpulse.FRICTION_COUNT, AccumulatedImpulse.ROLLING_COUNT));
        assertEquals(List.of(AccumulatedImpulse.TW), List.of(AccumulatedImpulse.values())
                .subList(AccumulatedImpulse.ROLLING_COUNT, AccumulatedImpulse.COUNT));
        // the result keeps the same order: the normal impulse, the tangent vector, the angular vector
        // (rolling and twist together)
        assertEquals(List.of("J", "TX", "TY", "TZ", "RX", "RY", "RZ"),
                Arrays.stream(ImpulseField.values()).map(Enum::name).toList());
    }

    @Test
    void recordsAreWholeCacheSectorsAndTheStateHoldsTheDeltas() {
        assertEquals(16, PreparedBodyField.STRIDE, "one 64-byte record, four float4");
        assertEquals(16, MotionField.STRIDE, "one 64-byte record");
        assertEquals(8, StateField.STRIDE, "one 32-byte record");
        List<String> state = Arrays.stream(StateField.values()).map(Enum::name).filter(n -> !n.startsWith("PAD_")).toList();
        assertEquals(Arrays.stream(DeltaField.values()).map(Enum::name).toList(), state);
        assertEquals(StateField.DVX.ordinal() + 4, StateField.DWX.ordinal(), "linear, then angular, a float4 each");
    }
}
