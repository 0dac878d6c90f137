package io.contactsolver.bench;

import io.contactsolver.Backend;
import io.contactsolver.BodyBatch;
import io.contactsolver.ContactBatch;
import io.contactsolver.ContactSolver;
import io.contactsolver.SoftStepSettings;
import io.contactsolver.SolveHistory;
import io.contactsolver.SolveResult;
import io.contactsolver.SolverConfig;
import io.contactsolver.layout.SolvePhase;
import io.contactsolver.scene.SphereLattice;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.function.IntConsumer;
import org.joml.Vector3f;

/**
 * The soft step on {@link SphereLattice} (docs/performance.md, "Soft step: the lattice"): issue
 * 30's figure of a step on all cores against one, on a scene large enough to share out. Each round
 * builds the lattice afresh and steps it {@link #WARM_UP_STEPS} steps untimed, then {@code steps}
 * timed, with {@code SolveSettings.softStep()} (its soft sweeps a substep as {@code --soft-iterations}
 * sets them), the contacts found again before each
 * step ({@link SphereLattice#contacts}, timed apart). Configurations take turns round by round, so
 * that a slow spell of this shared machine falls on all of them.
 *
 * <p>Reported a configuration: the step's milliseconds (median and best of the rounds' means),
 * where the first round's time went ({@link SolveResult#hostNanos}, and on a device its kernels and
 * copies, {@link SolveResult#deviceNanos}), how far any sphere moved, the
 * speed-up over the CPU on 1 thread, and whether every round and every configuration left the
 * spheres in the same state, bit for bit, as the library promises.
 */
final class LatticeBench {
    /** Steps left out of the timing while the JIT compiles the step. */
    static final int WARM_UP_STEPS = 5;
    static final float TIME_STEP = 0.002f;
    static final float GRAVITY = -9.81f;

    /**
     * One configuration's result: {@code stepMillis} is the median of its rounds' mean milliseconds
     * a step (the step call alone) and {@code bestMillis} the least; {@code phaseMillis} (in the
     * order of {@link Benchmark#HOST_PHASES}), {@code deviceMillis} (in the order of {@link Benchmark#DEVICE_PHASES},
     * empty on the CPU), {@code rebuildMillis} (finding the contacts) and how the spheres
     * moved ({@link Settling}) are the first round's; {@code budget} names the sweeps a step. {@code repeatable}: every round ended in the first round's state; {@code sameAsFirst}:
     * the first round ended in the state of the first configuration's. {@code threads} is 0 on a
     * device. {@code roundMillis}: each round's mean milliseconds a step, in order; {@code inTurn}:
     * its rounds ran step by step in turn with the other CPU thread counts' ({@link #run}).
     */
    record Row(int size, int contacts, String backend, int threads, int steps, String budget, double stepMillis,
            double bestMillis, List<Double> phaseMillis, List<Double> deviceMillis, double rebuildMillis,
            Settling settling, int rounds, boolean repeatable, boolean sameAsFirst, List<Double> roundMillis,
            boolean inTurn) {
        Row {
            phaseMillis = List.copyOf(phaseMillis);
            deviceMillis = List.copyOf(deviceMillis);
            roundMillis = List.copyOf(roundMillis);
        }

        String label() {
            return LatticeBench.label(backend, threads);
        }
    }

    /** One round of one configuration: its timings and the state it left the spheres in. */
    private record Round(double stepMillis, double rebuildMillis, double[] phaseMillis, double[] deviceMillis,
            Settling settling, int contacts, int[] state) {
    }

    /**
     * How far the spheres ended from where they started, m: {@code sank} the most any sphere went
     * down (soft contacts give under the weight of the column above, so the top layer settles by
     * about the square of the lattice's height), {@code sideways} the most any sphere went along x
     * or z, which a lattice at rest should not.
     */
    record Settling(float sank, float sideways) {
        static Settling between(float[] start, float[] end) {
            float sank = 0.0f;
            float sideways = 0.0f;
            for (int i = 0; i < start.length; i += 3) {
                sank = Math.max(sank, start[i + 1] - end[i + 1]);
                sideways = Math.max(sideways, Math.max(Math.abs(end[i] - start[i]), Math.abs(end[i + 2] - start[i + 2])));
            }
            return new Settling(sank, sideways);
        }
    }

    private final int size;
    private final int steps;
    private final SoftStepSettings soft;
    private final Consumer<String> progress;

    /** The lattice of {@code size} spheres a side, stepped {@code steps} timed steps a round with {@code soft}. */
    LatticeBench(int size, int steps, SoftStepSettings soft, Consumer<String> progress) {
        this.size = size;
        this.steps = steps;
        this.soft = soft;
        this.progress = progress;
    }

    /**
     * Runs the lattice on the CPU at 1 thread and {@code cores} if {@code cpu}, and on OpenCL if
     * {@code openCl} (left out if none opens), {@code rounds} times over, the configurations in turn.
     * Where {@code inTurn}, the CPU's thread counts run together in each round, each on a lattice of
     * its own, step by step in turn (the order reversed every step), so that their ratio comes from
     * the same minutes.
     */
    List<Row> run(int cores, boolean cpu, boolean openCl, String device, int rounds, boolean inTurn) {
        List<SolverConfig> configs = Benchmark.configurations(cores, cpu, openCl, device);
        List<List<Round>> measured = new ArrayList<>();
        configs.forEach(config -> measured.add(new ArrayList<>()));
        List<Integer> together = new ArrayList<>();
        for (int k = 0; k < configs.size(); k++) {
            if (inTurn && configs.get(k).backend() == Backend.CPU) {
                together.add(k);
            }
        }
        if (together.size() < 2) {
            together.clear();
        }
        for (int round = 0; round < rounds; round++) {
            if (!together.isEmpty()) {
                roundInTurn(configs, together, measured, rounds, round);
            }
            for (int k = 0; k < configs.size(); k++) {
                if (measured.get(k).size() < round || together.contains(k)) {
                    continue; // its backend did not open in an earlier round, or it ran in turn above
                }
                SolverConfig config = configs.get(k);
                progress.accept("lattice " + label(backendName(config), threadsOf(config))
                        + (rounds > 1 ? ", round " + (round + 1) + " of " + rounds : ""));
                try (ContactSolver solver = ContactSolver.create(config)) {
                    measured.get(k).add(round(solver));
                } catch (IllegalStateException unavailable) {
                    progress.accept("lattice: OpenCL not measured: " + unavailable.getMessage());
                }
            }
        }
        List<Row> rows = new ArrayList<>();
        int[] firstState = null;
        for (int k = 0; k < configs.size(); k++) {
            List<Round> runs = measured.get(k);
            if (runs.isEmpty()) {
                continue;
            }
            firstState = firstState == null ? runs.get(0).state() : firstState;
            SolverConfig config = configs.get(k);
            rows.add(combine(runs, backendName(config), threadsOf(config), Arrays.equals(runs.get(0).state(), firstState),
                    together.contains(k)));
        }
        return rows;
    }

    /** Round {@code round} of configurations {@code together} (the CPU's thread counts), step by step in turn. */
    private void roundInTurn(List<SolverConfig> configs, List<Integer> together, List<List<Round>> measured,
            int rounds, int round) {
        progress.accept("lattice cpu, " + String.join(" and ", together.stream()
                .map(k -> Integer.toString(configs.get(k).threads())).toList()) + " threads in turn"
                + (rounds > 1 ? ", round " + (round + 1) + " of " + rounds : ""));
        List<Round> done = Benchmark.withSolvers(together.stream().map(configs::get).toList(), solvers -> {
            List<LatticeRun> runs = solvers.stream().map(LatticeRun::new).toList();
            Benchmark.inTurn(WARM_UP_STEPS + steps, runs.stream().map(run -> (IntConsumer) run::step).toList());
            return runs.stream().map(LatticeRun::round).toList();
        });
        for (int n = 0; n < done.size(); n++) {
            measured.get(together.get(n)).add(done.get(n));
        }
    }

    private static String backendName(SolverConfig config) {
        return config.backend().name().toLowerCase(Locale.ROOT);
    }

    /** A row's threads: the CPU's, 0 on a device. */
    private static int threadsOf(SolverConfig config) {
        return config.backend() == Backend.CPU ? config.threads() : 0;
    }

    static String label(String backend, int threads) {
        return backend + " " + (threads == 0 ? "device" : threads + (threads == 1 ? " thread" : " threads"));
    }

    /** A fresh lattice stepped {@link #WARM_UP_STEPS} + {@code steps} steps on {@code solver}. */
    private Round round(ContactSolver solver) {
        LatticeRun run = new LatticeRun(solver);
        for (int step = 0; step < WARM_UP_STEPS + steps; step++) {
            run.step(step);
        }
        return run.round();
    }

    /** One configuration stepping a lattice of its own, a step at a time, its times kept. */
    private final class LatticeRun {
        private final ContactSolver solver;
        private final SphereLattice lattice = new SphereLattice(size);
        private final BodyBatch bodies = lattice.bodies();
        private final float[] start = positions(bodies);
        private final ContactBatch contacts = new ContactBatch(SphereLattice.contactCount(size));
        private final SolveHistory history = new SolveHistory();
        private final Vector3f gravity = new Vector3f(0.0f, GRAVITY, 0.0f);
        private long stepNanos;
        private long rebuildNanos;
        private final long[] phaseNanos = new long[Benchmark.HOST_PHASES.size()];
        private final long[] deviceNanos = new long[Benchmark.DEVICE_PHASES.size()];

        LatticeRun(ContactSolver solver) {
            this.solver = solver;
        }

        void step(int step) {
            long t0 = System.nanoTime();
            lattice.contacts(contacts);
            long t1 = System.nanoTime();
            SolveResult result = solver.step(bodies, contacts, soft, gravity, TIME_STEP, history);
            long t2 = System.nanoTime();
            if (step >= WARM_UP_STEPS) {
                rebuildNanos += t1 - t0;
                stepNanos += t2 - t1;
                for (int p = 0; p < Benchmark.HOST_PHASES.size(); p++) {
                    phaseNanos[p] += result.hostNanos(Benchmark.HOST_PHASES.get(p));
                }
                for (int p = 0; p < Benchmark.DEVICE_PHASES.size(); p++) {
                    deviceNanos[p] += result.deviceNanos(Benchmark.DEVICE_PHASES.get(p));
                }
            }
        }

        Round round() {
            return new Round(stepNanos / 1e6 / steps, rebuildNanos / 1e6 / steps, perStep(phaseNanos),
                    solver.backend() == Backend.CPU ? new double[0] : perStep(deviceNanos),
                    Settling.between(start, positions(bodies)), contacts.size(), Benchmark.motionBits(bodies));
        }
    }

    /** Nanoseconds summed over the timed steps as milliseconds a step. */
    private double[] perStep(long[] nanos) {
        double[] millis = new double[nanos.length];
        for (int p = 0; p < nanos.length; p++) {
            millis[p] = nanos[p] / 1e6 / steps;
        }
        return millis;
    }

    private static float[] positions(BodyBatch bodies) {
        float[] xyz = new float[3 * bodies.size()];
        Vector3f p = new Vector3f();
        for (int i = 0; i < bodies.size(); i++) {
            bodies.getPosition(i, p);
            xyz[3 * i] = p.x;
            xyz[3 * i + 1] = p.y;
            xyz[3 * i + 2] = p.z;
        }
        return xyz;
    }

    /** A configuration's rounds as one row: the median and best time, the first round's figures. */
    private Row combine(List<Round> runs, String backend, int threads, boolean sameAsFirst, boolean inTurn) {
        Round first = runs.get(0);
        double[] millis = runs.stream().mapToDouble(Round::stepMillis).toArray();
        boolean repeatable = runs.stream().allMatch(run -> Arrays.equals(run.state(), first.state()));
        return new Row(size, first.contacts(), backend, threads, steps, Benchmark.sweeps(soft), Benchmark.median(millis),
                Arrays.stream(millis).min().orElseThrow(), Arrays.stream(first.phaseMillis()).boxed().toList(),
                Arrays.stream(first.deviceMillis()).boxed().toList(), first.rebuildMillis(), first.settling(),
                runs.size(), repeatable, sameAsFirst, Arrays.stream(millis).boxed().toList(), inTurn);
    }

    /**
     * The speed-up of {@code row} over {@code base}: {@code base}'s median over {@code row}'s
     * ({@code best}: best over best), NaN without a base.
     */
    static double speedUp(Row base, Row row, boolean best) {
        return base == null ? Double.NaN
                : best ? base.bestMillis() / row.bestMillis() : base.stepMillis() / row.stepMillis();
    }

    /** The row every speed-up is taken over: the CPU on 1 thread, null if it was not measured. */
    static Row base(List<Row> rows) {
        return rows.stream().filter(row -> row.backend().equals("cpu") && row.threads() == 1).findFirst().orElse(null);
    }

    static void table(List<Row> rows, PrintWriter out) {
        if (rows.isEmpty()) {
            return;
        }
        Row first = rows.get(0);
        Row base = base(rows);
        out.printf(Locale.ROOT, "%nSoft step on a lattice of spheres (%d^3 = %,d touching spheres of radius %.0f mm on the "
                + "floor; %,d contacts a step, friction %.1f, rolling resistance %.1f mm; %s, dt %.0f "
                + "ms; %d steps timed after %d untimed; %d round%s a configuration)%n", first.size(),
                first.size() * first.size() * first.size(), 1e3 * SphereLattice.RADIUS, first.contacts(),
                SphereLattice.FRICTION, 1e3 * SphereLattice.ROLLING_RESISTANCE, first.budget(), 1e3 * TIME_STEP,
                first.steps(),
                WARM_UP_STEPS, first.rounds(), first.rounds() == 1 ? "" : "s");
        StringBuilder heads = new StringBuilder();
        for (SolvePhase phase : Benchmark.HOST_PHASES) {
            heads.append(String.format(Locale.ROOT, " %9s", Benchmark.phaseLabel(phase)));
        }
        out.printf(Locale.ROOT, "%-7s %7s %10s %8s %10s %7s%s %8s %8s %10s %8s %11s%n", "backend", "threads", "ms/step",
                "best", "x 1 thread", "best x", heads, "kernels", "copies", "rebuild ms", "sank mm", "sideways mm");
        for (Row row : rows) {
            StringBuilder phases = new StringBuilder();
            row.phaseMillis().forEach(millis -> phases.append(String.format(Locale.ROOT, " %9.2f", millis)));
            StringBuilder device = new StringBuilder();
            for (int p = 0; p < Benchmark.DEVICE_PHASES.size(); p++) {
                device.append(row.deviceMillis().isEmpty() ? String.format(Locale.ROOT, " %8s", "-")
                        : String.format(Locale.ROOT, " %8.2f", row.deviceMillis().get(p)));
            }
            out.printf(Locale.ROOT, "%-7s %7s %10.2f %8.2f %10s %7s%s%s %10.2f %8.4f %11.4f%n", row.backend(),
                    row.threads() == 0 ? "-" : Integer.toString(row.threads()), row.stepMillis(), row.bestMillis(),
                    ratio(speedUp(base, row, false)), ratio(speedUp(base, row, true)), phases, device,
                    row.rebuildMillis(), 1e3 * row.settling().sank(), 1e3 * row.settling().sideways());
        }
        out.println("ms/step: the step call alone" + (first.rounds() > 1 ? ", the median of the rounds' means over the "
                + "timed steps; best: the least" : ", the mean over the timed steps"));
        out.println("x 1 thread: cpu on 1 thread's ms/step over the row's; best x: best over best");
        out.println("validate to integrate: the step's phases, ms a step (SolveResult.hostNanos, first round; on a device "
                + "the host's waits for it are in none); kernels, copies: a device's own time a step in its kernels and "
                + "its copies (SolveResult.deviceNanos, first round); rebuild: finding the contacts before each step, not "
                + "in ms/step; "
                + "sank, sideways: the most any sphere ended below, and beside, where it started (the lattice settles "
                + "on its soft contacts)");
        boolean deterministic = true;
        for (Row row : rows) {
            if (!row.repeatable()) {
                out.printf(Locale.ROOT, "warning: the rounds of %s moved the spheres differently%n", row.label());
            }
            if (!row.sameAsFirst()) {
                out.printf(Locale.ROOT, "warning: %s moved the spheres differently from %s%n", row.label(), first.label());
            }
            deterministic &= row.repeatable() && row.sameAsFirst();
        }
        if (deterministic) {
            out.println("every round " + (rows.size() > 1 ? "and configuration " : "") + "moved the spheres to the same bits");
        }
        List<Row> inTurn = rows.stream().filter(Row::inTurn).toList();
        if (base != null && base.inTurn()) {
            out.println("cpu's thread counts stepped lattices of their own step by step in turn (--threads-in-turn)");
            for (Row row : inTurn.subList(1, inTurn.size())) {
                StringBuilder ratios = new StringBuilder();
                int rounds = Math.min(base.roundMillis().size(), row.roundMillis().size());
                for (int r = 0; r < rounds; r++) {
                    ratios.append(Benchmark.roundRatio(base.roundMillis().get(r), row.roundMillis().get(r)));
                }
                out.printf(Locale.ROOT, "cpu: 1 thread's ms a step over %d threads', round by round:%s%n", row.threads(),
                        ratios);
            }
        }
    }

    private static String ratio(double value) {
        return Double.isNaN(value) ? "-" : String.format(Locale.ROOT, "%.2f", value);
    }

    static void writeCsv(List<Row> rows, Writer out) throws IOException {
        StringBuilder header = new StringBuilder("size,spheres,contacts,backend,threads,warm_up_steps,timed_steps,rounds,"
                + "ms_per_step,best_ms_per_step,speed_up,best_speed_up");
        for (SolvePhase phase : Benchmark.HOST_PHASES) {
            header.append(',').append(phase.name().toLowerCase(Locale.ROOT)).append("_ms");
        }
        out.write(header.append(",device_kernels_ms,device_copies_ms,rebuild_ms,sank_m,sideways_m,repeatable,"
                + "same_as_first\n").toString());
        Row base = base(rows);
        for (Row row : rows) {
            StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%d,%d,%d,%s,%d,%d,%d,%d,%.4f,%.4f,%s,%s",
                    row.size(), row.size() * row.size() * row.size(), row.contacts(), row.backend(), row.threads(),
                    WARM_UP_STEPS, row.steps(), row.rounds(), row.stepMillis(), row.bestMillis(),
                    csvRatio(speedUp(base, row, false)), csvRatio(speedUp(base, row, true))));
            row.phaseMillis().forEach(millis -> line.append(String.format(Locale.ROOT, ",%.4f", millis)));
            for (int p = 0; p < Benchmark.DEVICE_PHASES.size(); p++) {
                line.append(row.deviceMillis().isEmpty() ? "," : String.format(Locale.ROOT, ",%.4f",
                        row.deviceMillis().get(p)));
            }
            out.write(line.append(String.format(Locale.ROOT, ",%.4f,%.7f,%.7f,%s,%s\n", row.rebuildMillis(),
                    row.settling().sank(), row.settling().sideways(), row.repeatable(), row.sameAsFirst())).toString());
        }
    }

    private static String csvRatio(double value) {
        return Double.isNaN(value) ? "" : String.format(Locale.ROOT, "%.4f", value);
    }
}
