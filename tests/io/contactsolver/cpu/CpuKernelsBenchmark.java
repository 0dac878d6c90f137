package io.contactsolver.cpu;

import io.contactsolver.core.ContactColoring;
import io.contactsolver.core.ContactRowField;
import io.contactsolver.core.FieldBlock;
import io.contactsolver.core.FrictionUse;
import io.contactsolver.core.MovableBodies;
import io.contactsolver.core.ParallelRunner;
import io.contactsolver.core.PreparedBodyField;
import io.contactsolver.core.StateField;
import io.contactsolver.core.TargetRule;
import io.contactsolver.layout.ContactBody;
import io.contactsolver.layout.ContactField;
import io.contactsolver.layout.DeltaField;
import io.contactsolver.layout.ImpulseField;
import io.contactsolver.scene.Scene;
import io.contactsolver.scene.SceneGenerator;
import java.lang.reflect.Method;
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
import org.openjdk.jmh.infra.Blackhole;

/**
 * JMH micro-benchmarks of the CPU backend's inner loops, one thread, on a seeded pile: nanoseconds
 * per body or per contact for each phase. Run with
 * {@code mvn test-compile exec:exec@jmh -Djmh.args="CpuKernels -f 1 -wi 3 -i 5 -w 2 -r 2"}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class CpuKernelsBenchmark {
    private static final int CONTACTS = 100_000;
    /** Friction of every contact of the frictional rows: a typical granular value. */
    private static final float FRICTION = 0.5f;

    @Param({"pile", "random"})
    public String scene;

    private FieldBlock bodies;
    private FieldBlock contacts;
    private FieldBlock links;
    private FieldBlock impulses;
    private int bodyCount;
    private float[] prepared;
    private float[] sums;
    private float[] responses;
    private float[] scratch;
    private final float[] work = new float[BodyMath.WORK];
    private float[] rows;
    private float[] lambda;
    private float[] frictionRows;
    private float[] frictionLambda;
    private int[] pairs;
    /** The first overflow row: the benchmarks sweep the coloured rows, whose rows are independent. */
    private int colourEnd;
    private float[] state;

    @Setup
    public void setUp() throws Exception {
        Scene generated = scene.equals("pile") ? SceneGenerator.pileWithContacts(1, CONTACTS, 0.3f)
                : SceneGenerator.randomGraph(1, CONTACTS / 4, CONTACTS);
        bodies = block(generated.bodies(), "block");
        contacts = block(generated.contacts(), "floatBlock");
        links = block(generated.contacts(), "linkBlock");
        bodyCount = generated.bodies().size();
        impulses = new FieldBlock(ImpulseField.COUNT, CONTACTS);
        prepared = new float[(bodyCount + 1) * PreparedBodyField.STRIDE];
        for (int i = 0; i < bodyCount; i++) {
            BodyMath.prepareBody(bodies.floats(), bodies.stride(), i, prepared);
        }
        sums = new float[(bodyCount + 1) * StateField.STRIDE];  // big enough for both layouts
        responses = new float[CONTACTS * ContactBody.COUNT * DeltaField.COUNT];
        scratch = new float[ContactRowField.COUNT];
        // rows as the CPU keeps them (FrictionUse.rowFields, accumulatedImpulses), with and without friction
        FrictionUse frictionless = new FrictionUse(false, false, false);
        FrictionUse frictional = new FrictionUse(true, false, false);
        rows = new float[frictionless.rowFields() * CONTACTS];
        lambda = new float[frictionless.accumulatedImpulses() * CONTACTS];
        frictionRows = new float[frictional.rowFields() * CONTACTS];
        frictionLambda = new float[frictional.accumulatedImpulses() * CONTACTS];
        FieldBlock frictionContacts = new FieldBlock(contacts.fieldCount(), contacts.stride());
        frictionContacts.floats().put(0, contacts.floats(), 0, contacts.floats().capacity());
        for (int c = 0; c < CONTACTS; c++) {
            frictionContacts.floats().put(ContactField.FRICTION.ordinal() * contacts.stride() + c, FRICTION);
        }
        // rows in colour order with their state offsets, as the solver lays them out
        MovableBodies movable = new MovableBodies();
        ContactColoring coloring = new ContactColoring();
        try (ParallelRunner one = new ParallelRunner(1)) {
            movable.classify(bodies, bodyCount, one);
            coloring.build(links, CONTACTS, movable, ContactColoring.MAX_COLOURS, one);
        }
        colourEnd = coloring.colourStarts()[coloring.colourCount()];
        pairs = new int[ContactBody.COUNT * CONTACTS];
        for (int r = 0; r < CONTACTS; r++) {
            int c = coloring.order()[r];
            Iterative.prepareRow(contacts.floats(), links.ints(), contacts.stride(), c, r, frictionless.rowFields(),
                    bodyCount, prepared, TargetRule.DEFAULT, frictionless.any(), null, 0, rows, lambda, frictionless.accumulatedImpulses(),
                    scratch, work);
            Iterative.prepareRow(frictionContacts.floats(), links.ints(), contacts.stride(), c, r,
                    frictional.rowFields(), bodyCount, prepared, TargetRule.DEFAULT, frictional.any(), null, 0, frictionRows,
                    frictionLambda, frictional.accumulatedImpulses(), scratch, work);
            pairs[2 * r] = coloring.slots()[r] * StateField.STRIDE;
            pairs[2 * r + 1] = coloring.slots()[CONTACTS + r] * StateField.STRIDE;
        }
        state = new float[(bodyCount + 1) * StateField.STRIDE];
    }

    /** The batches keep their blocks package-private; a benchmark may look inside. */
    private static FieldBlock block(Object batch, String accessor) throws Exception {
        Method method = batch.getClass().getDeclaredMethod(accessor);
        method.setAccessible(true);
        return (FieldBlock) method.invoke(batch);
    }

    @Benchmark
    @OperationsPerInvocation(CONTACTS / 4)
    public void prepareBody() {
        for (int i = 0; i < CONTACTS / 4; i++) {
            BodyMath.prepareBody(bodies.floats(), bodies.stride(), i % bodyCount, prepared);
        }
    }

    @Benchmark
    @OperationsPerInvocation(CONTACTS)
    public void solveContactWritingResponses() {
        for (int c = 0; c < CONTACTS; c++) {
            SinglePass.solveContact(contacts.floats(), contacts.stride(), c, prepared,
                    BodyMath.record(links.getInt(0, c), bodyCount), BodyMath.record(links.getInt(1, c), bodyCount),
                    TargetRule.DEFAULT, true, scratch, work, impulses, responses, 2 * c * SinglePass.RESPONSE,
                    (2 * c + 1) * SinglePass.RESPONSE, false);
        }
    }

    @Benchmark
    @OperationsPerInvocation(CONTACTS)
    public void solveContactAndAccumulate() {
        SinglePass.solveAndAccumulate(contacts.floats(), links.ints(), contacts.stride(), 0, CONTACTS, bodyCount,
                prepared, TargetRule.DEFAULT, true, scratch, work, impulses, sums, 0, bodyCount);
    }

    private final float[] batch = new float[2 * SinglePass.BATCH * PreparedBodyField.STRIDE];

    @Benchmark
    @OperationsPerInvocation(CONTACTS)
    public void solveGatheredWritingResponses() {
        SinglePass.solveGathered(contacts.floats(), links.ints(), contacts.stride(), 0, CONTACTS, bodyCount, prepared,
                TargetRule.DEFAULT, true, scratch, work, batch, impulses, responses, false);
    }

    @Benchmark
    @OperationsPerInvocation(CONTACTS)
    public void accumulateOwned() {
        SinglePass.accumulateOwned(links.ints(), links.stride(), CONTACTS, responses, sums, 0, bodyCount);
    }

    /** The frictionless iterative loop: one visit of every row, rows and state as {@code CpuBackend} keeps them. */
    @Benchmark
    @OperationsPerInvocation(CONTACTS)
    public void sweepNormal(Blackhole sink) {
        sink.consume(Iterative.sweepNormalColour(rows, pairs, lambda, state, bodyCount * StateField.STRIDE, 0,
                colourEnd));
    }

    /** The same rows one after the other, as the overflow rows are solved: what solving two side by side gains. */
    @Benchmark
    @OperationsPerInvocation(CONTACTS)
    public void sweepNormalInOrder(Blackhole sink) {
        FrictionUse frictionless = new FrictionUse(false, false, false);
        sink.consume(Iterative.sweep(rows, frictionless.rowFields(), pairs, lambda,
                frictionless.accumulatedImpulses(), state, bodyCount * StateField.STRIDE, 0, colourEnd));
    }

    /** The same rows with friction 0.5 on every contact, two side by side, as {@code CpuBackend} solves a colour. */
    @Benchmark
    @OperationsPerInvocation(CONTACTS)
    public void sweepFriction(Blackhole sink) {
        FrictionUse frictional = new FrictionUse(true, false, false);
        sink.consume(Iterative.sweepColour(frictionRows, frictional.rowFields(), pairs, frictionLambda,
                frictional.accumulatedImpulses(), state, bodyCount * StateField.STRIDE, 0, colourEnd));
    }

    /** The frictional rows one after the other. */
    @Benchmark
    @OperationsPerInvocation(CONTACTS)
    public void sweepFrictionInOrder(Blackhole sink) {
        FrictionUse frictional = new FrictionUse(true, false, false);
        sink.consume(Iterative.sweep(frictionRows, frictional.rowFields(), pairs, frictionLambda,
                frictional.accumulatedImpulses(), state, bodyCount * StateField.STRIDE, 0, colourEnd));
    }
}
