package io.contactsolver.demo;

import java.util.Arrays;

/**
 * A heap's angle of repose, measured from the spheres' positions: a straight line fitted to the
 * heap's surface height against the distance from its axis, over the flank.
 *
 * <p>How: the heap's axis is the vertical through the mean horizontal position of all spheres (a
 * poured heap can settle a little off the inlet's axis, and a few spheres that rolled away barely
 * move the mean). The floor around the axis is cut into rings one largest diameter wide, and each ring into
 * {@link #SECTORS} equal sectors. A sector's surface height is the top of its highest sphere
 * ({@code y + r}); a ring's is the median over its non-empty sectors, so one sphere perched high,
 * or a heap a little off its axis, does not lift the profile. The flank is the rings beyond the
 * highest one whose height lies between {@link #FLANK_LOW} and {@link #FLANK_HIGH} of the way from
 * the floor layer (one largest diameter, the top of a single layer of spheres) to the peak: that
 * leaves out the rounded top and the toe, where spheres that rolled off lie one or two deep. A
 * least-squares line through the flank rings' (distance, height) gives the slope; the angle is
 * {@code atan(-slope)}. A heap lower than {@link #MIN_LAYERS} layers has no flank to speak of: it
 * is reported as spread flat, the line then fitted over every ring, which gives an angle near 0.
 * Double arithmetic in a fixed order: the same positions give the same bits.
 *
 * @param degrees the angle of repose, degrees
 * @param slope height change per metre outwards along the fitted line (negative on a heap)
 * @param intercept the fitted line's height at the axis, m
 * @param innerRadius the fitted rings' nearest distance from the axis (ring centre), m
 * @param outerRadius the fitted rings' farthest distance from the axis (ring centre), m
 * @param rings the number of rings fitted
 * @param peakHeight the highest ring's surface height, m
 * @param flat whether the spheres lie too low for a flank (the line then covers every ring)
 * @param axisX the heap's axis, x, m
 * @param axisZ the heap's axis, z, m
 */
public record HeapSlope(double degrees, double slope, double intercept, double innerRadius, double outerRadius,
        int rings, double peakHeight, boolean flat, double axisX, double axisZ) {
    /** Sectors per ring. */
    static final int SECTORS = 8;
    /** The flank: heights from this share of the way from the floor layer to the peak... */
    static final double FLANK_LOW = 0.2;
    /** ...up to this share. */
    static final double FLANK_HIGH = 0.8;
    /**
     * A heap needs to stand this many largest diameters above the floor layer to have a flank: a
     * single layer with spheres perched on it here and there does not.
     */
    static final double MIN_LAYERS = 1.5;

    /** Measures the heap that {@code world}'s spheres form. */
    static HeapSlope measure(ParticleWorld world) {
        if (world.count == 0) {
            throw new IllegalArgumentException("no spheres to measure");
        }
        double sumX = 0.0;
        double sumZ = 0.0;
        for (int i = 0; i < world.count; i++) {
            sumX += world.x[i];
            sumZ += world.z[i];
        }
        double axisX = sumX / world.count;
        double axisZ = sumZ / world.count;
        double ringWidth = 2.0 * world.largestRadius();
        double[] distance = new double[world.count];
        int ringCount = 0;
        for (int i = 0; i < world.count; i++) {
            double dx = world.x[i] - axisX;
            double dz = world.z[i] - axisZ;
            distance[i] = Math.sqrt(dx * dx + dz * dz);
            ringCount = Math.max(ringCount, (int) (distance[i] / ringWidth) + 1);
        }
        // the top of the highest sphere in each sector of each ring, NaN where a sector is empty
        double[] top = new double[ringCount * SECTORS];
        Arrays.fill(top, Double.NaN);
        for (int i = 0; i < world.count; i++) {
            int ring = (int) (distance[i] / ringWidth);
            double angle = Math.atan2(world.z[i] - axisZ, world.x[i] - axisX) + Math.PI; // 0 .. 2 pi
            int sector = Math.min(SECTORS - 1, (int) (angle / (2.0 * Math.PI) * SECTORS));
            int at = ring * SECTORS + sector;
            double sphereTop = (double) world.y[i] + world.radius[i];
            if (!(top[at] >= sphereTop)) { // NaN compares false: the first sphere of a sector sets it
                top[at] = sphereTop;
            }
        }
        double[] height = new double[ringCount];
        int peakRing = -1;
        for (int ring = 0; ring < ringCount; ring++) {
            height[ring] = medianOfSectors(top, ring);
            if (!Double.isNaN(height[ring]) && (peakRing < 0 || height[ring] > height[peakRing])) {
                peakRing = ring;
            }
        }
        double peak = height[peakRing];
        double floorLayer = ringWidth;
        boolean flat = peak - floorLayer < MIN_LAYERS * ringWidth;
        double low = floorLayer + FLANK_LOW * (peak - floorLayer);
        double high = floorLayer + FLANK_HIGH * (peak - floorLayer);
        Fit fit = new Fit();
        for (int ring = peakRing; ring < ringCount && !flat; ring++) {
            double h = height[ring];
            if (!Double.isNaN(h) && h >= low && h <= high) {
                fit.add((ring + 0.5) * ringWidth, h);
            }
        }
        if (fit.count < 2) { // no heap, or a flank of one ring: the line through every ring
            flat = true;
            fit = new Fit();
            for (int ring = 0; ring < ringCount; ring++) {
                if (!Double.isNaN(height[ring])) {
                    fit.add((ring + 0.5) * ringWidth, height[ring]);
                }
            }
        }
        double slope = fit.slope();
        // a surface rising outward (a bowl) has no angle of repose: 0, and + 0.0 turns -0.0 into 0.0
        double degrees = Math.max(0.0, Math.toDegrees(Math.atan(-slope))) + 0.0;
        flat = flat || degrees == 0.0;
        return new HeapSlope(degrees, slope, fit.intercept(slope), fit.minX, fit.maxX, fit.count, peak, flat, axisX,
                axisZ);
    }

    /** The fitted line's height at {@code radius} from the axis, m. */
    public double heightAt(double radius) {
        return intercept + slope * radius;
    }

    /** The median of a ring's non-empty sectors (the mean of the middle two for an even count), or NaN. */
    private static double medianOfSectors(double[] top, int ring) {
        double[] heights = new double[SECTORS];
        int n = 0;
        for (int s = 0; s < SECTORS; s++) {
            double h = top[ring * SECTORS + s];
            if (!Double.isNaN(h)) {
                heights[n++] = h;
            }
        }
        if (n == 0) {
            return Double.NaN;
        }
        Arrays.sort(heights, 0, n);
        return n % 2 == 1 ? heights[n / 2] : 0.5 * (heights[n / 2 - 1] + heights[n / 2]);
    }

    /** A least-squares line through points added in order, by running sums. */
    private static final class Fit {
        int count;
        double sumX;
        double sumY;
        double sumXX;
        double sumXY;
        double minX = Double.NaN;
        double maxX = Double.NaN;

        void add(double x, double y) {
            if (count == 0) {
                minX = x;
            }
            maxX = x;
            count++;
            sumX += x;
            sumY += y;
            sumXX += x * x;
            sumXY += x * y;
        }

        /** The slope; 0 for fewer than two points. */
        double slope() {
            double spread = count * sumXX - sumX * sumX;
            return count < 2 || spread <= 0.0 ? 0.0 : (count * sumXY - sumX * sumY) / spread;
        }

        double intercept(double slope) {
            return count == 0 ? 0.0 : (sumY - slope * sumX) / count;
        }
    }
}
