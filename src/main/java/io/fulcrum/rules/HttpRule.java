package io.fulcrum.rules;

import io.fulcrum.acl.Condition;
import io.fulcrum.cfg.Source;
import io.fulcrum.http.HttpHead;

/** One rule: an action, the condition it runs under (null: always), and its line (for {@code last_rule_file/line}). */
public record HttpRule(HttpAction action, Condition condition, Source source) {

    /** What {@link #run} returns when a rule answered. */
    public static final int ANSWERED = -1;

    /**
     * Runs {@code rules} in order from rule {@code from} until one stops the list: {@link #ANSWERED} when one answered,
     * the index of a rule that waits (run it again to resume), else {@code rules.length}.
     */
    public static int run(HttpRule[] rules, int from, HttpTxn txn, HttpHead msg) {
        if (from == 0) {
            txn.softRewrites(false); // each rule list starts in strict rewriting mode
        }
        for (int i = from; i < rules.length; i++) {
            HttpRule r = rules[i];
            if (Condition.passes(r.condition, txn)) {
                // Noted before it runs: a rule that answers may end (and log) the stream before it returns.
                Source before = txn.finalRule(r.source);
                switch (r.action.run(txn, msg)) {
                    case CONTINUE -> txn.finalRule(before);
                    case STOP -> {
                        return rules.length;
                    }
                    case DONE -> {
                        return ANSWERED;
                    }
                    case WAIT -> {
                        txn.finalRule(before);
                        return i;
                    }
                }
            }
        }
        return rules.length;
    }

    /** Runs {@code rules} in order until one stops the list (none of them waits); DONE when one answered. */
    public static Verdict runAll(HttpRule[] rules, HttpTxn txn, HttpHead msg) {
        return run(rules, 0, txn, msg) == ANSWERED ? Verdict.DONE : Verdict.CONTINUE;
    }
}
