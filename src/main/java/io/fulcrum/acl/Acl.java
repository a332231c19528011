package io.fulcrum.acl;

import io.fulcrum.sample.SampleContext;
import io.fulcrum.sample.Source;
import io.fulcrum.sample.StageSet;

import java.util.ArrayList;
import java.util.List;

/** A named ACL: the lines declaring it are alternatives (it matches when any of them does). */
public final class Acl {
    private final String name;
    private final List<AclTerm> terms = new ArrayList<>();

    public Acl(String name) {
        this.name = name;
    }

    public String name() {
        return name;
    }

    void add(AclTerm term) {
        terms.add(term);
    }

    public boolean test(SampleContext ctx) {
        for (AclTerm t : terms) {
            if (t.test(ctx)) {
                return true;
            }
        }
        return false;
    }

    /** The stage bits where at least one of its lines can be evaluated. */
    public int stages() {
        int s = 0;
        for (AclTerm t : terms) {
            s |= t.stages();
        }
        return s;
    }

    /** True when one of its lines looks at the raw request or response buffer (HAProxy's L6 fetches). */
    boolean usesBufferContents() {
        for (AclTerm t : terms) {
            List<Source> sources = t.expr().fetch().sources();
            if (sources.contains(Source.L6REQ) || sources.contains(Source.L6RES)) {
                return true;
            }
        }
        return false;
    }

        /** The keyword of its first line, for messages about anonymous ACLs. */
    String keyword() {
        return terms.isEmpty() ? "" : terms.get(0).keyword();
    }

    /** The ACL reduced to its lines that can be evaluated at one of {@code where}: this one when all can. */
    Acl within(StageSet where) {
        if (keywordOutside(where) == null) {
            return this;
        }
        Acl a = new Acl(name);
        for (AclTerm t : terms) {
            if (where.allows(t.stages())) {
                a.add(t);
            }
        }
        return a;
    }

    /** The keyword of its first line that cannot be evaluated at any of {@code where}, or null. */
    String keywordOutside(StageSet where) {
        for (AclTerm t : terms) {
            if (!where.allows(t.stages())) {
                return t.keyword();
            }
        }
        return null;
    }
}
