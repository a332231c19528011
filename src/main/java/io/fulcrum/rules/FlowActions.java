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
 * {@code set-timeout}, {@code disable-l7-retry}, {@code early-hint}, {@code strict-mode}, {@code wait-for-handshake}.
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
            ReplyBuilder b = new ReplyBuilder(500, true).parse(a, "deny_status", "status");
            return (txn, msg) -> {
                txn.tarpit(b.build(txn));
                return Verdict.DONE;
            };
        }, Phase.REQUEST);
        actions.add("set-timeout", FlowActions::setTimeout, Phase.REQUEST);
        actions.add("disable-l7-retry", a -> (txn, msg) -> {
            txn.disableL7Retry();
            return Verdict.CONTINUE;
        }, Phase.REQUEST);
        actions.add("wait-for-body", FlowActions::waitForBody, Phase.REQUEST, Phase.RESPONSE);
        // No TLS early data is ever accepted (allow-0rtt, differences.md): a request always comes after its handshake,
        // so there is nothing to wait for.
        actions.add("wait-for-handshake", a -> (txn, msg) -> Verdict.CONTINUE, Phase.REQUEST);
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
        actions.add("strict-mode", a -> {
            String mode = a.next();
            if (!mode.equals("on") && !mode.equals("off")) {
                throw new ConfigException("expects 'on' or 'off' as argument");
            }
            boolean soft = mode.equals("off");
            return (txn, msg) -> {
                txn.softRewrites(soft);
                return Verdict.CONTINUE;
            };
        }, Phase.values());
    }

    /** {@code wait-for-body time <time> [at-least <bytes>]}, with HAProxy's messages. */
    private static HttpAction waitForBody(ActionArgs a) throws ConfigException {
        long time = -1;
        long atLeast = 0;
        while (a.peek().equals("time") || a.peek().equals("at-least")) {
            String word = a.next();
            String value = a.next("missing argument for '" + word + "'");
            int bad = 0;
            while (bad < value.length() && Character.isDigit(value.charAt(bad))) {
                bad++;
            }
            try {
                if (word.equals("time")) {
                    time = Units.time(value, "wait-for-body");
                } else {
                    atLeast = Units.size(value, "wait-for-body");
                }
            } catch (ConfigException e) {
                throw new ConfigException("unexpected character '" + value.charAt(Math.min(bad, value.length() - 1)) + "'");
            }
        }
        if (time < 0) {
            throw new ConfigException("expects time <time> [ at-least <bytes> ]");
        }
        long millis = time;
        long bytes = atLeast;
        return (txn, msg) -> txn.bodyIn(msg, millis, bytes) ? Verdict.CONTINUE : Verdict.WAIT;
    }

    /** {@code set-timeout server|tunnel <time>|<expr>}: a time when it reads as one, else an expression (in ms). */
    private static HttpAction setTimeout(ActionArgs a) throws ConfigException {
        if (a.remaining() < 2) {
            throw new ConfigException("expects exactly 2 arguments");
        }
        if (!a.proxy().kind().rulesOnBackend()) {
            throw new ConfigException("proxy '" + a.proxy().name() + "' has no backend capability");
        }
        String which = a.next();
        if (!which.equals("server") && !which.equals("tunnel")) {
            throw new ConfigException("'set-timeout' rule supports 'server'/'tunnel' (got '" + which + "')");
        }
        boolean tunnel = which.equals("tunnel");
        String value = a.next();
        Expr expr = null;
        long ms = 0;
        try {
            ms = Units.time(value, "set-timeout");
        } catch (ConfigException notATime) {
            try {
                expr = a.expr(value, null, null); // HAProxy checks not where its data exists (srv_name is accepted)
            } catch (ConfigException notAnExpr) {
                int bad = 0;
                while (bad < value.length() - 1 && Character.isDigit(value.charAt(bad))) {
                    bad++;
                }
                throw new ConfigException("unexpected character '" + value.charAt(bad) + "' in rule 'set-timeout " + which + "'");
            }
        }
        if (expr == null && ms == 0) {
            throw new ConfigException("null value is not valid for a 'set-timeout " + which + "' rule");
        }
        Expr e = expr;
        long fixed = ms;
        return (txn, msg) -> {
            long t = fixed;
            if (e != null) {
                Sample s = new Sample();
                t = e.eval(txn, s, SampleType.SINT) ? s.num() : 0;
            }
            if (t > 0) {
                if (tunnel) {
                    txn.tunnelTimeout(t);
                } else {
                    txn.serverTimeout(t);
                }
            }
            return Verdict.CONTINUE;
        };
    }
}
