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
 * reserved for outputs. (How a device copy of the bodies stays equal to the host's: the mirror
 * rule, stated in the API package's {@code Stepper}.)
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

    /**
     * Writes field {@code field} of elements {@code first .. first+count-1} from {@code src}, taking
     * every {@code srcStride}-th value from {@code srcOffset} on: one bulk copy when the stride is 1.
     * The caller has checked the ranges.
     */
    public void setFloats(int field, int first, int count, float[] src, int srcOffset, int srcStride) {
        int at = field * stride + first;
        if (srcStride == 1) {
            floats.put(at, src, srcOffset, count);
        } else {
            for (int i = 0; i < count; i++) {
                floats.put(at + i, src[srcOffset + i * srcStride]);
            }
        }
        stamps[field] = ++writes;
    }

    /** {@link #setFloats(int, int, int, float[], int, int)} from a buffer, absolute, stride 1. */
    public void setFloats(int field, int first, int count, FloatBuffer src, int srcIndex) {
        floats.put(field * stride + first, src, srcIndex, count);
        stamps[field] = ++writes;
    }

    /**
     * Writes the first {@code fields} fields of elements {@code 0 .. count-1} from {@code src}, a
     * block with at least as many fields and elements: in ranges on {@code runner} (the state of the
     * million-contact lattice's 343,000 spheres took 2.6 ms on one thread), each field then stamped
     * once, as one write.
     * The caller has checked the ranges.
     */
    public void setFields(FieldBlock src, int fields, int count, ParallelRunner runner) {
        FloatBuffer from = src.floats;
        int srcStride = src.stride;
        FloatBuffer to = floats;
        int toStride = stride;
        runner.forRange(count, 1 << 16, (lo, hi) -> {
            for (int f = 0; f < fields; f++) {
                to.put(f * toStride + lo, from, f * srcStride + lo, hi - lo);
            }
        });
        stampWritten(fields);
    }

    /**
     * Stamps the first {@code fields} fields once each, as one write: for a writer that filled them
     * through the raw {@link #floats()} view (a device's read of a step's new state into the bodies),
     * so that a device copy of them is sent again unless it is recorded as equal.
     */
    public void stampWritten(int fields) {
        for (int f = 0; f < fields; f++) {
            stamps[f] = ++writes;
        }
    }

    /** Reads field {@code field} of elements {@code first .. first+count-1} into {@code dest}. */
    public void getFloats(int field, int first, int count, float[] dest, int destOffset, int destStride) {
        int at = field * stride + first;
        if (destStride == 1) {
            floats.get(at, dest, destOffset, count);
        } else {
            for (int i = 0; i < count; i++) {
                dest[destOffset + i * destStride] = floats.get(at + i);
            }
        }
    }

    /** {@link #getFloats(int, int, int, float[], int, int)} into a buffer, absolute, stride 1. */
    public void getFloats(int field, int first, int count, FloatBuffer dest, int destIndex) {
        dest.put(destIndex, floats, field * stride + first, count);
    }

    /** Writes {@code value} into field {@code field} of elements {@code first .. first+count-1}. */
    public void fill(int field, int first, int count, float value) {
        int at = field * stride + first;
        for (int i = 0; i < count; i++) {
            floats.put(at + i, value);
        }
        stamps[field] = ++writes;
    }

    /** Writes int {@code value} into field {@code field} of elements {@code first .. first+count-1}. */
    public void fillInts(int field, int first, int count, int value) {
        int at = field * stride + first;
        for (int i = 0; i < count; i++) {
            ints.put(at + i, value);
        }
        stamps[field] = ++writes;
    }

    /** Writes int field {@code field} of elements {@code first .. first+count-1} from {@code src}. */
    public void setInts(int field, int first, int count, int[] src, int srcOffset) {
        ints.put(field * stride + first, src, srcOffset, count);
        stamps[field] = ++writes;
    }

    /** {@link #setInts(int, int, int, int[], int)} from a buffer, absolute. */
    public void setInts(int field, int first, int count, IntBuffer src, int srcIndex) {
        ints.put(field * stride + first, src, srcIndex, count);
        stamps[field] = ++writes;
    }

    /** Reads int field {@code field} of elements {@code first .. first+count-1} into {@code dest}. */
    public void getInts(int field, int first, int count, int[] dest, int destOffset) {
        ints.get(field * stride + first, dest, destOffset, count);
    }

    /** {@link #getInts(int, int, int, int[], int)} into a buffer, absolute. */
    public void getInts(int field, int first, int count, IntBuffer dest, int destIndex) {
        dest.put(destIndex, ints, field * stride + first, count);
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
