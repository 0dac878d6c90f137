package io.contactsolver.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/** The bulk section measures three things and prints them with their ratio; its speed is bench's to show. */
class BulkIoBenchTest {
    @Test
    void aSmallStepIsMeasuredAndReported() {
        BulkIoBench bench = BulkIoBench.run(20_000, 1, 3, 3);
        assertEquals(5_000, bench.bodies(), "a body for every 4 contacts");
        for (double seconds : new double[] {bench.fillSeconds(), bench.readSeconds(), bench.iterationSeconds()}) {
            assertTrue(seconds > 0.0 && Double.isFinite(seconds), "a measured time: " + seconds);
        }
        StringWriter text = new StringWriter();
        bench.table(new PrintWriter(text, true));
        assertTrue(text.toString().contains("   20000     5000 "), text.toString());
    }

    /** The ratio and the table's row, on times chosen here and worked out by hand. */
    @Test
    void theRatioIsFillAndReadOverOneIteration() {
        // fill 0.3 ms and read 0.2 ms, 0.5 ms together, against an iteration of 4 ms: 0.5 / 4 = 0.125
        BulkIoBench bench = new BulkIoBench(20_000, 5_000, 2, 0.3e-3, 0.2e-3, 4e-3);
        assertEquals(0.125, bench.ratio(), 1e-12);
        StringWriter text = new StringWriter();
        bench.table(new PrintWriter(text, true));
        // milliseconds to 3 decimals, the ratio with its x, beside the target of 0.1
        assertTrue(text.toString().contains("    20000     5000     0.300     0.200         4.000       0.125x  <= 0.1"),
                text.toString());
        assertTrue(text.toString().contains("CPU, 2 thread(s)"), text.toString());
    }
}
