package io.contactsolver.scene;

import io.contactsolver.BodyBatch;
import io.contactsolver.ContactBatch;
import io.contactsolver.ContactIds;
import java.util.Arrays;
import org.joml.Quaternionf;
import org.joml.Vector3f;

/**
 * Collision detection for equal cubes (every body of the batch is one, of half extent {@code h},
 * any position and orientation) resting on the ground plane {@code y = 0}, the static world: it
 * fills a {@link ContactBatch} with every contact point whose separation is at most a speculative
 * margin, at most 4 per touching face pair, each with an id that persists while the contact does.
 *
 * <p>Convention (docs/physics.md): a contact's normal is a unit vector from body a to body b, and
 * its separation is the signed gap between the surfaces along it, negative when they overlap.
 * Every point lies halfway between the two surfaces.
 *
 * <ul>
 *   <li>Box and ground: body a is {@link ContactBatch#WORLD}, b the box, normal {@code (0, 1, 0)};
 *       each of the 8 corners with height {@code y <= margin} gives a point, separation {@code y},
 *       at {@code (x, y / 2, z)}. A box lying flat gives 4.</li>
 *   <li>Box and box (a the lower index): a separating-axis test over the 3 face normals of each
 *       box picks the axis of least penetration; its face facing the other box is the reference
 *       face. Box a's face is kept unless box b's is deeper by more than a thousandth of {@code h},
 *       so that equal candidates (two aligned boxes) do not flicker between steps. The incident
 *       face, the other box's face most anti-parallel to the reference normal, is clipped against
 *       the 4 side planes of the reference face (Sutherland-Hodgman); the clipped points at most
 *       {@code margin} above the reference face are kept, reduced to 4 when more remain (the
 *       deepest, the one farthest from it, and the two spanning the largest triangles on either
 *       side of that line). The 9 edge-edge axes are not tested: two boxes crossing edge on edge
 *       get no contact or the points of a face contact, which is good enough for boxes that mostly
 *       rest on faces, as in a pyramid or a stack.</li>
 * </ul>
 *
 * <p>Manifolds: the points of one pair (a box and the ground, two boxes) are one manifold
 * ({@link ContactBatch#setManifold}), consecutive and sharing their normal.
 *
 * <p>Ids: each {@link #find} is one step of a {@link ContactIds} table, keyed by
 * {@code ContactIds.key(a, b, feature)}. A ground point's feature is the box's corner, 0..7
 * ({@link #corner}: bit {@code k} set for the {@code +} side along body axis {@code k}). A box
 * point's feature is {@code 60 * referenceFace + point}: the reference face 0..11 ({@code 6} for
 * a face of box b, plus {@code 2 * axis}, plus 1 for the {@code +} face), and the point 0..59: an
 * incident box corner 0..7; {@code 8 + 4 * edge + side} where an incident box edge (0..11:
 * {@code 4 * axis} plus the corner bits of the two other axes, in cyclic order) crosses a side
 * plane 0..3 of the reference face ({@code 2 * t + (1 for +)}, {@code t} 0 and 1 for the two
 * tangent axes after the face's axis, cyclically); {@code 56 + j + 2 k}, a corner of the reference
 * face ({@code j}, {@code k} 1 on the {@code +} side of the two tangent axes). All are named in
 * the boxes' own frames, not by position in a list, so a point keeps its feature, and its id, for
 * as long as the same corner or crossing makes it, however the boxes move.
 *
 * <p>Broad phase: a uniform grid of cells the size of the largest centre distance at which two
 * boxes can touch, hashed into buckets filled by a counting sort; each box tests the boxes of
 * higher index in the 27 cells around it, in index order. The order of the contacts is fixed by
 * the input: for each box in index order, its ground points, then its pairs with higher indices in
 * index order. Arrays are reused: after the first calls no allocation happens unless the scene
 * grows. Not thread-safe.
 */
public final class BoxContacts {
    /** Box2D's friction coefficient for its pyramid. */
    public static final float DEFAULT_FRICTION = 0.6f;

    private static final float RESTITUTION = 0.0f;
    private static final float ROLLING_RESISTANCE = 0.0f;
    /** Box b's face wins only if deeper than box a's by more than this share of h. */
    private static final float FACE_TIE = 1e-3f;
    /**
     * Vertices up to this share of h outside a side plane of the reference face count as inside: a
     * corner meant to lie on the plane then stays one point with a stable feature under float noise.
     */
    private static final float CLIP_TOLERANCE = 1e-3f;
    private static final int EDGE_CROSSING = 8;
    private static final int REFERENCE_CORNER = 56;
    private static final int POINT_CODES = 60;
    /** Labels of polygon segments 0..11 are incident box edges, 12..15 reference side planes. */
    private static final int SIDE_LABEL = 12;
    /** A quad clipped by 4 planes has at most 8 vertices. */
    private static final int MAX_POLYGON = 8;
    private static final int MAX_POINTS = 4;

    private final float halfExtent;
    private final float margin;
    private final float friction;
    /** Two centres farther apart than this cannot be within the margin. */
    private final float reach;
    private final ContactIds ids = new ContactIds();
    /** The manifold the last point went to, its pair and its points so far. */
    private int manifoldNumber;
    private int manifoldA;
    private int manifoldB;
    private int manifoldPoints;
    private final Vector3f position = new Vector3f();
    private final Quaternionf orientation = new Quaternionf();

    /** Per box: centre (3), rotation columns (9: body axis k is at 3 k). */
    private float[] centres = new float[0];
    private float[] axes = new float[0];
    private int[] cellX = new int[0];
    private int[] cellY = new int[0];
    private int[] cellZ = new int[0];
    private int[] bucketOf = new int[0];
    private int[] byBucket = new int[0];
    private int[] bucketStart = new int[0];
    private int[] bucketFill = new int[0];
    private int bucketMask;
    private int[] candidates = new int[32];
    private int candidateCount;

    /** Pair scratch: |A_i . B_j| at 3 i + j. */
    private final float[] crossAbs = new float[9];
    private float[] polygon = new float[3 * MAX_POLYGON];
    private float[] clipped = new float[3 * MAX_POLYGON];
    private int[] features = new int[MAX_POLYGON];
    private int[] clippedFeatures = new int[MAX_POLYGON];
    private int[] labels = new int[MAX_POLYGON];
    private int[] clippedLabels = new int[MAX_POLYGON];
    private final float[] separations = new float[MAX_POLYGON];
    private final boolean[] chosen = new boolean[MAX_POLYGON];

    /**
     * Contacts of cubes of half extent {@code halfExtent} (m) with friction {@code friction}, for
     * points up to {@code margin} (m) apart.
     *
     * @param halfExtent half the side of every box, positive and finite
     * @param margin the largest separation a point may have to be a contact (speculative), finite and
     *     {@code >= 0}; 0.02 m, four times Box2D's linear slop, suits 1 m boxes
     * @param friction Coulomb coefficient of every contact, finite and {@code >= 0}
     *     ({@link #DEFAULT_FRICTION} as in Box2D); restitution and rolling resistance are 0
     */
    public BoxContacts(float halfExtent, float margin, float friction) {
        if (!(halfExtent > 0.0f) || !Float.isFinite(halfExtent)) {
            throw new IllegalArgumentException("halfExtent must be positive and finite, got " + halfExtent);
        }
        if (!(margin >= 0.0f) || !Float.isFinite(margin)) {
            throw new IllegalArgumentException("margin must be finite and >= 0, got " + margin);
        }
        if (!(friction >= 0.0f) || !Float.isFinite(friction)) {
            throw new IllegalArgumentException("friction must be finite and >= 0, got " + friction);
        }
        this.halfExtent = halfExtent;
        this.margin = margin;
        this.friction = friction;
        // the bounding spheres, radius h sqrt(3), within the margin
        this.reach = 2.0f * halfExtent * (float) Math.sqrt(3.0) + margin;
    }

    public float halfExtent() {
        return halfExtent;
    }

    public float margin() {
        return margin;
    }

    public float friction() {
        return friction;
    }

    /**
     * The corner index of the corner on the {@code +} or {@code -} side along each body axis: bit
     * {@code k} set for {@code +} along axis {@code k}. It is the feature of a ground point.
     */
    public static int corner(boolean plusX, boolean plusY, boolean plusZ) {
        return (plusX ? 1 : 0) | (plusY ? 2 : 0) | (plusZ ? 4 : 0);
    }

    /**
     * Clears {@code dest} and fills it with this step's contacts between the boxes of
     * {@code bodies} and between them and the ground. Each call is one step of the contact ids: a
     * contact found in the previous call keeps its id, one not found now loses it. Call it once per
     * simulation step, on the same scene.
     */
    public void find(BodyBatch bodies, ContactBatch dest) {
        dest.clear();
        manifoldNumber = -1;
        manifoldA = Integer.MIN_VALUE;
        int count = bodies.size();
        load(bodies, count);
        buildGrid(count);
        ids.beginStep();
        try {
            for (int a = 0; a < count; a++) {
                groundContacts(a, dest);
                gatherCandidates(a);
                for (int c = 0; c < candidateCount; c++) {
                    boxContacts(a, candidates[c], dest);
                }
            }
        } finally {
            ids.endStep();
        }
    }

    // ---- per box state ----------------------------------------------------------------------

    private void load(BodyBatch bodies, int count) {
        if (cellX.length < count) {
            int room = Math.max(count, cellX.length + (cellX.length >> 1) + 16);
            centres = new float[3 * room];
            axes = new float[9 * room];
            cellX = new int[room];
            cellY = new int[room];
            cellZ = new int[room];
            bucketOf = new int[room];
            byBucket = new int[room];
        }
        for (int i = 0; i < count; i++) {
            bodies.getPosition(i, position);
            bodies.getOrientation(i, orientation);
            centres[3 * i] = position.x;
            centres[3 * i + 1] = position.y;
            centres[3 * i + 2] = position.z;
            storeRotation(i, orientation.x, orientation.y, orientation.z, orientation.w);
        }
    }

    /** The rotation's columns, body axes in world space; the quaternion is normalised on the way. */
    private void storeRotation(int i, float x, float y, float z, float w) {
        float s = 2.0f / (x * x + y * y + z * z + w * w);
        int at = 9 * i;
        axes[at] = 1.0f - s * (y * y + z * z);
        axes[at + 1] = s * (x * y + w * z);
        axes[at + 2] = s * (x * z - w * y);
        axes[at + 3] = s * (x * y - w * z);
        axes[at + 4] = 1.0f - s * (x * x + z * z);
        axes[at + 5] = s * (y * z + w * x);
        axes[at + 6] = s * (x * z + w * y);
        axes[at + 7] = s * (y * z - w * x);
        axes[at + 8] = 1.0f - s * (x * x + y * y);
    }

    // ---- broad phase ------------------------------------------------------------------------

    private void buildGrid(int count) {
        int buckets = Integer.highestOneBit(Math.max(2 * count, 16) - 1) << 1;
        if (bucketFill.length < buckets) {
            bucketStart = new int[buckets + 1];
            bucketFill = new int[buckets];
        }
        bucketMask = buckets - 1;
        Arrays.fill(bucketStart, 0, buckets + 1, 0);
        for (int i = 0; i < count; i++) {
            cellX[i] = cell(centres[3 * i]);
            cellY[i] = cell(centres[3 * i + 1]);
            cellZ[i] = cell(centres[3 * i + 2]);
            bucketOf[i] = bucket(cellX[i], cellY[i], cellZ[i]);
            bucketStart[bucketOf[i] + 1]++;
        }
        for (int k = 0; k < buckets; k++) {
            bucketStart[k + 1] += bucketStart[k];
        }
        System.arraycopy(bucketStart, 0, bucketFill, 0, buckets);
        // in index order, so each bucket lists its boxes in index order
        for (int i = 0; i < count; i++) {
            byBucket[bucketFill[bucketOf[i]]++] = i;
        }
    }

    private int cell(float coordinate) {
        return (int) Math.floor(coordinate / reach);
    }

    private int bucket(int x, int y, int z) {
        return ((x * 0x8DA6B343) ^ (y * 0xD8163841) ^ (z * 0xCB1AB31F)) & bucketMask;
    }

    /** The boxes of higher index than {@code a} whose bounding spheres come within the margin, ascending. */
    private void gatherCandidates(int a) {
        candidateCount = 0;
        float ax = centres[3 * a];
        float ay = centres[3 * a + 1];
        float az = centres[3 * a + 2];
        for (int dz = -1; dz <= 1; dz++) {
            for (int dy = -1; dy <= 1; dy++) {
                for (int dx = -1; dx <= 1; dx++) {
                    int x = cellX[a] + dx;
                    int y = cellY[a] + dy;
                    int z = cellZ[a] + dz;
                    int bucket = bucket(x, y, z);
                    for (int k = bucketStart[bucket]; k < bucketStart[bucket + 1]; k++) {
                        int b = byBucket[k];
                        // a bucket may hold other cells too: take b from its own cell only, once
                        if (b <= a || cellX[b] != x || cellY[b] != y || cellZ[b] != z) {
                            continue;
                        }
                        float ex = centres[3 * b] - ax;
                        float ey = centres[3 * b + 1] - ay;
                        float ez = centres[3 * b + 2] - az;
                        if (ex * ex + ey * ey + ez * ez <= reach * reach) {
                            addCandidate(b);
                        }
                    }
                }
            }
        }
    }

    /** Inserts {@code b} in ascending order (a handful of candidates per box). */
    private void addCandidate(int b) {
        if (candidateCount == candidates.length) {
            candidates = Arrays.copyOf(candidates, 2 * candidateCount);
        }
        int at = candidateCount++;
        while (at > 0 && candidates[at - 1] > b) {
            candidates[at] = candidates[at - 1];
            at--;
        }
        candidates[at] = b;
    }

    // ---- box and ground ---------------------------------------------------------------------

    private void groundContacts(int box, ContactBatch dest) {
        float h = halfExtent;
        int r = 9 * box;
        float cx = centres[3 * box];
        float cy = centres[3 * box + 1];
        float cz = centres[3 * box + 2];
        float lowest = cy - h * (Math.abs(axes[r + 1]) + Math.abs(axes[r + 4]) + Math.abs(axes[r + 7]));
        if (!(lowest <= margin)) {
            return;
        }
        for (int corner = 0; corner < 8; corner++) {
            float sx = (corner & 1) != 0 ? h : -h;
            float sy = (corner & 2) != 0 ? h : -h;
            float sz = (corner & 4) != 0 ? h : -h;
            float y = cy + sx * axes[r + 1] + sy * axes[r + 4] + sz * axes[r + 7];
            if (y <= margin) {
                float x = cx + sx * axes[r] + sy * axes[r + 3] + sz * axes[r + 6];
                float z = cz + sx * axes[r + 2] + sy * axes[r + 5] + sz * axes[r + 8];
                add(dest, ContactBatch.WORLD, box, x, 0.5f * y, z, 0.0f, 1.0f, 0.0f, y, corner);
            }
        }
    }

    // ---- box and box ------------------------------------------------------------------------

    private void boxContacts(int a, int b, ContactBatch dest) {
        float h = halfExtent;
        int ra = 9 * a;
        int rb = 9 * b;
        float dx = centres[3 * b] - centres[3 * a];
        float dy = centres[3 * b + 1] - centres[3 * a + 1];
        float dz = centres[3 * b + 2] - centres[3 * a + 2];
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                crossAbs[3 * i + j] = Math.abs(dot(axes, ra + 3 * i, axes, rb + 3 * j));
            }
        }
        // separation along each face normal: centre distance less both projected half widths
        float bestA = Float.NEGATIVE_INFINITY;
        int axisA = 0;
        for (int i = 0; i < 3; i++) {
            float along = Math.abs(dx * axes[ra + 3 * i] + dy * axes[ra + 3 * i + 1] + dz * axes[ra + 3 * i + 2]);
            float s = along - h - h * (crossAbs[3 * i] + crossAbs[3 * i + 1] + crossAbs[3 * i + 2]);
            if (!(s <= margin)) {
                return;
            }
            if (s > bestA) {
                bestA = s;
                axisA = i;
            }
        }
        float bestB = Float.NEGATIVE_INFINITY;
        int axisB = 0;
        for (int j = 0; j < 3; j++) {
            float along = Math.abs(dx * axes[rb + 3 * j] + dy * axes[rb + 3 * j + 1] + dz * axes[rb + 3 * j + 2]);
            float s = along - h - h * (crossAbs[j] + crossAbs[3 + j] + crossAbs[6 + j]);
            if (!(s <= margin)) {
                return;
            }
            if (s > bestB) {
                bestB = s;
                axisB = j;
            }
        }
        boolean referenceIsA = !(bestB > bestA + FACE_TIE * h);
        int reference = referenceIsA ? a : b;
        int incident = referenceIsA ? b : a;
        int axis = referenceIsA ? axisA : axisB;
        float toIncident = referenceIsA ? 1.0f : -1.0f;
        int rr = 9 * reference;
        int ri = 9 * incident;
        float sign = (dx * axes[rr + 3 * axis] + dy * axes[rr + 3 * axis + 1] + dz * axes[rr + 3 * axis + 2])
                * toIncident >= 0.0f ? 1.0f : -1.0f;
        float nx = sign * axes[rr + 3 * axis];
        float ny = sign * axes[rr + 3 * axis + 1];
        float nz = sign * axes[rr + 3 * axis + 2];
        int referenceFace = (referenceIsA ? 0 : 6) + 2 * axis + (sign > 0.0f ? 1 : 0);

        int count = incidentFace(ri, incident, nx, ny, nz);
        float crx = centres[3 * reference];
        float cry = centres[3 * reference + 1];
        float crz = centres[3 * reference + 2];
        for (int t = 0; t < 2; t++) {
            int tangent = rr + 3 * ((axis + 1 + t) % 3);
            for (int plus = 0; plus < 2; plus++) {
                float side = plus == 1 ? 1.0f : -1.0f;
                count = clip(count, side * axes[tangent], side * axes[tangent + 1], side * axes[tangent + 2],
                        crx, cry, crz, 2 * t + plus);
                if (count == 0) {
                    return;
                }
            }
        }
        // keep the points within the margin of the reference face, each feature once
        int kept = 0;
        for (int v = 0; v < count; v++) {
            float s = (polygon[3 * v] - crx) * nx + (polygon[3 * v + 1] - cry) * ny + (polygon[3 * v + 2] - crz) * nz
                    - h;
            if (s <= margin && !hasFeature(kept, features[v])) {
                polygon[3 * kept] = polygon[3 * v];
                polygon[3 * kept + 1] = polygon[3 * v + 1];
                polygon[3 * kept + 2] = polygon[3 * v + 2];
                features[kept] = features[v];
                separations[kept] = s;
                kept++;
            }
        }
        choosePoints(kept, nx, ny, nz);
        // from a to b; + 0 turns -0 into 0, so aligned boxes get plain axis normals
        float cnx = toIncident * nx + 0.0f;
        float cny = toIncident * ny + 0.0f;
        float cnz = toIncident * nz + 0.0f;
        for (int v = 0; v < kept; v++) {
            if (chosen[v]) {
                float half = 0.5f * separations[v];
                add(dest, a, b, polygon[3 * v] - half * nx, polygon[3 * v + 1] - half * ny,
                        polygon[3 * v + 2] - half * nz, cnx, cny, cnz, separations[v],
                        POINT_CODES * referenceFace + features[v]);
            }
        }
    }

    /**
     * Puts the incident box's face most anti-parallel to {@code (nx, ny, nz)} into the polygon, its
     * corners in order around the face, and returns 4.
     */
    private int incidentFace(int ri, int incident, float nx, float ny, float nz) {
        int m = 0;
        float most = -1.0f;
        float facing = 0.0f;
        for (int k = 0; k < 3; k++) {
            float c = nx * axes[ri + 3 * k] + ny * axes[ri + 3 * k + 1] + nz * axes[ri + 3 * k + 2];
            if (Math.abs(c) > most) {
                most = Math.abs(c);
                facing = c;
                m = k;
            }
        }
        // the face whose outward normal points against n: the + face when n . axis < 0
        int faceBit = facing < 0.0f ? 1 << m : 0;
        int p = (m + 1) % 3;
        int q = (m + 2) % 3;
        float h = halfExtent;
        for (int v = 0; v < 4; v++) {
            int corner = faceBit | (v == 1 || v == 2 ? 1 << p : 0) | (v >= 2 ? 1 << q : 0);
            float sx = (corner & 1) != 0 ? h : -h;
            float sy = (corner & 2) != 0 ? h : -h;
            float sz = (corner & 4) != 0 ? h : -h;
            for (int k = 0; k < 3; k++) {
                polygon[3 * v + k] = centres[3 * incident + k] + sx * axes[ri + k] + sy * axes[ri + 3 + k]
                        + sz * axes[ri + 6 + k];
            }
            features[v] = corner;
        }
        for (int v = 0; v < 4; v++) {
            labels[v] = edge(features[v], features[(v + 1) & 3]);
        }
        return 4;
    }

    /** The box edge joining corners {@code from} and {@code to}, which differ in one bit. */
    private static int edge(int from, int to) {
        int axis = Integer.numberOfTrailingZeros(from ^ to);
        return 4 * axis + ((from >> ((axis + 1) % 3)) & 1) + 2 * ((from >> ((axis + 2) % 3)) & 1);
    }

    /**
     * Clips the polygon (Sutherland-Hodgman) to the side {@code (p - c) . w <= h} of the reference
     * face's side plane {@code side}, keeping each vertex's feature and each segment's label (the
     * incident edge or side plane it lies on); returns the new vertex count. A vertex less than the
     * clip tolerance outside counts as inside and stands for the crossing next to it, so a corner
     * lying on the plane stays one point with its own feature whatever the rounding; crossings are
     * placed on the plane itself.
     */
    private int clip(int count, float wx, float wy, float wz, float cx, float cy, float cz, int side) {
        float tolerance = CLIP_TOLERANCE * halfExtent;
        int out = 0;
        for (int v = 0; v < count; v++) {
            int next = v + 1 == count ? 0 : v + 1;
            float dv = (polygon[3 * v] - cx) * wx + (polygon[3 * v + 1] - cy) * wy + (polygon[3 * v + 2] - cz) * wz
                    - halfExtent;
            float dn = (polygon[3 * next] - cx) * wx + (polygon[3 * next + 1] - cy) * wy
                    + (polygon[3 * next + 2] - cz) * wz - halfExtent;
            boolean nextInside = dn <= tolerance;
            if (dv <= tolerance) {
                if (nextInside) {
                    out = emit(out, v, labels[v], features[v]);
                } else if (dv >= 0.0f) {
                    // v is where the polygon leaves: its outgoing segment now runs along the side plane
                    out = emit(out, v, SIDE_LABEL + side, features[v]);
                } else {
                    out = emit(out, v, labels[v], features[v]);
                    out = emitCrossing(out, v, next, dv / (dv - dn), SIDE_LABEL + side, crossing(labels[v], side));
                }
            } else if (nextInside && dn < 0.0f) {
                // entering: the crossing's outgoing segment is the rest of v's segment
                out = emitCrossing(out, v, next, dv / (dv - dn), labels[v], crossing(labels[v], side));
            }
        }
        float[] points = polygon;
        polygon = clipped;
        clipped = points;
        int[] swap = features;
        features = clippedFeatures;
        clippedFeatures = swap;
        swap = labels;
        labels = clippedLabels;
        clippedLabels = swap;
        return out;
    }

    private int emit(int out, int v, int label, int feature) {
        clipped[3 * out] = polygon[3 * v];
        clipped[3 * out + 1] = polygon[3 * v + 1];
        clipped[3 * out + 2] = polygon[3 * v + 2];
        clippedLabels[out] = label;
        clippedFeatures[out] = feature;
        return out + 1;
    }

    private int emitCrossing(int out, int v, int next, float t, int label, int feature) {
        for (int k = 0; k < 3; k++) {
            clipped[3 * out + k] = polygon[3 * v + k] + t * (polygon[3 * next + k] - polygon[3 * v + k]);
        }
        clippedLabels[out] = label;
        clippedFeatures[out] = feature;
        return out + 1;
    }

    /** The point code of the place where the segment labelled {@code label} crosses side plane {@code side}. */
    private static int crossing(int label, int side) {
        if (label < SIDE_LABEL) {
            return EDGE_CROSSING + 4 * label + side;
        }
        // two side planes meet at a corner of the reference face (planes of one axis never cross)
        int other = label - SIDE_LABEL;
        int j = (other >> 1) == 0 ? other & 1 : side & 1;
        int k = (other >> 1) == 1 ? other & 1 : side & 1;
        return REFERENCE_CORNER + j + 2 * k;
    }

    private boolean hasFeature(int count, int feature) {
        for (int v = 0; v < count; v++) {
            if (features[v] == feature) {
                return true;
            }
        }
        return false;
    }

    /**
     * Marks the points to keep: all of them if at most 4, else the deepest, the one farthest from
     * it, and the ones spanning the largest triangle with those two on either side of their line.
     */
    private void choosePoints(int count, float nx, float ny, float nz) {
        Arrays.fill(chosen, 0, count, count <= MAX_POINTS);
        if (count <= MAX_POINTS) {
            return;
        }
        int deepest = 0;
        for (int v = 1; v < count; v++) {
            if (separations[v] < separations[deepest]) {
                deepest = v;
            }
        }
        int far = -1;
        float farthest = -1.0f;
        for (int v = 0; v < count; v++) {
            float ex = polygon[3 * v] - polygon[3 * deepest];
            float ey = polygon[3 * v + 1] - polygon[3 * deepest + 1];
            float ez = polygon[3 * v + 2] - polygon[3 * deepest + 2];
            float d = ex * ex + ey * ey + ez * ez;
            if (v != deepest && d > farthest) {
                farthest = d;
                far = v;
            }
        }
        chosen[deepest] = true;
        chosen[far] = true;
        int left = -1;
        int right = -1;
        float most = 0.0f;
        float least = 0.0f;
        for (int v = 0; v < count; v++) {
            if (chosen[v]) {
                continue;
            }
            float area = signedArea(deepest, far, v, nx, ny, nz);
            if (left < 0 || area > most) {
                left = v;
                most = area;
            }
        }
        chosen[left] = true;
        for (int v = 0; v < count; v++) {
            if (chosen[v]) {
                continue;
            }
            float area = signedArea(deepest, far, v, nx, ny, nz);
            if (right < 0 || area < least) {
                right = v;
                least = area;
            }
        }
        chosen[right] = true;
    }

    /** Twice the area of triangle {@code (p, q, r)} seen along the normal, signed by its turn. */
    private float signedArea(int p, int q, int r, float nx, float ny, float nz) {
        float ux = polygon[3 * q] - polygon[3 * p];
        float uy = polygon[3 * q + 1] - polygon[3 * p + 1];
        float uz = polygon[3 * q + 2] - polygon[3 * p + 2];
        float vx = polygon[3 * r] - polygon[3 * p];
        float vy = polygon[3 * r + 1] - polygon[3 * p + 1];
        float vz = polygon[3 * r + 2] - polygon[3 * p + 2];
        return (uy * vz - uz * vy) * nx + (uz * vx - ux * vz) * ny + (ux * vy - uy * vx) * nz;
    }

    private static float dot(float[] u, int at, float[] v, int from) {
        return u[at] * v[from] + u[at + 1] * v[from + 1] + u[at + 2] * v[from + 2];
    }

    private void add(ContactBatch dest, int a, int b, float px, float py, float pz, float nx, float ny, float nz,
            float separation, int feature) {
        // the points of one pair are one manifold, a new one every MAX_MANIFOLD_POINTS points
        if (a != manifoldA || b != manifoldB || manifoldPoints == ContactBatch.MAX_MANIFOLD_POINTS) {
            manifoldNumber++;
            manifoldPoints = 0;
            manifoldA = a;
            manifoldB = b;
        }
        manifoldPoints++;
        int c = dest.add(a, b, px, py, pz, nx, ny, nz, RESTITUTION);
        dest.setManifold(c, manifoldNumber);
        dest.setSeparation(c, separation);
        dest.setFriction(c, friction);
        dest.setRollingResistance(c, ROLLING_RESISTANCE);
        dest.setId(c, ids.idOf(ContactIds.key(a, b, feature)));
    }
}
