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
        assertEquals(5_000, bench.bodies());
        for (double seconds : new double[] {bench.fillSeconds(), bench.readSeconds(), bench.iterationSeconds()}) {
            assertTrue(seconds > 0.0 && Double.isFinite(seconds), "a measured time: " + seconds);
        }
        assertEquals((bench.fillSeconds() + bench.readSeconds()) / bench.iterationSeconds(), bench.ratio());
        StringWriter text = new StringWriter();
        bench.table(new PrintWriter(text, true));
        assertTrue(text.toString().contains("   20000     5000 "), text.toString());
    }
}
