package io.contactsolver.app;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/**
 * Options that only some modes of a command use (the iterative solver's iteration count, the soft
 * step's substeps): one given to a mode that ignores it is refused, as a usage error (exit 2, one
 * line naming the option and why), rather than dropped without a word.
 */
public final class ModeOptions {
    private ModeOptions() {
    }

    /**
     * Refuses the first of {@code options} given on the command line when the chosen mode does not
     * use them; an option left at its default is not "given".
     *
     * @param spec the command
     * @param used whether the chosen mode uses the options
     * @param mode the chosen mode, as the message names it ("--scheme two-solves")
     * @param usedBy the modes that use them ("--scheme soft-step")
     * @param options the options' names
     * @throws ParameterException naming the option, the mode that ignores it and the modes that use it
     */
    public static void refuseUnused(CommandSpec spec, boolean used, String mode, String usedBy, String... options) {
        if (used) {
            return;
        }
        for (String option : options) {
            if (spec.commandLine().getParseResult().hasMatchedOption(option)) {
                throw new ParameterException(spec.commandLine(), option + " does nothing with " + mode + ": it is for "
                        + usedBy + " only");
            }
        }
    }
}
