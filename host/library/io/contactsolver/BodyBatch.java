package io.contactsolver;

import io.contactsolver.core.BodyKind;
import io.contactsolver.core.BulkRange;
import io.contactsolver.core.FieldBlock;
import io.contactsolver.layout.BodyField;
import java.nio.FloatBuffer;
import java.util.Objects;
import org.joml.Matrix3f;
import org.joml.Matrix3fc;
import org.joml.Quaternionf;
import org.joml.Quaternionfc;
import org.joml.Vector3f;
import org.joml.Vector3fc;

/**
 * The state of a set of rigid bodies, stored structure of arrays in one direct, native-order
 * buffer (layout: {@link BodyField}).
 *
 * <p>Bodies are addressed by index {@code 0 .. size()-1}; contacts refer to them by that index, or
 * to the static world by {@link ContactBatch#WORLD}. Everything is world space except the inverse
 * inertia tensor, which is given in body space and rotated by the orientation inside the solver.
 * A body with inverse mass 0 and inverse inertia 0 is static (or kinematic): contacts never move
 * it. A particle (point mass) has inverse inertia 0 and any inverse mass.
 *
 * <p>Setters return {@code this} and getters fill a caller-supplied {@code dest}, so a simulation
 * loop allocates nothing. Values are checked when a solve starts (see {@link ContactSolver}); the
 * helpers that invert a mass or an inertia tensor check their argument at once.
 */
public final class BodyBatch {
    /** The most bodies one batch holds, 26,843,545 (its fields live in one buffer of at most 2 GiB). */
    public static final int MAX_SIZE = FieldBlock.maxCapacity(BodyField.COUNT);

    private final FieldBlock block;
    private int size;

    /** An empty batch with room for 16 bodies; it grows as bodies are added. */
    public BodyBatch() {
        this(16);
    }

    /**
     * An empty batch with room for {@code initialCapacity} bodies; it grows as bodies are added.
     *
     * @param initialCapacity bodies to allocate room for, from 0 to {@link #MAX_SIZE}
     * @throws IllegalArgumentException if {@code initialCapacity} is out of that range
     */
    public BodyBatch(int initialCapacity) {
        this.block = new FieldBlock(BodyField.COUNT, initialCapacity);
    }

    /**
     * The number of bodies.
     *
     * @return the bodies added since construction or the last {@link #clear()}
     */
    public int size() {
        return size;
    }

    /**
     * Bodies the storage has room for before it grows; also the stride of {@link #data()}.
     *
     * @return at least {@link #size()}
     */
    public int capacity() {
        return block.stride();
    }

    /**
     * Removes all bodies, keeping the storage.
     *
     * @return this batch
     */
    public BodyBatch clear() {
        size = 0;
        return this;
    }

    /**
     * Appends a static body at the origin with identity orientation, at rest, and returns its index.
     * Give it mass with {@link #setMass}, {@link #setMassProperties}, {@link #setParticle} or the
     * inverse setters.
     *
     * @return the new body's index, the previous {@link #size()}
     * @throws IllegalArgumentException if the batch already holds {@link #MAX_SIZE} bodies
     */
    public int add() {
        block.ensureCapacity(size + 1, size);
        int i = size++;
        initialise(i, 1);
        return i;
    }

    /**
     * Makes the batch hold {@code newSize} bodies: bodies beyond the old size are added as
     * {@link #add()} adds them (static, at the origin, at rest), bodies beyond the new size are
     * dropped. For filling a batch field by field with the bulk setters.
     *
     * @param newSize the number of bodies, from 0 to {@link #MAX_SIZE}
     * @return this
     * @throws IllegalArgumentException if {@code newSize} is negative or above {@link #MAX_SIZE}
     */
    public BodyBatch setSize(int newSize) {
        if (newSize < 0 || newSize > MAX_SIZE) {
            throw new IllegalArgumentException("size must be between 0 and " + MAX_SIZE + ", got " + newSize);
        }
        block.ensureCapacity(newSize, size);
        int old = size;
        size = newSize;
        if (newSize > old) {
            initialise(old, newSize - old);
        }
        return this;
    }

    /** Makes bodies {@code first .. first+count-1} static, at the origin, unturned and at rest. */
    private void initialise(int first, int count) {
        for (BodyField f : BodyField.values()) {
            block.fill(f.ordinal(), first, count, f == BodyField.QW ? 1.0f : 0.0f);
        }
    }

    // ---- positions, orientations, velocities ----------------------------------------------

    /**
     * Sets the position of the centre of mass, world space.
     *
     * @param body the body's index
     * @param x metres
     * @param y metres
     * @param z metres
     * @return this batch
     * @throws IndexOutOfBoundsException if {@code body} is not in {@code 0 .. size()-1}
     */
    public BodyBatch setPosition(int body, float x, float y, float z) {
        return set3(body, BodyField.X, x, y, z);
    }

    /**
     * Sets the position of the centre of mass, world space.
     *
     * @param body the body's index
     * @param position metres
     * @return this batch
     * @throws IndexOutOfBoundsException if {@code body} is not in {@code 0 .. size()-1}
     */
    public BodyBatch setPosition(int body, Vector3fc position) {
        return setPosition(body, position.x(), position.y(), position.z());
    }

    /**
     * The position of the centre of mass, world space, in metres.
     *
     * @param body the body's index
     * @param dest will hold the result
     * @return {@code dest}
     * @throws IndexOutOfBoundsException if {@code body} is not in {@code 0 .. size()-1}
     */
    public Vector3f getPosition(int body, Vector3f dest) {
        return get3(body, BodyField.X, dest);
    }

    /**
     * Sets the orientation, a unit quaternion rotating body space into world space. Its norm must be
     * 1 within 1e-4, as checked when a solve starts.
     *
     * @param body the body's index
     * @param orientation the rotation from body space into world space
     * @return this batch
     * @throws IndexOutOfBoundsException if {@code body} is not in {@code 0 .. size()-1}
     */
    public BodyBatch setOrientation(int body, Quaternionfc orientation) {
        check(body);
        put(BodyField.QW, body, orientation.w());
        put(BodyField.QX, body, orientation.x());
        put(BodyField.QY, body, orientation.y());
        put(BodyField.QZ, body, orientation.z());
        return this;
    }

    /**
     * The orientation, the unit quaternion rotating body space into world space.
     *
     * @param body the body's index
     * @param dest will hold the result
     * @return {@code dest}
     * @throws IndexOutOfBoundsException if {@code body} is not in {@code 0 .. size()-1}
     */
    public Quaternionf getOrientation(int body, Quaternionf dest) {
        check(body);
        return dest.set(fetch(BodyField.QX, body), fetch(BodyField.QY, body), fetch(BodyField.QZ, body),
                fetch(BodyField.QW, body));
    }

    /**
     * Sets the linear velocity of the centre of mass, world space.
     *
     * @param body the body's index
     * @param x m/s
     * @param y m/s
     * @param z m/s
     * @return this batch
     * @throws IndexOutOfBoundsException if {@code body} is not in {@code 0 .. size()-1}
     */
    public BodyBatch setLinearVelocity(int body, float x, float y, float z) {
        return set3(body, BodyField.VX, x, y, z);
    }

    /**
     * Sets the linear velocity of the centre of mass, world space.
     *
     * @param body the body's index
     * @param velocity m/s
     * @return this batch
     * @throws IndexOutOfBoundsException if {@code body} is not in {@code 0 .. size()-1}
     */
    public BodyBatch setLinearVelocity(int body, Vector3fc velocity) {
        return setLinearVelocity(body, velocity.x(), velocity.y(), velocity.z());
    }

    /**
     * The linear velocity of the centre of mass, world space, in m/s.
     *
     * @param body the body's index
     * @param dest will hold the result
     * @return {@code dest}
     * @throws IndexOutOfBoundsException if {@code body} is not in {@code 0 .. size()-1}
     */
    public Vector3f getLinearVelocity(int body, Vector3f dest) {
        return get3(body, BodyField.VX, dest);
    }

    /**
     * Sets the angular velocity, world space.
     *
     * @param body the body's index
     * @param x rad/s
     * @param y rad/s
     * @param z rad/s
     * @return this batch
     * @throws IndexOutOfBoundsException if {@code body} is not in {@code 0 .. size()-1}
     */
    public BodyBatch setAngularVelocity(int body, float x, float y, float z) {
        return set3(body, BodyField.WX, x, y, z);
    }

    /**
     * Sets the angular velocity, world space.
     *
     * @param body the body's index
     * @param angularVelocity rad/s
     * @return this batch
     * @throws IndexOutOfBoundsException if {@code body} is not in {@code 0 .. size()-1}
     */
    public BodyBatch setAngularVelocity(int body, Vector3fc angularVelocity) {
        return setAngularVelocity(body, angularVelocity.x(), angularVelocity.y(), angularVelocity.z());
    }

    /**
     * The angular velocity, world space, in rad/s.
     *
     * @param body the body's index
     * @param dest will hold the result
     * @return {@code dest}
     * @throws IndexOutOfBoundsException if {@code body} is not in {@code 0 .. size()-1}
     */
    public Vector3f getAngularVelocity(int body, Vector3f dest) {
        return get3(body, BodyField.WX, dest);
    }

    // ---- mass properties --------------------------------------------------------------------

    /**
     * Sets the inverse mass directly: 0 for a body that contacts cannot push (static or kinematic).
     * Stored as given; a solve refuses a negative or non-finite value.
     *
     * @param body the body's index
     * @param inverseMass {@code 1 / mass} in 1/kg, finite and {@code >= 0}
     * @return this batch
     * @throws IndexOutOfBoundsException if {@code body} is not in {@code 0 .. size()-1}
     */
    public BodyBatch setInverseMass(int body, float inverseMass) {
        check(body);
        put(BodyField.INV_MASS, body, inverseMass);
        return this;
    }

    /**
     * The inverse mass.
     *
     * @param body the body's index
     * @return {@code 1 / mass} in 1/kg; 0 for a static or kinematic body
     * @throws IndexOutOfBoundsException if {@code body} is not in {@code 0 .. size()-1}
     */
    public float inverseMass(int body) {
        check(body);
        return fetch(BodyField.INV_MASS, body);
    }

    /**
     * Stores {@code 1 / mass}; the mass must be positive and finite (use {@link #setStatic} for 0).
     *
     * @param body the body's index
     * @param mass kilograms, positive and finite, with a finite inverse
     * @return this batch
     * @throws IndexOutOfBoundsException if {@code body} is not in {@code 0 .. size()-1}
     * @throws IllegalArgumentException if the mass is not positive, not finite, or so small that its
     *     inverse overflows float; nothing is stored
     */
    public BodyBatch setMass(int body, float mass) {
        check(body);
        if (!(mass > 0.0f) || !Float.isFinite(mass)) {
            throw new IllegalArgumentException("body " + body + ": mass must be positive and finite, got " + mass);
        }
        float inverse = 1.0f / mass;
        if (!Float.isFinite(inverse)) {
            throw new IllegalArgumentException("body " + body + ": mass " + mass
                    + " is too small: its inverse overflows float");
        }
        return setInverseMass(body, inverse);
    }

    /**
     * Sets the body-space inverse inertia tensor. It must be symmetric (within a relative 1e-5, the
     * mean of the two off-diagonal entries is stored) and, as checked when a solve starts, positive
     * semi-definite.
     *
     * @param body the body's index
     * @param inverseInertia the inverse inertia tensor in body space, in 1/(kg m^2)
     * @return this batch
     * @throws IndexOutOfBoundsException if {@code body} is not in {@code 0 .. size()-1}
     * @throws IllegalArgumentException if an off-diagonal entry is not finite, or differs from its
     *     mirror entry by more than that; nothing is stored
     */
    public BodyBatch setInverseInertia(int body, Matrix3fc inverseInertia) {
        check(body);
        float xy = symmetricEntry(body, inverseInertia.m10(), inverseInertia.m01(), inverseInertia);
        float xz = symmetricEntry(body, inverseInertia.m20(), inverseInertia.m02(), inverseInertia);
        float yz = symmetricEntry(body, inverseInertia.m21(), inverseInertia.m12(), inverseInertia);
        return setInverseInertia(body, inverseInertia.m00(), inverseInertia.m11(), inverseInertia.m22(), xy, xz, yz);
    }

    /**
     * Sets the six independent entries of the symmetric body-space inverse inertia tensor, in
     * 1/(kg m^2). Stored as given; a solve refuses entries that are not finite or a tensor that is
     * not positive semi-definite. All zero for a body that contacts cannot turn (a particle, or a
     * static body).
     *
     * @param body the body's index
     * @param ixx the diagonal entry xx
     * @param iyy the diagonal entry yy
     * @param izz the diagonal entry zz
     * @param ixy the entries xy and yx
     * @param ixz the entries xz and zx
     * @param iyz the entries yz and zy
     * @return this batch
     * @throws IndexOutOfBoundsException if {@code body} is not in {@code 0 .. size()-1}
     */
    public BodyBatch setInverseInertia(int body, float ixx, float iyy, float izz, float ixy, float ixz, float iyz) {
        check(body);
        put(BodyField.INV_IXX, body, ixx);
        put(BodyField.INV_IYY, body, iyy);
        put(BodyField.INV_IZZ, body, izz);
        put(BodyField.INV_IXY, body, ixy);
        put(BodyField.INV_IXZ, body, ixz);
        put(BodyField.INV_IYZ, body, iyz);
        return this;
    }

    /**
     * The inverse inertia tensor in body space, in 1/(kg m^2), as a symmetric matrix.
     *
     * @param body the body's index
     * @param dest will hold the result
     * @return {@code dest}
     * @throws IndexOutOfBoundsException if {@code body} is not in {@code 0 .. size()-1}
     */
    public Matrix3f getInverseInertia(int body, Matrix3f dest) {
        check(body);
        float xy = fetch(BodyField.INV_IXY, body);
        float xz = fetch(BodyField.INV_IXZ, body);
        float yz = fetch(BodyField.INV_IYZ, body);
        return dest.set(fetch(BodyField.INV_IXX, body), xy, xz,
                xy, fetch(BodyField.INV_IYY, body), yz,
                xz, yz, fetch(BodyField.INV_IZZ, body));
    }

    /**
     * Stores the inverse of a body-space inertia tensor, which must be symmetric positive definite.
     * The inverse is computed in double precision. For a tensor with a zero principal moment (a
     * thin rod about its axis) set the inverse directly with {@link #setInverseInertia}.
     *
     * @param body the body's index
     * @param inertia the inertia tensor in body space, in kg m^2
     * @return this batch
     * @throws IndexOutOfBoundsException if {@code body} is not in {@code 0 .. size()-1}
     * @throws IllegalArgumentException if the tensor has an entry that is not finite, is not
     *     symmetric (relative 1e-5) or not positive definite, or is so small that its inverse
     *     overflows float; nothing is stored
     */
    public BodyBatch setInertia(int body, Matrix3fc inertia) {
        check(body);
        double xx = inertia.m00(), yy = inertia.m11(), zz = inertia.m22();
        double xy = symmetricEntry(body, inertia.m10(), inertia.m01(), inertia);
        double xz = symmetricEntry(body, inertia.m20(), inertia.m02(), inertia);
        double yz = symmetricEntry(body, inertia.m21(), inertia.m12(), inertia);
        // cofactors of the symmetric matrix; positive definite iff the leading minors are positive
        double cxx = yy * zz - yz * yz;
        double cxy = xz * yz - xy * zz;
        double cxz = xy * yz - yy * xz;
        double det = xx * cxx + xy * cxy + xz * cxz;
        if (!(xx > 0.0) || !(xx * yy - xy * xy > 0.0) || !(det > 0.0) || !Double.isFinite(det)) {
            throw new IllegalArgumentException("body " + body + ": inertia tensor is not symmetric positive definite: "
                    + inertia);
        }
        double cyy = xx * zz - xz * xz;
        double cyz = xy * xz - xx * yz;
        double czz = xx * yy - xy * xy;
        float[] inverse = {(float) (cxx / det), (float) (cyy / det), (float) (czz / det), (float) (cxy / det),
            (float) (cxz / det), (float) (cyz / det)};
        for (float entry : inverse) {
            if (!Float.isFinite(entry)) {
                throw new IllegalArgumentException("body " + body + ": inertia tensor is too small: its inverse "
                        + "overflows float: " + inertia);
            }
        }
        return setInverseInertia(body, inverse[0], inverse[1], inverse[2], inverse[3], inverse[4], inverse[5]);
    }

    /**
     * {@link #setMass} and {@link #setInertia} together: both checked before either is stored.
     *
     * @param body the body's index
     * @param mass kilograms, positive and finite
     * @param inertia the inertia tensor in body space, in kg m^2, symmetric positive definite
     * @return this batch
     * @throws IndexOutOfBoundsException if {@code body} is not in {@code 0 .. size()-1}
     * @throws IllegalArgumentException as {@link #setMass} or {@link #setInertia}; the body is then
     *     unchanged
     */
    public BodyBatch setMassProperties(int body, float mass, Matrix3fc inertia) {
        check(body);
        float inverseMass = fetch(BodyField.INV_MASS, body);
        setMass(body, mass);
        try {
            return setInertia(body, inertia);
        } catch (IllegalArgumentException refused) {
            setInverseMass(body, inverseMass);
            throw refused;
        }
    }

    /**
     * Makes the body a particle: inverse mass {@code 1 / mass}, inverse inertia zero, so contacts
     * change its linear velocity but never its angular velocity.
     *
     * @param body the body's index
     * @param mass kilograms, positive and finite
     * @return this batch
     * @throws IndexOutOfBoundsException if {@code body} is not in {@code 0 .. size()-1}
     * @throws IllegalArgumentException as {@link #setMass}; the body is then unchanged
     */
    public BodyBatch setParticle(int body, float mass) {
        setMass(body, mass);
        return setInverseInertia(body, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f);
    }

    /**
     * Makes the body static (or kinematic): inverse mass and inverse inertia zero. Its velocities
     * are kept: a kinematic body moves, and contacts never change its motion.
     *
     * @param body the body's index
     * @return this batch
     * @throws IndexOutOfBoundsException if {@code body} is not in {@code 0 .. size()-1}
     */
    public BodyBatch setStatic(int body) {
        setInverseMass(body, 0.0f);
        return setInverseInertia(body, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f);
    }

    /**
     * Whether contacts leave this body unmoved (inverse mass and inverse inertia all zero).
     *
     * @param body the body's index
     * @return true for a static or kinematic body
     * @throws IndexOutOfBoundsException if {@code body} is not in {@code 0 .. size()-1}
     */
    public boolean isStatic(int body) {
        check(body);
        return BodyKind.isImmovable(block.floats(), block.stride(), body);
    }

    // ---- raw access -------------------------------------------------------------------------

    /**
     * Field {@code field} of body {@code body}.
     *
     * @param field which field, its unit as {@link BodyField} states
     * @param body the body's index
     * @return the stored value
     * @throws IndexOutOfBoundsException if {@code body} is not in {@code 0 .. size()-1}
     */
    public float get(BodyField field, int body) {
        check(body);
        return fetch(field, body);
    }

    /**
     * Sets field {@code field} of body {@code body}, unchecked until a solve starts; the other
     * fields of a quaternion or a tensor are left as they are.
     *
     * @param field which field, its unit as {@link BodyField} states
     * @param body the body's index
     * @param value the new value
     * @return this batch
     * @throws IndexOutOfBoundsException if {@code body} is not in {@code 0 .. size()-1}
     */
    public BodyBatch set(BodyField field, int body, float value) {
        check(body);
        put(field, body, value);
        return this;
    }

    // ---- bulk access: one field of many bodies ------------------------------------------------

    /**
     * Sets field {@code field} of every body from {@code src[0 .. size()-1]}.
     *
     * @param field the field to write
     * @param src one value per body, in body order; at least {@link #size()} long
     * @return this
     * @throws IndexOutOfBoundsException if {@code src} is shorter than {@link #size()}
     */
    public BodyBatch set(BodyField field, float[] src) {
        return set(field, 0, src, 0, 1, size);
    }

    /**
     * Sets field {@code field} of bodies {@code firstBody .. firstBody+count-1} from
     * {@code src[srcOffset .. srcOffset+count-1]}. The ranges are checked once, before any value is
     * written; the values themselves are checked when a solve starts, like every other setter's.
     *
     * @param field the field to write
     * @param firstBody index of the first body written
     * @param src the values, in body order
     * @param srcOffset index in {@code src} of the first body's value
     * @param count number of bodies written
     * @return this
     * @throws IndexOutOfBoundsException if a range does not fit (nothing is written)
     */
    public BodyBatch set(BodyField field, int firstBody, float[] src, int srcOffset, int count) {
        return set(field, firstBody, src, srcOffset, 1, count);
    }

    /**
     * As {@link #set(BodyField, int, float[], int, int)}, taking every {@code srcStride}-th value of
     * {@code src}: for interleaved data, such as positions as {@code x0 y0 z0 x1 y1 z1 ...} (stride
     * 3, offsets 0, 1 and 2 for {@link BodyField#X}, {@link BodyField#Y}, {@link BodyField#Z}).
     *
     * @param field the field to write
     * @param firstBody index of the first body written
     * @param src the values
     * @param srcOffset index in {@code src} of the first body's value
     * @param srcStride distance in {@code src} between two consecutive bodies' values, at least 1
     * @param count number of bodies written
     * @return this
     * @throws IndexOutOfBoundsException if a range does not fit (nothing is written)
     * @throws IllegalArgumentException if {@code srcStride} is below 1
     */
    public BodyBatch set(BodyField field, int firstBody, float[] src, int srcOffset, int srcStride, int count) {
        BulkRange.elements("bodies", firstBody, count, size);
        BulkRange.array("src", src.length, srcOffset, srcStride, count);
        block.setFloats(field.ordinal(), firstBody, count, src, srcOffset, srcStride);
        return this;
    }

    /**
     * Sets field {@code field} of bodies {@code firstBody .. firstBody+count-1} from {@code src},
     * starting at its absolute index {@code srcIndex}; the buffer's position is left as it was.
     *
     * @param field the field to write
     * @param firstBody index of the first body written
     * @param src the values, in body order
     * @param srcIndex absolute index in {@code src} of the first body's value
     * @param count number of bodies written
     * @return this
     * @throws IndexOutOfBoundsException if a range does not fit (nothing is written)
     */
    public BodyBatch set(BodyField field, int firstBody, FloatBuffer src, int srcIndex, int count) {
        BulkRange.elements("bodies", firstBody, count, size);
        BulkRange.buffer("src", src, srcIndex, count, false);
        block.setFloats(field.ordinal(), firstBody, count, src, srcIndex);
        return this;
    }

    /**
     * Reads field {@code field} of every body into {@code dest[0 .. size()-1]}.
     *
     * @param field the field to read
     * @param dest receives one value per body; at least {@link #size()} long
     * @return {@code dest}
     * @throws IndexOutOfBoundsException if {@code dest} is shorter than {@link #size()}
     */
    public float[] get(BodyField field, float[] dest) {
        return get(field, 0, dest, 0, 1, size);
    }

    /**
     * Reads field {@code field} of bodies {@code firstBody .. firstBody+count-1} into
     * {@code dest[destOffset .. destOffset+count-1]}.
     *
     * @param field the field to read
     * @param firstBody index of the first body read
     * @param dest receives the values, in body order
     * @param destOffset index in {@code dest} of the first body's value
     * @param count number of bodies read
     * @return {@code dest}
     * @throws IndexOutOfBoundsException if a range does not fit (nothing is written)
     */
    public float[] get(BodyField field, int firstBody, float[] dest, int destOffset, int count) {
        return get(field, firstBody, dest, destOffset, 1, count);
    }

    /**
     * As {@link #get(BodyField, int, float[], int, int)}, writing every {@code destStride}-th
     * element of {@code dest}, for interleaved data.
     *
     * @param field the field to read
     * @param firstBody index of the first body read
     * @param dest receives the values
     * @param destOffset index in {@code dest} of the first body's value
     * @param destStride distance in {@code dest} between two consecutive bodies' values, at least 1
     * @param count number of bodies read
     * @return {@code dest}
     * @throws IndexOutOfBoundsException if a range does not fit (nothing is written)
     * @throws IllegalArgumentException if {@code destStride} is below 1
     */
    public float[] get(BodyField field, int firstBody, float[] dest, int destOffset, int destStride, int count) {
        BulkRange.elements("bodies", firstBody, count, size);
        BulkRange.array("dest", dest.length, destOffset, destStride, count);
        block.getFloats(field.ordinal(), firstBody, count, dest, destOffset, destStride);
        return dest;
    }

    /**
     * Reads field {@code field} of bodies {@code firstBody .. firstBody+count-1} into {@code dest}
     * from its absolute index {@code destIndex}; the buffer's position is left as it was.
     *
     * @param field the field to read
     * @param firstBody index of the first body read
     * @param dest receives the values, in body order
     * @param destIndex absolute index in {@code dest} of the first body's value
     * @param count number of bodies read
     * @return {@code dest}
     * @throws IndexOutOfBoundsException if a range does not fit (nothing is written)
     * @throws IllegalArgumentException if {@code dest} is read-only
     */
    public FloatBuffer get(BodyField field, int firstBody, FloatBuffer dest, int destIndex, int count) {
        BulkRange.elements("bodies", firstBody, count, size);
        BulkRange.buffer("dest", dest, destIndex, count, true);
        block.getFloats(field.ordinal(), firstBody, count, dest, destIndex);
        return dest;
    }

    /**
     * A read-only view of the storage: field {@code f} of body {@code i} is at absolute index
     * {@code f.ordinal() * capacity() + i}. The view is invalid after the batch grows.
     *
     * @return a read-only, native-order view of the whole storage, {@code BodyField.COUNT * capacity()}
     *     floats
     */
    public FloatBuffer data() {
        return block.floats().asReadOnlyBuffer();
    }

    FieldBlock block() {
        return block;
    }

    private float symmetricEntry(int body, float lower, float upper, Object matrix) {
        if (!Float.isFinite(lower) || !Float.isFinite(upper)) {
            throw new IllegalArgumentException("body " + body + ": matrix entries must be finite: " + matrix);
        }
        // in double: two entries near 3e38 neither overflow their difference nor their mean
        double scale = Math.max(Math.abs((double) lower), Math.abs((double) upper));
        if (Math.abs((double) lower - upper) > 1e-5 * scale) {
            throw new IllegalArgumentException("body " + body + ": matrix is not symmetric: " + matrix);
        }
        return (float) (((double) lower + upper) * 0.5);
    }

    private BodyBatch set3(int body, BodyField first, float x, float y, float z) {
        check(body);
        block.setVector(first.ordinal(), body, x, y, z);
        return this;
    }

    private Vector3f get3(int body, BodyField first, Vector3f dest) {
        check(body);
        return block.getVector(first.ordinal(), body, dest);
    }

    private float fetch(BodyField field, int body) {
        return block.getFloat(field.ordinal(), body);
    }

    private void put(BodyField field, int body, float value) {
        block.setFloat(field.ordinal(), body, value);
    }

    private void check(int body) {
        Objects.checkIndex(body, size);
    }
}
