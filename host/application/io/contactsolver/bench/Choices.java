package io.contactsolver.bench;

import io.contactsolver.Quoting;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** What {@code bench} measures, named as on its command line and in its report. */
final class Choices {
    private Choices() {
    }

    /** The module's backends and the baselines. */
    enum BenchBackend {
        CPU, OPENCL, NAIVE, JBULLET, BANDWIDTH;

        String label() {
            return Choices.label(this);
        }

        static final class Converter extends LabelConverter<BenchBackend> {
            Converter() {
                super(BenchBackend.class, "backend");
            }
        }
    }

    /** The seeded scenes of the sweep: a spatially coherent pile and a random contact graph. */
    enum SweepScene {
        PILE, RANDOM;

        String label() {
            return Choices.label(this);
        }

        static final class Converter extends LabelConverter<SweepScene> {
            Converter() {
                super(SweepScene.class, "scene");
            }
        }
    }

    /**
     * The parts of a run: the single-pass sweep over sizes, the iterative solver's figures, the
     * soft step on the pile over sizes, the box pyramid stepped frame by frame
     * ({@link PyramidBench}), the soft step on a lattice of spheres on 1 thread and all cores
     * ({@link LatticeBench}), and a step's data through the bulk API beside one iteration
     * ({@link BulkIoBench}).
     */
    enum Section {
        SWEEP, ITERATIVE, STEP, PYRAMID, LATTICE, BULK;

        static final class Converter extends LabelConverter<Section> {
            Converter() {
                super(Section.class, "section");
            }
        }
    }

    /** The values' labels as the command line lists them: {@code pile,random}. */
    static String labels(List<? extends Enum<?>> values) {
        return String.join(",", values.stream().map(Choices::label).toList());
    }

    /** The pyramid section's scenes, read by their labels ({@code large}, {@code many}). */
    static final class PyramidSceneConverter extends LabelConverter<PyramidBench.Kind> {
        PyramidSceneConverter() {
            super(PyramidBench.Kind.class, "pyramid scene", kind -> kind.label);
        }
    }

    static String label(Enum<?> value) {
        return value.name().toLowerCase(Locale.ROOT);
    }

    /** Reads a choice from its label, naming the choices when it is none of them. */
    abstract static class LabelConverter<E extends Enum<E>> implements ITypeConverter<E> {
        private final Class<E> type;
        private final String noun;
        private final Function<E, String> labelOf;

        /** Choices read by their {@link Choices#label}s. */
        LabelConverter(Class<E> type, String noun) {
            this(type, noun, Choices::label);
        }

        LabelConverter(Class<E> type, String noun, Function<E, String> labelOf) {
            this.type = type;
            this.noun = noun;
            this.labelOf = labelOf;
        }

        @Override
        public E convert(String value) {
            List<String> labels = new ArrayList<>();
            for (E choice : type.getEnumConstants()) {
                String label = labelOf.apply(choice);
                if (label.equals(value.strip().toLowerCase(Locale.ROOT))) {
                    return choice;
                }
                labels.add(label);
            }
            throw new TypeConversionException("unknown " + noun + " '" + Quoting.field(value) + "' (one of "
                    + String.join(", ", labels) + ")");
        }
    }
}
