/**
 * The library: the API ({@code io.contactsolver}, {@code io.contactsolver.layout}) and, inside,
 * the backends ({@code core}, {@code cpu}, {@code opencl}), which programs cannot reach, the
 * application included: javac refuses their import anywhere outside this module.
 */
module io.contactsolver {
    // the API's vectors and quaternions are JOML's: a program that reads this module reads JOML
    requires transitive org.joml;
    // JOCL 2.0.6 names no module (no module-info, no Automatic-Module-Name in its manifest): the
    // name is its jar's, jocl-2.0.6.jar, as Maven stores it
    requires jocl;
    requires java.logging;

    exports io.contactsolver;
    exports io.contactsolver.layout;
}
