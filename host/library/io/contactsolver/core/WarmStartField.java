package io.contactsolver.core;

/**
 * A soft-step manifold row's warm start worked out ahead, in storage order: the change of body a's
 * velocity and spin (subtracted), then body b's (added), from the row's accumulated impulses
 * (docs/physics.md, "Soft step", step 2). Worked out where the impulses are final (the row
 * prepared, or a substep's last sweep), so that the warm start reads these 12 floats a row rather
 * than the whole row and its points. Together per row on the CPU, structure of arrays on a device.
 */
public enum WarmStartField {
    VAX, VAY, VAZ,
    WAX, WAY, WAZ,
    VBX, VBY, VBZ,
    WBX, WBY, WBZ;

    public static final int COUNT = values().length;
}
