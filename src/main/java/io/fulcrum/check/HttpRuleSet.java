package io.fulcrum.check;

import io.fulcrum.cfg.ConfigException;

import java.util.ArrayList;
import java.util.List;

/**
 * A section's {@code http-check} rules, built as HAProxy 2.6 builds them: the request of {@code option httpchk} merged
 * with the first {@code http-check send} whichever comes first (tcpcheck_add_http_rule()), the order of the rules
 * checked as they are added to a rule set in use, and the set completed once the section is read
 * (check_proxy_tcpcheck()). Each rule keeps HAProxy's index, which its alerts name as a step.
 */
final class HttpRuleSet {
    /** The rules, in order. */
    final List<CheckRule> rules = new ArrayList<>();
    /** HAProxy's index of each rule: the previous rule's plus one, 0 after (and for) the option's request. */
    private final List<Integer> index = new ArrayList<>();

    /** Rules that are no step of their own for these checks: comments and variables (HAProxy's COMMENT and ACTION_KW). */
    static boolean passive(CheckRule r) {
        return r instanceof CheckRule.Comment || r instanceof CheckRule.SetVar || r instanceof CheckRule.UnsetVar;
    }

    /** The index of the first rule from {@code from} that is not passive, -1 when none. */
    private static int next(List<CheckRule> set, int from) {
        for (int i = from; i < set.size(); i++) {
            if (!passive(set.get(i))) {
                return i;
            }
        }
        return -1;
    }

    private static boolean fromOption(CheckRule r) {
        return r instanceof CheckRule.HttpSend h && h.fromOption();
    }

    /** The index a rule added now takes. */
    private int nextIndex() {
        return rules.isEmpty() || fromOption(rules.getLast()) ? 0 : index.getLast() + 1;
    }

    /** A rule written while another check option is in use: kept as written, unchecked. */
    void append(CheckRule r) {
        int at = nextIndex();
        CheckRules.add(rules, r);
        index.add(at);
    }

    /**
     * The request of {@code option httpchk}: it completes the first send of the set (after its first connect) when
     * the user wrote one, replaces a previous option's, or goes first.
     */
    void addOption(CheckRule.HttpSend option) {
        int i = next(rules, 0);
        if (i >= 0 && rules.get(i) instanceof CheckRule.Connect) {
            i = next(rules, i + 1);
        }
        if (i < 0 || !(rules.get(i) instanceof CheckRule.HttpSend send)) {
            rules.addFirst(option);
            index.addFirst(0);
        } else if (send.fromOption()) {
            rules.remove(i);
            index.remove(i);
            rules.addFirst(option);
            index.addFirst(0);
        } else {
            rules.set(i, send.over(option));
        }
    }

    /**
     * An {@code http-check} rule added to a rule set in use: a send follows a connect, an expect a send or an expect, a
     * connect an expect (HAProxy's alerts otherwise); a send takes in the option's request that still stands first
     * (the merge keeps the option's index, as HAProxy's).
     */
    void add(CheckRule r, String kw) throws ConfigException {
        int at = nextIndex();
        CheckRule last = null;
        for (int i = rules.size() - 1; i >= 0 && last == null; i--) {
            last = passive(rules.get(i)) ? null : rules.get(i);
        }
        String missing = null;
        if (last != null && !fromOption(last)) {
            if (!(last instanceof CheckRule.Connect) && r instanceof CheckRule.HttpSend) {
                missing = "connect";
            } else if (!(last instanceof CheckRule.HttpSend) && !(last instanceof CheckRule.Expect) && r instanceof CheckRule.Expect) {
                missing = "send";
            } else if (!(last instanceof CheckRule.Expect) && r instanceof CheckRule.Connect) {
                missing = "expect";
            }
        }
        if (missing != null) {
            throw new ConfigException("'http-check " + kw + "' : unable to add http-check " + kw + " rule at step " + (at + 1) + " (missing "
                    + missing + " rule)..");
        }
        if (r instanceof CheckRule.HttpSend send) {
            int first = next(rules, 0);
            if (first >= 0 && rules.get(first) instanceof CheckRule.HttpSend option && option.fromOption()) {
                rules.remove(first);
                at = index.remove(first);
                r = option.over(send);
            }
        }
        CheckRules.add(rules, r);
        index.add(at);
    }

    /**
     * The rules the checks run: the option's request moved after a first connect written after it, and every request
     * completed with HAProxy's defaults. The implicit connect and the implicit expect of a last send are the run's.
     */
    static List<CheckRule> finish(List<CheckRule> set) {
        List<CheckRule> rules = new ArrayList<>(set);
        int first = next(rules, 0);
        if (first >= 0 && fromOption(rules.get(first))) {
            int then = next(rules, first + 1);
            if (then >= 0 && rules.get(then) instanceof CheckRule.Connect) {
                rules.add(then, rules.remove(first));
            }
        }
        rules.replaceAll(r -> r instanceof CheckRule.HttpSend h ? h.complete() : r);
        return List.copyOf(rules);
    }
}
