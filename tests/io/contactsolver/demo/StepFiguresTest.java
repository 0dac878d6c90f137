package io.contactsolver.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A step's figures are made by naming each one, and each is written in the CSV column of its name. */
class StepFiguresTest {

    @Test
    void everyFigureIsWrittenInTheColumnOfItsName() throws IOException {
        StepFigures figures = StepFigures.of(12).time(0.03f).particles(400).contacts(1700).kineticEnergy(0.25)
                .solveNanos(1_500_000L).iterations(7).pushIterations(3).residual(1e-6f).largestApproach(0.002f)
                .deepestOverlap(4e-5f).maxSpeed(0.75f).build();
        StringWriter csv = new StringWriter();
        StepFigures.writeCsv(List.of(figures), csv);
        assertEquals(StepFigures.CSV_HEADER + "\n"
                + "12,0.03,400,1700,0.25,1.5,7,3,1.0E-6,0.002,4.0E-5,0.75\n", csv.toString());
        assertEquals(1700L * (7 + 3), figures.contactIterations());
    }

    @Test
    void aFigureNotSetIsZero() {
        assertEquals("1,0.0,0,0,0.0,0.0,0,0,0.0,0.0,0.0,0.0", StepFigures.of(1).build().csvRow());
    }
}
