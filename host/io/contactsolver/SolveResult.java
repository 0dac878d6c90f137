package io.contactsolver;

import io.contactsolver.core.FieldBlock;
import java.nio.FloatBuffer;
import java.util.Objects;
import org.joml.Vector3f;

/**
 * What a solve produces: the velocity change of every body (layout {@link DeltaField}) and the
 * impulse magnitude {@code j >= 0} of every contact, in input order. Reused across solves: the
 * storage grows when needed and is otherwise overwritten in place.
 */
public final class SolveResult {
    private final FieldBlock deltas = new FieldBlock(DeltaField.COUNT, 0);
    private final FieldBlock impulses = new FieldBlock(1, 0);
    private int bodyCount;
    private int contactCount;
    private Backend backend;

    public int bodyCount() {
        return bodyCount;
    }

    public int contactCount() {
        return contactCount;
    }

    /** The backend that computed this result: {@link Backend#CPU} or {@link Backend#OPENCL}. */
    public Backend backend() {
        return backend;
    }

    /** Change of linear velocity of {@code body}, world space. */
    public Vector3f getLinearDelta(int body, Vector3f dest) {
        return get3(body, DeltaField.DVX, dest);
    }

    /** Change of angular velocity of {@code body}, world space. */
    public Vector3f getAngularDelta(int body, Vector3f dest) {
        return get3(body, DeltaField.DWX, dest);
    }

    public float delta(DeltaField field, int body) {
        Objects.checkIndex(body, bodyCount);
        return deltas.getFloat(field.ordinal(), body);
    }

    /** Impulse magnitude of {@code contact}: body a received {@code -j n}, body b {@code +j n}. */
    public float impulse(int contact) {
        Objects.checkIndex(contact, contactCount);
        return impulses.floats().get(contact);
    }

    /**
     * A read-only view of the deltas: field {@code f} of body {@code i} is at absolute index
     * {@code f.ordinal() * deltaStride() + i}.
     */
    public FloatBuffer deltas() {
        return deltas.floats().asReadOnlyBuffer();
    }

    public int deltaStride() {
        return deltas.stride();
    }

    /** A read-only view of the impulses, one float per contact. */
    public FloatBuffer impulses() {
        return impulses.floats().asReadOnlyBuffer();
    }

    void prepare(int bodies, int contacts) {
        deltas.ensureCapacity(bodies, 0);
        impulses.ensureCapacity(contacts, 0);
        bodyCount = bodies;
        contactCount = contacts;
        backend = null;
    }

    void setBackend(Backend backend) {
        this.backend = backend;
    }

    FieldBlock deltaBlock() {
        return deltas;
    }

    FieldBlock impulseBlock() {
        return impulses;
    }

    private Vector3f get3(int body, DeltaField first, Vector3f dest) {
        Objects.checkIndex(body, bodyCount);
        return deltas.getVector(first.ordinal(), body, dest);
    }
}
