package io.contactsolver.core;

import java.nio.Buffer;

/**
 * The one check of a bulk copy between a batch or result and a caller's array or buffer, made
 * before any value moves, so a refused copy changes nothing. Each failure is one line naming the
 * argument and the numbers that do not fit.
 */
public final class BulkRange {
    private BulkRange() {
    }

    /**
     * Elements {@code first .. first+count-1} of {@code size} {@code what} ("bodies", "contacts").
     *
     * @throws IndexOutOfBoundsException if the range is not inside {@code [0, size)}
     */
    public static void elements(String what, int first, int count, int size) {
        if (count < 0) {
            throw new IndexOutOfBoundsException("count must not be negative, got " + count);
        }
        if (first < 0 || first > size - count) {
            throw new IndexOutOfBoundsException(what + " " + first + " to " + ((long) first + count - 1)
                    + " (" + count + " from " + first + ") are not all among the " + size + " " + what + " there are");
        }
    }

    /**
     * {@code count} values of array {@code name} from {@code offset}, every {@code stride}-th.
     *
     * @throws IllegalArgumentException if the stride is below 1
     * @throws IndexOutOfBoundsException if the array is too short
     */
    public static void array(String name, int length, int offset, int stride, int count) {
        if (stride < 1) {
            throw new IllegalArgumentException(name + ": stride must be at least 1, got " + stride);
        }
        long last = count == 0 ? offset - 1L : offset + (long) (count - 1) * stride;
        if (offset < 0 || last >= length) {
            throw new IndexOutOfBoundsException(name + ": " + count + " values from index " + offset
                    + (stride == 1 ? "" : " at stride " + stride) + " need " + Math.max(0, last + 1)
                    + " elements, it has " + length);
        }
    }

    /**
     * {@code count} values of buffer {@code name} from absolute index {@code index}, within its
     * limit; a destination must be writable.
     *
     * @throws IndexOutOfBoundsException if the buffer is too short
     * @throws IllegalArgumentException if {@code written} and the buffer is read-only
     */
    public static void buffer(String name, Buffer buffer, int index, int count, boolean written) {
        if (index < 0 || index > buffer.limit() - count) {
            throw new IndexOutOfBoundsException(name + ": " + count + " values from index " + index + " need "
                    + ((long) index + count) + " elements within its limit, it has " + buffer.limit());
        }
        if (written && buffer.isReadOnly()) {
            throw new IllegalArgumentException(name + ": the buffer is read-only");
        }
    }
}
