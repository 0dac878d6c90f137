package io.contactsolver.core;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;
import org.joml.Vector3f;

/**
 * A structure-of-arrays block of 4-byte fields in one direct, native-order buffer.
 *
 * <p>Field {@code f} of element {@code i} lives at element index {@code f * stride() + i} of the
 * {@link #floats()} or {@link #ints()} view; the stride is the capacity. Native order lets the
 * OpenCL backend hand the memory to the device without conversion. Growing re-allocates and
 * copies the live prefix of every field, so views taken before a grow must be taken again.
 *
 * <p>Writes through the setters stamp their field, so a device copy can skip fields that have not
 * changed; writes through the raw {@link #floats()} / {@link #ints()} views are not tracked and are
 * reserved for outputs.
 */
public final class FieldBlock {
    private static final AtomicLong NEXT_ID = new AtomicLong();

    private final long id = NEXT_ID.incrementAndGet();
    private final long[] stamps;
    private long writes;
    private final int fieldCount;
    private int stride;
    private ByteBuffer bytes;
    private FloatBuffer floats;
    private IntBuffer ints;

    public FieldBlock(int fieldCount, int capacity) {
        if (fieldCount <= 0) {
            throw new IllegalArgumentException("fieldCount must be positive: " + fieldCount);
        }
        this.fieldCount = fieldCount;
        this.stamps = new long[fieldCount];
        allocate(requireCapacity(capacity));
    }

    /** Identifies this block among all blocks of the process, for device copies to know what they hold. */
    public long id() {
        return id;
    }

    /**
     * A number that changes whenever field {@code field} is written through this block's setters or
     * the block grows. A device copy that recorded it can tell whether the field must go up again.
     */
    public long stamp(int field) {
        return stamps[field];
    }

    public int fieldCount() {
        return fieldCount;
    }

    /** Distance in elements between two consecutive fields; equal to the capacity. */
    public int stride() {
        return stride;
    }

    public FloatBuffer floats() {
        return floats;
    }

    public IntBuffer ints() {
        return ints;
    }

    public float getFloat(int field, int element) {
        return floats.get(field * stride + element);
    }

    public void setFloat(int field, int element, float value) {
        floats.put(field * stride + element, value);
        stamps[field] = ++writes;
    }

    public int getInt(int field, int element) {
        return ints.get(field * stride + element);
    }

    public void setInt(int field, int element, int value) {
        ints.put(field * stride + element, value);
        stamps[field] = ++writes;
    }

    /** Reads fields {@code firstField .. firstField+2} of one element as a vector. */
    public Vector3f getVector(int firstField, int element, Vector3f dest) {
        return dest.set(floats.get(firstField * stride + element), floats.get((firstField + 1) * stride + element),
                floats.get((firstField + 2) * stride + element));
    }

    /** Writes fields {@code firstField .. firstField+2} of one element. */
    public void setVector(int firstField, int element, float x, float y, float z) {
        floats.put(firstField * stride + element, x);
        floats.put((firstField + 1) * stride + element, y);
        floats.put((firstField + 2) * stride + element, z);
        long stamp = ++writes;
        stamps[firstField] = stamp;
        stamps[firstField + 1] = stamp;
        stamps[firstField + 2] = stamp;
    }

    /** Grows to at least {@code capacity} elements, keeping the first {@code live} of each field. */
    public void ensureCapacity(int capacity, int live) {
        if (capacity <= stride) {
            return;
        }
        int grown = (int) Math.min(Math.max(capacity, maxCapacity(fieldCount)),
                Math.max((long) capacity, stride + (stride >> 1) + 16L));
        ByteBuffer old = bytes;
        int oldStride = stride;
        allocate(requireCapacity(grown));
        for (int f = 0; f < fieldCount; f++) {
            bytes.put(f * stride * Integer.BYTES, old, f * oldStride * Integer.BYTES, live * Integer.BYTES);
        }
        Arrays.fill(stamps, ++writes);
    }

    /** The most elements a block of {@code fieldCount} fields holds: one buffer of at most 2 GiB. */
    public static int maxCapacity(int fieldCount) {
        return (Integer.MAX_VALUE - 8) / (fieldCount * Integer.BYTES);
    }

    private int requireCapacity(int capacity) {
        if (capacity < 0) {
            throw new IllegalArgumentException("capacity must not be negative: " + capacity);
        }
        if ((long) capacity * fieldCount * Integer.BYTES > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("capacity " + capacity + " with " + fieldCount
                    + " fields exceeds one 2 GiB buffer; split the batch");
        }
        return capacity;
    }

    private void allocate(int capacity) {
        stride = capacity;
        bytes = ByteBuffer.allocateDirect(capacity * fieldCount * Integer.BYTES).order(ByteOrder.nativeOrder());
        floats = bytes.asFloatBuffer();
        ints = bytes.asIntBuffer();
    }
}
