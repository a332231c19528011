package io.fulcrum.backend;

import io.fulcrum.cfg.ConfigException;
import io.fulcrum.rules.ActionArgs;
import io.fulcrum.rules.HttpActions;
import io.fulcrum.rules.HttpActions.Phase;
import io.fulcrum.rules.TcpActions;
import io.fulcrum.rules.TcpRules.TcpAction;
import io.fulcrum.rules.Verdict;
import io.fulcrum.sample.Expr;
import io.fulcrum.sample.Sample;
import io.fulcrum.sample.SampleType;
import io.fulcrum.sample.Stage;

/**
 * {@code set-priority-class <expr>} and {@code set-priority-offset <expr>} of http-request and tcp-request content
 * rules: where the stream stands in the backend's and servers' queues. Values beyond HAProxy's bounds are brought
 * to them; an expression without sample changes nothing.
 */
final class PriorityActions {
    private static final long MAX_CLASS = 2047;
    private static final long MAX_OFFSET = 524287;

    private PriorityActions() {
    }

    static void register(TcpActions tcp, HttpActions http) {
        for (boolean offset : new boolean[] {false, true}) {
            String name = offset ? "set-priority-offset" : "set-priority-class";
            long bound = offset ? MAX_OFFSET : MAX_CLASS;
            tcp.add(name, a -> parse(a, name, offset, bound));
            http.add(name, a -> {
                TcpAction action = parse(a, name, offset, bound);
                return (txn, msg) -> action.run(txn);
            }, Phase.REQUEST);
        }
    }

    private static TcpAction parse(ActionArgs a, String name, boolean offset, long bound) throws ConfigException {
        if (a.stage() == Stage.FE_CON_ACC || a.stage() == Stage.FE_SES_ACC) {
            throw new ConfigException("'" + name + "' is only allowed in 'tcp-request content' rules");
        }
        Expr e = a.expr(a.next("missing fetch method"), name); // (HAProxy's message names the action)
        return ctx -> {
            Sample s = new Sample();
            if (e.eval(ctx, s, SampleType.SINT)) {
                ctx.priority(offset, Math.max(-bound, Math.min(bound, s.num())));
            }
            return Verdict.CONTINUE;
        };
    }
}
