package io.contactsolver;

/**
 * One OpenCL device as {@link ContactSolver#devices()} lists it, in plain Java types.
 *
 * @param index counts devices across all platforms, in platform order: what
 *     {@link SolverConfig#withDevice} takes
 * @param platform the name of the OpenCL platform (the driver) the device belongs to
 * @param platformVersion the platform's OpenCL version string, such as {@code "OpenCL 3.0 ..."}
 * @param name the device's name, which a device selector may match a part of
 * @param vendor the device's vendor
 * @param version the device's OpenCL version string
 * @param type "GPU", "CPU", "accelerator" or "other"
 * @param computeUnits the device's parallel compute units
 * @param globalMemory bytes
 * @param maxAllocation the largest single buffer, bytes
 * @param correctlyRounded whether the device divides and takes square roots correctly rounded,
 *     which bit-identical results with the CPU need
 * @param summary the whole description in one line, as the {@code devices} command prints it
 */
public record DeviceInfo(int index, String platform, String platformVersion, String name, String vendor,
        String version, String type, int computeUnits, long globalMemory, long maxAllocation,
        boolean correctlyRounded, String summary) {
}
