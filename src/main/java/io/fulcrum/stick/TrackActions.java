package io.fulcrum.stick;

import io.fulcrum.cfg.ConfigException;
import io.fulcrum.rules.ActionArgs;
import io.fulcrum.rules.HttpAction;
import io.fulcrum.rules.HttpActions;
import io.fulcrum.rules.HttpActions.Phase;
import io.fulcrum.rules.TcpActions;
import io.fulcrum.rules.TcpRules.TcpAction;
import io.fulcrum.rules.Verdict;
import io.fulcrum.sample.Expr;
import io.fulcrum.sample.Sample;
import io.fulcrum.sample.SampleContext;
import io.fulcrum.sample.SampleType;
import io.fulcrum.sample.Stage;
import io.fulcrum.sample.StageSet;

/**
 * The rule actions on stick counters, in tcp-request, http-request and http-response rules (the counters' also in
 * tcp-response content rules): {@code track-sc0|1|2
 * <key> [table <t>]}, {@code sc-inc-gpc0|1(<sc>)}, {@code sc-inc-gpc(<idx>,<sc>)}, {@code sc-set-gpt0(<sc>) <value>}
 * and {@code sc-set-gpt(<idx>,<sc>) <value>}.
 */
final class TrackActions {
    /** The parser of an action shared by tcp-request and HTTP rules. */
    private interface Parser {
        TcpAction parse(ActionArgs a) throws ConfigException;
    }

    private TrackActions() {
    }

    static void register(StickTables tables, TcpActions tcp, HttpActions http) {
        for (int n = 0; n < Trackers.COUNTERS; n++) {
            int sc = n;
            both("track-sc" + n, a -> track(a, sc, tables), tcp, http);
        }
        // The counter actions also run in tcp-response content rules (track-sc does not).
        all("sc-inc-gpc0", a -> incGpc(sc(a, "sc-inc-gpc0"), DataType.GPC0, DataType.GPC0_RATE, 0), tcp, http);
        all("sc-inc-gpc0(*)", a -> incGpc(sc(a, "sc-inc-gpc0"), DataType.GPC0, DataType.GPC0_RATE, 0), tcp, http);
        all("sc-inc-gpc1", a -> incGpc(sc(a, "sc-inc-gpc1"), DataType.GPC1, DataType.GPC1_RATE, 0), tcp, http);
        all("sc-inc-gpc1(*)", a -> incGpc(sc(a, "sc-inc-gpc1"), DataType.GPC1, DataType.GPC1_RATE, 0), tcp, http);
        all("sc-inc-gpc(*)", a -> {
            int[] ids = pair(a, "gpc", "sc-inc-gpc");
            return incGpc(ids[1], DataType.GPC, DataType.GPC_RATE, ids[0]);
        }, tcp, http);
        all("sc-set-gpt0", a -> setGpt(a, sc(a, "sc-set-gpt0"), DataType.GPT0, 0), tcp, http);
        all("sc-set-gpt0(*)", a -> setGpt(a, sc(a, "sc-set-gpt0"), DataType.GPT0, 0), tcp, http);
        all("sc-set-gpt(*)", a -> {
            int[] ids = pair(a, "gpt", "sc-set-gpt");
            return setGpt(a, ids[1], DataType.GPT, ids[0]);
        }, tcp, http);
    }

    private static void both(String keyword, Parser p, TcpActions tcp, HttpActions http) {
        tcp.add(keyword, p::parse);
        http.add(keyword, a -> http(p.parse(a)), Phase.REQUEST, Phase.RESPONSE);
    }

    /** An action of tcp-request, tcp-response content and HTTP rules. */
    private static void all(String keyword, Parser p, TcpActions tcp, HttpActions http) {
        both(keyword, p, tcp, http);
        tcp.addResponse(keyword, p::parse);
    }

    private static HttpAction http(TcpAction action) {
        return (txn, msg) -> action.run(txn);
    }

    /** The rule set of a tcp-request rule, as its errors name it: "tcp-request content". */
    private static String tcpRule(ActionArgs a) {
        return "tcp-request " + switch (a.stage()) {
            case FE_CON_ACC -> "connection";
            case FE_SES_ACC -> "session";
            default -> "content";
        };
    }

    private static TcpAction track(ActionArgs a, int sc, StickTables tables) throws ConfigException {
        Expr key;
        String table = null;
        try {
            key = a.expr(a.next("missing fetch method"));
            if (a.peek().equals("table")) {
                a.next();
                table = a.next("missing table name");
            }
        } catch (ConfigException e) {
            throw a.phase() == null ? new ConfigException("'" + tcpRule(a) + " track-sc" + sc + "' : " + e.getMessage()) : e;
        }
        TableRef ref = tables.ref(table, null, "by track-sc" + sc, a.proxy().name());
        boolean connectionLevel = a.stage() == Stage.FE_CON_ACC || a.stage() == Stage.FE_SES_ACC;
        boolean httpRequest = a.phase() == Phase.REQUEST;
        return ctx -> {
            Trackers trackers = Trackers.of(ctx.frontChannel(), true);
            StickTable t = ref.get();
            if (trackers == null || trackers.get(sc) != null) {
                return Verdict.CONTINUE;
            }
            Sample s = new Sample();
            if (!key.eval(ctx, s, t.type().sampleType())) {
                return Verdict.CONTINUE;
            }
            Entry e = t.getOrCreate(t.key(s));
            if (e != null && trackers.track(sc, t, e, connectionLevel) && httpRequest) {
                Trackers.countRequest(t, e); // the request was counted before this tracker existed
            }
            return Verdict.CONTINUE;
        };
    }

    /** The stick counter in the action's parentheses, 0 without them. */
    private static int sc(ActionArgs a, String keyword) throws ConfigException {
        String p = a.parameter();
        if (p == null) {
            return 0;
        }
        int n = number(p);
        if (n < 0 && keyword.startsWith("sc-inc")) { // HAProxy's message quotes the whole word there
            throw new ConfigException("invalid stick table track ID. Expects " + keyword + "(" + p + ")(<Track ID>)");
        }
        if (n < 0) {
            throw new ConfigException("invalid stick table track ID '" + keyword + "(" + p + ")'. Expects " + keyword + "(<Track ID>)");
        }
        if (n >= Trackers.COUNTERS) {
            throw new ConfigException("invalid stick table track ID. The max allowed ID is " + (Trackers.COUNTERS - 1));
        }
        return n;
    }

    /** {@code (<idx>,<sc>)} of sc-inc-gpc and sc-set-gpt. */
    private static int[] pair(ActionArgs a, String what, String keyword) throws ConfigException {
        String p = a.parameter() == null ? "" : a.parameter();
        int comma = p.indexOf(',');
        int idx = comma < 0 ? -1 : number(p.substring(0, comma));
        if (idx < 0) {
            throw new ConfigException("Missing " + what + " ID '" + keyword + "(" + p + ")'. Expects " + keyword + "(<" + what.toUpperCase()
                    + " ID>,<Track ID>)");
        }
        int sc = number(p.substring(comma + 1));
        if (sc < 0) {
            throw new ConfigException("invalid stick table track ID '" + keyword + "(" + p + ")'. Expects " + keyword + "(<"
                    + what.toUpperCase() + " ID>,<Track ID>)");
        }
        if (sc >= Trackers.COUNTERS) {
            throw new ConfigException("invalid stick table track ID. The max allowed ID is " + (Trackers.COUNTERS - 1));
        }
        return new int[] {idx, sc};
    }

    /** A decimal number of digits only, or -1. */
    private static int number(String s) {
        String t = s.trim();
        if (t.isEmpty() || t.length() > 9 || !t.chars().allMatch(Character::isDigit)) {
            return -1;
        }
        return Integer.parseInt(t);
    }

    /**
     * Where HAProxy checks sc-set-gpt's expression: at one stage per rule set, whatever the section (a frontend's for
     * requests, a backend's for responses), so that a listen's http-request sc-set-gpt0 refuses be_name.
     */
    private static StageSet gptStage(ActionArgs a) {
        if (a.phase() != null) {
            return StageSet.of(a.phase() == Phase.REQUEST ? Stage.FE_HRQ_HDR : Stage.BE_HRS_HDR);
        }
        return StageSet.of(switch (a.stage()) {
            case FE_CON_ACC, FE_SES_ACC -> a.stage();
            case FE_REQ_CNT, BE_REQ_CNT -> Stage.FE_REQ_CNT;
            default -> Stage.BE_RES_CNT;
        });
    }

    private static TcpAction incGpc(int sc, DataType count, DataType rate, int idx) {
        return ctx -> {
            Trackers.Tracked tr = tracked(ctx, sc);
            if (tr != null) {
                tr.table().add(tr.entry(), rate, idx, 1);
                tr.table().add(tr.entry(), count, idx, 1);
            }
            return Verdict.CONTINUE;
        };
    }

    /** {@code sc-set-gpt0(<sc>) <int|expr>}: an integer, else a sample expression cast to an integer. */
    private static TcpAction setGpt(ActionArgs a, int sc, DataType type, int idx) throws ConfigException {
        String v = a.next();
        Expr expr = null;
        long constant = 0;
        if (!v.isEmpty()) {
            try {
                constant = Long.parseLong(v);
            } catch (NumberFormatException e) {
                expr = a.expr(v, null, gptStage(a));
            }
        }
        Expr e = expr;
        long c = constant;
        return ctx -> {
            Trackers.Tracked tr = tracked(ctx, sc);
            if (tr == null) {
                return Verdict.CONTINUE;
            }
            long value = c;
            if (e != null) {
                Sample s = new Sample();
                if (!e.eval(ctx, s, SampleType.SINT)) {
                    return Verdict.CONTINUE;
                }
                value = s.num();
            }
            tr.table().set(tr.entry(), type, idx, value);
            return Verdict.CONTINUE;
        };
    }

    private static Trackers.Tracked tracked(SampleContext ctx, int sc) {
        Trackers t = Trackers.of(ctx);
        return t == null ? null : t.get(sc);
    }
}
