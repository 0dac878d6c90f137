package io.contactsolver.opencl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.contactsolver.ContactSolver;
import io.contactsolver.RigidSettings;
import io.contactsolver.SolveResult;
import io.contactsolver.SolveSettings;
import io.contactsolver.opencl.OpenClDevices.Device;
import io.contactsolver.scene.Scene;
import io.contactsolver.scene.SceneGenerator;
import io.contactsolver.testing.Backends;
import io.contactsolver.testing.Bits;
import org.jocl.CL;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The iterative solve's launch path is chosen by device type, can be forced, and does not change a bit. */
class LaunchPolicyTest {

    private static Device device(long type) {
        return OpenClBackendTest.fake(0, "device", type);
    }

    @AfterEach
    void clearProperty() {
        System.clearProperty(LaunchPolicy.PROPERTY);
    }

    @Test
    void aCpuDeviceRunsBatchesUpToTheMeasuredThresholdInOneGroup() {
        LaunchPolicy cpu = LaunchPolicy.forDevice(device(CL.CL_DEVICE_TYPE_CPU));
        assertTrue(cpu.oneGroup(IterativePipeline.SMALL_BATCH_ROWS, 1));
        assertFalse(cpu.oneGroup(IterativePipeline.SMALL_BATCH_ROWS + 1, 1));
        assertFalse(cpu.oneGroup(100, 2), "rows in chunks always go a colour at a time");
    }

    @Test
    void aGpuOrAcceleratorRunsOnlyBatchesOfOneGroupWidthInOneGroup() {
        for (long type : new long[] {CL.CL_DEVICE_TYPE_GPU, CL.CL_DEVICE_TYPE_ACCELERATOR}) {
            LaunchPolicy offload = LaunchPolicy.forDevice(device(type));
            assertTrue(offload.oneGroup(Kernels.SMALL_BATCH_GROUP, 1));
            assertFalse(offload.oneGroup(Kernels.SMALL_BATCH_GROUP + 1, 1));
        }
    }

    /**
     * What an H200 (a GPU of 132 compute units) did with StepTest's 12,000 rows: a launch per colour,
     * which sends no colour boundaries. StepTest forces that path on PoCL, whose own choice is one
     * launch, so both paths' byte counts are checked without a GPU.
     */
    @Test
    void aGpuOf132ComputeUnitsSolvesTwelveThousandRowsAColourAtATime() {
        assertEquals("per-colour", OpenClTestAccess.launchPathOfAGpu(132, 12_000));
        assertEquals("one-group", OpenClTestAccess.launchPathOfAGpu(132, Kernels.SMALL_BATCH_GROUP));
        assertTrue(LaunchPolicy.forDevice(device(CL.CL_DEVICE_TYPE_CPU)).oneGroup(12_000, 1), "PoCL's choice");
    }

    @Test
    void thePropertyForcesEitherPathAndABadValueIsNamed() {
        System.setProperty(LaunchPolicy.PROPERTY, "per-colour");
        assertFalse(LaunchPolicy.forDevice(device(CL.CL_DEVICE_TYPE_CPU)).oneGroup(1, 1));
        System.setProperty(LaunchPolicy.PROPERTY, "one-group");
        assertTrue(LaunchPolicy.forDevice(device(CL.CL_DEVICE_TYPE_GPU)).oneGroup(1_000_000, 1));
        System.setProperty(LaunchPolicy.PROPERTY, "fast");
        IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
                () -> LaunchPolicy.forDevice(device(CL.CL_DEVICE_TYPE_GPU)));
        assertEquals("contactsolver.launch must be 'one-group' or 'per-colour', got 'fast'", bad.getMessage());
    }

    /** The same batch through both paths, each forced on this machine's device: the CPU's bits both times. */
    @Test
    void bothPathsGiveTheCpuBits() {
        Scene scene = SceneGenerator.randomGraph(77, 3_000, 18_000);
        RigidSettings settings = SolveSettings.iterative(20);
        SolveResult expected;
        try (ContactSolver cpu = Backends.cpu()) {
            expected = cpu.solve(scene.bodies(), scene.contacts(), settings, new SolveResult());
        }
        for (String path : new String[] {"one-group", "per-colour"}) {
            System.setProperty(LaunchPolicy.PROPERTY, path);
            try (ContactSolver openCl = Backends.openClOrSkip()) {
                Bits.assertIdentical(expected, openCl.solve(scene.bodies(), scene.contacts(), settings, new SolveResult()),
                        path);
            }
        }
    }
}
