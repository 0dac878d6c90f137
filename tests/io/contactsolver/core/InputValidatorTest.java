package io.contactsolver.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.contactsolver.layout.BodyField;
import io.contactsolver.layout.ContactBody;
import io.contactsolver.layout.ContactField;
import org.junit.jupiter.api.Test;

/** What the validator finds of a valid batch beyond its faults. */
class InputValidatorTest {
    private static final int CONTACTS = 300_000;

    /**
     * A batch's use of friction, rolling and torsion ({@link InputMagnitudes#frictionUse}): one
     * positive coefficient anywhere is found, in any column, on any thread count; none is none.
     */
    @Test
    void onePositiveCoefficientAnywhereIsFoundAndNoneIsNone() {
        // one static body, and every contact between it and the world along +y
        FieldBlock bodies = new FieldBlock(BodyField.COUNT, 1);
        bodies.setFloat(BodyField.QW.ordinal(), 0, 1.0f);
        FieldBlock contacts = new FieldBlock(ContactField.COUNT, CONTACTS + 8);
        FieldBlock links = new FieldBlock(ContactBody.COUNT, CONTACTS + 8);
        for (int c = 0; c < CONTACTS + 8; c++) {
            contacts.setFloat(ContactField.NY.ordinal(), c, 1.0f);
            links.setInt(ContactBody.A.ordinal(), c, -1);
        }
        ContactField[] columns = {ContactField.FRICTION, ContactField.ROLLING_RESISTANCE, ContactField.TORSION};
        try (ParallelRunner one = new ParallelRunner(1); ParallelRunner three = new ParallelRunner(3)) {
            for (ParallelRunner runner : new ParallelRunner[] {one, three}) {
                assertEquals(FrictionUse.NONE, use(bodies, contacts, links, runner),
                        "all zero on " + runner.threads() + " threads");
                for (int column = 0; column < columns.length; column++) {
                    // the first contact, one in the middle of a slice and of a thread's range, the last
                    for (int at : new int[] {0, 150_013, CONTACTS - 1}) {
                        contacts.setFloat(columns[column].ordinal(), at, 0.25f);
                        assertEquals(new FrictionUse(column == 0, column == 1, column == 2),
                                use(bodies, contacts, links, runner),
                                columns[column] + " at " + at + " on " + runner.threads() + " threads");
                        contacts.setFloat(columns[column].ordinal(), at, 0.0f);
                    }
                }
                contacts.setFloat(ContactField.TORSION.ordinal(), CONTACTS, 1.0f); // past the count: not read
                assertEquals(FrictionUse.NONE, use(bodies, contacts, links, runner));
                contacts.setFloat(ContactField.TORSION.ordinal(), CONTACTS, 0.0f);
            }
        }
    }

    private static FrictionUse use(FieldBlock bodies, FieldBlock contacts, FieldBlock links, ParallelRunner runner) {
        return InputValidator.validate(bodies, 1, contacts, links, CONTACTS, null, runner).frictionUse();
    }
}
