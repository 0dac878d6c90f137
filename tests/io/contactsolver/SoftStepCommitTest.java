package io.contactsolver;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.contactsolver.testing.Backends;
import io.contactsolver.testing.Bits;
import io.contactsolver.testing.SteppedPyramid;
import org.joml.Vector3f;
import org.junit.jupiter.api.Test;

/**
 * A device that found a soft step sound reads the next state straight into the bodies and stamps
 * those fields as written, as the host's own commit would: any other copy of the bodies (another
 * device's) then takes them again, and the trajectory stays the CPU's bit for bit.
 */
class SoftStepCommitTest {
    private static final float DT = 1.0f / 60.0f;
    private static final Vector3f GRAVITY = new Vector3f(0.0f, -10.0f, 0.0f);

    /**
     * Two device solvers take turns stepping one box pyramid, each step warm-started from the last
     * result whichever solver made it: each solver's copy of the bodies is stale after the other's
     * step, and only the stamps tell it so.
     */
    @Test
    void twoDevicesTakingTurnsOnOneBatchStepAsTheCpu() {
        SteppedPyramid onCpu = new SteppedPyramid();
        SteppedPyramid shared = new SteppedPyramid();
        try (ContactSolver cpu = Backends.cpu(); ContactSolver first = Backends.openClOrSkip();
                ContactSolver second = Backends.openClOrSkip()) {
            SolveHistory cpuHistory = new SolveHistory();
            SolveHistory sharedHistory = new SolveHistory();
            for (int step = 0; step < 6; step++) {
                ContactSolver device = step % 2 == 0 ? first : second;
                onCpu.findContacts();
                shared.findContacts();
                SolveResult expected = cpu.step(onCpu.bodies, onCpu.contacts, SolveSettings.softStep(), GRAVITY, DT,
                        cpuHistory);
                SolveResult actual = device.step(shared.bodies, shared.contacts, SolveSettings.softStep(), GRAVITY, DT,
                        sharedHistory);
                String what = "step " + step;
                assertEquals(Backend.OPENCL, actual.backend(), what);
                Bits.assertIdentical(expected, actual, what);
                Bits.assertIdentical(onCpu.bodies, shared.bodies, what + ": bodies");
            }
        }
    }
}
