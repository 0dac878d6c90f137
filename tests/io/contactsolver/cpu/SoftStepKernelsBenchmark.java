package io.contactsolver.cpu;

import static io.contactsolver.core.FieldOffsets.*;

import io.contactsolver.core.FieldBlock;
import io.contactsolver.core.GeometryField;
import io.contactsolver.core.ManifoldField;
import io.contactsolver.core.ManifoldImpulse;
import io.contactsolver.core.ManifoldVectorField;
import io.contactsolver.core.MotionField;
import io.contactsolver.core.PointField;
import io.contactsolver.core.PreparedBodyField;
import io.contactsolver.core.SoftCoefficients;
import io.contactsolver.core.StateField;
import io.contactsolver.core.TargetRule;
import io.contactsolver.core.WarmStartField;
import io.contactsolver.layout.ContactField;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * JMH micro-benchmarks of the soft step's inner loops on the CPU, one thread: nanoseconds per
 * manifold to prepare a manifold's row, its geometry anew ({@link SoftStep#prepareGeometry}, then
 * {@link SoftStep#prepareStep}) or kept ({@link SoftStep#prepareStep} alone), and to work it out in
 * a soft sweep (without friction, as the soft step runs it; with its separations found again, as
 * the first sweep after the bodies move does) and in a relax sweep (with friction and the twist). The
 * rows are the large pyramid's in number (15,000 manifolds; 4 points a face between unit boxes, or
 * 1, a sphere's contact), each between two bodies of its own, whose records lie in the rows' order
 * or shuffled. Run with
 * {@code mvn test-compile exec:exec@jmh -Djmh.args="SoftStepKernels -f 1 -wi 3 -i 5 -w 2 -r 2"}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class SoftStepKernelsBenchmark {
    static final int MANIFOLDS = 15_000;
    static final float FRICTION = 0.6f;

    /** Points a manifold: 4, a box's face on another; 1, a sphere's contact. */
    @Param({"4", "1"})
    public int points;

    /**
     * Where a manifold's bodies' records lie: {@code own}, the rows' bodies in the rows' order (the
     * maths and the rows' streaming alone); {@code scattered}, the bodies shuffled, so that each
     * manifold's body records are misses, as a colour's rows meet them in a large scene.
     */
    @Param({"own", "scattered"})
    public String bodies;

    private final SoftCoefficients coefficients = SoftCoefficients.of(1.0f / 60.0f, 4, 30.0f, 10.0f, 3.0f);
    private int pointCount;
    private float[] geometry;
    private float[] warmNormal;
    private float[] warmVectors;
    private FieldBlock contacts;
    private float[] prepared;
    private int world;
    private int[] pointStart;
    private int[] pairs;
    private int[] movers;
    /** Each manifold's bodies' prepared records. */
    private int[] prepA;
    private int[] prepB;
    private float[] manifolds;
    private float[] pointRows;
    private float[] normal;
    private float[] peak;
    private boolean[] bouncing;
    private float[] separation;
    private float[] accumulated;
    private float[] warm;
    private float[] state;
    private float[] motion;

    @Setup
    public void setUp() {
        SplittableRandom random = new SplittableRandom(7);
        int bodyCount = 2 * MANIFOLDS;
        pointCount = points * MANIFOLDS;
        // manifold r joins body[r] (a, below) and body[MANIFOLDS + r] (b, above)
        int[] body = new int[bodyCount];
        for (int i = 0; i < bodyCount; i++) {
            body[i] = i;
        }
        if (bodies.equals("scattered")) {
            for (int i = bodyCount - 1; i > 0; i--) {
                int j = random.nextInt(i + 1);
                int swap = body[i];
                body[i] = body[j];
                body[j] = swap;
            }
        }
        // unit boxes of mass 1 (inverse inertia 6 about each axis), b landing on a, both turning a little
        prepared = new float[(bodyCount + 1) * PreparedBodyField.STRIDE];
        for (int i = 0; i < bodyCount; i++) {
            int o = body[i] * PreparedBodyField.STRIDE;
            prepared[o + PREP_INV_MASS] = 1.0f;
            prepared[o + PREP_IXX] = 6.0f;
            prepared[o + PREP_IYY] = 6.0f;
            prepared[o + PREP_IZZ] = 6.0f;
            prepared[o + PREP_VX] = (float) random.nextDouble(-0.01, 0.01);
            prepared[o + PREP_VY] = i < MANIFOLDS ? 0.0f : (float) random.nextDouble(-0.1, -0.05);
            prepared[o + PREP_WZ] = (float) random.nextDouble(-0.01, 0.01);
        }
        world = bodyCount * StateField.STRIDE;
        // each manifold's points: the corners of b's lower face (or its centre), slightly overlapping a's top
        float[][] corners = points == 4
                ? new float[][] {{-0.5f, -0.5f}, {0.5f, -0.5f}, {0.5f, 0.5f}, {-0.5f, 0.5f}}
                : new float[][] {{0.0f, 0.0f}};
        geometry = new float[GeometryField.COUNT * pointCount];
        warmNormal = new float[pointCount];
        warmVectors = new float[ManifoldVectorField.COUNT * MANIFOLDS];
        contacts = new FieldBlock(ContactField.COUNT, pointCount);
        // each point starts from its share of a unit box's weight over a substep (60 Hz, 4 substeps, g 10)
        float weightShare = 10.0f / 60.0f / 4.0f / points;
        for (int m = 0; m < MANIFOLDS; m++) {
            for (int i = 0; i < points; i++) {
                int g = m * points + i;
                geometry[GEOM_RAX * pointCount + g] = corners[i][0];
                geometry[GEOM_RAY * pointCount + g] = 0.5f;
                geometry[GEOM_RAZ * pointCount + g] = corners[i][1];
                geometry[GEOM_RBX * pointCount + g] = corners[i][0];
                geometry[GEOM_RBY * pointCount + g] = -0.5f;
                geometry[GEOM_RBZ * pointCount + g] = corners[i][1];
                geometry[GEOM_NY * pointCount + g] = 1.0f;
                geometry[GEOM_S * pointCount + g] = (float) random.nextDouble(-0.002, 0.0);
                warmNormal[g] = weightShare;
                contacts.floats().put(CONTACT_FRICTION * pointCount + g, FRICTION);
            }
            warmVectors[MVEC_FX * MANIFOLDS + m] = (float) random.nextDouble(-0.001, 0.001);
        }
        pointStart = new int[MANIFOLDS + 1];
        pairs = new int[2 * MANIFOLDS];
        movers = new int[2 * MANIFOLDS];
        for (int r = 0; r <= MANIFOLDS; r++) {
            pointStart[r] = r * points;
        }
        prepA = new int[MANIFOLDS];
        prepB = new int[MANIFOLDS];
        for (int r = 0; r < MANIFOLDS; r++) {
            pairs[2 * r] = body[r] * StateField.STRIDE;
            pairs[2 * r + 1] = body[MANIFOLDS + r] * StateField.STRIDE;
            movers[2 * r] = body[r] * MotionField.STRIDE;
            movers[2 * r + 1] = body[MANIFOLDS + r] * MotionField.STRIDE;
            prepA[r] = body[r] * PreparedBodyField.STRIDE;
            prepB[r] = body[MANIFOLDS + r] * PreparedBodyField.STRIDE;
        }
        manifolds = new float[ManifoldField.COUNT * MANIFOLDS];
        pointRows = new float[PointField.COUNT * pointCount];
        normal = new float[pointCount];
        peak = new float[pointCount];
        bouncing = new boolean[MANIFOLDS];
        separation = new float[pointCount];
        accumulated = new float[ManifoldImpulse.COUNT * MANIFOLDS];
        warm = new float[WarmStartField.COUNT * MANIFOLDS];
        state = new float[(bodyCount + 1) * StateField.STRIDE];
        motion = new float[(bodyCount + 1) * MotionField.STRIDE];
        prepare();
        sweep(false, false, true);
    }

    @Benchmark
    @OperationsPerInvocation(MANIFOLDS)
    public void prepare() {
        prepareRows(true);
    }

    /** {@link #prepare} where every row keeps its geometry from the last step (a recycled manifold's, on the CPU). */
    @Benchmark
    @OperationsPerInvocation(MANIFOLDS)
    public void prepareKept() {
        prepareRows(false);
    }

    private void prepareRows(boolean geometryAnew) {
        for (int r = 0; r < MANIFOLDS; r++) {
            if (geometryAnew) {
                SoftStep.prepareGeometry(geometry, pointCount, pointStart[r], points, r, pointStart[r], prepared,
                        prepA[r], prepB[r],
                        contacts.floats().get(CONTACT_ROLLING_RESISTANCE * contacts.stride() + pointStart[r]) > 0.0f,
                        manifolds, pointRows);
            }
            SoftStep.prepareStep(geometry, pointCount, pointStart[r], points, warmNormal, warmVectors, MANIFOLDS,
                    r, contacts.floats(), contacts.stride(), pointStart[r], r, pointStart[r], prepared,
                    prepA[r], prepB[r], false, coefficients,
                    TargetRule.DEFAULT, manifolds, pointRows, normal, peak, accumulated);
        }
    }

    @Benchmark
    @OperationsPerInvocation(MANIFOLDS)
    public float softSweep() {
        return sweep(false, false, false);
    }

    @Benchmark
    @OperationsPerInvocation(MANIFOLDS)
    public float softSweepFindingSeparations() {
        return sweep(false, false, true);
    }

    @Benchmark
    @OperationsPerInvocation(MANIFOLDS)
    public float relaxSweep() {
        return sweep(true, true, false);
    }

    /** The points' normal impulses as the last sweep left them, for the test that the rows are live. */
    float[] normalImpulses() {
        return normal.clone();
    }

    /** The manifolds' friction pairs as the last sweep left them ({@link ManifoldImpulse} records). */
    float[] manifoldImpulses() {
        return accumulated.clone();
    }

    private float sweep(boolean relax, boolean friction, boolean findSeparation) {
        return SoftStep.sweep(manifolds, pointRows, pointStart, pairs, movers, normal, peak, separation, accumulated,
                state, motion, world, coefficients, relax, friction, false, findSeparation, warm, false, bouncing, 0,
                MANIFOLDS);
    }
}
