package io.contactsolver;

import io.contactsolver.core.BackendUnavailableException;
import java.util.Optional;

/**
 * The limits the OpenCL path is measured against, on one device: how fast the link moves a buffer
 * up (from a direct buffer, as a solve's uploads do) and down, and how fast the device copies a
 * buffer within its own memory. Each copy is timed by the device's profiling events, as a solve's
 * {@link io.contactsolver.layout.SolvePhase#TRANSFER} and {@link io.contactsolver.layout.SolvePhase#SOLVE}
 * are on the device's clock ({@link SolveResult#deviceNanos}), so the figures compare directly.
 *
 * <p>Public for benchmarks of the OpenCL path, such as the contact-solver bench command's bandwidth
 * rows: they set a solve's copies against what the link allows on the very device a solver takes
 * for the same selector, which only the library can pick. The OpenCL handles stay inside the
 * library. Not thread-safe; close it to release the device's buffers.
 */
public final class TransferProbe implements AutoCloseable {
    private final io.contactsolver.opencl.TransferProbe probe;

    private TransferProbe(io.contactsolver.opencl.TransferProbe probe) {
        this.probe = probe;
    }

    /**
     * A probe on one OpenCL device, over buffers of {@code bytes}.
     *
     * @param deviceSelector a device index as {@link ContactSolver#devices()} lists it, or a
     *     case-insensitive part of a device name, as {@link SolverConfig#withDevice} takes; empty for
     *     the first GPU, else the first accelerator, else the first device
     * @param bytes the size of each copy; the device's largest allocation where that is smaller
     * @return an open probe, its buffers made and touched once
     * @throws IllegalStateException naming the reason when there is no such device: the OpenCL library
     *     cannot be loaded, there is no platform or device, or none matches the selector
     */
    public static TransferProbe open(Optional<String> deviceSelector, long bytes) {
        try {
            return new TransferProbe(io.contactsolver.opencl.TransferProbe.open(deviceSelector, bytes));
        } catch (BackendUnavailableException e) {
            throw new IllegalStateException(e.getMessage(), e);
        } catch (LinkageError e) {
            throw new IllegalStateException("the OpenCL library could not be loaded (" + e + ")", e);
        }
    }

    /**
     * The device the probe runs on.
     *
     * @return its name, as {@link DeviceInfo#name()} gives it
     */
    public String deviceName() {
        return probe.deviceName();
    }

    /**
     * How many bytes each copy moves.
     *
     * @return the buffers' size
     */
    public long bytes() {
        return probe.bytes();
    }

    /**
     * Writes the buffer from host memory to the device once.
     *
     * @return the seconds it took, on the device's clock
     */
    public double upload() {
        return probe.upload();
    }

    /**
     * Reads the buffer from the device into host memory once.
     *
     * @return the seconds it took, on the device's clock
     */
    public double readback() {
        return probe.readback();
    }

    /**
     * Copies the buffer to another on the device once: {@link #bytes()} read and as many written.
     *
     * @return the seconds it took, on the device's clock
     */
    public double deviceCopy() {
        return probe.deviceCopy();
    }

    /** Releases the device's buffers, queue and context; a second call does nothing. */
    @Override
    public void close() {
        probe.close();
    }
}
