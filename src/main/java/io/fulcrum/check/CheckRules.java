package io.fulcrum.check;

import io.fulcrum.cfg.Args;
import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.ConfigLine;
import io.fulcrum.cfg.KeywordTable;
import io.fulcrum.log.LogFormatParser;
import io.fulcrum.proxy.Capability;
import io.fulcrum.proxy.OptionContext;
import io.fulcrum.proxy.ProxySpec;
import io.fulcrum.sample.ConditionalVar;
import io.fulcrum.sample.Expr;
import io.fulcrum.sample.ExprParser;
import io.fulcrum.sample.Sample;
import io.fulcrum.sample.SampleType;
import io.fulcrum.sample.Stage;
import io.fulcrum.sample.VarRef;
import io.netty.buffer.ByteBufUtil;

import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToIntFunction;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * The check-type options ({@code option httpchk}, {@code option tcp-check}, the protocol checks) and the
 * {@code tcp-check}/{@code http-check} rules, parsed into {@link CheckRule}s. Protocol checks are rule sets,
 * as in HAProxy.
 */
final class CheckRules {
    private final ExprParser exprs;
    private final LogFormatParser formats;

    private CheckRules(ExprParser exprs) {
        this.exprs = exprs;
        this.formats = new LogFormatParser(exprs);
    }

    static void register(KeywordTable<OptionContext> options, KeywordTable<ProxySpec> keywords, ExprParser exprs) {
        CheckRules r = new CheckRules(exprs);
        options.add("httpchk", Capability.BE | Capability.NO_NEGATION, (o, l) -> httpchk(CheckModule.of(o.proxy()), l));
        options.add("tcp-check", Capability.BE | Capability.NO_NEGATION, (o, l) -> {
            ProxyChecks c = CheckModule.of(o.proxy());
            c.type = ProxyChecks.Type.TCP;
            c.tcpCheckOption = true;
            // HAProxy keeps tcp-check rules already in use (its defaults section's); otherwise the section's own
            if (c.ruleKind != ProxyChecks.Type.TCP) {
                c.use(ProxyChecks.Type.TCP, c.tcpRules);
            }
        });
        ProtocolChecks.register(options);
        // A refused line drops the section's rule set of its kind, as HAProxy frees it: the next lines start a new one
        keywords.add("tcp-check", Capability.BE, (p, l) -> {
            ProxyChecks c = CheckModule.of(p);
            try {
                r.tcpCheck(c, l);
            } catch (ConfigException e) {
                c.tcpRules = new ArrayList<>();
                throw e;
            }
        });
        keywords.add("http-check", Capability.BE, (p, l) -> {
            ProxyChecks c = CheckModule.of(p);
            try {
                r.httpCheck(c, l);
            } catch (ConfigException e) {
                c.httpRules = new HttpRuleSet();
                throw e;
            }
        });
    }

    /**
     * {@code option httpchk [<method>] [<uri>] [<version>]}; headers and a body may follow the version after "\r\n"
     * (deprecated, with HAProxy's warning). Its request is merged with the section's first {@code http-check send}.
     */
    private static void httpchk(ProxyChecks c, ConfigLine l) throws ConfigException {
        Args.noMoreThan(l, 3, "option httpchk");
        String method = l.has(2) ? l.arg(1) : null;
        String uri = l.has(2) ? l.arg(2) : l.has(1) ? l.arg(1) : null;
        String version = l.has(3) ? l.arg(3) : null;
        List<CheckRule.Header> headers = new ArrayList<>();
        CheckRule.Text body = null;
        if (version != null) {
            int head = version.indexOf("\r\n");
            int end = version.indexOf("\r\n\r\n");
            if (end >= 0) {
                body = CheckRule.Text.fixed(version.substring(end + 4));
            }
            if (head >= 0 && head != end) {
                String fields = version.substring(head + 2, end >= 0 ? end : version.length());
                for (String h : fields.split("\r\n")) {
                    int colon = h.indexOf(':');
                    if (colon <= 0) {
                        throw new ConfigException("'option httpchk' : unable to parse the request '" + fields + "\r\n\r\n'..");
                    }
                    headers.add(new CheckRule.Header(h.substring(0, colon).trim(), CheckRule.Text.fixed(h.substring(colon + 1).trim())));
                }
            }
            if (head >= 0) {
                l.warnUnspaced("'option httpchk' : hiding headers or body at the end of the version string is deprecated. "
                        + "Please, consider to use 'http-check send' directive instead.");
                version = version.substring(0, head);
            }
        }
        c.type = ProxyChecks.Type.HTTP;
        c.use(ProxyChecks.Type.HTTP, c.httpRules.rules);
        c.httpRules.addOption(new CheckRule.HttpSend(method, uri == null ? null : CheckRule.Text.fixed(uri), version, headers, body,
                null, true));
    }

    private void tcpCheck(ProxyChecks c, ConfigLine l) throws ConfigException {
        String kw = l.arg(1);
        List<CheckRule> set = c.tcpRules;
        switch (kw) {
            case "connect" -> add(set, connect(set, l, "tcp-check"));
            case "send", "send-lf" -> {
                if (!l.has(2)) {
                    throw new ConfigException("'tcp-check " + kw + "' expects a string as argument.");
                }
                if (kw.equals("send")) {
                    byte[] data = l.arg(2).getBytes(StandardCharsets.ISO_8859_1);
                    add(set, new CheckRule.Send(x -> data, comment(l, 3)));
                } else {
                    CheckRule.Text f = format(l.arg(2), "tcp-check send-lf");
                    add(set, new CheckRule.Send(x -> f.of(x).getBytes(StandardCharsets.ISO_8859_1), comment(l, 3)));
                }
            }
            case "send-binary", "send-binary-lf" -> {
                if (!l.has(2)) {
                    throw new ConfigException("'tcp-check " + kw + "' expects a binary string as argument.");
                }
                if (kw.equals("send-binary")) {
                    byte[] data = hex(l.arg(2), "tcp-check " + kw);
                    add(set, new CheckRule.Send(x -> data, comment(l, 3)));
                } else {
                    CheckRule.Text f = format(l.arg(2), "tcp-check send-binary-lf");
                    add(set, new CheckRule.Send(x -> hexOrNull(f.of(x)), comment(l, 3)));
                }
            }
            case "expect" -> add(set, expect(l, "tcp-check", false));
            case "comment" -> set.add(comment(l, "tcp-check"));
            default -> {
                CheckRule v = variable(l, "tcp-check");
                if (v == null) {
                    throw ConfigException.unspaced("'tcp-check' only supports 'comment', 'connect', 'send', 'send-binary', 'expect', "
                            + "'set-var-fmt(*)', 'set-var(*)', 'unset-var(*)'. but got '" + kw + "'");
                }
                set.add(v);
            }
        }
        // HAProxy: the section's tcp-check rules are the ones in use once option tcp-check is, or marked unused until then
        if (c.explicit()) {
            c.rules = set;
            c.unusedTcp = false;
        } else {
            c.unusedTcp = true;
        }
    }

    private void httpCheck(ProxyChecks c, ConfigLine l) throws ConfigException {
        String kw = l.arg(1);
        HttpRuleSet set = c.httpRules;
        CheckRule rule = switch (kw) {
            case "disable-on-404" -> {
                c.disableOn404 = true;
                yield null;
            }
            case "send-state" -> {
                c.sendState = true;
                yield null;
            }
            case "comment" -> comment(l, "http-check");
            case "connect" -> connect(set.rules, l, "http-check");
            case "send" -> httpSend(l);
            case "expect" -> expect(l, "http-check", true);
            default -> {
                CheckRule v = variable(l, "http-check");
                if (v == null) {
                    throw ConfigException.unspaced("'http-check' only supports 'disable-on-404', 'send-state', 'comment', 'connect', 'send', "
                            + "'expect', 'set-var-fmt(*)', 'set-var(*)', 'unset-var(*)'. but got '" + kw + "'");
                }
                yield v;
            }
        };
        if (rule == null) {
            return;
        }
        if (c.type == ProxyChecks.Type.HTTP) {
            // HAProxy: added to the rule set in use, in an order it checks; before option httpchk, as written
            c.rules = set.rules;
            c.unusedHttp = false;
            set.add(rule, kw);
        } else {
            c.unusedHttp = true;
            set.append(rule);
        }
    }

    /** {@code set-var(name) <expr>}, {@code set-var-fmt(name) <fmt>}, {@code unset-var(name)}; null for another word. */
    private CheckRule variable(ConfigLine l, String kw) throws ConfigException {
        String word = l.arg(1);
        int paren = word.indexOf('(');
        String action = paren < 0 ? word : word.substring(0, paren);
        if (paren < 0 || !word.endsWith(")") || !List.of("set-var", "set-var-fmt", "unset-var").contains(action)) {
            return null;
        }
        String where = "'" + kw + " " + word + "' : '" + action + "' : ";
        String name = word.substring(paren + 1, word.length() - 1);
        ConditionalVar var;
        try {
            var = action.equals("unset-var") ? new ConditionalVar(VarRef.parse(name), List.of()) : ConditionalVar.parse(name);
        } catch (ConfigException e) {
            throw new ConfigException(where + e.getMessage() + ".");
        }
        int rest = action.equals("unset-var") ? 2 : 3;
        if (l.has(rest)) {
            // HAProxy 2.6 reads no 'if'/'unless' (nor anything else) after a check rule's action: the rule always runs
            l.warn("'" + kw + " " + word + "' : '" + l.join(rest) + "' is ignored: check rules take no condition, the rule always applies.");
        }
        switch (action) {
            case "unset-var" -> {
                return new CheckRule.UnsetVar(var.var());
            }
            case "set-var-fmt" -> {
                if (!l.has(2)) {
                    throw new ConfigException(where + "missing log-format.");
                }
                try {
                    return new CheckRule.SetVar(var, null, formats.parse(l.arg(2), Stage.BE_CHK_RUL, false, false));
                } catch (ConfigException e) {
                    throw new ConfigException(where + e.getMessage() + ".");
                }
            }
            default -> {
                if (!l.has(2)) {
                    throw new ConfigException(where + "missing fetch method.");
                }
                return new CheckRule.SetVar(var, expr(l.arg(2), where, "set-var(" + var + ")"), null);
            }
        }
    }

    /** A sample expression usable in checks; {@code named} is what HAProxy names in its "not available here" message. */
    private Expr expr(String text, String where, String named) throws ConfigException {
        Expr e;
        try {
            e = exprs.parse(text);
        } catch (ConfigException ex) {
            throw new ConfigException(where + ex.getMessage() + ".");
        }
        if ((e.stages() & Stage.BE_CHK_RUL.bit()) == 0) {
            throw new ConfigException(where + "fetch method '" + named + "' extracts information from '" + e.fetch().source()
                    + "', none of which is available here.");
        }
        return e;
    }

    /** A log-format text of a check rule, with HAProxy's words when it does not compile. */
    private CheckRule.Text format(String text, String where) throws ConfigException {
        try {
            return CheckRule.Text.of(formats.parse(text, Stage.BE_CHK_RUL, false, false));
        } catch (ConfigException e) {
            throw new ConfigException("'" + where + "' : '" + text + "' invalid log-format string (" + e.getMessage() + ").");
        }
    }

    /** A connect rule to add to {@code set}, which must hold none but set-var, unset-var, comment or an option's send before its first connect. */
    private CheckRule.Connect connect(List<CheckRule> set, ConfigLine l, String kw) throws ConfigException {
        for (CheckRule r : set) {
            if (r instanceof CheckRule.Connect) {
                break;
            }
            if (!HttpRuleSet.passive(r) && !(r instanceof CheckRule.HttpSend h && h.fromOption())) {
                throw new ConfigException("'" + kw + " connect' : first step MUST also be a 'connect', optionally preceded by a 'set-var', an "
                        + "'unset-var' or a 'comment', when there is a 'connect' step in the tcp-check ruleset.");
            }
        }
        int port = 0;
        ToIntFunction<CheckContext> portExpr = null;
        InetAddress addr = null;
        boolean sendProxy = false;
        boolean viaSocks4 = false;
        boolean byDefault = false;
        boolean linger = false;
        boolean ssl = false;
        String sni = null;
        List<String> alpn = null;
        String comment = null;
        for (int i = 2; i < l.size(); i++) {
            String w = l.arg(i);
            switch (w) {
                case "port" -> {
                    String v = value(l, ++i, kw + " connect", w);
                    if (v.matches("\\d+")) {
                        port = CheckModule.port(v, "port");
                    } else {
                        portExpr = intExpr(v, "'" + kw + " connect' : error detected while parsing port expression : ");
                    }
                }
                case "addr" -> addr = CheckModule.address(value(l, ++i, kw + " connect", w), "addr");
                case "send-proxy" -> sendProxy = true;
                case "default" -> byDefault = true;
                case "linger" -> linger = true;
                case "ssl" -> ssl = true;
                case "sni" -> sni = value(l, ++i, kw + " connect", w);
                case "alpn" -> alpn = CheckModule.alpn(l.has(i + 1) ? l.arg(++i) : "", "'" + kw + " connect' : 'alpn'");
                case "proto" -> connectProto(l.has(i + 1) ? l.arg(++i) : null, kw);
                case "comment" -> comment = value(l, ++i, kw + " connect", w);
                case "via-socks4" -> viaSocks4 = true;
                default -> throw new ConfigException("'" + kw + " connect' : expects 'comment', 'port', 'addr', 'send-proxy', 'via-socks4', "
                        + "'ssl', 'sni', 'alpn', 'proto', 'linger' or 'default' but got '" + w + "' as argument.");
            }
        }
        return new CheckRule.Connect(port, portExpr, addr, sendProxy, viaSocks4, byDefault, ssl, sni, alpn, comment, linger);
    }

    /**
     * The {@code proto} of a {@code tcp-check connect} (only "none", a TCP check's protocol) or an {@code http-check
     * connect} (an HTTP protocol), with HAProxy's words (their doubled full stops included).
     */
    private static void connectProto(String v, String kw) throws ConfigException {
        String where = "'" + kw + " connect' : 'proto'";
        if (v == null) {
            throw new ConfigException(where + " expects a MUX protocol as argument..");
        }
        boolean tcp = kw.equals("tcp-check");
        switch (v) {
            case "none", "h1", "h2", "fcgi" -> {
                if (tcp != v.equals("none")) {
                    throw new ConfigException(where + " : invalid MUX protocol '" + v + "' for " + kw + ".");
                }
                CheckModule.proto(v, where);
            }
            default -> throw new ConfigException(where + " : unknown MUX protocol '" + v + "'..");
        }
    }

    /** {@code http-check send}: what it does not give is null, for the option's request or HAProxy's defaults. */
    private CheckRule.HttpSend httpSend(ConfigLine l) throws ConfigException {
        String method = null;
        CheckRule.Text uri = null;
        String version = null;
        List<CheckRule.Header> headers = new ArrayList<>();
        CheckRule.Text body = null;
        String host = null;
        String comment = null;
        for (int i = 2; i < l.size(); i++) {
            String w = l.arg(i);
            switch (w) {
                case "meth" -> method = value(l, ++i, "http-check send", w);
                case "uri" -> uri = CheckRule.Text.fixed(value(l, ++i, "http-check send", w));
                case "uri-lf" -> uri = format(value(l, ++i, "http-check send", w), "http-check send");
                case "ver" -> version = value(l, ++i, "http-check send", w);
                case "body" -> body = CheckRule.Text.fixed(value(l, ++i, "http-check send", w));
                case "body-lf" -> body = format(value(l, ++i, "http-check send", w), "http-check send");
                case "comment" -> comment = value(l, ++i, "http-check send", w);
                case "hdr" -> {
                    String name = value(l, ++i, "http-check send", w);
                    String text = value(l, ++i, "http-check send", w);
                    if (name.equalsIgnoreCase("host") && host != null) {
                        throw new ConfigException("'http-check send' : '" + name + "' header already defined (previous value is '" + host + "').");
                    }
                    if (name.equalsIgnoreCase("host")) {
                        host = text;
                    }
                    // HAProxy drops them: the check writes its own content-length, and sends no chunks
                    if (!name.equalsIgnoreCase("content-length") && !name.equalsIgnoreCase("transfer-encoding")) {
                        headers.add(new CheckRule.Header(name, format(text, "http-check send")));
                    }
                }
                default -> throw new ConfigException("'http-check send' : expects 'comment', 'meth', 'uri', 'uri-lf', 'ver', 'hdr', 'body' or "
                        + "'body-lf' but got '" + w + "' as argument.");
            }
        }
        return new CheckRule.HttpSend(method, uri, version, headers, body, comment, false);
    }

    /** The options of an expect rule, written before or after its pattern. */
    private static final class ExpectOptions {
        int minRecv = -1;
        String comment;
        CheckRule.Text onSuccess;
        CheckRule.Text onError;
        ToIntFunction<CheckContext> statusCode;
        CheckStatus ok;
        CheckStatus error;
        CheckStatus tout;
    }

    private CheckRule.Expect expect(ConfigLine l, String kw, boolean http) throws ConfigException {
        String where = kw + " expect";
        ExpectOptions o = new ExpectOptions();
        boolean negate = false;
        for (int i = 2; i < l.size(); i++) {
            String w = l.arg(i);
            if (w.equals("min-recv")) {
                o.minRecv = (int) Args.atol(value(l, ++i, where, w)); // as HAProxy: "12abc" is 12, "abc" 0
                continue;
            }
            int next = option(l, i, where, o);
            if (next > i) {
                i = next;
                continue;
            }
            if (w.equals("!")) {
                negate = true;
                continue;
            }
            String match = w.startsWith("!") ? w.substring(1) : w;
            negate |= w.startsWith("!") && w.length() > 1;
            CheckRule.Kind kind = kind(match, http, where);
            if (kind == CheckRule.Kind.HEADER) {
                int[] at = {i + 1};
                HeaderMatch h = header(l, at, match.equals("fhdr"), where);
                rest(l, at[0], where, o);
                return new CheckRule.Expect(kind, negate, match, null, null, null, o.minRecv, o.comment, o.onSuccess, o.onError, o.statusCode, h,
                        null, false, o.ok, o.error, o.tout);
            }
            String pattern = value(l, ++i, where, match);
            Pattern regex = null;
            byte[] bytes = null;
            CheckRule.Text lf = null;
            switch (kind) {
                case RSTRING, RBINARY, RSTATUS, RBODY -> {
                    try {
                        regex = Pattern.compile(pattern);
                    } catch (PatternSyntaxException e) {
                        throw new ConfigException("'" + where + "' : regex '" + pattern + "' is invalid (" + e.getDescription() + ").");
                    }
                }
                case BINARY -> bytes = hex(pattern, where);
                case STATUS -> {
                    if (!pattern.matches("\\d{3}(-\\d{3})?(,\\d{3}(-\\d{3})?)*")) {
                        throw new ConfigException("'" + where + "' : invalid status list '" + pattern + "'.");
                    }
                }
                case STRING_LF, BINARY_LF, BODY_LF -> lf = format(pattern, where);
                default -> bytes = pattern.getBytes(StandardCharsets.ISO_8859_1);
            }
            rest(l, i + 1, where, o);
            return new CheckRule.Expect(kind, negate, pattern, regex, bytes, lf, o.minRecv, o.comment, o.onSuccess, o.onError, o.statusCode,
                    null, null, false, o.ok, o.error, o.tout);
        }
        throw new ConfigException("'" + where + "' : expects a pattern.");
    }

    /** Options written after the pattern ({@code comment}, {@code on-error}...). */
    private void rest(ConfigLine l, int from, String where, ExpectOptions o) throws ConfigException {
        for (int i = from; i < l.size(); i++) {
            int next = option(l, i, where, o);
            if (next == i) {
                throw new ConfigException("'" + where + "' : unexpected argument '" + l.arg(i) + "'.");
            }
            i = next;
        }
    }

    /** Reads the option at {@code i} into {@code o}; the index of its last word, or {@code i} when it is no option. */
    private int option(ConfigLine l, int i, String where, ExpectOptions o) throws ConfigException {
        String w = l.arg(i);
        switch (w) {
            case "comment" -> o.comment = value(l, i + 1, where, w);
            case "on-success" -> o.onSuccess = format(value(l, i + 1, where, w), where);
            case "on-error" -> o.onError = format(value(l, i + 1, where, w), where);
            case "ok-status" -> o.ok = status(value(l, i + 1, where, w), where, w, "'L4OK', 'L6OK', 'L7OK' or 'L7OKC'", "");
            case "error-status" -> o.error = status(value(l, i + 1, where, w), where, w, "'L4CON', 'L6RSP', 'L7RSP' or 'L7STS'", "L7OKC");
            case "tout-status" -> o.tout = status(value(l, i + 1, where, w), where, w, "'L4TOUT', 'L6TOUT' or 'L7TOUT'", "");
            case "status-code" -> {
                if (!l.has(i + 1)) {
                    throw new ConfigException("'" + where + "' : 'status-code' expects an expression as argument.");
                }
                o.statusCode = intExpr(l.arg(i + 1), "'" + where + "' : error detected while parsing status-code expression : ");
            }
            default -> {
                return i;
            }
        }
        return i + 1;
    }

    /** An integer expression ({@code status-code}, {@code connect port}): -1 when it gives no sample; {@code error} prefixes its errors. */
    private ToIntFunction<CheckContext> intExpr(String text, String error) throws ConfigException {
        Expr e;
        try {
            e = exprs.parse(text);
        } catch (ConfigException ex) {
            throw new ConfigException(error + ex.getMessage() + ".");
        }
        return c -> {
            Sample s = new Sample();
            return e.eval(c, s, SampleType.SINT) ? (int) s.num() : -1;
        };
    }

    /** {@code name [-m meth] <name> [value [-m meth] <value>]} from {@code at[0]}, which is left after it. */
    private HeaderMatch header(ConfigLine l, int[] at, boolean full, String where) throws ConfigException {
        HeaderMatch.Match name = null;
        HeaderMatch.Match value = null;
        while (at[0] < l.size() && List.of("name", "value", "name-lf", "value-lf").contains(l.arg(at[0]))) {
            String part = l.arg(at[0]++);
            String method = "str";
            if (at[0] < l.size() && l.arg(at[0]).equals("-m")) {
                method = value(l, at[0] + 1, where, "-m");
                if (!List.of("str", "beg", "end", "sub", "reg").contains(method)) {
                    throw new ConfigException("'" + where + "' : '" + method + "' only supports 'str', 'beg', 'end', 'sub' or 'reg'.");
                }
                at[0] += 2;
            }
            String text = value(l, at[0]++, where, part);
            boolean lf = part.endsWith("-lf");
            Pattern regex = null;
            if (method.equals("reg")) {
                if (lf) {
                    throw new ConfigException("'" + where + "' : 'hdr': log-format string is not supported with a regex matching method.");
                }
                try {
                    regex = Pattern.compile(text, part.equals("name") ? Pattern.CASE_INSENSITIVE : 0);
                } catch (PatternSyntaxException e) {
                    throw new ConfigException("'" + where + "' : regex '" + text + "' is invalid (" + e.getDescription() + ").");
                }
            }
            HeaderMatch.Match m = new HeaderMatch.Match(method, text, regex, lf ? format(text, where) : null);
            if (part.startsWith("name")) {
                name = m;
            } else {
                value = m;
            }
        }
        if (name == null) {
            throw new ConfigException("'" + where + "' : 'hdr' expects 'name' followed by a pattern.");
        }
        return new HeaderMatch(name, value, full);
    }

    private static CheckRule.Kind kind(String match, boolean http, String where) throws ConfigException {
        if (http) {
            return switch (match) {
                case "status" -> CheckRule.Kind.STATUS;
                case "rstatus" -> CheckRule.Kind.RSTATUS;
                case "string" -> CheckRule.Kind.BODY;
                case "rstring" -> CheckRule.Kind.RBODY;
                case "hdr", "fhdr" -> CheckRule.Kind.HEADER;
                case "string-lf" -> CheckRule.Kind.BODY_LF;
                default -> throw new ConfigException("'" + where + "' : 'only supports min-recv, [!]string', '[!]rstring', '[!]string-lf', "
                        + "'[!]status', '[!]rstatus', [!]hdr, [!]fhdr or comment but got '" + match + "' as argument.");
            };
        }
        return switch (match) {
            case "string" -> CheckRule.Kind.STRING;
            case "rstring" -> CheckRule.Kind.RSTRING;
            case "binary" -> CheckRule.Kind.BINARY;
            case "rbinary" -> CheckRule.Kind.RBINARY;
            case "string-lf" -> CheckRule.Kind.STRING_LF;
            case "binary-lf" -> CheckRule.Kind.BINARY_LF;
            default -> throw new ConfigException("'" + where + "' : 'only supports min-recv, 'error-status', 'ok-status', 'tout-status', "
                    + "[!] followed by 'string', 'rstring', 'binary' or 'rbinary' but got '" + match + "' as argument.");
        };
    }

    private static String value(ConfigLine l, int i, String where, String w) throws ConfigException {
        if (!l.has(i)) {
            throw new ConfigException("'" + where + "' : '" + w + "' expects " + (w.equals("meth") || w.equals("uri") || w.equals("ver")
                    ? "a string as argument." : "a <pattern> as argument"));
        }
        return l.arg(i);
    }

    /**
     * The status an {@code ok-status}, {@code error-status} or {@code tout-status} names, one of {@code listed} (as
     * HAProxy words them) or {@code unlisted} (one HAProxy 2.6 accepts without saying it).
     */
    private static CheckStatus status(String name, String where, String option, String listed, String unlisted) throws ConfigException {
        if (!listed.contains("'" + name + "'") && !name.equals(unlisted)) {
            throw new ConfigException("'" + where + "' : '" + option + "' only supports " + listed + " status (got '" + name + "')..");
        }
        return CheckStatus.named(name);
    }

    private static byte[] hex(String v, String where) throws ConfigException {
        if (v.length() % 2 != 0) {
            throw new ConfigException("'" + where + "' : '" + v + "' invalid binary string (an even number of hex digits is expected).");
        }
        byte[] out = new byte[v.length() / 2];
        for (int i = 0; i < v.length(); i++) {
            if (Character.digit(v.charAt(i), 16) < 0) {
                throw new ConfigException("'" + where + "' : '" + v + "' invalid binary string (an hex digit is expected (found '" + v.charAt(i) + "')).");
            }
        }
        for (int i = 0; i < out.length; i++) {
            out[i] = (byte) Integer.parseInt(v.substring(2 * i, 2 * i + 2), 16);
        }
        return out;
    }

    /** The bytes of a hex string made at run time ({@code send-binary-lf}, {@code binary-lf}), or null when it is not one. */
    static byte[] hexOrNull(String v) {
        if (v.length() % 2 != 0 || !v.chars().allMatch(ch -> Character.digit(ch, 16) >= 0)) {
            return null;
        }
        return ByteBufUtil.decodeHexDump(v);
    }

    /**
     * {@code tcp-check|http-check comment <text>}: a step of its own (HAProxy numbers it), whose text the rules after
     * it take ({@link #add}).
     */
    private static CheckRule.Comment comment(ConfigLine l, String where) throws ConfigException {
        if (!l.has(2)) {
            throw new ConfigException("'" + where + " comment' : expects a string as argument.");
        }
        return new CheckRule.Comment(l.arg(2));
    }

    /**
     * Adds a rule to {@code set}; a connect, send or expect without a comment of its own takes the text of the comment
     * rule before it, a send or an expect also over the sends or expects in between (HAProxy's check_proxy_tcpcheck()
     * hands a comment on until the kind of rule changes; a connect takes it and ends it).
     */
    static void add(List<CheckRule> set, CheckRule r) {
        String k = stepComment(set, r);
        if (k != null) {
            r = switch (r) {
                case CheckRule.Connect x when x.comment() == null -> new CheckRule.Connect(x.port(), x.portExpr(), x.addr(), x.sendProxy(),
                        x.viaSocks4(), x.byDefault(), x.ssl(), x.sni(), x.alpn(), k, x.linger());
                case CheckRule.Send x when x.comment() == null -> new CheckRule.Send(x.data(), k);
                case CheckRule.HttpSend x when x.comment() == null -> new CheckRule.HttpSend(x.method(), x.uri(), x.version(), x.headers(), x.body(),
                        k, x.fromOption());
                case CheckRule.Expect x when x.comment() == null -> x.commented(k);
                default -> r;
            };
        }
        set.add(r);
    }

    /** The text of the comment rule whose comment {@code r} added to {@code set} takes, null when none. */
    private static String stepComment(List<CheckRule> set, CheckRule r) {
        for (int i = set.size() - 1; i >= 0; i--) {
            CheckRule before = set.get(i);
            if (before instanceof CheckRule.Comment k) {
                return k.text();
            }
            boolean sends = isSend(before) && isSend(r);
            if (!sends && !(before instanceof CheckRule.Expect && r instanceof CheckRule.Expect)) {
                return null;
            }
        }
        return null;
    }

    private static boolean isSend(CheckRule r) {
        return r instanceof CheckRule.Send || r instanceof CheckRule.HttpSend;
    }

    private static String comment(ConfigLine l, int i) {
        return l.has(i + 1) && l.arg(i).equals("comment") ? l.arg(i + 1) : null;
    }
}
