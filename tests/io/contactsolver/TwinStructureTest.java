package io.contactsolver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The Java twins of the kernels (host/library/io/contactsolver/cpu) and their OpenCL C (kernels/) stay in
 * step, read as text, so that this runs on every machine, OpenCL or not: an edit of the maths on
 * one side only fails here even where the agreement tests skip. docs/twins.md is the map.
 *
 * <p>{@link #TWINS} declares, for each Java class and its {@code .cl} file, the paired functions in
 * order and the functions each side has alone. Checked: every function of either file is paired or
 * declared one-sided; the pairs come in the same order on both sides; and each pair's bodies have
 * the same fingerprint. The fingerprint is the body's tokens with what only places values dropped
 * or blurred, so that it differs with the maths, not with the layout:
 * <ul>
 *   <li>comments, types and qualifiers ({@code float}, {@code const}, {@code __global}), casts;
 *   <li>an array access {@code x[...]}, a buffer's {@code get}, {@code getFloat}, and
 *       {@code put}, {@code setFloat}, {@code setVector} (as assignments) are a load or a store
 *       {@code []}: how the index is computed (structure of arrays on the device, rows side by side
 *       on the CPU) is not compared;
 *   <li>"plumbing": int, boolean, array, pointer and buffer variables are {@code @}; their
 *       declarations whose value is only plumbing, and call arguments that are only plumbing, are
 *       dropped; constants (upper case, {@code X.ordinal()}) are {@code #};
 *   <li>a kernel's {@code get_global_id} and its bounds check {@code if (@ >= @) { return; }};
 *   <li>names that differ by language: {@code Math.abs} is {@code fabs}, {@code Math.copySign}
 *       {@code copysign}, {@code java_max} {@code max}, {@code java_min_double} {@code min}, a Java method of a pair its C name (the
 *       pair of its own class first: {@code SoftStep.store} is {@code soft_store}, {@code SinglePass.store}
 *       stays {@code store}),
 *       {@code obj.accessor()} and {@code obj.field} the member's name.
 * </ul>
 * What stays is the arithmetic: every operator, bracket and float literal in order, the float
 * variables by name, calls, conditions and control flow. What differs beyond that is a
 * {@link Known} difference: listed with its pair and its reason, and itself checked, so a stale
 * entry fails too.
 */
class TwinStructureTest {
    /** A difference of a pair the fingerprints show that is by design: this side's fingerprint has {@code tokens} (once). */
    record Known(boolean java, String tokens, String why) {
    }

    /** A Java method (name, or name/arity for an overload) and its C function. */
    record Pair(String java, String c, List<Known> known) {
    }

    /** A Java class of host/library/io/contactsolver/cpu (or of core, by its path from there) and its kernel file. */
    record Twin(String javaFile, String clFile, List<Pair> pairs, List<String> javaOnly, List<String> clOnly) {
    }

    private static Pair pair(String java, String c, Known... known) {
        return new Pair(java, c, List.of(known));
    }

    private static Known javaOnly(String tokens, String why) {
        return new Known(true, tokens, why);
    }

    private static Known clOnly(String tokens, String why) {
        return new Known(false, tokens, why);
    }

    /** The twins; docs/twins.md prints the same map. */
    static final List<Twin> TWINS = List.of(
            new Twin("BodyMath.java", "common.cl", List.of(
                    pair("prepareBody/5", "prepare_body"),
                    pair("record", "record",
                            clOnly("@ +", "the device returns the record's address, the CPU its offset")),
                    pair("evaluateContact", "evaluate_contact"),
                    pair("contactMotion", "contact_motion"),
                    pair("angularBlock", "angular_block"),
                    pair("energyChange", "energy_change"),
                    pair("frictionalImpulse", "frictional_impulse"),
                    pair("cross", "cross_into"),
                    pair("inertiaTimes", "inertia_times"),
                    pair("dotRow", "dot_row"),
                    pair("largerEigenvalue", "larger_eigenvalue"),
                    pair("frictionSide", "friction_side"),
                    pair("rollingSide", "rolling_side"),
                    pair("evaluateFriction", "evaluate_friction"),
                    pair("evaluateTwist", "evaluate_twist")),
                    List.of("prepareBody/4", "gatherRecords"),
                    List.of()),
            new Twin("Iterative.java", "iterative.cl", List.of(
                    pair("projectOntoDisk", "project_onto_disk"),
                    pair("warmPair", "warm_pair"),
                    pair("clampMagnitude", "clamp_magnitude"),
                    pair("warmTwist", "warm_twist"),
                    pair("prepareRow", "prepare_rows",
                            clOnly("restitutionThreshold , inverseTimeStep , biasFactor , slop",
                                    "the device takes the TargetRule's four numbers as arguments"),
                            javaOnly("arraycopy ( @ ? @ : min ( ) ) ;",
                                    "the CPU copies the fields its batch keeps by a library call"),
                            clOnly("for ( @ < @ ; @ ++ ) { [] = [] ; }", "the device copies a row field by field"),
                            javaOnly("if ( @ > # ) {", "a CPU row has a TAU only in a batch with torsion; a"
                                    + " device row always has one"),
                            javaOnly("for ( @ < @ ; @ ++ ) { [] = 0.0 ; }",
                                    "the CPU zeroes the impulses its batch keeps in a loop"),
                            clOnly("[] = 0.0 ; [] = 0.0 ; [] = 0.0 ; [] = 0.0 ; [] = 0.0 ;",
                                    "the device zeroes the five friction, rolling and twist impulses one by one")),
                    pair("applyImpulse", "apply_impulse"),
                    pair("addTangential", "add_tangential"),
                    pair("applyTangents", "apply_tangents"),
                    pair("applyRolling", "apply_rolling"),
                    pair("applyTwist", "apply_twist"),
                    pair("tangentVelocity", "tangent_velocity"),
                    pair("stepTangents", "step_tangents"),
                    pair("applyTangentsStep", "apply_tangents_step"),
                    pair("solveTangents", "solve_tangents"),
                    pair("angularVelocity", "angular_velocity"),
                    pair("stepRolling", "step_rolling"),
                    pair("applyRollingStep", "apply_rolling_step"),
                    pair("solveRolling", "solve_rolling"),
                    pair("stepTwist", "step_twist"),
                    pair("applyTwistStep", "apply_twist_step"),
                    pair("solveTwist", "solve_twist"),
                    pair("normalVelocity", "normal_velocity"),
                    pair("normalImpulse", "normal_impulse"),
                    pair("solveFrictionPairs", "solve_friction_pairs"),
                    pair("finishRow", "finish_row"),
                    pair("solveNormal", "solve_normal"),
                    pair("solveRow", "solve_row"),
                    pair("applyWarmStartRow", "apply_warm_start_row",
                            javaOnly("@ > # &&", "a CPU row keeps only the impulses its batch uses"),
                            javaOnly("@ > # &&", "likewise for the rolling pair")),
                    pair("writeDeltas", "write_state_deltas"),
                    pair("writeVector", "write_vector"),
                    pair("writeAngular", "write_angular"),
                    pair("writeImpulses", "scatter_impulses",
                            javaOnly("@ > # &&", "a CPU row keeps only the impulses its batch uses"),
                            javaOnly("@ > # &&", "likewise for the rolling pair"))),
                    List.of("sweep", "sweepNormalColour", "sweepColour", "frictionOfTwo", "applyWarmStart",
                            "writeNormalImpulses"),
                    List.of("apply_warm_start", "converged", "solve_colour", "solve_overflow", "solve_small_batch")),
            new Twin("SinglePass.java", "single_pass.cl", List.of(
                    pair("respond", "respond"),
                    pair("respondVector", "respond_vector"),
                    pair("writeImpulses", "write_impulses"),
                    pair("solveContact", "solve_contacts",
                            clOnly("restitutionThreshold , inverseTimeStep , biasFactor , slop",
                                    "the device takes the TargetRule's four numbers as arguments"),
                            javaOnly("if ( @ != null ) {", "the CPU may leave a contact's impulses unwritten"),
                            javaOnly("if ( @ != # ) {", "or side a's response (a body another thread owns)"),
                            javaOnly("if ( @ != # ) {", "or side b's"),
                            javaOnly("if ( @ != null ) {", "as above, for a frictional contact"),
                            javaOnly("if ( @ != # ) {", "as above"),
                            javaOnly("if ( @ != # ) {", "as above"))),
                    List.of("store", "solveAndAccumulate", "touchSums", "solveGathered", "crossingContacts",
                            "accumulateOwned", "add", "writeDeltas"),
                    List.of("store", "prepare_bodies", "gather_chunk")),
            new Twin("Integrator.java", "integrate.cl", List.of(
                    pair("applyGravity", "apply_gravity",
                            clOnly("@ >= @ ||", "the kernel's bounds check shares the condition")),
                    pair("turn", "turn_orientation"),
                    pair("integrate", "integrate_bodies",
                            javaOnly("[] = [] ; [] = [] ; [] = [] ; [] = [] ;",
                                    "the CPU copies the orientation into the caller's scratch; the device"
                                            + " initialises its private array, a declaration"))),
                    List.of(),
                    List.of()),
            new Twin("SoftStep.java", "soft_step.cl", List.of(
                    pair("inertiaTimes", "soft_inertia_times"),
                    pair("dot", "soft_dot"),
                    pair("inverse2", "inverse2"),
                    pair("prepareGeometry", "prepare_geometry"), pair("prepareStep", "prepare_step"),
                    pair("applyGravity", "soft_apply_gravity"),
                    pair("warmImpulses", "warm_impulses"),
                    pair("applyWarmStart", "soft_apply_warm_start"),
                    pair("warmBody", "warm_body"),
                    pair("solveManifold", "solve_manifold"),
                    pair("startVelocity", "start_velocity"),
                    pair("store", "soft_store"),
                    pair("sweep", "sweep",
                            javaOnly(", []",
                                    "the CPU tracks a row's peaks only where it may bounce (bouncing[r]), the rows its"
                                            + " restitution visits; the device's visits every row, so it tracks them all (1)")),
                    pair("restitution", "restitution"),
                    pair("integrate", "integrate",
                            clOnly("[] = qw ; [] = qx ; [] = qy ; [] = qz ;",
                                    "the device turns a private copy of the orientation (turn_orientation takes"
                                            + " no global pointer) and copies it back")),
                    pair("resetMotion", "reset_motion"),
                    pair("finishBody", "finish_body",
                            javaOnly("if ( @ != null ) {",
                                    "a step asked for no deltas gives the CPU none to write; the device writes"
                                            + " them to its own buffer and the host does not read them back")),
                    pair("writeResults", "write_results")),
                    List.of("mayBounce", "geometryStands", "rollingStands"),
                    List.of("java_max", "prepare_manifolds", "reset_motions", "apply_substep_gravity",
                            "warm_start_manifolds", "start_substep", "solve_manifolds", "integrate_motions", "restitute_manifolds",
                            "finish_bodies", "write_manifold_results")),
            new Twin("../core/Recycler.java", "recycling.cl", List.of(
                    pair("turned", "turned"),
                    pair("turnSince", "turn_since"),
                    pair("holds", "holds",
                            javaOnly("@ = @ >= 0 && @ . isMovable ( ) ; @ = @ >= 0 && @ . isMovable ( ) ;",
                                    "the host asks MovableBodies; the device reads its movable flags, an int a body,"
                                            + " which leaves the same test as plumbing")),
                    pair("placeCaptured", "place_captured"),
                    pair("keepManifold", "keep_manifold",
                            javaOnly("[] = @ ; [] = 0 ; [] = ( @ - @ ) * # ;",
                                    "the buffer's block copy of the captures (put(at, source, from, length)), from"
                                            + " the manifold's own read at once (capturesOf)"),
                            clOnly("for ( @ < ( @ - @ ) * # ; @ ++ ) { [] = [] ; }",
                                    "the same copy, float by float")),
                    pair("takeFresh", "take_fresh",
                            javaOnly("fill ( 0.0 ) ;", "the JVM's fill of the sums"),
                            clOnly("for ( @ < # ; @ ++ ) { [] = 0.0 ; }", "the same fill, float by float"),
                            javaOnly("@ = @ == null ? - 1 : matched . previousOf ( ) ;",
                                    "the host looks the previous contact up by id; the device has it from the host's"
                                            + " table, or as its own index where the ids come in the same order"),
                            javaOnly("if ( @ < 0 || ! cache . isValid ( ) && impulses == null ) {",
                                    "the host may warm start from a result without manifolds or impulses; the device"
                                            + " recycles only after a step it ran, which left both"),
                            clOnly("if ( @ < 0 ) {", "the same guard, where a previous step is sure to have impulses"),
                            javaOnly("if ( cache . isValid ( ) ) { reportedImpulses ( cache ) ; } else { for ( @ < # ;"
                                    + " @ ++ ) { [] = [] ; } }",
                                    "the host reads the previous contact's impulses from the previous manifolds (or"
                                            + " result); the device reads the ones its report left of that step")),
                    pair("sameIds", "same_ids"),
                    pair("contactOf", "contact_of"),
                    pair("pointOf", "point_of"),
                    pair("tally", "report_tally"),
                    pair("contactImpulses", "contact_impulses")),
                    List.of("Previous", "plan", "finishPlan", "Plan", "write", "writeLeavingAnchors", "writePoints", "placeAnchors",
                            "writeManifold", "capturesOf", "writePending",
                            "writtenElsewhere", "previousManifolds", "plannedCache", "fates", "plannedLimit",
                            "matchIsIdentity", "uniformFate", "pointStartVersion", "plannedPrevious", "match", "samePairs", "keyBody", "report", "reportSerially", "reportManifolds",
                            "reportsFinite", "reportedImpulses", "keep",
                            "manifoldCount", "pointCount", "recycledCount", "pointStart", "geometry", "warmNormal",
                            "warmVectors", "writeLineage", "keptLineage", "keptFrom"),
                    List.of("java_min_double", "recycle_manifolds", "report_contact_impulses")));

    private static final Path JAVA_DIR = Path.of("host/library/io/contactsolver/cpu");
    private static final Path CL_DIR = Path.of("kernels");

    @Test
    void everyFunctionIsPairedOrDeclaredOneSided() throws IOException {
        List<String> problems = new ArrayList<>();
        for (Twin twin : TWINS) {
            Map<String, Function> java = functions(read(JAVA_DIR.resolve(twin.javaFile())), true);
            Map<String, Function> cl = functions(read(CL_DIR.resolve(twin.clFile())), false);
            List<String> declaredJava = new ArrayList<>(twin.javaOnly());
            List<String> declaredCl = new ArrayList<>(twin.clOnly());
            twin.pairs().forEach(p -> {
                declaredJava.add(p.java());
                declaredCl.add(p.c());
            });
            problems.addAll(compareNames(twin.javaFile(), java.keySet(), declaredJava));
            problems.addAll(compareNames(twin.clFile(), cl.keySet(), declaredCl));
        }
        assertEquals(List.of(), problems, "functions missing from TwinStructureTest.TWINS, or listed there and"
                + " gone: pair a new function with its twin (docs/twins.md) or declare it one-sided");
    }

    @Test
    void pairedFunctionsComeInTheSameOrder() throws IOException {
        List<String> problems = new ArrayList<>();
        for (Twin twin : TWINS) {
            List<String> java = new ArrayList<>(functions(read(JAVA_DIR.resolve(twin.javaFile())), true).keySet());
            List<String> cl = new ArrayList<>(functions(read(CL_DIR.resolve(twin.clFile())), false).keySet());
            List<String> javaOrder = new ArrayList<>();
            List<String> clOrder = new ArrayList<>();
            Map<String, String> twinOf = new HashMap<>();
            twin.pairs().forEach(p -> twinOf.put(p.java(), p.c()));
            java.stream().filter(twinOf::containsKey).forEach(n -> javaOrder.add(twinOf.get(n)));
            Set<String> paired = Set.copyOf(twinOf.values());
            cl.stream().filter(paired::contains).forEach(clOrder::add);
            if (!javaOrder.equals(clOrder)) {
                problems.add(twin.javaFile() + " and " + twin.clFile() + " pair their functions in different orders: "
                        + twin.javaFile() + " has " + javaOrder + ", " + twin.clFile() + " has " + clOrder);
            }
        }
        assertEquals(List.of(), problems);
    }

    @Test
    void pairedFunctionsHaveTheSameArithmetic() throws IOException {
        List<String> problems = new ArrayList<>();
        int compared = 0;
        for (Twin twin : TWINS) {
            problems.addAll(compareBodies(twin, read(JAVA_DIR.resolve(twin.javaFile())),
                    read(CL_DIR.resolve(twin.clFile()))));
            compared += twin.pairs().size();
        }
        assertTrue(compared >= 50, "only " + compared + " pairs compared");
        assertEquals(List.of(), problems, "twins that differ: change both sides alike (docs/twins.md)");
    }

    /** The check fails, naming the pair, for edits of the maths on one side: proof that it reads what it should. */
    @Test
    void aOneSidedEditOfTheMathsIsReported() throws IOException {
        Twin iterative = TWINS.get(1);
        String java = read(JAVA_DIR.resolve(iterative.javaFile()));
        String cl = read(CL_DIR.resolve(iterative.clFile()));
        assertEquals(List.of(), compareBodies(iterative, java, cl));

        // an operator changed in the kernel: (target - vn) becomes (target + vn)
        String flipped = replaceOnce(cl, "(row[ROW_TARGET * rows + r] - vn)", "(row[ROW_TARGET * rows + r] + vn)");
        List<String> problems = compareBodies(iterative, java, flipped);
        assertEquals(1, problems.size(), problems::toString);
        assertTrue(problems.get(0).startsWith("Iterative.java normalImpulse / iterative.cl normal_impulse differ"),
                problems.get(0));

        // two statements swapped in the Java: the pair's order of accumulation
        String dvy = "        float dvy = state[b + STATE_DVY] - state[a + STATE_DVY];\n";
        String dvz = "        float dvz = state[b + STATE_DVZ] - state[a + STATE_DVZ];\n";
        String linear = "        float linear = dvx * row[o + ROW_NX]";
        String swapped = replaceOnce(java, dvy + dvz + linear, dvz + dvy + linear);
        problems = compareBodies(iterative, swapped, cl);
        assertEquals(1, problems.size(), problems::toString);
        assertTrue(problems.get(0).startsWith("Iterative.java normalVelocity / iterative.cl normal_velocity differ"),
                problems.get(0));

        // a variable exchanged for another in the kernel, and a bracket moved in the Java
        problems = compareBodies(iterative, java, replaceOnce(cl, "old1 - vt1 / kt", "old1 - vt2 / kt"));
        assertEquals(1, problems.size(), problems::toString);
        assertTrue(problems.get(0).startsWith("Iterative.java stepTangents / iterative.cl step_tangents differ"),
                problems.get(0));
        problems = compareBodies(iterative, replaceOnce(java, "row[o + ROW_VN0] + ((linear + angularB) - angularA)",
                "(row[o + ROW_VN0] + (linear + angularB)) - angularA"), cl);
        assertEquals(1, problems.size(), problems::toString);
    }

    private static String replaceOnce(String text, String from, String to) {
        int at = text.indexOf(from);
        assertTrue(at >= 0 && text.indexOf(from, at + 1) < 0, "not found once: " + from);
        return text.substring(0, at) + to + text.substring(at + from.length());
    }

    private static String read(Path file) throws IOException {
        return Files.readString(file);
    }

    private static List<String> compareNames(String file, Set<String> found, List<String> declared) {
        List<String> problems = new ArrayList<>();
        for (String name : found) {
            if (!declared.contains(name)) {
                problems.add(file + ": " + name + " is neither paired nor declared one-sided");
            }
        }
        for (String name : declared) {
            if (!found.contains(name)) {
                problems.add(file + ": " + name + " is listed but not found");
            }
        }
        return problems;
    }

    private static List<String> compareBodies(Twin twin, String javaText, String clText) {
        Map<String, Function> java = functions(javaText, true);
        Map<String, Function> cl = functions(clText, false);
        // a call the Java makes unqualified is its own class's method: its own pairs and one-sided
        // functions come before another class's pair of the same name (SoftStep.store is soft_store,
        // SinglePass.store stays store); a call of another class's method (Integrator.turn) finds
        // that class's pair, as no class here calls another's method of a name its own class has
        Map<String, String> names = new HashMap<>();
        for (Twin t : TWINS) {
            for (Pair p : t.pairs()) {
                names.put(p.java().replaceAll("/\\d+$", ""), p.c());
            }
        }
        for (String alone : twin.javaOnly()) {
            names.remove(alone.replaceAll("/\\d+$", ""));
        }
        for (Pair p : twin.pairs()) {
            names.put(p.java().replaceAll("/\\d+$", ""), p.c());
        }
        List<String> problems = new ArrayList<>();
        for (Pair pair : twin.pairs()) {
            Function j = java.get(pair.java());
            Function c = cl.get(pair.c());
            if (j == null || c == null) {
                continue; // everyFunctionIsPairedOrDeclaredOneSided reports it
            }
            List<String> jf = new ArrayList<>(fingerprint(j, true, names));
            List<String> cf = new ArrayList<>(fingerprint(c, false, names));
            String title = twin.javaFile() + " " + j.name() + " / " + twin.clFile() + " " + c.name();
            for (Known known : pair.known()) {
                List<String> side = known.java() ? jf : cf;
                int at = indexOf(side, List.of(known.tokens().split(" ")));
                if (at < 0) {
                    problems.add(title + ": the known difference \"" + known.tokens() + "\" (" + known.why()
                            + ") is no longer in the " + (known.java() ? "Java" : "OpenCL C"));
                    continue;
                }
                int length = known.tokens().split(" ").length;
                if (known.tokens().startsWith("if (") && known.tokens().endsWith("{")) {
                    side.remove(matching(side, at + length - 1)); // a guard: its body stays
                }
                side.subList(at, at + length).clear();
            }
            if (!jf.equals(cf)) {
                problems.add(title + " differ " + firstDifference(jf, cf));
            }
        }
        return problems;
    }

    private static int indexOf(List<String> in, List<String> part) {
        for (int i = 0; i + part.size() <= in.size(); i++) {
            if (in.subList(i, i + part.size()).equals(part)) {
                return i;
            }
        }
        return -1;
    }

    /** Where two fingerprints part: the tokens before, then each side's next tokens. */
    private static String firstDifference(List<String> java, List<String> cl) {
        int i = 0;
        while (i < java.size() && i < cl.size() && java.get(i).equals(cl.get(i))) {
            i++;
        }
        int from = Math.max(0, i - 12);
        return "after \"" + String.join(" ", java.subList(from, i)) + "\": Java has \""
                + String.join(" ", java.subList(i, Math.min(java.size(), i + 12))) + "\", OpenCL C has \""
                + String.join(" ", cl.subList(i, Math.min(cl.size(), i + 12))) + "\"";
    }

    // ---- reading functions ------------------------------------------------------------------------

    /** A function: its name, the tokens of its parameters and body, and whether it is an OpenCL kernel. */
    record Function(String name, List<String> parameters, List<String> body, boolean kernel) {
    }

    private static final Pattern TOKEN = Pattern.compile("\\s+|//[^\\n]*|/\\*.*?\\*/|\"(?:\\\\.|[^\"\\\\])*\""
            + "|'(?:\\\\.|[^'\\\\])*'|[A-Za-z_]\\w*|\\d+\\.\\d*(?:[eE][-+]?\\d+)?[fFdD]?|\\.\\d+[fF]?|\\d+[fFlL]?"
            + "|\\+\\+|--|->|&&|\\|\\||[-+*/%&|^!=<>]=|<<|>>|\\S", Pattern.DOTALL);
    private static final Set<String> NOT_A_FUNCTION = Set.of("if", "for", "while", "switch", "return", "new",
            "catch", "synchronized");

    static List<String> tokens(String text) {
        List<String> tokens = new ArrayList<>();
        Matcher m = TOKEN.matcher(text);
        while (m.find()) {
            String t = m.group();
            if (!t.isBlank() && !t.startsWith("//") && !t.startsWith("/*")) {
                tokens.add(t);
            }
        }
        return tokens;
    }

    /**
     * The functions with bodies at the top level of a C file or of a Java class, in order, by name
     * (an overloaded Java method as name/arity); a Java class's constructors are left out.
     */
    static Map<String, Function> functions(String text, boolean java) {
        List<String> ts = tokens(text);
        List<Function> found = new ArrayList<>();
        int depth = 0;
        for (int i = 0; i < ts.size(); i++) {
            String t = ts.get(i);
            if (t.equals("{")) {
                depth++;
            } else if (t.equals("}")) {
                depth--;
            } else if (depth == (java ? 1 : 0) && isIdentifier(t) && i + 1 < ts.size() && ts.get(i + 1).equals("(")
                    && !NOT_A_FUNCTION.contains(t) && i > 0
                    && (isIdentifier(ts.get(i - 1)) || ts.get(i - 1).equals("*") || ts.get(i - 1).equals("]"))
                    && !ts.get(i - 1).equals("new") && !t.equals(className(text, java))) {
                int close = matching(ts, i + 1);
                int open = close + 1;
                while (open < ts.size() && !ts.get(open).equals("{") && !ts.get(open).equals(";")) {
                    open++;
                }
                if (open < ts.size() && ts.get(open).equals("{")) {
                    int end = matching(ts, open);
                    boolean kernel = !java && ts.subList(Math.max(0, i - 3), i).contains("__kernel");
                    found.add(new Function(t, ts.subList(i + 2, close), ts.subList(open + 1, end), kernel));
                    i = end;
                }
            }
        }
        Map<String, Integer> counts = new HashMap<>();
        found.forEach(f -> counts.merge(f.name(), 1, Integer::sum));
        Map<String, Function> byName = new LinkedHashMap<>();
        for (Function f : found) {
            String key = counts.get(f.name()) > 1 ? f.name() + "/" + split(f.parameters(), ",").size() : f.name();
            byName.put(key, f);
        }
        return byName;
    }

    /** The class a Java file declares (its constructors are no functions here), or "" for C. */
    private static String className(String text, boolean java) {
        Matcher m = Pattern.compile("\\bclass (\\w+)").matcher(text);
        return java && m.find() ? m.group(1) : "";
    }

    /** The index of the bracket closing the one at {@code open}. */
    private static int matching(List<String> ts, int open) {
        String o = ts.get(open);
        String c = o.equals("(") ? ")" : o.equals("[") ? "]" : "}";
        int depth = 0;
        for (int i = open; i < ts.size(); i++) {
            if (ts.get(i).equals(o)) {
                depth++;
            } else if (ts.get(i).equals(c) && --depth == 0) {
                return i;
            }
        }
        throw new IllegalStateException("unbalanced " + o);
    }

    private static boolean isIdentifier(String t) {
        return Character.isJavaIdentifierStart(t.charAt(0));
    }

    private static boolean isConstant(String t) {
        return t.matches("[A-Z][A-Z0-9_]*");
    }

    /** Splits at top-level occurrences of {@code separator}. */
    private static List<List<String>> split(List<String> ts, String separator) {
        List<List<String>> parts = new ArrayList<>();
        if (ts.isEmpty()) {
            return parts;
        }
        parts.add(new ArrayList<>());
        int depth = 0;
        for (String t : ts) {
            if (t.equals("(") || t.equals("[") || t.equals("{")) {
                depth++;
            } else if (t.equals(")") || t.equals("]") || t.equals("}")) {
                depth--;
            }
            if (t.equals(separator) && depth == 0) {
                parts.add(new ArrayList<>());
            } else {
                parts.get(parts.size() - 1).add(t);
            }
        }
        return parts;
    }

    // ---- the fingerprint --------------------------------------------------------------------------

    private static final Set<String> QUALIFIERS = Set.of("const", "__global", "__local", "__kernel", "final",
            "static", "private", "public", "inline");
    /** Types whose variables hold values the maths computes with. */
    private static final Set<String> VALUE_TYPES = Set.of("float", "double");
    private static final Set<String> TYPES = Set.of("float", "int", "boolean", "void", "FloatBuffer", "IntBuffer",
            "FieldBlock", "TargetRule", "SoftCoefficients", "soft_coefficients", "float[]", "int[]", "double",
            "double[]", "ManifoldCache", "MovableBodies", "Previous");
    private static final Map<String, String> MATH = Map.of("abs", "fabs", "sqrt", "sqrt", "copySign", "copysign",
            "max", "max", "min", "min");
    private static final Set<String> ACCESSORS = Set.of("get", "getFloat", "getInt", "put", "setFloat", "setVector");
    /** Calls whose value is only plumbing: a work-item's index. */
    private static final Set<String> PLUMBING_CALLS = Set.of("get_global_id", "get_local_id", "record");
    private static final Set<String> PLUMBING_OPERATORS = Set.of("#", "+", "-", "*", "/", "%", "(", ")", ",", "@", "?",
            ":", "<", ">", "<=", ">=", "==", "!=", "&&", "||", "!");

    /** The fingerprint of a function's body, as the class comment describes. */
    static List<String> fingerprint(Function f, boolean java, Map<String, String> names) {
        Map<String, Boolean> value = new HashMap<>();
        for (List<String> parameter : split(f.parameters(), ",")) {
            declare(parameter, value);
            List<String> type = parameter.stream().filter(t -> !QUALIFIERS.contains(t)).toList();
            if (type.size() == 2 && type.get(0).equals("IntBuffer")
                    || type.size() == 3 && type.get(0).equals("int") && (type.get(1).equals("*") || type.get(1).equals("[]"))
                    || type.size() == 4 && type.get(0).equals("int") && type.get(1).equals("[")) {
                value.put(type.get(type.size() - 1), null); // an int array: its elements are plumbing too
            }
        }
        List<String> ts = normalise(f.body(), java, names, value);
        return strip(ts, value, f.kernel());
    }

    /** Records a parameter or declaration ({@code qualifiers type name}): a value (float) or plumbing. */
    private static void declare(List<String> declaration, Map<String, Boolean> value) {
        List<String> ts = declaration.stream().filter(t -> !QUALIFIERS.contains(t)).toList();
        if (ts.size() >= 2) {
            value.put(ts.get(ts.size() - 1), ts.size() == 2 && VALUE_TYPES.contains(ts.get(0)));
        }
    }

    private static boolean isPlumbing(String name, Map<String, Boolean> value) {
        return value.containsKey(name) && !Boolean.TRUE.equals(value.get(name));
    }

    /** The first pass: accesses, accessors, qualified names, casts, constants and literals. */
    private static List<String> normalise(List<String> ts, boolean java, Map<String, String> names,
            Map<String, Boolean> value) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < ts.size(); i++) {
            String t = ts.get(i);
            String next = i + 1 < ts.size() ? ts.get(i + 1) : "";
            String after = i + 2 < ts.size() ? ts.get(i + 2) : "";
            if (t.equals("[")) {
                int close = matching(ts, i);
                String last = out.isEmpty() ? "" : out.get(out.size() - 1);
                if (close == i + 1 && (last.equals("float") || last.equals("int"))) {
                    out.set(out.size() - 1, last + "[]"); // an array type
                } else {
                    boolean ints = false;
                    String before = out.size() >= 2 ? out.get(out.size() - 2) : "";
                    if (before.equals("float") || before.equals("int")) {
                        out.add("[]"); // a local array's declaration: type name []
                        i = close;
                        continue;
                    }
                    if (!out.isEmpty() && isIdentifier(last) && !TYPES.contains(last)) {
                        ints = value.containsKey(last) && value.get(last) == null;
                        out.remove(out.size() - 1); // the array's name
                    }
                    out.add(ints ? "@" : "[]"); // an int array's element places values: plumbing
                }
                i = close;
            } else if (java && t.equals("(") && (next.equals("float") || next.equals("int")) && after.equals(")")) {
                i += 2; // a cast
            } else if (java && isIdentifier(t) && next.equals(".") && !after.isEmpty()) {
                if (t.equals("Math") && MATH.containsKey(after)) {
                    out.add(MATH.get(after));
                    i += 2;
                } else if (isConstant(after) && ts.subList(i + 3, Math.min(ts.size(), i + 6)).equals(
                        List.of(".", "ordinal", "("))) {
                    out.add("#");
                    i += 6;
                } else if (ACCESSORS.contains(after) && ts.get(i + 3).equals("(")) {
                    int close = matching(ts, i + 3);
                    List<List<String>> args = split(ts.subList(i + 4, close), ",");
                    if (after.startsWith("get")) {
                        out.add(value.containsKey(t) && value.get(t) == null ? "@" : "[]");
                    } else {
                        // put(at, v), setFloat(field, i, v), setVector(field, i, x, y, z): stores
                        // (an int buffer's element places values: plumbing, as its get)
                        int first = after.equals("put") ? 1 : 2;
                        for (int k = first; k < args.size(); k++) {
                            if (k > first) {
                                out.add(";");
                            }
                            out.add(value.containsKey(t) && value.get(t) == null ? "@" : "[]");
                            out.add("=");
                            out.addAll(normalise(args.get(k), java, names, value));
                        }
                    }
                    i = close;
                } else if (Character.isUpperCase(t.charAt(0))) {
                    i += 1; // Class.member: the member
                } else if (ts.subList(i + 3, Math.min(ts.size(), i + 5)).equals(List.of("(", ")"))) {
                    out.add(after); // obj.accessor()
                    i += 4;
                } else {
                    out.add(t);
                }
            } else if (isConstant(t) && next.equals(".") && after.equals("ordinal")) {
                out.add("#");
                i += 4;
            } else if (!java && isIdentifier(t) && next.equals(".") && isIdentifier(after)) {
                out.add(after); // struct.field
                i += 2;
            } else if (t.equals("true") || t.equals("false")) {
                out.add(t.equals("true") ? "1" : "0");
            } else if (isConstant(t)) {
                out.add("#");
            } else if (t.matches("\\d*\\.\\d*.*")) {
                out.add(t.replaceAll("[fF]$", ""));
            } else if (!java && t.equals("java_max")) {
                out.add("max");
            } else if (!java && t.equals("java_min_double")) {
                out.add("min");
            } else if (java && names.containsKey(t) && next.equals("(")) {
                out.add(names.get(t));
            } else {
                out.add(t);
            }
        }
        return out;
    }

    /** The second pass: declarations and plumbing. */
    private static List<String> strip(List<String> ts, Map<String, Boolean> value, boolean kernel) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < ts.size(); i++) {
            String t = ts.get(i);
            int j = i;
            while (j < ts.size() && QUALIFIERS.contains(ts.get(j))) {
                j++;
            }
            if (j + 1 < ts.size() && TYPES.contains(ts.get(j))) {
                int k = j + 1;
                boolean pointer = ts.get(k).equals("*");
                if (pointer) {
                    k++;
                }
                if (k + 1 < ts.size() && isIdentifier(ts.get(k)) && Set.of("=", ";", ":", "[]").contains(ts.get(k + 1))) {
                    String name = ts.get(k);
                    value.put(name, ts.get(j).equals("float") && !pointer && !ts.get(k + 1).equals("[]"));
                    if (!value.get(name)) {
                        int end = k + 1;
                        while (end < ts.size() && !ts.get(end).equals(";")) {
                            end++;
                        }
                        List<String> init = ts.get(k + 1).equals("=") ? ts.subList(k + 2, end) : List.of();
                        if (ts.get(k + 1).equals("[]") || init.isEmpty() || plumbing(init, value)
                                || !ts.get(j).equals("int") && !ts.get(j).equals("boolean")) {
                            i = end; // a declaration of plumbing: dropped with its ';'
                            continue;
                        }
                        out.add("@");
                        i = k;
                        continue;
                    }
                    out.add(name);
                    i = k;
                    continue;
                }
            }
            if (kernel && t.equals("if") && i + 1 < ts.size() && ts.get(i + 1).equals("(")) {
                int close = matching(ts, i + 1);
                List<String> condition = ts.subList(i + 2, close);
                if (close + 3 < ts.size() && ts.subList(close + 1, close + 5).equals(List.of("{", "return", ";", "}"))
                        && plumbing(condition, value)) {
                    i = close + 4; // a kernel's bounds check
                    continue;
                }
            }
            if (isIdentifier(t) && i + 1 < ts.size() && ts.get(i + 1).equals("(") && !NOT_A_FUNCTION.contains(t)) {
                int close = matching(ts, i + 1);
                List<String> kept = new ArrayList<>();
                for (List<String> argument : split(ts.subList(i + 2, close), ",")) {
                    if (!plumbing(argument, value)) {
                        if (!kept.isEmpty()) {
                            kept.add(",");
                        }
                        kept.addAll(strip(argument, value, false));
                    }
                }
                out.add(t);
                out.add("(");
                out.addAll(kept);
                out.add(")");
                i = close;
                continue;
            }
            out.add(isIdentifier(t) && isPlumbing(t, value) ? "@" : t);
        }
        return out;
    }

    /** Whether an expression only places values: plumbing names, constants, int literals, int arithmetic. */
    private static boolean plumbing(List<String> expression, Map<String, Boolean> value) {
        if (expression.isEmpty()) {
            return false;
        }
        for (int i = 0; i < expression.size(); i++) {
            String t = expression.get(i);
            if (PLUMBING_OPERATORS.contains(t) || t.matches("\\d+") || t.equals("null")) {
                continue;
            }
            if (PLUMBING_CALLS.contains(t)) {
                continue;
            }
            if (isIdentifier(t) && isPlumbing(t, value)) {
                continue;
            }
            return false;
        }
        return true;
    }

}
