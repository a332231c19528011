package io.fulcrum.check;

import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.ConfigLine;
import io.fulcrum.cfg.KeywordTable;
import io.fulcrum.proxy.Capability;
import io.fulcrum.proxy.OptionContext;
import io.fulcrum.proxy.ProxySpec;

import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * The check-type options ({@code option httpchk}, {@code option tcp-check}, the protocol checks) and the
 * {@code tcp-check}/{@code http-check} rules, parsed into {@link CheckRule}s. Protocol checks are rule sets,
 * as in HAProxy.
 */
final class CheckRules {
    private CheckRules() {
    }

    static void register(KeywordTable<OptionContext> options, KeywordTable<ProxySpec> keywords) {
        options.add("httpchk", Capability.BE | Capability.NO_NEGATION, (o, l) -> httpchk(CheckModule.of(o.proxy()), l));
        options.add("tcp-check", Capability.BE | Capability.NO_NEGATION, (o, l) -> {
            ProxyChecks c = CheckModule.of(o.proxy());
            c.type = ProxyChecks.Type.TCP;
            c.rules = new ArrayList<>();
            c.explicit = true;
        });
        ProtocolChecks.register(options);
        keywords.add("tcp-check", Capability.BE, (p, l) -> tcpCheck(CheckModule.of(p), l));
        keywords.add("http-check", Capability.BE, (p, l) -> httpCheck(CheckModule.of(p), l));
    }

    /** {@code option httpchk [<method>] [<uri>] [<version>]}; headers may follow the version after "\r\n". */
    private static void httpchk(ProxyChecks c, ConfigLine l) {
        c.type = ProxyChecks.Type.HTTP;
        c.explicit = false;
        c.rules = new ArrayList<>();
        String method = "OPTIONS";
        String uri = "/";
        String version = "HTTP/1.0";
        if (l.has(3)) {
            method = l.arg(1);
            uri = l.arg(2);
            version = l.arg(3);
        } else if (l.has(2)) {
            method = l.arg(1);
            uri = l.arg(2);
        } else if (l.has(1)) {
            uri = l.arg(1);
        }
        List<String[]> headers = new ArrayList<>();
        String[] parts = version.split("\r\n");
        for (int i = 1; i < parts.length; i++) {
            int colon = parts[i].indexOf(':');
            if (colon > 0) {
                headers.add(new String[]{parts[i].substring(0, colon).trim(), parts[i].substring(colon + 1).trim()});
            }
        }
        c.request = new CheckRule.HttpSend(method, uri, parts[0], headers, null, null);
    }

    private static void tcpCheck(ProxyChecks c, ConfigLine l) throws ConfigException {
        String kw = l.arg(1);
        switch (kw) {
            case "connect" -> c.rules.add(connect(l, "tcp-check"));
            case "send", "send-lf" -> {
                if (!l.has(2)) {
                    throw new ConfigException("'tcp-check " + kw + "' expects a string as argument.");
                }
                if (kw.equals("send-lf") && l.arg(2).contains("%")) {
                    throw new ConfigException("'tcp-check send-lf' with log-format expressions is not supported by Fulcrum yet.");
                }
                byte[] data = l.arg(2).getBytes(StandardCharsets.ISO_8859_1);
                c.rules.add(new CheckRule.Send(() -> data, comment(l, 3)));
            }
            case "send-binary", "send-binary-lf" -> {
                if (!l.has(2)) {
                    throw new ConfigException("'tcp-check " + kw + "' expects a binary string as argument.");
                }
                byte[] data = hex(l.arg(2), "tcp-check " + kw);
                c.rules.add(new CheckRule.Send(() -> data, comment(l, 3)));
            }
            case "expect" -> c.rules.add(expect(l, "tcp-check", false));
            case "comment" -> { }
            case "set-var", "unset-var", "set-var-fmt" -> throw new ConfigException("'tcp-check " + kw + "' is not supported by Fulcrum yet.");
            default -> {
                if (kw.startsWith("set-var") || kw.startsWith("unset-var")) {
                    throw new ConfigException("'tcp-check " + kw + "' is not supported by Fulcrum yet.");
                }
                throw ConfigException.unspaced("'tcp-check' only supports 'comment', 'connect', 'send', 'send-binary', 'expect', "
                        + "'set-var-fmt(*)', 'set-var(*)', 'unset-var(*)'. but got '" + kw + "'");
            }
        }
        c.explicit = true;
    }

    private static void httpCheck(ProxyChecks c, ConfigLine l) throws ConfigException {
        String kw = l.arg(1);
        switch (kw) {
            case "disable-on-404" -> c.disableOn404 = true;
            case "send-state" -> c.sendState = true;
            case "comment" -> { }
            case "connect" -> c.rules.add(connect(l, "http-check"));
            case "send" -> c.rules.add(httpSend(c.request, l));
            case "expect" -> c.rules.add(expect(l, "http-check", true));
            default -> {
                if (kw.startsWith("set-var") || kw.startsWith("unset-var")) {
                    throw new ConfigException("'http-check " + kw + "' is not supported by Fulcrum yet.");
                }
                throw ConfigException.unspaced("'http-check' only supports 'disable-on-404', 'send-state', 'comment', 'connect', 'send', "
                        + "'expect', 'set-var-fmt(*)', 'set-var(*)', 'unset-var(*)'. but got '" + kw + "'");
            }
        }
    }

    private static CheckRule.Connect connect(ConfigLine l, String kw) throws ConfigException {
        int port = 0;
        InetAddress addr = null;
        boolean sendProxy = false;
        boolean byDefault = false;
        boolean ssl = false;
        String sni = null;
        List<String> alpn = null;
        String comment = null;
        for (int i = 2; i < l.size(); i++) {
            String w = l.arg(i);
            switch (w) {
                case "port" -> port = CheckModule.port(value(l, ++i, kw + " connect", w), "port");
                case "addr" -> addr = CheckModule.address(value(l, ++i, kw + " connect", w), "addr");
                case "send-proxy" -> sendProxy = true;
                case "default" -> byDefault = true;
                case "linger" -> { }
                case "ssl" -> ssl = true;
                case "sni" -> sni = value(l, ++i, kw + " connect", w);
                case "alpn" -> alpn = CheckModule.alpn(l.has(i + 1) ? l.arg(++i) : "", "'" + kw + " connect' : 'alpn'");
                case "proto" -> CheckModule.proto(l.has(i + 1) ? l.arg(++i) : "", "'" + kw + " connect' : 'proto'");
                case "comment" -> comment = value(l, ++i, kw + " connect", w);
                case "via-socks4" -> throw new ConfigException("'" + kw + " connect " + w + "' is not supported by Fulcrum yet.");
                default -> throw new ConfigException("'" + kw + " connect' : expects 'comment', 'port', 'addr', 'send-proxy', 'via-socks4', "
                        + "'ssl', 'sni', 'alpn', 'proto', 'linger' or 'default' but got '" + w + "' as argument.");
            }
        }
        return new CheckRule.Connect(port, addr, sendProxy, byDefault, ssl, sni, alpn, comment);
    }

    /** {@code http-check send}: what it gives overrides {@code option httpchk}'s request. */
    private static CheckRule.HttpSend httpSend(CheckRule.HttpSend base, ConfigLine l) throws ConfigException {
        String method = base.method();
        String uri = base.uri();
        String version = base.version();
        List<String[]> headers = new ArrayList<>(base.headers());
        String body = base.body();
        String comment = null;
        for (int i = 2; i < l.size(); i++) {
            String w = l.arg(i);
            switch (w) {
                case "meth" -> method = value(l, ++i, "http-check send", w);
                case "uri" -> uri = value(l, ++i, "http-check send", w);
                case "ver" -> version = value(l, ++i, "http-check send", w);
                case "body" -> body = value(l, ++i, "http-check send", w);
                case "comment" -> comment = value(l, ++i, "http-check send", w);
                case "hdr" -> {
                    String name = value(l, ++i, "http-check send", w);
                    headers.add(new String[]{name, value(l, ++i, "http-check send", w)});
                }
                case "uri-lf", "body-lf" -> throw new ConfigException("'http-check send " + w + "' is not supported by Fulcrum yet.");
                default -> throw new ConfigException("'http-check send' : expects 'comment', 'meth', 'uri', 'uri-lf', 'ver', 'hdr', 'body' or "
                        + "'body-lf' but got '" + w + "' as argument.");
            }
        }
        return new CheckRule.HttpSend(method, uri, version, headers, body, comment);
    }

    private static CheckRule.Expect expect(ConfigLine l, String kw, boolean http) throws ConfigException {
        String where = kw + " expect";
        int minRecv = -1;
        boolean negate = false;
        String comment = null;
        CheckRule.Text onSuccess = null;
        CheckRule.Text onError = null;
        CheckStatus ok = null;
        CheckStatus error = null;
        CheckStatus tout = null;
        for (int i = 2; i < l.size(); i++) {
            String w = l.arg(i);
            switch (w) {
                case "min-recv" -> minRecv = Integer.parseInt(value(l, ++i, where, w));
                case "comment" -> comment = value(l, ++i, where, w);
                case "on-success" -> onSuccess = staticText(value(l, ++i, where, w), where + " on-success");
                case "on-error" -> onError = staticText(value(l, ++i, where, w), where + " on-error");
                case "ok-status" -> ok = status(value(l, ++i, where, w), where);
                case "error-status" -> error = status(value(l, ++i, where, w), where);
                case "tout-status" -> tout = status(value(l, ++i, where, w), where);
                case "status-code" -> throw new ConfigException("'" + where + " status-code' is not supported by Fulcrum yet.");
                case "!" -> negate = true;
                default -> {
                    String match = w.startsWith("!") ? w.substring(1) : w;
                    negate |= w.startsWith("!") && w.length() > 1;
                    CheckRule.Kind kind = kind(match, http, where);
                    if (kind == CheckRule.Kind.HEADER) {
                        int[] at = {i + 1};
                        HeaderMatch h = header(l, at, match.equals("fhdr"), where);
                        return rest(l, at[0], new CheckRule.Expect(kind, negate, match, null, null, minRecv, comment, onSuccess, onError, null, h,
                                null, false, ok, error, tout), where);
                    }
                    String pattern = value(l, ++i, where, match);
                    Pattern regex = null;
                    byte[] bytes = null;
                    if (kind == CheckRule.Kind.RSTRING || kind == CheckRule.Kind.RBINARY || kind == CheckRule.Kind.RSTATUS || kind == CheckRule.Kind.RBODY) {
                        try {
                            regex = Pattern.compile(pattern);
                        } catch (PatternSyntaxException e) {
                            throw new ConfigException("'" + where + "' : regex '" + pattern + "' is invalid (" + e.getDescription() + ").");
                        }
                    } else if (kind == CheckRule.Kind.BINARY) {
                        bytes = hex(pattern, where);
                    } else if (kind == CheckRule.Kind.STATUS) {
                        if (!pattern.matches("\\d{3}(-\\d{3})?(,\\d{3}(-\\d{3})?)*")) {
                            throw new ConfigException("'" + where + "' : invalid status list '" + pattern + "'.");
                        }
                    } else {
                        bytes = pattern.getBytes(StandardCharsets.ISO_8859_1);
                    }
                    CheckRule.Expect base = new CheckRule.Expect(kind, negate, pattern, regex, bytes, minRecv, comment, onSuccess, onError, null,
                            null, null, false, ok, error, tout);
                    return rest(l, i + 1, base, where);
                }
            }
        }
        throw new ConfigException("'" + where + "' : expects a pattern.");
    }

    /** Options written after the pattern ({@code comment}, {@code on-error}...). */
    private static CheckRule.Expect rest(ConfigLine l, int from, CheckRule.Expect e, String where) throws ConfigException {
        String comment = e.comment();
        CheckRule.Text onSuccess = e.onSuccess();
        CheckRule.Text onError = e.onError();
        CheckStatus ok = e.ok();
        CheckStatus error = e.error();
        CheckStatus tout = e.timeout();
        for (int i = from; i < l.size(); i++) {
            String w = l.arg(i);
            switch (w) {
                case "comment" -> comment = value(l, ++i, where, w);
                case "on-success" -> onSuccess = staticText(value(l, ++i, where, w), where + " on-success");
                case "on-error" -> onError = staticText(value(l, ++i, where, w), where + " on-error");
                case "ok-status" -> ok = status(value(l, ++i, where, w), where);
                case "error-status" -> error = status(value(l, ++i, where, w), where);
                case "tout-status" -> tout = status(value(l, ++i, where, w), where);
                default -> throw new ConfigException("'" + where + "' : unexpected argument '" + w + "'.");
            }
        }
        return new CheckRule.Expect(e.kind(), e.negate(), e.text(), e.regex(), e.bytes(), e.minRecv(), comment, onSuccess, onError, null,
                e.header(), null, false, ok, error, tout);
    }

    /** {@code name [-m meth] <name> [value [-m meth] <value>]} from {@code at[0]}, which is left after it. */
    private static HeaderMatch header(ConfigLine l, int[] at, boolean full, String where) throws ConfigException {
        HeaderMatch.Match name = null;
        HeaderMatch.Match value = null;
        while (at[0] < l.size() && (l.arg(at[0]).equals("name") || l.arg(at[0]).equals("value") || l.arg(at[0]).endsWith("-lf"))) {
            String part = l.arg(at[0]++);
            if (part.equals("name-lf") || part.equals("value-lf")) {
                throw new ConfigException("'" + where + " hdr " + part + "' is not supported by Fulcrum yet.");
            }
            String method = "str";
            if (at[0] < l.size() && l.arg(at[0]).equals("-m")) {
                method = value(l, at[0] + 1, where, "-m");
                if (!List.of("str", "beg", "end", "sub", "reg").contains(method)) {
                    throw new ConfigException("'" + where + "' : '" + method + "' only supports 'str', 'beg', 'end', 'sub' or 'reg'.");
                }
                at[0] += 2;
            }
            String text = value(l, at[0]++, where, part);
            Pattern regex = null;
            if (method.equals("reg")) {
                try {
                    regex = Pattern.compile(text, part.equals("name") ? Pattern.CASE_INSENSITIVE : 0);
                } catch (PatternSyntaxException e) {
                    throw new ConfigException("'" + where + "' : regex '" + text + "' is invalid (" + e.getDescription() + ").");
                }
            }
            if (part.equals("name")) {
                name = new HeaderMatch.Match(method, text, regex);
            } else {
                value = new HeaderMatch.Match(method, text, regex);
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
                case "string-lf" -> throw new ConfigException("'" + where + " " + match + "' is not supported by Fulcrum yet.");
                default -> throw new ConfigException("'" + where + "' : 'only supports min-recv, [!]string', '[!]rstring', '[!]string-lf', "
                        + "'[!]status', '[!]rstatus', [!]hdr, [!]fhdr or comment but got '" + match + "' as argument.");
            };
        }
        return switch (match) {
            case "string" -> CheckRule.Kind.STRING;
            case "rstring" -> CheckRule.Kind.RSTRING;
            case "binary" -> CheckRule.Kind.BINARY;
            case "rbinary" -> CheckRule.Kind.RBINARY;
            case "string-lf", "binary-lf" -> throw new ConfigException("'" + where + " " + match + "' is not supported by Fulcrum yet.");
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

    private static CheckRule.Text staticText(String v, String where) throws ConfigException {
        if (v.contains("%[") || v.contains("%{")) {
            throw new ConfigException("'" + where + "' with log-format expressions is not supported by Fulcrum yet.");
        }
        return CheckRule.Text.fixed(v);
    }

    private static CheckStatus status(String name, String where) throws ConfigException {
        CheckStatus s = CheckStatus.named(name);
        if (s == null) {
            throw new ConfigException("'" + where + "' : unknown status '" + name + "'.");
        }
        return s;
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

    private static String comment(ConfigLine l, int i) {
        return l.has(i + 1) && l.arg(i).equals("comment") ? l.arg(i + 1) : null;
    }
}
