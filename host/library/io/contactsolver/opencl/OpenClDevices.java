package io.contactsolver.opencl;

import io.contactsolver.core.Quoting;
import static org.jocl.CL.CL_DEVICE_GLOBAL_MEM_SIZE;
import static org.jocl.CL.CL_DEVICE_MAX_COMPUTE_UNITS;
import static org.jocl.CL.CL_DEVICE_MAX_MEM_ALLOC_SIZE;
import static org.jocl.CL.CL_DEVICE_NAME;
import static org.jocl.CL.CL_DEVICE_SINGLE_FP_CONFIG;
import static org.jocl.CL.CL_DEVICE_TYPE;
import static org.jocl.CL.CL_DEVICE_TYPE_ACCELERATOR;
import static org.jocl.CL.CL_DEVICE_TYPE_ALL;
import static org.jocl.CL.CL_DEVICE_TYPE_CPU;
import static org.jocl.CL.CL_DEVICE_TYPE_GPU;
import static org.jocl.CL.CL_DEVICE_VENDOR;
import static org.jocl.CL.CL_DEVICE_VERSION;
import static org.jocl.CL.CL_DEVICE_NOT_FOUND;
import static org.jocl.CL.CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT;
import static org.jocl.CL.CL_PLATFORM_NAME;
import static org.jocl.CL.CL_PLATFORM_VERSION;
import static org.jocl.CL.clGetDeviceIDs;
import static org.jocl.CL.clGetDeviceInfo;
import static org.jocl.CL.clGetPlatformIDs;
import static org.jocl.CL.clGetPlatformInfo;

import io.contactsolver.core.BackendUnavailableException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.jocl.CL;
import org.jocl.CLException;
import org.jocl.Pointer;
import org.jocl.Sizeof;
import org.jocl.cl_device_id;
import org.jocl.cl_platform_id;

/**
 * The OpenCL devices of this machine, and the choice among them.
 *
 * <p>Discovery runs once a JVM, under a lock, and its outcome is kept: the device list (immutable,
 * its handles valid for the life of the process) or why there is none. The platform's first
 * initialisation is not safe to race: two threads asking for the first devices at once have had
 * PoCL report no device on its platform, or crash the JVM reading a device's name.
 */
public final class OpenClDevices {
    /** The devices found, once found; guarded by the class lock. */
    private static List<Device> discovered;
    /** Why discovery found none, once it has failed; guarded by the class lock. */
    private static BackendUnavailableException unavailable;
    /** JOCL's native library or libOpenCL.so.1 failing to load, once it has; guarded by the class lock. */
    private static LinkageError libraryFailure;

    private OpenClDevices() {
    }

    /** One OpenCL device; {@code index} counts devices across all platforms, in platform order. */
    public record Device(int index, cl_platform_id platform, cl_device_id id, String platformName,
            String platformVersion, String name, String vendor, String version, long type, int computeUnits,
            long globalMemory, long maxAllocation, boolean correctlyRoundedDivide) {

        public boolean isGpu() {
            return (type & CL_DEVICE_TYPE_GPU) != 0;
        }

        public String typeName() {
            if ((type & CL_DEVICE_TYPE_GPU) != 0) {
                return "GPU";
            }
            if ((type & CL_DEVICE_TYPE_CPU) != 0) {
                return "CPU";
            }
            return (type & CL_DEVICE_TYPE_ACCELERATOR) != 0 ? "accelerator" : "other";
        }

        /** One line for logs and the {@code devices} command. */
        public String summary() {
            return String.format(Locale.ROOT, "%d: %s [%s, %s] %d compute units, %.1f GiB, max buffer %.1f GiB, %s",
                    index, name, typeName(), version, computeUnits, globalMemory / 1073741824.0,
                    maxAllocation / 1073741824.0,
                    correctlyRoundedDivide ? "correctly rounded divide" : "division not correctly rounded");
        }
    }

    /**
     * Every device of every platform, found by the first call of the JVM; every later call, on any
     * thread, gets the same list or the same reason.
     *
     * @throws BackendUnavailableException if the OpenCL library is certainly not loadable (see
     *     {@link OpenClLibrary}), or there is no platform or no device
     * @throws LinkageError if JOCL's native library or libOpenCL.so.1 cannot be loaded
     */
    public static synchronized List<Device> list() throws BackendUnavailableException {
        if (discovered == null && unavailable == null && libraryFailure == null) {
            try {
                discovered = List.copyOf(discover());
            } catch (BackendUnavailableException e) {
                unavailable = e;
            } catch (LinkageError e) {
                libraryFailure = e;
            }
        }
        if (unavailable != null) {
            throw new BackendUnavailableException(unavailable.getMessage(), unavailable);
        }
        if (libraryFailure != null) {
            throw libraryFailure; // the same error every time: JOCL answers a second try with a vaguer one
        }
        return discovered;
    }

    private static List<Device> discover() throws BackendUnavailableException {
        Optional<String> unloadable = OpenClLibrary.unloadable();
        if (unloadable.isPresent()) {
            // said here, before JOCL would print its own lines about it on standard output
            throw new BackendUnavailableException("OpenCL library could not be loaded (" + unloadable.get() + ")");
        }
        // a process-wide switch, turned on once here and never off: every OpenCL call of the backend
        // relies on errors arriving as CLException
        CL.setExceptionsEnabled(true);
        int[] count = new int[1];
        try {
            clGetPlatformIDs(0, null, count);
        } catch (CLException e) {
            throw new BackendUnavailableException("no OpenCL platform found (" + e.getMessage() + ")", e);
        }
        if (count[0] == 0) {
            throw new BackendUnavailableException("no OpenCL platform found");
        }
        cl_platform_id[] platforms = new cl_platform_id[count[0]];
        clGetPlatformIDs(platforms.length, platforms, null);
        List<Device> devices = new ArrayList<>();
        for (cl_platform_id platform : platforms) {
            for (cl_device_id id : devicesOf(platform)) {
                devices.add(describe(devices.size(), platform, id));
            }
        }
        if (devices.isEmpty()) {
            throw new BackendUnavailableException("no OpenCL device found on " + platforms.length + " platform(s)");
        }
        return devices;
    }

    /** Whether the device is a GPU or an accelerator: one that is not the CPU cores the Java backend already runs on. */
    public static boolean isOffload(Device device) {
        return (device.type() & (CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_ACCELERATOR)) != 0;
    }

    /** The first GPU, else the first accelerator: the devices worth leaving the Java backend for. */
    static Optional<Device> firstOffload(List<Device> devices) {
        Optional<Device> gpu = devices.stream().filter(Device::isGpu).findFirst();
        return gpu.isPresent() ? gpu : devices.stream().filter(OpenClDevices::isOffload).findFirst();
    }

    /**
     * The device named by {@code selector} (an index from {@link #list()}, or a case-insensitive part
     * of a device name), else the first GPU, else the first accelerator, else the first device.
     */
    public static Device select(List<Device> devices, Optional<String> selector) throws BackendUnavailableException {
        if (selector.isEmpty()) {
            return firstOffload(devices).orElse(devices.get(0));
        }
        String wanted = selector.get();
        if (wanted.matches("\\d{1,9}")) { // longer digit strings are no index of ours, and would overflow int
            int index = Integer.parseInt(wanted);
            if (index < devices.size()) {
                return devices.get(index);
            }
        } else {
            String part = wanted.toLowerCase(Locale.ROOT);
            for (Device device : devices) {
                if (device.name().toLowerCase(Locale.ROOT).contains(part)) {
                    return device;
                }
            }
        }
        // the selector comes from the caller, the environment or a command line: quoted safely
        throw new BackendUnavailableException("no OpenCL device matches '" + Quoting.field(wanted) + "' (devices: "
                + Quoting.escape(known(devices)) + ")");
    }

    /**
     * The choice of {@code Backend.AUTO}: the device named by {@code selector} (naming one is asking
     * for it), else the first GPU, else the first accelerator. An OpenCL CPU device is never taken
     * unasked: it runs on the same cores as the Java CPU backend, which is faster there (the
     * per-colour barriers of the Java team cost less than a kernel launch each; docs/backends.md,
     * "Choosing the backend"), and both give the same bits.
     *
     * @throws BackendUnavailableException naming the devices found when none is a GPU or accelerator
     */
    public static Device selectForAuto(List<Device> devices, Optional<String> selector)
            throws BackendUnavailableException {
        if (selector.isPresent()) {
            return select(devices, selector);
        }
        Optional<Device> offload = firstOffload(devices);
        if (offload.isEmpty()) {
            throw new BackendUnavailableException("no GPU or accelerator among the OpenCL devices (" + known(devices)
                    + "); an OpenCL CPU device is slower than the Java CPU backend on the same cores, so AUTO uses "
                    + "it only when asked for (Backend.OPENCL or a device selector)");
        }
        return offload.get();
    }

    /** The devices as {@code index 'name' [type]}, comma separated, for messages. */
    private static String known(List<Device> devices) {
        StringBuilder known = new StringBuilder();
        for (Device device : devices) {
            known.append(known.length() == 0 ? "" : ", ").append(device.index()).append(" '").append(device.name())
                    .append("' [").append(device.typeName()).append(']');
        }
        return known.toString();
    }

    private static cl_device_id[] devicesOf(cl_platform_id platform) {
        int[] count = new int[1];
        try {
            clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, null, count);
        } catch (CLException e) {
            if (e.getStatus() == CL_DEVICE_NOT_FOUND) {
                return new cl_device_id[0];
            }
            throw e;
        }
        cl_device_id[] ids = new cl_device_id[count[0]];
        if (ids.length > 0) {
            clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, ids.length, ids, null);
        }
        return ids;
    }

    private static Device describe(int index, cl_platform_id platform, cl_device_id id) {
        long fpConfig = deviceLong(id, CL_DEVICE_SINGLE_FP_CONFIG);
        return new Device(index, platform, id, platformString(platform, CL_PLATFORM_NAME),
                platformString(platform, CL_PLATFORM_VERSION), deviceString(id, CL_DEVICE_NAME),
                deviceString(id, CL_DEVICE_VENDOR), deviceString(id, CL_DEVICE_VERSION),
                deviceLong(id, CL_DEVICE_TYPE), deviceInt(id, CL_DEVICE_MAX_COMPUTE_UNITS),
                deviceLong(id, CL_DEVICE_GLOBAL_MEM_SIZE), deviceLong(id, CL_DEVICE_MAX_MEM_ALLOC_SIZE),
                (fpConfig & CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT) != 0);
    }

    private static String deviceString(cl_device_id id, int param) {
        long[] size = new long[1];
        clGetDeviceInfo(id, param, 0, null, size);
        byte[] bytes = new byte[(int) size[0]];
        clGetDeviceInfo(id, param, bytes.length, Pointer.to(bytes), null);
        return cString(bytes);
    }

    private static String platformString(cl_platform_id platform, int param) {
        long[] size = new long[1];
        clGetPlatformInfo(platform, param, 0, null, size);
        byte[] bytes = new byte[(int) size[0]];
        clGetPlatformInfo(platform, param, bytes.length, Pointer.to(bytes), null);
        return cString(bytes);
    }

    private static long deviceLong(cl_device_id id, int param) {
        long[] value = new long[1];
        clGetDeviceInfo(id, param, Sizeof.cl_ulong, Pointer.to(value), null);
        return value[0];
    }

    private static int deviceInt(cl_device_id id, int param) {
        int[] value = new int[1];
        clGetDeviceInfo(id, param, Sizeof.cl_uint, Pointer.to(value), null);
        return value[0];
    }

    private static String cString(byte[] bytes) {
        int length = 0;
        while (length < bytes.length && bytes[length] != 0) {
            length++;
        }
        return new String(bytes, 0, length, StandardCharsets.UTF_8).trim();
    }
}
