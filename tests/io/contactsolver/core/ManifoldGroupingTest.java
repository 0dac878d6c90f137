package io.contactsolver.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.contactsolver.layout.ContactBody;
import io.contactsolver.layout.ContactField;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The manifolds of a batch: each one's first contact and the most points of one, laid in chunks on
 * any number of threads as one thread lays them; each manifold's pair; and the versions that tell
 * the soft step's colouring and recycling whether the firsts or the pairs are the last build's.
 */
class ManifoldGroupingTest {

    /** Runs of 1 to 4 contacts (numbered, or alone), {@code count} contacts, each run joining one body pair. */
    private static int[] numbers(int count, long seed) {
        Random random = new Random(seed);
        int[] numbers = new int[count];
        int number = 0;
        for (int c = 0; c < count; ) {
            int run = 1 + random.nextInt(ManifoldGrouping.MAX_POINTS);
            boolean alone = run == 1 && random.nextBoolean();
            for (int k = 0; k < run && c < count; k++) {
                numbers[c++] = alone ? ManifoldGrouping.NONE : number;
            }
            number++;
        }
        return numbers;
    }

    /** Each run's contacts join bodies (m, m + 1) for the run's index m; every contact's other fields zero. */
    private static FieldBlock links(int[] numbers) {
        FieldBlock links = new FieldBlock(ContactBody.COUNT, numbers.length);
        int run = -1;
        for (int c = 0; c < numbers.length; c++) {
            if (c == 0 || numbers[c] == ManifoldGrouping.NONE || numbers[c] != numbers[c - 1]) {
                run++;
            }
            links.setInt(ContactBody.A.ordinal(), c, run);
            links.setInt(ContactBody.B.ordinal(), c, run + 1);
        }
        return links;
    }

    /** The firsts one contact at a time, as the definition reads. */
    private static int[] serialFirsts(int[] numbers) {
        int[] firsts = new int[numbers.length + 1];
        int m = 0;
        for (int c = 0; c < numbers.length; c++) {
            if (c == 0 || numbers[c] == ManifoldGrouping.NONE || numbers[c] != numbers[c - 1]) {
                firsts[m++] = c;
            }
        }
        firsts[m] = numbers.length;
        return Arrays.copyOf(firsts, m + 1);
    }

    @Test
    void theFirstsAndTheLargestAreTheSerialOnesOnAnyNumberOfThreads() {
        // several chunks of 16,384 contacts, with runs across their borders; and a short last chunk
        for (int count : new int[] {1, 5, 16_384, 16_386, 70_001}) {
            int[] numbers = numbers(count, count);
            FieldBlock contacts = new FieldBlock(ContactField.COUNT, count);
            FieldBlock links = links(numbers);
            int[] expected = serialFirsts(numbers);
            int largest = 0;
            for (int m = 0; m + 1 < expected.length; m++) {
                largest = Math.max(largest, expected[m + 1] - expected[m]);
            }
            for (int threads : new int[] {1, 3}) {
                ManifoldGrouping grouping = new ManifoldGrouping();
                try (ParallelRunner runner = new ParallelRunner(threads)) {
                    grouping.build(numbers, contacts, links, count, runner);
                }
                assertEquals(expected.length - 1, grouping.count(), count + " contacts, " + threads + " threads");
                assertArrayEquals(expected, Arrays.copyOf(grouping.firsts(), grouping.count() + 1));
                assertEquals(largest, grouping.largest(), count + " contacts, " + threads + " threads: largest");
            }
        }
    }

    /** A run of four whose last point lies in the next chunk, and a run wholly in a last chunk of three. */
    @Test
    void aRunAcrossTwoChunksCountsWhole() {
        int count = 16_384 + 3;
        int[] numbers = new int[count];
        Arrays.fill(numbers, ManifoldGrouping.NONE);
        for (int c = 16_381; c < 16_385; c++) {
            numbers[c] = 1;
        }
        ManifoldGrouping grouping = new ManifoldGrouping();
        try (ParallelRunner runner = new ParallelRunner(2)) {
            grouping.build(numbers, new FieldBlock(ContactField.COUNT, count), links(numbers), count, runner);
        }
        assertEquals(4, grouping.largest());
        assertEquals(count - 3, grouping.count());
    }

    @Test
    void theVersionsMoveOnlyWhenTheFirstsOrThePairsChange() {
        int count = 40_000;
        int[] numbers = numbers(count, 7);
        FieldBlock contacts = new FieldBlock(ContactField.COUNT, count);
        FieldBlock links = links(numbers);
        ManifoldGrouping grouping = new ManifoldGrouping();
        try (ParallelRunner runner = new ParallelRunner(2)) {
            grouping.build(numbers, contacts, links, count, runner);
            assertThrows(IllegalStateException.class, grouping::pairA, "the pairs are laid on request");
            grouping.layPairs(links, runner);
            long firsts = grouping.firstsVersion();
            long pairs = grouping.pairsVersion();

            grouping.build(numbers, contacts, links, count, runner);
            grouping.layPairs(links, runner);
            assertEquals(firsts, grouping.firstsVersion(), "the same batch: the same firsts");
            assertEquals(pairs, grouping.pairsVersion(), "the same batch: the same pairs");

            // a manifold of one point joins another body: the pairs change, the firsts do not
            int single = 100;
            while (grouping.firsts()[single + 1] - grouping.firsts()[single] != 1) {
                single++;
            }
            links.setInt(ContactBody.B.ordinal(), grouping.firsts()[single], 999_999);
            grouping.build(numbers, contacts, links, count, runner);
            grouping.layPairs(links, runner);
            assertEquals(firsts, grouping.firstsVersion());
            assertNotEquals(pairs, grouping.pairsVersion(), "a pair changed");
            assertEquals(999_999, grouping.pairB()[single]);
            pairs = grouping.pairsVersion();

            // a manifold of two split in two manifolds of one (the pairs shift from there on)
            int split = 0;
            while (grouping.firsts()[split + 1] - grouping.firsts()[split] != 2) {
                split++;
            }
            numbers[grouping.firsts()[split] + 1] = ManifoldGrouping.NONE;
            grouping.build(numbers, contacts, links, count, runner);
            grouping.layPairs(links, runner);
            assertNotEquals(firsts, grouping.firstsVersion(), "a manifold split");
            assertNotEquals(pairs, grouping.pairsVersion(), "a manifold more: the count changed");
        }
    }

    /**
     * Noted numbers ({@code noteNumbers}) keep their version while they do not change, and a build of
     * them right after keeps the firsts it laid before; a build without a note, or after numbers
     * that changed, lays them anew: the firsts are always the serial ones.
     */
    @Test
    void notedNumbersKeepTheirFirstsAndChangedOnesAreLaidAnew() {
        int count = 20_000;
        int[] numbers = numbers(count, 11);
        FieldBlock contacts = new FieldBlock(ContactField.COUNT, count);
        FieldBlock links = links(numbers);
        ManifoldGrouping grouping = new ManifoldGrouping();
        try (ParallelRunner runner = new ParallelRunner(2)) {
            long version = grouping.noteNumbers(numbers, count, true, runner);
            grouping.build(numbers, contacts, links, count, runner);
            assertFirsts(numbers, grouping, "first build");
            assertEquals(version, grouping.noteNumbers(numbers, count, true, runner),
                    "the same numbers: the same version");
            grouping.build(numbers, contacts, links, count, runner);
            assertFirsts(numbers, grouping, "noted again");

            // a run of two split, in place, and built without a note: laid anew
            int c = 0;
            while (!(numbers[c] != ManifoldGrouping.NONE && c + 1 < count && numbers[c + 1] == numbers[c]
                    && (c == 0 || numbers[c - 1] != numbers[c]) && (c + 2 >= count || numbers[c + 2] != numbers[c]))) {
                c++;
            }
            numbers[c + 1] = ManifoldGrouping.NONE;
            FieldBlock splitLinks = links(numbers);
            grouping.build(numbers, contacts, splitLinks, count, runner);
            assertFirsts(numbers, grouping, "built without a note");
            long split = grouping.noteNumbers(numbers, count, true, runner);
            assertNotEquals(version, split, "other numbers: another version");
            grouping.build(numbers, contacts, splitLinks, count, runner);
            assertFirsts(numbers, grouping, "noted after the split");

            // a note dropped unused (the batch was refused before it was grouped), the numbers changed in place
            grouping.noteNumbers(numbers, count, true, runner);
            grouping.forgetNote();
            numbers[c + 1] = numbers[c];
            grouping.build(numbers, contacts, links(numbers), count, runner);
            assertFirsts(numbers, grouping, "after a note dropped unused");

            // a note used up by a build that fails: the next build, without one, lays the firsts

            int[] tooLong = numbers.clone();
            Arrays.fill(tooLong, 0, 5, 77);
            grouping.noteNumbers(tooLong, count, true, runner);
            assertThrows(InputFault.class, () -> grouping.build(tooLong, contacts, links(tooLong), count, runner));
            tooLong[4] = ManifoldGrouping.NONE;
            grouping.build(tooLong, contacts, links(tooLong), count, runner);
            assertFirsts(tooLong, grouping, "after a failed build");
        }
    }

    /** Every contact its own manifold (particles): the pairs are the links as they are, and their version moves with them. */
    @Test
    void contactsAloneHaveTheirLinksAsPairs() {
        int count = 40_000;
        int[] numbers = new int[count];
        Arrays.fill(numbers, ManifoldGrouping.NONE);
        FieldBlock contacts = new FieldBlock(ContactField.COUNT, count);
        FieldBlock links = links(numbers);
        ManifoldGrouping grouping = new ManifoldGrouping();
        try (ParallelRunner runner = new ParallelRunner(2)) {
            grouping.build(numbers, contacts, links, count, runner);
            grouping.layPairs(links, runner);
            long version = grouping.pairsVersion();
            for (int c = 0; c < count; c += 997) {
                assertEquals(links.getInt(ContactBody.A.ordinal(), c), grouping.pairA()[c]);
                assertEquals(links.getInt(ContactBody.B.ordinal(), c), grouping.pairB()[c]);
            }
            grouping.build(numbers, contacts, links, count, runner);
            grouping.layPairs(links, runner);
            assertEquals(version, grouping.pairsVersion(), "the same links");

            links.setInt(ContactBody.A.ordinal(), 33_333, -1);
            grouping.build(numbers, contacts, links, count, runner);
            grouping.layPairs(links, runner);
            assertNotEquals(version, grouping.pairsVersion(), "a link changed");
            assertEquals(-1, grouping.pairA()[33_333]);
        }
    }

    /**
     * Links not written since the pairs were laid from them (the same block, its body columns'
     * stamps unmoved) are not read again: a write that bypasses the stamping setters is not seen
     * until the columns are stamped, and a stamped write is seen at once.
     */
    @Test
    void linksUnwrittenSinceThePairsWereLaidAreNotReadAgain() {
        int[] numbers = numbers(10_000, 5);
        FieldBlock contacts = new FieldBlock(ContactField.COUNT, numbers.length);
        FieldBlock links = links(numbers);
        ManifoldGrouping grouping = new ManifoldGrouping();
        try (ParallelRunner runner = new ParallelRunner(2)) {
            relay(grouping, numbers, contacts, links, runner);
            int m = 1_234; // a manifold of one point, whose bodies may change alone
            while (grouping.firsts()[m + 1] - grouping.firsts()[m] != 1) {
                m++;
            }
            int c = grouping.firsts()[m];
            int before = grouping.pairB()[m];

            links.ints().put(ContactBody.B.ordinal() * links.stride() + c, 777_777); // no stamp
            relay(grouping, numbers, contacts, links, runner);
            assertEquals(before, grouping.pairB()[m], "unstamped: the links were not read again");

            links.stampWritten(ContactBody.COUNT);
            relay(grouping, numbers, contacts, links, runner);
            assertEquals(777_777, grouping.pairB()[m], "stamped: read again");

            FieldBlock copy = links(numbers); // the same values in another block: read, the same pairs
            copy.setInt(ContactBody.B.ordinal(), c, 777_777);
            long version = grouping.pairsVersion();
            relay(grouping, numbers, contacts, copy, runner);
            assertEquals(version, grouping.pairsVersion(), "another block with the same links");
            copy.setInt(ContactBody.A.ordinal(), c, 555_555);
            relay(grouping, numbers, contacts, copy, runner);
            assertEquals(555_555, grouping.pairA()[m], "a stamped write to it");
        }
    }

    /** The grouping built anew from {@code numbers}, its pairs laid from {@code links}. */
    private static void relay(ManifoldGrouping grouping, int[] numbers, FieldBlock contacts, FieldBlock links,
            ParallelRunner runner) {
        grouping.build(numbers, contacts, links, numbers.length, runner);
        grouping.layPairs(links, runner);
    }

    /** Numbers known to be all alone are not read, and keep their version; the same numbers read move it once. */
    @Test
    void numbersKnownAloneAreNotRead() {
        int count = 30_000;
        int[] alone = new int[count];
        Arrays.fill(alone, ManifoldGrouping.NONE);
        FieldBlock contacts = new FieldBlock(ContactField.COUNT, count);
        FieldBlock links = links(alone);
        ManifoldGrouping grouping = new ManifoldGrouping();
        try (ParallelRunner runner = new ParallelRunner(2)) {
            long version = grouping.noteNumbers(alone, count, false, runner);
            grouping.build(alone, contacts, links, count, runner);
            assertFirsts(alone, grouping, "alone");
            assertEquals(version, grouping.noteNumbers(alone, count, false, runner), "alone again");
            grouping.build(alone, contacts, links, count, runner);
            assertFirsts(alone, grouping, "alone again");
            long read = grouping.noteNumbers(alone, count, true, runner);
            assertNotEquals(version, read, "read: compared with nothing kept");
            assertEquals(read, grouping.noteNumbers(alone, count, true, runner), "read again");
            assertNotEquals(read, grouping.noteNumbers(alone, count - 1, false, runner), "fewer, alone");
            grouping.build(alone, contacts, links, count - 1, runner);
            assertFirsts(Arrays.copyOf(alone, count - 1), grouping, "fewer");
        }
    }

    private static void assertFirsts(int[] numbers, ManifoldGrouping grouping, String what) {
        int[] expected = serialFirsts(numbers);
        assertEquals(expected.length - 1, grouping.count(), what);
        assertArrayEquals(expected, Arrays.copyOf(grouping.firsts(), grouping.count() + 1), what);
    }
}
