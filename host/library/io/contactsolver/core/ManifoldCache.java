package io.contactsolver.core;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;

/**
 * What a soft step keeps of the manifolds it solved, for the next step to recycle (docs/physics.md,
 * "Contact recycling"): per manifold its body pair, its points and its friction and angular vectors
 * ({@link ManifoldVectorField}); per point its id, its capture ({@link CaptureField}: anchors,
 * normal, separation and both orientations when it was taken) and its normal impulse; and the step's
 * contacts of each manifold, from which {@link Recycler#reportedImpulses} gives any contact's impulses
 * when the result was asked for none. Manifolds in
 * the order of the step's manifolds, each one's points consecutive; a point's capture fields
 * together ({@code p * CaptureField.COUNT + field}), as a recycled point reads them all. A result
 * holds one; the arrays only grow. The captures and ids are direct buffers, which a device that
 * recycles reads from and reads back into without a copy on the host.
 *
 * <p>A device that keeps a step's points, impulses and vectors for its next step's recycling need
 * not send them back: it leaves a {@link DeviceCopy} ({@link #keepOnDevice}) and the host's first
 * read of them ({@link #ids}, {@link #idArray}, {@link #captures}, {@link #normal}, {@link #vectors})
 * fetches them. A cache the host never reads (a simulation that steps on the device) never crosses PCIe.
 */
public final class ManifoldCache {
    private int manifoldCount;
    private int pointCount;
    private int[] bodyA = new int[0];
    private int[] bodyB = new int[0];
    private int[] pointStart = new int[1];
    private int[] contactStart = new int[1];
    private float[] vectors = new float[0];
    private IntBuffer ids = directInts(0);
    /** {@link #ids} as an array, made on demand once the cache is finished (kept and reused: a step allocates nothing). */
    private int[] idCopy = new int[0];
    private boolean idCopyValid;
    private FloatBuffer captures = directFloats(0);
    private float[] normal = new float[0];
    /**
     * Where the step's points, impulses and vectors still are, on a device, until a read fetches
     * them; null where the host holds them. Volatile, so that the threads of a parallel read check
     * it without a lock and see the fetched arrays once it is null.
     */
    private volatile DeviceCopy onDevice;
    private boolean valid;
    /** Counts the times the contents were replaced or forgotten: a device copy of them is current while it holds the same. */
    private long version;
    /**
     * The grouping whose pairs and firsts {@link #bodyA}, {@link #bodyB} and {@link #contactStart}
     * were last copied from ({@link #recordStructure}), at their versions; null for none (or once the
     * arrays are replaced).
     */
    private ManifoldGrouping structureSource;
    private long sourcePairsVersion;
    private long sourceFirstsVersion;
    private boolean pointsAreContacts;
    private Recycler pointStartSource;
    private long sourcePointStartVersion;

    /** Makes room for {@code manifolds} manifolds of {@code points} points in all, and marks the cache empty until {@link #finish}. */
    public void prepare(int manifolds, int points) {
        onDevice = null;
        valid = false;
        pointsAreContacts = false;
        idCopyValid = false;
        version++;
        manifoldCount = manifolds;
        pointCount = points;
        if (bodyA.length < manifolds) {
            structureSource = null;
            pointStartSource = null;
            int room = grown(bodyA.length, manifolds);
            bodyA = new int[room];
            bodyB = new int[room];
            pointStart = new int[room + 1];
            contactStart = new int[room + 1];
            vectors = new float[ManifoldVectorField.COUNT * room];
        }
        if (normal.length < points) {
            int room = grown(normal.length, points);
            ids = directInts(room);
            normal = new float[room];
            captures = directFloats(CaptureField.COUNT * room);
        }
    }

    /** Direct, native-order storage: a device reads it and writes it in place, with no copy on the host. */
    private static FloatBuffer directFloats(int count) {
        return ByteBuffer.allocateDirect(count * Float.BYTES).order(ByteOrder.nativeOrder()).asFloatBuffer();
    }

    private static IntBuffer directInts(int count) {
        return ByteBuffer.allocateDirect(count * Integer.BYTES).order(ByteOrder.nativeOrder()).asIntBuffer();
    }

    private static int grown(int length, int needed) {
        long room = Math.max((long) needed, length + (long) (length >> 1));
        return (int) Math.min(room, Integer.MAX_VALUE / CaptureField.COUNT - 8);
    }

    /** The cache now holds a step's manifolds. */
    public void finish() {
        valid = true;
        idCopyValid = false;
    }

    /** Forgets the manifolds: the next step takes every contact fresh. */
    public void clear() {
        onDevice = null;
        // the arrays keep what they hold: their record of it stands (the cache is not read until kept again)
        valid = false;
        idCopyValid = false;
        version++;
        manifoldCount = 0;
        pointCount = 0;
    }

    /**
     * Records that {@link #bodyA}, {@link #bodyB} and {@link #contactStart} now hold {@code manifolds}'
     * pairs and firsts as they are (its {@link ManifoldGrouping#pairsVersion} and
     * {@link ManifoldGrouping#firstsVersion}), {@link #pointStart} those of {@code points}' plan (its
     * {@link Recycler#pointStartVersion}), and whether each manifold's points are its contacts.
     */
    void recordStructure(ManifoldGrouping manifolds, Recycler points, boolean pointsAreContacts) {
        structureSource = manifolds;
        sourcePairsVersion = manifolds.pairsVersion();
        sourceFirstsVersion = manifolds.firstsVersion();
        pointStartSource = points;
        sourcePointStartVersion = points.pointStartVersion();
        this.pointsAreContacts = pointsAreContacts;
    }

    /** Whether {@link #pointStart} holds {@code points}' plan's point starts as they are now. */
    boolean holdsPointStartOf(Recycler points) {
        return pointStartSource == points && sourcePointStartVersion == points.pointStartVersion();
    }

    /**
     * Whether each manifold's points are its contacts ({@link #pointStart} is {@link #contactStart}):
     * the step kept no manifold with other points than its contacts. Recorded when the cache is
     * kept ({@link #recordStructure}).
     */
    boolean pointsAreContacts() {
        return valid && pointsAreContacts;
    }

    /** Whether {@link #bodyA} and {@link #bodyB} hold {@code manifolds}' pairs as they are now, {@code manifolds.count()} of them. */
    boolean holdsPairsOf(ManifoldGrouping manifolds) {
        return structureSource == manifolds && sourcePairsVersion == manifolds.pairsVersion();
    }

    /** Whether {@link #contactStart} holds {@code manifolds}' firsts as they are now. */
    boolean holdsFirstsOf(ManifoldGrouping manifolds) {
        return structureSource == manifolds && sourceFirstsVersion == manifolds.firstsVersion();
    }

    /** How many times the contents were replaced or forgotten ({@link #prepare}, {@link #clear}). */
    public long version() {
        return version;
    }

    /** Whether a step's manifolds are here to recycle from. */
    public boolean isValid() {
        return valid;
    }

    public int manifoldCount() {
        return manifoldCount;
    }

    public int pointCount() {
        return pointCount;
    }

    /** Body a of each manifold. */
    public int[] bodyA() {
        return bodyA;
    }

    /** Body b of each manifold. */
    public int[] bodyB() {
        return bodyB;
    }

    /** Manifold {@code m}'s points are {@code [pointStart()[m], pointStart()[m + 1])}. */
    public int[] pointStart() {
        return pointStart;
    }

    /** Manifold {@code m} was the step's contacts {@code [contactStart()[m], contactStart()[m + 1])}. */
    public int[] contactStart() {
        return contactStart;
    }

    /** {@link ManifoldVectorField} {@code f} of manifold {@code m} at {@code f * manifoldCount() + m} (as {@link #normal}, fetched first). */
    public float[] vectors() {
        fetchFromDevice();
        return vectors;
    }

    /** Each point's contact id (direct, native order: read and written with absolute access). */
    public IntBuffer ids() {
        fetchFromDevice();
        return ids;
    }

    /**
     * The finished cache's ids as an array, for the host's reads of many of them (a direct buffer
     * read an element at a time costs several times an array's): copied once a step, on demand.
     */
    public int[] idArray() {
        fetchFromDevice();
        return idCopy();
    }

    private synchronized int[] idCopy() {
        if (!idCopyValid) {
            if (idCopy.length < pointCount) {
                idCopy = new int[Math.max(pointCount, idCopy.length + (idCopy.length >> 1))];
            }
            ids.get(0, idCopy, 0, pointCount);
            idCopyValid = true;
        }
        return idCopy;
    }

    /** {@link CaptureField} {@code f} of point {@code p} at {@code p * CaptureField.COUNT + f} (direct, native order). */
    public FloatBuffer captures() {
        fetchFromDevice();
        return captures;
    }

    /**
     * Each point's normal impulse at the end of the step (what a backend writes into, and what the
     * host reads: where a device kept them, fetched first).
     */
    public float[] normal() {
        fetchFromDevice();
        return normal;
    }

    /**
     * What a device left of a step for its next one: the points' captures and ids (where it wrote
     * them; else the host wrote them here), each point's normal impulse and each manifold's vectors.
     */
    public interface DeviceCopy {
        /**
         * Reads them into the cache's storage, in the layout of {@link #captures}, {@link #ids},
         * {@link #normal} and {@link #vectors}, and waits for the copies; false where the device
         * failed, and the cache then forgets its manifolds.
         */
        boolean readInto(FloatBuffer captures, IntBuffer ids, float[] normal, float[] vectors);

        /**
         * Reads the step's {@code contacts} contacts' impulses as the device reported them
         * ({@link Recycler#report}, the same bits) into {@code dest} ({@code ImpulseField} rows,
         * stride {@code dest.stride()}), and waits; false where it holds none for that many
         * contacts or the device failed (the host then reports them from the fetched arrays).
         */
        default boolean readReportedImpulses(FieldBlock dest, int contacts) {
            return false;
        }

        /**
         * Reads the step's {@code bodies} bodies' velocity changes ({@code DeltaField} rows) into
         * {@code dest}, and waits; false where it holds none for the result or the device failed.
         * A copy that holds them reads them into the result's block as it fetches the arrays too
         * ({@link #readInto}), so that they outlast its memory.
         */
        default boolean readDeltas(FieldBlock dest, int bodies) {
            return false;
        }
    }

    /**
     * Reads the step's bodies' velocity changes from the device that still holds the step
     * ({@link DeviceCopy#readDeltas}), under the fetch's lock; false where no device holds the step
     * (its fetch then brought them into the result, or none were left there) or the read failed.
     */
    public synchronized boolean readDeltas(FieldBlock dest, int bodies) {
        DeviceCopy copy = onDevice;
        return copy != null && copy.readDeltas(dest, bodies);
    }

    /**
     * Reads the step's contacts' impulses as the device that still holds the step reported them
     * ({@link DeviceCopy#readReportedImpulses}): fewer bytes than the arrays they are reported
     * from. False where no device holds the step (or the read failed): {@link Recycler#report}
     * then writes them from the arrays, to the same bits. Under the fetch's lock, so that a device
     * about to reuse its copy waits for the read ({@link #fetchFromDevice}).
     */
    public synchronized boolean readReportedImpulses(FieldBlock dest, int contacts) {
        DeviceCopy copy = onDevice;
        return copy != null && copy.readReportedImpulses(dest, contacts);
    }

    /**
     * The step's points, impulses and vectors are on a device ({@code copy} fetches them): the first
     * host read fetches them, {@link #prepare} and {@link #clear} forget them. Call before {@link #finish}.
     */
    public void keepOnDevice(DeviceCopy copy) {
        onDevice = copy;
    }

    /** Whether a read would first fetch the step's arrays from a device ({@link #keepOnDevice}). */
    public boolean heldOnDevice() {
        return onDevice != null;
    }

    /**
     * Fetches the step's arrays from the device that kept them, if one did and no read has yet;
     * where the device fails, the cache forgets its manifolds (the next step takes its contacts fresh).
     */
    public void fetchFromDevice() {
        if (onDevice != null) {
            fetch();
        }
    }

    private synchronized void fetch() {
        DeviceCopy copy = onDevice;
        if (copy == null) {
            return;
        }
        // cleared once read: a racing reader waits here for the copy rather than reading before it
        boolean read = copy.readInto(captures, ids, normal, vectors);
        onDevice = null;
        if (read) {
            idCopyValid = false;
        } else {
            clear();
        }
    }

    @Override
    public String toString() {
        return "ManifoldCache[" + (valid ? manifoldCount + " manifolds, " + pointCount + " points" : "empty") + "]";
    }
}
