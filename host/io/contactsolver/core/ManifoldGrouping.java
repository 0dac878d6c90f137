package io.contactsolver.core;

import io.contactsolver.layout.ContactBody;
import io.contactsolver.layout.ContactField;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.util.List;

/**
 * The contact manifolds of a batch: maximal runs of consecutive contacts with the same manifold
 * number {@code >= 0}, and every other contact alone (docs/physics.md, "Soft step"). Manifold
 * {@code m} is contacts {@code [first(m), first(m + 1))}; manifolds are numbered in contact order.
 *
 * <p>Checked while grouping (the same rule for every solver, so a batch valid for one is valid for
 * all): a manifold has at most {@link #MAX_POINTS} points, and its points share their two bodies and
 * their normal, restitution, friction, rolling and torsional resistance, bit for bit: a manifold is
 * one body pair touching on one face, and its friction is solved once for all its points. Linear in
 * the contacts; the arrays only grow.
 */
public final class ManifoldGrouping {
    /** The most points of one manifold, as in Box3D: four points span any contact face. */
    public static final int MAX_POINTS = 4;
    /** The manifold number of a contact alone. */
    public static final int NONE = -1;

    /** The fields a manifold's points must share. */
    private static final ContactField[] SHARED = {ContactField.NX, ContactField.NY, ContactField.NZ,
        ContactField.RESTITUTION, ContactField.FRICTION, ContactField.ROLLING_RESISTANCE, ContactField.TORSION};

    private int[] first = new int[1];
    private int count;
    private int largest;

    /**
     * Groups the first {@code contactCount} contacts by {@code numbers}.
     *
     * @throws InputFault naming the first contact (lowest index) that breaks a manifold's rules
     */
    public void build(int[] numbers, FieldBlock contacts, FieldBlock links, int contactCount) {
        if (first.length < contactCount + 1) {
            first = new int[Math.max(contactCount + 1, first.length + (first.length >> 1))];
        }
        IntBuffer ints = links.ints();
        int baseA = ContactBody.A.ordinal() * links.stride();
        int baseB = ContactBody.B.ordinal() * links.stride();
        FloatBuffer f = contacts.floats();
        int stride = contacts.stride();
        int manifolds = 0;
        int most = 0;
        int c = 0;
        while (c < contactCount) {
            int start = c;
            int number = numbers[c];
            c++;
            if (number != NONE) {
                while (c < contactCount && numbers[c] == number) {
                    if (c - start == MAX_POINTS) {
                        throw InputFault.contact(c, List.of("manifold"), "manifold " + number + " has more than "
                                + MAX_POINTS + " points (it starts at contact " + start + ")");
                    }
                    if (ints.get(baseA + c) != ints.get(baseA + start) || ints.get(baseB + c) != ints.get(baseB + start)) {
                        throw InputFault.contact(c, List.of("a", "b"), "manifold " + number + " joins bodies ("
                                + ints.get(baseA + start) + ", " + ints.get(baseB + start) + ") at its first point, contact "
                                + start + ", but (" + ints.get(baseA + c) + ", " + ints.get(baseB + c) + ") here");
                    }
                    for (ContactField field : SHARED) {
                        float mine = f.get(field.ordinal() * stride + c);
                        float firsts = f.get(field.ordinal() * stride + start);
                        if (Float.floatToRawIntBits(mine) != Float.floatToRawIntBits(firsts)) {
                            throw InputFault.contact(c, List.of(field.column()), "manifold " + number + " has "
                                    + field.column().replace('_', ' ') + " " + firsts + " at its first point, contact "
                                    + start + ", but " + mine + " here; a manifold's points share it");
                        }
                    }
                    c++;
                }
            }
            first[manifolds++] = start;
            most = Math.max(most, c - start);
        }
        first[manifolds] = contactCount;
        count = manifolds;
        largest = most;
    }

    /** The number of manifolds. */
    public int count() {
        return count;
    }

    /** The most points any manifold has, 0 for no contacts. */
    public int largest() {
        return largest;
    }

    /**
     * The first contact of each manifold and, at {@code count()}, the contact count: manifold
     * {@code m} is contacts {@code [firsts()[m], firsts()[m + 1])}. Only the first {@code count() + 1}
     * entries are valid.
     */
    public int[] firsts() {
        return first;
    }
}
