package io.contactsolver;

import io.contactsolver.core.BulkRange;
import io.contactsolver.core.FieldBlock;
import io.contactsolver.layout.ContactBody;
import io.contactsolver.layout.ContactField;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
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
 * coefficient, a rolling resistance and a torsional resistance (all 0 by default: frictionless).
 *
 * <p>Points of one contact manifold (the points of one body pair on one face, as Box3D, Jolt and
 * PhysX group them) are consecutive contacts given the same manifold number
 * ({@link #setManifold}); the soft step solves a manifold's normal impulses point by point and its
 * friction, twist and rolling resistance once, at its centre (docs/physics.md, "Soft step"). A
 * contact left at {@link #NO_MANIFOLD}, the default, is a manifold of its own.
 */
public final class ContactBatch {
    /** Body index standing for the static world. */
    public static final int WORLD = -1;
    /** The most contacts one batch holds, 53,687,090 (its fields live in one buffer of at most 2 GiB). */
    public static final int MAX_SIZE = FieldBlock.maxCapacity(ContactField.COUNT);
    /** The manifold number of a contact that forms a manifold of its own: the default. */
    public static final int NO_MANIFOLD = -1;
    /** The most points one manifold has. */
    public static final int MAX_MANIFOLD_POINTS = 4;

    private final FieldBlock floats;
    private final FieldBlock links;
    private int[] ids;
    private int[] manifolds;
    /**
     * Whether a live contact may have a manifold number: false from {@link #clear} until a number
     * is set, as adding and growing give {@link #NO_MANIFOLD}.
     */
    private boolean numbered;
    private int size;
    /** The ids' stamp ({@link #idsStamp}), or 0 where they may have been written since it was drawn. */
    private long idsStamp;
    /** Stamps for every batch's ids are drawn from one counter: no two id contents share one. */
    private static final AtomicLong ID_STAMPS = new AtomicLong();

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
        this.manifolds = new int[initialCapacity];
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
        numbered = false;
        return this;
    }

    /**
     * Appends a contact and returns its index; its id is set to that index, and it forms a
     * manifold of its own. Separation, friction, rolling and torsional resistance start at 0. Nothing is checked until a solve starts (see
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
     * Appends a contact with every per-contact field and returns its index: what
     * {@link #add(int, int, Vector3fc, Vector3fc, float)} followed by {@link #setSeparation},
     * {@link #setFriction}, {@link #setRollingResistance} and {@link #setId} would store, in one call.
     * The values are checked when a solve starts, like every other setter's.
     *
     * @param bodyA first body index, or {@link #WORLD}
     * @param bodyB second body index, or {@link #WORLD}
     * @param point contact point, world space
     * @param normal unit normal from {@code bodyA} to {@code bodyB}
     * @param restitution coefficient of restitution in [0, 1]
     * @param separation signed gap along the normal in metres, negative for overlap
     * @param friction Coulomb friction coefficient {@code mu >= 0} (0: frictionless)
     * @param rollingResistance rolling resistance {@code rho >= 0} in metres (0: none)
     * @param id the contact's persistent id, for warm starting (see {@link ContactIds})
     * @return the new contact's index
     */
    public int add(int bodyA, int bodyB, Vector3fc point, Vector3fc normal, float restitution, float separation,
            float friction, float rollingResistance, int id) {
        int c = add(bodyA, bodyB, point.x(), point.y(), point.z(), normal.x(), normal.y(), normal.z(), restitution);
        floats.setFloat(ContactField.SEPARATION.ordinal(), c, separation);
        floats.setFloat(ContactField.FRICTION.ordinal(), c, friction);
        floats.setFloat(ContactField.ROLLING_RESISTANCE.ordinal(), c, rollingResistance);
        ids[c] = id;
        idsStamp = 0;
        return c;
    }

    /**
     * Makes the batch hold {@code newSize} contacts, for filling it field by field with the bulk
     * setters: contacts beyond the old size are added with every float field 0, both bodies
     * {@link #WORLD} (which a solve refuses until they are set) and their index as id; contacts
     * beyond the new size are dropped.
     *
     * @param newSize the number of contacts, from 0 to {@link #MAX_SIZE}
     * @return this
     * @throws IllegalArgumentException if {@code newSize} is negative or above {@link #MAX_SIZE}
     */
    public ContactBatch setSize(int newSize) {
        if (newSize < 0 || newSize > MAX_SIZE) {
            throw new IllegalArgumentException("size must be between 0 and " + MAX_SIZE + ", got " + newSize);
        }
        ensureCapacity(newSize);
        int old = size;
        size = newSize;
        if (newSize > old) {
            int count = newSize - old;
            for (ContactField f : ContactField.values()) {
                floats.fill(f.ordinal(), old, count, 0.0f);
            }
            for (ContactBody side : ContactBody.values()) {
                links.fillInts(side.ordinal(), old, count, WORLD);
            }
            for (int c = old; c < newSize; c++) {
                ids[c] = c;
            }
            idsStamp = 0;
            Arrays.fill(manifolds, old, newSize, NO_MANIFOLD);
        }
        return this;
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
        ensureCapacity(size + 1);
        int c = size++;
        ids[c] = c;
        idsStamp = 0;
        manifolds[c] = NO_MANIFOLD;
        setBodies(c, bodyA, bodyB);
        setPoint(c, px, py, pz);
        setNormal(c, nx, ny, nz);
        setRestitution(c, restitution);
        setSeparation(c, 0.0f);
        setFriction(c, 0.0f);
        setRollingResistance(c, 0.0f);
        setTorsion(c, 0.0f);
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
     * ({@link RigidSettings#withPositionalCorrection}) and by the soft step; otherwise ignored.
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
     * Sets the torsional resistance: a lever arm in metres, the radius over which the contact
     * grips (for a sphere, about its contact patch's radius), limiting the twist about the normal
     * to {@code tau j}. Checked when a solve starts: finite and {@code >= 0}. Used by the iterative
     * solver and the soft step; the single pass, an impact law, ignores it.
     *
     * @param contact the contact's index
     * @param tau {@code >= 0}, metres; 0 (the default) resists no twist beyond what a manifold's
     *     spread points give
     * @return this batch
     * @throws IndexOutOfBoundsException if {@code contact} is not in {@code 0 .. size()-1}
     */
    public ContactBatch setTorsion(int contact, float tau) {
        return set(ContactField.TORSION, contact, tau);
    }

    /**
     * The torsional resistance.
     *
     * @param contact the contact's index
     * @return {@code tau}, metres
     * @throws IndexOutOfBoundsException if {@code contact} is not in {@code 0 .. size()-1}
     */
    public float torsion(int contact) {
        return get(ContactField.TORSION, contact);
    }

    /**
     * Puts the contact in a manifold: consecutive contacts with the same manifold number
     * {@code >= 0} are the points of one manifold. Checked when a solve starts: a manifold has at
     * most {@link #MAX_MANIFOLD_POINTS} points, all between the same two bodies, with the same
     * normal, restitution, friction, rolling and torsional resistance (bit for bit). Any number
     * will do (the first point's index, a body pair's counter); only runs of equal numbers count.
     * The soft step solves a manifold's friction, twist and rolling resistance at its centre; the
     * single pass and the iterative solver solve every point on its own.
     *
     * @param contact the contact's index
     * @param manifold the manifold's number, or {@link #NO_MANIFOLD} (the default) for a manifold of
     *     its own
     * @return this batch
     * @throws IndexOutOfBoundsException if {@code contact} is not in {@code 0 .. size()-1}
     */
    public ContactBatch setManifold(int contact, int manifold) {
        check(contact);
        manifolds[contact] = manifold;
        numbered |= manifold != NO_MANIFOLD;
        return this;
    }

    /**
     * The contact's manifold number.
     *
     * @param contact the contact's index
     * @return the number set by {@link #setManifold}, else {@link #NO_MANIFOLD}
     * @throws IndexOutOfBoundsException if {@code contact} is not in {@code 0 .. size()-1}
     */
    public int manifold(int contact) {
        check(contact);
        return manifolds[contact];
    }

    /**
     * Sets the contact's id, which the iterative solver and the soft step match warm-start impulses
     * by ({@link ContactIds} hands out ids that persist from step to step) and which
     * {@code impulses.csv} carries. The iterative solver and the soft step refuse a batch whose ids
     * are not distinct, warm started or not (a result is the next call's warm start); the single
     * pass reads no id.
     *
     * @param contact the contact's index
     * @param id any int; by default the contact's index
     * @return this batch
     * @throws IndexOutOfBoundsException if {@code contact} is not in {@code 0 .. size()-1}
     */
    public ContactBatch setId(int contact, int id) {
        check(contact);
        ids[contact] = id;
        idsStamp = 0;
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

    // ---- bulk access: one field of many contacts ----------------------------------------------

    /**
     * Sets field {@code field} of every contact from {@code src[0 .. size()-1]}.
     *
     * @param field the field to write
     * @param src one value per contact, in contact order; at least {@link #size()} long
     * @return this
     * @throws IndexOutOfBoundsException if {@code src} is shorter than {@link #size()}
     */
    public ContactBatch set(ContactField field, float[] src) {
        return set(field, 0, src, 0, 1, size);
    }

    /**
     * Sets field {@code field} of contacts {@code firstContact .. firstContact+count-1} from
     * {@code src[srcOffset .. srcOffset+count-1]}. The ranges are checked once, before any value is
     * written; the values themselves are checked when a solve starts.
     *
     * @param field the field to write
     * @param firstContact index of the first contact written
     * @param src the values, in contact order
     * @param srcOffset index in {@code src} of the first contact's value
     * @param count number of contacts written
     * @return this
     * @throws IndexOutOfBoundsException if a range does not fit (nothing is written)
     */
    public ContactBatch set(ContactField field, int firstContact, float[] src, int srcOffset, int count) {
        return set(field, firstContact, src, srcOffset, 1, count);
    }

    /**
     * As {@link #set(ContactField, int, float[], int, int)}, taking every {@code srcStride}-th value
     * of {@code src}: for interleaved data such as points as {@code x0 y0 z0 x1 y1 z1 ...} (stride 3).
     *
     * @param field the field to write
     * @param firstContact index of the first contact written
     * @param src the values
     * @param srcOffset index in {@code src} of the first contact's value
     * @param srcStride distance in {@code src} between two consecutive contacts' values, at least 1
     * @param count number of contacts written
     * @return this
     * @throws IndexOutOfBoundsException if a range does not fit (nothing is written)
     * @throws IllegalArgumentException if {@code srcStride} is below 1
     */
    public ContactBatch set(ContactField field, int firstContact, float[] src, int srcOffset, int srcStride,
            int count) {
        BulkRange.elements("contacts", firstContact, count, size);
        BulkRange.array("src", src.length, srcOffset, srcStride, count);
        floats.setFloats(field.ordinal(), firstContact, count, src, srcOffset, srcStride);
        return this;
    }

    /**
     * Sets field {@code field} of contacts {@code firstContact .. firstContact+count-1} from
     * {@code src}, starting at its absolute index {@code srcIndex}; the buffer's position is left as
     * it was.
     *
     * @param field the field to write
     * @param firstContact index of the first contact written
     * @param src the values, in contact order
     * @param srcIndex absolute index in {@code src} of the first contact's value
     * @param count number of contacts written
     * @return this
     * @throws IndexOutOfBoundsException if a range does not fit (nothing is written)
     */
    public ContactBatch set(ContactField field, int firstContact, FloatBuffer src, int srcIndex, int count) {
        BulkRange.elements("contacts", firstContact, count, size);
        BulkRange.buffer("src", src, srcIndex, count, false);
        floats.setFloats(field.ordinal(), firstContact, count, src, srcIndex);
        return this;
    }

    /**
     * Sets body {@code side} of contacts {@code firstContact .. firstContact+count-1} from
     * {@code src[srcOffset .. srcOffset+count-1]}: body indices, or {@link #WORLD}; checked when a
     * solve starts.
     *
     * @param side which of the contact's two bodies
     * @param firstContact index of the first contact written
     * @param src body indices, in contact order
     * @param srcOffset index in {@code src} of the first contact's body
     * @param count number of contacts written
     * @return this
     * @throws IndexOutOfBoundsException if a range does not fit (nothing is written)
     */
    public ContactBatch set(ContactBody side, int firstContact, int[] src, int srcOffset, int count) {
        BulkRange.elements("contacts", firstContact, count, size);
        BulkRange.array("src", src.length, srcOffset, 1, count);
        links.setInts(side.ordinal(), firstContact, count, src, srcOffset);
        return this;
    }

    /**
     * As {@link #set(ContactBody, int, int[], int, int)} from a buffer, at its absolute index
     * {@code srcIndex}; the buffer's position is left as it was.
     *
     * @param side which of the contact's two bodies
     * @param firstContact index of the first contact written
     * @param src body indices, in contact order
     * @param srcIndex absolute index in {@code src} of the first contact's body
     * @param count number of contacts written
     * @return this
     * @throws IndexOutOfBoundsException if a range does not fit (nothing is written)
     */
    public ContactBatch set(ContactBody side, int firstContact, IntBuffer src, int srcIndex, int count) {
        BulkRange.elements("contacts", firstContact, count, size);
        BulkRange.buffer("src", src, srcIndex, count, false);
        links.setInts(side.ordinal(), firstContact, count, src, srcIndex);
        return this;
    }

    /**
     * Sets the ids of contacts {@code firstContact .. firstContact+count-1} from
     * {@code src[srcOffset .. srcOffset+count-1]}.
     *
     * @param firstContact index of the first contact written
     * @param src ids, in contact order
     * @param srcOffset index in {@code src} of the first contact's id
     * @param count number of contacts written
     * @return this
     * @throws IndexOutOfBoundsException if a range does not fit (nothing is written)
     */
    public ContactBatch setIds(int firstContact, int[] src, int srcOffset, int count) {
        BulkRange.elements("contacts", firstContact, count, size);
        BulkRange.array("src", src.length, srcOffset, 1, count);
        System.arraycopy(src, srcOffset, ids, firstContact, count);
        idsStamp = 0;
        return this;
    }

    /**
     * Sets the manifold numbers of contacts {@code firstContact .. firstContact+count-1} from
     * {@code src[srcOffset .. srcOffset+count-1]} (see {@link #setManifold}).
     *
     * @param firstContact index of the first contact written
     * @param src manifold numbers, in contact order
     * @param srcOffset index in {@code src} of the first contact's number
     * @param count number of contacts written
     * @return this
     * @throws IndexOutOfBoundsException if a range does not fit (nothing is written)
     */
    public ContactBatch setManifolds(int firstContact, int[] src, int srcOffset, int count) {
        BulkRange.elements("contacts", firstContact, count, size);
        BulkRange.array("src", src.length, srcOffset, 1, count);
        System.arraycopy(src, srcOffset, manifolds, firstContact, count);
        numbered |= count > 0;
        return this;
    }

    /**
     * Reads the manifold numbers of contacts {@code firstContact .. firstContact+count-1} into
     * {@code dest[destOffset .. destOffset+count-1]}.
     *
     * @param firstContact index of the first contact read
     * @param dest receives the manifold numbers
     * @param destOffset index in {@code dest} of the first contact's number
     * @param count number of contacts read
     * @return {@code dest}
     * @throws IndexOutOfBoundsException if a range does not fit (nothing is written)
     */
    public int[] getManifolds(int firstContact, int[] dest, int destOffset, int count) {
        BulkRange.elements("contacts", firstContact, count, size);
        BulkRange.array("dest", dest.length, destOffset, 1, count);
        System.arraycopy(manifolds, firstContact, dest, destOffset, count);
        return dest;
    }

    /**
     * Reads field {@code field} of every contact into {@code dest[0 .. size()-1]}.
     *
     * @param field the field to read
     * @param dest receives one value per contact; at least {@link #size()} long
     * @return {@code dest}
     * @throws IndexOutOfBoundsException if {@code dest} is shorter than {@link #size()}
     */
    public float[] get(ContactField field, float[] dest) {
        return get(field, 0, dest, 0, 1, size);
    }

    /**
     * Reads field {@code field} of contacts {@code firstContact .. firstContact+count-1} into
     * {@code dest[destOffset .. destOffset+count-1]}.
     *
     * @param field the field to read
     * @param firstContact index of the first contact read
     * @param dest receives the values, in contact order
     * @param destOffset index in {@code dest} of the first contact's value
     * @param count number of contacts read
     * @return {@code dest}
     * @throws IndexOutOfBoundsException if a range does not fit (nothing is written)
     */
    public float[] get(ContactField field, int firstContact, float[] dest, int destOffset, int count) {
        return get(field, firstContact, dest, destOffset, 1, count);
    }

    /**
     * Reads field {@code field} of contacts {@code firstContact .. firstContact+count-1} into
     * {@code dest}, every {@code destStride}-th element from {@code destOffset} (1: packed).
     *
     * @param field the field to read
     * @param firstContact index of the first contact read
     * @param dest receives the values
     * @param destOffset index in {@code dest} of the first contact's value
     * @param destStride distance in {@code dest} between two consecutive contacts' values, at least 1
     * @param count number of contacts read
     * @return {@code dest}
     * @throws IndexOutOfBoundsException if a range does not fit (nothing is written)
     * @throws IllegalArgumentException if {@code destStride} is below 1
     */
    public float[] get(ContactField field, int firstContact, float[] dest, int destOffset, int destStride, int count) {
        BulkRange.elements("contacts", firstContact, count, size);
        BulkRange.array("dest", dest.length, destOffset, destStride, count);
        floats.getFloats(field.ordinal(), firstContact, count, dest, destOffset, destStride);
        return dest;
    }

    /**
     * Reads body {@code side} of contacts {@code firstContact .. firstContact+count-1} into
     * {@code dest[destOffset .. destOffset+count-1]}.
     *
     * @param side which of the contact's two bodies
     * @param firstContact index of the first contact read
     * @param dest receives body indices ({@link #WORLD} for the world)
     * @param destOffset index in {@code dest} of the first contact's body
     * @param count number of contacts read
     * @return {@code dest}
     * @throws IndexOutOfBoundsException if a range does not fit (nothing is written)
     */
    public int[] get(ContactBody side, int firstContact, int[] dest, int destOffset, int count) {
        BulkRange.elements("contacts", firstContact, count, size);
        BulkRange.array("dest", dest.length, destOffset, 1, count);
        links.getInts(side.ordinal(), firstContact, count, dest, destOffset);
        return dest;
    }

    /**
     * Reads the ids of contacts {@code firstContact .. firstContact+count-1} into
     * {@code dest[destOffset .. destOffset+count-1]}.
     *
     * @param firstContact index of the first contact read
     * @param dest receives the ids
     * @param destOffset index in {@code dest} of the first contact's id
     * @param count number of contacts read
     * @return {@code dest}
     * @throws IndexOutOfBoundsException if a range does not fit (nothing is written)
     */
    public int[] getIds(int firstContact, int[] dest, int destOffset, int count) {
        BulkRange.elements("contacts", firstContact, count, size);
        BulkRange.array("dest", dest.length, destOffset, 1, count);
        System.arraycopy(ids, firstContact, dest, destOffset, count);
        return dest;
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

    /**
     * A number for the ids as they are: drawn anew (from one counter for every batch) after any
     * write to them, so two equal stamps mean the same ids in the same places. Lets a step skip
     * comparing ids it has checked already.
     */
    long idsStamp() {
        if (idsStamp == 0) {
            idsStamp = ID_STAMPS.incrementAndGet();
        }
        return idsStamp;
    }

    /** False where every contact has {@link #NO_MANIFOLD}, known without reading them; true where some may not. */
    boolean numbered() {
        return numbered;
    }

    int[] manifoldArray() {
        return manifolds;
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

    /** Grows the fields, the body references, the ids and the manifold numbers alike, keeping the live contacts. */
    private void ensureCapacity(int capacity) {
        floats.ensureCapacity(capacity, size);
        links.ensureCapacity(capacity, size);
        if (ids.length < floats.stride()) {
            ids = Arrays.copyOf(ids, floats.stride());
            idsStamp = 0;
            manifolds = Arrays.copyOf(manifolds, floats.stride());
        }
    }

    private void check(int contact) {
        Objects.checkIndex(contact, size);
    }
}
