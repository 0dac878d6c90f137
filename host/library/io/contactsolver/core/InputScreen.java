package io.contactsolver.core;

/**
 * What a device's screen of a batch found ({@code kernels/checks.cl}, the twin of
 * {@link InputValidator}'s screen, and of {@link ManifoldGrouping}'s of the manifolds' rules): the
 * bodies and the contacts the screen cannot clear, in no particular order (each then gets the
 * host's full check, and the lowest fault is thrown), the largest sum of each
 * {@link MagnitudeGroup} over the batch, and which friction coefficients the batch uses.
 *
 * @param bodies the suspect bodies, in the order the device listed them
 * @param contacts the suspect contacts, likewise
 * @param largest the largest sum of each group, {@link MagnitudeGroup} order
 * @param uses which coefficients some contact has above 0 (the validator's answer,
 *     {@link InputMagnitudes#frictionUse})
 */
public record InputScreen(int[] bodies, int[] contacts, float[] largest, FrictionUse uses) {
}
