package io.contactsolver;

import java.util.Objects;
import java.util.Optional;

/**
 * How a {@link ContactSolver} is set up: which backend, which OpenCL device, how many CPU threads.
 * Immutable; the {@code with} methods return a changed copy.
 *
 * <p>The OpenCL device is chosen by {@link #withDevice}, else by the system property
 * {@value #DEVICE_PROPERTY}, else by the environment variable {@value #DEVICE_ENV}; the value is a
 * device index as listed by the {@code devices} command, or a case-insensitive part of a device
 * name. Without one, a GPU is preferred, then any OpenCL device.
 */
public final class SolverConfig {
    /** The system property that chooses the OpenCL device when {@link #withDevice} did not. */
    public static final String DEVICE_PROPERTY = "contactsolver.device";
    /** The environment variable that chooses the OpenCL device when neither {@link #withDevice} nor the property did. */
    public static final String DEVICE_ENV = "CONTACT_SOLVER_DEVICE";
    /** The most CPU threads a solver takes. */
    public static final int MAX_THREADS = 4096;

    private final Backend backend;
    private final String device;
    private final int threads;

    private SolverConfig(Backend backend, String device, int threads) {
        this.backend = Objects.requireNonNull(backend, "backend");
        if (threads < 1 || threads > MAX_THREADS) {
            throw new IllegalArgumentException("threads must be between 1 and " + MAX_THREADS + ", got " + threads);
        }
        this.device = device;
        this.threads = threads;
    }

    /**
     * {@link Backend#AUTO}, no device chosen, one CPU thread per available processor.
     *
     * @return the default configuration
     */
    public static SolverConfig defaults() {
        return new SolverConfig(Backend.AUTO, null, Math.min(MAX_THREADS, Runtime.getRuntime().availableProcessors()));
    }

    /**
     * Chooses where solves run.
     *
     * @param newBackend {@link Backend#AUTO} (the default), {@link Backend#CPU} or {@link Backend#OPENCL}
     * @return a copy with the new backend
     * @throws NullPointerException if {@code newBackend} is null
     */
    public SolverConfig withBackend(Backend newBackend) {
        return new SolverConfig(newBackend, device, threads);
    }

    /**
     * Chooses the OpenCL device by index or by part of its name; {@code null} to choose automatically.
     *
     * @param newDevice a device index as {@link ContactSolver#devices()} lists it, or a
     *     case-insensitive part of a device name; surrounding blanks are ignored, and {@code null} or
     *     a blank string leaves the choice to {@link #DEVICE_PROPERTY}, {@link #DEVICE_ENV} or the
     *     automatic order
     * @return a copy with the new device selector
     */
    public SolverConfig withDevice(String newDevice) {
        return new SolverConfig(backend, newDevice == null || newDevice.isBlank() ? null : newDevice.trim(), threads);
    }

    /**
     * Threads for the CPU backend and for the host-side work of every solve (validation, index).
     * Results do not depend on the thread count, bit for bit.
     *
     * @param newThreads from 1 to {@link #MAX_THREADS}
     * @return a copy with the new thread count
     * @throws IllegalArgumentException if {@code newThreads} is out of that range
     */
    public SolverConfig withThreads(int newThreads) {
        return new SolverConfig(backend, device, newThreads);
    }

    /**
     * Where solves run.
     *
     * @return the backend asked for, {@link Backend#AUTO} unless changed
     */
    public Backend backend() {
        return backend;
    }

    /**
     * Threads for the CPU backend and the host-side work.
     *
     * @return from 1 to {@link #MAX_THREADS}
     */
    public int threads() {
        return threads;
    }

    /**
     * The device selector: the one set here, else the system property, else the environment.
     * The property and the variable are read at each call.
     *
     * @return the selector, trimmed, or empty to choose automatically
     */
    public Optional<String> device() {
        if (device != null) {
            return Optional.of(device);
        }
        String property = System.getProperty(DEVICE_PROPERTY);
        if (property != null && !property.isBlank()) {
            return Optional.of(property.trim());
        }
        String env = System.getenv(DEVICE_ENV);
        return env == null || env.isBlank() ? Optional.empty() : Optional.of(env.trim());
    }

    @Override
    public String toString() {
        return "SolverConfig[backend=" + backend + ", device=" + device().orElse("auto") + ", threads=" + threads + "]";
    }
}
