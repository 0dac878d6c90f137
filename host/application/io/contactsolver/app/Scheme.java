package io.contactsolver.app;

import io.contactsolver.Quoting;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * How a simulation's step uses the module: the demo's {@code --scheme} and the bench's
 * {@code --pyramid-schemes}, one enum and one way of reading it for both (docs/demo.md, "Schemes").
 */
public enum Scheme {
    /**
     * {@code ContactSolver.step} with the soft step: the module applies gravity, solves and moves
     * the bodies in substeps.
     */
    SOFT_STEP,
    /**
     * Two {@code solve} calls a step, a velocity solve and a frictionless push-out solve, and the
     * caller's own integration ({@link TwoSolves}).
     */
    TWO_SOLVES;

    /**
     * The scheme a simulation takes unless told otherwise, by its label: a constant, so that a
     * command-line option can name it as its default.
     */
    public static final String DEFAULT_LABEL = "soft-step";
    /** The scheme a simulation takes unless told otherwise: the soft step. */
    public static final Scheme DEFAULT = parse(DEFAULT_LABEL);

    /**
     * The command-line spelling.
     *
     * @return {@code soft-step} or {@code two-solves}
     */
    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /**
     * The scheme {@code text} names by its {@link #label()}, case and surrounding blanks ignored.
     *
     * @throws IllegalArgumentException naming the text and the labels when it names none
     */
    public static Scheme parse(String text) {
        List<String> labels = new ArrayList<>();
        for (Scheme scheme : values()) {
            if (scheme.label().equals(text.strip().toLowerCase(Locale.ROOT))) {
                return scheme;
            }
            labels.add(scheme.label());
        }
        throw new IllegalArgumentException("unknown scheme '" + Quoting.field(text) + "' (one of "
                + String.join(", ", labels) + ")");
    }

    /** Reads an option's value by {@link #parse}, a refusal as picocli's usage error. */
    public static final class Converter implements ITypeConverter<Scheme> {
        @Override
        public Scheme convert(String value) {
            try {
                return parse(value);
            } catch (IllegalArgumentException unknown) {
                throw new TypeConversionException(unknown.getMessage());
            }
        }
    }
}
