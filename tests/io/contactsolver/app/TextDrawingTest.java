package io.contactsolver.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/** Whether text can be drawn: the error of the first drawing, as one line, or nothing. */
class TextDrawingTest {
    @Test
    void aDrawingThatWorksHasNoProblem() {
        assertNull(TextDrawing.problem(() -> { }));
    }

    @Test
    void theProblemIsTheErrorsClassAndMessageInOneLine() {
        assertEquals("UnsatisfiedLinkError: libfontmanager.so: libharfbuzz.so.0: cannot open shared object file",
                TextDrawing.problem(() -> {
                    throw new UnsatisfiedLinkError("libfontmanager.so: libharfbuzz.so.0: cannot open shared object file");
                }));
        assertEquals("NoClassDefFoundError", TextDrawing.problem(() -> {
            throw new NoClassDefFoundError();
        }));
    }
}
