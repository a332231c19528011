package io.fulcrum.runtime;

import io.fulcrum.cfg.Args;
import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.ConfigLine;
import io.fulcrum.cfg.KeywordTable;
import io.fulcrum.cfg.Registry;
import io.fulcrum.runtime.GlobalModule.GlobalContext;

import java.util.BitSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code thread-groups} and {@code thread-group}: HAProxy 2.6 (Debian's build) has a single thread group, which holds
 * every thread; Fulcrum's event loops are that one group. The keywords are checked as 2.6.12 checks them: only group
 * 1, thread numbers 1 to 64, and once the configuration is read, no thread left out of an enumeration of group 1.
 */
final class ThreadGroups {
    /** HAProxy's MAX_TGROUPS and MAX_THREADS in Debian's build. */
    private static final int MAX_GROUPS = 1;
    private static final int MAX_THREADS = 64;
    private static final Pattern RANGE = Pattern.compile("([0-9]+)(?:-([0-9]+))?");

    /** The threads group 1 enumerates; null when it enumerates none (then it takes them all). */
    private BitSet threads;

    private ThreadGroups() {
    }

    static void register(Registry registry, KeywordTable<GlobalContext> kw) {
        ThreadGroups groups = registry.component(ThreadGroups.class, ThreadGroups::new);
        kw.add("thread-groups", (g, l) -> {
            Args.noMoreThan(l, 1, l.keyword());
            long n = integer(l, 1);
            if (n < 1 || n > MAX_GROUPS) {
                throw new ConfigException("'" + l.keyword() + "' value must be between 1 and " + MAX_GROUPS + " (was " + n + ")");
            }
        });
        kw.add("thread-group", (g, l) -> groups.parse(l));
        registry.check((model, diag) -> {
            BitSet enumerated = groups.threads;
            groups.threads = null; // (the registry may read another configuration)
            if (enumerated == null) {
                return;
            }
            int nbthread = GlobalModule.settings(model).effectiveNbthread();
            BitSet left = new BitSet();
            left.set(1, nbthread + 1);
            left.andNot(enumerated);
            if (!left.isEmpty()) {
                diag.configAlert("Remaining unassigned threads found (" + left.cardinality() + ") because all groups are in use. "
                        + "Please increase 'thread-groups', reduce 'nbthreads' or remove or extend 'thread-group' enumerations.");
            }
        });
    }

    /** {@code thread-group <group> [<thread>[-<thread>]]...}. */
    private void parse(ConfigLine l) throws ConfigException {
        long group = integer(l, 1);
        if (group < 1 || group > MAX_GROUPS) {
            throw new ConfigException("'" + l.keyword() + "' thread-group number must be between 1 and " + MAX_GROUPS
                    + " (was " + group + ")");
        }
        if (!l.has(2)) {
            return;
        }
        if (threads != null) {
            // HAProxy warns and then keeps the threads of both lines.
            l.warn("'" + l.keyword() + " " + group + "' was already defined and will be overridden.");
        } else {
            threads = new BitSet();
        }
        for (int i = 2; l.has(i); i++) {
            Matcher m = RANGE.matcher(l.arg(i));
            long low = m.matches() ? parse(m.group(1)) : 0;
            long high = m.matches() && m.group(2) != null ? parse(m.group(2)) : low;
            if (Math.min(low, high) < 1 || Math.max(low, high) > MAX_THREADS) {
                throw new ConfigException("'" + l.keyword() + " " + group + "' passed an unparsable or invalid thread number '"
                        + l.arg(i) + "' (valid range is 1 to " + MAX_THREADS + ")");
            }
            threads.set((int) Math.min(low, high), (int) Math.max(low, high) + 1);
        }
    }

    private static long parse(String digits) {
        return digits.length() > 9 ? Long.MAX_VALUE : Long.parseLong(digits);
    }

    /** HAProxy's strtol with a check that the whole word was read. */
    private static long integer(ConfigLine l, int index) throws ConfigException {
        String w = l.arg(index);
        if (!w.matches("[-+]?[0-9]{1,18}")) {
            throw new ConfigException("'" + l.keyword() + "' passed a missing or unparsable integer value in '" + w + "'");
        }
        return Long.parseLong(w);
    }
}
