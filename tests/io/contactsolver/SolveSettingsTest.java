package io.contactsolver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * Each {@code with} method of {@link SolveSettings} changes the settings it names and no other,
 * leaves the settings it was called on as they were, and refuses a bad value with a message that
 * names it.
 */
class SolveSettingsTest {

    /** Every setting by its getter's name, so two settings can be compared one by one. */
    private static Map<String, Object> settingsOf(SolveSettings s) {
        Map<String, Object> all = new LinkedHashMap<>();
        all.put("kind", s.kind());
        all.put("iterations", s.iterations());
        all.put("tolerance", s.tolerance());
        all.put("restitutionThreshold", s.restitutionThreshold());
        all.put("colourBudget", s.colourBudget());
        all.put("timeStep", s.timeStep());
        all.put("biasFactor", s.biasFactor());
        all.put("slop", s.slop());
        all.put("substeps", s.substeps());
        all.put("contactHertz", s.contactHertz());
        all.put("dampingRatio", s.dampingRatio());
        all.put("pushOutSpeed", s.pushOutSpeed());
        all.put("relaxIterations", s.relaxIterations());
        all.put("recycleDistance", s.recycleDistance());
        all.put("friction", s.friction());
        return all;
    }

    /** Asserts that {@code change} turns {@code base} into settings that differ exactly in {@code expected}. */
    private static void changesOnly(SolveSettings base, UnaryOperator<SolveSettings> change,
            Map<String, Object> expected) {
        Map<String, Object> before = settingsOf(base);
        Map<String, Object> after = settingsOf(change.apply(base));
        Map<String, Object> wanted = new LinkedHashMap<>(before);
        wanted.putAll(expected);
        assertEquals(wanted, after);
        assertEquals(before, settingsOf(base), "the settings a with method is called on stay as they were");
    }

    @Test
    void eachWithMethodChangesItsOwnSettingAndNoOther() {
        // a base where every setting is off its default, so a with method that reset another would show
        SolveSettings base = SolveSettings.softStep().withIterations(3).withTolerance(0.25f)
                .withRestitutionThreshold(0.5f).withColourBudget(7).withPositionalCorrection(0.01f, 0.2f, 0.001f)
                .withSubsteps(6).withContactHertz(40.0f).withDampingRatio(2.0f).withPushOutSpeed(1.5f)
                .withRelaxIterations(2).withRecycleDistance(0.25f).withFriction(false);

        changesOnly(base, s -> s.withKind(SolverKind.ITERATIVE), Map.of("kind", SolverKind.ITERATIVE));
        changesOnly(base, s -> s.withIterations(9), Map.of("iterations", 9));
        changesOnly(base, s -> s.withTolerance(0.125f), Map.of("tolerance", 0.125f));
        changesOnly(base, s -> s.withRestitutionThreshold(0.75f), Map.of("restitutionThreshold", 0.75f));
        changesOnly(base, s -> s.withColourBudget(64), Map.of("colourBudget", 64));
        changesOnly(base, s -> s.withPositionalCorrection(0.02f, 0.3f, 0.002f),
                Map.of("timeStep", 0.02f, "biasFactor", 0.3f, "slop", 0.002f));
        changesOnly(base, SolveSettings::withoutPositionalCorrection,
                Map.of("timeStep", 0.0f, "biasFactor", 0.0f, "slop", 0.0f));
        changesOnly(base, s -> s.withSubsteps(64), Map.of("substeps", 64));
        changesOnly(base, s -> s.withContactHertz(60.0f), Map.of("contactHertz", 60.0f));
        changesOnly(base, s -> s.withDampingRatio(0.0f), Map.of("dampingRatio", 0.0f));
        changesOnly(base, s -> s.withPushOutSpeed(4.0f), Map.of("pushOutSpeed", 4.0f));
        changesOnly(base, s -> s.withRelaxIterations(5), Map.of("relaxIterations", 5));
        changesOnly(base, s -> s.withRecycleDistance(0.0f), Map.of("recycleDistance", 0.0f));
        changesOnly(base, s -> s.withContactHertz(0.0f), Map.of("contactHertz", 0.0f));
        changesOnly(base, s -> s.withFriction(true), Map.of("friction", true));
    }

    @Test
    void theFactoriesStartFromTheDefaults() {
        Map<String, Object> defaults = settingsOf(SolveSettings.singlePass());
        assertEquals(SolverKind.SINGLE_PASS, defaults.get("kind"));
        assertEquals(SolveSettings.DEFAULT_ITERATIONS, defaults.get("iterations"));
        assertEquals(SolveSettings.DEFAULT_COLOUR_BUDGET, defaults.get("colourBudget"));
        assertEquals(SolveSettings.DEFAULT_SUBSTEPS, defaults.get("substeps"));
        assertEquals(SolveSettings.DEFAULT_CONTACT_HERTZ, defaults.get("contactHertz"));
        assertEquals(SolveSettings.DEFAULT_DAMPING_RATIO, defaults.get("dampingRatio"));
        assertEquals(SolveSettings.DEFAULT_PUSH_OUT_SPEED, defaults.get("pushOutSpeed"));
        assertEquals(1, defaults.get("relaxIterations"));
        assertEquals(SolveSettings.DEFAULT_RECYCLE_DISTANCE, defaults.get("recycleDistance"));
        assertEquals(0.05f, SolveSettings.DEFAULT_RECYCLE_DISTANCE, "Box3D's: ten linear slops of 5 mm");
        assertEquals(0.0f, SolveSettings.DEFAULT_CONTACT_HERTZ, "the default follows the substep rate");
        assertEquals(true, defaults.get("friction"));
        assertEquals(0.0f, defaults.get("tolerance"));
        assertEquals(0.0f, defaults.get("timeStep"));

        Map<String, Object> iterative = new LinkedHashMap<>(defaults);
        iterative.putAll(Map.of("kind", SolverKind.ITERATIVE, "iterations", 12));
        assertEquals(iterative, settingsOf(SolveSettings.iterative(12)));

        Map<String, Object> soft = new LinkedHashMap<>(defaults);
        soft.putAll(Map.of("kind", SolverKind.SOFT_STEP, "iterations", 1));
        assertEquals(soft, settingsOf(SolveSettings.softStep()));
    }

    @Test
    void aNegativeZeroIsStoredAsPositiveZero() {
        SolveSettings s = SolveSettings.iterative(5).withTolerance(-0.0f).withRestitutionThreshold(-0.0f)
                .withDampingRatio(-0.0f);
        assertEquals(0, Float.floatToRawIntBits(s.tolerance()));
        assertEquals(0, Float.floatToRawIntBits(s.restitutionThreshold()));
        assertEquals(0, Float.floatToRawIntBits(s.dampingRatio()));
    }

    @Test
    void aBadValueIsRefusedWithAMessageThatNamesIt() {
        SolveSettings s = SolveSettings.singlePass();
        assertEquals("kind must not be null", refusal(() -> s.withKind(null)));
        assertEquals("iterations must be at least 1, got 0", refusal(() -> s.withIterations(0)));
        assertEquals("iterations must be at least 1, got 0", refusal(() -> SolveSettings.iterative(0)));
        assertEquals("tolerance must be finite and not negative, got -1.0", refusal(() -> s.withTolerance(-1.0f)));
        assertEquals("restitution threshold must be finite and not negative, got NaN",
                refusal(() -> s.withRestitutionThreshold(Float.NaN)));
        assertEquals("colour budget must be in [1, 64], got 65", refusal(() -> s.withColourBudget(65)));
        assertEquals("time step must be positive, finite and have a finite inverse, got 0.0",
                refusal(() -> s.withPositionalCorrection(0.0f, 0.2f, 0.0f)));
        assertEquals("bias factor must be in [0, 1], got 1.5",
                refusal(() -> s.withPositionalCorrection(0.01f, 1.5f, 0.0f)));
        assertEquals("slop must be finite and not negative, got -1.0",
                refusal(() -> s.withPositionalCorrection(0.01f, 0.2f, -1.0f)));
        assertEquals("substeps must be in [1, 64], got 65", refusal(() -> s.withSubsteps(65)));
        assertEquals("contact hertz must be finite and not negative (0 follows the substep rate), got -1.0",
                refusal(() -> s.withContactHertz(-1.0f)));
        assertEquals("contact hertz must be finite and not negative (0 follows the substep rate), got Infinity",
                refusal(() -> s.withContactHertz(Float.POSITIVE_INFINITY)));
        assertEquals("recycle distance must be finite and not negative (0 switches recycling off), got NaN",
                refusal(() -> s.withRecycleDistance(Float.NaN)));
        assertEquals("damping ratio must be finite and not negative, got -1.0",
                refusal(() -> s.withDampingRatio(-1.0f)));
        assertEquals("push-out speed must be positive and finite, got Infinity",
                refusal(() -> s.withPushOutSpeed(Float.POSITIVE_INFINITY)));
        assertEquals("relax iterations must be at least 1, got 0", refusal(() -> s.withRelaxIterations(0)));
    }

    @Test
    void toStringNamesTheSettingsOfTheSolverKind() {
        assertEquals("SolveSettings[" + SolverKind.ITERATIVE.label() + ", iterations=20, tolerance=0.0, "
                + "restitutionThreshold=0.0, colourBudget=32, positional correction dt=0.01 bias=0.2 slop=0.001]",
                SolveSettings.iterative(20).withPositionalCorrection(0.01f, 0.2f, 0.001f).toString());
        assertEquals("SolveSettings[" + SolverKind.SOFT_STEP.label() + ", iterations=1, friction off, "
                + "relaxIterations=1, substeps=4, contactHertz=auto, dampingRatio=10.0, pushOutSpeed=3.0, "
                + "recycleDistance=0.05, restitutionThreshold=0.0, colourBudget=32]",
                SolveSettings.softStep().withFriction(false).toString());
        assertEquals("SolveSettings[" + SolverKind.SOFT_STEP.label() + ", iterations=1, "
                + "relaxIterations=1, substeps=8, contactHertz=60.0, dampingRatio=10.0, pushOutSpeed=3.0, "
                + "recycleDistance=0.0, restitutionThreshold=0.0, colourBudget=32]",
                SolveSettings.softStep().withSubsteps(8).withContactHertz(60.0f).withRecycleDistance(0.0f).toString());
    }

    private static String refusal(org.junit.jupiter.api.function.Executable call) {
        return assertThrows(IllegalArgumentException.class, call).getMessage();
    }
}
