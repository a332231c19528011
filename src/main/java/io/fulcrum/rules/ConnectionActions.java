package io.fulcrum.rules;

import io.fulcrum.cfg.ConfigException;
import io.fulcrum.log.StreamLog;
import io.fulcrum.rules.TcpRules.TcpAction;
import io.fulcrum.sample.Endpoints;
import io.fulcrum.sample.Expr;
import io.fulcrum.sample.Sample;
import io.fulcrum.sample.SampleType;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.unix.IntegerUnixChannelOption;

/**
 * The actions on the client connection and the transaction's record that tcp-request and HTTP rules share:
 * {@code set-src}, {@code set-dst}, {@code set-src-port}, {@code set-dst-port} (see sample.Endpoints for which level each
 * rule changes), {@code set-mark} (SO_MARK), {@code set-tos} (IP_TOS / IPv6 traffic class), {@code set-nice} (accepted,
 * nothing to apply: Fulcrum's event loops do not order streams by priority) and {@code set-log-level}. Their parse errors
 * are HAProxy's; http rules wrap them as HAProxy does.
 */
final class ConnectionActions {
    /** SOL_SOCKET / SO_MARK on Linux; Netty has no named option for it. */
    private static final ChannelOption<Integer> SO_MARK = new IntegerUnixChannelOption("SO_MARK", 1, 36);

    private ConnectionActions() {
    }

    /** Registers the actions of HTTP rules that exist in {@code tcp-request} too, by the same parsers. */
    static void register(HttpActions actions) {
        HttpActions.Phase req = HttpActions.Phase.REQUEST;
        HttpActions.Phase res = HttpActions.Phase.RESPONSE;
        actions.add("set-src", a -> http(address(a, true, false, false)), req);
        actions.add("set-dst", a -> http(address(a, false, false, false)), req);
        actions.add("set-src-port", a -> http(address(a, true, true, false)), req);
        actions.add("set-dst-port", a -> http(address(a, false, true, false)), req);
        actions.add("set-mark", a -> http(mark(a)), req, res);
        actions.add("set-tos", a -> http(tos(a)), req, res);
        actions.add("set-nice", a -> http(nice(a)), req, res);
        actions.add("set-log-level", a -> http(logLevel(a)), req, res);
    }

    private static HttpAction http(TcpAction action) {
        return (txn, msg) -> action.run(txn);
    }

    /**
     * The action of {@code keyword} for a tcp-request rule, or null when it is not one of these; {@code connection}:
     * a {@code tcp-request connection} rule, which changes the connection's own addresses too.
     */
    static TcpAction tcp(String keyword, ActionArgs a, boolean connection) throws ConfigException {
        return switch (keyword) {
            case "set-src" -> address(a, true, false, connection);
            case "set-dst" -> address(a, false, false, connection);
            case "set-src-port" -> address(a, true, true, connection);
            case "set-dst-port" -> address(a, false, true, connection);
            case "set-mark" -> mark(a);
            case "set-tos" -> tos(a);
            default -> null;
        };
    }

    /** The actions that only {@code tcp-request content} rules have among these. */
    static TcpAction tcpContent(String keyword, ActionArgs a) throws ConfigException {
        return switch (keyword) {
            case "set-nice" -> nice(a);
            case "set-log-level" -> logLevel(a);
            default -> null;
        };
    }

    private static TcpAction address(ActionArgs a, boolean source, boolean port, boolean connection) throws ConfigException {
        Expr expr = a.expr(a.next("missing fetch method"));
        SampleType type = port ? SampleType.SINT : SampleType.ADDR;
        return ctx -> {
            Endpoints e = ctx.endpoints();
            Sample s = new Sample();
            if (e != null && expr.eval(ctx, s, type)) {
                if (port) {
                    e.setPort(source, s.num(), connection);
                } else {
                    e.setAddress(source, s, connection);
                }
            }
            return Verdict.CONTINUE;
        };
    }

    private static TcpAction mark(ActionArgs a) throws ConfigException {
        int mark = (int) unsigned(a.next("expects exactly 1 argument (integer/hex value)"));
        return ctx -> option(ctx.frontChannel(), SO_MARK, mark);
    }

    private static TcpAction tos(ActionArgs a) throws ConfigException {
        int tos = (int) unsigned(a.next("expects exactly 1 argument (integer/hex value)")) & 0xff;
        return ctx -> option(ctx.frontChannel(), ChannelOption.IP_TOS, tos);
    }

    private static TcpAction nice(ActionArgs a) throws ConfigException {
        a.next("expects exactly 1 argument (integer value)");
        return ctx -> Verdict.CONTINUE;
    }

    private static TcpAction logLevel(ActionArgs a) throws ConfigException {
        String name = a.next();
        int level = StreamLog.level(name);
        if (level == StreamLog.NO_LEVEL) {
            throw new ConfigException("expects exactly 1 argument (log level name or 'silent')");
        }
        return ctx -> {
            StreamLog log = StreamLog.of(ctx);
            if (log != null) {
                log.level(level);
            }
            return Verdict.CONTINUE;
        };
    }

    /** Sets a socket option of the client connection; one the socket refuses is left as it was, as HAProxy ignores setsockopt's errors. */
    private static Verdict option(Channel ch, ChannelOption<Integer> option, int value) {
        if (ch != null) {
            try {
                ch.config().setOption(option, value);
            } catch (RuntimeException ignored) {
                // not a socket that has the option (a unix socket), or refused by the kernel
            }
        }
        return Verdict.CONTINUE;
    }

    /** C's strtoul with base 0 (0x hex, 0 octal, else decimal), as HAProxy reads marks and TOS values; wraps like it. */
    static long unsigned(String text) throws ConfigException {
        int i = 0;
        boolean negative = false;
        if (i < text.length() && (text.charAt(i) == '-' || text.charAt(i) == '+')) {
            negative = text.charAt(i++) == '-';
        }
        int base = 10;
        if (text.startsWith("0x", i) || text.startsWith("0X", i)) {
            if (i + 2 < text.length() && Character.digit(text.charAt(i + 2), 16) >= 0) {
                base = 16;
                i += 2;
            }
        } else if (text.startsWith("0", i)) {
            base = 8;
        }
        long n = 0;
        int start = i;
        while (i < text.length() && Character.digit(text.charAt(i), base) >= 0) {
            n = n * base + Character.digit(text.charAt(i++), base);
        }
        if (i == start || i < text.length()) { // strtoul leaves its end at the start when it read no digit
            throw new ConfigException("invalid character starting at '" + text.substring(i == start ? 0 : i)
                    + "' (integer/hex value expected)");
        }
        return negative ? -n : n;
    }
}
