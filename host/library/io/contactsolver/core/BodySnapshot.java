package io.contactsolver.core;

import io.contactsolver.layout.BodyField;

/**
 * The moving state of a batch's bodies (position, orientation, linear and angular velocity: the
 * {@link #FIELDS} first {@link BodyField}s), kept before a rigid {@code step} changes it, so that a
 * step that fails anywhere after gravity puts every body back bit for bit. One home for "a step is
 * all or nothing" on the rigid path; the soft step computes into a separate block and commits only
 * once it is checked, so it needs no snapshot.
 *
 * <p>Layout: field-major like the batch, {@code saved[f * count + i]}.
 */
public final class BodySnapshot {
    /** Position, orientation, linear and angular velocity: the fields a step writes. */
    public static final int FIELDS = BodyField.WZ.ordinal() + 1;

    private float[] saved = new float[0];
    private int count;

    /** Keeps the moving state of bodies {@code [0, count)} of {@code block}. */
    public void save(FieldBlock block, int count, ParallelRunner runner) {
        if (saved.length < (long) FIELDS * count) {
            saved = new float[FIELDS * count];
        }
        this.count = count;
        float[] into = saved;
        runner.forRange(count, 1 << 14, (from, to) -> {
            for (int f = 0; f < FIELDS; f++) {
                for (int i = from; i < to; i++) {
                    into[f * count + i] = block.getFloat(f, i);
                }
            }
        });
    }

    /**
     * Puts the saved state back through the setters, so each field is stamped and a device copy of
     * the bodies takes it again.
     */
    public void restore(FieldBlock block, ParallelRunner runner) {
        float[] from = saved;
        int n = count;
        runner.forRange(n, 1 << 14, (first, end) -> {
            for (int f = 0; f < FIELDS; f++) {
                for (int i = first; i < end; i++) {
                    block.setFloat(f, i, from[f * n + i]);
                }
            }
        });
    }
}
