package io.contactsolver.opencl;

import io.contactsolver.core.BodyContactIndex;
import io.contactsolver.core.SinglePassJob;
import io.contactsolver.layout.ContactBody;
import io.contactsolver.layout.ContactField;
import io.contactsolver.layout.DeltaField;
import io.contactsolver.layout.ImpulseField;
import org.jocl.Sizeof;
import org.jocl.cl_mem;

/**
 * The single pass on the device ({@code kernels/single_pass.cl}): the prepared bodies, then, chunk
 * by chunk of contacts, every contact's impulses and responses and each body's running sum in the
 * host-built index order. Contact batches larger than the device's largest allocation go through
 * in several chunks with the same bits.
 */
final class SinglePassPipeline {
    private final Kernels kernels;
    private final DeviceMemory memory;
    private final Transfers transfers;
    private final DeviceBuffer responses;
    private final DeviceBuffer offsets;
    private final DeviceBuffer entries;
    private final DeviceBuffer cursor;

    SinglePassPipeline(OpenClProgram cl, DeviceMemory memory) {
        this.kernels = cl.kernels;
        this.memory = memory;
        this.transfers = memory.transfers;
        this.responses = memory.buffer("responses");
        this.offsets = memory.buffer("index offsets");
        this.entries = memory.buffer("index entries");
        this.cursor = memory.buffer("index cursors");
    }

    void solve(SinglePassJob job, Stage stage) {
        stage.enter("upload");
        int bodyCount = job.bodyCount();
        int contactCount = job.contactCount();
        BodyContactIndex index = job.index();
        DeviceMemory.BodyMemory body = memory.uploadBodies(job);
        cl_mem offsetMem = transfers.uploadInts(offsets, index.offsets(), bodyCount + 1);
        cl_mem entryMem = transfers.uploadInts(entries, index.entries(), index.entryCount());
        cl_mem cursorMem = transfers.uploadInts(cursor, index.offsets(), bodyCount);
        cl_mem deltaMem = memory.zeroed(memory.deltas, (long) bodyCount * DeltaField.COUNT * Sizeof.cl_float);
        int chunk = memory.perAllocation((long) ContactBody.COUNT * DeltaField.COUNT * Sizeof.cl_float);

        stage.enter("kernels");
        transfers.kernelsBegin();
        memory.prepareBodies(bodyCount, body);
        for (int first = 0; first < contactCount; first += chunk) {
            int count = Math.min(chunk, contactCount - first);
            boolean whole = count == contactCount;
            cl_mem contactMem = whole ? transfers.uploadBlock(memory.contacts, job.contacts(), count, ContactField.COUNT)
                    : transfers.uploadRange(memory.contacts, job.contacts(), first, count, ContactField.COUNT);
            cl_mem linkMem = whole ? transfers.uploadBlock(memory.links, job.links(), count, ContactBody.COUNT)
                    : transfers.uploadRange(memory.links, job.links(), first, count, ContactBody.COUNT);
            cl_mem impulseMem = memory.impulses.require((long) count * ImpulseField.COUNT * Sizeof.cl_float);
            cl_mem responseMem = responses.require(
                    (long) count * ContactBody.COUNT * DeltaField.COUNT * Sizeof.cl_float);
            kernels.solveContacts(count, new Kernels.ContactBlock(contactMem, linkMem, count), count,
                    new Kernels.PreparedBodies(body.prepared(), bodyCount), job.targets(), job.friction().friction(),
                    impulseMem, responseMem);
            kernels.gatherChunk(bodyCount, cursorMem, offsetMem, entryMem, responseMem, new Kernels.Span(first, count),
                    bodyCount, new Kernels.Strided(deltaMem, bodyCount));
            memory.downloadImpulses(impulseMem, job, first, count, count);
        }
        transfers.kernelsDone();

        stage.enter("readback");
        memory.readResults(job, deltaMem);
    }
}
