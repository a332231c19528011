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
import io.fulcrum.sample.PcreRegex;
import io.fulcrum.sample.Sample;
import io.fulcrum.sample.SampleType;
import io.fulcrum.sample.Stage;
import io.fulcrum.sample.VarRef;
import io.netty.buffer.ByteBufUtil;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
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
            Args.noMoreThan(l, 0, "option tcp-check");
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
            case "send", "send-lf", "send-binary", "send-binary-lf" -> add(set, send(l, kw));
            case "expect" -> add(set, expect(l, "tcp-check", false));
            case "comment" -> set.add(comment(l, "tcp-check"));
            default -> {
                CheckRule v = variable(l, "tcp-check");
                if (v == null) {
                    throw new ConfigException("'tcp-check' only supports 'comment', 'connect', 'send', 'send-binary', 'expect', "
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
                noMore(l);
                c.disableOn404 = true;
                yield null;
            }
            case "send-state" -> {
                noMore(l);
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
                    throw new ConfigException("'http-check' only supports 'disable-on-404', 'send-state', 'comment', 'connect', 'send', "
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

    /** {@code tcp-check send|send-lf|send-binary|send-binary-lf <data> [comment <text>]}, with HAProxy's words. */
    private CheckRule.Send send(ConfigLine l, String kw) throws ConfigException {
        // HAProxy's own message swaps its two words: "'string' expects a send as argument"
        String data = value(l, 2, "'" + (kw.equals("send-binary") ? "binary string" : "string") + "' expects a " + kw + " as argument");
        String comment = null;
        for (int i = 3; has(l, i); i++) {
            if (!l.arg(i).equals("comment")) {
                throw fail(l, "expects 'comment' but got '" + l.arg(i) + "' as argument.");
            }
            comment = value(l, ++i, "'comment' expects a string as argument.");
        }
        CheckRule.Payload payload = switch (kw) {
            case "send" -> {
                byte[] b = data.getBytes(StandardCharsets.ISO_8859_1);
                yield x -> b;
            }
            case "send-binary" -> {
                byte[] b = hex(l, data, "'" + data + "' invalid binary string (%s).\n");
                yield x -> b;
            }
            case "send-lf" -> {
                CheckRule.Text f = format(l, data, data);
                yield x -> f.of(x).getBytes(StandardCharsets.ISO_8859_1);
            }
            default -> {
                CheckRule.Text f = format(l, data, data);
                yield x -> hexOrNull(f.of(x));
            }
        };
        return new CheckRule.Send(payload, comment);
    }

    /** HAProxy's refusal of words after {@code http-check disable-on-404} or {@code send-state}. */
    private static void noMore(ConfigLine l) throws ConfigException {
        if (has(l, 2)) {
            throw new ConfigException("'" + l.arg(0) + "' cannot handle unexpected argument '" + l.arg(2) + "'.");
        }
    }

    /** A refused {@code tcp-check|http-check <rule>} line: HAProxy's "'tcp-check send' : <why>." */
    private static ConfigException fail(ConfigLine l, String why) {
        return new ConfigException("'" + l.arg(0) + " " + l.arg(1) + "' : " + why + ".");
    }

    /** Whether word {@code i} is there: an empty word ends a rule's words, as in HAProxy. */
    private static boolean has(ConfigLine l, int i) {
        return l.has(i) && !l.arg(i).isEmpty();
    }

    /** Word {@code i}, else a refusal saying {@code missing}. */
    private static String value(ConfigLine l, int i, String missing) throws ConfigException {
        if (!has(l, i)) {
            throw fail(l, missing);
        }
        return l.arg(i);
    }

    /** {@code set-var(name) <expr>}, {@code set-var-fmt(name) <fmt>}, {@code unset-var(name)}; null for another word. */
    private CheckRule variable(ConfigLine l, String kw) throws ConfigException {
        String word = l.arg(1);
        int paren = word.indexOf('(');
        String action = paren < 0 ? word : word.substring(0, paren);
        if (paren < 0 && List.of("set-var", "set-var-fmt", "unset-var").contains(word)) {
            throw fail(l, "'" + word + "' : invalid or incomplete action '" + word + "'. Expects 'set-var(<var-name>)', "
                    + "'set-var-fmt(<var-name>)' or 'unset-var(<var-name>)'");
        }
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
                try {
                    // without a format, HAProxy sets the variable to an empty string
                    return new CheckRule.SetVar(var, null, formats.parse(l.has(2) ? l.arg(2) : "", Stage.BE_CHK_RUL, false, false));
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

    /** A log-format text of a check rule; when it does not compile, HAProxy's words (which name {@code named}, and end a line). */
    private CheckRule.Text format(ConfigLine l, String text, String named) throws ConfigException {
        try {
            return CheckRule.Text.of(formats.parse(text, Stage.BE_CHK_RUL, false, false));
        } catch (ConfigException e) {
            throw fail(l, "'" + named + "' invalid log-format string (" + e.getMessage() + ").\n");
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
        InetSocketAddress addr = null;
        boolean sendProxy = false;
        boolean viaSocks4 = false;
        boolean byDefault = false;
        boolean linger = false;
        boolean ssl = false;
        String sni = null;
        List<String> alpn = null;
        String comment = null;
        for (int i = 2; has(l, i); i++) {
            String w = l.arg(i);
            switch (w) {
                case "port" -> {
                    String v = value(l, ++i, "'port' expects a port number or a sample expression as argument.");
                    if (v.matches("\\d+")) {
                        port = v.length() > 5 ? 0 : Integer.parseInt(v);
                        if (port < 1 || port > 65535) {
                            throw fail(l, "expects a valid TCP port (from range 1 to 65535) or a sample expression, got " + v + ".");
                        }
                    } else {
                        portExpr = intExpr(v, "'" + kw + " connect' : error detected while parsing port expression : ", false);
                    }
                }
                case "addr" -> addr = connectAddr(l, value(l, ++i, "'addr' expects <ipv4|ipv6> as argument."));
                case "send-proxy" -> sendProxy = true;
                case "default" -> byDefault = true;
                case "linger" -> linger = true;
                case "ssl" -> ssl = true;
                case "sni" -> sni = value(l, ++i, "'sni' expects a string as argument.");
                case "alpn" -> alpn = CheckModule.alpn(l.has(i + 1) ? l.arg(++i) : "", "'" + kw + " connect' : 'alpn'");
                case "proto" -> connectProto(l.has(i + 1) ? l.arg(++i) : null, kw);
                case "comment" -> comment = value(l, ++i, "'comment' expects a string as argument.");
                case "via-socks4" -> viaSocks4 = true;
                default -> throw fail(l, "expects 'comment', 'port', 'addr', 'send-proxy', 'ssl', 'sni', 'alpn' or 'via-socks4', 'linger', "
                        + "'default' but got '" + w + "' as argument.");
            }
        }
        return new CheckRule.Connect(port, portExpr, addr, sendProxy, viaSocks4, byDefault, ssl, sni, alpn, comment, linger);
    }

    /** A connect's {@code addr}: an IPv4 or IPv6 address or a name, resolved now, and an IPv4 address's or a name's port if any (else 0). */
    private static InetSocketAddress connectAddr(ConfigLine l, String v) throws ConfigException {
        int colon = v.lastIndexOf(':');
        boolean withPort = colon > 0 && v.indexOf(':') == colon && v.substring(colon + 1).matches("\\d{1,5}")
                && Integer.parseInt(v.substring(colon + 1)) <= 65535;
        try {
            return new InetSocketAddress(InetAddress.getByName(withPort ? v.substring(0, colon) : v),
                    withPort ? Integer.parseInt(v.substring(colon + 1)) : 0);
        } catch (UnknownHostException e) {
            throw fail(l, "'addr' : invalid address: '" + v + "' in '" + v + "'\n.");
        }
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
        for (int i = 2; has(l, i); i++) {
            String w = l.arg(i);
            String missing = "'" + w + "' expects a string as argument.";
            switch (w) {
                case "meth" -> method = value(l, ++i, missing);
                case "uri" -> uri = CheckRule.Text.fixed(value(l, ++i, missing));
                case "uri-lf" -> uri = format(l, value(l, ++i, missing), l.arg(i));
                case "ver" -> version = value(l, ++i, missing);
                case "body" -> body = CheckRule.Text.fixed(value(l, ++i, missing));
                case "body-lf" -> body = format(l, value(l, ++i, missing), l.arg(i));
                case "comment" -> comment = value(l, ++i, missing);
                case "hdr" -> {
                    if (!has(l, i + 1) || !has(l, i + 2)) {
                        throw fail(l, "'hdr' expects <name> and <value> as arguments");
                    }
                    String name = l.arg(++i);
                    String text = l.arg(++i);
                    if (name.equalsIgnoreCase("host") && host != null) {
                        throw fail(l, "'" + name + "' header already defined (previous value is '" + host + "')");
                    }
                    if (name.equalsIgnoreCase("host")) {
                        host = text;
                    }
                    // HAProxy drops them: the check writes its own content-length, and sends no chunks
                    if (!name.equalsIgnoreCase("content-length") && !name.equalsIgnoreCase("transfer-encoding")) {
                        try {
                            headers.add(new CheckRule.Header(name, CheckRule.Text.of(formats.parse(text, Stage.BE_CHK_RUL, false, false))));
                        } catch (ConfigException e) {
                            throw fail(l, e.getMessage()); // without the words of the other log-format texts, as HAProxy
                        }
                    }
                }
                default -> throw fail(l, "expects 'comment', 'meth', 'uri', 'uri-lf', 'ver', 'hdr', 'body' or 'body-lf' but got '" + w
                        + "' as argument.");
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

    /**
     * {@code expect}: its pattern and options in any order, read as HAProxy 2.6's parse_tcpcheck_expect() reads them
     * (and refused with its words); the pattern is compiled once the line is read.
     */
    private CheckRule.Expect expect(ConfigLine l, String kw, boolean http) throws ConfigException {
        if (!has(l, 2)) {
            throw fail(l, "expects at least a matching pattern as arguments");
        }
        ExpectOptions o = new ExpectOptions();
        boolean negate = false;
        CheckRule.Kind kind = null;
        String pattern = null;
        HeaderWords hdr = null;
        for (int i = 2; has(l, i); i++) {
            String w = l.arg(i);
            boolean inPattern = false;
            while (w.startsWith("!")) {
                inPattern = true;
                int n = 0;
                while (n < w.length() && w.charAt(n) == '!') {
                    n++;
                }
                negate ^= n % 2 == 1;
                w = w.substring(n);
                if (w.isEmpty()) {
                    w = l.has(++i) ? l.arg(i) : "";
                }
            }
            CheckRule.Kind k = kind(w, http);
            if (k != null) {
                if (kind != null) {
                    throw fail(l, "only on pattern expected");
                }
                kind = k;
                if (k == CheckRule.Kind.HEADER) {
                    hdr = headerWords(l, i, w);
                    i = hdr.last;
                } else {
                    pattern = value(l, ++i, "'" + w + "' expects a <pattern> as argument");
                }
                continue;
            }
            if (w.equals("custom") && !inPattern) {
                // haproxy 2.6 takes it and would run a rule without its function: the protocol checks' own kind of expect
                throw fail(l, "'custom' is the expect of HAProxy's protocol checks, a rule cannot use it");
            }
            if (inPattern && OPTIONS.contains(w)) {
                throw fail(l, "[!] not supported with '" + w + "'");
            }
            if (w.equals("min-recv")) {
                long n = Args.atol(value(l, ++i, "'min-recv' expects a integer as argument")); // as HAProxy: "12abc" is 12, "abc" 0
                if (n < -1 || n > Integer.MAX_VALUE) {
                    throw fail(l, "'min-recv' expects -1 or an integer from 0 to INT_MAX");
                }
                o.minRecv = (int) n;
                continue;
            }
            int next = option(l, i, o);
            if (next == i) {
                throw fail(l, http ? "'only supports min-recv, [!]string', '[!]rstring', '[!]string-lf', '[!]status', '[!]rstatus', "
                        + "[!]hdr, [!]fhdr or comment but got '" + w + "' as argument."
                        : "'only supports min-recv, '[!]binary', '[!]string', '[!]rstring', '[!]string-lf''[!]rbinary', '[!]binary-lf' "
                        + "or comment but got '" + w + "' as argument.");
            }
            i = next;
        }
        if (kind == null) {
            throw fail(l, "pattern not found");
        }
        if (kind == CheckRule.Kind.HEADER) {
            return new CheckRule.Expect(kind, negate, hdr.word, null, null, null, o.minRecv, o.comment, o.onSuccess, o.onError, o.statusCode,
                    header(l, hdr), null, false, o.ok, o.error, o.tout);
        }
        Pattern regex = null;
        byte[] bytes = null;
        CheckRule.Text lf = null;
        switch (kind) {
            case RSTRING, RBINARY, RSTATUS, RBODY -> regex = regex(l, pattern, false);
            case BINARY -> bytes = hex(l, pattern, "invalid binary string (%s)");
            case STATUS -> CheckRule.Expect.statusCodes(pattern, why -> fail(l, why));
            case STRING_LF, BINARY_LF, BODY_LF -> lf = format(l, pattern, pattern);
            default -> bytes = pattern.getBytes(StandardCharsets.ISO_8859_1);
        }
        return new CheckRule.Expect(kind, negate, pattern, regex, bytes, lf, o.minRecv, o.comment, o.onSuccess, o.onError, o.statusCode,
                null, null, false, o.ok, o.error, o.tout);
    }

    /** The expect options a {@code !} may not come before. */
    private static final List<String> OPTIONS = List.of("min-recv", "custom", "comment", "on-success", "on-error", "ok-status", "error-status",
            "status-code", "tout-status");

    /** A regex of a check rule, refused with PCRE2's words as HAProxy says them. */
    private static Pattern regex(ConfigLine l, String text, boolean ignoreCase) throws ConfigException {
        try {
            return PcreRegex.compile(text, ignoreCase);
        } catch (PatternSyntaxException e) {
            throw fail(l, "regex '" + text + "' is invalid" + PcreRegex.reason(e));
        }
    }

    /** Reads the option at {@code i} into {@code o}; the index of its last word, or {@code i} when it is no option. */
    private int option(ConfigLine l, int i, ExpectOptions o) throws ConfigException {
        String w = l.arg(i);
        String missing = "'" + w + "' expects a string as argument";
        switch (w) {
            case "comment" -> o.comment = value(l, i + 1, missing);
            case "on-success" -> o.onSuccess = format(l, value(l, i + 1, missing), l.arg(i + 1));
            case "on-error" -> o.onError = format(l, value(l, i + 1, missing), l.arg(i + 1));
            case "ok-status" -> o.ok = status(l, value(l, i + 1, missing), w, "'L4OK', 'L6OK', 'L7OK' or 'L7OKC'", "");
            case "error-status" -> o.error = status(l, value(l, i + 1, missing), w, "'L4CON', 'L6RSP', 'L7RSP' or 'L7STS'", "L7OKC");
            case "tout-status" -> o.tout = status(l, value(l, i + 1, missing), w, "'L4TOUT', 'L6TOUT' or 'L7TOUT'", "");
            case "status-code" -> o.statusCode = intExpr(value(l, i + 1, "'status-code' expects an expression as argument"),
                    "'" + l.arg(0) + " " + l.arg(1) + "' : error detected while parsing status-code expression : ", true);
            default -> {
                return i;
            }
        }
        return i + 1;
    }

    /**
     * An integer expression ({@code status-code}, {@code connect port}): -1 when it gives no sample; {@code error} prefixes
     * its errors. {@code viaString}: fetched as a string, then read as an integer (HAProxy's status-code, so that
     * {@code res.payload(0,3)}, binary, gives its digits).
     */
    private ToIntFunction<CheckContext> intExpr(String text, String error, boolean viaString) throws ConfigException {
        Expr e;
        try {
            e = exprs.parse(text);
        } catch (ConfigException ex) {
            throw new ConfigException(error + ex.getMessage() + ".");
        }
        return c -> {
            Sample s = new Sample();
            boolean got = viaString ? e.eval(c, s, SampleType.STR) && s.cast(SampleType.SINT) : e.eval(c, s, SampleType.SINT);
            return got ? (int) s.num() : -1;
        };
    }

    /** The words of {@code hdr|fhdr name [-m meth] <name> [value [-m meth] <value>]}; {@code last} is the index of the last one. */
    private record HeaderWords(String word, boolean nameLf, String nameMethod, String name, boolean valueLf, String valueMethod,
                               String value, int last) {
    }

    /** The header words from {@code at} (the {@code hdr} word), checked as HAProxy does while it reads the line. */
    private static HeaderWords headerWords(ConfigLine l, int at, String word) throws ConfigException {
        int i = at;
        if (!has(l, i + 1) || !has(l, i + 2) || !List.of("name", "name-lf").contains(l.arg(i + 1))) {
            throw fail(l, "'" + word + "' expects at the name keyword as first argument followed by a pattern");
        }
        boolean nameLf = l.arg(i + 1).equals("name-lf");
        i += 2;
        String nameMethod = "str";
        if (l.arg(i).equals("-m")) {
            nameMethod = method(l, i, word, nameLf);
            i += 2;
        }
        String name = l.has(i) ? l.arg(i) : "";
        if (!has(l, i + 1) || !List.of("value", "value-lf").contains(l.arg(i + 1))) {
            return new HeaderWords(word, nameLf, nameMethod, name, false, null, null, i);
        }
        boolean valueLf = l.arg(i + 1).equals("value-lf");
        String valueMethod = "str";
        if (l.has(i + 2) && l.arg(i + 2).equals("-m")) {
            i += 2;
            valueMethod = method(l, i, word, valueLf);
        }
        if (!has(l, i + 2)) {
            throw fail(l, "'" + word + "' expect a pattern with the value keyword");
        }
        return new HeaderWords(word, nameLf, nameMethod, name, valueLf, valueMethod, l.arg(i + 2), i + 2);
    }

    /** The matching method after the {@code -m} at {@code i}. */
    private static String method(ConfigLine l, int i, String word, boolean lf) throws ConfigException {
        if (!has(l, i + 1)) {
            throw fail(l, "'" + word + "' : '-m' expects at a matching pattern ('str', 'beg', 'end', 'sub' or 'reg')");
        }
        String m = l.arg(i + 1);
        if (m.equals("reg") && lf) {
            throw fail(l, "'" + word + "': log-format string is not supported with a regex matching method");
        }
        if (!List.of("str", "beg", "end", "sub", "reg").contains(m)) {
            throw fail(l, "'" + word + "' : '-m' only supports 'str', 'beg', 'end', 'sub' or 'reg' (got '" + m + "')");
        }
        return m;
    }

    /** What a header expect looks for, its patterns compiled (a regex name matches in any case, as HAProxy's). */
    private HeaderMatch header(ConfigLine l, HeaderWords w) throws ConfigException {
        HeaderMatch.Match name = new HeaderMatch.Match(w.nameMethod, w.name, w.nameMethod.equals("reg") ? regex(l, w.name, true) : null,
                w.nameLf ? format(l, w.name, w.name) : null);
        HeaderMatch.Match value = w.value == null ? null : new HeaderMatch.Match(w.valueMethod, w.value,
                w.valueMethod.equals("reg") ? regex(l, w.value, false) : null, w.valueLf ? format(l, w.value, w.name) : null);
        return new HeaderMatch(name, value, w.word.equals("fhdr"));
    }

    /** The pattern kind {@code match} names, null when it names none (for this kind of check). */
    private static CheckRule.Kind kind(String match, boolean http) {
        if (http) {
            return switch (match) {
                case "status" -> CheckRule.Kind.STATUS;
                case "rstatus" -> CheckRule.Kind.RSTATUS;
                case "string" -> CheckRule.Kind.BODY;
                case "rstring" -> CheckRule.Kind.RBODY;
                case "hdr", "fhdr" -> CheckRule.Kind.HEADER;
                case "string-lf" -> CheckRule.Kind.BODY_LF;
                default -> null;
            };
        }
        return switch (match) {
            case "string" -> CheckRule.Kind.STRING;
            case "rstring" -> CheckRule.Kind.RSTRING;
            case "binary" -> CheckRule.Kind.BINARY;
            case "rbinary" -> CheckRule.Kind.RBINARY;
            case "string-lf" -> CheckRule.Kind.STRING_LF;
            case "binary-lf" -> CheckRule.Kind.BINARY_LF;
            default -> null;
        };
    }

    /**
     * The status an {@code ok-status}, {@code error-status} or {@code tout-status} names, one of {@code listed} (as
     * HAProxy words them) or {@code unlisted} (one HAProxy 2.6 accepts without saying it).
     */
    private static CheckStatus status(ConfigLine l, String name, String option, String listed, String unlisted) throws ConfigException {
        String upper = name.toUpperCase(java.util.Locale.ROOT); // HAProxy compares them in any case
        if (!listed.contains("'" + upper + "'") && !upper.equals(unlisted)) {
            throw fail(l, "'" + option + "' only supports " + listed + " status (got '" + name + "').");
        }
        return CheckStatus.named(upper);
    }

    /** The bytes of hex string {@code v}; when it is not one, HAProxy's reason in {@code refusal}'s %s. */
    private static byte[] hex(ConfigLine l, String v, String refusal) throws ConfigException {
        if (v.length() % 2 != 0) {
            throw fail(l, refusal.formatted("an even number of hex digit is expected"));
        }
        for (int i = 0; i < v.length(); i++) {
            if (Character.digit(v.charAt(i), 16) < 0) {
                throw fail(l, refusal.formatted("an hex digit is expected (found '" + v.charAt(i) + "')"));
            }
        }
        return ByteBufUtil.decodeHexDump(v);
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
}
