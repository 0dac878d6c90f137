package io.contactsolver;

import io.contactsolver.core.ContactColoring;
import java.util.Locale;
import java.util.Objects;
import org.joml.Vector3fc;

/**
 * The checks of the settings that more than one solver has, one home for each with its message:
 * each returns the value as the settings keep it (for some, {@code +0.0} for {@code -0.0}: the
 * device compares their bits) or throws an {@link IllegalArgumentException} naming the setting and
 * the value.
 */
final class SettingChecks {
    private SettingChecks() {
    }

    static int iterations(int iterations) {
        if (iterations < 1) {
            throw new IllegalArgumentException("iterations must be at least 1, got " + iterations);
        }
        return iterations;
    }

    static float restitutionThreshold(float threshold) {
        if (!(threshold >= 0.0f) || !Float.isFinite(threshold)) {
            throw new IllegalArgumentException("restitution threshold must be finite and not negative, got "
                    + threshold);
        }
        return threshold + 0.0f;
    }

    static int colourBudget(int budget) {
        if (budget < 1 || budget > ContactColoring.MAX_COLOURS) {
            throw new IllegalArgumentException("colour budget must be in [1, " + ContactColoring.MAX_COLOURS
                    + "], got " + budget);
        }
        return budget;
    }

    static float biasFactor(float biasFactor) {
        if (!(biasFactor >= 0.0f) || !(biasFactor <= 1.0f)) {
            throw new IllegalArgumentException("bias factor must be in [0, 1], got " + biasFactor);
        }
        return biasFactor;
    }

    static float slop(float slop) {
        if (!(slop >= 0.0f) || !Float.isFinite(slop)) {
            throw new IllegalArgumentException("slop must be finite and not negative, got " + slop);
        }
        return slop;
    }

    /** The time step a solve with positional correction divides by. */
    static float solveTimeStep(float timeStep) {
        if (!(timeStep > 0.0f) || !Float.isFinite(timeStep) || !Float.isFinite(1.0f / timeStep)) {
            throw new IllegalArgumentException("time step must be positive, finite and have a finite inverse, got "
                    + timeStep);
        }
        return timeStep;
    }

    /**
     * What every solver's {@link SolveSettings#checkStep} checks: a positive, finite and normal
     * time step, finite gravity, and no body carried beyond float's range in one step.
     */
    static void step(float timeStep, Vector3fc gravity) {
        Objects.requireNonNull(gravity, "gravity");
        if (!(timeStep > 0.0f) || !Float.isFinite(timeStep)) {
            throw new IllegalArgumentException("time step must be positive and finite, got " + timeStep);
        }
        if (!gravity.isFinite()) {
            throw new IllegalArgumentException("gravity must be finite, got " + gravity);
        }
        if (timeStep < Float.MIN_NORMAL) {
            throw new IllegalArgumentException("time step dt = " + timeStep + " s is subnormal (below "
                    + Float.MIN_NORMAL + " s): too short for float");
        }
        double g = Math.max(Math.max(Math.abs(gravity.x()), Math.abs(gravity.y())), Math.abs(gravity.z()));
        double fall = g * timeStep * timeStep;
        if (fall > Float.MAX_VALUE) {
            throw new IllegalArgumentException(String.format(Locale.ROOT, "time step dt = %s s is too long for "
                    + "float: gravity of %s m/s^2 would carry a body |g| dt^2 = %.3g m in one step", timeStep,
                    (float) g, fall));
        }
    }
}
