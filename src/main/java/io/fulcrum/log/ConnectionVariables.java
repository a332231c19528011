package io.fulcrum.log;

import io.fulcrum.conn.TlsInfo;
import io.fulcrum.listener.Listener;
import io.fulcrum.sample.SampleContext;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.function.Function;
import java.util.function.ToLongFunction;

/** Log variables of the connections and proxies: addresses, names, concurrent connection counts. */
final class ConnectionVariables {
    private ConnectionVariables() {
    }

    static void register(LogVariables.Registrar r) {
        address(r, "ci", "cp", SampleContext::source, true);
        address(r, "fi", "fp", SampleContext::destination, true);
        address(r, "si", "sp", ctx -> ifLogged(ctx, StreamLog::serverAddress), false);
        address(r, "bi", "bp", ctx -> ifLogged(ctx, StreamLog::serverLocal), false);
        r.add("f", false, (ctx, out, f) -> LogVariable.text(out, ctx.frontend().name(), f));
        // HAProxy marks a frontend whose bind line speaks TLS with a '~' after its name (inside the quotes).
        r.add("ft", false, (ctx, out, f) -> LogVariable.text(out, tlsBind(ctx) ? ctx.frontend().name() + "~" : ctx.frontend().name(), f));
        r.add("b", false, (ctx, out, f) -> LogVariable.text(out, ctx.backend() != null ? ctx.backend().name() : ctx.frontend().name(), f));
        r.add("s", false, (ctx, out, f) -> LogVariable.text(out, serverName(ctx), f));
        r.add("H", false, (ctx, out, f) -> LogVariable.text(out, Hostname.NAME, f));
        r.add("pid", false, (ctx, out, f) -> LogText.number(out, ProcessHandle.current().pid(), f, 4));
        count(r, "ac", ctx -> {
            StreamLog l = LogVariables.log(ctx);
            return l == null ? 0 : l.logger().actconn() + closedSelf(ctx);
        });
        count(r, "fc", ctx -> ctx.frontend().limit().current() + closedSelf(ctx));
        count(r, "bc", ctx -> ctx.backend() == null ? 0 : ctx.backend().streams().current());
        count(r, "sc", ctx -> ctx.server() == null ? 0 : ctx.server().streams().current());
        r.add("rc", false, (ctx, out, f) -> {
            StreamLog l = LogVariables.log(ctx);
            if (l != null && l.redispatched()) {
                out.append('+'); // the transaction left its first server
            }
            out.append(l == null ? 0 : l.retries());
        });
        logged(r, "lc", StreamLog::logNumber);
        logged(r, "sq", StreamLog::serverQueuePosition);
        logged(r, "bq", StreamLog::backendQueuePosition);
        r.add("rt", false, (ctx, out, f) -> {
            StreamLog l = LogVariables.log(ctx);
            LogText.number(out, l == null ? 0 : l.id(), f, 4);
        });
        r.add("sslc", false, (ctx, out, f) -> {
            TlsInfo tls = TlsInfo.of(ctx.frontChannel());
            LogVariable.text(out, tls == null ? null : tls.cipher(), f);
        });
        r.add("sslv", false, (ctx, out, f) -> {
            TlsInfo tls = TlsInfo.of(ctx.frontChannel());
            LogVariable.text(out, tls == null ? null : tls.protocol(), f);
        });
    }

    /** The client connected to a bind line with a TLS layer ({@code ssl}), whether or not its handshake completed. */
    private static boolean tlsBind(SampleContext ctx) {
        Listener l = ctx.listener();
        return l != null && l.bindSpec().transport != null;
    }

    /** The server, or the service that answered instead ({@code <STATS>}), or {@code <NOSRV>}. */
    private static String serverName(SampleContext ctx) {
        if (ctx.server() != null) {
            return ctx.server().name();
        }
        String applet = ifLogged(ctx, StreamLog::applet);
        return applet != null ? applet : "<NOSRV>";
    }

    /**
     * 1 when the client connection has closed already: it no longer counts in the limits then, but HAProxy's
     * lines count it until they are written, and so do these.
     */
    private static int closedSelf(SampleContext ctx) {
        return ctx.frontChannel() != null && !ctx.frontChannel().isOpen() ? 1 : 0;
    }

    private static <T> T ifLogged(SampleContext ctx, Function<StreamLog, T> get) {
        StreamLog l = LogVariables.log(ctx);
        return l == null ? null : get.apply(l);
    }

    /** A count the transaction's log record keeps (0 without one). */
    private static void logged(LogVariables.Registrar r, String name, ToLongFunction<StreamLog> value) {
        count(r, name, ctx -> {
            StreamLog l = LogVariables.log(ctx);
            return l == null ? 0 : value.applyAsLong(l);
        });
    }

    private static void count(LogVariables.Registrar r, String name, ToLongFunction<SampleContext> value) {
        r.add(name, false, (ctx, out, f) -> out.append(value.applyAsLong(ctx)));
    }

    /** An IP variable and its port variable; "-" for both when the address does not exist (yet). */
    /**
     * @param front a client side address: a unix socket's "port" is its listener's id there, as in HAProxy (0 on the
     *              server side)
     */
    private static void address(LogVariables.Registrar r, String ip, String port, Function<SampleContext, SocketAddress> get,
                                boolean front) {
        r.add(ip, false, (ctx, out, f) -> ip(out, get.apply(ctx), f));
        r.add(port, false, (ctx, out, f) -> {
            SocketAddress a = get.apply(ctx);
            if (a instanceof InetSocketAddress in) {
                LogText.number(out, in.getPort(), f, 4);
            } else if (a != null && (!front || ctx.listener() != null)) {
                LogText.number(out, front ? ctx.listener().numericId() : 0, f, 4);
            } else {
                LogVariable.text(out, null, f & ~LogVariable.QUOTE);
            }
        });
    }

    private static void ip(StringBuilder out, SocketAddress a, int flags) {
        if (!(a instanceof InetSocketAddress in)) {
            LogVariable.text(out, a == null ? null : "unix", flags & ~LogVariable.QUOTE);
            return;
        }
        byte[] b = in.getAddress().getAddress();
        if ((flags & LogVariable.HEX) != 0) {
            for (byte x : b) {
                LogText.hexByte(out, x & 0xff);
            }
            return;
        }
        LogVariable.text(out, LogText.ip(in), flags);
    }
}
