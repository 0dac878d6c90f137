package io.contactsolver;

import io.contactsolver.scene.Scene;

/** Lets tests in other packages check results against {@link FrictionInvariantsTest}'s cone bounds. */
public final class FrictionInvariantsTestAccess {
    private FrictionInvariantsTestAccess() {
    }

    public static void assertInsideCones(Scene scene, SolveResult result, RigidSettings settings) {
        FrictionInvariantsTest.assertInsideCones(scene, result, settings);
    }
}
