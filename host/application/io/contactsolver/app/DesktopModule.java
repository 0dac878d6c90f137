package io.contactsolver.app;

/**
 * Whether this Java runtime has {@code java.desktop}, the module the pictures and plots draw with.
 * Read from the boot module layer, so no AWT class is loaded to ask: a runtime linked without the
 * module (jlink) or run with {@code --limit-modules} cannot load one, and a class that merely names
 * an AWT type (as {@link TextDrawing} does) fails to link there. Ask here first, then
 * {@link TextDrawing}.
 */
public final class DesktopModule {
    /** The module's name. */
    public static final String NAME = "java.desktop";

    private DesktopModule() {
    }

    /** Whether the boot layer has {@value #NAME}. */
    public static boolean present() {
        return ModuleLayer.boot().findModule(NAME).isPresent();
    }

    /** The runtime asked about, for messages: its {@code java.home}. */
    public static String runtime() {
        return System.getProperty("java.home");
    }
}
