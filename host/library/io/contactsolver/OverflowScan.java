package io.contactsolver;

import io.contactsolver.core.BodySnapshot;
import io.contactsolver.core.FieldBlock;
import io.contactsolver.core.InputMagnitudes;
import io.contactsolver.core.InputValidator;
import io.contactsolver.core.ParallelRunner;
import io.contactsolver.cpu.NormalRows;
import io.contactsolver.layout.BodyField;
import io.contactsolver.layout.DeltaField;
import io.contactsolver.layout.ImpulseField;
import java.nio.FloatBuffer;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;

/**
 * Where valid input overflowed float: the host's checks that turn an overflow into a
 * {@link NonFiniteResultException} naming the lowest contact or body, the same whichever backend
 * ran. Before a solve, the normal rows ({@link #requireFiniteNormalRows}); after it, the impulses
 * and deltas ({@link #requireFiniteResult}); after a step, the bodies' new state
 * ({@link #requireSoundBodies}). Scans run on the solver's threads; which element is reported does
 * not depend on how many.
 */
final class OverflowScan {
    /**
     * Values a thread scans at least, about 0.1 ms of work: waking a team and meeting it again
     * costs tens of microseconds on a busy machine, more than a short scan saves (the box
     * pyramid's 5,050 next states, 13 values each: 0.058 ms a step on 1 thread, 0.116 when two
     * shared them, 2026-11-28). A loop over records takes this over its values a record.
     */
    private static final int GRAIN_VALUES = 1 << 17;

    private final ParallelRunner runner;

    OverflowScan(ParallelRunner runner) {
        this.runner = runner;
    }

    /**
     * Throws {@link NonFiniteResultException} for the lowest contact whose normal row cannot be
     * formed in float: its {@code K} ({@link NonFiniteResultException#EFFECTIVE_MASS}), else its
     * {@code v_n} ({@link NonFiniteResultException#NORMAL_VELOCITY}), not finite. Checked here, before
     * any backend runs, because the solvers would part ways on such a row: the iterative solver
     * switches it off ({@code K > 0} fails on NaN) where the single pass overflows, or a NaN
     * {@code v_n} gives the single pass {@code j = 0} where the iterative solver overflows. Only a
     * batch whose magnitudes could overflow has its rows evaluated one by one, as every solver
     * evaluates them.
     *
     * @param velocitySlack how much a velocity may have grown since validation (a step's gravity)
     */
    void requireFiniteNormalRows(BodyBatch bodies, ContactBatch contacts, InputMagnitudes magnitudes,
            double velocitySlack) {
        if (magnitudes.boundNormalRows(velocitySlack)) {
            return;
        }
        FieldBlock block = bodies.block();
        int contact = NormalRows.firstNonFinite(block, contacts.floatBlock(), contacts.linkBlock(), contacts.size(),
                runner);
        if (contact < 0) {
            return;
        }
        float k = NormalRows.effectiveInverseMass(block, contacts.floatBlock(), contacts.linkBlock(), contact);
        if (!Float.isFinite(k)) {
            throw new NonFiniteResultException(InvalidInputException.Subject.CONTACT, contact,
                    NonFiniteResultException.EFFECTIVE_MASS, k);
        }
        throw new NonFiniteResultException(InvalidInputException.Subject.CONTACT, contact,
                NonFiniteResultException.NORMAL_VELOCITY,
                NormalRows.normalVelocity(block, contacts.floatBlock(), contacts.linkBlock(), contact));
    }

    /**
     * Throws {@link NonFiniteResultException} for the lowest contact with a non-finite impulse
     * field, else the lowest body with a non-finite velocity change. Scanned on the host after
     * any backend, so all fail alike whatever they computed on the way.
     */
    void requireFiniteResult(FieldBlock impulses, int contactCount, FieldBlock deltas, int bodyCount) {
        requireFinite(impulses, contactCount, ImpulseField.COUNT, InvalidInputException.Subject.CONTACT,
                f -> ImpulseField.values()[f].column());
        requireFinite(deltas, bodyCount, DeltaField.COUNT, InvalidInputException.Subject.BODY,
                f -> DeltaField.values()[f].column());
    }

    /**
     * Throws {@link NonFiniteResultException} for the lowest body whose state after a step is not
     * finite, else for the lowest whose orientation is no longer a unit quaternion (a spin so fast that
     * renormalising it overflowed): what the next solve would otherwise blame on its input.
     */
    void requireSoundBodies(FieldBlock state, int count) {
        requireSoundBodies(state, count, false, false);
    }

    /**
     * {@link #requireSoundBodies(FieldBlock, int)}; with {@code knownFinite}, a device has found every
     * field finite, and with {@code knownUnit} its screen has cleared every orientation: what is
     * known is not scanned again.
     */
    void requireSoundBodies(FieldBlock state, int count, boolean knownFinite, boolean knownUnit) {
        if (!knownFinite) {
            requireFinite(state, count, BodySnapshot.FIELDS, InvalidInputException.Subject.BODY,
                    f -> BodyField.values()[f].column());
        }
        if (knownUnit) {
            return;
        }
        AtomicInteger first = new AtomicInteger(Integer.MAX_VALUE);
        runner.forRange(count, GRAIN_VALUES / 4, (from, to) -> { // a quaternion, four values a body
            for (int i = from; i < to && i < first.get(); i++) {
                if (!InputValidator.isUnitNorm(InputValidator.orientationNorm(state.floats(), state.stride(), i))) {
                    first.accumulateAndGet(i, Math::min);
                    return;
                }
            }
        });
        int body = first.get();
        if (body != Integer.MAX_VALUE) {
            throw new NonFiniteResultException(InvalidInputException.Subject.BODY, body,
                    NonFiniteResultException.ORIENTATION_NORM,
                    (float) InputValidator.orientationNorm(state.floats(), state.stride(), body));
        }
    }

    /**
     * Throws {@link NonFiniteResultException} for the lowest element with a non-finite value in any of
     * the first {@code fields} fields of {@code block}, naming its first such field by {@code column}.
     */
    private void requireFinite(FieldBlock block, int count, int fields, InvalidInputException.Subject subject,
            IntFunction<String> column) {
        int element = firstNonFinite(block, count, fields);
        if (element < 0) {
            return;
        }
        for (int f = 0; f < fields; f++) {
            float value = block.getFloat(f, element);
            if (!Float.isFinite(value)) {
                throw new NonFiniteResultException(subject, element, column.apply(f), value);
            }
        }
    }

    /** Values a scan copies out of a direct buffer at once. */
    private static final int SLICE = 1024;

    /**
     * The lowest element with a non-finite value in any of the first {@code fields} fields, or -1.
     * Each field is copied out a slice at a time and scanned in the array: a direct buffer's
     * checked get a value cost three times the scan (the box pyramid's impulses, 0.8 ms a frame).
     */
    private int firstNonFinite(FieldBlock block, int count, int fields) {
        AtomicInteger first = new AtomicInteger(Integer.MAX_VALUE);
        FloatBuffer values = block.floats();
        int stride = block.stride();
        runner.forRange(count, Math.max(1, GRAIN_VALUES / Math.max(1, fields)), (from, to) -> {
            float[] slice = new float[Math.min(SLICE, to - from)];
            int end = to;
            for (int f = 0; f < fields; f++) {
                int base = f * stride;
                // later fields need only be scanned below the lowest found so far
                for (int start = from; start < end; start += SLICE) {
                    int n = Math.min(SLICE, end - start);
                    values.get(base + start, slice, 0, n);
                    int bad = firstNonFinite(slice, n);
                    if (bad >= 0) {
                        end = start + bad;
                        break;
                    }
                }
            }
            if (end < to) {
                first.accumulateAndGet(end, Math::min);
            }
        });
        return first.get() == Integer.MAX_VALUE ? -1 : first.get();
    }

    /** The first of {@code values[0 .. n)} that is not finite, or -1. */
    private static int firstNonFinite(float[] values, int n) {
        for (int i = 0; i < n; i++) {
            if (!Float.isFinite(values[i])) {
                return i;
            }
        }
        return -1;
    }
}
