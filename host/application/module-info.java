/**
 * The application on the library: the command line, the demo and the bench, and the scene files
 * and helpers they share. A module so that the compiler keeps it to the library's API: it requires
 * {@code io.contactsolver}, which exports only its API packages.
 *
 * <p>It is compiled as a module and run from the class path: {@code target/contact-solver.jar}
 * holds it with every dependency, without module descriptors. JBullet 20101010-1, the bench's
 * baseline, has no valid module name (from its jar's name, {@code jbullet.20101010}, a number
 * for a part), so it stays on the class path, which this module reads (pom.xml, {@code --add-reads}).
 */
module io.contactsolver.application {
    requires io.contactsolver;
    requires info.picocli;
    requires me.tongfei.progressbar;
    requires org.jfree.jfreechart;
    requires java.desktop;
    requires java.logging;
    requires java.management;
}
