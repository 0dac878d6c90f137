package io.contactsolver.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.contactsolver.layout.ContactField;
import org.junit.jupiter.api.Test;

/** A batch's use of friction, rolling and torsion: one positive coefficient anywhere is found, on any thread count. */
class FrictionUseTest {
    private static final int CONTACTS = 300_000;

    @Test
    void onePositiveCoefficientAnywhereIsFoundAndNoneIsNone() {
        FieldBlock contacts = new FieldBlock(ContactField.COUNT, CONTACTS + 8);
        ContactField[] columns = {ContactField.FRICTION, ContactField.ROLLING_RESISTANCE, ContactField.TORSION};
        try (ParallelRunner one = new ParallelRunner(1); ParallelRunner three = new ParallelRunner(3)) {
            for (ParallelRunner runner : new ParallelRunner[] {one, three}) {
                assertEquals(new FrictionUse(false, false, false), FrictionUse.of(contacts, CONTACTS, runner),
                        "all zero on " + runner.threads() + " threads");
                for (int column = 0; column < columns.length; column++) {
                    // the first contact, one in the middle of a slice and of a thread's range, the last
                    for (int at : new int[] {0, 150_013, CONTACTS - 1}) {
                        contacts.setFloat(columns[column].ordinal(), at, 0.25f);
                        FrictionUse use = FrictionUse.of(contacts, CONTACTS, runner);
                        assertEquals(new FrictionUse(column == 0, column == 1, column == 2), use,
                                columns[column] + " at " + at + " on " + runner.threads() + " threads");
                        contacts.setFloat(columns[column].ordinal(), at, 0.0f);
                    }
                }
                contacts.setFloat(ContactField.TORSION.ordinal(), CONTACTS, 1.0f); // past the count: not read
                assertEquals(new FrictionUse(false, false, false), FrictionUse.of(contacts, CONTACTS, runner));
            }
        }
    }
}
