package io.contactsolver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import org.joml.Vector3f;
import org.junit.jupiter.api.Test;

/**
 * Each solver's settings type: each {@code with} method changes the setting it names and no other,
 * leaves the settings it was called on as they were, and refuses a bad value with a message that
 * names it; the factories start from the defaults the types give as constants; the solver follows
 * from the type.
 */
class SolveSettingsTest {

    private static Map<String, Object> singlePass(SinglePassSettings s) {
        Map<String, Object> all = new LinkedHashMap<>();
        all.put("restitutionThreshold", s.restitutionThreshold());
        all.put("positionalCorrection", s.positionalCorrection());
        all.put("biasFactor", s.biasFactor());
        all.put("slop", s.slop());
        all.put("friction", s.friction());
        return all;
    }

    private static Map<String, Object> iterative(IterativeSettings s) {
        Map<String, Object> all = new LinkedHashMap<>();
        all.put("iterations", s.iterations());
        all.put("tolerance", s.tolerance());
        all.put("restitutionThreshold", s.restitutionThreshold());
        all.put("colourBudget", s.colourBudget());
        all.put("positionalCorrection", s.positionalCorrection());
        all.put("biasFactor", s.biasFactor());
        all.put("slop", s.slop());
        all.put("friction", s.friction());
        return all;
    }

    private static Map<String, Object> softStep(SoftStepSettings s) {
        Map<String, Object> all = new LinkedHashMap<>();
        all.put("substeps", s.substeps());
        all.put("iterations", s.iterations());
        all.put("relaxIterations", s.relaxIterations());
        all.put("contactHertz", s.contactHertz());
        all.put("dampingRatio", s.dampingRatio());
        all.put("pushOutSpeed", s.pushOutSpeed());
        all.put("recycleDistance", s.recycleDistance());
        all.put("restitutionThreshold", s.restitutionThreshold());
        all.put("colourBudget", s.colourBudget());
        all.put("friction", s.friction());
        return all;
    }

    /** Asserts that {@code change} turns {@code base} into settings that differ exactly in {@code expected}. */
    private static <S> void changesOnly(S base, Function<S, Map<String, Object>> settingsOf, UnaryOperator<S> change,
            Map<String, Object> expected) {
        Map<String, Object> before = settingsOf.apply(base);
        Map<String, Object> after = settingsOf.apply(change.apply(base));
        Map<String, Object> wanted = new LinkedHashMap<>(before);
        wanted.putAll(expected);
        assertEquals(wanted, after);
        assertEquals(before, settingsOf.apply(base), "the settings a with method is called on stay as they were");
    }

    @Test
    void eachSinglePassWithMethodChangesItsOwnSettingAndNoOther() {
        // a base where every setting is off its default, so a with method that reset another would show
        SinglePassSettings base = SolveSettings.singlePass().withRestitutionThreshold(0.5f)
                .withPositionalCorrection(0.2f, 0.001f).withFriction(false);
        changesOnly(base, SolveSettingsTest::singlePass, s -> s.withRestitutionThreshold(0.75f),
                Map.of("restitutionThreshold", 0.75f));
        changesOnly(base, SolveSettingsTest::singlePass, s -> s.withPositionalCorrection(0.3f, 0.002f),
                Map.of("biasFactor", 0.3f, "slop", 0.002f));
        changesOnly(base, SolveSettingsTest::singlePass, SinglePassSettings::withoutPositionalCorrection,
                Map.of("positionalCorrection", false, "biasFactor", 0.0f, "slop", 0.0f));
        changesOnly(base, SolveSettingsTest::singlePass, s -> s.withFriction(true), Map.of("friction", true));
    }

    @Test
    void eachIterativeWithMethodChangesItsOwnSettingAndNoOther() {
        IterativeSettings base = SolveSettings.iterative(3).withTolerance(0.25f).withRestitutionThreshold(0.5f)
                .withColourBudget(7).withPositionalCorrection(0.2f, 0.001f).withFriction(false);
        changesOnly(base, SolveSettingsTest::iterative, s -> s.withIterations(9), Map.of("iterations", 9));
        changesOnly(base, SolveSettingsTest::iterative, s -> s.withTolerance(0.125f), Map.of("tolerance", 0.125f));
        changesOnly(base, SolveSettingsTest::iterative, s -> s.withRestitutionThreshold(0.75f),
                Map.of("restitutionThreshold", 0.75f));
        changesOnly(base, SolveSettingsTest::iterative, s -> s.withColourBudget(64), Map.of("colourBudget", 64));
        changesOnly(base, SolveSettingsTest::iterative, s -> s.withPositionalCorrection(0.3f, 0.002f),
                Map.of("biasFactor", 0.3f, "slop", 0.002f));
        changesOnly(base, SolveSettingsTest::iterative, IterativeSettings::withoutPositionalCorrection,
                Map.of("positionalCorrection", false, "biasFactor", 0.0f, "slop", 0.0f));
        changesOnly(base, SolveSettingsTest::iterative, s -> s.withFriction(true), Map.of("friction", true));
    }

    @Test
    void eachSoftStepWithMethodChangesItsOwnSettingAndNoOther() {
        SoftStepSettings base = SolveSettings.softStep().withSubsteps(6).withIterations(3).withRelaxIterations(2)
                .withContactHertz(40.0f).withDampingRatio(2.0f).withPushOutSpeed(1.5f).withRecycleDistance(0.25f)
                .withRestitutionThreshold(0.5f).withColourBudget(7).withFriction(false);
        changesOnly(base, SolveSettingsTest::softStep, s -> s.withSubsteps(64), Map.of("substeps", 64));
        changesOnly(base, SolveSettingsTest::softStep, s -> s.withIterations(9), Map.of("iterations", 9));
        changesOnly(base, SolveSettingsTest::softStep, s -> s.withRelaxIterations(5), Map.of("relaxIterations", 5));
        changesOnly(base, SolveSettingsTest::softStep, s -> s.withContactHertz(60.0f), Map.of("contactHertz", 60.0f));
        changesOnly(base, SolveSettingsTest::softStep, s -> s.withContactHertz(0.0f), Map.of("contactHertz", 0.0f));
        changesOnly(base, SolveSettingsTest::softStep, s -> s.withDampingRatio(0.0f), Map.of("dampingRatio", 0.0f));
        changesOnly(base, SolveSettingsTest::softStep, s -> s.withPushOutSpeed(4.0f), Map.of("pushOutSpeed", 4.0f));
        changesOnly(base, SolveSettingsTest::softStep, s -> s.withRecycleDistance(0.0f),
                Map.of("recycleDistance", 0.0f));
        changesOnly(base, SolveSettingsTest::softStep, s -> s.withRestitutionThreshold(0.75f),
                Map.of("restitutionThreshold", 0.75f));
        changesOnly(base, SolveSettingsTest::softStep, s -> s.withColourBudget(64), Map.of("colourBudget", 64));
        changesOnly(base, SolveSettingsTest::softStep, s -> s.withFriction(true), Map.of("friction", true));
    }

    @Test
    void theFactoriesStartFromTheDefaultsAndTheTypeIsTheSolver() {
        SinglePassSettings single = SolveSettings.singlePass();
        assertEquals(SolverKind.SINGLE_PASS, single.kind());
        assertEquals(Map.of("restitutionThreshold", 0.0f, "positionalCorrection", false, "biasFactor", 0.0f,
                "slop", 0.0f, "friction", true), singlePass(single));

        IterativeSettings iterative = SolveSettings.iterative(12);
        assertEquals(SolverKind.ITERATIVE, iterative.kind());
        assertEquals(Map.of("iterations", 12, "tolerance", 0.0f, "restitutionThreshold", 0.0f, "colourBudget",
                IterativeSettings.DEFAULT_COLOUR_BUDGET, "positionalCorrection", false, "biasFactor", 0.0f, "slop",
                0.0f, "friction", true), iterative(iterative));
        assertEquals(100, IterativeSettings.DEFAULT_ITERATIONS);
        assertEquals(32, IterativeSettings.DEFAULT_COLOUR_BUDGET);
        assertEquals(SolveSettings.iterative(IterativeSettings.DEFAULT_ITERATIONS),
                SolveSettings.iterative(5).withIterations(IterativeSettings.DEFAULT_ITERATIONS));

        SoftStepSettings soft = SolveSettings.softStep();
        assertEquals(SolverKind.SOFT_STEP, soft.kind());
        Map<String, Object> defaults = new LinkedHashMap<>();
        defaults.put("substeps", SoftStepSettings.DEFAULT_SUBSTEPS);
        defaults.put("iterations", SoftStepSettings.DEFAULT_ITERATIONS);
        defaults.put("relaxIterations", SoftStepSettings.DEFAULT_RELAX_ITERATIONS);
        defaults.put("contactHertz", SoftStepSettings.DEFAULT_CONTACT_HERTZ);
        defaults.put("dampingRatio", SoftStepSettings.DEFAULT_DAMPING_RATIO);
        defaults.put("pushOutSpeed", SoftStepSettings.DEFAULT_PUSH_OUT_SPEED);
        defaults.put("recycleDistance", SoftStepSettings.DEFAULT_RECYCLE_DISTANCE);
        defaults.put("restitutionThreshold", 0.0f);
        defaults.put("colourBudget", SoftStepSettings.DEFAULT_COLOUR_BUDGET);
        defaults.put("friction", true);
        assertEquals(defaults, softStep(soft));
        assertEquals(4, SoftStepSettings.DEFAULT_SUBSTEPS);
        assertEquals(1, SoftStepSettings.DEFAULT_ITERATIONS);
        assertEquals(1, SoftStepSettings.DEFAULT_RELAX_ITERATIONS);
        assertEquals(0.05f, SoftStepSettings.DEFAULT_RECYCLE_DISTANCE, "Box3D's: ten linear slops of 5 mm");
        assertEquals(0.0f, SoftStepSettings.DEFAULT_CONTACT_HERTZ, "the default follows the substep rate");

        // the solver follows from the type: solve takes the rigid ones, the soft step is no rigid solve
        assertTrue(single instanceof RigidSettings && iterative instanceof RigidSettings);
        assertFalse(RigidSettings.class.isAssignableFrom(SoftStepSettings.class));
    }

    @Test
    void settingsAreValuesEqualWhenEverySettingIs() {
        assertEquals(SolveSettings.iterative(7).withTolerance(0.5f), SolveSettings.iterative(7).withTolerance(0.5f));
        assertEquals(SolveSettings.iterative(7).hashCode(), SolveSettings.iterative(7).hashCode());
        assertNotEquals(SolveSettings.iterative(7), SolveSettings.iterative(8));
        assertEquals(SolveSettings.softStep().withSubsteps(8), SolveSettings.softStep().withSubsteps(8));
        assertNotEquals(SolveSettings.softStep(), SolveSettings.softStep().withFriction(false));
        assertEquals(SolveSettings.singlePass(), SolveSettings.singlePass().withPositionalCorrection(0.2f, 0.0f)
                .withoutPositionalCorrection());
    }

    @Test
    void aNegativeZeroIsStoredAsPositiveZero() {
        IterativeSettings iterative = SolveSettings.iterative(5).withTolerance(-0.0f).withRestitutionThreshold(-0.0f);
        assertEquals(0, Float.floatToRawIntBits(iterative.tolerance()));
        assertEquals(0, Float.floatToRawIntBits(iterative.restitutionThreshold()));
        SoftStepSettings soft = SolveSettings.softStep().withDampingRatio(-0.0f).withRestitutionThreshold(-0.0f)
                .withContactHertz(-0.0f).withRecycleDistance(-0.0f);
        assertEquals(0, Float.floatToRawIntBits(soft.dampingRatio()));
        assertEquals(0, Float.floatToRawIntBits(soft.restitutionThreshold()));
        assertEquals(0, Float.floatToRawIntBits(soft.contactHertz()));
        assertEquals(0, Float.floatToRawIntBits(soft.recycleDistance()));
        assertEquals(0, Float.floatToRawIntBits(SolveSettings.singlePass().withRestitutionThreshold(-0.0f)
                .restitutionThreshold()));
    }

    @Test
    void aBadSinglePassValueIsRefusedWithAMessageThatNamesIt() {
        SinglePassSettings s = SolveSettings.singlePass();
        assertEquals("restitution threshold must be finite and not negative, got NaN",
                refusal(() -> s.withRestitutionThreshold(Float.NaN)));
        assertEquals("bias factor must be in [0, 1], got 1.5", refusal(() -> s.withPositionalCorrection(1.5f, 0.0f)));
        assertEquals("bias factor must be in [0, 1], got NaN",
                refusal(() -> s.withPositionalCorrection(Float.NaN, 0.0f)));
        assertEquals("slop must be finite and not negative, got -1.0",
                refusal(() -> s.withPositionalCorrection(0.2f, -1.0f)));
        assertEquals("slop must be finite and not negative, got Infinity",
                refusal(() -> s.withPositionalCorrection(0.2f, Float.POSITIVE_INFINITY)));
    }

    @Test
    void aBadIterativeValueIsRefusedWithAMessageThatNamesIt() {
        IterativeSettings s = SolveSettings.iterative(10);
        assertEquals("iterations must be at least 1, got 0", refusal(() -> s.withIterations(0)));
        assertEquals("iterations must be at least 1, got 0", refusal(() -> SolveSettings.iterative(0)));
        assertEquals("tolerance must be finite and not negative, got -1.0", refusal(() -> s.withTolerance(-1.0f)));
        assertEquals("tolerance must be finite and not negative, got Infinity",
                refusal(() -> s.withTolerance(Float.POSITIVE_INFINITY)));
        assertEquals("restitution threshold must be finite and not negative, got -0.5",
                refusal(() -> s.withRestitutionThreshold(-0.5f)));
        assertEquals("colour budget must be in [1, 64], got 65", refusal(() -> s.withColourBudget(65)));
        assertEquals("colour budget must be in [1, 64], got 0", refusal(() -> s.withColourBudget(0)));
        assertEquals("bias factor must be in [0, 1], got -0.1", refusal(() -> s.withPositionalCorrection(-0.1f, 0.0f)));
        assertEquals("slop must be finite and not negative, got NaN",
                refusal(() -> s.withPositionalCorrection(0.2f, Float.NaN)));
    }

    @Test
    void aBadSoftStepValueIsRefusedWithAMessageThatNamesIt() {
        SoftStepSettings s = SolveSettings.softStep();
        assertEquals("substeps must be in [1, 64], got 65", refusal(() -> s.withSubsteps(65)));
        assertEquals("substeps must be in [1, 64], got 0", refusal(() -> s.withSubsteps(0)));
        assertEquals("iterations must be at least 1, got 0", refusal(() -> s.withIterations(0)));
        assertEquals("relax iterations must be at least 1, got 0", refusal(() -> s.withRelaxIterations(0)));
        assertEquals("contact hertz must be finite and not negative (0 follows the substep rate), got -1.0",
                refusal(() -> s.withContactHertz(-1.0f)));
        assertEquals("contact hertz must be finite and not negative (0 follows the substep rate), got Infinity",
                refusal(() -> s.withContactHertz(Float.POSITIVE_INFINITY)));
        assertEquals("recycle distance must be finite and not negative (0 switches recycling off), got NaN",
                refusal(() -> s.withRecycleDistance(Float.NaN)));
        assertEquals("damping ratio must be finite and not negative, got -1.0",
                refusal(() -> s.withDampingRatio(-1.0f)));
        assertEquals("damping ratio must be at most 10.0, got 10.5: a stiffer-damped contact gains energy in a "
                + "resting stack with friction", refusal(() -> s.withDampingRatio(10.5f)));
        assertEquals("push-out speed must be positive and finite, got Infinity",
                refusal(() -> s.withPushOutSpeed(Float.POSITIVE_INFINITY)));
        assertEquals("push-out speed must be positive and finite, got 0.0", refusal(() -> s.withPushOutSpeed(0.0f)));
        assertEquals("restitution threshold must be finite and not negative, got NaN",
                refusal(() -> s.withRestitutionThreshold(Float.NaN)));
        assertEquals("colour budget must be in [1, 64], got 65", refusal(() -> s.withColourBudget(65)));
    }

    @Test
    void everySolverChecksAStepsTimeAndGravityAndTheSoftStepItsSubsteps() {
        Vector3f gravity = new Vector3f(0, -10, 0);
        for (SolveSettings settings : new SolveSettings[] {SolveSettings.singlePass(), SolveSettings.iterative(5),
            SolveSettings.softStep()}) {
            assertEquals("time step must be positive and finite, got 0.0",
                    refusal(() -> settings.checkStep(0.0f, gravity)), settings.toString());
            assertTrue(refusal(() -> settings.checkStep(1e-40f, gravity)).contains("is subnormal"),
                    settings.toString());
            assertTrue(refusal(() -> settings.checkStep(0.01f, new Vector3f(0, Float.NaN, 0)))
                    .startsWith("gravity must be finite, got "), settings.toString());
            settings.checkStep(1 / 60f, gravity);
        }
        String tooStiff = refusal(() -> SolveSettings.softStep().withContactHertz(100.0f).checkStep(1 / 60f, gravity));
        assertTrue(tooStiff.contains("contact hertz 100.0"), tooStiff);
        SolveSettings.iterative(5).withPositionalCorrection(0.2f, 0.0f).checkStep(1 / 60f, gravity);
    }

    @Test
    void toStringNamesTheSettingsOfItsSolver() {
        assertEquals("SinglePassSettings[restitutionThreshold=0.0]", SolveSettings.singlePass().toString());
        assertEquals("SinglePassSettings[restitutionThreshold=0.5, positional correction bias=0.2 slop=0.001, "
                + "friction off]", SolveSettings.singlePass().withRestitutionThreshold(0.5f)
                .withPositionalCorrection(0.2f, 0.001f).withFriction(false).toString());
        assertEquals("IterativeSettings[iterations=20, tolerance=0.0, restitutionThreshold=0.0, colourBudget=32, "
                + "positional correction bias=0.2 slop=0.001]",
                SolveSettings.iterative(20).withPositionalCorrection(0.2f, 0.001f).toString());
        assertEquals("SoftStepSettings[substeps=4, iterations=1, relaxIterations=1, contactHertz=auto, "
                + "dampingRatio=10.0, pushOutSpeed=3.0, recycleDistance=0.05, restitutionThreshold=0.0, "
                + "colourBudget=32, friction off]", SolveSettings.softStep().withFriction(false).toString());
        assertEquals("SoftStepSettings[substeps=8, iterations=1, relaxIterations=1, contactHertz=60.0, "
                + "dampingRatio=10.0, pushOutSpeed=3.0, recycleDistance=0.0, restitutionThreshold=0.0, "
                + "colourBudget=32]",
                SolveSettings.softStep().withSubsteps(8).withContactHertz(60.0f).withRecycleDistance(0.0f).toString());
    }

    private static String refusal(org.junit.jupiter.api.function.Executable call) {
        return assertThrows(IllegalArgumentException.class, call).getMessage();
    }
}
