package io.fulcrum.acl;

import io.fulcrum.cfg.ConfigException;

import java.util.List;

/**
 * How an ACL reads a pattern set: its matching method, whether "-i" was in force where the set was
 * named, and whether its patterns are dotted versions (a file read by req.ssl_ver). ACLs reading a file the same
 * way share its compiled form.
 */
record AclUse(MatchMethod method, boolean ignoreCase, boolean dotted) implements PatternUse {

    AclUse(MatchMethod method, boolean ignoreCase) {
        this(method, ignoreCase, false);
    }

    /** The index of "found" and "bool", which look at the sample, not at patterns. */
    private static final PatternIndex NOTHING = new PatternIndex() {
        @Override
        public int find(io.fulcrum.sample.Sample smp) {
            return -1;
        }

        @Override
        public long findLive(io.fulcrum.sample.Sample smp, Holes holes) {
            return -1;
        }

        @Override
        public boolean skipsHoles() {
            return true;
        }
    };

    /** The set's compiled form for this use, following every change made to it. */
    PatternFile.View<PatternIndex> view(PatternFile file) throws ConfigException {
        return file.view(this, PatternIndex.class, entries -> compile(entries, file.name()), LayeredIndex::of);
    }

    private PatternIndex compile(List<PatternFile.Entry> entries, String file) throws ConfigException {
        if (method.patternless()) {
            return NOTHING; // "found" and "bool" look at the sample, not at patterns
        }
        List<PatternValue> patterns = PatternValue.of(entries, ignoreCase, file);
        return method.index(dotted ? DottedVersion.values(patterns) : patterns);
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
