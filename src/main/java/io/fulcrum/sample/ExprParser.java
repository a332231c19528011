package io.fulcrum.sample;

import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.HaproxyKeywords;
import io.fulcrum.cfg.Units;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.PatternSyntaxException;

/**
 * Parses sample expressions ({@code fetch(args),converter(args),...}) with HAProxy's syntax and error
 * messages. Arguments are separated by commas inside parentheses and use the configuration's quoting
 * (single quotes, double quotes, backslash escapes) to carry commas and parentheses.
 */
public final class ExprParser {
    private final SampleCatalog catalog;
    private final ArgResolution.Sink references;

    /**
     * @param references receives each expression parsed, to resolve its proxy, server and regex arguments after
     *                   parsing (or at once, refusing it)
     */
    public ExprParser(SampleCatalog catalog, ArgResolution.Sink references) {
        this.catalog = catalog;
        this.references = references;
    }

    /**
     * A parser of expressions whose proxy and server names are looked up when they run only, and whose regex
     * arguments must compile at once.
     */
    public ExprParser(SampleCatalog catalog) {
        this(catalog, e -> {
            String error = ProxyArgs.firstRegexError(e);
            if (error != null) {
                throw new ConfigException(error);
            }
        });
    }

    /** The result of parsing an expression that ends before the end of its text. */
    public record Parsed(Expr expr, int end) {
    }

    /** Parses {@code text} as one whole expression. */
    public Expr parse(String text) throws ConfigException {
        Parsed p = parse(text, 0, false);
        return p.expr();
    }

    /**
     * Parses an expression starting at {@code from}. With {@code stopAnywhere}, parsing stops at the first
     * character that cannot continue the expression (a log-format's ']'); otherwise the expression must
     * take the whole text.
     */
    public Parsed parse(String text, int from, boolean stopAnywhere) throws ConfigException {
        int end = word(text, from);
        if (end == from) {
            throw new ConfigException("missing fetch method");
        }
        String name = text.substring(from, end);
        Fetch fetch = catalog.fetch(name);
        if (fetch == null) {
            throw new ConfigException(HaproxyKeywords.knows("fetch", name)
                    ? "fetch method '" + name + "' is an HAProxy sample fetch that Fulcrum does not support yet"
                    : "unknown fetch method '" + name + "'");
        }
        Arg[] args;
        try {
            ArgList al = args(text, end, fetch.args());
            args = al.args;
            end = al.end;
            try {
                check(args, fetch.check());
            } catch (ConfigException e) {
                throw new ConfigException("invalid args in fetch method '" + name + "' : " + e.getMessage());
            }
        } catch (ArgException e) {
            throw new ConfigException("fetch method '" + name + "' : " + e.getMessage());
        }
        List<Expr.Step> steps = new ArrayList<>();
        SampleType prev = fetch.out();
        String conv = null;
        while (true) {
            if (end < text.length() && text.charAt(end) != ',') {
                if (stopAnywhere) {
                    break;
                }
                throw new ConfigException(conv == null ? "missing comma after fetch keyword '" + name + "'"
                        : "missing comma after converter '" + conv + "'");
            }
            while (end < text.length() && text.charAt(end) == ',') {
                end++;
            }
            if (end >= text.length()) {
                break;
            }
            int w = word(text, end);
            conv = text.substring(end, w);
            Converter c = catalog.converter(conv);
            if (c == null) {
                throw new ConfigException("unknown converter '" + conv + "'");
            }
            if (!prev.castsTo(c.in())) {
                throw new ConfigException("converter '" + conv + "' cannot be applied");
            }
            if (c.out() != SampleType.SAME) {
                prev = c.out();
            } else if (prev != c.in() && c.in() != SampleType.ANY) {
                prev = c.in();
            }
            Arg[] cargs;
            try {
                ArgList al = args(text, w, c.args());
                cargs = al.args;
                end = al.end;
            } catch (ArgException e) {
                throw new ConfigException("invalid arg " + (e.position + 1) + " in converter '" + conv + "' : " + e.getMessage());
            }
            try {
                check(cargs, c.check());
            } catch (ConfigException e) {
                throw new ConfigException("invalid args in converter '" + conv + "' : " + e.getMessage());
            }
            steps.add(new Expr.Step(c, cargs));
        }
        Expr expr = new Expr(text.substring(from, end), fetch, args, steps);
        references.referenced(expr);
        return new Parsed(expr, end);
    }

    /** Resolves variable names, then runs the keyword's own argument check. */
    private static void check(Arg[] args, Fetch.ArgCheck check) throws ConfigException {
        for (int k = 0; k < args.length; k++) {
            if (args[k].type() == ArgType.VAR) {
                args[k] = new Arg(ArgType.VAR, args[k].text(), 0, VarRef.parse(args[k].text()));
            }
        }
        if (check != null) {
            check.check(args);
        }
    }

    /** The end of the keyword starting at {@code from} (HAProxy's identifier characters). */
    private static int word(String text, int from) {
        int i = from;
        while (i < text.length()) {
            char c = text.charAt(i);
            if (!(Character.isLetterOrDigit(c) && c < 128 || c == '.' || c == '_' || c == '-' || c == '+' || c == ':')) {
                break;
            }
            i++;
        }
        return i;
    }

    /** A failure in an argument list, with the 0-based position of the argument. */
    private static final class ArgException extends Exception {
        final int position;

        ArgException(int position, String message) {
            super(message, null, false, false);
            this.position = position;
        }
    }

    private record ArgList(Arg[] args, int end) {
    }

    /**
     * Parses the argument list at {@code from} ("(a,b)" or nothing) against {@code spec}, as HAProxy's
     * make_arg_list: only string, regex and variable arguments may be empty, a missing list is an empty one (so a
     * keyword whose first argument is a string gets one empty argument), and extra arguments are reported
     * as a missing ')'.
     */
    private static ArgList args(String text, int from, ArgSpec spec) throws ArgException {
        List<Arg> args = new ArrayList<>();
        int i = from;
        boolean parens = i < text.length() && text.charAt(i) == '(';
        if (parens) {
            i++;
            while (args.size() < spec.max()) {
                StringBuilder w = new StringBuilder();
                int start = i;
                i = argWord(text, i, w);
                int pos = args.size();
                ArgType first = spec.types().get(0);
                if (w.isEmpty() && i == start && pos == 0 && (pos >= spec.mandatory() || isProxyType(first)) && !stringLike(first)
                        && i < text.length() && text.charAt(i) == ')') {
                    break; // "()": no argument (a string keeps its empty argument: req.hdr() is every header)
                }
                ArgType type = spec.types().get(pos);
                if (w.isEmpty() && i == start && isProxyType(type)) {
                    // Left empty: the proxy where the expression is (the keyword's check resolves it).
                    args.add(Arg.of(type, "", 0));
                } else if (w.isEmpty() && i == start && !stringLike(type)) {
                    if (pos < spec.mandatory()) {
                        throw new ArgException(pos, "expected type '" + type + "' at position " + (pos + 1) + ", but got nothing");
                    }
                    // An empty optional argument ends the list; HAProxy still sees an integer there, as 0.
                    if (type == ArgType.SINT) {
                        args.add(Arg.of(type, "", 0));
                    }
                    break;
                } else {
                    args.add(arg(type, w.toString(), pos));
                }
                if (i < text.length() && text.charAt(i) == ',' && args.size() < spec.max()) {
                    i++;
                } else {
                    break;
                }
            }
            if (i >= text.length() && args.size() < spec.mandatory() && !isProxyType(spec.types().get(args.size()))) {
                throw missing(args.size(), spec); // as HAProxy, which counts the arguments before it looks for the ')'
            }
            if (i >= text.length() || text.charAt(i) != ')') {
                String rest = text.substring(Math.min(i, text.length()));
                // The argument HAProxy blames: the first when none was read, else the last read but never the first.
                int blamed = args.isEmpty() ? 0 : Math.max(args.size(), 2) - 1;
                throw new ArgException(blamed, rest.isEmpty() ? "expected ')'" : "expected ')' before '" + rest + "'");
            }
            i++;
        }
        if (!parens && spec.mandatory() > 0 && stringLike(spec.types().get(0))) {
            args.add(arg(spec.types().get(0), "", 0)); // no list reads as "()": one empty string
        }
        int got = args.size();
        // A proxy, server or table may be left out, as in HAProxy: it is then the one where the expression is.
        while (got < spec.mandatory() && isProxyType(spec.types().get(got))) {
            args.add(Arg.of(spec.types().get(got), "", 0));
            got++;
        }
        if (got < spec.mandatory()) {
            throw missing(got, spec);
        }
        return new ArgList(args.toArray(new Arg[0]), i);
    }

    /** Only {@code got} of the mandatory arguments of {@code spec} were given. */
    private static ArgException missing(int got, ArgSpec spec) {
        ArgType type = spec.types().get(got);
        return new ArgException(got, got == 0
                ? "expected type '" + type + "' at position 1, but got nothing"
                : "missing arguments (got " + got + "/" + spec.mandatory() + "), type '" + type + "' expected");
    }

    private static boolean isProxyType(ArgType t) {
        return t == ArgType.FE || t == ArgType.BE || t == ArgType.SRV || t == ArgType.TAB;
    }

    /** String, regex and variable-name arguments may be empty (a check rejects them); the others must be given. */
    private static boolean stringLike(ArgType type) {
        return type == ArgType.STR || type == ArgType.REG || type == ArgType.VAR;
    }

    /**
     * Reads one argument up to an unquoted ',' or ')', resolving quotes and escapes as HAProxy 2.6 does:
     * outside single quotes a backslash escapes only a backslash, a quote or a space, and makes CR, LF and
     * tab of 'r', 'n' and 't'; it is kept before any other character ("\1" stays "\1" for regsub, "a\,b" ends
     * at the comma). Spaces are data.
     */
    private static int argWord(String text, int i, StringBuilder out) {
        char quote = 0;
        while (i < text.length()) {
            char c = text.charAt(i);
            if (quote == '\'') {
                if (c == '\'') {
                    quote = 0;
                } else {
                    out.append(c);
                }
            } else if (c == '\\' && i + 1 < text.length() && "\\'\" rnt".indexOf(text.charAt(i + 1)) >= 0) {
                char e = text.charAt(++i);
                out.append(e == 'r' ? '\r' : e == 'n' ? '\n' : e == 't' ? '\t' : e);
            } else if (quote == '"') {
                if (c == '"') {
                    quote = 0;
                } else {
                    out.append(c);
                }
            } else if (c == '\'' || c == '"') {
                quote = c;
            } else if (c == ',' || c == ')') {
                return i;
            } else {
                out.append(c);
            }
            i++;
        }
        return i;
    }

    private static Arg arg(ArgType type, String w, int pos) throws ArgException {
        if (w.isEmpty() && !stringLike(type)) {
            throw new ArgException(pos, "expected type '" + type + "' at position " + (pos + 1) + ", but got nothing");
        }
        try {
            return switch (type) {
                case SINT -> Arg.of(type, w, IntText.parse(w));
                case TIME -> Arg.of(type, w, Units.time(w, "argument"));
                case SIZE -> Arg.of(type, w, Units.size(w, "argument"));
                case IPV4 -> {
                    long v = IpText.parse4(w);
                    if (v < 0) {
                        throw new NumberFormatException();
                    }
                    yield Arg.of(type, w, v);
                }
                case MSK4 -> Arg.of(type, w, mask4(w));
                case IPV6 -> {
                    byte[] v = IpText.parse6(w);
                    if (v == null) {
                        throw new NumberFormatException();
                    }
                    yield new Arg(type, w, 0, v);
                }
                case MSK6 -> new Arg(type, w, 0, mask6(w));
                case PBUF_FNUM -> new Arg(type, w, 0, fieldPath(w));
                case REG -> new Arg(type, w, 0, regex(w));
                default -> Arg.of(type, w, 0);
            };
        } catch (NumberFormatException | ConfigException e) {
            throw new ArgException(pos, "failed to parse '" + w + "' as type '" + type + "' at position " + (pos + 1));
        }
    }

    /**
     * A regex argument compiled, or why it does not compile; null when empty. HAProxy reports both among the argument
     * resolution errors, once the configuration is read ({@link ArgResolution}), so they do not fail the parse.
     */
    private static Object regex(String w) {
        if (w.isEmpty()) {
            return null;
        }
        try {
            return PcreRegex.compile(w, false);
        } catch (PatternSyntaxException e) {
            return new InvalidRegex("regex '" + w + "' is invalid" + PcreRegex.reason(e));
        }
    }

    /** An IPv4 mask as a dotted quad (any bits, as HAProxy takes it) or a prefix length, returned as the mask. */
    static long mask4(String w) {
        if (w.indexOf('.') < 0) {
            long bits = IntText.parse(w);
            if (bits < 0 || bits > 32) {
                throw new NumberFormatException();
            }
            return 0xffffffffL << (32 - bits) & 0xffffffffL;
        }
        long m = IpText.parse4(w);
        if (m < 0) {
            throw new NumberFormatException();
        }
        return m;
    }

    /** A dotted path of protocol buffers field numbers ("48.59.1"), as unsigned 32-bit numbers. */
    static int[] fieldPath(String w) {
        if (w.endsWith(".") || !w.chars().allMatch(c -> c == '.' || c >= '0' && c <= '9')) {
            throw new NumberFormatException();
        }
        String[] parts = w.split("\\.", -1);
        int[] path = new int[parts.length];
        for (int k = 0; k < parts.length; k++) {
            for (int i = 0; i < parts[k].length(); i++) {
                path[k] = path[k] * 10 + parts[k].charAt(i) - '0';
            }
        }
        return path;
    }

    /** An IPv6 mask as an address (any bits) or a prefix length, returned as 16 bytes. */
    static byte[] mask6(String w) {
        if (w.indexOf(':') >= 0) {
            byte[] m = IpText.parse6(w);
            if (m == null) {
                throw new NumberFormatException();
            }
            return m;
        }
        long bits = IntText.parse(w);
        if (bits < 0 || bits > 128) {
            throw new NumberFormatException();
        }
        byte[] m = new byte[16];
        for (int i = 0; i < bits; i++) {
            m[i >> 3] |= (byte) (0x80 >>> (i & 7));
        }
        return m;
    }
}
