package io.contactsolver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

// the README's example imports the API so; in its own package it changes nothing
import io.contactsolver.*;
import io.contactsolver.layout.BodyField;
import io.contactsolver.scene.Scene;
import io.contactsolver.scene.SceneGenerator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.joml.Matrix3f;
import org.joml.Quaternionf;
import org.joml.Vector3f;
import org.junit.jupiter.api.Test;

/**
 * The Java examples of the documentation (README.md, CONTRIBUTING.md and the Markdown files under
 * docs/), verbatim apart from their set-up and the assertions: they must compile and be right. Each
 * {@code ```java} block of those files must appear in this file, every line in its order
 * (indentation aside; this file's set-up and assertions may come between), so an example changed in
 * a document and not here, or here and not there, fails.
 */
class ReadmeExampleTest {
    private static final String MD = "." + "md";
    private static final Path THIS_FILE = Path.of("tests/io/contactsolver/ReadmeExampleTest.java");

    @Test
    void everyJavaExampleOfTheDocumentationIsRunHere() throws IOException {
        List<String> here = normalised(Files.readAllLines(THIS_FILE));
        List<String> missing = new ArrayList<>();
        int examples = 0;
        for (Path document : documents()) {
            List<String> lines = Files.readAllLines(document);
            for (int i = 0; i < lines.size(); i++) {
                if (!lines.get(i).strip().equals("```java")) {
                    continue;
                }
                int start = i + 1;
                int end = start;
                while (end < lines.size() && !lines.get(end).strip().startsWith("```")) {
                    end++;
                }
                examples++;
                List<String> block = normalised(lines.subList(start, end));
                if (block.isEmpty() || !inOrder(block, here)) {
                    missing.add(document + ":" + (start + 1));
                }
                i = end;
            }
        }
        // the README's first solve, the iterative loop, step, and the soft step's simulation
        assertTrue(examples >= 4, "only " + examples + " Java examples found in the documentation");
        assertEquals(List.of(), missing, "Java examples of the documentation that this test does not run "
                + "verbatim (copy the block here, into the test that runs it)");
    }

    @Test
    void theReadmeGivesTheCommandsCiAndTheBuildUse() throws IOException {
        String readme = Files.readString(Path.of("README" + MD));
        assertTrue(readme.contains("\nmvn -q package -DskipTests && java -jar target/contact-solver.jar demo\n"),
                "the README's quick start builds and runs the demo");
        assertTrue(readme.contains("\nmvn -B test\n"), "the README states the test command");
        assertTrue(Files.readAllLines(Path.of(".ci/run")).contains("mvn -B test"), ".ci/run runs the README's test command");
    }

    /** README.md and CONTRIBUTING.md, then every Markdown file under docs/. */
    private static List<Path> documents() throws IOException {
        List<Path> documents = new ArrayList<>(List.of(Path.of("README" + MD), Path.of("CONTRIBUTING" + MD)));
        try (Stream<Path> walk = Files.walk(Path.of("docs"))) {
            walk.filter(path -> path.toString().endsWith(MD)).sorted().forEach(documents::add);
        }
        return documents;
    }

    /** Whether every line of {@code block} is in {@code lines}, in the same order. */
    private static boolean inOrder(List<String> block, List<String> lines) {
        int next = 0;
        for (String line : lines) {
            if (next < block.size() && line.equals(block.get(next))) {
                next++;
            }
        }
        return next == block.size();
    }

    /** The lines without their indentation and trailing blanks, blank lines dropped. */
    private static List<String> normalised(List<String> lines) {
        return lines.stream().map(String::strip).filter(line -> !line.isEmpty()).collect(Collectors.toList());
    }

    @Test
    void theReadmeExampleGivesTheValuesItsCommentsState() {
        try (ContactSolver solver = ContactSolver.create()) {      // AUTO: GPU, else accelerator, else CPU
            BodyBatch bodies = new BodyBatch();
            int rod = bodies.add();                                 // a rod of mass 3, length 2, along y
            bodies.setMass(rod, 3f).setInverseInertia(rod, 1f, 0f, 1f, 0f, 0f, 0f);
            int ball = bodies.add();                                // a point mass of 0.5 moving along -x
            bodies.setParticle(ball, 0.5f).setPosition(ball, 0f, 1f, 0f).setLinearVelocity(ball, -4f, 0f, 0f);

            ContactBatch contacts = new ContactBatch();             // the ball strikes the rod's top end
            contacts.add(rod, ball, new Vector3f(0f, 1f, 0f), new Vector3f(1f, 0f, 0f), 0.5f);

            SolveResult result = solver.solve(bodies, contacts, new SolveResult());
            float j = result.impulse(0);                                    // 1.8
            Vector3f ballDv = result.getLinearDelta(ball, new Vector3f());  // (3.6, 0, 0)
            Vector3f rodDw = result.getAngularDelta(rod, new Vector3f());   // (0, 0, 1.8)

            assertEquals(1.8f, j, 1e-6f);
            assertEquals(3.6f, ballDv.x, 1e-6f);
            assertEquals(0f, ballDv.y);
            assertEquals(1.8f, rodDw.z, 1e-6f);

            contacts.setFriction(0, 0.5f).setRollingResistance(0, 0.01f);  // per contact; 0 is frictionless
            solver.solve(bodies, contacts, result);
            Vector3f friction = result.getTangentImpulse(0, new Vector3f()); // (0, 0, 0): the strike is head-on
            Vector3f rolling = result.getRollingImpulse(0, new Vector3f());  // (0, 0, 0): iterative solver only

            assertEquals(1.8f, result.impulse(0), 1e-6f);
            assertEquals(0f, friction.length(), 1e-6f);
            assertEquals(new Vector3f(), rolling);
        }
    }

    @Test
    void theReadmeWarmStartLoopConvergesAndNeedsFewerIterationsOnceWarm() {
        Scene stack = SceneGenerator.boxStack(3, 0.0f, 5);
        BodyBatch bodies = stack.bodies();
        ContactBatch contacts = stack.contacts();
        int steps = 4;
        List<Integer> iterationsPerStep = new ArrayList<>();
        try (ContactSolver solver = ContactSolver.create(SolverConfig.defaults().withBackend(Backend.CPU))) {
            IterativeSettings settings = SolveSettings.iterative(50).withTolerance(1e-5f);
            SolveHistory history = new SolveHistory();   // keeps the last result: each solve starts warm from it
            for (int step = 0; step < steps; step++) {
                // ... your collision detection fills `contacts`, giving persistent contacts stable ids (ContactIds)
                SolveResult result = solver.solve(bodies, contacts, settings, history); // impulses matched by id
                // result.iterations(), result.residual(): how the solve ended
                iterationsPerStep.add(result.iterations());
            }

            SolveResult last = history.latest().orElseThrow();
            assertNotNull(last);
            assertTrue(last.residual() <= 1e-5f, "converged: residual " + last.residual());
            int cold = iterationsPerStep.get(0), warm = iterationsPerStep.get(steps - 1);
            assertTrue(cold > 2 && warm < cold, "iterations per step " + iterationsPerStep);
        }
    }

    @Test
    void theReadmeSimulationStandsItsColumnOfFiveBoxes() {
        try (ContactSolver solver = ContactSolver.create()) {
            BodyBatch bodies = new BodyBatch();
            for (int level = 0; level < 5; level++) {               // unit boxes, one on another
                int box = bodies.add();
                bodies.setMassProperties(box, 1f, new Matrix3f().scaling(1f / 6f)).setPosition(box, 0f, 0.5f + level, 0f);
            }
            ContactBatch contacts = new ContactBatch();
            ContactIds ids = new ContactIds();           // (bodies, corner) -> an id that lasts as long as the contact
            SolveHistory history = new SolveHistory();   // the last result, which each step starts warm from
            SoftStepSettings soft = SolveSettings.softStep(); // 4 substeps, 30 Hz at 60 Hz, contacts recycled
            Vector3f gravity = new Vector3f(0f, -10f, 0f), up = new Vector3f(0f, 1f, 0f);
            float[] y = new float[bodies.size()];
            Quaternionf turn = new Quaternionf();
            for (int frame = 0; frame < 600; frame++) {
                bodies.get(BodyField.Y, y);                          // heights in bulk
                contacts.clear();
                ids.beginStep();
                for (int box = 0; box < y.length; box++) {           // your collision detection
                    int below = box == 0 ? ContactBatch.WORLD : box - 1;
                    float floor = box == 0 ? 0f : y[below] + 0.5f;    // the top face of what is below
                    bodies.getOrientation(box, turn);
                    for (int corner = 0; corner < 4; corner++) {     // the bottom corners, where they are now
                        Vector3f point = turn.transform(new Vector3f((corner & 1) - 0.5f, -0.5f, (corner >> 1) - 0.5f))
                                .add(bodies.getPosition(box, new Vector3f()));
                        float separation = point.y - floor;          // negative = overlap
                        point.y = floor;
                        int c = contacts.add(below, box, point, up, 0f, separation, 0.6f, 0f,
                                ids.idOf(ContactIds.key(below, box, corner)));
                        contacts.setManifold(c, box);                // a face's points: one manifold
                    }
                }
                ids.endStep();
                solver.step(bodies, contacts, soft, gravity, 1 / 60f, history);
            }
            float top = bodies.getPosition(4, new Vector3f()).y;    // 4.494: 6 mm of spring under five layers

            Vector3f position = new Vector3f();
            for (int box = 0; box < 5; box++) {
                bodies.getPosition(box, position);
                assertEquals(0f, position.x, 1e-3f, "sideways drift of box " + box);
                assertEquals(0f, position.z, 1e-3f, "sideways drift of box " + box);
                assertTrue(bodies.getLinearVelocity(box, new Vector3f()).length() < 1e-3f, "box " + box + " at rest");
                assertTrue(bodies.getAngularVelocity(box, new Vector3f()).length() < 1e-3f, "box " + box + " at rest");
            }
            // each interface a spring of 4 points carrying the weight above: it gives F K / omega^2 a point
            // (docs/physics.md, "Stiffness and stability"): K = 8 between boxes at 30 Hz, K = 4 on the ground at 60 Hz
            double betweenBoxes = Math.pow(2.0 * Math.PI * 30.0, 2.0);
            double onGround = Math.pow(2.0 * Math.PI * 60.0, 2.0);
            double sink = (50.0 / 4.0) * 4.0 / onGround;
            for (int above = 4; above >= 1; above--) {
                sink += (10.0 * above / 4.0) * 8.0 / betweenBoxes;
            }
            assertEquals(4.5 - sink, top, 1e-4, "the top box rests where the springs hold the weight above each");
            assertEquals(4.494f, top, 0.0005f, "the comment's figure");
        }
    }

    @Test
    void theReadmeStepCallStopsAFallingBoxOnTheWorldAndMovesIt() {
        Scene stack = SceneGenerator.boxStack(1, 0.0f, 5);
        BodyBatch bodies = stack.bodies();
        ContactBatch contacts = stack.contacts();
        SolveSettings settings = SolveSettings.iterative(100);
        float dt = 0.01f;
        SolveHistory history = new SolveHistory();
        Vector3f before = bodies.getPosition(0, new Vector3f());
        try (ContactSolver solver = ContactSolver.create(SolverConfig.defaults().withBackend(Backend.CPU))) {
            SolveResult result = solver.step(bodies, contacts, settings, new Vector3f(0, -9.81f, 0), dt, history);
            assertEquals(4, result.contactCount());
        }
        // e = 0: the four corner contacts leave the box at rest along the normal, and it moves by v dt
        Vector3f velocity = bodies.getLinearVelocity(0, new Vector3f());
        Vector3f after = bodies.getPosition(0, new Vector3f());
        assertEquals(0.0f, velocity.y, 1e-4f);
        assertEquals(before.x + velocity.x * dt, after.x, 1e-6f);
        assertEquals(before.y + velocity.y * dt, after.y, 1e-6f);
    }
}
