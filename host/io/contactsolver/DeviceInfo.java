package io.contactsolver;

/**
 * One OpenCL device as {@link ContactSolver#devices()} lists it, in plain Java types.
 *
 * @param index counts devices across all platforms, in platform order: what
 *     {@link SolverConfig#withDevice} takes
 * @param type "GPU", "CPU", "accelerator" or "other"
 * @param globalMemory bytes
 * @param maxAllocation the largest single buffer, bytes
 * @param correctlyRounded whether the device divides and takes square roots correctly rounded,
 *     which bit-identical results with the CPU need
 * @param summary the whole description in one line
 */
public record DeviceInfo(int index, String platform, String platformVersion, String name, String vendor,
        String version, String type, int computeUnits, long globalMemory, long maxAllocation,
        boolean correctlyRounded, String summary) {
}
