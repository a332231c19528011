package io.fulcrum.rules;

import io.fulcrum.acl.AclParser;
import io.fulcrum.acl.AclTable;
import io.fulcrum.acl.Condition;
import io.fulcrum.cfg.Args;
import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.ConfigLine;
import io.fulcrum.cfg.ConfigModel;
import io.fulcrum.cfg.Diagnostics;
import io.fulcrum.cfg.Module;
import io.fulcrum.cfg.Registry;
import io.fulcrum.cfg.Units;
import io.fulcrum.conn.ExpectedHeaders;
import io.fulcrum.log.HeaderCaptures;
import io.fulcrum.log.LogFormat;
import io.fulcrum.log.LogFormatParser;
import io.fulcrum.proxy.Capability;
import io.fulcrum.proxy.ProxyKind;
import io.fulcrum.proxy.ProxyModule;
import io.fulcrum.proxy.ProxySpec;
import io.fulcrum.proxy.ProxyTable;
import io.fulcrum.proxy.RuleOrder;
import io.fulcrum.sample.ConditionalVar;
import io.fulcrum.sample.Expr;
import io.fulcrum.sample.Sample;
import io.fulcrum.sample.Stage;
import io.fulcrum.sample.StageSet;
import io.fulcrum.sample.VarRef;

import java.util.List;

/**
 * {@code tcp-request connection|session|content <action> [{if|unless} <condition>]}, {@code tcp-request inspect-delay},
 * {@code tcp-response content <action> [{if|unless} <condition>]} and {@code tcp-response inspect-delay}.
 */
public final class TcpRuleModule implements Module {
    /** HAProxy 2.6's other tcp-request actions. */
    private static final java.util.Set<String> UNSUPPORTED = java.util.Set.of("silent-drop", "send-spoe-group", "set-priority-class", "set-priority-offset", "use-service");
    /** HAProxy 2.6's other tcp-response content actions. */
    private static final java.util.Set<String> RESPONSE_UNSUPPORTED = java.util.Set.of("send-spoe-group", "ot-group");

    @Override
    public void register(Registry registry) {
        AclParser acls = AclParser.of(registry);
        LogFormatParser formats = new LogFormatParser(acls.exprs());
        registry.check(TcpRuleModule::warnCaptures);
        // Both refuse the anonymous defaults section themselves, in HAProxy's words, once their second word is known.
        registry.table(ProxyModule.KEYWORDS).add("tcp-request", Capability.ALL | Capability.STRICT,
                (p, l) -> parse(p, l, acls, formats, TcpActions.of(registry)));
        // Refused in a frontend by the parser, with HAProxy's words.
        registry.table(ProxyModule.KEYWORDS).add("tcp-response", Capability.ALL | Capability.STRICT,
                (p, l) -> parseResponse(p, l, acls, formats, TcpActions.of(registry)));
    }

    /**
     * {@code tcp-request content capture <sample> len <length>}: a new request capture slot of the frontend
     * (log.HeaderCaptures), filled with the sample as a string.
     */
    private static TcpRules.TcpAction capture(ProxySpec p, ConfigLine l, int pos, StageSet where, AclParser acls, TcpRules rules)
            throws ConfigException {
        String rule = "'tcp-request content capture' : ";
        if (!p.kind().rulesOnFrontend()) { // a named defaults section's slots go to its frontends
            throw new ConfigException(rule + "proxy '" + p.name() + "' has no frontend capability");
        }
        if (!l.has(pos) || ActionArgs.isCondition(l.arg(pos))) {
            throw new ConfigException(rule + "missing fetch method");
        }
        Expr e;
        try {
            e = acls.exprs().parse(l.arg(pos));
            if (!where.allows(e.stages())) {
                throw new ConfigException("fetch method '" + l.arg(pos) + "' extracts information from '" + e.fetch().source()
                        + "', none of which is available here");
            }
        } catch (ConfigException ex) {
            throw new ConfigException(rule + ex.getMessage());
        }
        if (!l.arg(pos + 1).equals("len")) {
            throw new ConfigException(rule + "a positive 'len' argument is mandatory");
        }
        long len = Args.atol(l.arg(pos + 2));
        if (len <= 0) {
            throw new ConfigException(rule + "length must be > 0");
        }
        if ((e.stages() & Stage.FE_SES_ACC.bit()) == 0) {
            rules.contentCaptures++;
        }
        int slot = HeaderCaptures.of(p).declare(false, (int) Math.min(len, Integer.MAX_VALUE));
        return ctx -> {
            CaptureActions.capture(ctx, e, false, slot);
            return Verdict.CONTINUE;
        };
    }

    /** HAProxy's warning for each capture of request contents that no inspect delay waits for. */
    private static void warnCaptures(ConfigModel model, Diagnostics diag) {
        for (ProxySpec p : ProxyTable.of(model).proxies()) {
            TcpRules r = p.partOrNull(TcpRules.class);
            for (int i = 0; r != null && r.inspectDelay == 0 && i < r.contentCaptures; i++) {
                diag.configWarning(p.describe() + " : a 'tcp-request capture' rule explicitly depending on request contents without any "
                        + "'tcp-request inspect-delay' setting. This means that this rule will randomly find its contents. This can be "
                        + "fixed by setting the tcp-request inspect-delay.");
            }
        }
    }

    private static void parse(ProxySpec p, ConfigLine l, AclParser acls, LogFormatParser formats, TcpActions owned)
            throws ConfigException {
        TcpRules rules = p.part(TcpRules.class, TcpRules::new);
        String where = p.describe();
        String kind = l.arg(1);
        String section = p.kind() == ProxyKind.DEFAULTS ? "defaults section" : where; // (HAProxy's words for the next two)
        if (!l.has(1)) {
            throw new ConfigException("missing argument for 'tcp-request' in " + section);
        }
        if (!List.of("inspect-delay", "connection", "session", "content").contains(kind)) {
            throw new ConfigException("'tcp-request' expects 'inspect-delay', 'connection', or 'content' in " + section + " (got '" + kind + "')");
        }
        if (anonymousDefaults(p)) {
            throw new ConfigException("tcp-request " + kind + " is not allowed in anonymous 'defaults' sections");
        }
        switch (kind) {
            case "inspect-delay" -> {
                long delay = inspectDelay("tcp-request", l, where);
                if (rules.inspectDelay != 0) {
                    l.warn("ignoring tcp-request inspect-delay (was already defined) in " + where); // the first one stays
                } else {
                    rules.inspectDelay = delay;
                }
                return;
            }
            case "connection", "session" -> {
                if (!p.kind().rulesOnFrontend()) {
                    throw new ConfigException("tcp-request " + kind + " is not allowed because " + p.kind().typeName() + " " + p.name()
                            + " is not a frontend");
                }
            }
            default -> { }
        }
        StageSet stages = switch (kind) {
            case "connection" -> StageSet.of(Stage.FE_CON_ACC);
            case "session" -> StageSet.of(Stage.FE_SES_ACC);
            default -> p.kind().stages(Stage.FE_REQ_CNT, Stage.BE_REQ_CNT);
        };
        List<TcpRules.Rule> list = switch (kind) {
            case "connection" -> rules.connection;
            case "session" -> rules.session;
            default -> rules.content;
        };
        list.add(rule(false, kind, stages, p, l, acls, formats, rules, owned));
        RuleOrder.placed(p, switch (kind) {
            case "connection" -> RuleOrder.Kind.TCP_CONNECTION;
            case "session" -> RuleOrder.Kind.TCP_SESSION;
            default -> RuleOrder.Kind.TCP_CONTENT;
        }, "tcp-request", l);
    }

    /** {@code tcp-response inspect-delay <time>} and {@code tcp-response content <action> [{if|unless} <condition>]}. */
    private static void parseResponse(ProxySpec p, ConfigLine l, AclParser acls, LogFormatParser formats, TcpActions owned)
            throws ConfigException {
        String where = p.describe();
        if (!p.kind().rulesOnBackend() || anonymousDefaults(p)) {
            throw new ConfigException("tcp-response " + l.arg(1) + " is only allowed in 'backend' sections or 'defaults' section with a name");
        }
        if (!l.has(1)) {
            throw new ConfigException("missing argument for 'tcp-response' in " + where);
        }
        TcpRules rules = p.part(TcpRules.class, TcpRules::new);
        switch (l.arg(1)) {
            case "inspect-delay" -> {
                long delay = inspectDelay("tcp-response", l, where);
                if (rules.responseInspectDelay != 0) {
                    l.warn("ignoring tcp-response inspect-delay (was already defined) in " + where);
                } else {
                    rules.responseInspectDelay = delay;
                }
            }
            case "content" -> rules.response.add(rule(true, "content", p.kind().stages(Stage.FE_RES_CNT, Stage.BE_RES_CNT), p, l, acls,
                    formats, rules, owned));
            default -> throw new ConfigException("'tcp-response' expects 'inspect-delay' or 'content' in " + where + " (got '" + l.arg(1) + "')");
        }
    }

    private static boolean anonymousDefaults(ProxySpec p) {
        return p.kind() == ProxyKind.DEFAULTS && p.name().isEmpty();
    }

    /** {@code tcp-request|tcp-response inspect-delay <time>}, with HAProxy's message. */
    private static long inspectDelay(String directive, ConfigLine l, String where) throws ConfigException {
        String error = "'" + directive + " inspect-delay' expects a positive delay in milliseconds, in " + where;
        if (!l.has(2)) {
            throw new ConfigException(error);
        }
        int digits = 0;
        while (digits < l.arg(2).length() && Character.isDigit(l.arg(2).charAt(digits))) {
            digits++;
        }
        try {
            return Units.time(l.arg(2), directive + " inspect-delay");
        } catch (ConfigException e) {
            throw new ConfigException(error + (digits < l.arg(2).length() ? " (unexpected character '" + l.arg(2).charAt(digits) + "')" : ""));
        }
    }

    /**
     * The action and condition of a rule line: a {@code tcp-request <kind>} rule, or a {@code tcp-response content}
     * one ({@code response}), which has close and silent-drop and no address or capture actions.
     *
     * @param owned the actions of other subsystems
     */
    private static TcpRules.Rule rule(boolean response, String kind, StageSet stages, ProxySpec p, ConfigLine l, AclParser acls,
                                      LogFormatParser formats, TcpRules rules, TcpActions owned) throws ConfigException {
        String where = p.describe();
        String directive = response ? "tcp-response" : "tcp-request";
        String word = l.arg(2);
        String rule = directive + " " + kind + " " + word;
        int paren = word.indexOf('(');
        String action = paren < 0 ? word : word.substring(0, paren);
        String param = paren < 0 ? null : word.substring(paren + 1, word.endsWith(")") ? word.length() - 1 : word.length());
        int pos = 3;
        TcpRules.TcpAction act;
        switch (action) {
            case "accept" -> act = ctx -> Verdict.STOP;
            case "reject" -> act = ctx -> Verdict.DONE;
            case "set-var" -> {
                ConditionalVar var = ConditionalVar.parse(param);
                // HAProxy's words alone, and "if" taken as a fetch's name (unknown fetch method 'if')
                Expr e = acls.exprs().parse(l.arg(pos++));
                if (!stages.allows(e.stages())) {
                    // (HAProxy names the action where it means the fetch)
                    throw new ConfigException("fetch method '" + word + "' extracts information from '" + e.fetch().source()
                            + "', none of which is available here");
                }
                act = ctx -> {
                    Sample s = new Sample();
                    if (e.eval(ctx, s)) {
                        var.set(ctx, s);
                    }
                    return Verdict.CONTINUE;
                };
            }
            case "set-var-fmt" -> {
                ConditionalVar var = ConditionalVar.parse(param);
                LogFormat f = formats.parse(l.arg(pos++), stages, false, false);
                act = ctx -> {
                    Sample s = new Sample();
                    s.setStr(f.format(ctx));
                    var.set(ctx, s);
                    return Verdict.CONTINUE;
                };
            }
            case "unset-var" -> {
                VarRef var = VarRef.parse(param);
                act = ctx -> {
                    var.unset(ctx);
                    return Verdict.CONTINUE;
                };
            }
            case "switch-mode" -> {
                if (response || !kind.equals("content")) {
                    throw unknownAction(response, kind, action, word, where);
                }
                act = switchMode(p, l, pos);
                pos += l.arg(pos + 1).equals("proto") ? 3 : 1;
            }
            case "expect-proxy", "expect-netscaler-cip" -> {
                if (response) {
                    throw unknownAction(true, kind, action, word, where);
                }
                act = expect(action, rule, kind, l.arg(pos++), where, rules);
            }
            case "capture" -> {
                if (response) {
                    throw unknownAction(true, kind, action, word, where);
                }
                if (!kind.equals("content")) {
                    throw new ConfigException("'capture " + l.arg(pos) + "' is not allowed in 'tcp-request " + kind + "' rules in " + where);
                }
                act = capture(p, l, pos, stages, acls, rules);
                pos += 3;
            }
            default -> {
                ActionArgs args = new ActionArgs(l, pos, param, null, p, stages, acls.exprs(), formats);
                act = response ? responseAction(action, args) : requestAction(action, kind, args);
                TcpActions.Parser other = act != null ? null : owned.find(param == null ? action : action + "(*)", response);
                if (other != null) {
                    act = other.parse(args); // an action of another subsystem (the stick tables' track-sc...)
                }
                if (act == null) {
                    throw unknownAction(response, kind, action, word, where);
                }
                pos = args.position();
            }
        }
        if (l.has(pos) && !l.arg(pos).equals("if") && !l.arg(pos).equals("unless")) {
            throw new ConfigException("'" + rule + "' only accepts 'if' or 'unless', in " + where + " (got '" + l.arg(pos) + "')");
        }
        Condition cond;
        try {
            cond = acls.condition(l, pos, p.partOrNull(AclTable.class), stages, directive + " " + kind);
        } catch (ConfigException e) {
            throw new ConfigException("'" + rule + "' : error detected in " + where + " while parsing '" + l.arg(pos) + "' condition : "
                    + e.getMessage());
        }
        return new TcpRules.Rule(act, cond, l.source());
    }

    /**
     * {@code expect-proxy layer4} and {@code expect-netscaler-cip layer4}: the connection must start with that header, read
     * once the connection rules are done (the later ones still see the socket's addresses), as with the bind options.
     */
    private static TcpRules.TcpAction expect(String action, String rule, String kind, String layer, String where, TcpRules rules)
            throws ConfigException {
        if (!layer.equals("layer4")) {
            throw new ConfigException("'" + rule + "' only supports 'layer4' in " + where + " (got '" + layer + "')");
        }
        if (!kind.equals("connection")) {
            throw new ConfigException("'" + action + " layer4' is not allowed in 'tcp-request " + kind + "' rules in " + where);
        }
        rules.expectsHeaders = true;
        boolean proxy = action.equals("expect-proxy");
        return ctx -> {
            ExpectedHeaders headers = ExpectedHeaders.of(ctx.frontChannel());
            if (proxy) {
                headers.expectProxy();
            } else {
                headers.expectNetscalerCip();
            }
            return Verdict.CONTINUE;
        };
    }

    /**
     * {@code switch-mode http [proto h1]}: the session becomes HTTP/1 and the rules stop there (in an HTTP stream they
     * only stop), in HAProxy's words; HTTP/2 is refused, Fulcrum has none yet.
     */
    private static TcpRules.TcpAction switchMode(ProxySpec p, ConfigLine l, int pos) throws ConfigException {
        String action = "'tcp-request switch-mode'";
        if (!l.has(pos)) {
            throw new ConfigException(action + " expects a mode as argument.");
        }
        if (!l.arg(pos).equals("http")) {
            throw new ConfigException(action + " expects a valid mode (got '" + l.arg(pos) + "').");
        }
        if (l.arg(pos + 1).equals("proto")) {
            String proto = l.arg(pos + 2);
            switch (proto) {
                case "" -> throw new ConfigException(action + ": 'proto' expects a protocol as argument.");
                case "h1" -> { }
                case "h2" -> throw new ConfigException(action + ": 'proto' : 'h2' is not supported: Fulcrum has no HTTP/2 yet.");
                case "fcgi", "none" -> throw new ConfigException("Proxy '" + p.name() + "': MUX protocol '" + proto
                        + "' is not compatible with the selected mode.");
                default -> throw new ConfigException(action + ": 'proto' expects a valid MUX protocol, if specified (got '" + proto + "')");
            }
        }
        if (!p.kind().rulesOnFrontend()) {
            throw new ConfigException(action + " not allowed because " + p.kind().typeName() + " '" + p.name()
                    + "' has no frontend capability");
        }
        p.httpUpgrade = true;
        return ctx -> {
            if (ctx instanceof ModeSwitch s) {
                s.switchToHttp();
            }
            return Verdict.STOP;
        };
    }

    private static TcpRules.TcpAction requestAction(String action, String kind, ActionArgs args) throws ConfigException {
        TcpRules.TcpAction act = ConnectionActions.tcp(action, args, kind.equals("connection"));
        return act == null && kind.equals("content") ? ConnectionActions.tcpContent(action, args) : act;
    }

    /** The actions of tcp-response content rules besides accept, reject and the variables'. */
    private static TcpRules.TcpAction responseAction(String action, ActionArgs args) throws ConfigException {
        return switch (action) {
            // close: the server connection goes, what it sent so far still reaches the client; the rules stop there.
            case "close" -> ctx -> {
                ((ResponseControl) ctx).closeServer();
                return Verdict.STOP;
            };
            case "silent-drop" -> ctx -> {
                ((ResponseControl) ctx).silentDrop();
                return Verdict.DONE;
            };
            case "set-mark", "set-tos" -> ConnectionActions.tcp(action, args, false);
            case "set-nice", "set-log-level" -> ConnectionActions.tcpContent(action, args);
            default -> null;
        };
    }

    /** An action the rule set does not have: "not supported yet" for HAProxy's others, else HAProxy's list. */
    private static ConfigException unknownAction(boolean response, String kind, String action, String word, String where) {
        if ((response ? RESPONSE_UNSUPPORTED : UNSUPPORTED).contains(action)) {
            return new ConfigException("'" + (response ? "tcp-response " : "tcp-request ") + kind + " " + action
                    + "' is an HAProxy action that Fulcrum does not support yet.");
        }
        if (response) {
            return new ConfigException("'tcp-response content' expects 'accept', 'close', 'reject', 'ot-group', 'set-log-level', "
                    + "'set-nice', 'sc-inc-gpc(*)', 'sc-inc-gpc0(*)', 'sc-inc-gpc1(*)', 'sc-set-gpt(*)', 'sc-set-gpt0(*)', 'send-spoe-group', "
                    + "'set-var-fmt(*)', 'set-var(*)', 'unset-var(*)', 'set-mark', 'set-tos', 'silent-drop' in " + where + " (got '" + word + "').");
        }
        return new ConfigException("'tcp-request " + kind + "' expects 'accept', 'reject', 'capture', 'expect-proxy', 'expect-netscaler-cip', "
                + (kind.equals("content") ? "'set-log-level', 'set-nice', " : "")
                + "'set-var-fmt(*)', 'set-var(*)', 'unset-var(*)', 'set-src', 'set-src-port', 'set-dst', 'set-dst-port', 'set-mark', "
                + "'set-tos' in " + where + " (got '" + word + "').");
    }
}
