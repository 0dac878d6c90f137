package io.contactsolver.app;

import io.contactsolver.BodyBatch;
import io.contactsolver.ContactBatch;
import io.contactsolver.ContactSolver;
import io.contactsolver.IterativeSettings;
import io.contactsolver.SolveResult;
import io.contactsolver.SolveSettings;
import io.contactsolver.layout.BodyField;
import io.contactsolver.layout.DeltaField;
import java.nio.FloatBuffer;
import org.joml.Quaternionf;

/**
 * The two-solves scheme ({@link Scheme#TWO_SOLVES}; docs/demo.md, "Schemes"): how a program that
 * integrates its bodies itself uses the module, written once for the demo and the bench. The
 * caller applies gravity and finds the contacts; then {@link #solve}:
 *
 * <ol>
 *   <li>velocity solve: the iterative solver, warm started, with speculative contacts (positional
 *       correction with bias 0: a gap may close within the step but not turn into overlap) and no
 *       push-out;</li>
 *   <li>push-out solve (split impulse), with positional correction on: the same contacts with the
 *       bodies at rest and without friction, at {@link #BIAS_FACTOR} of the overlap beyond the slop
 *       a step and {@link #pushIterations} iterations, not warm started (last step's push is not
 *       this step's);</li>
 *   <li>the bodies' velocities set to the velocity solve's result, {@code v + dv}, {@code w + dw}.</li>
 * </ol>
 *
 * and the caller integrates, the push moving positions without entering the velocities:
 * {@link #integrate}, or its own integrator with {@link #push()}'s deltas.
 *
 * <p>Why two solves: with one solve the push-out stays in the velocity (Baumgarte at velocity
 * level), and in a pile deeper than the iterations can resolve it keeps feeding energy in. The push
 * solve is frictionless because it corrects positions and is not a physical impulse: with friction
 * its tangent rows would resist the very sliding that separates overlapping bodies sideways and turn
 * part of it into spin, which the push then throws away.
 */
public final class TwoSolves {
    /** Share of an overlap (beyond the slop) pushed out per step: Baumgarte's usual 0.2. */
    public static final float BIAS_FACTOR = 0.2f;
    /**
     * Iterations of the push solve per iteration of the velocity solve: it only has to spread a
     * gradual correction.
     */
    public static final int PUSH_ITERATIONS_DIVISOR = 2;

    private final IterativeSettings velocity;
    /** Null without positional correction: no push-out solve. */
    private final IterativeSettings push;
    private final SolveResult pushed = new SolveResult();
    private final Quaternionf orientation = new Quaternionf();
    private final Quaternionf turn = new Quaternionf();
    /** The velocity solve's result, {@code v + dv} then {@code w + dw}, six a body, kept across the push solve. */
    private float[] velocities = new float[0];
    private long solveNanos;

    private TwoSolves(IterativeSettings velocity, IterativeSettings push) {
        this.velocity = velocity;
        this.push = push;
    }

    /**
     * Both solves: {@code velocity} (the iterative solver, with its iterations, tolerance and
     * restitution threshold) with speculative contacts, then the push-out solve.
     *
     * @param velocity the velocity solve's settings, whose positional correction this sets
     * @param slop overlap left alone, m, so a resting pile is not pushed apart and together
     */
    public static TwoSolves withPushOut(IterativeSettings velocity, float slop) {
        return new TwoSolves(velocity.withPositionalCorrection(0.0f, slop),
                SolveSettings.iterative(pushIterations(velocity.iterations()))
                        .withPositionalCorrection(BIAS_FACTOR, slop).withFriction(false));
    }

    /**
     * The velocity solve alone, its contacts' separations ignored: to show that overlap builds up
     * without positional correction.
     *
     * @param velocity the velocity solve's settings, whose positional correction this turns off
     */
    public static TwoSolves withoutPushOut(IterativeSettings velocity) {
        return new TwoSolves(velocity.withoutPositionalCorrection(), null);
    }

    /**
     * The push solve's iterations for a velocity solve of {@code velocityIterations}.
     *
     * @return {@code velocityIterations / PUSH_ITERATIONS_DIVISOR}, at least 1
     */
    public static int pushIterations(int velocityIterations) {
        return Math.max(1, velocityIterations / PUSH_ITERATIONS_DIVISOR);
    }

    /**
     * The velocity solve into {@code dest}, then the push-out solve on the bodies at rest (where
     * there is one), then every body's velocities set to {@code v + dv}, {@code w + dw}. Positions
     * and orientations are left to the caller.
     *
     * @param timeStep the step, s, which both solves' positional correction divides by
     * @param warmStart the previous step's velocity solve, or null
     * @return {@code dest}
     */
    public SolveResult solve(ContactSolver solver, BodyBatch bodies, ContactBatch contacts, float timeStep,
            SolveResult warmStart, SolveResult dest) {
        long t0 = System.nanoTime();
        solver.solve(bodies, contacts, velocity, timeStep, warmStart, dest);
        long t1 = System.nanoTime();
        int count = bodies.size();
        if (velocities.length < 6 * count) {
            velocities = new float[6 * count];
        }
        FloatBuffer state = bodies.data();
        int stride = bodies.capacity();
        FloatBuffer deltas = dest.deltas();
        int deltaStride = dest.deltaStride();
        for (int i = 0; i < count; i++) {
            for (int axis = 0; axis < 3; axis++) {
                velocities[6 * i + axis] = state.get((BodyField.VX.ordinal() + axis) * stride + i)
                        + deltas.get((DeltaField.DVX.ordinal() + axis) * deltaStride + i);
                velocities[6 * i + 3 + axis] = state.get((BodyField.WX.ordinal() + axis) * stride + i)
                        + deltas.get((DeltaField.DWX.ordinal() + axis) * deltaStride + i);
            }
        }
        long pushNanos = 0;
        if (push != null) {
            // the push solve sees the bodies at rest, so its deltas are the push alone
            for (int i = 0; i < count; i++) {
                bodies.setLinearVelocity(i, 0.0f, 0.0f, 0.0f).setAngularVelocity(i, 0.0f, 0.0f, 0.0f);
            }
            long t2 = System.nanoTime();
            solver.solve(bodies, contacts, push, timeStep, null, pushed);
            pushNanos = System.nanoTime() - t2;
        }
        for (int i = 0; i < count; i++) {
            bodies.setLinearVelocity(i, velocities[6 * i], velocities[6 * i + 1], velocities[6 * i + 2])
                    .setAngularVelocity(i, velocities[6 * i + 3], velocities[6 * i + 4], velocities[6 * i + 5]);
        }
        solveNanos = (t1 - t0) + pushNanos;
        return dest;
    }

    /**
     * Semi-implicit Euler after {@link #solve}: {@code x += (v + push) dt} and the orientation turned
     * by {@code (w + push_w) dt}; the push moves the bodies but is not kept in their velocities.
     */
    public void integrate(BodyBatch bodies, float timeStep) {
        FloatBuffer state = bodies.data();
        int stride = bodies.capacity();
        FloatBuffer pushes = push != null ? pushed.deltas() : null;
        int pushStride = pushed.deltaStride();
        float[] moved = new float[3];
        for (int i = 0; i < bodies.size(); i++) {
            for (int axis = 0; axis < 3; axis++) {
                float v = state.get((BodyField.VX.ordinal() + axis) * stride + i);
                float pushV = pushes == null ? 0.0f : pushes.get((DeltaField.DVX.ordinal() + axis) * pushStride + i);
                moved[axis] = state.get((BodyField.X.ordinal() + axis) * stride + i) + (v + pushV) * timeStep;
            }
            bodies.setPosition(i, moved[0], moved[1], moved[2]);
            for (int axis = 0; axis < 3; axis++) {
                float w = state.get((BodyField.WX.ordinal() + axis) * stride + i);
                float pushW = pushes == null ? 0.0f : pushes.get((DeltaField.DWX.ordinal() + axis) * pushStride + i);
                moved[axis] = (w + pushW) * timeStep;
            }
            float angle = (float) Math.sqrt(moved[0] * moved[0] + moved[1] * moved[1] + moved[2] * moved[2]);
            if (angle > 0.0f) {
                bodies.getOrientation(i, orientation);
                turn.rotationAxis(angle, moved[0] / angle, moved[1] / angle, moved[2] / angle).mul(orientation,
                        orientation).normalize();
                bodies.setOrientation(i, orientation);
            }
        }
    }

    /**
     * The push-out solve of the last {@link #solve}: its velocity changes are the push, which
     * moves positions only.
     *
     * @return the result, or null without positional correction
     */
    public SolveResult push() {
        return push != null ? pushed : null;
    }

    /** The nanoseconds of the last {@link #solve}'s two {@code solve} calls, the copies between them left out. */
    public long solveNanos() {
        return solveNanos;
    }
}
