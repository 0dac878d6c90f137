package io.contactsolver.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/**
 * A bench row is made by naming each figure, and writes every figure in the column of its name; a
 * figure that was not measured is an empty field in the CSV files, as the tables print "-", never NaN.
 */
class MeasurementTest {
    @Test
    void aMissingFigureIsAnEmptyFieldNotNaN() {
        assertEquals("", Measurement.number(Double.NaN));
        assertEquals("", Measurement.number(Double.POSITIVE_INFINITY));
        assertEquals("1.50000", Measurement.number(1.5));
        assertEquals("0.00000", Measurement.number(0.0));
    }

    /**
     * Each figure a different value, so one written to another's column shows. The derived columns
     * by hand: 1000 contacts in 2 ms are 500,000 a second; at 96 bytes each, 48,000,000 bytes a
     * second, 0.048 GB/s; 60 us of host time over 1000 contacts, 60 ns a contact.
     */
    private static Measurement everyFigure() {
        return Measurement.row().scene("pile").backend("opencl").solver("iterative").contacts(1000).bodies(250)
                .threads(3).iterations(17).residual(0.5).secondsPerSolve(0.002).bytesPerContact(96)
                .packingSeconds(1e-5).transferSeconds(2e-5).kernelSeconds(3e-5).setupSeconds(5e-5)
                .hostSeconds(6e-5).memoryBytes(123456789L).repeats(42).note("a note, with a comma").build();
    }

    @Test
    void everyFigureIsWrittenInTheColumnOfItsName() {
        String[] header = Measurement.COLUMNS.toArray(new String[0]);
        String[] fields = everyFigure().csv().split(",", -1);
        assertEquals(header.length, fields.length);
        java.util.Map<String, String> byColumn = new java.util.LinkedHashMap<>();
        for (int i = 0; i < header.length; i++) {
            byColumn.put(header[i], fields[i]);
        }
        assertEquals("pile", byColumn.get("scene"));
        assertEquals("opencl", byColumn.get("backend"));
        assertEquals("iterative", byColumn.get("solver"));
        assertEquals("1000", byColumn.get("contacts"));
        assertEquals("250", byColumn.get("bodies"));
        assertEquals("3", byColumn.get("threads"));
        assertEquals("17", byColumn.get("iterations"));
        assertEquals("0.500000", byColumn.get("residual"));
        assertEquals("0.00200000", byColumn.get("seconds_per_solve"));
        assertEquals("500000", byColumn.get("contacts_per_second"));
        assertEquals("96.0000", byColumn.get("bytes_per_contact"));
        assertEquals("0.0480000", byColumn.get("effective_gb_per_s"));
        assertEquals("1.00000e-05", byColumn.get("packing_s"));
        assertEquals("2.00000e-05", byColumn.get("transfer_s"));
        assertEquals("3.00000e-05", byColumn.get("kernel_s"));
        assertEquals("5.00000e-05", byColumn.get("setup_s"));
        assertEquals("6.00000e-05", byColumn.get("host_s"));
        assertEquals("60.0000", byColumn.get("host_ns_per_contact"));
        assertEquals("123456789", byColumn.get("memory_bytes"));
        assertEquals("42", byColumn.get("repeats"));
        assertEquals("a note; with a comma", byColumn.get("note"));
    }

    @Test
    void aFigureNotSetIsZeroAndTheNoteEmpty() {
        Measurement skipped = Measurement.row().scene("random").backend("jbullet").solver("single-pass")
                .contacts(10).bodies(4).build();
        assertEquals("random,jbullet,single-pass,10,4,0,0,0.00000,0.00000,0.00000,0.00000,0.00000,0.00000,0.00000,"
                + "0.00000,0.00000,0.00000,0.00000,0,0,", skipped.csv());
    }

    @Test
    void aCopyKeepsEveryFigureButThoseChangedByName() {
        Measurement row = everyFigure();
        Measurement copy = row.toBuilder().memoryBytes(7L).note("other").build();
        String expected = row.csv().replace(",123456789,42,a note; with a comma", ",7,42,other");
        assertEquals(expected, copy.csv());
        assertEquals(row.csv(), row.toBuilder().build().csv());
    }

    @Test
    void aRowWithoutItsSceneBackendOrSolverIsRefused() {
        assertThrows(NullPointerException.class, () -> Measurement.row().backend("cpu").solver("single-pass").build());
        assertThrows(NullPointerException.class, () -> Measurement.row().scene("pile").solver("single-pass").build());
        assertThrows(NullPointerException.class, () -> Measurement.row().scene("pile").backend("cpu").build());
    }
}
