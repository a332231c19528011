package io.fulcrum.acl;

import io.fulcrum.sample.Sample;

/** The compiled patterns of an ACL for one matching method: does a sample match any of them? */
@FunctionalInterface
public interface PatternMatcher {
    /** {@code smp} was cast to the method's input type. */
    boolean matches(Sample smp);
}
