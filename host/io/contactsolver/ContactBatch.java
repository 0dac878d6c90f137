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
    /** The most contacts one batch holds (its fields live in one buffer of at most 2 GiB). */
    public static final int MAX_SIZE = FieldBlock.maxCapacity(ContactField.COUNT);

    private final FieldBlock floats;
    private final FieldBlock links;
    private int[] ids;
    private int size;

    /** An empty batch with room for 16 contacts; it grows as contacts are added. */
    public ContactBatch() {
        this(16);
    }

    /** An empty batch with room for {@code initialCapacity} contacts; it grows as contacts are added. */
    public ContactBatch(int initialCapacity) {
        this.floats = new FieldBlock(ContactField.COUNT, initialCapacity);
        this.links = new FieldBlock(ContactBody.COUNT, initialCapacity);
        this.ids = new int[initialCapacity];
    }

    public int size() {
        return size;
    }

    public int capacity() {
        return floats.stride();
    }

    /** Removes all contacts, keeping the storage. */
    public ContactBatch clear() {
        size = 0;
        return this;
    }

    /**
     * Appends a contact and returns its index; its id is set to that index.
     *
     * @param bodyA first body index, or {@link #WORLD}
     * @param bodyB second body index, or {@link #WORLD}
     * @param point contact point, world space
     * @param normal unit normal from {@code bodyA} to {@code bodyB}
     * @param restitution coefficient of restitution in [0, 1]
     */
    public int add(int bodyA, int bodyB, Vector3fc point, Vector3fc normal, float restitution) {
        return add(bodyA, bodyB, point.x(), point.y(), point.z(), normal.x(), normal.y(), normal.z(), restitution);
    }

    /** {@link #add(int, int, Vector3fc, Vector3fc, float)} without vector arguments. */
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

    public ContactBatch setBodies(int contact, int bodyA, int bodyB) {
        check(contact);
        links.setInt(ContactBody.A.ordinal(), contact, bodyA);
        links.setInt(ContactBody.B.ordinal(), contact, bodyB);
        return this;
    }

    public int bodyA(int contact) {
        return body(ContactBody.A, contact);
    }

    public int bodyB(int contact) {
        return body(ContactBody.B, contact);
    }

    public int body(ContactBody side, int contact) {
        check(contact);
        return links.getInt(side.ordinal(), contact);
    }

    public ContactBatch setPoint(int contact, float x, float y, float z) {
        return set3(contact, ContactField.PX, x, y, z);
    }

    public ContactBatch setPoint(int contact, Vector3fc point) {
        return setPoint(contact, point.x(), point.y(), point.z());
    }

    public Vector3f getPoint(int contact, Vector3f dest) {
        return get3(contact, ContactField.PX, dest);
    }

    /** Sets the normal, which must be unit length (within 1e-3) and point from body a to body b. */
    public ContactBatch setNormal(int contact, float x, float y, float z) {
        return set3(contact, ContactField.NX, x, y, z);
    }

    public ContactBatch setNormal(int contact, Vector3fc normal) {
        return setNormal(contact, normal.x(), normal.y(), normal.z());
    }

    public Vector3f getNormal(int contact, Vector3f dest) {
        return get3(contact, ContactField.NX, dest);
    }

    public ContactBatch setRestitution(int contact, float restitution) {
        return set(ContactField.RESTITUTION, contact, restitution);
    }

    public float restitution(int contact) {
        return get(ContactField.RESTITUTION, contact);
    }

    /** Sets the signed gap along the normal (negative: overlap), used by positional correction. */
    public ContactBatch setSeparation(int contact, float separation) {
        return set(ContactField.SEPARATION, contact, separation);
    }

    public float separation(int contact) {
        return get(ContactField.SEPARATION, contact);
    }

    /**
     * Sets the Coulomb friction coefficient {@code mu} (finite, {@code >= 0}; 0, the default, is
     * frictionless): the tangential impulse stays within {@code mu} times the normal impulse.
     */
    public ContactBatch setFriction(int contact, float mu) {
        return set(ContactField.FRICTION, contact, mu);
    }

    public float friction(int contact) {
        return get(ContactField.FRICTION, contact);
    }

    /**
     * Sets the rolling resistance {@code rho}, a length in metres (finite, {@code >= 0}; default 0):
     * the iterative solver limits the angular impulse resisting relative rolling (about the contact
     * tangents; spin about the normal is not resisted) to
     * {@code rho} times the normal impulse. The single pass ignores it.
     */
    public ContactBatch setRollingResistance(int contact, float rho) {
        return set(ContactField.ROLLING_RESISTANCE, contact, rho);
    }

    public float rollingResistance(int contact) {
        return get(ContactField.ROLLING_RESISTANCE, contact);
    }

    public ContactBatch setId(int contact, int id) {
        check(contact);
        ids[contact] = id;
        return this;
    }

    public int id(int contact) {
        check(contact);
        return ids[contact];
    }

    public float get(ContactField field, int contact) {
        check(contact);
        return floats.getFloat(field.ordinal(), contact);
    }

    public ContactBatch set(ContactField field, int contact, float value) {
        check(contact);
        floats.setFloat(field.ordinal(), contact, value);
        return this;
    }

    /**
     * A read-only view of the float storage: field {@code f} of contact {@code c} is at absolute
     * index {@code f.ordinal() * capacity() + c}. The view is invalid after the batch grows.
     */
    public FloatBuffer data() {
        return floats.floats().asReadOnlyBuffer();
    }

    /** A read-only view of the body references, laid out like {@link #data()} by {@link ContactBody}. */
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
