/*
 * The checks of a soft step on the device, so that the host reads only what they cannot clear:
 *
 *   screen_bodies     one work-item per body: InputValidator's screen of its fields
 *   screen_contacts   one work-item per contact: the same of a contact's fields and bodies,
 *                     ManifoldGrouping's screen of its manifold's rules, and which of friction,
 *                     rolling and torsional resistance some contact has (the validator's
 *                     InputMagnitudes.frictionUse, by atomic_or)
 *   first_non_finite  one work-item per element of a result: atomic_min of its index where a field
 *                     is not finite, into one slot of the step's first non-finite elements
 *                     (OverflowScan.java; the host then scans that result and names the element)
 *   first_unsound_orientation  one work-item per body of a result: atomic_min of its index where the
 *                     screen cannot clear its orientation as a unit quaternion (the host then
 *                     checks the norms in double and names the body)
 *
 * The screens are InputValidator.screenBodies and screenContacts a record at a time: the same
 * float sums in the same field order (the sum of every field, finite only if every field is; the
 * squared norm of the orientation or normal; each MagnitudeGroup's sum of magnitudes), the same
 * predicates, so a record the host's screen would send to the full check is sent to it here too,
 * and the host checks it (InputValidator.validateScreened). The manifolds' rules: each point against
 * the first of its run, where the host compares each point with the one before it
 * (ManifoldGrouping.markSuspects); both send the lowest point of a run that breaks a rule. A suspect's index goes into a list at
 * a place an atomic counter gives (the host checks them all and names the lowest fault, so the
 * list's order does not matter); each group's largest sum into
 * largest[GROUP_*] as float bits by atomic_max (non-negative floats order like their bits; a NaN,
 * which only a record the full check refuses can hold, is passed over as the host passes it over).
 *
 * Layout: bodies, contacts and results structure of arrays, field f of element i at f * stride + i;
 * links LINK_A and LINK_B likewise. Every index kept or listed is the same whatever order the
 * work-items run in.
 */

/*
 * A group's sum into largest[group] where it is the largest so far (NaN passed over). A plain read
 * first spares the atomic where the sum is not above what is there already (it only grows), so a
 * batch of similar records does not queue every work-item on the same word.
 */
void keep_largest(__global int* largest, const int group, const float sum)
{
    if (sum == sum && as_int(sum) > largest[group]) {
        atomic_max(&largest[group], as_int(sum));
    }
}

/* Lists record i as one the full check must see. */
void list_suspect(__global int* suspects, __global int* suspectCount, const int i)
{
    suspects[atomic_inc(&suspectCount[0])] = i;
}

__kernel void screen_bodies(__global const float* bodies, const int stride, const int count,
                            __global int* suspects, __global int* suspectCount, __global int* largest)
{
    const int i = get_global_id(0);
    if (i >= count) {
        return;
    }
    float sum = 0.0f;
    float norm = 0.0f;
    float position = 0.0f;
    float inverseMass = 0.0f;
    float inverseInertia = 0.0f;
    float linear = 0.0f;
    float angular = 0.0f;
    int suspect = 0;
    for (int f = 0; f < BODY_COUNT; f++) {
        const float value = bodies[f * stride + i];
        sum += value;
        if (f == BODY_X) {
            position = fabs(value);
        } else if (f == BODY_Y || f == BODY_Z) {
            position += fabs(value);
        } else if (f == BODY_QW || f == BODY_QX || f == BODY_QY || f == BODY_QZ) {
            norm += value * value;
        } else if (f == BODY_VX) {
            linear = fabs(value);
        } else if (f == BODY_VY || f == BODY_VZ) {
            linear += fabs(value);
        } else if (f == BODY_WX) {
            angular = fabs(value);
        } else if (f == BODY_WY || f == BODY_WZ) {
            angular += fabs(value);
        } else if (f == BODY_INV_MASS) {
            suspect |= value < 0.0f;
            inverseMass = fabs(value);
        } else if (f == BODY_INV_IXX) {
            suspect |= value < 0.0f;
            inverseInertia = fabs(value);
        } else if (f == BODY_INV_IYY || f == BODY_INV_IZZ) {
            suspect |= value < 0.0f;
            inverseInertia += fabs(value);
        } else if (f == BODY_INV_IXY || f == BODY_INV_IXZ || f == BODY_INV_IYZ) {
            /* off-diagonal terms need the full positive semi-definite check */
            suspect |= value != 0.0f;
            inverseInertia += fabs(value);
        }
    }
    keep_largest(largest, GROUP_POSITION, position);
    keep_largest(largest, GROUP_INVERSE_MASS, inverseMass);
    keep_largest(largest, GROUP_INVERSE_INERTIA, inverseInertia);
    keep_largest(largest, GROUP_LINEAR_VELOCITY, linear);
    keep_largest(largest, GROUP_ANGULAR_VELOCITY, angular);
    suspect |= !isfinite(sum) || !(norm >= SCREEN_NORM2_LOW && norm <= SCREEN_NORM2_HIGH);
    if (suspect) {
        list_suspect(suspects, suspectCount, i);
    }
}

/* ManifoldGrouping.startsRun: contact c has no manifold number, or another than the contact before. */
int starts_run(__global const int* manifolds, const int c)
{
    return c == 0 || manifolds[c] == MANIFOLD_NONE || manifolds[c] != manifolds[c - 1];
}

/*
 * ManifoldGrouping's screen of contact c: the first point of its run (c itself for a run's start),
 * or -1 where the run starts MANIFOLD_MAX_POINTS or more contacts back (a run too long: the full check
 * decides).
 */
int run_start(__global const int* manifolds, const int c)
{
    if (starts_run(manifolds, c)) {
        return c;
    }
    int first = c - 1;
    while (first > 0 && c - first < MANIFOLD_MAX_POINTS && !starts_run(manifolds, first)) {
        first--;
    }
    return starts_run(manifolds, first) && c - first < MANIFOLD_MAX_POINTS ? first : -1;
}

__kernel void screen_contacts(__global const float* contacts, __global const int* links,
                              __global const int* manifolds, const int stride, const int count,
                              const int bodyCount, __global int* suspects, __global int* suspectCount,
                              __global int* largest, __global int* uses)
{
    const int c = get_global_id(0);
    if (c >= count) {
        return;
    }
    float sum = 0.0f;
    float norm = 0.0f;
    float point = 0.0f;
    /* a point after its run's first shares the first's bodies and MANIFOLD_SHARED_FIELDS, bit for bit */
    const int first = run_start(manifolds, c);
    int suspect = first < 0;
    int used = 0;
    for (int f = 0; f < CONTACT_COUNT; f++) {
        const float value = contacts[f * stride + c];
        if (first >= 0 && ((MANIFOLD_SHARED_FIELDS >> f) & 1)) {
            suspect |= as_int(value) != as_int(contacts[f * stride + first]);
        }
        sum += value;
        if (f == CONTACT_PX) {
            point = fabs(value);
        } else if (f == CONTACT_PY || f == CONTACT_PZ) {
            point += fabs(value);
        } else if (f == CONTACT_NX || f == CONTACT_NY || f == CONTACT_NZ) {
            norm += value * value;
        } else if (f == CONTACT_RESTITUTION) {
            suspect |= !(value >= 0.0f && value <= 1.0f);
        } else if (f == CONTACT_FRICTION || f == CONTACT_ROLLING_RESISTANCE || f == CONTACT_TORSION) {
            suspect |= !(value >= 0.0f);
            if (value > 0.0f) {
                used |= f == CONTACT_FRICTION ? USE_FRICTION : f == CONTACT_ROLLING_RESISTANCE ? USE_ROLLING
                        : USE_TORSION;
            }
        }
    }
    keep_largest(largest, GROUP_CONTACT_POINT, point);
    /* the friction use: which coefficients some contact has above 0 (a plain read spares the atomic) */
    if ((used & ~uses[0]) != 0) {
        atomic_or(&uses[0], used);
    }
    const int a = links[LINK_A * stride + c];
    const int b = links[LINK_B * stride + c];
    suspect |= a < -1 || a >= bodyCount || b < -1 || b >= bodyCount || a == b || !isfinite(sum)
               || !(norm >= SCREEN_LENGTH2_LOW && norm <= SCREEN_LENGTH2_HIGH);
    if (first >= 0) {
        suspect |= a != links[LINK_A * stride + first] || b != links[LINK_B * stride + first];
    }
    if (suspect) {
        list_suspect(suspects, suspectCount, c);
    }
}


/* OverflowScan.firstNonFinite: element i of `count` (fields of stride `stride`), its index into first[slot] by atomic_min where a field is not finite. */
__kernel void first_non_finite(__global const float* values, const int count, const int stride, const int fields,
                               __global int* first, const int slot)
{
    const int i = get_global_id(0);
    if (i >= count) {
        return;
    }
    for (int f = 0; f < fields; f++) {
        if (!isfinite(values[f * stride + i])) {
            atomic_min(&first[slot], i);
            return;
        }
    }
}

/*
 * OverflowScan.requireSoundBodies's screen: body i of `count` (fields of stride `stride`, BODY_QW to BODY_QZ
 * as in the bodies), its index into first[slot] by atomic_min where the squared norm of its
 * orientation, summed in float in field order, is not inside [SCREEN_NORM2_LOW, SCREEN_NORM2_HIGH]
 * (a NaN is not): the bounds InputValidator's screen clears a unit quaternion by, so an orientation
 * cleared here passes the host's check in double.
 */
__kernel void first_unsound_orientation(__global const float* values, const int count, const int stride,
                                        __global int* first, const int slot)
{
    const int i = get_global_id(0);
    if (i >= count) {
        return;
    }
    const float qw = values[BODY_QW * stride + i];
    const float qx = values[BODY_QX * stride + i];
    const float qy = values[BODY_QY * stride + i];
    const float qz = values[BODY_QZ * stride + i];
    float norm = 0.0f;
    norm += qw * qw;
    norm += qx * qx;
    norm += qy * qy;
    norm += qz * qz;
    if (!(norm >= SCREEN_NORM2_LOW && norm <= SCREEN_NORM2_HIGH)) {
        atomic_min(&first[slot], i);
    }
}
