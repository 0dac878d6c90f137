package io.contactsolver.core;

/**
 * What a device's screen of a batch found ({@code kernels/checks.cl}, the twin of
 * {@link InputValidator}'s screen): the bodies and the contacts the screen cannot clear, in
 * increasing index (each then gets the host's full check), and the largest sum of each
 * {@link MagnitudeGroup} over the batch.
 *
 * @param bodies the suspect bodies, ascending
 * @param contacts the suspect contacts, ascending
 * @param largest the largest sum of each group, {@link MagnitudeGroup} order
 */
public record InputScreen(int[] bodies, int[] contacts, float[] largest) {
}
