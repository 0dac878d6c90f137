package io.contactsolver.cpu;

import io.contactsolver.ContactBody;
import io.contactsolver.DeltaField;
import io.contactsolver.core.FieldBlock;
import io.contactsolver.core.ParallelRunner;
import io.contactsolver.core.PreparedBodyField;
import io.contactsolver.core.SolveJob;
import io.contactsolver.core.SolverBackend;
import io.contactsolver.cpu.BodyMath.ContactSide;
import java.util.Arrays;

/**
 * The multi-threaded Java backend. Each phase is a parallel loop in which every output element is
 * written from exactly one index, so results do not depend on the thread count. Working arrays are
 * kept between solves and only grow; nothing is allocated per body or per contact.
 */
public final class CpuBackend implements SolverBackend {
    private static final int GRAIN = 1 << 12;

    private final ParallelRunner runner;
    private float[] prepared = new float[PreparedBodyField.STRIDE];
    private float[] responses = new float[0];

    /** A backend that runs its loops on {@code runner}, which the caller keeps ownership of. */
    public CpuBackend(ParallelRunner runner) {
        this.runner = runner;
    }

    @Override
    public String description() {
        return "CPU (" + runner.threads() + (runner.threads() == 1 ? " thread)" : " threads)");
    }

    @Override
    public void solveSinglePass(SolveJob job) {
        int bodyCount = job.bodyCount();
        int contactCount = job.contactCount();
        prepareBodies(job.bodies(), bodyCount);
        responses = grow(responses, (long) contactCount * ContactBody.COUNT * DeltaField.COUNT);
        float[] prep = prepared;
        float[] resp = responses;
        FieldBlock contacts = job.contacts();
        FieldBlock links = job.links();
        runner.forRange(contactCount, GRAIN, (from, to) -> {
            ContactSide sideA = new ContactSide();
            ContactSide sideB = new ContactSide();
            for (int c = from; c < to; c++) {
                SinglePass.solveContact(contacts.floats(), links.ints(), contacts.stride(), c, bodyCount, prep,
                        job.impulses().floats(), resp, sideA, sideB);
            }
        });
        int[] offsets = job.index().offsets();
        int[] entries = job.index().entries();
        FieldBlock deltas = job.deltas();
        runner.forRange(bodyCount, GRAIN, (from, to) -> {
            for (int i = from; i < to; i++) {
                SinglePass.gatherBody(offsets, entries, resp, i, deltas.floats(), deltas.stride());
            }
        });
    }

    /** Fills the working records of all bodies plus the all-zero world record after them. */
    private void prepareBodies(FieldBlock bodies, int bodyCount) {
        prepared = grow(prepared, (long) (bodyCount + 1) * PreparedBodyField.STRIDE);
        float[] prep = prepared;
        runner.forRange(bodyCount, GRAIN, (from, to) -> {
            for (int i = from; i < to; i++) {
                BodyMath.prepareBody(bodies.floats(), bodies.stride(), i, prep);
            }
        });
        int world = bodyCount * PreparedBodyField.STRIDE;
        Arrays.fill(prep, world, world + PreparedBodyField.STRIDE, 0.0f);
    }

    private static float[] grow(float[] array, long length) {
        if (length > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("working array of " + length + " floats is too large; split the batch");
        }
        return array.length >= length ? array : new float[(int) length];
    }

    @Override
    public void close() {
        prepared = new float[PreparedBodyField.STRIDE];
        responses = new float[0];
    }
}
