package io.contactsolver.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.contactsolver.BodyBatch;
import io.contactsolver.layout.ContactBody;
import io.contactsolver.scene.Scene;
import io.contactsolver.scene.SceneGenerator;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class BodyContactIndexTest {

    /** The lists a plain loop would build: each movable body's sides in contact order. */
    private static List<List<Integer>> expectedLists(Scene scene) {
        List<List<Integer>> lists = new ArrayList<>();
        for (int i = 0; i < scene.bodies().size(); i++) {
            lists.add(new ArrayList<>());
        }
        for (int c = 0; c < scene.contacts().size(); c++) {
            for (ContactBody side : ContactBody.values()) {
                int body = scene.contacts().body(side, c);
                if (body >= 0 && !scene.bodies().isStatic(body)) {
                    lists.get(body).add(BodyContactIndex.entry(c, side));
                }
            }
        }
        return lists;
    }

    private static MovableBodies classify(Scene scene) {
        MovableBodies movable = new MovableBodies();
        try (ParallelRunner runner = new ParallelRunner(2)) {
            movable.classify(blockOf(scene.bodies()), scene.bodies().size(), runner);
        }
        return movable;
    }

    private static BodyContactIndex build(Scene scene, int threads) {
        FieldBlock links = new FieldBlock(ContactBody.COUNT, scene.contacts().size());
        for (int c = 0; c < scene.contacts().size(); c++) {
            for (ContactBody side : ContactBody.values()) {
                links.setInt(side.ordinal(), c, scene.contacts().body(side, c));
            }
        }
        BodyContactIndex index = new BodyContactIndex();
        try (ParallelRunner runner = new ParallelRunner(threads)) {
            index.build(classify(scene), links, scene.contacts().size(), runner);
        }
        return index;
    }

    private static FieldBlock blockOf(BodyBatch batch) {
        FieldBlock block = new FieldBlock(io.contactsolver.layout.BodyField.COUNT, batch.capacity());
        for (io.contactsolver.layout.BodyField field : io.contactsolver.layout.BodyField.values()) {
            for (int i = 0; i < batch.size(); i++) {
                block.setFloat(field.ordinal(), i, batch.get(field, i));
            }
        }
        return block;
    }

    @Test
    void listsEveryMovableBodysSidesInContactOrderAndSkipsStaticBodiesAndTheWorld() {
        Scene scene = SceneGenerator.randomGraph(12, 5000, 30_000);
        List<List<Integer>> expected = expectedLists(scene);
        BodyContactIndex index = build(scene, 3);
        MovableBodies movable = classify(scene);
        assertEquals(0, index.offsets()[0]);
        for (int i = 0; i < scene.bodies().size(); i++) {
            int[] actual = Arrays.copyOfRange(index.entries(), index.offsets()[i], index.offsets()[i + 1]);
            assertArrayEquals(expected.get(i).stream().mapToInt(Integer::intValue).toArray(), actual, "body " + i);
            assertEquals(!scene.bodies().isStatic(i), movable.isMovable(i));
        }
    }

    @Test
    void theIndexIsTheSameForEveryThreadCount() {
        Scene scene = SceneGenerator.randomGraph(13, 20_000, 90_000);
        BodyContactIndex single = build(scene, 1);
        for (int threads : new int[] {2, 5, 16}) {
            BodyContactIndex parallel = build(scene, threads);
            assertArrayEquals(Arrays.copyOf(single.offsets(), 20_001), Arrays.copyOf(parallel.offsets(), 20_001));
            assertArrayEquals(Arrays.copyOf(single.entries(), single.entryCount()),
                    Arrays.copyOf(parallel.entries(), parallel.entryCount()), threads + " threads");
        }
    }

    @Test
    void entriesEncodeContactAndSide() {
        assertEquals(14, BodyContactIndex.entry(7, ContactBody.A));
        assertEquals(15, BodyContactIndex.entry(7, ContactBody.B));
        assertEquals(7, BodyContactIndex.contactOf(15));
    }
}
