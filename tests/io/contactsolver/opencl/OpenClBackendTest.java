package io.contactsolver.opencl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.contactsolver.core.BackendFailureException;
import io.contactsolver.core.BackendUnavailableException;
import io.contactsolver.core.PreparedBodyField;
import io.contactsolver.core.SolverBackend;
import io.contactsolver.layout.BodyField;
import io.contactsolver.layout.ContactBody;
import io.contactsolver.layout.ContactField;
import io.contactsolver.layout.DeltaField;
import io.contactsolver.opencl.OpenClDevices.Device;
import java.util.List;
import java.util.Optional;
import org.jocl.CL;
import org.junit.jupiter.api.Test;

class OpenClBackendTest {

    @Test
    void aKernelThatDoesNotCompileIsReportedWithItsBuildLog() {
        OpenClTestAccess.requireDevice();
        BackendUnavailableException failure = assertThrows(BackendUnavailableException.class,
                () -> OpenClBackend.open(Optional.empty(), List.of("__kernel void broken(__global float* x) { x[0] = undeclared; }")));
        assertTrue(failure.getMessage().startsWith("OpenCL kernel build failed on '"), failure.getMessage());
        assertTrue(failure.getMessage().contains("build log:"), failure.getMessage());
        assertTrue(failure.getMessage().contains("undeclared"), "the log names the culprit: " + failure.getMessage());
    }

    @Test
    void aMissingKernelResourceIsAnErrorNotAnEmptySource() {
        IllegalStateException failure = assertThrows(IllegalStateException.class,
                () -> KernelSource.load(List.of("common.cl", "no_such_kernel.cl")));
        assertEquals("OpenCL kernel source /kernels/no_such_kernel.cl is missing from the classpath", failure.getMessage());
    }

    @Test
    void thePackagedKernelsAreOnTheClasspath() {
        List<String> sources = KernelSource.load();
        assertEquals(KernelSource.FILES.size(), sources.size());
        assertTrue(sources.get(0).contains("#pragma OPENCL FP_CONTRACT OFF"));
    }

    @Test
    void buildOptionsCarryTheWholeLayoutFromTheJavaEnums() {
        String options = KernelSource.buildOptions(true);
        for (BodyField field : BodyField.values()) {
            assertTrue(options.contains(" -DBODY_" + field.name() + "=" + field.ordinal() + " ")
                    || options.startsWith("-DBODY_" + field.name() + "=" + field.ordinal() + " "), field.name());
        }
        assertTrue(options.contains("-DCONTACT_RESTITUTION=" + ContactField.RESTITUTION.ordinal()));
        assertTrue(options.contains("-DLINK_B=" + ContactBody.B.ordinal()));
        assertTrue(options.contains("-DDELTA_DWZ=" + DeltaField.DWZ.ordinal()));
        assertTrue(options.contains("-DPREP_IYZ=" + PreparedBodyField.IYZ.ordinal()));
        assertTrue(options.contains("-DPREP_STRIDE=16"));
        assertTrue(options.endsWith(" -cl-fp32-correctly-rounded-divide-sqrt"));
        assertTrue(!KernelSource.buildOptions(false).contains("correctly-rounded"));
        assertTrue(!options.contains("fast-relaxed-math") && !options.contains("mad-enable"));
    }

    @Test
    void aDeviceErrorDuringASolveBecomesABackendFailure() throws Exception {
        OpenClTestAccess.requireDevice();
        // the first stage, before the job is read: every stage is covered end to end in BackendSelectionTest
        SolverBackend backend = OpenClTestAccess.openFailingAt(Optional.empty(), "upload");
        try {
            BackendFailureException failure = assertThrows(BackendFailureException.class,
                    () -> backend.solveSinglePass(null));
            assertTrue(failure.getMessage().contains("CL_OUT_OF_RESOURCES"), failure.getMessage());
        } finally {
            backend.close();
        }
        backend.close(); // closing twice is harmless
    }

    // ---- device choice ----------------------------------------------------------------------

    static Device fake(int index, String name, long type) {
        return new Device(index, null, null, "platform", "OpenCL 3.0", name, "vendor", "OpenCL 3.0", type, 4, 1L << 30,
                1L << 28, true);
    }

    private static final List<Device> DEVICES = List.of(
            fake(0, "pthread-skylake-avx512", CL.CL_DEVICE_TYPE_CPU),
            fake(1, "NVIDIA H100 80GB HBM3", CL.CL_DEVICE_TYPE_GPU),
            fake(2, "NVIDIA H200", CL.CL_DEVICE_TYPE_GPU));

    @Test
    void withoutASelectorTheFirstGpuIsPreferredOverEarlierCpus() throws Exception {
        assertEquals(1, OpenClDevices.select(DEVICES, Optional.empty()).index());
        assertEquals(0, OpenClDevices.select(DEVICES.subList(0, 1), Optional.empty()).index(), "else any device");
    }

    @Test
    void autoTakesAGpuThenAnAcceleratorAndNeverACpuDeviceUnasked() throws Exception {
        assertEquals(1, OpenClDevices.selectForAuto(DEVICES, Optional.empty()).index());
        List<Device> cpuAndAccelerator = List.of(DEVICES.get(0), fake(1, "fpga", CL.CL_DEVICE_TYPE_ACCELERATOR));
        assertEquals(1, OpenClDevices.selectForAuto(cpuAndAccelerator, Optional.empty()).index());
        BackendUnavailableException cpuOnly = assertThrows(BackendUnavailableException.class,
                () -> OpenClDevices.selectForAuto(DEVICES.subList(0, 1), Optional.empty()));
        assertTrue(cpuOnly.getMessage().startsWith(
                "no GPU or accelerator among the OpenCL devices (0 'pthread-skylake-avx512' [CPU]); "), cpuOnly.getMessage());
        assertEquals(0, OpenClDevices.selectForAuto(DEVICES.subList(0, 1), Optional.of("0")).index(),
                "naming the CPU device is asking for it");
    }

    @Test
    void aSelectorIsAnIndexOrPartOfAName() throws Exception {
        assertEquals(0, OpenClDevices.select(DEVICES, Optional.of("0")).index());
        assertEquals(2, OpenClDevices.select(DEVICES, Optional.of("h200")).index());
        assertEquals(1, OpenClDevices.select(DEVICES, Optional.of("NVIDIA")).index(), "first match");
        BackendUnavailableException none = assertThrows(BackendUnavailableException.class,
                () -> OpenClDevices.select(DEVICES, Optional.of("radeon")));
        assertEquals("no OpenCL device matches 'radeon' (devices: 0 'pthread-skylake-avx512' [CPU], "
                + "1 'NVIDIA H100 80GB HBM3' [GPU], 2 'NVIDIA H200' [GPU])", none.getMessage());
        assertThrows(BackendUnavailableException.class, () -> OpenClDevices.select(DEVICES, Optional.of("7")));
        assertThrows(BackendUnavailableException.class, () -> OpenClDevices.select(DEVICES, Optional.of("99999999999")),
                "an index beyond int is no device, not a NumberFormatException");
    }

    /** A selector is echoed in the refusal (and so in fallbackReason() and the auto log line) safely quoted. */
    @Test
    void aSelectorIsQuotedSafelyInTheRefusal() {
        BackendUnavailableException hostile = assertThrows(BackendUnavailableException.class,
                () -> OpenClDevices.select(DEVICES, Optional.of("gpu\u001b]0;owned\u0007\nINFO: fake")));
        String message = hostile.getMessage();
        assertTrue(message.startsWith("no OpenCL device matches 'gpu\\u001b]0;owned\\u0007\\nINFO: fake' (devices: "),
                message);
        assertTrue(message.chars().noneMatch(Character::isISOControl), message);
    }
}
