package io.contactsolver.opencl;

import static org.jocl.CL.CL_KERNEL_ARG_ADDRESS_GLOBAL;
import static org.jocl.CL.CL_KERNEL_ARG_ADDRESS_LOCAL;
import static org.jocl.CL.CL_KERNEL_ARG_ADDRESS_QUALIFIER;
import static org.jocl.CL.CL_KERNEL_ARG_INFO_NOT_AVAILABLE;
import static org.jocl.CL.CL_KERNEL_ARG_NAME;
import static org.jocl.CL.CL_KERNEL_ARG_TYPE_NAME;
import static org.jocl.CL.CL_KERNEL_NUM_ARGS;
import static org.jocl.CL.CL_KERNEL_WORK_GROUP_SIZE;
import static org.jocl.CL.CL_INVALID_KERNEL_NAME;
import static org.jocl.CL.clCreateKernel;
import static org.jocl.CL.clEnqueueNDRangeKernel;
import static org.jocl.CL.clGetKernelArgInfo;
import static org.jocl.CL.clGetKernelInfo;
import static org.jocl.CL.clGetKernelWorkGroupInfo;
import static org.jocl.CL.clReleaseKernel;
import static org.jocl.CL.clSetKernelArg;

import static io.contactsolver.opencl.Kernels.Arg.FLOAT;
import static io.contactsolver.opencl.Kernels.Arg.FLOATS;
import static io.contactsolver.opencl.Kernels.Arg.INT;
import static io.contactsolver.opencl.Kernels.Arg.INTS;
import static io.contactsolver.opencl.Kernels.Arg.LOCAL_INTS;
import static io.contactsolver.opencl.Kernels.Arg.ULONGS;

import io.contactsolver.core.BackendUnavailableException;
import io.contactsolver.core.SoftCoefficients;
import io.contactsolver.core.TargetRule;
import io.contactsolver.layout.ContactBody;
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
 * the kernel's order with their Java types. Counts, strides and offsets travel with the memory
 * they describe in small records ({@link BodyBlock}, {@link ContactBlock}, {@link RowSet},
 * {@link Span} and the like), so a launcher's caller passes no run of bare ints, and groups of
 * different types cannot change places without a compile error. Every argument a
 * launcher sets is named and checked against the kernel's {@link Signature} as it is set (a
 * launch that sets an argument under another name or kind is refused), and every signature is
 * checked against the built program's own argument information (count always; address space,
 * type and name where the device reports them), so a launcher cannot drift from its {@code .cl}
 * declaration unnoticed, not even by two arguments of one type changing places.
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
        /** {@code __global ulong*} */
        ULONGS("ulong*"),
        /** {@code const int} */
        INT("int"),
        /** {@code const float} */
        FLOAT("float");

        private final String typeName;

        Arg(String typeName) {
            this.typeName = typeName;
        }
    }

    /** One declared kernel argument: what it is and its name in the {@code .cl} declaration. */
    record Param(Arg kind, String name) {
        @Override
        public String toString() {
            return kind + " '" + name + "'";
        }
    }

    private static Param arg(Arg kind, String name) {
        return new Param(kind, name);
    }

    /** Every kernel of the program with its arguments, as declared in the {@code .cl} files. */
    enum Signature {
        PREPARE_BODIES("prepare_bodies", arg(FLOATS, "bodies"), arg(INT, "stride"), arg(INT, "bodyCount"),
                arg(FLOATS, "prepared")),
        SOLVE_CONTACTS("solve_contacts", arg(FLOATS, "contacts"), arg(INTS, "links"), arg(INT, "stride"),
                arg(INT, "contactCount"), arg(INT, "worldRecord"), arg(FLOATS, "prepared"),
                arg(FLOAT, "restitutionThreshold"), arg(FLOAT, "inverseTimeStep"), arg(FLOAT, "biasFactor"),
                arg(FLOAT, "slop"), arg(INT, "useFriction"), arg(FLOATS, "impulses"), arg(FLOATS, "responses")),
        GATHER_CHUNK("gather_chunk", arg(INTS, "cursor"), arg(INTS, "offsets"), arg(INTS, "entries"),
                arg(FLOATS, "responses"), arg(INT, "firstEntry"), arg(INT, "endEntry"), arg(INT, "bodyCount"),
                arg(INT, "deltaStride"), arg(FLOATS, "deltas")),
        PREPARE_ROWS("prepare_rows", arg(FLOATS, "contacts"), arg(INTS, "links"), arg(INT, "contactStride"),
                arg(INTS, "order"), arg(INT, "direct"), arg(INT, "rows"), arg(INT, "worldRecord"),
                arg(FLOATS, "prepared"), arg(FLOAT, "restitutionThreshold"), arg(FLOAT, "inverseTimeStep"),
                arg(FLOAT, "biasFactor"), arg(FLOAT, "slop"), arg(INT, "useFriction"), arg(FLOATS, "warm"),
                arg(INT, "useWarm"), arg(FLOATS, "row"), arg(FLOATS, "lambda")),
        APPLY_WARM_START("apply_warm_start", arg(FLOATS, "row"), arg(INT, "rows"), arg(INTS, "slots"),
                arg(FLOATS, "lambda"), arg(INT, "twist"), arg(FLOATS, "state"), arg(INT, "worldSlot"),
                arg(INT, "first"), arg(INT, "count"), arg(INT, "serial")),
        SOLVE_COLOUR("solve_colour", arg(FLOATS, "row"), arg(INT, "rows"), arg(INTS, "slots"), arg(FLOATS, "lambda"),
                arg(INT, "twist"), arg(FLOATS, "state"), arg(INT, "worldSlot"), arg(INT, "first"), arg(INT, "count"),
                arg(INTS, "residuals"), arg(INT, "iteration"), arg(INT, "toleranceBits"), arg(LOCAL_INTS, "largest")),
        SOLVE_OVERFLOW("solve_overflow", arg(FLOATS, "row"), arg(INT, "rows"), arg(INTS, "slots"),
                arg(FLOATS, "lambda"), arg(INT, "twist"), arg(FLOATS, "state"), arg(INT, "worldSlot"),
                arg(INT, "first"), arg(INT, "count"), arg(INTS, "residuals"), arg(INT, "iteration"),
                arg(INT, "toleranceBits")),
        SOLVE_SMALL_BATCH("solve_small_batch", arg(FLOATS, "row"), arg(INT, "rows"), arg(INTS, "slots"),
                arg(FLOATS, "lambda"), arg(INT, "twist"), arg(FLOATS, "state"), arg(INT, "worldSlot"),
                arg(INTS, "starts"),
                arg(INT, "colours"), arg(INT, "warm"), arg(INT, "iterations"), arg(INT, "toleranceBits"),
                arg(INTS, "outcome"), arg(LOCAL_INTS, "scratch")),
        WRITE_STATE_DELTAS("write_state_deltas", arg(FLOATS, "state"), arg(INT, "bodyCount"),
                arg(INT, "deltaStride"), arg(FLOATS, "deltas")),
        SCATTER_IMPULSES("scatter_impulses", arg(FLOATS, "row"), arg(INT, "rows"), arg(FLOATS, "lambda"),
                arg(INT, "twist"), arg(INTS, "order"), arg(INT, "direct"), arg(INT, "stride"), arg(FLOATS, "impulses")),
        APPLY_GRAVITY("apply_gravity", arg(FLOATS, "bodies"), arg(INT, "stride"), arg(INT, "bodyCount"),
                arg(FLOAT, "gx"), arg(FLOAT, "gy"), arg(FLOAT, "gz"), arg(FLOAT, "dt")),
        INTEGRATE_BODIES("integrate_bodies", arg(FLOATS, "bodies"), arg(INT, "stride"), arg(INT, "bodyCount"),
                arg(FLOATS, "deltas"), arg(INT, "deltaStride"), arg(FLOAT, "dt")),
        PREPARE_MANIFOLDS("prepare_manifolds", arg(FLOATS, "contacts"), arg(INTS, "links"),
                arg(INT, "contactStride"), arg(INTS, "firsts"), arg(INTS, "order"), arg(FLOATS, "man"),
                arg(INT, "rows"), arg(INTS, "pointStart"), arg(INTS, "slots"), arg(FLOATS, "acc"), arg(FLOATS, "pts"),
                arg(INT, "points"), arg(FLOATS, "normal"), arg(FLOATS, "peak"), arg(INTS, "movers"),
                arg(FLOATS, "geometry"), arg(FLOATS, "warmNormal"), arg(FLOATS, "warmVectors"),
                arg(INTS, "solvedStart"), arg(INT, "worldRecord"), arg(FLOATS, "prepared"),
                arg(FLOAT, "restitutionThreshold"), arg(FLOAT, "biasRate"), arg(FLOAT, "massScale"),
                arg(FLOAT, "impulseScale"), arg(FLOAT, "staticBiasRate"), arg(FLOAT, "staticMassScale"),
                arg(FLOAT, "staticImpulseScale"), arg(FLOATS, "warm")),
        RESET_MOTIONS("reset_motions", arg(FLOATS, "motion"), arg(INT, "bodyCount")),
        APPLY_SUBSTEP_GRAVITY("apply_substep_gravity", arg(FLOATS, "bodies"), arg(INT, "stride"),
                arg(INT, "bodyCount"), arg(INTS, "movable"), arg(FLOATS, "state"), arg(FLOAT, "gx"), arg(FLOAT, "gy"),
                arg(FLOAT, "gz"), arg(FLOAT, "h")),
        WARM_START_MANIFOLDS("warm_start_manifolds", arg(FLOATS, "warm"), arg(INT, "rows"), arg(INTS, "slots"),
                arg(FLOATS, "state"), arg(INT, "worldSlot"), arg(INT, "first"), arg(INT, "count"),
                arg(INT, "serial")),
        START_SUBSTEP("start_substep", arg(FLOATS, "bodies"), arg(INT, "stride"),
                arg(INT, "bodyCount"), arg(INTS, "movable"), arg(FLOATS, "state"), arg(FLOAT, "gx"), arg(FLOAT, "gy"),
                arg(FLOAT, "gz"), arg(FLOAT, "h"), arg(FLOATS, "warm"), arg(INTS, "bodyRowStart"),
                arg(INTS, "bodyRows")),
        SOLVE_MANIFOLDS("solve_manifolds", arg(FLOATS, "man"), arg(INT, "rows"), arg(INTS, "pointStart"),
                arg(INTS, "slots"), arg(FLOATS, "acc"), arg(FLOATS, "pts"), arg(INT, "points"),
                arg(FLOATS, "normal"), arg(FLOATS, "peak"), arg(FLOATS, "separation"), arg(INTS, "movers"),
                arg(FLOATS, "state"), arg(INT, "worldSlot"), arg(FLOATS, "motion"), arg(FLOAT, "inverseSubstep"),
                arg(FLOAT, "maxPushOut"), arg(INT, "relax"), arg(INT, "friction"), arg(INT, "findSeparation"),
                arg(INT, "first"), arg(INT, "count"), arg(INT, "serial"), arg(INTS, "residuals"), arg(INT, "record"),
                arg(FLOATS, "warm"), arg(INT, "warmNext")),
        INTEGRATE_MOTIONS("integrate_motions", arg(FLOATS, "bodies"), arg(INT, "stride"), arg(INT, "bodyCount"),
                arg(INTS, "movable"), arg(FLOATS, "state"), arg(FLOATS, "motion"), arg(FLOAT, "h")),
        RESTITUTE_MANIFOLDS("restitute_manifolds", arg(FLOATS, "man"), arg(INT, "rows"), arg(INTS, "pointStart"),
                arg(INTS, "slots"), arg(FLOATS, "pts"), arg(INT, "points"), arg(FLOATS, "normal"),
                arg(FLOATS, "peak"), arg(FLOATS, "state"), arg(INT, "worldSlot"), arg(INT, "first"),
                arg(INT, "count"), arg(INT, "serial"), arg(INTS, "residuals")),
        FINISH_BODIES("finish_bodies", arg(FLOATS, "bodies"), arg(INT, "stride"), arg(INT, "bodyCount"),
                arg(INTS, "movable"), arg(FLOATS, "state"), arg(FLOATS, "motion"), arg(FLOAT, "gx"),
                arg(FLOAT, "gy"), arg(FLOAT, "gz"), arg(FLOAT, "dt"), arg(FLOATS, "next"), arg(INT, "nextStride"),
                arg(FLOATS, "deltas"), arg(INT, "deltaStride")),
        WRITE_MANIFOLD_RESULTS("write_manifold_results", arg(FLOATS, "man"), arg(INT, "rows"),
                arg(INTS, "pointStart"), arg(FLOATS, "acc"), arg(FLOATS, "normal"), arg(INTS, "order"),
                arg(INTS, "solvedStart"), arg(FLOATS, "normalOut"), arg(FLOATS, "vectorsOut")),
        REPORT_CONTACT_IMPULSES("report_contact_impulses", arg(INTS, "contactStart"), arg(INTS, "pointStart"),
                arg(INT, "manifolds"), arg(FLOATS, "normal"), arg(FLOATS, "vectors"), arg(INTS, "ids"),
                arg(INTS, "contactIds"), arg(INT, "contacts"), arg(FLOATS, "impulses")),
        RECYCLE_MANIFOLDS("recycle_manifolds", true, arg(FLOATS, "bodies"), arg(INT, "bodyStride"),
                arg(INTS, "movable"), arg(FLOATS, "contacts"), arg(INTS, "links"), arg(INT, "contactStride"),
                arg(INTS, "contactIds"), arg(INTS, "firsts"), arg(INT, "manifolds"), arg(INTS, "match"),
                arg(INTS, "fates"), arg(FLOAT, "limit"), arg(INTS, "pointStart"), arg(INT, "points"),
                arg(FLOATS, "oldCaptures"), arg(INTS, "oldPointStart"), arg(INTS, "oldIds"), arg(FLOATS, "oldNormal"),
                arg(FLOATS, "oldVectors"), arg(INT, "oldManifolds"), arg(FLOATS, "oldImpulses"),
                arg(INT, "oldContacts"), arg(INT, "sameOrder"), arg(INTS, "previousOf"), arg(FLOATS, "geometry"),
                arg(FLOATS, "warmNormal"), arg(FLOATS, "warmVectors"), arg(FLOATS, "kept"), arg(INTS, "keptIds"),
                arg(INTS, "keptCount")),
        SCREEN_BODIES("screen_bodies", arg(FLOATS, "bodies"), arg(INT, "stride"), arg(INT, "count"),
                arg(INTS, "suspects"), arg(INTS, "suspectCount"), arg(INTS, "largest")),
        SCREEN_CONTACTS("screen_contacts", arg(FLOATS, "contacts"), arg(INTS, "links"), arg(INTS, "manifolds"),
                arg(INT, "stride"), arg(INT, "count"), arg(INT, "bodyCount"), arg(INTS, "suspects"),
                arg(INTS, "suspectCount"), arg(INTS, "largest"), arg(INTS, "uses")),
        FIRST_NON_FINITE("first_non_finite", arg(FLOATS, "values"), arg(INT, "count"), arg(INT, "stride"),
                arg(INT, "fields"), arg(INTS, "first"), arg(INT, "slot")),
        FIRST_UNSOUND_ORIENTATION("first_unsound_orientation", arg(FLOATS, "values"), arg(INT, "count"),
                arg(INT, "stride"), arg(INTS, "first"), arg(INT, "slot")),
        COLOUR_CLAIM("colour_claim", arg(INTS, "pairA"), arg(INTS, "pairB"), arg(INTS, "movable"), arg(INT, "count"),
                arg(INTS, "lowest")),
        COLOUR_ROUND("colour_round", arg(INTS, "pairA"), arg(INTS, "pairB"), arg(INTS, "movable"), arg(INT, "count"),
                arg(INT, "budget"), arg(INT, "bodyCount"), arg(INTS, "lowest"), arg(INTS, "next"),
                arg(INTS, "cleared"), arg(ULONGS, "masks"), arg(INTS, "colours"), arg(INTS, "done"));

        final String kernelName;
        final List<Param> args;
        /** Built only where the device has double precision ({@code recycling.cl}); absent elsewhere. */
        final boolean needsDoubles;

        Signature(String kernelName, Param... args) {
            this(kernelName, false, args);
        }

        Signature(String kernelName, boolean needsDoubles, Param... args) {
            this.kernelName = kernelName;
            this.needsDoubles = needsDoubles;
            this.args = List.of(args);
        }

        /**
         * Why argument {@code position} may not be set as a {@code kind} named {@code name}, in one
         * line, or null when that is what the kernel declares there.
         */
        String refusal(int position, Arg kind, String name) {
            Param declared = position < args.size() ? args.get(position) : null;
            if (declared != null && declared.kind() == kind && declared.name().equals(name)) {
                return null;
            }
            return kernelName + ": argument " + position + " set as " + new Param(kind, name) + ", declared "
                    + (declared == null ? "absent" : declared);
        }
    }

    // ---- the groups a launcher's arguments travel in ----------------------------------------------

    /** Bodies in the device's layout: field {@code f} of body {@code i} at {@code f * stride + i}, {@code count} of them. */
    record BodyBlock(cl_mem memory, int stride, int count) {
    }

    /** Contacts and their links in the device's layout: field {@code f} of contact {@code c} at {@code f * stride + c}. */
    record ContactBlock(cl_mem contacts, cl_mem links, int stride) {
    }

    /** The prepared body records, the world's at index {@code worldRecord}. */
    record PreparedBodies(cl_mem memory, int worldRecord) {
    }

    /**
     * A solve's rows: their fields (field {@code f} of row {@code r} at {@code f * count + r}), body
     * slots and accumulated impulses, {@code count} rows.
     */
    record RowSet(cl_mem fields, int count, cl_mem slots, cl_mem lambda) {
    }

    /**
     * Whether the row kernels take the twist stage: {@code on} where the batch has torsional
     * resistance; without it no kernel reads a row's TAU.
     */
    record TwistStage(boolean on) {
    }

    /** Where row {@code r}'s contact is: {@code order[r]}, or {@code r} itself when {@code direct}. */
    record RowOrder(cl_mem order, boolean direct) {
    }

    /** The velocity state, a record a body and the world's at {@code worldSlot}. */
    record VelocityState(cl_mem memory, int worldSlot) {
    }

    /** Items {@code [first, first + count)}: rows of a colour, contacts of a chunk. */
    record Span(int first, int count) {
    }

    /** An array of fields, field {@code f} of item {@code i} at {@code f * stride + i}: deltas, impulses, next bodies. */
    record Strided(cl_mem memory, int stride) {
    }

    /** The first {@code colours + 1} colour starts of a colouring. */
    record ColourStarts(cl_mem starts, int colours) {
    }

    /**
     * The soft step's manifold rows: their fields ({@code ManifoldField} {@code f} of row {@code r}
     * at {@code f * count + r}), the first point of each row ({@code count + 1} of them), each row's
     * body slots (side {@code s} at {@code s * count + r}), accumulated impulses
     * ({@code ManifoldImpulse}, like the fields) and warm-start records ({@code WarmStartField}, likewise).
     */
    record ManifoldSet(cl_mem fields, int count, cl_mem pointStart, cl_mem slots, cl_mem impulses, cl_mem warm) {
    }

    /**
     * The points of the manifold rows, in row order: their fields ({@code PointField} {@code f} of
     * point {@code p} at {@code f * count + p}) and accumulated normal impulses, {@code count} of them.
     */
    record PointSet(cl_mem fields, int count, cl_mem normal) {
    }

    /**
     * What the host prepared of each manifold before either backend (Recycler, ManifoldGrouping):
     * the first contact of each manifold, its first solved point ({@code count + 1} of them), the
     * solved points' geometry and warm normal impulses (with the points' stride) and the manifolds'
     * warm vectors (with the manifolds' stride).
     */
    record ManifoldSource(cl_mem firsts, cl_mem solvedStart, cl_mem geometry, cl_mem warmNormal, cl_mem warmVectors) {
    }

    private final cl_command_queue queue;
    private final cl_device_id device;
    private final Map<Signature, cl_kernel> kernels = new EnumMap<>(Signature.class);
    /** What each kernel's arguments were last set to, and its work-group size, kept across launches. */
    private final Map<Signature, Held> held = new EnumMap<>(Signature.class);

    /**
     * A kernel's arguments as last set: an argument keeps its value in the kernel after a launch
     * (each launch takes the values it was enqueued with), so a launch sets only those that differ.
     * A step launches its sweep kernels colour by colour with the same buffers, changing only the
     * span and a flag or two: setting all twenty-odd arguments each time cost the host most of its
     * enqueue time (about 25 us a launch, 2.9 ms of a pyramid frame's on PoCL).
     */
    private static final class Held {
        final Object[] memory;
        final long[] value;
        final boolean[] known;
        long groupSize = -1;

        Held(int args) {
            memory = new Object[args];
            value = new long[args];
            known = new boolean[args];
        }

        /** Whether argument {@code position} holds {@code bits} (a scalar's) already; if not, records it as set. */
        boolean holdsOrTakes(int position, long bits) {
            if (known[position] && memory[position] == null && value[position] == bits) {
                return true;
            }
            known[position] = true;
            memory[position] = null;
            value[position] = bits;
            return false;
        }

        /** Whether argument {@code position} holds {@code mem} already; if not, records it as set. */
        boolean holdsOrTakes(int position, cl_mem mem) {
            if (known[position] && memory[position] == mem) {
                return true;
            }
            known[position] = true;
            memory[position] = mem;
            return false;
        }

        /** Forgets argument {@code position}: the next launch sets it whatever its value. */
        void forget(int position) {
            known[position] = false;
            memory[position] = null;
        }
    }

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
                try {
                    kernels.put(signature, clCreateKernel(program, signature.kernelName, null));
                } catch (CLException e) {
                    if (signature.needsDoubles && e.getStatus() == CL_INVALID_KERNEL_NAME) {
                        continue; // a device without double precision: the host does that work
                    }
                    throw e;
                }
                held.put(signature, new Held(signature.args.size()));
            }
            for (Signature signature : kernels.keySet()) {
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

    /** Whether the program has {@code signature}'s kernel: all but those that need double precision, which only such a device builds. */
    boolean has(Signature signature) {
        return kernels.containsKey(signature);
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
            Param declared = signature.args.get(i);
            Arg expected = declared.kind();
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
            boolean buffer = expected == Arg.FLOATS || expected == Arg.INTS || expected == Arg.ULONGS;
            if (global != buffer || local != (expected == Arg.LOCAL_INTS)) {
                return "argument " + i + " is in another address space than the launcher's " + expected;
            }
            String type = argInfo(kernel, i, CL_KERNEL_ARG_TYPE_NAME).replace("const", "").replace(" ", "");
            if (!type.equals(expected.typeName)) {
                return "argument " + i + " is '" + type + "', the launcher sets " + expected;
            }
            String name = argInfo(kernel, i, CL_KERNEL_ARG_NAME).trim();
            if (!name.equals(declared.name())) {
                return "argument " + i + " is named '" + name + "', the launcher sets " + declared;
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

    /** A text the device reports of argument {@code arg} of {@code kernel}: its type name or its name. */
    private static String argInfo(cl_kernel kernel, int arg, int what) {
        long[] size = new long[1];
        clGetKernelArgInfo(kernel, arg, what, 0, null, size);
        byte[] bytes = new byte[(int) size[0]];
        clGetKernelArgInfo(kernel, arg, what, bytes.length, Pointer.to(bytes), null);
        return new String(bytes, StandardCharsets.US_ASCII).replace("\0", "");
    }

    // ---- single pass (kernels/single_pass.cl) ---------------------------------------------------

    void prepareBodies(long workItems, BodyBlock bodies, cl_mem prepared) {
        launch(Signature.PREPARE_BODIES).bodies(bodies).floats("prepared", prepared).run(workItems);
    }

    void solveContacts(long workItems, ContactBlock contacts, int contactCount, PreparedBodies prepared,
            TargetRule rule, boolean useFriction, cl_mem impulses, cl_mem responses) {
        launch(Signature.SOLVE_CONTACTS).floats("contacts", contacts.contacts()).ints("links", contacts.links())
                .integer("stride", contacts.stride()).integer("contactCount", contactCount)
                .integer("worldRecord", prepared.worldRecord()).floats("prepared", prepared.memory()).targets(rule)
                .flag("useFriction", useFriction).floats("impulses", impulses).floats("responses", responses)
                .run(workItems);
    }

    /**
     * Adds the responses of {@code contacts} (their two entries each, in the index's order) to each
     * of {@code bodyCount} bodies' deltas.
     */
    void gatherChunk(long workItems, cl_mem cursor, cl_mem offsets, cl_mem entries, cl_mem responses, Span contacts,
            int bodyCount, Strided deltas) {
        launch(Signature.GATHER_CHUNK).ints("cursor", cursor).ints("offsets", offsets).ints("entries", entries)
                .floats("responses", responses).integer("firstEntry", contacts.first() * ContactBody.COUNT)
                .integer("endEntry", (contacts.first() + contacts.count()) * ContactBody.COUNT)
                .integer("bodyCount", bodyCount).integer("deltaStride", deltas.stride())
                .floats("deltas", deltas.memory()).run(workItems);
    }

    // ---- iterative solver (kernels/iterative.cl) ------------------------------------------------

    /** Fills {@code rows} from their contacts; the warm start is read only {@code useWarm}. */
    void prepareRows(long workItems, ContactBlock contacts, RowOrder order, PreparedBodies prepared, TargetRule rule,
            boolean useFriction, cl_mem warm, boolean useWarm, RowSet rows) {
        launch(Signature.PREPARE_ROWS).floats("contacts", contacts.contacts()).ints("links", contacts.links())
                .integer("contactStride", contacts.stride()).ints("order", order.order())
                .flag("direct", order.direct()).integer("rows", rows.count())
                .integer("worldRecord", prepared.worldRecord()).floats("prepared", prepared.memory()).targets(rule)
                .flag("useFriction", useFriction).floats("warm", warm).flag("useWarm", useWarm)
                .floats("row", rows.fields()).floats("lambda", rows.lambda()).run(workItems);
    }

    void applyWarmStart(long workItems, RowSet rows, TwistStage twist, VelocityState state, Span span,
            boolean serial) {
        launch(Signature.APPLY_WARM_START).rows(rows).flag("twist", twist.on()).state(state).span(span)
                .flag("serial", serial).run(workItems);
    }

    void solveColour(long workItems, RowSet rows, TwistStage twist, VelocityState state, Span span, cl_mem residuals,
            int iteration, float tolerance) {
        launch(Signature.SOLVE_COLOUR).rows(rows).flag("twist", twist.on()).state(state).span(span)
                .ints("residuals", residuals).integer("iteration", iteration).toleranceBits(tolerance)
                .localInts("largest", 1).run(workItems);
    }

    void solveOverflow(RowSet rows, TwistStage twist, VelocityState state, Span span, cl_mem residuals,
            int iteration, float tolerance) {
        launch(Signature.SOLVE_OVERFLOW).rows(rows).flag("twist", twist.on()).state(state).span(span)
                .ints("residuals", residuals).integer("iteration", iteration).toleranceBits(tolerance).run(1);
    }

    /**
     * The whole solve of a small batch in one work-group of up to {@link #SMALL_BATCH_GROUP}
     * work-items; {@code outcome} gets the iterations used and the last residual's bits.
     */
    void solveSmallBatch(RowSet rows, TwistStage twist, VelocityState state, ColourStarts starts, boolean warm,
            int iterations, float tolerance, cl_mem outcome) {
        Signature signature = Signature.SOLVE_SMALL_BATCH;
        int group = (int) groupSize(kernels.get(signature), SMALL_BATCH_GROUP);
        launch(signature).rows(rows).flag("twist", twist.on()).state(state).ints("starts", starts.starts()).integer("colours", starts.colours())
                .flag("warm", warm).integer("iterations", iterations).toleranceBits(tolerance)
                .ints("outcome", outcome).localInts("scratch", group).runGroup(group);
    }

    /** Work-items of the one group of {@link #solveSmallBatch}, at most: a colour of a small batch in one pass. */
    static final int SMALL_BATCH_GROUP = 1024;

    void writeStateDeltas(long workItems, cl_mem state, int bodyCount, Strided deltas) {
        launch(Signature.WRITE_STATE_DELTAS).floats("state", state).integer("bodyCount", bodyCount)
                .integer("deltaStride", deltas.stride()).floats("deltas", deltas.memory()).run(workItems);
    }

    void scatterImpulses(long workItems, RowSet rows, TwistStage twist, RowOrder order, Strided impulses) {
        launch(Signature.SCATTER_IMPULSES).floats("row", rows.fields()).integer("rows", rows.count())
                .floats("lambda", rows.lambda()).flag("twist", twist.on()).ints("order", order.order())
                .flag("direct", order.direct()).integer("stride", impulses.stride())
                .floats("impulses", impulses.memory()).run(workItems);
    }

    // ---- the device-resident step (kernels/integrate.cl) ----------------------------------------

    void applyGravity(long workItems, BodyBlock bodies, float gx, float gy, float gz, float dt) {
        launch(Signature.APPLY_GRAVITY).bodies(bodies).real("gx", gx).real("gy", gy).real("gz", gz).real("dt", dt)
                .run(workItems);
    }

    void integrateBodies(long workItems, BodyBlock bodies, Strided deltas, float dt) {
        launch(Signature.INTEGRATE_BODIES).bodies(bodies).floats("deltas", deltas.memory())
                .integer("deltaStride", deltas.stride()).real("dt", dt).run(workItems);
    }

    // ---- the soft step (kernels/soft_step.cl) ----------------------------------------------------

    /**
     * Fills manifold row {@code r} from manifold {@code order[r]} for every row of {@code rows}: its
     * fields, impulses, points (the peak impulses 0) and the motion record each side reads, with the
     * coefficients {@code k} (the stiffer set where a side's slot is the world's) and the
     * restitution threshold of {@code rule}.
     */
    void prepareManifolds(long workItems, ContactBlock contacts, ManifoldSource source, cl_mem order, ManifoldSet rows,
            PointSet points, cl_mem peak, cl_mem movers, PreparedBodies prepared, TargetRule rule,
            SoftCoefficients k) {
        launch(Signature.PREPARE_MANIFOLDS).floats("contacts", contacts.contacts()).ints("links", contacts.links())
                .integer("contactStride", contacts.stride()).ints("firsts", source.firsts()).ints("order", order)
                .manifolds(rows).ints("slots", rows.slots()).floats("acc", rows.impulses()).points(points)
                .floats("peak", peak).ints("movers", movers).floats("geometry", source.geometry())
                .floats("warmNormal", source.warmNormal()).floats("warmVectors", source.warmVectors())
                .ints("solvedStart", source.solvedStart()).integer("worldRecord", prepared.worldRecord())
                .floats("prepared", prepared.memory()).real("restitutionThreshold", rule.restitutionThreshold())
                .real("biasRate", k.biasRate()).real("massScale", k.massScale())
                .real("impulseScale", k.impulseScale()).real("staticBiasRate", k.staticBiasRate())
                .real("staticMassScale", k.staticMassScale()).real("staticImpulseScale", k.staticImpulseScale())
                .floats("warm", rows.warm()).run(workItems);
    }

    void resetMotions(long workItems, cl_mem motion, int bodyCount) {
        launch(Signature.RESET_MOTIONS).floats("motion", motion).integer("bodyCount", bodyCount).run(workItems);
    }

    void applySubstepGravity(long workItems, BodyBlock bodies, cl_mem movable, cl_mem state, float gx, float gy,
            float gz, float h) {
        launch(Signature.APPLY_SUBSTEP_GRAVITY).bodies(bodies).ints("movable", movable).floats("state", state)
                .real("gx", gx).real("gy", gy).real("gz", gz).real("h", h).run(workItems);
    }

    /** The warm start of the manifold rows of {@code span}: one work-item a row, or one in all ({@code serial}). */
    void warmStartManifolds(ManifoldSet rows, VelocityState state, Span span, boolean serial) {
        launch(Signature.WARM_START_MANIFOLDS).floats("warm", rows.warm()).integer("rows", rows.count())
                .ints("slots", rows.slots()).state(state).span(span).flag("serial", serial)
                .run(serial ? 1 : span.count());
    }

    /**
     * A substep's start in one launch, one work-item a body: gravity on a movable body with mass,
     * then the warm start of its rows ({@code bodyRowStart}, {@code bodyRows}: the offsets and
     * entries of {@code SoftStepJob.bodyRows}), the bits of {@link #applySubstepGravity} and a
     * {@link #warmStartManifolds} a colour.
     */
    void startSubstep(long workItems, BodyBlock bodies, cl_mem movable, cl_mem state, float gx, float gy, float gz,
            float h, ManifoldSet rows, cl_mem bodyRowStart, cl_mem bodyRows) {
        launch(Signature.START_SUBSTEP).bodies(bodies).ints("movable", movable).floats("state", state)
                .real("gx", gx).real("gy", gy).real("gz", gz).real("h", h).floats("warm", rows.warm())
                .ints("bodyRowStart", bodyRowStart).ints("bodyRows", bodyRows)
                .run(workItems);
    }

    /**
     * One soft or relax sweep of the manifold rows of {@code span}: one work-item a row, or one in
     * all ({@code serial}); with {@code record} its largest change goes into {@code residuals}, with
     * {@code warmNext} each row's warm start for the next substep into the rows' records.
     */
    void solveManifolds(ManifoldSet rows, PointSet points, cl_mem peak, cl_mem separation, cl_mem movers,
            VelocityState state, cl_mem motion, SoftCoefficients k, boolean relax, boolean friction,
            boolean findSeparation, Span span, boolean serial, cl_mem residuals, boolean record, boolean warmNext) {
        launch(Signature.SOLVE_MANIFOLDS).manifolds(rows).ints("slots", rows.slots()).floats("acc", rows.impulses())
                .points(points).floats("peak", peak).floats("separation", separation).ints("movers", movers)
                .state(state).floats("motion", motion).real("inverseSubstep", k.inverseSubstep())
                .real("maxPushOut", k.maxPushOut()).flag("relax", relax).flag("friction", friction)
                .flag("findSeparation", findSeparation).span(span).flag("serial", serial).ints("residuals", residuals)
                .flag("record", record).floats("warm", rows.warm()).flag("warmNext", warmNext)
                .run(serial ? 1 : span.count());
    }

    void integrateMotions(long workItems, BodyBlock bodies, cl_mem movable, cl_mem state, cl_mem motion, float h) {
        launch(Signature.INTEGRATE_MOTIONS).bodies(bodies).ints("movable", movable).floats("state", state)
                .floats("motion", motion).real("h", h).run(workItems);
    }

    /** The restitution pass over the manifold rows of {@code span}: one work-item a row, or one in all ({@code serial}). */
    void restituteManifolds(ManifoldSet rows, PointSet points, cl_mem peak, VelocityState state, Span span,
            boolean serial, cl_mem residuals) {
        launch(Signature.RESTITUTE_MANIFOLDS).manifolds(rows).ints("slots", rows.slots()).points(points)
                .floats("peak", peak).state(state).span(span).flag("serial", serial).ints("residuals", residuals)
                .run(serial ? 1 : span.count());
    }

    void finishBodies(long workItems, BodyBlock bodies, cl_mem movable, cl_mem state, cl_mem motion, float gx,
            float gy, float gz, float dt, Strided next, Strided deltas) {
        launch(Signature.FINISH_BODIES).bodies(bodies).ints("movable", movable).floats("state", state)
                .floats("motion", motion).real("gx", gx).real("gy", gy).real("gz", gz).real("dt", dt)
                .floats("next", next.memory()).integer("nextStride", next.stride())
                .floats("deltas", deltas.memory()).integer("deltaStride", deltas.stride()).run(workItems);
    }

    /**
     * Every manifold row's results for manifold {@code order[r]}: its points' normal impulses into
     * {@code normalOut} at the manifold's solved points ({@code solvedStart}), its vectors into
     * {@code vectorsOut} (stride the row count).
     */
    void writeManifoldResults(long workItems, ManifoldSet rows, PointSet points, cl_mem order, cl_mem solvedStart,
            cl_mem normalOut, cl_mem vectorsOut) {
        launch(Signature.WRITE_MANIFOLD_RESULTS).manifolds(rows).floats("acc", rows.impulses())
                .floats("normal", points.normal()).ints("order", order).ints("solvedStart", solvedStart)
                .floats("normalOut", normalOut).floats("vectorsOut", vectorsOut).run(workItems);
    }

    /**
     * Every contact's impulses from what its manifold solved ({@code Recycler.report}): manifold
     * {@code m}'s contacts {@code [contactStart[m], contactStart[m + 1])}, its solved points' ids and
     * normal impulses from {@code pointStart[m]}, its vectors with stride {@code manifolds}; the
     * impulses structure of arrays with stride {@code contacts}.
     */
    void reportContactImpulses(int manifolds, cl_mem contactStart, cl_mem pointStart, cl_mem normal, cl_mem vectors,
            cl_mem ids, cl_mem contactIds, int contacts, cl_mem impulses) {
        launch(Signature.REPORT_CONTACT_IMPULSES).ints("contactStart", contactStart).ints("pointStart", pointStart)
                .integer("manifolds", manifolds).floats("normal", normal).floats("vectors", vectors).ints("ids", ids)
                .ints("contactIds", contactIds).integer("contacts", contacts).floats("impulses", impulses)
                .run(manifolds);
    }

    /** A step's manifolds and the points the host planned for them ({@code Recycler.plan}), as {@code recycle_manifolds} reads them. */
    record RecyclePlan(cl_mem contactIds, cl_mem firsts, int manifolds, cl_mem match, cl_mem fates, float limit,
            cl_mem pointStart, int points) {
    }

    /** The previous step's cache as the device holds it, and its contacts' reported impulses; a fresh point's previous contact its own index where {@code sameOrder}, else {@code previousOf}. */
    record RecycleSource(cl_mem captures, cl_mem pointStart, cl_mem ids, cl_mem normal, cl_mem vectors, int manifolds,
            cl_mem impulses, int contacts, boolean sameOrder, cl_mem previousOf) {
    }

    /** What {@code recycle_manifolds} writes: the points' geometry and warm values, the next cache's captures and ids, and the count of kept points (added to). */
    record RecycleTarget(cl_mem geometry, cl_mem warmNormal, cl_mem warmVectors, cl_mem captures, cl_mem ids,
            cl_mem keptCount) {
    }

    /** Every manifold's points written on the device, kept or fresh ({@code Recycler.write}). */
    void recycleManifolds(BodyBlock bodies, cl_mem movable, ContactBlock contacts, RecyclePlan plan,
            RecycleSource previous, RecycleTarget target) {
        launch(Signature.RECYCLE_MANIFOLDS).floats("bodies", bodies.memory()).integer("bodyStride", bodies.stride())
                .ints("movable", movable).floats("contacts", contacts.contacts()).ints("links", contacts.links())
                .integer("contactStride", contacts.stride()).ints("contactIds", plan.contactIds())
                .ints("firsts", plan.firsts()).integer("manifolds", plan.manifolds()).ints("match", plan.match())
                .ints("fates", plan.fates()).real("limit", plan.limit()).ints("pointStart", plan.pointStart())
                .integer("points", plan.points()).floats("oldCaptures", previous.captures())
                .ints("oldPointStart", previous.pointStart()).ints("oldIds", previous.ids())
                .floats("oldNormal", previous.normal()).floats("oldVectors", previous.vectors())
                .integer("oldManifolds", previous.manifolds()).floats("oldImpulses", previous.impulses())
                .integer("oldContacts", previous.contacts()).flag("sameOrder", previous.sameOrder())
                .ints("previousOf", previous.previousOf()).floats("geometry", target.geometry())
                .floats("warmNormal", target.warmNormal()).floats("warmVectors", target.warmVectors())
                .floats("kept", target.captures()).ints("keptIds", target.ids()).ints("keptCount", target.keptCount())
                .run(plan.manifolds());
    }

    /** Where a screen lists its suspects, counts them, and keeps each group's largest sum. */
    record ScreenOutput(cl_mem suspects, cl_mem suspectCount, cl_mem largest) {
    }

    /** {@code InputValidator}'s screen of {@code count} bodies (stride {@code stride}). */
    void screenBodies(cl_mem bodies, int stride, int count, ScreenOutput out) {
        launch(Signature.SCREEN_BODIES).floats("bodies", bodies).integer("stride", stride).integer("count", count)
                .ints("suspects", out.suspects()).ints("suspectCount", out.suspectCount())
                .ints("largest", out.largest()).run(count);
    }

    /**
     * {@code InputValidator}'s screen of {@code count} contacts (their fields and links with stride
     * {@code stride}), {@code ManifoldGrouping}'s of their manifolds' rules ({@code manifolds}:
     * each contact's manifold number), and the validator's friction use
     * ({@code InputMagnitudes.frictionUse}): the bits of the coefficients some contact has above 0
     * into {@code uses[0]} (zeroed first) by atomic or.
     */
    void screenContacts(ContactBlock contacts, cl_mem manifolds, int count, int bodyCount, ScreenOutput out,
            cl_mem uses) {
        launch(Signature.SCREEN_CONTACTS).floats("contacts", contacts.contacts()).ints("links", contacts.links())
                .ints("manifolds", manifolds)
                .integer("stride", contacts.stride()).integer("count", count).integer("bodyCount", bodyCount)
                .ints("suspects", out.suspects()).ints("suspectCount", out.suspectCount())
                .ints("largest", out.largest()).ints("uses", uses).run(count);
    }

    /**
     * The lowest of {@code count} elements with a non-finite value in any of the first
     * {@code fields} fields of {@code values} (stride {@code stride}) into {@code first[slot]} by
     * atomic minimum; {@code first[slot]} is left as it was where every value is finite.
     */
    void firstNonFinite(Strided values, int count, int fields, cl_mem first, int slot) {
        launch(Signature.FIRST_NON_FINITE).floats("values", values.memory()).integer("count", count)
                .integer("stride", values.stride()).integer("fields", fields).ints("first", first)
                .integer("slot", slot).run(count);
    }

    /**
     * The lowest body of {@code count} in {@code values} (stride {@code stride}, the body fields'
     * order) whose orientation the screen cannot clear as a unit quaternion, into {@code first[slot]}
     * by atomic minimum; left as it was where every one is cleared.
     */
    void firstUnsoundOrientation(Strided values, int count, cl_mem first, int slot) {
        launch(Signature.FIRST_UNSOUND_ORIENTATION).floats("values", values.memory()).integer("count", count)
                .integer("stride", values.stride()).ints("first", first).integer("slot", slot).run(count);
    }

    /**
     * A colouring's rows in the hashed order ({@code kernels/colouring.cl}): each row's bodies, the
     * bodies' movable flags, and each row's colour, -1 until it has one.
     */
    record ColourRows(cl_mem pairA, cl_mem pairB, cl_mem movable, int count, int budget, cl_mem colours) {
    }

    /** The first round's claims of the hashed order's colouring: each body's lowest priority into {@code lowest}. */
    void colourClaim(ColourRows rows, cl_mem lowest) {
        launch(Signature.COLOUR_CLAIM).ints("pairA", rows.pairA()).ints("pairB", rows.pairB())
                .ints("movable", rows.movable()).integer("count", rows.count()).ints("lowest", lowest)
                .run(rows.count());
    }

    /**
     * One round of the hashed order's colouring: every row that has the lowest priority in
     * {@code lowest} on each of its movable bodies coloured and counted in {@code done}, every other
     * uncoloured row's claims into {@code next}, and {@code cleared} cleared for the round after.
     */
    void colourRound(ColourRows rows, int bodyCount, cl_mem lowest, cl_mem next, cl_mem cleared, cl_mem masks,
            cl_mem done) {
        launch(Signature.COLOUR_ROUND).ints("pairA", rows.pairA()).ints("pairB", rows.pairB())
                .ints("movable", rows.movable()).integer("count", rows.count()).integer("budget", rows.budget())
                .integer("bodyCount", bodyCount).ints("lowest", lowest).ints("next", next).ints("cleared", cleared)
                .ulongs("masks", masks).ints("colours", rows.colours()).ints("done", done)
                .run(Math.max(rows.count(), bodyCount));
    }

    /** The largest power of two at most {@code cap} work-items that {@code kernel} can run in one group on the device. */
    private long groupSize(cl_kernel kernel, int cap) {
        long[] maxLocal = new long[1];
        clGetKernelWorkGroupInfo(kernel, device, CL_KERNEL_WORK_GROUP_SIZE, Sizeof.size_t, Pointer.to(maxLocal), null);
        return Long.highestOneBit(Math.max(1, Math.min(cap, maxLocal[0])));
    }

    private Launch launch(Signature signature) {
        return new Launch(signature, kernels.get(signature), held.get(signature));
    }

    /**
     * Sets one kernel's arguments in order, each named and checked against the signature as it is
     * set (a launch that names another argument than the kernel declares next is refused), then
     * enqueues it.
     */
    private final class Launch {
        private final Signature signature;
        private final cl_kernel kernel;
        private final Held held;
        private int next;

        Launch(Signature signature, cl_kernel kernel, Held held) {
            this.signature = signature;
            this.kernel = kernel;
            this.held = held;
        }

        Launch floats(String name, cl_mem memory) {
            return memory(Arg.FLOATS, name, memory);
        }

        Launch ints(String name, cl_mem memory) {
            return memory(Arg.INTS, name, memory);
        }

        Launch ulongs(String name, cl_mem memory) {
            return memory(Arg.ULONGS, name, memory);
        }

        Launch integer(String name, int value) {
            int at = position(Arg.INT, name);
            if (!held.holdsOrTakes(at, value)) {
                set(at, Sizeof.cl_int, Pointer.to(new int[] {value}));
            }
            return this;
        }

        /** A boolean as the kernels take it: an int, 1 or 0. */
        Launch flag(String name, boolean value) {
            return integer(name, value ? 1 : 0);
        }

        Launch real(String name, float value) {
            int at = position(Arg.FLOAT, name);
            if (!held.holdsOrTakes(at, Float.floatToRawIntBits(value))) {
                set(at, Sizeof.cl_float, Pointer.to(new float[] {value}));
            }
            return this;
        }

        /** A tolerance as the kernels compare it: its bits, as an int. */
        Launch toleranceBits(float tolerance) {
            return integer("toleranceBits", Float.floatToRawIntBits(tolerance));
        }

        /** The four floats of a target rule, in the kernels' order. */
        Launch targets(TargetRule rule) {
            return real("restitutionThreshold", rule.restitutionThreshold())
                    .real("inverseTimeStep", rule.inverseTimeStep()).real("biasFactor", rule.biasFactor())
                    .real("slop", rule.slop());
        }

        /** The bodies, their stride and count, as the kernels declare them one after the other. */
        Launch bodies(BodyBlock bodies) {
            return floats("bodies", bodies.memory()).integer("stride", bodies.stride())
                    .integer("bodyCount", bodies.count());
        }

        /** The rows, their count, slots and accumulated impulses, as the row kernels declare them. */
        Launch rows(RowSet rows) {
            return floats("row", rows.fields()).integer("rows", rows.count()).ints("slots", rows.slots())
                    .floats("lambda", rows.lambda());
        }

        /** The velocity state and the world's slot in it, as the row kernels declare them. */
        Launch state(VelocityState state) {
            return floats("state", state.memory()).integer("worldSlot", state.worldSlot());
        }

        /** A soft step's manifold rows, their count and first points, as the manifold kernels declare them. */
        Launch manifolds(ManifoldSet rows) {
            return floats("man", rows.fields()).integer("rows", rows.count()).ints("pointStart", rows.pointStart());
        }

        /** The manifolds' points, their count and accumulated normal impulses, as the manifold kernels declare them. */
        Launch points(PointSet points) {
            return floats("pts", points.fields()).integer("points", points.count()).floats("normal", points.normal());
        }

        Launch span(Span span) {
            return integer("first", span.first()).integer("count", span.count());
        }

        Launch localInts(String name, int count) {
            int at = position(Arg.LOCAL_INTS, name);
            held.forget(at);
            set(at, (long) count * Sizeof.cl_int, null);
            return this;
        }

        private Launch memory(Arg kind, String name, cl_mem memory) {
            int at = position(kind, name);
            if (!held.holdsOrTakes(at, memory)) {
                set(at, Sizeof.cl_mem, Pointer.to(memory));
            }
            return this;
        }

        /** Sets argument {@code at}; if the device refuses it, the argument is forgotten, so the next launch sets it again. */
        private void set(int at, long size, Pointer value) {
            try {
                clSetKernelArg(kernel, at, size, value);
            } catch (RuntimeException e) {
                held.forget(at);
                throw e;
            }
        }

        private int position(Arg kind, String name) {
            String refusal = signature.refusal(next, kind, name);
            if (refusal != null) {
                throw new IllegalStateException(refusal);
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
            if (held.groupSize < 0) {
                held.groupSize = groupSize(kernel, LOCAL_SIZE);
            }
            long local = held.groupSize;
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
