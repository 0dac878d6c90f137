package io.contactsolver.demo;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.Ellipse2D;
import java.awt.geom.Line2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import javax.imageio.ImageIO;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.NumberTickUnit;
import org.jfree.chart.plot.CombinedDomainXYPlot;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * The demo's two pictures, written as PNG: a side view of the particles coloured by speed, and a
 * chart of kinetic energy and contacts per step over time. Drawn off screen; the caller sets
 * {@code java.awt.headless=true} before the first one.
 */
final class DemoPictures {
    /** Pixels across the box in the snapshot. */
    private static final int BOX_PIXELS = 1200;
    private static final int MARGIN = 40;
    private static final int TITLE_SPACE = 50;
    /** Room right of the box for the colour scale and its labels, seven-digit ones like 0.00038 included. */
    private static final int LEGEND_SPACE = 160;
    private static final int LEGEND_PIXELS = 240;
    /** The share of spheres below the top of the colour scale. */
    private static final float SCALE_PERCENTILE = 0.99f;
    /** Room shown above the highest sphere, in box widths. */
    private static final float VIEW_HEADROOM = 0.08f;
    private static final int CHART_WIDTH = 1000;
    private static final int CHART_HEIGHT = 700;
    /** The colour scale from slow to fast: dark blue, blue, teal, yellow, red. */
    private static final Color[] SPEED_COLOURS = {new Color(25, 35, 110), new Color(40, 105, 200),
        new Color(50, 175, 165), new Color(245, 205, 55), new Color(215, 50, 35)};
    /** The heap's slope line: black, to stand out from every speed colour. */
    private static final Color SLOPE_COLOUR = Color.BLACK;
    /** Kinetic energy plotted below this share of its peak is drawn at it, as a log axis needs a floor. */
    private static final double ENERGY_FLOOR = 1e-9;

    private DemoPictures() {
    }

    /**
     * The particles seen from the front (x to the right, y up, looking along -z), the nearest drawn
     * last; circles have the spheres' radii, colours their speed on a scale from 0 to the speed
     * that 99% of the spheres do not exceed (the fastest 1% share the top colour), so that a few
     * stragglers do not wash out the motion of the rest.
     * The view ends a little above the highest sphere, so a settled pile is not a strip at the
     * bottom of an empty box. With a measured heap slope (else null), its fitted line is drawn on
     * both sides of the axis: solid over the flank it was fitted to, dashed from the axis down to the
     * floor, with the angle written beside it.
     */
    static void snapshot(ParticleWorld world, String title, HeapSlope slope, OutputStream png) throws IOException {
        float scale = BOX_PIXELS / world.width;
        float top = 0.0f;
        for (int i = 0; i < world.count; i++) {
            top = Math.max(top, world.y[i] + world.radius[i]);
        }
        float viewHeight = Math.min(world.height, top + VIEW_HEADROOM * world.width);
        boolean cropped = viewHeight < world.height;
        int viewPixels = Math.round(viewHeight * scale);
        int imageWidth = MARGIN + BOX_PIXELS + LEGEND_SPACE;
        int imageHeight = TITLE_SPACE + Math.max(viewPixels, LEGEND_PIXELS + 40) + MARGIN;
        BufferedImage image = new BufferedImage(imageWidth, imageHeight, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        try {
            g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
            g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
            g.setColor(Color.WHITE);
            g.fillRect(0, 0, imageWidth, imageHeight);
            float floorY = TITLE_SPACE + viewPixels;
            float scaleTop = speedScaleTop(world);
            g.setClip(MARGIN, TITLE_SPACE, BOX_PIXELS, viewPixels);
            Ellipse2D.Float circle = new Ellipse2D.Float();
            g.setStroke(new BasicStroke(0.6f));
            for (int i : backToFront(world)) {
                float r = world.radius[i] * scale;
                circle.setFrame(MARGIN + world.x[i] * scale - r, floorY - world.y[i] * scale - r, 2 * r, 2 * r);
                Color colour = speedColour(world.speed(i) / scaleTop);
                g.setColor(colour);
                g.fill(circle);
                g.setColor(colour.darker());
                g.draw(circle);
            }
            if (slope != null) {
                drawSlope(g, slope, scale, floorY);
            }
            g.setClip(null);
            g.setColor(Color.DARK_GRAY);
            g.setStroke(new BasicStroke(2.0f));
            int left = MARGIN;
            int right = MARGIN + BOX_PIXELS;
            int bottom = TITLE_SPACE + viewPixels;
            g.drawLine(left, TITLE_SPACE, left, bottom);
            g.drawLine(left, bottom, right, bottom);
            g.drawLine(right, bottom, right, TITLE_SPACE);
            g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 18));
            g.drawString(title, MARGIN, TITLE_SPACE - 22);
            g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
            String extent = String.format(Locale.ROOT, "box %.2f m wide, %.2f m deep, %.2f m high%s", world.width,
                    world.depth, world.height, cropped ? " (shown up to " + String.format(Locale.ROOT, "%.2f", viewHeight)
                            + " m)" : "");
            g.drawString(extent, MARGIN, TITLE_SPACE - 6);
            if (!cropped) {
                g.drawLine(left, TITLE_SPACE, right, TITLE_SPACE);
            }
            drawSpeedLegend(g, right + 30, TITLE_SPACE, LEGEND_PIXELS, scaleTop);
        } finally {
            g.dispose();
        }
        if (!ImageIO.write(image, "png", png)) {
            throw new IOException("no PNG writer available");
        }
    }

    /** The fitted slope line of a heap, mirrored about its axis, and its angle. */
    private static void drawSlope(Graphics2D g, HeapSlope slope, float scale, float floorY) {
        // where the line meets the floor, or the fitted range's end if it never does (a flat layer)
        double toe = slope.slope() < 0.0 ? Math.max(slope.outerRadius(), -slope.intercept() / slope.slope())
                : slope.outerRadius();
        BasicStroke solid = new BasicStroke(3.0f, BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND);
        BasicStroke dashed = new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 10.0f,
                new float[] {8.0f, 6.0f}, 0.0f);
        g.setColor(SLOPE_COLOUR);
        for (int side = -1; side <= 1; side += 2) {
            g.setStroke(dashed);
            drawSlopeSegment(g, slope, side, 0.0, toe, scale, floorY);
            g.setStroke(solid);
            drawSlopeSegment(g, slope, side, slope.innerRadius(), slope.outerRadius(), scale, floorY);
        }
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 16));
        String label = String.format(Locale.ROOT, "angle of repose %.1f\u00b0%s", slope.degrees(),
                slope.flat() ? " (spread flat)" : "");
        double labelRadius = slope.outerRadius() + 0.02;
        g.drawString(label, MARGIN + (float) ((slope.axisX() + labelRadius) * scale),
                floorY - (float) (slope.heightAt(slope.innerRadius()) * scale));
    }

    private static void drawSlopeSegment(Graphics2D g, HeapSlope slope, int side, double from, double to, float scale,
            float floorY) {
        float x0 = MARGIN + (float) ((slope.axisX() + side * from) * scale);
        float x1 = MARGIN + (float) ((slope.axisX() + side * to) * scale);
        float y0 = floorY - (float) (slope.heightAt(from) * scale);
        float y1 = floorY - (float) (slope.heightAt(to) * scale);
        g.draw(new Line2D.Float(x0, y0, x1, y1));
    }

    /** Kinetic energy (log scale) and contacts per step against simulated time, one panel each. */
    static void energyAndContacts(List<StepFigures> figures, String title, OutputStream png) throws IOException {
        XYSeries energy = new XYSeries("kinetic energy");
        XYSeries contacts = new XYSeries("contacts per step");
        double peak = figures.stream().mapToDouble(StepFigures::kineticEnergy).max().orElse(0.0);
        double floor = Math.max(peak * ENERGY_FLOOR, Double.MIN_NORMAL);
        for (StepFigures step : figures) {
            energy.add(step.time(), Math.max(step.kineticEnergy(), floor));
            contacts.add(step.time(), step.contacts());
        }
        LogAxis energyAxis = new LogAxis("kinetic energy (J)");
        energyAxis.setSmallestValue(floor);
        energyAxis.setTickUnit(new NumberTickUnit(1.0)); // a tick per power of ten
        energyAxis.setMinorTickMarksVisible(true);
        XYPlot energyPlot = new XYPlot(new XYSeriesCollection(energy), null, energyAxis, lines(new Color(200, 60, 40)));
        NumberAxis contactAxis = new NumberAxis("contacts per step");
        contactAxis.setAutoRangeIncludesZero(true);
        XYPlot contactPlot = new XYPlot(new XYSeriesCollection(contacts), null, contactAxis,
                lines(new Color(40, 90, 190)));
        CombinedDomainXYPlot plot = new CombinedDomainXYPlot(new NumberAxis("simulated time (s)"));
        plot.setGap(12.0);
        plot.add(energyPlot, 1);
        plot.add(contactPlot, 1);
        JFreeChart chart = new JFreeChart(title, new Font(Font.SANS_SERIF, Font.BOLD, 16), plot, false);
        chart.setBackgroundPaint(Color.WHITE);
        ChartUtils.writeChartAsPNG(png, chart, CHART_WIDTH, CHART_HEIGHT);
    }

    /** A colour for {@code fraction} in [0, 1] of the way from slow to fast. */
    static Color speedColour(float fraction) {
        float position = Math.min(1.0f, Math.max(0.0f, fraction)) * (SPEED_COLOURS.length - 1);
        int lower = Math.min((int) position, SPEED_COLOURS.length - 2);
        float t = position - lower;
        Color from = SPEED_COLOURS[lower];
        Color to = SPEED_COLOURS[lower + 1];
        return new Color(mix(from.getRed(), to.getRed(), t), mix(from.getGreen(), to.getGreen(), t),
                mix(from.getBlue(), to.getBlue(), t));
    }

    private static int mix(int from, int to, float t) {
        return Math.round(from + (to - from) * t);
    }

    /** Particle indices by increasing z (farthest from the viewer first), ties by index. */
    private static int[] backToFront(ParticleWorld world) {
        long[] keys = new long[world.count];
        for (int i = 0; i < world.count; i++) {
            // z is positive, so its float bits sort like its value
            keys[i] = ((long) Float.floatToIntBits(Math.max(world.z[i], 0.0f)) << 32) | i;
        }
        Arrays.sort(keys);
        int[] order = new int[world.count];
        for (int k = 0; k < keys.length; k++) {
            order[k] = (int) keys[k];
        }
        return order;
    }

    /** The 99th percentile of the speeds (or the fastest, if that is 0), never 0. */
    private static float speedScaleTop(ParticleWorld world) {
        float[] speeds = new float[world.count];
        for (int i = 0; i < world.count; i++) {
            speeds[i] = world.speed(i);
        }
        Arrays.sort(speeds);
        float percentile = speeds[(int) (SCALE_PERCENTILE * (world.count - 1))];
        float top = percentile > 0.0f ? percentile : speeds[world.count - 1];
        return Math.max(top, Float.MIN_NORMAL);
    }

    private static void drawSpeedLegend(Graphics2D g, int left, int top, int height, float scaleTop) {
        int barWidth = 24;
        for (int row = 0; row < height; row++) {
            g.setColor(speedColour(1.0f - row / (float) (height - 1)));
            g.fillRect(left, top + row, barWidth, 1);
        }
        g.setColor(Color.DARK_GRAY);
        g.setStroke(new BasicStroke(1.0f));
        g.drawRect(left, top, barWidth, height);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 14));
        int ticks = 4;
        for (int k = 0; k <= ticks; k++) {
            int y = top + height - k * height / ticks;
            g.drawLine(left + barWidth, y, left + barWidth + 5, y);
            String label = formatSpeed(scaleTop * k / ticks);
            g.drawString(k == ticks ? "\u2265 " + label : label, left + barWidth + 8, y + 5);
        }
        g.drawString("speed (m/s)", left - 4, top + height + 24);
        g.drawString("at the end", left - 4, top + height + 40);
    }

    private static String formatSpeed(float speed) {
        return speed == 0.0f ? "0" : String.format(Locale.ROOT, speed >= 1.0f ? "%.2f" : "%.2g", speed);
    }

    private static XYLineAndShapeRenderer lines(Color colour) {
        XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer(true, false);
        renderer.setSeriesPaint(0, colour);
        renderer.setSeriesStroke(0, new BasicStroke(1.8f));
        return renderer;
    }
}
