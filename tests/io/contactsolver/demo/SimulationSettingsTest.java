package io.contactsolver.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.contactsolver.SoftStepSettings;
import io.contactsolver.app.Scheme;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The demo's settings start from its defaults, and each with method changes what it names and nothing else. */
class SimulationSettingsTest {

    private static Map<String, Object> all(Simulation.Settings s) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("timeStep", s.timeStep());
        m.put("restitution", s.restitution());
        m.put("iterations", s.iterations());
        m.put("tolerance", s.tolerance());
        m.put("warmStart", s.warmStart());
        m.put("positionalCorrection", s.positionalCorrection());
        m.put("friction", s.friction());
        m.put("rollingResistance", s.rollingResistance());
        m.put("scheme", s.scheme());
        m.put("substeps", s.substeps());
        m.put("contactHertz", s.contactHertz());
        return m;
    }

    private static Map<String, Object> changed(Simulation.Settings base, Map<String, Object> changes) {
        Map<String, Object> m = all(base);
        m.putAll(changes);
        return m;
    }

    @Test
    void theDemoSettingsAreFrictionlessOnTheDefaultSchemeWithWarmStartAndCorrection() {
        Map<String, Object> expected = new LinkedHashMap<>();
        expected.put("timeStep", 0.0025f);
        expected.put("restitution", 0.3f);
        expected.put("iterations", 10);
        expected.put("tolerance", 0.0f);
        expected.put("warmStart", true);
        expected.put("positionalCorrection", true);
        expected.put("friction", 0.0f);
        expected.put("rollingResistance", 0.0f);
        expected.put("scheme", Scheme.DEFAULT);
        expected.put("substeps", SoftStepSettings.DEFAULT_SUBSTEPS);
        expected.put("contactHertz", SoftStepSettings.DEFAULT_CONTACT_HERTZ);
        assertEquals(expected, all(Simulation.Settings.of(0.0025f, 0.3f, 10)));
    }

    @Test
    void eachWithMethodChangesOnlyWhatItNames() {
        Simulation.Settings base = Simulation.Settings.of(0.0025f, 0.3f, 10).withTolerance(1e-6f)
                .withFriction(0.5f, 0.001f).withSoftStep(6, 80.0f).withScheme(Scheme.TWO_SOLVES).withWarmStart(false)
                .withPositionalCorrection(false);
        Map<String, Object> before = all(base);
        assertEquals(changed(base, Map.of("tolerance", 1e-7f)), all(base.withTolerance(1e-7f)));
        assertEquals(changed(base, Map.of("warmStart", true)), all(base.withWarmStart(true)));
        assertEquals(changed(base, Map.of("positionalCorrection", true)), all(base.withPositionalCorrection(true)));
        assertEquals(changed(base, Map.of("friction", 0.2f, "rollingResistance", 0.0f)),
                all(base.withFriction(0.2f, 0.0f)));
        assertEquals(changed(base, Map.of("scheme", Scheme.SOFT_STEP, "substeps", 2, "contactHertz", 10.0f)),
                all(base.withSoftStep(2, 10.0f)));
        assertEquals(changed(base, Map.of("scheme", Scheme.SOFT_STEP)), all(base.withScheme(Scheme.SOFT_STEP)));
        assertEquals(before, all(base), "immutable");
        for (String name : List.of("tolerance", "warmStart", "positionalCorrection", "friction", "scheme")) {
            assertEquals(false, before.get(name).equals(all(Simulation.Settings.of(0.0025f, 0.3f, 10)).get(name)),
                    name + " is off its default in the base, so a with method that reset it would show");
        }
    }
}
