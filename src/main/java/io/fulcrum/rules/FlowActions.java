package io.fulcrum.rules;

import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.Units;
import io.fulcrum.log.LogFormat;
import io.fulcrum.rules.HttpActions.Phase;
import io.fulcrum.sample.Expr;
import io.fulcrum.sample.Sample;
import io.fulcrum.sample.SampleType;

import java.util.Locale;

/**
 * Actions on the transaction's course: {@code reject}, {@code silent-drop}, {@code tarpit},
 * {@code set-timeout}, {@code early-hint}, {@code strict-mode}.
 */
final class FlowActions {
    private FlowActions() {
    }

    static void register(HttpActions actions) {
        actions.add("reject", a -> (txn, msg) -> {
            txn.drop(false);
            return Verdict.DONE;
        }, Phase.REQUEST);
        actions.add("silent-drop", a -> (txn, msg) -> {
            txn.drop(true);
            return Verdict.DONE;
        }, Phase.REQUEST, Phase.RESPONSE);
        actions.add("tarpit", a -> {
            ReplyBuilder b = new ReplyBuilder(500).parse(a, "deny_status", "status");
            if (b.bare()) {
                int status = b.status();
                return (txn, msg) -> {
                    txn.tarpit(new Reply.Error(status));
                    return Verdict.DONE;
                };
            }
            return (txn, msg) -> {
                txn.tarpit(b.build(txn));
                return Verdict.DONE;
            };
        }, Phase.REQUEST);
        actions.add("set-timeout", FlowActions::setTimeout, Phase.REQUEST);
        actions.add("early-hint", a -> {
            if (a.remaining() != 2) {
                throw new ConfigException("expects exactly 2 arguments");
            }
            String name = a.next().toLowerCase(Locale.ROOT);
            LogFormat value = a.format(a.next());
            return (txn, msg) -> {
                txn.earlyHint(name, value.format(txn));
                return Verdict.CONTINUE;
            };
        }, Phase.REQUEST);
        // Rewrites cannot fail in Fulcrum (no rewrite reserve to overflow), so both modes behave alike.
        actions.add("strict-mode", a -> {
            String mode = a.next();
            if (!mode.equals("on") && !mode.equals("off")) {
                throw new ConfigException("expects 'on' or 'off' as argument");
            }
            return (txn, msg) -> Verdict.CONTINUE;
        }, Phase.values());
    }

    private static HttpAction setTimeout(ActionArgs a) throws ConfigException {
        String which = a.next();
        if (which.equals("tunnel")) {
            throw new ConfigException("'set-timeout tunnel' is not supported by Fulcrum yet");
        }
        if (!which.equals("server")) {
            throw new ConfigException("'set-timeout' expects 'server' or 'tunnel'");
        }
        if (!a.proxy().kind().isBackend()) {
            throw new ConfigException("'set-timeout server' is only available on proxies with backend capabilities");
        }
        String value = a.next("expects a timeout value");
        if (Character.isDigit(value.charAt(0))) {
            long ms = Units.time(value, "set-timeout");
            return (txn, msg) -> {
                txn.serverTimeout(ms);
                return Verdict.CONTINUE;
            };
        }
        Expr expr = a.expr(value);
        return (txn, msg) -> {
            Sample s = new Sample();
            if (expr.eval(txn, s, SampleType.SINT) && s.num() > 0) {
                txn.serverTimeout(s.num());
            }
            return Verdict.CONTINUE;
        };
    }
}
