package io.fulcrum.acl;

import io.fulcrum.sample.SampleContext;

import java.util.List;

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

    public boolean test(SampleContext ctx) {
        boolean result = false;
        for (Term[] suite : alternatives) {
            boolean all = true;
            for (Term t : suite) {
                if (t.acl().test(ctx) == t.negated()) {
                    all = false;
                    break;
                }
            }
            if (all) {
                result = true;
                break;
            }
        }
        return result != unless;
    }

    /** A null condition (no "if"/"unless") always passes. */
    public static boolean passes(Condition c, SampleContext ctx) {
        return c == null || c.test(ctx);
    }
}
