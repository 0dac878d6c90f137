package io.contactsolver.bench;

import io.contactsolver.core.Quoting;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** What {@code bench} measures, named as on its command line and in its report. */
final class Choices {
    private Choices() {
    }

    /** The module's backends and the baselines. */
    enum Backend {
        CPU, OPENCL, NAIVE, JBULLET, BANDWIDTH;

        String label() {
            return Choices.label(this);
        }

        static final class Converter extends LabelConverter<Backend> {
            Converter() {
                super(Backend.class, "backend");
            }
        }
    }

    /** The seeded scenes of the sweep: a spatially coherent pile and a random contact graph. */
    enum Scene {
        PILE, RANDOM;

        String label() {
            return Choices.label(this);
        }

        static final class Converter extends LabelConverter<Scene> {
            Converter() {
                super(Scene.class, "scene");
            }
        }
    }

    /**
     * The parts of a run: the single-pass sweep over sizes, the iterative solver's figures, the
     * box pyramid stepped frame by frame ({@link PyramidBench}), and a step's data through the bulk
     * API beside one iteration ({@link BulkIoBench}).
     */
    enum Section {
        SWEEP, ITERATIVE, PYRAMID, BULK;

        static final class Converter extends LabelConverter<Section> {
            Converter() {
                super(Section.class, "section");
            }
        }
    }

    /** The pyramid's schemes, read by their labels ({@code soft-step}, {@code two-solves}). */
    static final class SchemeConverter implements ITypeConverter<PyramidBench.Scheme> {
        @Override
        public PyramidBench.Scheme convert(String value) {
            List<String> labels = new ArrayList<>();
            for (PyramidBench.Scheme scheme : PyramidBench.Scheme.values()) {
                if (scheme.label.equals(value.strip().toLowerCase(Locale.ROOT))) {
                    return scheme;
                }
                labels.add(scheme.label);
            }
            throw new TypeConversionException("unknown pyramid scheme '" + Quoting.field(value) + "' (one of "
                    + String.join(", ", labels) + ")");
        }
    }

    static String label(Enum<?> value) {
        return value.name().toLowerCase(Locale.ROOT);
    }

    /** Reads a choice from its label, naming the choices when it is none of them. */
    abstract static class LabelConverter<E extends Enum<E>> implements ITypeConverter<E> {
        private final Class<E> type;
        private final String noun;

        LabelConverter(Class<E> type, String noun) {
            this.type = type;
            this.noun = noun;
        }

        @Override
        public E convert(String value) {
            List<String> labels = new ArrayList<>();
            for (E choice : type.getEnumConstants()) {
                if (label(choice).equals(value.strip().toLowerCase(Locale.ROOT))) {
                    return choice;
                }
                labels.add(label(choice));
            }
            throw new TypeConversionException("unknown " + noun + " '" + Quoting.field(value) + "' (one of "
                    + String.join(", ", labels) + ")");
        }
    }
}
