package io.contactsolver;

import io.contactsolver.core.BodySnapshot;
import io.contactsolver.core.FieldBlock;
import io.contactsolver.core.InputMagnitudes;
import io.contactsolver.core.IterationOutcome;
import io.contactsolver.core.ParallelRunner;
import io.contactsolver.core.SoftCoefficients;
import io.contactsolver.core.SoftStepJob;
import io.contactsolver.core.SolveMeter;
import io.contactsolver.cpu.Integrator;
import io.contactsolver.layout.SolvePhase;
import org.joml.Vector3fc;

/**
 * {@code ContactSolver.step}: the bodies' motion around the host pipeline's solve. The rigid step
 * applies gravity, solves ({@link HostPipeline#solveRigid}) and integrates; the soft step has the
 * backend compute the bodies' next state ({@link HostPipeline#solveSoft}) and commits it.
 *
 * <p>All or nothing: a step that throws leaves every body as it was, bit for bit. The rigid step
 * keeps a {@link BodySnapshot} before gravity and puts it back if anything after fails (gravity
 * undone with the rest); the soft step computes into {@link #nextBodies} and commits them only once
 * they are checked finite ({@link OverflowScan#requireSoundBodies}), unless a device found every
 * output sound and read the new state into the bodies itself, stamped, after its last possible
 * failure ({@code StepOutputs.nextBodiesCommitted}).
 *
 * <p>The mirror rule, for a backend that keeps its own copy of the bodies on a device (OpenCL), so
 * that a step sends bodies only when the caller changed them:
 *
 * <ul>
 *   <li>the caller's {@link BodyBatch} is the authoritative copy; the device copy only ever equals
 *       it, field by field;</li>
 *   <li>every write to the bodies goes through {@link FieldBlock}'s setters, which stamp the field;
 *       the device buffer records the stamps it holds, and a field whose stamp moved goes up again
 *       ({@code SolverBackend.syncBodies} at the start of a step, and every solve's upload);</li>
 *   <li>where the host has just changed its copy by a known update, the backend applies the same
 *       update to its copy with the same float operations, or copies over what its device computed,
 *       and records the host's new stamps as held ({@code mirrorGravity} after gravity,
 *       {@code mirrorIntegration} after integrating, {@code mirrorSoftStep} after the commit); so
 *       each mirror call comes right after its host update, with no other write in between;</li>
 *   <li>an update that is undone (the snapshot put back) needs no undoing on the device: the
 *       restore writes through the setters, so the fields it wrote go up again;</li>
 *   <li>if the device fails in any of these, the solver drops it ({@link ActiveBackend#onDevice})
 *       and the host copy carries on alone: the CPU needs no mirror.</li>
 * </ul>
 *
 * <p>This class is the one place the host calls those four; the stamps live in {@code FieldBlock},
 * the record of what a device holds in {@code DeviceBuffer}, the device-side updates in
 * {@code OpenClBackend}; a backend without a device copy does nothing in them.
 */
final class Stepper {
    private final ParallelRunner runner;
    private final ActiveBackend backend;
    private final HostPipeline pipeline;
    private final OverflowScan scan;
    private final SolveMeter clock;
    /** The rigid step's copy of the bodies' moving state, put back if anything fails after gravity. */
    private final BodySnapshot snapshot = new BodySnapshot();
    /** The soft step's bodies at the end of the step, committed to the caller's bodies once checked. */
    private FieldBlock nextBodies;

    Stepper(ParallelRunner runner, ActiveBackend backend, HostPipeline pipeline, OverflowScan scan,
            SolveMeter clock) {
        this.runner = runner;
        this.backend = backend;
        this.pipeline = pipeline;
        this.scan = scan;
        this.clock = clock;
    }

    /** {@code ContactSolver.step}, its arguments checked first. */
    SolveResult step(BodyBatch bodies, ContactBatch contacts, SolveSettings settings, Vector3fc gravity,
            float timeStep, SolveResult warmStart, SolveResult dest) {
        HostPipeline.checkArguments(contacts, settings, warmStart, dest);
        // the time step's own quantities, before anything is read: a step too long or too short for
        // float is named as such, not as an overflow blamed on the bodies
        settings.checkStep(timeStep, gravity);
        if (settings instanceof SoftStepSettings soft) {
            return softStep(bodies, contacts, soft, gravity, timeStep, warmStart, dest);
        }
        return rigidStep(bodies, contacts, (RigidSettings) settings, gravity, timeStep, warmStart, dest);
    }

    /**
     * The rigid step (semi-implicit Euler): {@code v += g dt} for every body with mass, the solve,
     * then {@code v += dv}, {@code w += dw}, {@code x += v dt} and the orientation turned by
     * {@code w dt}, each host update mirrored on the device. Positional correction, where the
     * settings ask for it, divides by this step's time.
     */
    private SolveResult rigidStep(BodyBatch bodies, ContactBatch contacts, RigidSettings settings,
            Vector3fc gravity, float timeStep, SolveResult warmStart, SolveResult dest) {
        InputMagnitudes magnitudes = pipeline.validate(bodies, contacts);
        FieldBlock block = bodies.block();
        int count = bodies.size();
        float gx = gravity.x();
        float gy = gravity.y();
        float gz = gravity.z();
        backend.onDevice(device -> clock.addTransfer(device.syncBodies(block, count), 0));
        snapshot.save(block, count, runner);
        runner.forRange(count, 1 << 14, (from, to) -> {
            for (int i = from; i < to; i++) {
                Integrator.applyGravity(block, i, gx, gy, gz, timeStep);
            }
        });
        backend.onDevice(device -> device.mirrorGravity(block, count, gx, gy, gz, timeStep));
        clock.lap(SolvePhase.INTEGRATE);
        IterationOutcome outcome;
        try {
            // gravity has sped every body up by at most this since validation
            double gravitySlack = Math.max(Math.max(Math.abs(gx), Math.abs(gy)), Math.abs(gz)) * (double) timeStep;
            outcome = pipeline.solveRigid(bodies, contacts, settings, timeStep, warmStart, dest, magnitudes,
                    gravitySlack);
            clock.skip();
            FieldBlock deltas = dest.deltaBlock();
            runner.forRange(count, 1 << 14, (from, to) -> {
                float[] orientation = new float[4];
                for (int i = from; i < to; i++) {
                    Integrator.integrate(block, i, deltas, timeStep, orientation);
                }
            });
            scan.requireSoundBodies(block, count);
        } catch (RuntimeException failure) {
            // whatever failed after gravity (an overflow in the solve or in the integration, a refused
            // warm start, a working array too large), every body is put back bit for bit; the setters
            // stamp the fields, so the device copy is sent again
            snapshot.restore(block, runner);
            throw failure;
        }
        backend.onDevice(device -> device.mirrorIntegration(block, count, timeStep));
        clock.lap(SolvePhase.INTEGRATE);
        return pipeline.finish(settings.kind(), outcome, dest);
    }

    /**
     * The soft step: everything set up once (validation, warm start by id, colouring, rows), the
     * substeps on the backend, and the bodies' new state committed only once it is checked finite,
     * so that a step that throws leaves every body as it was (a device that checked it commits it
     * itself, saving the host a copy of every body's state).
     */
    private SolveResult softStep(BodyBatch bodies, ContactBatch contacts, SoftStepSettings settings, Vector3fc gravity,
            float timeStep, SolveResult warmStart, SolveResult dest) {
        SoftCoefficients coefficients = settings.softCoefficients(timeStep); // checked finite and normal
        InputMagnitudes magnitudes = pipeline.validateForStep(bodies, contacts);
        // the rows are formed from the bodies as they are, before the substeps' gravity
        pipeline.prepareSoft(bodies, contacts, settings, warmStart, magnitudes, dest);
        int count = bodies.size();
        if (nextBodies == null || nextBodies.stride() < count) {
            nextBodies = new FieldBlock(SoftStepJob.BODY_STATE_FIELDS, Math.max(count, 16));
        }
        IterationOutcome outcome = pipeline.solveSoft(bodies, contacts, settings, coefficients, gravity, timeStep,
                magnitudes, nextBodies, dest);
        FieldBlock block = bodies.block();
        if (!pipeline.nextBodiesCommitted()) {
            scan.requireSoundBodies(nextBodies, count, pipeline.nextBodiesFinite(), pipeline.nextOrientationsUnit());
            // bulk copies in ranges, each field stamped once: the stamps tell a device copy what changed
            block.setFields(nextBodies, SoftStepJob.BODY_STATE_FIELDS, count, runner);
        }
        // the device computed these bits: its copy of the bodies need not take them again
        backend.onDevice(device -> device.mirrorSoftStep(block, count));
        clock.lap(SolvePhase.INTEGRATE);
        return pipeline.finish(SolverKind.SOFT_STEP, outcome, dest);
    }
}
