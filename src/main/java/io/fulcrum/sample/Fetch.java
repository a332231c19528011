package io.fulcrum.sample;

import io.fulcrum.cfg.ConfigException;

import java.util.List;

/**
 * A sample fetch keyword: its name, arguments, output type, where its data comes from, and the code
 * that fills a sample. Subsystems register theirs in the {@link SampleCatalog}.
 *
 * @param source      where the data comes from, which decides where the fetch may be used
 * @param check       validates (and may compile) the parsed arguments at configuration time, or null
 * @param otherSource a second place the data may come from, or null: {@code hdr} reads the request's headers
 *                    in request rules and the response's in response rules
 * @param each        for fetches that have several values (every occurrence of a header...), visits them all;
 *                    ACLs match any of them, as in HAProxy. Null for single-valued fetches.
 */
public record Fetch(String name, ArgSpec args, SampleType out, Source source, Function fn, ArgCheck check, Source otherSource,
                    Each each) {

    /** Fills {@code out}; false when the sample does not exist (a missing header, no backend yet...). */
    @FunctionalInterface
    public interface Function {
        boolean fetch(Arg[] args, SampleContext ctx, Sample out);
    }

    /** A configuration-time check of a keyword's arguments; it may replace arguments by compiled ones. */
    @FunctionalInterface
    public interface ArgCheck {
        void check(Arg[] args) throws ConfigException;
    }

    /**
     * Visits each value of a multi-valued fetch in order, filling {@code out} and calling
     * {@code visitor} until it returns true.
     */
    @FunctionalInterface
    public interface Each {
        boolean each(Arg[] args, SampleContext ctx, Sample out, java.util.function.Predicate<Sample> visitor);
    }

    public Fetch(String name, ArgSpec args, SampleType out, Source source, Function fn) {
        this(name, args, out, source, fn, null, null, null);
    }

    public Fetch(String name, ArgSpec args, SampleType out, Source source, Function fn, ArgCheck check) {
        this(name, args, out, source, fn, check, null, null);
    }

    /** This fetch, visiting every value with {@code each} when an ACL matches it. */
    public Fetch withEach(Each e) {
        return new Fetch(name, args, out, source, fn, check, otherSource, e);
    }

    /** The same fetch under another name (HAProxy's deprecated aliases, such as {@code hdr_cnt} for {@code req.hdr_cnt}). */
    public Fetch named(String alias) {
        return new Fetch(alias, args, out, source, fn, check, otherSource, each);
    }

    /** The stages where this fetch can be used. */
    public int stages() {
        return otherSource == null ? source.stages() : source.stages() | otherSource.stages();
    }

    /** Where the data comes from, in HAProxy's words: "HTTP request headers,HTTP response headers" for hdr. */
    public String sourcesText() {
        return otherSource == null ? source.toString() : source + "," + otherSource;
    }

    public List<Source> sources() {
        return otherSource == null ? List.of(source) : List.of(source, otherSource);
    }
}
