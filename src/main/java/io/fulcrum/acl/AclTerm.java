package io.fulcrum.acl;

import io.fulcrum.sample.Expr;
import io.fulcrum.sample.Sample;
import io.fulcrum.sample.SampleContext;

/**
 * One ACL line (or an anonymous ACL): an expression, a matching method and its patterns. It matches
 * when any value of the expression matches any pattern.
 *
 * @param keyword the ACL keyword as written, without its arguments ({@code hdr_beg}), which HAProxy's messages name
 */
public record AclTerm(String keyword, Expr expr, MatchMethod method, PatternMatcher matcher) {

    public boolean test(SampleContext ctx) {
        Sample smp = new Sample();
        if (method == MatchMethod.FOUND) {
            return expr.any(ctx, smp, s -> true);
        }
        return expr.any(ctx, smp, s -> s.cast(method.input()) && matcher.matches(s));
    }

    /** The stage bits where the expression can be evaluated. */
    public int stages() {
        return expr.stages();
    }
}
