package io.contactsolver;

import io.contactsolver.core.FieldBlock;
import io.contactsolver.layout.ContactBody;
import io.contactsolver.layout.ContactField;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.util.Arrays;
import java.util.Objects;
import org.joml.Vector3f;
import org.joml.Vector3fc;

/**
 * The contacts found by collision detection, stored structure of arrays in direct, native-order
 * buffers: floats by {@link ContactField}, body references by {@link ContactBody}.
 *
 * <p>Each contact joins body {@code a} and body {@code b} (indices into a {@link BodyBatch}, or
 * {@link #WORLD} for the static world) at a world-space point, with a unit normal pointing from
 * {@code a} to {@code b} and a restitution coefficient in [0, 1]. Each contact also carries an
 * integer id, by default its index, which is written to {@code impulses.csv} and which the
 * iterative solver uses to match warm-start impulses across steps, and optionally a friction
 * coefficient and a rolling resistance (both 0 by default: frictionless).
 */
public final class ContactBatch {
    /** Body index standing for the static world. */
    public static final int WORLD = -1;
    /** The most contacts one batch holds, 53,687,090 (its fields live in one buffer of at most 2 GiB). */
    public static final int MAX_SIZE = FieldBlock.maxCapacity(ContactField.COUNT);

    private final FieldBlock floats;
    private final FieldBlock links;
    private int[] ids;
    private int size;

    /** An empty batch with room for 16 contacts; it grows as contacts are added. */
    public ContactBatch() {
        this(16);
    }

    /**
     * An empty batch with room for {@code initialCapacity} contacts; it grows as contacts are added.
     *
     * @param initialCapacity contacts to allocate room for, from 0 to {@link #MAX_SIZE}
     * @throws IllegalArgumentException if {@code initialCapacity} is out of that range
     */
    public ContactBatch(int initialCapacity) {
        this.floats = new FieldBlock(ContactField.COUNT, initialCapacity);
        this.links = new FieldBlock(ContactBody.COUNT, initialCapacity);
        this.ids = new int[initialCapacity];
    }

    /**
     * The number of contacts.
     *
     * @return the contacts added since construction or the last {@link #clear()}
     */
    public int size() {
        return size;
    }

    /**
     * Contacts the storage has room for before it grows; also the stride of {@link #data()}.
     *
     * @return at least {@link #size()}
     */
    public int capacity() {
        return floats.stride();
    }

    /**
     * Removes all contacts, keeping the storage.
     *
     * @return this batch
     */
    public ContactBatch clear() {
        size = 0;
        return this;
    }

    /**
     * Appends a contact and returns its index; its id is set to that index. Separation, friction
     * and rolling resistance start at 0. Nothing is checked until a solve starts (see
     * {@link ContactSolver}).
     *
     * @param bodyA first body index, or {@link #WORLD}
     * @param bodyB second body index, or {@link #WORLD}
     * @param point contact point, world space, in metres
     * @param normal unit normal from {@code bodyA} to {@code bodyB}
     * @param restitution coefficient of restitution in [0, 1]
     * @return the new contact's index, the previous {@link #size()}
     * @throws IllegalArgumentException if the batch already holds {@link #MAX_SIZE} contacts
     */
    public int add(int bodyA, int bodyB, Vector3fc point, Vector3fc normal, float restitution) {
        return add(bodyA, bodyB, point.x(), point.y(), point.z(), normal.x(), normal.y(), normal.z(), restitution);
    }

    /**
     * {@link #add(int, int, Vector3fc, Vector3fc, float)} without vector arguments.
     *
     * @param bodyA first body index, or {@link #WORLD}
     * @param bodyB second body index, or {@link #WORLD}
     * @param px contact point x, world space, in metres
     * @param py contact point y
     * @param pz contact point z
     * @param nx unit normal from {@code bodyA} to {@code bodyB}, x
     * @param ny unit normal, y
     * @param nz unit normal, z
     * @param restitution coefficient of restitution in [0, 1]
     * @return the new contact's index, the previous {@link #size()}
     * @throws IllegalArgumentException if the batch already holds {@link #MAX_SIZE} contacts
     */
    public int add(int bodyA, int bodyB, float px, float py, float pz, float nx, float ny, float nz,
            float restitution) {
        int capacity = size + 1;
        floats.ensureCapacity(capacity, size);
        links.ensureCapacity(capacity, size);
        if (ids.length < floats.stride()) {
            ids = Arrays.copyOf(ids, floats.stride());
        }
        int c = size++;
        ids[c] = c;
        setBodies(c, bodyA, bodyB);
        setPoint(c, px, py, pz);
        setNormal(c, nx, ny, nz);
        setRestitution(c, restitution);
        setSeparation(c, 0.0f);
        setFriction(c, 0.0f);
        setRollingResistance(c, 0.0f);
        return c;
    }

    // ---- fields -----------------------------------------------------------------------------

    /**
     * Sets the two bodies of a contact. Checked when a solve starts: each is a body index or
     * {@link #WORLD}, and they are not the same body (nor both the world).
     *
     * @param contact the contact's index
     * @param bodyA body a, which the normal points away from, or {@link #WORLD}
     * @param bodyB body b, which the normal points towards, or {@link #WORLD}
     * @return this batch
     * @throws IndexOutOfBoundsException if {@code contact} is not in {@code 0 .. size()-1}
     */
    public ContactBatch setBodies(int contact, int bodyA, int bodyB) {
        check(contact);
        links.setInt(ContactBody.A.ordinal(), contact, bodyA);
        links.setInt(ContactBody.B.ordinal(), contact, bodyB);
        return this;
    }

    /**
     * Body a of a contact, which the normal points away from.
     *
     * @param contact the contact's index
     * @return a body index, or {@link #WORLD}
     * @throws IndexOutOfBoundsException if {@code contact} is not in {@code 0 .. size()-1}
     */
    public int bodyA(int contact) {
        return body(ContactBody.A, contact);
    }

    /**
     * Body b of a contact, which the normal points towards.
     *
     * @param contact the contact's index
     * @return a body index, or {@link #WORLD}
     * @throws IndexOutOfBoundsException if {@code contact} is not in {@code 0 .. size()-1}
     */
    public int bodyB(int contact) {
        return body(ContactBody.B, contact);
    }

    /**
     * Body a or body b of a contact.
     *
     * @param side {@link ContactBody#A} or {@link ContactBody#B}
     * @param contact the contact's index
     * @return a body index, or {@link #WORLD}
     * @throws IndexOutOfBoundsException if {@code contact} is not in {@code 0 .. size()-1}
     */
    public int body(ContactBody side, int contact) {
        check(contact);
        return links.getInt(side.ordinal(), contact);
    }

    /**
     * Sets the contact point, world space.
     *
     * @param contact the contact's index
     * @param x metres
     * @param y metres
     * @param z metres
     * @return this batch
     * @throws IndexOutOfBoundsException if {@code contact} is not in {@code 0 .. size()-1}
     */
    public ContactBatch setPoint(int contact, float x, float y, float z) {
        return set3(contact, ContactField.PX, x, y, z);
    }

    /**
     * Sets the contact point, world space.
     *
     * @param contact the contact's index
     * @param point metres
     * @return this batch
     * @throws IndexOutOfBoundsException if {@code contact} is not in {@code 0 .. size()-1}
     */
    public ContactBatch setPoint(int contact, Vector3fc point) {
        return setPoint(contact, point.x(), point.y(), point.z());
    }

    /**
     * The contact point, world space, in metres.
     *
     * @param contact the contact's index
     * @param dest will hold the result
     * @return {@code dest}
     * @throws IndexOutOfBoundsException if {@code contact} is not in {@code 0 .. size()-1}
     */
    public Vector3f getPoint(int contact, Vector3f dest) {
        return get3(contact, ContactField.PX, dest);
    }

    /**
     * Sets the normal, which must be unit length (within 1e-3) and point from body a to body b.
     * Its length is checked when a solve starts.
     *
     * @param contact the contact's index
     * @param x world space
     * @param y world space
     * @param z world space
     * @return this batch
     * @throws IndexOutOfBoundsException if {@code contact} is not in {@code 0 .. size()-1}
     */
    public ContactBatch setNormal(int contact, float x, float y, float z) {
        return set3(contact, ContactField.NX, x, y, z);
    }

    /**
     * Sets the normal, which must be unit length (within 1e-3) and point from body a to body b.
     *
     * @param contact the contact's index
     * @param normal world space
     * @return this batch
     * @throws IndexOutOfBoundsException if {@code contact} is not in {@code 0 .. size()-1}
     */
    public ContactBatch setNormal(int contact, Vector3fc normal) {
        return setNormal(contact, normal.x(), normal.y(), normal.z());
    }

    /**
     * The normal, from body a to body b, world space.
     *
     * @param contact the contact's index
     * @param dest will hold the result
     * @return {@code dest}
     * @throws IndexOutOfBoundsException if {@code contact} is not in {@code 0 .. size()-1}
     */
    public Vector3f getNormal(int contact, Vector3f dest) {
        return get3(contact, ContactField.NX, dest);
    }

    /**
     * Sets the coefficient of restitution: an approaching contact leaves with {@code -e} times its
     * normal velocity (0: no bounce, 1: no loss). Checked to lie in [0, 1] when a solve starts.
     *
     * @param contact the contact's index
     * @param restitution {@code e}, in [0, 1]
     * @return this batch
     * @throws IndexOutOfBoundsException if {@code contact} is not in {@code 0 .. size()-1}
     */
    public ContactBatch setRestitution(int contact, float restitution) {
        return set(ContactField.RESTITUTION, contact, restitution);
    }

    /**
     * The coefficient of restitution.
     *
     * @param contact the contact's index
     * @return {@code e}, in [0, 1] if valid
     * @throws IndexOutOfBoundsException if {@code contact} is not in {@code 0 .. size()-1}
     */
    public float restitution(int contact) {
        return get(ContactField.RESTITUTION, contact);
    }

    /**
     * Sets the signed gap along the normal (negative: overlap), used by positional correction
     * ({@link SolveSettings#withPositionalCorrection}) and by the soft step; otherwise ignored.
     *
     * @param contact the contact's index
     * @param separation metres, finite; negative when the bodies overlap
     * @return this batch
     * @throws IndexOutOfBoundsException if {@code contact} is not in {@code 0 .. size()-1}
     */
    public ContactBatch setSeparation(int contact, float separation) {
        return set(ContactField.SEPARATION, contact, separation);
    }

    /**
     * The signed gap along the normal.
     *
     * @param contact the contact's index
     * @return metres; negative when the bodies overlap
     * @throws IndexOutOfBoundsException if {@code contact} is not in {@code 0 .. size()-1}
     */
    public float separation(int contact) {
        return get(ContactField.SEPARATION, contact);
    }

    /**
     * Sets the Coulomb friction coefficient {@code mu} (finite, {@code >= 0}; 0, the default, is
     * frictionless): the tangential impulse stays within {@code mu} times the normal impulse.
     *
     * @param contact the contact's index
     * @param mu the friction coefficient, dimensionless; checked when a solve starts
     * @return this batch
     * @throws IndexOutOfBoundsException if {@code contact} is not in {@code 0 .. size()-1}
     */
    public ContactBatch setFriction(int contact, float mu) {
        return set(ContactField.FRICTION, contact, mu);
    }

    /**
     * The Coulomb friction coefficient.
     *
     * @param contact the contact's index
     * @return {@code mu}; 0 for a frictionless contact
     * @throws IndexOutOfBoundsException if {@code contact} is not in {@code 0 .. size()-1}
     */
    public float friction(int contact) {
        return get(ContactField.FRICTION, contact);
    }

    /**
     * Sets the rolling resistance {@code rho}, a length in metres (finite, {@code >= 0}; default 0):
     * the iterative solver limits the angular impulse resisting relative rolling (about the contact
     * tangents; spin about the normal is not resisted) to
     * {@code rho} times the normal impulse. The single pass ignores it.
     *
     * @param contact the contact's index
     * @param rho the rolling lever arm, metres; checked when a solve starts
     * @return this batch
     * @throws IndexOutOfBoundsException if {@code contact} is not in {@code 0 .. size()-1}
     */
    public ContactBatch setRollingResistance(int contact, float rho) {
        return set(ContactField.ROLLING_RESISTANCE, contact, rho);
    }

    /**
     * The rolling resistance.
     *
     * @param contact the contact's index
     * @return {@code rho}, metres; 0 for a contact that resists no rolling
     * @throws IndexOutOfBoundsException if {@code contact} is not in {@code 0 .. size()-1}
     */
    public float rollingResistance(int contact) {
        return get(ContactField.ROLLING_RESISTANCE, contact);
    }

    /**
     * Sets the contact's id, which the iterative solver and the soft step match warm-start impulses
     * by ({@link ContactIds} hands out ids that persist from step to step) and which
     * {@code impulses.csv} carries. Ids must be distinct within a batch when a warm start is used.
     *
     * @param contact the contact's index
     * @param id any int; by default the contact's index
     * @return this batch
     * @throws IndexOutOfBoundsException if {@code contact} is not in {@code 0 .. size()-1}
     */
    public ContactBatch setId(int contact, int id) {
        check(contact);
        ids[contact] = id;
        return this;
    }

    /**
     * The contact's id.
     *
     * @param contact the contact's index
     * @return the id set by {@link #setId}, else the contact's index when it was added
     * @throws IndexOutOfBoundsException if {@code contact} is not in {@code 0 .. size()-1}
     */
    public int id(int contact) {
        check(contact);
        return ids[contact];
    }

    /**
     * Field {@code field} of contact {@code contact}.
     *
     * @param field which field, its unit as {@link ContactField} states
     * @param contact the contact's index
     * @return the stored value
     * @throws IndexOutOfBoundsException if {@code contact} is not in {@code 0 .. size()-1}
     */
    public float get(ContactField field, int contact) {
        check(contact);
        return floats.getFloat(field.ordinal(), contact);
    }

    /**
     * Sets field {@code field} of contact {@code contact}, unchecked until a solve starts; the other
     * components of a vector are left as they are.
     *
     * @param field which field, its unit as {@link ContactField} states
     * @param contact the contact's index
     * @param value the new value
     * @return this batch
     * @throws IndexOutOfBoundsException if {@code contact} is not in {@code 0 .. size()-1}
     */
    public ContactBatch set(ContactField field, int contact, float value) {
        check(contact);
        floats.setFloat(field.ordinal(), contact, value);
        return this;
    }

    /**
     * A read-only view of the float storage: field {@code f} of contact {@code c} is at absolute
     * index {@code f.ordinal() * capacity() + c}. The view is invalid after the batch grows.
     *
     * @return a read-only, native-order view of the whole float storage,
     *     {@code ContactField.COUNT * capacity()} floats
     */
    public FloatBuffer data() {
        return floats.floats().asReadOnlyBuffer();
    }

    /**
     * A read-only view of the body references, laid out like {@link #data()} by {@link ContactBody}:
     * body {@code s} of contact {@code c} is at absolute index {@code s.ordinal() * stride + c}, where
     * {@code stride} is the view's capacity divided by {@code ContactBody.COUNT} (the same as
     * {@link #capacity()} unless the batch has grown close to {@link #MAX_SIZE}). The view is invalid
     * after the batch grows.
     *
     * @return a read-only, native-order view of the whole body-reference storage
     */
    public IntBuffer bodies() {
        return links.ints().asReadOnlyBuffer();
    }

    FieldBlock floatBlock() {
        return floats;
    }

    FieldBlock linkBlock() {
        return links;
    }

    int[] idArray() {
        return ids;
    }

    private ContactBatch set3(int contact, ContactField first, float x, float y, float z) {
        check(contact);
        floats.setVector(first.ordinal(), contact, x, y, z);
        return this;
    }

    private Vector3f get3(int contact, ContactField first, Vector3f dest) {
        check(contact);
        return floats.getVector(first.ordinal(), contact, dest);
    }

    private void check(int contact) {
        Objects.checkIndex(contact, size);
    }
}
