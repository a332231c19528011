package io.fulcrum.acl;

import io.fulcrum.sample.SampleContext;

import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * An {@code if} or {@code unless} condition: alternatives separated by "||" (or "or"), each a list of
 * ACLs that must all match, any of them negated by "!".
 */
public final class Condition {

    /** One ACL of a condition, possibly negated. */
    record Term(Acl acl, boolean negated) {
    }

    private final boolean unless;
    private final Term[][] alternatives;

    Condition(boolean unless, List<List<Term>> alternatives) {
        this.unless = unless;
        this.alternatives = alternatives.stream().map(l -> l.toArray(new Term[0])).toArray(Term[][]::new);
    }

    /** True when one of its ACLs looks at the raw request or response buffer (HAProxy's L6 fetches). */
    boolean usesBufferContents() {
        for (Term[] suite : alternatives) {
            for (Term t : suite) {
                if (t.acl().usesBufferContents()) {
                    return true;
                }
            }
        }
        return false;
    }

    public boolean test(SampleContext ctx) {
        return inspect(this, ctx, NEVER_MISSING) == PASS;
    }

    /** Outside content inspection nothing is awaited: every condition is PASS or FAIL. */
    private static final BooleanSupplier NEVER_MISSING = () -> false;

    /** A null condition (no "if"/"unless") always passes. */
    public static boolean passes(Condition c, SampleContext ctx) {
        return c == null || c.test(ctx);
    }

    /** Results of {@link #inspect}, in HAProxy's encoding: AND and OR of them are the bitwise ones. */
    public static final int FAIL = 0;
    public static final int MISS = 1;
    public static final int PASS = 3;

    /**
     * The condition over content that may still grow (tcp-request/tcp-response content inspection), in HAProxy's
     * three values: an ACL that does not match while one of its fetches said its data may change
     * ({@code takeMissing} tells, and forgets) is MISS rather than FAIL, as is its negation, so that the rule waits
     * for more data ("req.len gt 5" on 4 bytes) instead of deciding early. An ACL that matches passes.
     */
    public static int inspect(Condition c, SampleContext ctx, BooleanSupplier takeMissing) {
        if (c == null) {
            return PASS;
        }
        int result = FAIL;
        for (Term[] suite : c.alternatives) {
            int all = PASS;
            for (Term t : suite) {
                takeMissing.getAsBoolean();
                boolean matched = t.acl().test(ctx);
                int term = matched ? PASS : takeMissing.getAsBoolean() ? MISS : FAIL;
                all &= t.negated() ? negate(term) : term;
                if (all == FAIL) {
                    break;
                }
            }
            result |= all;
            if (result == PASS) {
                break;
            }
        }
        return c.unless ? negate(result) : result;
    }

    private static int negate(int result) {
        return result == MISS ? MISS : result ^ PASS;
    }
}
