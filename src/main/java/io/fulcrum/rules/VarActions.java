package io.fulcrum.rules;

import io.fulcrum.cfg.ConfigException;
import io.fulcrum.log.LogFormat;
import io.fulcrum.rules.HttpActions.Phase;
import io.fulcrum.sample.ConditionalVar;
import io.fulcrum.sample.Expr;
import io.fulcrum.sample.Sample;
import io.fulcrum.sample.VarRef;

/** {@code set-var(name[,cond...])}, {@code set-var-fmt(name[,cond...])} and {@code unset-var(name)}. */
final class VarActions {
    private VarActions() {
    }

    static void register(HttpActions actions) {
        actions.add("set-var(*)", a -> {
            ConditionalVar var = ConditionalVar.parse(a.parameter());
            if (!a.more()) {
                throw new ConfigException("missing fetch method");
            }
            Expr expr = a.expr(a.next(), "set-var(" + a.parameter() + ")");
            return (txn, msg) -> {
                Sample s = new Sample();
                if (expr.eval(txn, s)) {
                    var.set(txn, s);
                }
                return Verdict.CONTINUE;
            };
        }, Phase.values());
        actions.add("set-var-fmt(*)", a -> {
            ConditionalVar var = ConditionalVar.parse(a.parameter());
            LogFormat f = a.unencodedFormat(a.next("missing log-format")); // HAProxy parses it without LOG_OPT_HTTP
            return (txn, msg) -> {
                Sample s = new Sample();
                s.setStr(f.format(txn));
                var.set(txn, s);
                return Verdict.CONTINUE;
            };
        }, Phase.values());
        actions.add("unset-var(*)", a -> {
            VarRef var = VarRef.parse(a.parameter());
            return (txn, msg) -> {
                var.unset(txn);
                return Verdict.CONTINUE;
            };
        }, Phase.values());
    }
}
