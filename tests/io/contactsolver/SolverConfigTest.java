package io.contactsolver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class SolverConfigTest {

    @Test
    void defaultsAreAutoWithAThreadPerProcessor() {
        SolverConfig config = SolverConfig.defaults();
        assertEquals(Backend.AUTO, config.backend());
        assertEquals(Runtime.getRuntime().availableProcessors(), config.threads());
    }

    @Test
    void anExplicitDeviceWinsOverTheSystemPropertyWhichIsUsedOtherwise() {
        String before = System.getProperty(SolverConfig.DEVICE_PROPERTY);
        try {
            System.setProperty(SolverConfig.DEVICE_PROPERTY, " h200 ");
            assertEquals(Optional.of("h200"), SolverConfig.defaults().device());
            assertEquals(Optional.of("1"), SolverConfig.defaults().withDevice("1").device());
        } finally {
            if (before == null) {
                System.clearProperty(SolverConfig.DEVICE_PROPERTY);
            } else {
                System.setProperty(SolverConfig.DEVICE_PROPERTY, before);
            }
        }
    }

    @Test
    void withCopiesAndValidates() {
        SolverConfig base = SolverConfig.defaults();
        SolverConfig cpu = base.withBackend(Backend.CPU).withThreads(3);
        assertEquals(Backend.AUTO, base.backend(), "immutable");
        assertEquals(Backend.CPU, cpu.backend());
        assertEquals(3, cpu.threads());
        assertThrows(IllegalArgumentException.class, () -> base.withThreads(0));
    }
}
