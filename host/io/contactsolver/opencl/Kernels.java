package io.contactsolver.opencl;

import static org.jocl.CL.CL_KERNEL_ARG_ADDRESS_GLOBAL;
import static org.jocl.CL.CL_KERNEL_ARG_ADDRESS_LOCAL;
import static org.jocl.CL.CL_KERNEL_ARG_ADDRESS_QUALIFIER;
import static org.jocl.CL.CL_KERNEL_ARG_INFO_NOT_AVAILABLE;
import static org.jocl.CL.CL_KERNEL_ARG_TYPE_NAME;
import static org.jocl.CL.CL_KERNEL_NUM_ARGS;
import static org.jocl.CL.CL_KERNEL_WORK_GROUP_SIZE;
import static org.jocl.CL.clCreateKernel;
import static org.jocl.CL.clEnqueueNDRangeKernel;
import static org.jocl.CL.clGetKernelArgInfo;
import static org.jocl.CL.clGetKernelInfo;
import static org.jocl.CL.clGetKernelWorkGroupInfo;
import static org.jocl.CL.clReleaseKernel;
import static org.jocl.CL.clSetKernelArg;

import io.contactsolver.core.BackendUnavailableException;
import io.contactsolver.core.SoftCoefficients;
import io.contactsolver.core.TargetRule;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.jocl.CLException;
import org.jocl.Pointer;
import org.jocl.Sizeof;
import org.jocl.cl_command_queue;
import org.jocl.cl_device_id;
import org.jocl.cl_kernel;
import org.jocl.cl_mem;
import org.jocl.cl_program;

/**
 * Typed launchers, one per kernel of {@code kernels/*.cl}, each taking the kernel's arguments in
 * the kernel's order with their Java types. The arguments a launcher sets are checked against the
 * kernel's {@link Signature} as they are set, and every signature is checked against the built
 * program's own argument information (count always, address space and type where the device reports
 * them), so a launcher cannot drift from its {@code .cl} declaration unnoticed.
 */
final class Kernels implements AutoCloseable {
    /** Work-group size of the kernels launched over many work-items. */
    static final int LOCAL_SIZE = 128;

    /** What one kernel argument is. */
    enum Arg {
        /** {@code __global float*} */
        FLOATS("float*"),
        /** {@code __global int*} */
        INTS("int*"),
        /** {@code __local int*} */
        LOCAL_INTS("int*"),
        /** {@code const int} */
        INT("int"),
        /** {@code const float} */
        FLOAT("float");

        private final String typeName;

        Arg(String typeName) {
            this.typeName = typeName;
        }
    }

    /** Every kernel of the program with its arguments, as declared in the {@code .cl} files. */
    enum Signature {
        PREPARE_BODIES("prepare_bodies", Arg.FLOATS, Arg.INT, Arg.INT, Arg.FLOATS),
        SOLVE_CONTACTS("solve_contacts", Arg.FLOATS, Arg.INTS, Arg.INT, Arg.INT, Arg.INT, Arg.FLOATS, Arg.FLOAT,
                Arg.FLOAT, Arg.FLOAT, Arg.FLOAT, Arg.INT, Arg.FLOATS, Arg.FLOATS),
        GATHER_CHUNK("gather_chunk", Arg.INTS, Arg.INTS, Arg.INTS, Arg.FLOATS, Arg.INT, Arg.INT, Arg.INT, Arg.INT,
                Arg.FLOATS),
        PREPARE_ROWS("prepare_rows", Arg.FLOATS, Arg.INTS, Arg.INT, Arg.INTS, Arg.INT, Arg.INT, Arg.INT, Arg.FLOATS,
                Arg.FLOAT, Arg.FLOAT, Arg.FLOAT, Arg.FLOAT, Arg.INT, Arg.FLOATS, Arg.INT, Arg.FLOATS, Arg.FLOATS),
        APPLY_WARM_START("apply_warm_start", Arg.FLOATS, Arg.INT, Arg.INTS, Arg.FLOATS, Arg.FLOATS, Arg.INT, Arg.INT,
                Arg.INT, Arg.INT),
        SOLVE_COLOUR("solve_colour", Arg.FLOATS, Arg.INT, Arg.INTS, Arg.FLOATS, Arg.FLOATS, Arg.INT, Arg.INT, Arg.INT,
                Arg.INTS, Arg.INT, Arg.INT, Arg.LOCAL_INTS),
        SOLVE_OVERFLOW("solve_overflow", Arg.FLOATS, Arg.INT, Arg.INTS, Arg.FLOATS, Arg.FLOATS, Arg.INT, Arg.INT,
                Arg.INT, Arg.INTS, Arg.INT, Arg.INT),
        SOLVE_SMALL_BATCH("solve_small_batch", Arg.FLOATS, Arg.INT, Arg.INTS, Arg.FLOATS, Arg.FLOATS, Arg.INT,
                Arg.INTS, Arg.INT, Arg.INT, Arg.INT, Arg.INT, Arg.INTS, Arg.LOCAL_INTS),
        WRITE_STATE_DELTAS("write_state_deltas", Arg.FLOATS, Arg.INT, Arg.INT, Arg.FLOATS),
        SCATTER_IMPULSES("scatter_impulses", Arg.FLOATS, Arg.INT, Arg.FLOATS, Arg.INTS, Arg.INT, Arg.INT, Arg.FLOATS),
        APPLY_GRAVITY("apply_gravity", Arg.FLOATS, Arg.INT, Arg.INT, Arg.FLOAT, Arg.FLOAT, Arg.FLOAT, Arg.FLOAT),
        INTEGRATE_BODIES("integrate_bodies", Arg.FLOATS, Arg.INT, Arg.INT, Arg.FLOATS, Arg.INT, Arg.FLOAT),
        PREPARE_SOFT_ROWS("prepare_soft_rows", Arg.FLOATS, Arg.INTS, Arg.INT, Arg.INTS, Arg.INT, Arg.INT, Arg.FLOATS,
                Arg.FLOATS, Arg.INTS, Arg.FLOATS),
        RESET_MOTIONS("reset_motions", Arg.FLOATS, Arg.INT),
        APPLY_SUBSTEP_GRAVITY("apply_substep_gravity", Arg.FLOATS, Arg.INT, Arg.INT, Arg.INTS, Arg.FLOATS, Arg.FLOAT,
                Arg.FLOAT, Arg.FLOAT, Arg.FLOAT),
        SOFT_SWEEP("soft_sweep", Arg.FLOATS, Arg.INT, Arg.FLOATS, Arg.INTS, Arg.INTS, Arg.FLOATS, Arg.FLOATS,
                Arg.FLOATS, Arg.INT, Arg.FLOAT, Arg.FLOAT, Arg.FLOAT, Arg.FLOAT, Arg.FLOAT, Arg.INT, Arg.INT,
                Arg.FLOATS, Arg.INT, Arg.INT, Arg.INT, Arg.INTS, Arg.INT),
        INTEGRATE_MOTIONS("integrate_motions", Arg.FLOATS, Arg.INT, Arg.INT, Arg.INTS, Arg.FLOATS, Arg.FLOATS,
                Arg.FLOAT),
        SOFT_RESTITUTION("soft_restitution", Arg.FLOATS, Arg.INT, Arg.INTS, Arg.FLOATS, Arg.FLOATS, Arg.INT,
                Arg.FLOATS, Arg.INT, Arg.INT, Arg.INT, Arg.INTS),
        FINISH_BODIES("finish_bodies", Arg.FLOATS, Arg.INT, Arg.INT, Arg.INTS, Arg.FLOATS, Arg.FLOATS, Arg.FLOAT,
                Arg.FLOAT, Arg.FLOAT, Arg.FLOAT, Arg.FLOATS, Arg.INT, Arg.FLOATS, Arg.INT);

        final String kernelName;
        final List<Arg> args;

        Signature(String kernelName, Arg... args) {
            this.kernelName = kernelName;
            this.args = List.of(args);
        }
    }

    private final cl_command_queue queue;
    private final cl_device_id device;
    private final Map<Signature, cl_kernel> kernels = new EnumMap<>(Signature.class);

    /**
     * Creates every kernel of {@code program} and checks it against its signature.
     *
     * @throws BackendUnavailableException if a kernel's arguments differ from its signature
     */
    Kernels(cl_program program, cl_device_id device, cl_command_queue queue) throws BackendUnavailableException {
        this.queue = queue;
        this.device = device;
        try {
            for (Signature signature : Signature.values()) {
                kernels.put(signature, clCreateKernel(program, signature.kernelName, null));
            }
            for (Signature signature : Signature.values()) {
                String mismatch = mismatch(signature);
                if (mismatch != null) {
                    throw new BackendUnavailableException("OpenCL kernel '" + signature.kernelName
                            + "' does not match its launcher: " + mismatch);
                }
            }
        } catch (BackendUnavailableException | RuntimeException e) {
            close();
            throw e;
        }
    }

    /** What differs between the built kernel's arguments and {@code signature}, or null. */
    String mismatch(Signature signature) {
        cl_kernel kernel = kernels.get(signature);
        int[] count = new int[1];
        clGetKernelInfo(kernel, CL_KERNEL_NUM_ARGS, Sizeof.cl_uint, Pointer.to(count), null);
        if (count[0] != signature.args.size()) {
            return count[0] + " arguments, the launcher sets " + signature.args.size();
        }
        for (int i = 0; i < count[0]; i++) {
            Arg expected = signature.args.get(i);
            int[] space = new int[1];
            try {
                clGetKernelArgInfo(kernel, i, CL_KERNEL_ARG_ADDRESS_QUALIFIER, Sizeof.cl_uint, Pointer.to(space), null);
            } catch (CLException e) {
                if (e.getStatus() == CL_KERNEL_ARG_INFO_NOT_AVAILABLE) {
                    return null; // the device keeps no argument information: the count is all it can tell
                }
                throw e;
            }
            boolean global = space[0] == CL_KERNEL_ARG_ADDRESS_GLOBAL;
            boolean local = space[0] == CL_KERNEL_ARG_ADDRESS_LOCAL;
            boolean buffer = expected == Arg.FLOATS || expected == Arg.INTS;
            if (global != buffer || local != (expected == Arg.LOCAL_INTS)) {
                return "argument " + i + " is in another address space than the launcher's " + expected;
            }
            String type = typeName(kernel, i);
            if (!type.equals(expected.typeName)) {
                return "argument " + i + " is '" + type + "', the launcher sets " + expected;
            }
        }
        return null;
    }

    /** Whether the device keeps kernel argument information (address space and type), beyond the count. */
    boolean reportsArgumentTypes() {
        int[] space = new int[1];
        try {
            clGetKernelArgInfo(kernels.get(Signature.PREPARE_BODIES), 0, CL_KERNEL_ARG_ADDRESS_QUALIFIER,
                    Sizeof.cl_uint, Pointer.to(space), null);
            return true;
        } catch (CLException e) {
            if (e.getStatus() == CL_KERNEL_ARG_INFO_NOT_AVAILABLE) {
                return false;
            }
            throw e;
        }
    }

    private static String typeName(cl_kernel kernel, int arg) {
        long[] size = new long[1];
        clGetKernelArgInfo(kernel, arg, CL_KERNEL_ARG_TYPE_NAME, 0, null, size);
        byte[] bytes = new byte[(int) size[0]];
        clGetKernelArgInfo(kernel, arg, CL_KERNEL_ARG_TYPE_NAME, bytes.length, Pointer.to(bytes), null);
        return new String(bytes, StandardCharsets.US_ASCII).replace("\0", "").replace("const", "").replace(" ", "");
    }

    // ---- single pass (kernels/single_pass.cl) ---------------------------------------------------

    void prepareBodies(long workItems, cl_mem bodies, int stride, int bodyCount, cl_mem prepared) {
        launch(Signature.PREPARE_BODIES).floats(bodies).integer(stride).integer(bodyCount).floats(prepared)
                .run(workItems);
    }

    void solveContacts(long workItems, cl_mem contacts, cl_mem links, int stride, int contactCount, int worldRecord,
            cl_mem prepared, TargetRule rule, boolean useFriction, cl_mem impulses, cl_mem responses) {
        launch(Signature.SOLVE_CONTACTS).floats(contacts).ints(links).integer(stride).integer(contactCount)
                .integer(worldRecord).floats(prepared).targets(rule).flag(useFriction).floats(impulses).floats(responses)
                .run(workItems);
    }

    void gatherChunk(long workItems, cl_mem cursor, cl_mem offsets, cl_mem entries, cl_mem responses, int firstEntry,
            int endEntry, int bodyCount, int deltaStride, cl_mem deltas) {
        launch(Signature.GATHER_CHUNK).ints(cursor).ints(offsets).ints(entries).floats(responses).integer(firstEntry)
                .integer(endEntry).integer(bodyCount).integer(deltaStride).floats(deltas).run(workItems);
    }

    // ---- iterative solver (kernels/iterative.cl) ------------------------------------------------

    void prepareRows(long workItems, cl_mem contacts, cl_mem links, int contactStride, cl_mem order, boolean direct,
            int rows, int worldRecord, cl_mem prepared, TargetRule rule, boolean useFriction, cl_mem warm,
            boolean useWarm, cl_mem row, cl_mem lambda) {
        launch(Signature.PREPARE_ROWS).floats(contacts).ints(links).integer(contactStride).ints(order).flag(direct)
                .integer(rows).integer(worldRecord).floats(prepared).targets(rule).flag(useFriction).floats(warm)
                .flag(useWarm)
                .floats(row).floats(lambda).run(workItems);
    }

    void applyWarmStart(long workItems, cl_mem row, int rows, cl_mem slots, cl_mem lambda, cl_mem state,
            int worldSlot, int first, int count, boolean serial) {
        launch(Signature.APPLY_WARM_START).floats(row).integer(rows).ints(slots).floats(lambda).floats(state)
                .integer(worldSlot).integer(first).integer(count).flag(serial).run(workItems);
    }

    void solveColour(long workItems, cl_mem row, int rows, cl_mem slots, cl_mem lambda, cl_mem state, int worldSlot,
            int first, int count, cl_mem residuals, int iteration, int toleranceBits) {
        launch(Signature.SOLVE_COLOUR).floats(row).integer(rows).ints(slots).floats(lambda).floats(state)
                .integer(worldSlot).integer(first).integer(count).ints(residuals).integer(iteration)
                .integer(toleranceBits).localInts(1).run(workItems);
    }

    void solveOverflow(cl_mem row, int rows, cl_mem slots, cl_mem lambda, cl_mem state, int worldSlot, int first,
            int count, cl_mem residuals, int iteration, int toleranceBits) {
        launch(Signature.SOLVE_OVERFLOW).floats(row).integer(rows).ints(slots).floats(lambda).floats(state)
                .integer(worldSlot).integer(first).integer(count).ints(residuals).integer(iteration)
                .integer(toleranceBits).run(1);
    }

    /**
     * The whole solve of a small batch in one work-group of up to {@link #SMALL_BATCH_GROUP}
     * work-items; {@code outcome} gets the iterations used and the last residual's bits.
     */
    void solveSmallBatch(cl_mem row, int rows, cl_mem slots, cl_mem lambda, cl_mem state, int worldSlot,
            cl_mem starts, int colours, boolean warm, int iterations, int toleranceBits, cl_mem outcome) {
        Signature signature = Signature.SOLVE_SMALL_BATCH;
        int group = (int) groupSize(kernels.get(signature), SMALL_BATCH_GROUP);
        launch(signature).floats(row).integer(rows).ints(slots).floats(lambda).floats(state).integer(worldSlot)
                .ints(starts).integer(colours).flag(warm).integer(iterations).integer(toleranceBits).ints(outcome)
                .localInts(group).runGroup(group);
    }

    /** Work-items of the one group of {@link #solveSmallBatch}, at most: a colour of a small batch in one pass. */
    static final int SMALL_BATCH_GROUP = 1024;

    void writeStateDeltas(long workItems, cl_mem state, int bodyCount, int deltaStride, cl_mem deltas) {
        launch(Signature.WRITE_STATE_DELTAS).floats(state).integer(bodyCount).integer(deltaStride).floats(deltas)
                .run(workItems);
    }

    void scatterImpulses(long workItems, cl_mem row, int rows, cl_mem lambda, cl_mem order, boolean direct,
            int stride, cl_mem impulses) {
        launch(Signature.SCATTER_IMPULSES).floats(row).integer(rows).floats(lambda).ints(order).flag(direct)
                .integer(stride).floats(impulses).run(workItems);
    }

    // ---- the device-resident step (kernels/integrate.cl) ----------------------------------------

    void applyGravity(long workItems, cl_mem bodies, int stride, int bodyCount, float gx, float gy, float gz,
            float dt) {
        launch(Signature.APPLY_GRAVITY).floats(bodies).integer(stride).integer(bodyCount).real(gx).real(gy).real(gz)
                .real(dt).run(workItems);
    }

    void integrateBodies(long workItems, cl_mem bodies, int stride, int bodyCount, cl_mem deltas, int deltaStride,
            float dt) {
        launch(Signature.INTEGRATE_BODIES).floats(bodies).integer(stride).integer(bodyCount).floats(deltas)
                .integer(deltaStride).real(dt).run(workItems);
    }

    // ---- the soft step (kernels/soft_step.cl) ----------------------------------------------------

    void prepareSoftRows(long workItems, cl_mem contacts, cl_mem links, int contactStride, cl_mem order, int rows,
            int bodyCount, cl_mem prepared, cl_mem soft, cl_mem movers, cl_mem peak) {
        launch(Signature.PREPARE_SOFT_ROWS).floats(contacts).ints(links).integer(contactStride).ints(order)
                .integer(rows).integer(bodyCount).floats(prepared).floats(soft).ints(movers).floats(peak)
                .run(workItems);
    }

    void resetMotions(long workItems, cl_mem motion, int bodyCount) {
        launch(Signature.RESET_MOTIONS).floats(motion).integer(bodyCount).run(workItems);
    }

    void applySubstepGravity(long workItems, cl_mem bodies, int stride, int bodyCount, cl_mem movable, cl_mem state,
            float gx, float gy, float gz, float h) {
        launch(Signature.APPLY_SUBSTEP_GRAVITY).floats(bodies).integer(stride).integer(bodyCount).ints(movable)
                .floats(state).real(gx).real(gy).real(gz).real(h).run(workItems);
    }

    /** One soft or relax sweep of rows {@code [first, first + count)}: one work-item a row, or one in all ({@code serial}). */
    void softSweep(cl_mem row, int rows, cl_mem soft, cl_mem slots, cl_mem movers, cl_mem lambda, cl_mem state,
            cl_mem motion, int worldSlot, SoftCoefficients coefficients, boolean relax, boolean frictional,
            cl_mem peak, int first, int count, boolean serial, cl_mem residuals, boolean record) {
        launch(Signature.SOFT_SWEEP).floats(row).integer(rows).floats(soft).ints(slots).ints(movers).floats(lambda)
                .floats(state).floats(motion).integer(worldSlot).real(coefficients.inverseSubstep())
                .real(coefficients.biasRate()).real(coefficients.massScale()).real(coefficients.impulseScale())
                .real(coefficients.maxPushOut()).flag(relax).flag(frictional).floats(peak).integer(first)
                .integer(count).flag(serial).ints(residuals).flag(record).run(serial ? 1 : count);
    }

    void integrateMotions(long workItems, cl_mem bodies, int stride, int bodyCount, cl_mem movable, cl_mem state,
            cl_mem motion, float h) {
        launch(Signature.INTEGRATE_MOTIONS).floats(bodies).integer(stride).integer(bodyCount).ints(movable)
                .floats(state).floats(motion).real(h).run(workItems);
    }

    /** The restitution pass over rows {@code [first, first + count)}: one work-item a row, or one in all ({@code serial}). */
    void softRestitution(cl_mem row, int rows, cl_mem slots, cl_mem lambda, cl_mem state, int worldSlot, cl_mem peak,
            int first, int count, boolean serial, cl_mem residuals) {
        launch(Signature.SOFT_RESTITUTION).floats(row).integer(rows).ints(slots).floats(lambda).floats(state)
                .integer(worldSlot).floats(peak).integer(first).integer(count).flag(serial).ints(residuals)
                .run(serial ? 1 : count);
    }

    void finishBodies(long workItems, cl_mem bodies, int stride, int bodyCount, cl_mem movable, cl_mem state,
            cl_mem motion, float gx, float gy, float gz, float dt, cl_mem next, int nextStride, cl_mem deltas,
            int deltaStride) {
        launch(Signature.FINISH_BODIES).floats(bodies).integer(stride).integer(bodyCount).ints(movable).floats(state)
                .floats(motion).real(gx).real(gy).real(gz).real(dt).floats(next).integer(nextStride).floats(deltas)
                .integer(deltaStride).run(workItems);
    }

    /** The largest power of two at most {@code cap} work-items that {@code kernel} can run in one group on the device. */
    private long groupSize(cl_kernel kernel, int cap) {
        long[] maxLocal = new long[1];
        clGetKernelWorkGroupInfo(kernel, device, CL_KERNEL_WORK_GROUP_SIZE, Sizeof.size_t, Pointer.to(maxLocal), null);
        return Long.highestOneBit(Math.max(1, Math.min(cap, maxLocal[0])));
    }

    private Launch launch(Signature signature) {
        return new Launch(signature, kernels.get(signature));
    }

    /** Sets one kernel's arguments in order, each checked against the signature, then enqueues it. */
    private final class Launch {
        private final Signature signature;
        private final cl_kernel kernel;
        private int next;

        Launch(Signature signature, cl_kernel kernel) {
            this.signature = signature;
            this.kernel = kernel;
        }

        Launch floats(cl_mem memory) {
            return memory(Arg.FLOATS, memory);
        }

        Launch ints(cl_mem memory) {
            return memory(Arg.INTS, memory);
        }

        Launch integer(int value) {
            clSetKernelArg(kernel, position(Arg.INT), Sizeof.cl_int, Pointer.to(new int[] {value}));
            return this;
        }

        /** A boolean as the kernels take it: an int, 1 or 0. */
        Launch flag(boolean value) {
            return integer(value ? 1 : 0);
        }

        Launch real(float value) {
            clSetKernelArg(kernel, position(Arg.FLOAT), Sizeof.cl_float, Pointer.to(new float[] {value}));
            return this;
        }

        /** The four floats of a target rule, in the kernels' order. */
        Launch targets(TargetRule rule) {
            return real(rule.restitutionThreshold()).real(rule.inverseTimeStep()).real(rule.biasFactor())
                    .real(rule.slop());
        }

        Launch localInts(int count) {
            clSetKernelArg(kernel, position(Arg.LOCAL_INTS), (long) count * Sizeof.cl_int, null);
            return this;
        }

        private Launch memory(Arg kind, cl_mem memory) {
            clSetKernelArg(kernel, position(kind), Sizeof.cl_mem, Pointer.to(memory));
            return this;
        }

        private int position(Arg kind) {
            if (next >= signature.args.size() || signature.args.get(next) != kind) {
                throw new IllegalStateException(signature.kernelName + ": argument " + next + " set as " + kind
                        + ", declared " + (next < signature.args.size() ? signature.args.get(next) : "absent"));
            }
            return next++;
        }

        /** Launches one work-group of {@code size} work-items. */
        void runGroup(int size) {
            if (next != signature.args.size()) {
                throw new IllegalStateException(signature.kernelName + ": " + next + " of " + signature.args.size()
                        + " arguments set");
            }
            clEnqueueNDRangeKernel(queue, kernel, 1, null, new long[] {size}, new long[] {size}, 0, null, null);
        }

        /** Launches {@code workItems} work-items (rounded up to whole groups); none launches nothing. */
        void run(long workItems) {
            if (next != signature.args.size()) {
                throw new IllegalStateException(signature.kernelName + ": " + next + " of " + signature.args.size()
                        + " arguments set");
            }
            if (workItems == 0) {
                return;
            }
            long local = groupSize(kernel, LOCAL_SIZE);
            long global = (workItems + local - 1) / local * local;
            clEnqueueNDRangeKernel(queue, kernel, 1, null, new long[] {global}, new long[] {local}, 0, null, null);
        }
    }

    @Override
    public void close() {
        List<RuntimeException> failures = new ArrayList<>();
        for (cl_kernel kernel : kernels.values()) {
            try {
                clReleaseKernel(kernel);
            } catch (RuntimeException e) {
                failures.add(e);
            }
        }
        kernels.clear();
        if (!failures.isEmpty()) {
            throw failures.get(0);
        }
    }
}
