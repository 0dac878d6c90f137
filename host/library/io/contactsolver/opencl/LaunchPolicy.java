package io.contactsolver.opencl;

import io.contactsolver.opencl.OpenClDevices.Device;
import java.util.Locale;

/**
 * How the iterative solve is launched on a device: a batch of at most {@link #oneGroupRows()} rows
 * (in one chunk) runs its warm start and every iteration in one launch of one work-group, a larger
 * one as a launch per colour per iteration. Both paths give the same bits; only the speed differs.
 *
 * <p>The choice is by device type, not by platform name:
 * <ul>
 *   <li>a CPU device (PoCL): one work-group runs on one core, but a launch costs tens of
 *       microseconds, two a colour an iteration; up to {@link IterativePipeline#SMALL_BATCH_ROWS}
 *       rows the launches cost more than the lost width (the bench's iteration-cost table
 *       measures it);</li>
 *   <li>a GPU or accelerator: one work-group occupies one of its compute units and leaves the
 *       others idle, while a launch costs a few microseconds; one group pays only while every row
 *       of a colour has a lane of its own and no lane loops, so the threshold is the group's width,
 *       {@link Kernels#SMALL_BATCH_GROUP} rows. Reasoned, not yet measured on a GPU (none was
 *       lent); the property below forces either path where one is.</li>
 * </ul>
 * The system property {@value #PROPERTY} ({@code one-group} or {@code per-colour}) forces a path
 * on any device, so both are tested on PoCL.
 */
record LaunchPolicy(int oneGroupRows, String reason) {
    static final String PROPERTY = "contactsolver.launch";

    static LaunchPolicy forDevice(Device device) {
        String forced = System.getProperty(PROPERTY, "").trim().toLowerCase(Locale.ROOT);
        switch (forced) {
            case "one-group":
                return new LaunchPolicy(Integer.MAX_VALUE, PROPERTY + "=one-group");
            case "per-colour":
                return new LaunchPolicy(0, PROPERTY + "=per-colour");
            case "":
                break;
            default:
                throw new IllegalArgumentException(PROPERTY + " must be 'one-group' or 'per-colour', got '"
                        + System.getProperty(PROPERTY) + "'");
        }
        if (OpenClDevices.isOffload(device)) {
            return new LaunchPolicy(Kernels.SMALL_BATCH_GROUP, "a " + device.typeName()
                    + ": one work-group only while each row of a colour has a lane of its own");
        }
        return new LaunchPolicy(IterativePipeline.SMALL_BATCH_ROWS,
                "a CPU device: launches cost more than one group's lost width up to this many rows");
    }

    /** Whether a batch of {@code rows} in {@code chunks} chunks runs in one work-group. */
    boolean oneGroup(int rows, int chunks) {
        return chunks == 1 && rows <= oneGroupRows;
    }
}
