package io.contactsolver.demo;

import java.util.Arrays;

/**
 * The broad phase: every pair of spheres whose surfaces are less than a margin apart.
 *
 * <p>Space is cut into cubic cells as wide as the largest diameter plus the margin, so two spheres
 * that near each other sit in the same cell or in adjacent ones. Particles are sorted by cell with
 * a counting sort ({@code sorted[cellStart[c] .. cellStart[c + 1]]} are the particles of cell
 * {@code c}); it is stable, so each cell lists its particles in index order. Their positions and
 * radii are copied in the same order, so the pair tests read memory in order. Each cell is then
 * paired with itself and with the 13 of its 26 neighbours that come after it, which meets every
 * pair of cells once. The pairs come out in cell order, so they depend only on the positions and
 * the same world always gives the same pairs in the same order.
 *
 * <p>The storage is kept and grown between steps: a step allocates nothing once it has settled.
 */
final class UniformGrid {
    /** The 13 neighbour offsets (dx, dy, dz) that come after (0, 0, 0) in x-fastest order. */
    private static final int[][] FORWARD_NEIGHBOURS = forwardNeighbours();

    private int cellsX;
    private int cellsY;
    private int cellsZ;
    private float cellSize;
    private int[] cellOf = new int[0];
    private int[] cellStart = new int[1];
    private int[] sorted = new int[0];
    private float[] sortedX = new float[0];
    private float[] sortedY = new float[0];
    private float[] sortedZ = new float[0];
    private float[] sortedRadius = new float[0];
    private int pairCount;
    private int[] pairA = new int[1024];
    private int[] pairB = new int[1024];

    /**
     * Finds all pairs {@code (a, b)}, {@code a < b}, with a gap {@code |x_b - x_a| - r_a - r_b} below
     * {@code margin}, overlapping pairs included.
     */
    void findPairs(ParticleWorld world, float margin) {
        sortIntoCells(world, 2.0f * world.largestRadius() + margin);
        pairCount = 0;
        for (int cz = 0; cz < cellsZ; cz++) {
            for (int cy = 0; cy < cellsY; cy++) {
                for (int cx = 0; cx < cellsX; cx++) {
                    int cell = cellIndex(cx, cy, cz);
                    pairWithinCell(cell, margin);
                    for (int[] offset : FORWARD_NEIGHBOURS) {
                        int nx = cx + offset[0];
                        int ny = cy + offset[1];
                        int nz = cz + offset[2];
                        if (nx >= 0 && nx < cellsX && ny >= 0 && ny < cellsY && nz >= 0 && nz < cellsZ) {
                            pairBetweenCells(cell, cellIndex(nx, ny, nz), margin);
                        }
                    }
                }
            }
        }
    }

    int pairCount() {
        return pairCount;
    }

    /** The lower particle index of pair {@code p}. */
    int pairA(int p) {
        return pairA[p];
    }

    /** The higher particle index of pair {@code p}. */
    int pairB(int p) {
        return pairB[p];
    }

    /** The test that decides a pair, here and in any check against this class. */
    static boolean near(float ax, float ay, float az, float ar, float bx, float by, float bz, float br, float margin) {
        float dx = bx - ax;
        float dy = by - ay;
        float dz = bz - az;
        float reach = ar + br + margin;
        return dx * dx + dy * dy + dz * dz < reach * reach;
    }

    private void sortIntoCells(ParticleWorld world, float size) {
        cellSize = size;
        cellsX = cellsAlong(world.width);
        cellsY = cellsAlong(world.height);
        cellsZ = cellsAlong(world.depth);
        int cells = cellsX * cellsY * cellsZ;
        if (cellStart.length < cells + 1) {
            cellStart = new int[cells + 1];
        } else {
            Arrays.fill(cellStart, 0, cells + 1, 0);
        }
        if (cellOf.length < world.count) {
            cellOf = new int[world.count];
            sorted = new int[world.count];
            sortedX = new float[world.count];
            sortedY = new float[world.count];
            sortedZ = new float[world.count];
            sortedRadius = new float[world.count];
        }
        for (int i = 0; i < world.count; i++) {
            int cell = cellIndex(cellCoordinate(world.x[i], cellsX), cellCoordinate(world.y[i], cellsY),
                    cellCoordinate(world.z[i], cellsZ));
            cellOf[i] = cell;
            cellStart[cell + 1]++;
        }
        for (int c = 0; c < cells; c++) {
            cellStart[c + 1] += cellStart[c];
        }
        // cellStart[c] serves as the fill position of cell c while placing, then is shifted back
        for (int i = 0; i < world.count; i++) {
            sorted[cellStart[cellOf[i]]++] = i;
        }
        System.arraycopy(cellStart, 0, cellStart, 1, cells);
        cellStart[0] = 0;
        for (int s = 0; s < world.count; s++) {
            int i = sorted[s];
            sortedX[s] = world.x[i];
            sortedY[s] = world.y[i];
            sortedZ[s] = world.z[i];
            sortedRadius[s] = world.radius[i];
        }
    }

    private int cellsAlong(float extent) {
        return Math.max(1, (int) Math.ceil(extent / cellSize));
    }

    /** The cell along one axis; a sphere pressed a little into a wall still counts as inside. */
    private int cellCoordinate(float position, int cells) {
        int c = (int) Math.floor(position / cellSize);
        return Math.min(cells - 1, Math.max(0, c));
    }

    private int cellIndex(int cx, int cy, int cz) {
        return (cz * cellsY + cy) * cellsX + cx;
    }

    private void pairWithinCell(int cell, float margin) {
        int end = cellStart[cell + 1];
        for (int s = cellStart[cell]; s < end; s++) {
            for (int t = s + 1; t < end; t++) {
                addIfNear(s, t, margin);
            }
        }
    }

    private void pairBetweenCells(int cell, int other, float margin) {
        int end = cellStart[cell + 1];
        int otherEnd = cellStart[other + 1];
        for (int s = cellStart[cell]; s < end; s++) {
            for (int t = cellStart[other]; t < otherEnd; t++) {
                addIfNear(s, t, margin);
            }
        }
    }

    /** Tests the particles at sorted positions {@code s} and {@code t}. */
    private void addIfNear(int s, int t, float margin) {
        if (!near(sortedX[s], sortedY[s], sortedZ[s], sortedRadius[s], sortedX[t], sortedY[t], sortedZ[t],
                sortedRadius[t], margin)) {
            return;
        }
        if (pairCount == pairA.length) {
            pairA = Arrays.copyOf(pairA, pairCount * 2);
            pairB = Arrays.copyOf(pairB, pairCount * 2);
        }
        pairA[pairCount] = Math.min(sorted[s], sorted[t]);
        pairB[pairCount] = Math.max(sorted[s], sorted[t]);
        pairCount++;
    }

    private static int[][] forwardNeighbours() {
        int[][] offsets = new int[13][];
        int n = 0;
        for (int dz = -1; dz <= 1; dz++) {
            for (int dy = -1; dy <= 1; dy++) {
                for (int dx = -1; dx <= 1; dx++) {
                    // after (0, 0, 0) in the order cells are numbered: z, then y, then x
                    if (dz > 0 || (dz == 0 && (dy > 0 || (dy == 0 && dx > 0)))) {
                        offsets[n++] = new int[] {dx, dy, dz};
                    }
                }
            }
        }
        return offsets;
    }
}
