package io.fulcrum.sample;

/**
 * A converter keyword: its name, arguments, input and output types, and the code that transforms a
 * sample in place. Subsystems register theirs in the {@link SampleCatalog}.
 *
 * @param out the output type, or {@link SampleType#SAME} for "the input's type"
 */
public record Converter(String name, ArgSpec args, SampleType in, SampleType out, Function fn, Fetch.ArgCheck check) {

    /** Transforms {@code smp} (already cast to {@link #in}); false when there is no result. */
    @FunctionalInterface
    public interface Function {
        boolean convert(Arg[] args, Sample smp, SampleContext ctx);
    }

    public Converter(String name, ArgSpec args, SampleType in, SampleType out, Function fn) {
        this(name, args, in, out, fn, null);
    }
}
