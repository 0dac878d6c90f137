package io.contactsolver.core;

import io.contactsolver.layout.BodyField;
import io.contactsolver.layout.ContactBody;
import io.contactsolver.layout.ContactField;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.util.Arrays;
import java.util.List;

/**
 * The checks every solve runs on the host before anything is computed or reaches a device.
 *
 * <p>Reports the fault with the lowest body index, else the one with the lowest contact index, so
 * the message does not depend on how the parallel scan was split. Body references are checked
 * here, which is what makes it safe for the kernels to index with them unchecked.
 */
public final class InputValidator {
    /** Largest accepted deviation of an orientation's norm from 1. */
    public static final double QUATERNION_TOLERANCE = 1e-4;
    /** Largest accepted deviation of a normal's length from 1. */
    public static final double NORMAL_TOLERANCE = 1e-3;
    /** Relative slack for the principal minors of a positive semi-definite inverse inertia. */
    public static final double PSD_TOLERANCE = 1e-5;

    private static final int GRAIN = 1 << 14;
    private static final BodyField[] BODY_FIELDS = BodyField.values();
    private static final ContactField[] CONTACT_FIELDS = ContactField.values();
    /** The columns of {@link FrictionUse}'s bits, in their order. */
    private static final ContactField[] FRICTION_COLUMNS = {ContactField.FRICTION, ContactField.ROLLING_RESISTANCE,
        ContactField.TORSION};
    private static final int[] FRICTION_BITS = {FrictionUse.FRICTION_BIT, FrictionUse.ROLLING_BIT,
        FrictionUse.TORSION_BIT};
    /** Each contact field's place in {@link #FRICTION_COLUMNS}, by ordinal (-1 for the others). */
    private static final int[] FRICTION_COLUMN_OF = new int[ContactField.COUNT];

    static {
        Arrays.fill(FRICTION_COLUMN_OF, -1);
        for (int column = 0; column < FRICTION_COLUMNS.length; column++) {
            FRICTION_COLUMN_OF[FRICTION_COLUMNS[column].ordinal()] = column;
        }
    }
    private static final List<String> ORIENTATION = columns(BodyField.QW, BodyField.QX, BodyField.QY, BodyField.QZ);
    private static final List<String> INERTIA = columns(BodyField.INV_IXX, BodyField.INV_IYY, BodyField.INV_IZZ,
            BodyField.INV_IXY, BodyField.INV_IXZ, BodyField.INV_IYZ);
    private static final List<String> NORMAL = List.of(ContactField.NX.column(), ContactField.NY.column(),
            ContactField.NZ.column());
    private static final List<String> BOTH_BODIES = List.of(ContactBody.A.column(), ContactBody.B.column());

    private InputValidator() {
    }

    /**
     * Throws {@link InputFault} for the first faulty body, else the first faulty contact, else the
     * first contact that breaks its manifold's rules ({@link ManifoldGrouping#check}, screened with
     * the rest of each contact while its columns are at hand); returns bounds on the batch's
     * magnitudes, which the screen gathers on the way.
     *
     * @param manifoldNumbers each contact's manifold number, or null where every contact is alone
     *     (none has a number), so that no manifold has rules to break
     */
    public static InputMagnitudes validate(FieldBlock bodies, int bodyCount, FieldBlock contacts, FieldBlock links,
            int contactCount, int[] manifoldNumbers, ParallelRunner runner) {
        FirstFault firstOfBodies = new FirstFault();
        FirstFault firstOfContacts = new FirstFault();
        FirstFault firstOfRules = new FirstFault();
        Largest largest = new Largest();
        // one loop over the bodies, then the contacts, as one range of indices: a contact's checks do
        // not read its bodies' records, so both are screened at once, and a step's first loop wakes
        // the helpers once
        runner.forRange(bodyCount + contactCount, GRAIN, (from, to) -> {
            Slices s = SLICES.get();
            s.clearLargest();
            int bodiesTo = Math.min(to, bodyCount);
            for (int start = from; start < bodiesTo; start += SLICE) {
                int n = Math.min(SLICE, bodiesTo - start);
                screenBodies(bodies, start, n, s);
                for (int i = 0; i < n; i++) {
                    InputFault fault = s.suspect[i] ? checkBody(bodies.floats(), bodies.stride(), start + i)
                            : null;
                    if (fault != null) {
                        firstOfBodies.offer(fault);
                        return; // a body's fault comes before any contact's
                    }
                }
            }
            int contactsTo = to - bodyCount;
            boolean rulesBroken = false; // in this range: later contacts are higher
            for (int start = Math.max(from - bodyCount, 0); start < contactsTo; start += SLICE) {
                int n = Math.min(SLICE, contactsTo - start);
                screenContacts(contacts, links, bodyCount, manifoldNumbers, start, n, s);
                for (int i = 0; i < n; i++) {
                    InputFault fault = s.suspect[i] ? checkContact(contacts.floats(), contacts.stride(),
                            links.ints(), links.stride(), start + i, bodyCount) : null;
                    if (fault != null) {
                        firstOfContacts.offer(fault);
                        return;
                    }
                }
                for (int i = 0; i < n && manifoldNumbers != null && !rulesBroken; i++) {
                    InputFault fault = s.ruleSuspect[i]
                            ? ManifoldGrouping.check(manifoldNumbers, contacts, links, start + i) : null;
                    if (fault != null) {
                        firstOfRules.offer(fault);
                        rulesBroken = true;
                    }
                }
            }
            largest.merge(s);
        });
        firstOfBodies.throwIfAny();
        firstOfContacts.throwIfAny();
        firstOfRules.throwIfAny();
        return largest.magnitudes();
    }

    /**
     * {@link #validate} where a device has screened the batch ({@link InputScreen}): the full check
     * of every suspect body, then of every suspect contact, on {@code runner}, the lowest index's
     * fault thrown, and the screen's magnitudes. The same fault, the same magnitudes.
     */
    public static InputMagnitudes validateScreened(FieldBlock bodies, FieldBlock contacts, FieldBlock links,
            int bodyCount, InputScreen screen, ParallelRunner runner) {
        FirstFault first = new FirstFault();
        int[] suspectBodies = screen.bodies();
        runner.forRange(suspectBodies.length, GRAIN, (from, to) -> {
            for (int k = from; k < to; k++) {
                InputFault fault = checkBody(bodies.floats(), bodies.stride(), suspectBodies[k]);
                if (fault != null) {
                    first.offer(fault);
                }
            }
        });
        first.throwIfAny();
        int[] suspectContacts = screen.contacts();
        runner.forRange(suspectContacts.length, GRAIN, (from, to) -> {
            for (int k = from; k < to; k++) {
                InputFault fault = checkContact(contacts.floats(), contacts.stride(), links.ints(), links.stride(),
                        suspectContacts[k], bodyCount);
                if (fault != null) {
                    first.offer(fault);
                }
            }
        });
        first.throwIfAny();
        return magnitudes(screen.largest(), screen.uses());
    }

    /**
     * The magnitudes of each group's largest sum, {@code largest} in {@link MagnitudeGroup} order,
     * and the batch's use of the friction coefficients.
     */
    private static InputMagnitudes magnitudes(float[] largest, FrictionUse uses) {
        return new InputMagnitudes(largest[CONTACT_POINT], largest[POSITION], largest[INVERSE_MASS],
                largest[INVERSE_INERTIA], largest[LINEAR_VELOCITY], largest[ANGULAR_VELOCITY], uses);
    }

    // The fast screen: columns copied out in slices and tested in straight loops the JIT can
    // vectorise. It may send a valid record to the full check (which then accepts it) but never
    // passes an invalid one: a sum of floats is finite only if every term is, and the squared-norm
    // bounds sit inside the tolerances by more than float rounding.
    private static final int SLICE = 1024;
    public static final float NORM2_LOW = (float) ((1.0 - QUATERNION_TOLERANCE) * (1.0 - QUATERNION_TOLERANCE)) + 1e-6f;
    public static final float NORM2_HIGH = (float) ((1.0 + QUATERNION_TOLERANCE) * (1.0 + QUATERNION_TOLERANCE)) - 1e-6f;

    /**
     * Whether the screen clears a quaternion whose squared norm, summed in float, is {@code norm2}:
     * inside {@link #NORM2_LOW} to {@link #NORM2_HIGH}, so that its norm in double is within
     * tolerance ({@link #isUnitNorm}); a NaN is not cleared.
     */
    public static boolean screensUnit(float norm2) {
        return norm2 >= NORM2_LOW && norm2 <= NORM2_HIGH;
    }
    public static final float LENGTH2_LOW = (float) ((1.0 - NORMAL_TOLERANCE) * (1.0 - NORMAL_TOLERANCE)) + 1e-6f;
    public static final float LENGTH2_HIGH = (float) ((1.0 + NORMAL_TOLERANCE) * (1.0 + NORMAL_TOLERANCE)) - 1e-6f;
    private static final ThreadLocal<Slices> SLICES = ThreadLocal.withInitial(Slices::new);

    private static final int CONTACT_POINT = MagnitudeGroup.CONTACT_POINT.ordinal();
    private static final int POSITION = MagnitudeGroup.POSITION.ordinal();
    private static final int INVERSE_MASS = MagnitudeGroup.INVERSE_MASS.ordinal();
    private static final int INVERSE_INERTIA = MagnitudeGroup.INVERSE_INERTIA.ordinal();
    private static final int LINEAR_VELOCITY = MagnitudeGroup.LINEAR_VELOCITY.ordinal();
    private static final int ANGULAR_VELOCITY = MagnitudeGroup.ANGULAR_VELOCITY.ordinal();
    private static final int GROUPS = MagnitudeGroup.COUNT;

    /** Per-thread scratch for the screen. */
    private static final class Slices {
        final float[] column = new float[SLICE];
        final float[] sum = new float[SLICE];
        final float[] norm = new float[SLICE];
        final int[] a = new int[SLICE];
        final int[] b = new int[SLICE];
        final boolean[] suspect = new boolean[SLICE];
        /** Each contact's least coefficient (restitution, friction, rolling and torsional resistance), and its restitution. */
        final float[] lowest = new float[SLICE];
        final float[] restitution = new float[SLICE];
        /** Contacts the manifold rules' screen cannot clear ({@link ManifoldGrouping#markSuspects}), and its scratch. */
        final boolean[] ruleSuspect = new boolean[SLICE];
        final int[] join = new int[SLICE + ManifoldGrouping.BEFORE];
        final int[] differ = new int[SLICE];
        final int[] bits = new int[SLICE + 1];
        // Per group, each record's sum of its fields' magnitudes (set by the group's first column),
        // and the largest sum each slot has held in this range; reduced to one number a group only
        // when the range ends. A sum bounds each of its terms, and element-by-element loops
        // vectorise where a running maximum down each column would not.
        final float[][] magnitude = new float[GROUPS][SLICE];
        final float[][] largest = new float[GROUPS][SLICE];
        /** Friction, rolling and torsion: the largest coefficient each slot has held in this range. */
        final float[][] coefficient = new float[FRICTION_COLUMNS.length][SLICE];

        void clearLargest() {
            for (float[] group : largest) {
                Arrays.fill(group, 0.0f);
            }
            for (float[] column : coefficient) {
                Arrays.fill(column, 0.0f);
            }
        }

        void keepLargest(int group, int n) {
            float[] sums = magnitude[group];
            float[] kept = largest[group];
            for (int i = 0; i < n; i++) {
                kept[i] = Math.max(kept[i], sums[i]);
            }
        }

        void clear(int n) {
            Arrays.fill(sum, 0, n, 0.0f);
            Arrays.fill(norm, 0, n, 0.0f);
            Arrays.fill(suspect, 0, n, false);
        }
    }

    /** Marks in {@code s.suspect} the bodies of {@code [start, start + n)} the screen cannot clear. */
    private static void screenBodies(FieldBlock bodies, int start, int n, Slices s) {
        s.clear(n);
        for (BodyField field : BODY_FIELDS) {
            column(bodies, field.ordinal(), start, n, s.column);
            addTo(s.sum, s.column, n);
            switch (field) {
                case X -> setMagnitudes(s.magnitude[POSITION], s.column, n);
                case Y, Z -> addMagnitudesTo(s.magnitude[POSITION], s.column, n);
                case QW, QX, QY, QZ -> addSquaresTo(s.norm, s.column, n);
                case VX -> setMagnitudes(s.magnitude[LINEAR_VELOCITY], s.column, n);
                case VY, VZ -> addMagnitudesTo(s.magnitude[LINEAR_VELOCITY], s.column, n);
                case WX -> setMagnitudes(s.magnitude[ANGULAR_VELOCITY], s.column, n);
                case WY, WZ -> addMagnitudesTo(s.magnitude[ANGULAR_VELOCITY], s.column, n);
                case INV_MASS -> {
                    flagNegative(s, n);
                    setMagnitudes(s.magnitude[INVERSE_MASS], s.column, n);
                }
                case INV_IXX -> {
                    flagNegative(s, n);
                    setMagnitudes(s.magnitude[INVERSE_INERTIA], s.column, n);
                }
                case INV_IYY, INV_IZZ -> {
                    flagNegative(s, n);
                    addMagnitudesTo(s.magnitude[INVERSE_INERTIA], s.column, n);
                }
                case INV_IXY, INV_IXZ, INV_IYZ -> {
                    // off-diagonal terms need the full positive semi-definite check
                    for (int i = 0; i < n; i++) {
                        s.suspect[i] |= s.column[i] != 0.0f;
                    }
                    addMagnitudesTo(s.magnitude[INVERSE_INERTIA], s.column, n);
                }
            }
        }
        s.keepLargest(POSITION, n);
        s.keepLargest(INVERSE_MASS, n);
        s.keepLargest(INVERSE_INERTIA, n);
        s.keepLargest(LINEAR_VELOCITY, n);
        s.keepLargest(ANGULAR_VELOCITY, n);
        for (int i = 0; i < n; i++) {
            s.suspect[i] |= !Float.isFinite(s.sum[i]) || !screensUnit(s.norm[i]);
        }
    }

    /**
     * Marks in {@code s.suspect} the contacts of {@code [start, start + n)} the screen cannot clear,
     * and in {@code s.ruleSuspect} those whose manifold's rules it cannot (where
     * {@code manifoldNumbers} is not null): the shared fields compared as their columns pass.
     */
    private static void screenContacts(FieldBlock contacts, FieldBlock links, int bodyCount, int[] manifoldNumbers,
            int start, int n, Slices s) {
        s.clear(n);
        Arrays.fill(s.lowest, 0, n, Float.POSITIVE_INFINITY);
        boolean rules = manifoldNumbers != null;
        if (rules) {
            Arrays.fill(s.differ, 0, n, 0);
        }
        for (ContactField field : CONTACT_FIELDS) {
            column(contacts, field.ordinal(), start, n, s.column);
            if (rules && ManifoldGrouping.isShared(field)) {
                // its bits, read again while they are in cache
                ManifoldGrouping.differences(contacts.ints(), field.ordinal() * contacts.stride(), start, n, s.bits,
                        s.differ);
            }
            addTo(s.sum, s.column, n);
            switch (field) {
                case PX -> setMagnitudes(s.magnitude[CONTACT_POINT], s.column, n);
                case PY, PZ -> addMagnitudesTo(s.magnitude[CONTACT_POINT], s.column, n);
                case NX, NY, NZ -> addSquaresTo(s.norm, s.column, n);
                case RESTITUTION -> {
                    System.arraycopy(s.column, 0, s.restitution, 0, n);
                    lowerTo(s.lowest, s.column, n);
                }
                case FRICTION, ROLLING_RESISTANCE, TORSION -> {
                    lowerTo(s.lowest, s.column, n);
                    raiseTo(s.coefficient[frictionColumn(field)], s.column, n);
                }
                default -> { }
            }
        }
        s.keepLargest(CONTACT_POINT, n);
        int baseA = ContactBody.A.ordinal() * links.stride();
        int baseB = ContactBody.B.ordinal() * links.stride();
        links.ints().get(baseA + start, s.a, 0, n);
        links.ints().get(baseB + start, s.b, 0, n);
        if (rules) {
            ManifoldGrouping.differences(links.ints(), baseA, start, n, s.bits, s.differ);
            ManifoldGrouping.differences(links.ints(), baseB, start, n, s.bits, s.differ);
            ManifoldGrouping.joins(manifoldNumbers, start, n, s.join);
            ManifoldGrouping.markSuspects(s.join, s.differ, n, s.ruleSuspect);
        }
        for (int i = 0; i < n; i++) {
            int a = s.a[i];
            int b = s.b[i];
            // the coefficients: restitution in [0, 1], the others not negative (nor NaN: a NaN's
            // minimum is NaN)
            s.suspect[i] |= a < -1 || a >= bodyCount || b < -1 || b >= bodyCount || a == b
                    || !Float.isFinite(s.sum[i]) || !(s.norm[i] >= LENGTH2_LOW && s.norm[i] <= LENGTH2_HIGH)
                    || !(s.lowest[i] >= 0.0f) || !(s.restitution[i] <= 1.0f);
        }
    }

    private static void flagNegative(Slices s, int n) {
        for (int i = 0; i < n; i++) {
            s.suspect[i] |= s.column[i] < 0.0f;
        }
    }

    /** {@code lowest[i] = min(lowest[i], column[i])}: a straight loop the JIT vectorises, where a test a column would not. */
    private static void lowerTo(float[] lowest, float[] column, int n) {
        for (int i = 0; i < n; i++) {
            lowest[i] = Math.min(lowest[i], column[i]);
        }
    }

    /** {@code highest[i] = max(highest[i], column[i])}, as {@link #lowerTo}. */
    private static void raiseTo(float[] highest, float[] column, int n) {
        for (int i = 0; i < n; i++) {
            highest[i] = Math.max(highest[i], column[i]);
        }
    }

    /** {@code field}'s place in {@link #FRICTION_COLUMNS}. */
    private static int frictionColumn(ContactField field) {
        return FRICTION_COLUMN_OF[field.ordinal()];
    }

    private static void setMagnitudes(float[] sum, float[] column, int n) {
        for (int i = 0; i < n; i++) {
            sum[i] = Math.abs(column[i]);
        }
    }

    private static void addMagnitudesTo(float[] sum, float[] column, int n) {
        for (int i = 0; i < n; i++) {
            sum[i] += Math.abs(column[i]);
        }
    }

    private static void column(FieldBlock block, int field, int start, int n, float[] dest) {
        block.floats().get(field * block.stride() + start, dest, 0, n);
    }

    private static void addTo(float[] sum, float[] column, int n) {
        for (int i = 0; i < n; i++) {
            sum[i] += column[i];
        }
    }

    private static void addSquaresTo(float[] sum, float[] column, int n) {
        for (int i = 0; i < n; i++) {
            sum[i] += column[i] * column[i];
        }
    }

    static InputFault checkBody(FloatBuffer f, int stride, int i) {
        for (BodyField field : BODY_FIELDS) {
            float value = f.get(field.ordinal() * stride + i);
            if (!Float.isFinite(value)) {
                return InputFault.body(i, List.of(field.column()), "value " + value + " is not finite");
            }
        }
        float inverseMass = f.get(BodyField.INV_MASS.ordinal() * stride + i);
        if (inverseMass < 0.0f) {
            return InputFault.body(i, List.of(BodyField.INV_MASS.column()),
                    "inverse mass " + inverseMass + " is negative");
        }
        double norm = orientationNorm(f, stride, i);
        if (!isUnitNorm(norm)) {
            return InputFault.body(i, ORIENTATION,
                    "orientation is not a unit quaternion (norm " + norm + ", tolerance " + QUATERNION_TOLERANCE + ")");
        }
        String inertiaProblem = positiveSemiDefiniteProblem(
                get(f, stride, BodyField.INV_IXX, i), get(f, stride, BodyField.INV_IYY, i),
                get(f, stride, BodyField.INV_IZZ, i), get(f, stride, BodyField.INV_IXY, i),
                get(f, stride, BodyField.INV_IXZ, i), get(f, stride, BodyField.INV_IYZ, i));
        if (inertiaProblem != null) {
            return InputFault.body(i, INERTIA, "inverse inertia is not positive semi-definite: " + inertiaProblem);
        }
        return null;
    }

    static InputFault checkContact(FloatBuffer f, int stride, IntBuffer links, int linkStride, int c,
            int bodyCount) {
        int a = links.get(ContactBody.A.ordinal() * linkStride + c);
        int b = links.get(ContactBody.B.ordinal() * linkStride + c);
        for (ContactBody side : ContactBody.values()) {
            int body = side == ContactBody.A ? a : b;
            if (body < -1 || body >= bodyCount) {
                return InputFault.contact(c, List.of(side.column()),
                        "body index " + body + " is outside [-1, " + bodyCount + ")");
            }
        }
        if (a == b) {
            return InputFault.contact(c, BOTH_BODIES, a == -1
                    ? "both bodies are the world (-1)"
                    : "a and b are the same body (" + a + ")");
        }
        for (ContactField field : CONTACT_FIELDS) {
            float value = f.get(field.ordinal() * stride + c);
            if (!Float.isFinite(value)) {
                return InputFault.contact(c, List.of(field.column()), "value " + value + " is not finite");
            }
        }
        double nx = f.get(ContactField.NX.ordinal() * stride + c);
        double ny = f.get(ContactField.NY.ordinal() * stride + c);
        double nz = f.get(ContactField.NZ.ordinal() * stride + c);
        double length = Math.sqrt(nx * nx + ny * ny + nz * nz);
        if (Math.abs(length - 1.0) > NORMAL_TOLERANCE) {
            return InputFault.contact(c, NORMAL,
                    "normal is not unit length (length " + length + ", tolerance " + NORMAL_TOLERANCE + ")");
        }
        float restitution = f.get(ContactField.RESTITUTION.ordinal() * stride + c);
        if (!(restitution >= 0.0f && restitution <= 1.0f)) {
            return InputFault.contact(c, List.of(ContactField.RESTITUTION.column()),
                    "restitution " + restitution + " is outside [0, 1]");
        }
        for (ContactField field : new ContactField[] {ContactField.FRICTION, ContactField.ROLLING_RESISTANCE,
                ContactField.TORSION}) {
            float value = f.get(field.ordinal() * stride + c);
            if (!(value >= 0.0f)) {
                return InputFault.contact(c, List.of(field.column()), field.column().replace('_', ' ') + " "
                        + value + " is negative");
            }
        }
        return null;
    }

    /**
     * Null if the symmetric matrix is positive semi-definite, else what fails. A symmetric matrix is
     * PSD exactly when all its principal minors (not only the leading ones) are non-negative; each
     * is allowed a slack relative to the matrix's scale, for tensors rotated in float precision.
     */
    static String positiveSemiDefiniteProblem(double xx, double yy, double zz, double xy, double xz, double yz) {
        double scale = Math.max(Math.max(Math.max(Math.abs(xx), Math.abs(yy)), Math.max(Math.abs(zz), Math.abs(xy))),
                Math.max(Math.abs(xz), Math.abs(yz)));
        if (scale == 0.0) {
            return null;
        }
        double slack = PSD_TOLERANCE * scale;
        if (xx < -slack || yy < -slack || zz < -slack) {
            return "negative diagonal entry";
        }
        double slack2 = slack * scale;
        if (xx * yy - xy * xy < -slack2 || xx * zz - xz * xz < -slack2 || yy * zz - yz * yz < -slack2) {
            return "negative 2x2 principal minor";
        }
        double det = xx * (yy * zz - yz * yz) - xy * (xy * zz - yz * xz) + xz * (xy * yz - yy * xz);
        if (det < -slack2 * scale) {
            return "negative determinant";
        }
        return null;
    }

    /** The norm of body {@code i}'s orientation quaternion, in double (bodies layout, stride {@code stride}). */
    public static double orientationNorm(FloatBuffer f, int stride, int i) {
        double qw = get(f, stride, BodyField.QW, i);
        double qx = get(f, stride, BodyField.QX, i);
        double qy = get(f, stride, BodyField.QY, i);
        double qz = get(f, stride, BodyField.QZ, i);
        return Math.sqrt(qw * qw + qx * qx + qy * qy + qz * qz);
    }

    /** Whether an orientation of this norm is a unit quaternion, within {@link #QUATERNION_TOLERANCE}. */
    public static boolean isUnitNorm(double norm) {
        return Math.abs(norm - 1.0) <= QUATERNION_TOLERANCE;
    }

    private static double get(FloatBuffer f, int stride, BodyField field, int i) {
        return f.get(field.ordinal() * stride + i);
    }

    private static List<String> columns(BodyField... fields) {
        String[] names = new String[fields.length];
        for (int i = 0; i < fields.length; i++) {
            names[i] = fields[i].column();
        }
        return List.of(names);
    }

    /** The largest sum of each group over the ranges screened whole. */
    private static final class Largest {
        private final float[] largest = new float[GROUPS];
        private int uses;

        /** Takes in what a range kept; a NaN is passed over (the checks refuse the record that holds it). */
        synchronized void merge(Slices s) {
            for (int group = 0; group < GROUPS; group++) {
                for (float value : s.largest[group]) {
                    largest[group] = value > largest[group] ? value : largest[group];
                }
            }
            for (int column = 0; column < FRICTION_COLUMNS.length; column++) {
                for (float value : s.coefficient[column]) {
                    uses |= value > 0.0f ? FRICTION_BITS[column] : 0;
                }
            }
        }

        synchronized InputMagnitudes magnitudes() {
            return InputValidator.magnitudes(largest, FrictionUse.ofBits(uses));
        }
    }
}
