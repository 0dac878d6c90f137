package io.contactsolver.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import picocli.CommandLine.TypeConversionException;

/** One scheme enum for the demo and the bench: one default, one way of reading it. */
class SchemeTest {
    @Test
    void theDefaultIsTheSoftStepAndItsLabelIsTheOptionsDefault() {
        assertEquals(Scheme.SOFT_STEP, Scheme.DEFAULT);
        assertEquals(Scheme.DEFAULT.label(), Scheme.DEFAULT_LABEL);
    }

    @Test
    void aSchemeIsReadByItsLabelWhateverItsCaseAndBlanks() {
        assertEquals(Scheme.TWO_SOLVES, Scheme.parse("two-solves"));
        assertEquals(Scheme.SOFT_STEP, Scheme.parse(" Soft-Step "));
        assertEquals(Scheme.TWO_SOLVES, new Scheme.Converter().convert("TWO-SOLVES"));
    }

    @Test
    void anUnknownSchemeIsRefusedNamingTheLabels() {
        assertEquals("unknown scheme 'jacobi' (one of soft-step, two-solves)",
                assertThrows(IllegalArgumentException.class, () -> Scheme.parse("jacobi")).getMessage());
        assertEquals("unknown scheme 'two_solves' (one of soft-step, two-solves)",
                assertThrows(TypeConversionException.class, () -> new Scheme.Converter().convert("two_solves"))
                        .getMessage());
    }
}
