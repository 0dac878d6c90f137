package io.contactsolver.core;

import io.contactsolver.layout.ImpulseField;
import java.nio.FloatBuffer;
import java.util.Arrays;
import java.util.List;

/**
 * Matches the previous step's impulses to this step's contacts by contact id. Persistent contacts
 * (the common case in a simulation) start from their last impulses, all {@link ImpulseField}s: the
 * normal impulse and the friction and rolling vectors in world space (the solver projects those onto
 * the contact's current tangent plane, so a normal that has turned keeps only what still lies in
 * the plane); new contacts start from zero.
 */
public final class WarmStart {
    private final IntIndexMap currentIds = new IntIndexMap(16);
    private float[] impulses = new float[0];

    /**
     * The starting impulses of every current contact.
     *
     * @param ids current contact ids, {@code count} of them; they must be unique
     * @param previousIds ids of the previous step's contacts
     * @param previous their impulses, same order, {@link ImpulseField} layout with stride
     *     {@code previousStride}
     * @return {@code ImpulseField.COUNT * count} impulses, field {@code f} of contact {@code c} at
     *     {@code f * count + c} (reused between calls)
     * @throws InputFault if two current contacts share an id
     */
    public float[] match(int[] ids, int count, int[] previousIds, FloatBuffer previous, int previousStride,
            int previousCount) {
        int length = ImpulseField.COUNT * count;
        if (impulses.length < length) {
            impulses = new float[length];
        } else {
            Arrays.fill(impulses, 0, length, 0.0f);
        }
        currentIds.clear();
        for (int c = 0; c < count; c++) {
            int earlier = currentIds.putIfAbsent(ids[c], c);
            if (earlier >= 0) {
                throw InputFault.contact(c, List.of("id"),
                        "duplicate contact id " + ids[c] + " (also contact " + earlier + "); warm starting matches by id");
            }
        }
        for (int p = 0; p < previousCount; p++) {
            int c = currentIds.get(previousIds[p]);
            if (c >= 0) {
                for (int f = 0; f < ImpulseField.COUNT; f++) {
                    impulses[f * count + c] = previous.get(f * previousStride + p);
                }
            }
        }
        return impulses;
    }
}
