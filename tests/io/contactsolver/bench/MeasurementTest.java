package io.contactsolver.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The bench's CSV files write a figure that was not measured as an empty field, as the tables print "-", never NaN. */
class MeasurementTest {
    @Test
    void aMissingFigureIsAnEmptyFieldNotNaN() {
        assertEquals("", Measurement.number(Double.NaN));
        assertEquals("", Measurement.number(Double.POSITIVE_INFINITY));
        assertEquals("1.50000", Measurement.number(1.5));
        assertEquals("0.00000", Measurement.number(0.0));
    }
}
