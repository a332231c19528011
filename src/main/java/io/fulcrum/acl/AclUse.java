package io.fulcrum.acl;

import io.fulcrum.cfg.ConfigException;

import java.util.List;

/**
 * How an ACL reads a pattern set: its matching method, and whether "-i" was in force where the set was
 * named. ACLs reading a file the same way share its compiled form.
 */
record AclUse(MatchMethod method, boolean ignoreCase) implements PatternUse {

    /** The set's compiled form for this use, following every change made to it. */
    PatternFile.View<PatternIndex> view(PatternFile file) throws ConfigException {
        return file.view(this, PatternIndex.class, entries -> compile(entries, file.name()));
    }

    private PatternIndex compile(List<PatternFile.Entry> entries, String file) throws ConfigException {
        if (method.patternless()) {
            return smp -> -1; // "found" and "bool" look at the sample, not at patterns
        }
        return method.index(PatternValue.of(entries, ignoreCase, file));
    }

    /** What an ACL line matches with: its method's own test, or any of its sets' patterns, in order. */
    static PatternMatcher matcher(MatchMethod method, List<PatternFile.View<PatternIndex>> views) {
        if (method == MatchMethod.FOUND) {
            return smp -> true;
        }
        if (method == MatchMethod.BOOL) {
            return io.fulcrum.sample.Sample::bool;
        }
        @SuppressWarnings("unchecked")
        PatternFile.View<PatternIndex>[] all = views.toArray(new PatternFile.View[0]);
        if (all.length == 1) {
            PatternFile.View<PatternIndex> only = all[0];
            return smp -> only.current().find(smp) >= 0;
        }
        return smp -> {
            for (PatternFile.View<PatternIndex> v : all) {
                if (v.current().find(smp) >= 0) {
                    return true;
                }
            }
            return false;
        };
    }
}
