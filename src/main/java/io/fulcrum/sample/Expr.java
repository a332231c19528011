package io.fulcrum.sample;

import java.util.List;

/**
 * A compiled sample expression: a fetch with its arguments, then converters with theirs
 * ({@code req.hdr(host),lower,map(hosts.map)}). Immutable and shared by every thread; evaluation
 * writes only into the caller's {@link Sample}.
 */
public final class Expr {

    /** One converter of the chain with its parsed arguments. */
    public record Step(Converter converter, Arg[] args) {
    }

    private final String text;
    private final Fetch fetch;
    private final Arg[] args;
    private final Step[] steps;

    Expr(String text, Fetch fetch, Arg[] args, List<Step> steps) {
        this.text = text;
        this.fetch = fetch;
        this.args = args;
        this.steps = steps.toArray(new Step[0]);
    }

    /** Fetches and converts into {@code out}; false when there is no sample. */
    public boolean eval(SampleContext ctx, Sample out) {
        return fetch.fn().fetch(args, ctx, out) && convert(ctx, out);
    }

    /**
     * Visits every value of the expression (several for a multi-valued fetch without an explicit
     * occurrence, each one converted) until {@code visitor} returns true; returns whether it did. A value the
     * converters fail on ends the visit, as in HAProxy's acl_exec_cond(): "X-B: !!, YQ==" never reaches YQ== in
     * {@code req.hdr(x-b),b64dec -m found}.
     */
    public boolean any(SampleContext ctx, Sample out, java.util.function.Predicate<Sample> visitor) {
        if (fetch.each() == null) {
            return eval(ctx, out) && visitor.test(out);
        }
        if (steps.length == 0) { // nothing can fail: no per-evaluation state to capture
            return fetch.each().each(args, ctx, out, visitor);
        }
        boolean[] failed = {false};
        boolean hit = fetch.each().each(args, ctx, out, s -> {
            failed[0] = !convert(ctx, s);
            return failed[0] || visitor.test(s);
        });
        return hit && !failed[0];
    }

    private boolean convert(SampleContext ctx, Sample out) {
        for (Step s : steps) {
            Converter c = s.converter();
            if (out.type() != c.in() && !out.cast(c.in())) {
                return false;
            }
            if (!c.fn().convert(s.args(), out, ctx)) {
                return false;
            }
        }
        return true;
    }

    /** Evaluates and casts to {@code type}; false when there is no sample or it does not cast. */
    public boolean eval(SampleContext ctx, Sample out, SampleType type) {
        return eval(ctx, out) && out.cast(type);
    }

    public Fetch fetch() {
        return fetch;
    }

    public Arg[] args() {
        return args;
    }

    /** The type the expression produces (the last converter's, or the fetch's). */
    public SampleType outType() {
        SampleType t = fetch.out();
        for (Step s : steps) {
            if (s.converter().out() != SampleType.SAME) {
                t = s.converter().out();
            } else if (t != s.converter().in() && !cheapCast(t, s.converter().in())) {
                t = s.converter().in();
            }
        }
        return t;
    }

    private static boolean cheapCast(SampleType from, SampleType to) {
        return to == SampleType.ANY || to == SampleType.ADDR && (from == SampleType.IPV4 || from == SampleType.IPV6)
                || (from == SampleType.BOOL || from == SampleType.SINT) && (to == SampleType.BOOL || to == SampleType.SINT)
                || from == SampleType.STR && to == SampleType.BIN;
    }

    /** The converters, in order. */
    public List<Step> steps() {
        return List.of(steps);
    }

    /** True when the expression has converters. */
    public boolean converted() {
        return steps.length > 0;
    }

    /** The {@link Stage} bits where the expression can be evaluated. */
    public int stages() {
        return fetch.stages();
    }

    /** The expression as written. */
    @Override
    public String toString() {
        return text;
    }
}
