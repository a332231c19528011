package io.fulcrum.rules;

import io.fulcrum.cfg.Args;
import io.fulcrum.cfg.ConfigException;
import io.fulcrum.log.HeaderCaptures;
import io.fulcrum.rules.HttpActions.Phase;
import io.fulcrum.sample.Expr;
import io.fulcrum.sample.Sample;
import io.fulcrum.sample.SampleContext;
import io.fulcrum.sample.SampleType;
import io.fulcrum.sample.Stage;
import io.fulcrum.sample.StageSet;

/**
 * {@code http-request capture <sample> len <length> | id <slot>} and {@code http-response capture <sample> id <slot>}
 * (also in http-after-response): the sample as a string, cut to the slot's length, into one of the frontend's
 * capture slots (log.HeaderCaptures).
 */
final class CaptureActions {
    private CaptureActions() {
    }

    static void register(HttpActions actions) {
        actions.add("capture", CaptureActions::request, Phase.REQUEST);
        actions.add("capture", CaptureActions::response, Phase.RESPONSE, Phase.AFTER_RESPONSE);
    }

    private static HttpAction request(ActionArgs a) throws ConfigException {
        if (a.remaining() < 3) {
            throw new ConfigException("expects <expression> [ 'len' <length> | id <idx> ]");
        }
        // checked at the frontend's stage alone, in a listen section too, as HAProxy does
        Expr expr = a.expr(a.next(), null, StageSet.of(Stage.FE_HRQ_HDR));
        String kind = a.next();
        int slot;
        if (kind.equals("len")) {
            int len = (int) Math.min(Integer.MAX_VALUE, Args.atol(a.next()));
            if (len <= 0) {
                throw new ConfigException("length must be > 0");
            }
            if (!a.proxy().kind().rulesOnFrontend()) { // a named defaults section's slots go to its frontends
                throw new ConfigException("proxy '" + a.proxy().name() + "' has no frontend capability");
            }
            slot = HeaderCaptures.of(a.proxy()).declare(false, len);
        } else if (kind.equals("id")) {
            slot = id(a, false, "http-request capture");
        } else {
            throw new ConfigException("expects 'len' or 'id', found '" + kind + "'");
        }
        return action(expr, false, slot);
    }

    private static HttpAction response(ActionArgs a) throws ConfigException {
        if (a.remaining() < 3) {
            throw new ConfigException("expects <expression> id <idx>");
        }
        Expr expr = a.expr(a.next());
        String kind = a.next();
        if (!kind.equals("id")) {
            throw new ConfigException("expects 'id', found '" + kind + "'");
        }
        return action(expr, true, id(a, true, "http-response capture"));
    }

    /** A slot named by {@code id <n>}: checked once the frontend has all its slots (a backend's at run time). */
    private static int id(ActionArgs a, boolean response, String rule) throws ConfigException {
        String text = a.next();
        int slot;
        try {
            slot = Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw new ConfigException("cannot parse id '" + text + "'");
        }
        HeaderCaptures.of(a.proxy()).reference(response, slot, rule);
        return slot;
    }

    private static HttpAction action(Expr expr, boolean response, int slot) {
        return (txn, msg) -> {
            capture(txn, expr, response, slot);
            return Verdict.CONTINUE;
        };
    }

    /** Stores the sample of {@code expr} as a string in a capture slot; nothing when there is no sample. */
    static void capture(SampleContext ctx, Expr expr, boolean response, int slot) {
        Sample s = new Sample();
        if (expr.eval(ctx, s, SampleType.STR)) {
            HeaderCaptures.store(ctx, response, slot, s.text());
        }
    }
}
