package io.contactsolver.core;

/**
 * The iterative solver's per-body state: the velocity change accumulated so far, array of
 * structures, padded to eight floats (32 bytes) so each record is one aligned GPU sector. The
 * record after the last body stands for the world and every immovable body: read as zero, never
 * written.
 */
public enum StateField {
    DVX, DVY, DVZ, PAD_V,
    DWX, DWY, DWZ, PAD_W;

    /** Floats per record. */
    public static final int STRIDE = values().length;
}
