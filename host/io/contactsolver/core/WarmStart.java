package io.contactsolver.core;

import io.contactsolver.InvalidInputException;
import io.contactsolver.InvalidInputException.Subject;
import java.nio.FloatBuffer;
import java.util.Arrays;
import java.util.List;

/**
 * Matches the previous step's impulses to this step's contacts by contact id. Persistent contacts
 * (the common case in a simulation) start from their last impulse; new contacts from zero.
 */
public final class WarmStart {
    private final IntIndexMap currentIds = new IntIndexMap(16);
    private float[] impulses = new float[0];

    /**
     * The starting impulse of every current contact.
     *
     * @param ids current contact ids, {@code count} of them; they must be unique
     * @param previousIds ids of the previous step's contacts
     * @param previousImpulses their impulses, same order
     * @return an array of at least {@code count} impulses (reused between calls)
     * @throws InvalidInputException if two current contacts share an id
     */
    public float[] match(int[] ids, int count, int[] previousIds, FloatBuffer previousImpulses, int previousCount) {
        if (impulses.length < count) {
            impulses = new float[count];
        } else {
            Arrays.fill(impulses, 0, count, 0.0f);
        }
        currentIds.clear();
        for (int c = 0; c < count; c++) {
            int earlier = currentIds.putIfAbsent(ids[c], c);
            if (earlier >= 0) {
                throw new InvalidInputException(Subject.CONTACT, c, List.of("id"),
                        "duplicate contact id " + ids[c] + " (also contact " + earlier + "); warm starting matches by id");
            }
        }
        for (int p = 0; p < previousCount; p++) {
            int c = currentIds.get(previousIds[p]);
            if (c >= 0) {
                impulses[c] = previousImpulses.get(p);
            }
        }
        return impulses;
    }
}
