package io.contactsolver.app;

import io.contactsolver.SolverConfig;
import picocli.CommandLine.Option;

/** {@code --device} and {@code --threads}: which OpenCL device and how many CPU threads; one declaration for every command. */
public final class DeviceOptions {
    @Option(names = "--device", paramLabel = "INDEX|NAME",
            description = "OpenCL device: an index from 'devices' or part of a name (also -Dcontactsolver.device, CONTACT_SOLVER_DEVICE).")
    String device;

    @Option(names = "--threads", paramLabel = "N", converter = ThreadCount.class,
            description = "CPU threads (default: all processors).")
    Integer threads;

    /** The device selector, or null for automatic. */
    public String device() {
        return device;
    }

    /** The thread count, or null for all processors. */
    public Integer threads() {
        return threads;
    }

    /** {@code config} with this device and, if given, this thread count. */
    public SolverConfig applyTo(SolverConfig config) {
        SolverConfig withDevice = config.withDevice(device);
        return threads == null ? withDevice : withDevice.withThreads(threads);
    }
}
