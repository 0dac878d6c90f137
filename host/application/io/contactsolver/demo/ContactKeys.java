package io.contactsolver.demo;

import io.contactsolver.ContactIds;

/**
 * The demo's keys for {@link ContactIds}: a sphere touches another sphere or a wall at one point,
 * so a contact is named by the pair alone, the particle in the high half of the key and its partner
 * in the low half: the other particle (the higher index of the pair) or {@code -1 - wall}. These
 * keys are not those of {@link ContactIds#key}, and one table must not mix the two.
 */
final class ContactKeys {
    private ContactKeys() {
    }

    /** The key of the contact between particles {@code a} and {@code b}, {@code a < b}. */
    static long pairKey(int a, int b) {
        return ((long) a << 32) | (b & 0xFFFF_FFFFL);
    }

    /** The key of the contact between particle {@code particle} and {@code wall}. */
    static long wallKey(int particle, Wall wall) {
        return pairKey(particle, -1 - wall.ordinal());
    }
}
