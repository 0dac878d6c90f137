package io.contactsolver.opencl;

import static org.jocl.CL.CL_TRUE;
import static org.jocl.CL.clEnqueueFillBuffer;
import static org.jocl.CL.clEnqueueReadBuffer;
import static org.jocl.CL.clFinish;

import io.contactsolver.core.BackendFailureException;
import io.contactsolver.core.ContactColoring;
import io.contactsolver.core.MovableBodies;
import java.nio.IntBuffer;
import org.jocl.Pointer;
import org.jocl.Sizeof;
import org.jocl.cl_mem;

/**
 * The soft step's colouring in the hashed order, on the device ({@code kernels/colouring.cl}): the
 * rows' bodies and the movable flags go up (through the solves' {@link Transfers}: staged, and the
 * flags shared with the soft step at their version), the rows claim their bodies, rounds of one
 * launch each run until every row has its colour, and the colours come back into the host's array,
 * from which the host lays the rows out as for any colouring. The colours are those of the host's pass
 * ({@link ContactColoring.HashedColouring#colourOnHost}).
 *
 * <p>Each round colours at least the row of lowest priority still uncoloured, so the rounds end; a
 * scattered order ends them in a few tens. The count of coloured rows is read after each batch of
 * {@value #BATCH} rounds: the rounds run past the last are passes over coloured rows that do nothing.
 */
final class DeviceColouring {
    /** Rounds between reads of the count. */
    private static final int BATCH = 8;

    private final OpenClProgram cl;
    private final DeviceMemory memory;
    private final DeviceBuffer pairA;
    private final DeviceBuffer pairB;
    private final DeviceBuffer colours;
    /** Each body's lowest priority among its uncoloured rows: three arrays taking turns ({@code kernels/colouring.cl}). */
    private final DeviceBuffer[] lowest = new DeviceBuffer[3];
    private final DeviceBuffer masks;
    private final DeviceBuffer done;
    private int rounds;
    private int colourings;

    DeviceColouring(OpenClProgram cl, DeviceMemory memory) {
        this.cl = cl;
        this.memory = memory;
        this.pairA = memory.buffer("colouring's bodies A");
        this.pairB = memory.buffer("colouring's bodies B");
        this.colours = memory.buffer("colours");
        for (int k = 0; k < lowest.length; k++) {
            this.lowest[k] = memory.buffer("colouring's lowest priorities");
        }
        this.masks = memory.buffer("colouring's masks");
        this.done = memory.buffer("colouring's count");
    }

    /** Fills in {@code colouring}'s colours on the device; blocks until they are back. */
    void colour(ContactColoring.HashedColouring colouring) {
        int count = colouring.count();
        MovableBodies bodies = colouring.movable();
        int bodyCount = bodies.bodyCount();
        rounds = 0;
        colourings++;
        if (count == 0) {
            return;
        }
        Transfers transfers = memory.transfers;
        cl_mem a = transfers.uploadInts(pairA, colouring.pairA(), count);
        cl_mem b = transfers.uploadInts(pairB, colouring.pairB(), count);
        cl_mem flagsMem = memory.movableFlags(bodies, bodyCount);
        cl_mem coloursMem = allOnes(colours, (long) count * Sizeof.cl_int);
        cl_mem[] lowestMem = new cl_mem[lowest.length];
        for (int k = 0; k < lowest.length; k++) {
            lowestMem[k] = allOnes(lowest[k], Math.max(1L, bodyCount) * Sizeof.cl_int);
        }
        cl_mem masksMem = memory.zeroed(masks, Math.max(1L, bodyCount) * Sizeof.cl_long);
        cl_mem doneMem = memory.zeroed(done, Sizeof.cl_int);
        Kernels.ColourRows rows = new Kernels.ColourRows(a, b, flagsMem, count, colouring.budget(), coloursMem);
        cl.kernels.colourClaim(rows, lowestMem[0]);
        int[] coloured = new int[1];
        int before = 0;
        while (coloured[0] < count) {
            for (int round = rounds; round < rounds + BATCH; round++) {
                cl.kernels.colourRound(rows, bodyCount, lowestMem[round % 3], lowestMem[(round + 1) % 3],
                        lowestMem[(round + 2) % 3], masksMem, doneMem);
            }
            rounds += BATCH;
            clEnqueueReadBuffer(cl.queue, doneMem, CL_TRUE, 0, Sizeof.cl_int, Pointer.to(coloured), 0, null, null);
            // every round colours the lowest row still uncoloured: a batch that colours none is a device at fault
            if (coloured[0] <= before || coloured[0] > count) {
                throw new BackendFailureException("the device's colouring stopped at " + coloured[0] + " of " + count
                        + " manifolds after " + rounds + " rounds", null);
            }
            before = coloured[0];
        }
        // through staging, pinned on a GPU, as the solves' readbacks
        IntBuffer back = transfers.hostInts(count);
        transfers.downloadInts(coloursMem, back, count);
        clFinish(cl.queue);
        back.get(0, colouring.colours(), 0, count);
    }

    /** {@code target} with at least {@code bytes}, every bit of them set: -1 as an int, the highest priority unsigned. */
    private cl_mem allOnes(DeviceBuffer target, long bytes) {
        cl_mem buffer = target.require(bytes);
        target.forgetHeld();
        clEnqueueFillBuffer(cl.queue, buffer, Pointer.to(new int[] {-1}), Sizeof.cl_int, 0, bytes, 0, null, null);
        return buffer;
    }

    /**
     * The rounds the last colouring ran, a whole number of batches (the last batch's last rounds may
     * have found nothing left).
     */
    int rounds() {
        return rounds;
    }

    /** How many colourings this device has made. */
    int colourings() {
        return colourings;
    }
}
