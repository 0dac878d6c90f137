package io.contactsolver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.contactsolver.layout.ContactField;
import io.contactsolver.layout.ImpulseField;
import io.contactsolver.scene.Scene;
import io.contactsolver.testing.Backends;
import io.contactsolver.testing.Bits;
import io.contactsolver.testing.FrictionScenes;
import java.util.SplittableRandom;
import org.joml.Vector3f;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code withFriction(false)} solves a frictional batch as if every coefficient were 0, bit for
 * bit, on every solver and both backends, without touching the batch: what a push-out solve needs.
 */
class FrictionSwitchTest {
    private static final Vector3f GRAVITY = new Vector3f(0.0f, -10.0f, 0.0f);

    private static ContactBatch withoutCoefficients(ContactBatch contacts) {
        ContactBatch copy = new ContactBatch().setSize(contacts.size());
        int n = contacts.size();
        for (ContactField field : ContactField.values()) {
            copy.set(field, 0, contacts.get(field, new float[n]), 0, n);
        }
        for (io.contactsolver.layout.ContactBody side : io.contactsolver.layout.ContactBody.values()) {
            copy.set(side, 0, contacts.get(side, 0, new int[n], 0, n), 0, n);
        }
        copy.setIds(0, contacts.getIds(0, new int[n], 0, n), 0, n);
        copy.set(ContactField.FRICTION, new float[n]).set(ContactField.ROLLING_RESISTANCE, new float[n])
                .set(ContactField.TORSION, new float[n]);
        return copy;
    }

    @ParameterizedTest
    @EnumSource(value = Backend.class, names = {"CPU", "OPENCL"})
    void aSolveWithFrictionOffIsTheSolveOfTheSameBatchWithoutCoefficients(Backend backend) {
        Scene scene = FrictionScenes.randomClusters(5, 80, true, true, true);
        FrictionScenes.randomTorsion(new SplittableRandom(6), scene.contacts());
        ContactBatch zeroed = withoutCoefficients(scene.contacts());
        float frictionBefore = scene.contacts().friction(0) + scene.contacts().friction(1);
        try (ContactSolver solver = Backends.open(backend)) {
            for (RigidSettings settings : new RigidSettings[] {SolveSettings.singlePass(), SolveSettings.iterative(15)}) {
                SolveResult off = solver.solve(scene.bodies(), scene.contacts(), settings.withFriction(false),
                        new SolveResult());
                Bits.assertIdentical(solver.solve(scene.bodies(), zeroed, settings, new SolveResult()), off,
                        settings + " with friction off");
                SolveResult on = solver.solve(scene.bodies(), scene.contacts(), settings, new SolveResult());
                assertNotEquals(0.0f, maxTangent(on), "the scene has friction, so the switch is what changed it");
                assertEquals(0.0f, maxTangent(off));
            }
            // the soft step moves the bodies: two copies, one per batch
            Scene a = FrictionScenes.randomClusters(5, 80, true, true, true);
            Scene b = FrictionScenes.randomClusters(5, 80, true, true, true);
            SolveResult off = solver.step(a.bodies(), a.contacts(), SolveSettings.softStep().withFriction(false), GRAVITY,
                    1 / 60f, null, new SolveResult());
            SolveResult expected = solver.step(b.bodies(), withoutCoefficients(b.contacts()), SolveSettings.softStep(),
                    GRAVITY, 1 / 60f, null, new SolveResult());
            Bits.assertIdentical(expected, off, "soft step with friction off");
            Bits.assertIdentical(b.bodies(), a.bodies(), "bodies after the soft step");
        }
        assertEquals(frictionBefore, scene.contacts().friction(0) + scene.contacts().friction(1), "batch untouched");
    }

    private static float maxTangent(SolveResult result) {
        float max = 0.0f;
        for (int c = 0; c < result.contactCount(); c++) {
            max = Math.max(max, Math.abs(result.impulse(ImpulseField.TX, c)) + Math.abs(result.impulse(ImpulseField.RX, c)));
        }
        return max;
    }
}
