package io.fulcrum.log;

import io.fulcrum.http.HttpHead;
import io.fulcrum.http.RequestHead;
import io.fulcrum.sample.SampleContext;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/** The log-format variables Fulcrum knows, by name, and the names HAProxy has that it does not have yet. */
final class LogVariables {
    private LogVariables() {
    }

    private static final Map<String, LogVariable> VARIABLES = new HashMap<>();
    /** HAProxy 2.6's variables (configuration.txt 8.2.6). */
    static final Set<String> HAPROXY = Set.of("o", "B", "CC", "CS", "H", "HM", "HP", "HPO", "HQ", "HU", "HV", "ID", "ST", "T",
            "Ta", "Tc", "Td", "Tl", "Th", "Ti", "Tq", "TR", "Tr", "Ts", "Tt", "Tu", "Tw", "U", "ac", "b", "bc", "bi", "bp", "bq",
            "ci", "cp", "f", "fc", "fi", "fp", "ft", "lc", "hr", "hrl", "hs", "hsl", "ms", "pid", "r", "rc", "rt", "s", "sc", "si",
            "sp", "sq", "sslc", "sslv", "t", "tr", "trg", "trl", "ts", "tsc");

    static {
        VARIABLES.put("ci", (ctx, out, f) -> address(out, ctx.source(), f));
        VARIABLES.put("cp", (ctx, out, f) -> port(out, ctx.source(), f));
        VARIABLES.put("fi", (ctx, out, f) -> address(out, ctx.destination(), f));
        VARIABLES.put("fp", (ctx, out, f) -> port(out, ctx.destination(), f));
        VARIABLES.put("f", (ctx, out, f) -> LogVariable.text(out, ctx.frontend().name(), f));
        VARIABLES.put("ft", (ctx, out, f) -> LogVariable.text(out, ctx.frontend().name(), f));
        VARIABLES.put("b", (ctx, out, f) -> LogVariable.text(out, ctx.backend() != null ? ctx.backend().name() : ctx.frontend().name(), f));
        VARIABLES.put("s", (ctx, out, f) -> LogVariable.text(out, ctx.server() != null ? ctx.server().name() : "<NOSRV>", f));
        VARIABLES.put("H", (ctx, out, f) -> LogVariable.text(out, Hostname.NAME, f));
        VARIABLES.put("pid", (ctx, out, f) -> number(out, ProcessHandle.current().pid(), f));
        VARIABLES.put("ST", (ctx, out, f) -> number(out, ctx.status(), f));
        VARIABLES.put("HM", (ctx, out, f) -> LogVariable.text(out, ctx.request() == null ? null : ctx.request().method(), f));
        VARIABLES.put("HU", (ctx, out, f) -> LogVariable.text(out, ctx.request() == null ? null : ctx.request().uri(), f));
        VARIABLES.put("HP", (ctx, out, f) -> LogVariable.text(out, uriPart(ctx.request(), false, false), f));
        VARIABLES.put("HPO", (ctx, out, f) -> LogVariable.text(out, uriPart(ctx.request(), true, false), f));
        VARIABLES.put("HQ", (ctx, out, f) -> LogVariable.text(out, uriPart(ctx.request(), false, true), f));
        VARIABLES.put("HV", (ctx, out, f) -> LogVariable.text(out, ctx.request() == null ? null : HttpHead.versionText(ctx.request().version()), f));
    }

    static LogVariable find(String name) {
        return VARIABLES.get(name);
    }

    private static void address(StringBuilder out, SocketAddress a, int flags) {
        if (!(a instanceof InetSocketAddress in)) {
            LogVariable.text(out, null, flags);
            return;
        }
        byte[] b = in.getAddress().getAddress();
        if ((flags & LogVariable.HEX) != 0) {
            for (byte x : b) {
                out.append(Character.toUpperCase(Character.forDigit((x >> 4) & 15, 16))).append(Character.toUpperCase(Character.forDigit(x & 15, 16)));
            }
            return;
        }
        LogVariable.text(out, b.length == 4 ? io.fulcrum.sample.IpText.format4(((b[0] & 255L) << 24) | ((b[1] & 255L) << 16)
                | ((b[2] & 255L) << 8) | (b[3] & 255L)) : io.fulcrum.sample.IpText.format6(b, 0), flags & ~LogVariable.QUOTE);
    }

    private static void port(StringBuilder out, SocketAddress a, int flags) {
        if (!(a instanceof InetSocketAddress in)) {
            LogVariable.text(out, null, flags);
            return;
        }
        number(out, in.getPort(), flags);
    }

    private static void number(StringBuilder out, long v, int flags) {
        if ((flags & LogVariable.HEX) != 0) {
            out.append(Long.toHexString(v).toUpperCase());
        } else {
            out.append(v);
        }
    }

    /**
     * Parts of the request URI: without the query ({@code %HP}), the path alone without scheme and
     * authority ({@code %HPO}), or the query with its '?' ({@code %HQ}).
     */
    private static String uriPart(RequestHead req, boolean pathOnly, boolean query) {
        if (req == null) {
            return null;
        }
        String uri = req.uri().toString();
        int q = uri.indexOf('?');
        if (query) {
            return q < 0 ? "" : uri.substring(q);
        }
        String p = q < 0 ? uri : uri.substring(0, q);
        if (pathOnly) {
            int scheme = p.indexOf("://");
            if (scheme >= 0 && p.indexOf('/') > scheme) {
                int slash = p.indexOf('/', scheme + 3);
                p = slash < 0 ? "" : p.substring(slash);
            }
        }
        return p;
    }
}
