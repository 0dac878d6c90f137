package io.contactsolver.app;

import io.contactsolver.Quoting;
import io.contactsolver.SolverConfig;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Reads {@code --threads N}: a whole number from 1 to {@link SolverConfig#MAX_THREADS}, else a usage error. */
public final class ThreadCount implements ITypeConverter<Integer> {
    @Override
    public Integer convert(String value) {
        int threads;
        try {
            threads = Integer.parseInt(value.strip());
        } catch (NumberFormatException e) {
            threads = 0;
        }
        if (threads < 1 || threads > SolverConfig.MAX_THREADS) {
            throw new TypeConversionException("must be a whole number from 1 to " + SolverConfig.MAX_THREADS + ", got '"
                    + Quoting.field(value) + "'");
        }
        return threads;
    }
}
