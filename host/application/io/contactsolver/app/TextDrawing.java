package io.contactsolver.app;

import java.awt.AWTError;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;

/**
 * Whether this Java runtime can draw text into an image, asked before a command's long work
 * rather than found at its end. A trimmed or minimal runtime may have {@code java.desktop} but not
 * the native font libraries it loads on the first {@code drawString} (freetype, harfbuzz,
 * fontconfig); that first call then throws a {@link LinkageError}. This class names AWT types, so
 * it links only where {@code java.desktop} is: ask {@link DesktopModule} first.
 */
public final class TextDrawing {
    private TextDrawing() {
    }

    /** Why text cannot be drawn here, in one line, or null when it can. Sets AWT headless. */
    public static String problem() {
        System.setProperty("java.awt.headless", "true");
        return problem(() -> {
            BufferedImage image = new BufferedImage(8, 8, BufferedImage.TYPE_INT_RGB);
            Graphics2D g = image.createGraphics();
            try {
                g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
                g.drawString("0", 0, 8);
            } finally {
                g.dispose();
            }
        });
    }

    /** {@link #problem()} with the drawing given: the error it throws, as one line, or null. */
    public static String problem(Runnable drawText) {
        try {
            drawText.run();
            return null;
        } catch (LinkageError | InternalError | AWTError e) {
            String message = e.getMessage();
            return e.getClass().getSimpleName() + (message == null || message.isBlank() ? "" : ": " + message);
        }
    }
}
