package io.fulcrum.rules;

import io.fulcrum.acl.Condition;
import io.fulcrum.http.HttpHead;

/** One rule: an action and the condition it runs under (null: always). */
public record HttpRule(HttpAction action, Condition condition) {

    /** Runs {@code rules} in order until one stops the list; DONE when one answered. */
    public static Verdict runAll(HttpRule[] rules, HttpTxn txn, HttpHead msg) {
        for (HttpRule r : rules) {
            if (Condition.passes(r.condition, txn)) {
                Verdict v = r.action.run(txn, msg);
                if (v != Verdict.CONTINUE) {
                    return v;
                }
            }
        }
        return Verdict.CONTINUE;
    }
}
