package io.fulcrum.persist;

import io.fulcrum.acl.Condition;
import io.fulcrum.conn.Endpoint;
import io.fulcrum.http.CacheableCookie;
import io.fulcrum.http.HttpHeaders;
import io.fulcrum.http.RequestHead;
import io.fulcrum.http.ResponseHead;
import io.fulcrum.proxy.ProxySpec;
import io.fulcrum.sample.Hashes;
import io.fulcrum.sample.SampleContext;
import io.fulcrum.server.Server;
import io.netty.util.AsciiString;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * A backend's persistence at run time, as HAProxy's http_manage_client_side_cookies() and
 * http_manage_server_side_cookies() do it: the request's cookie designates a server (and is removed or
 * unprefixed on its way to it), the response's cookie is kept, removed, rewritten or prefixed, and in insert mode
 * a cookie naming the server is added when the client did not already send the right one. Immutable; the state of
 * each transaction is in its {@link PersistTxn}.
 */
public final class Persistence {
    private static final AsciiString COOKIE = AsciiString.cached("cookie");
    private static final AsciiString SET_COOKIE = AsciiString.cached("set-cookie");
    /** Between the server's value and the application's in prefix mode, and before the dates otherwise. */
    private static final char PREFIX_DELIMITER = '~';
    private static final char DATE_DELIMITER = '|';
    /** A cookie date further in the future than this is a forgery or a clock problem: it expires. */
    private static final long FUTURE_SLACK = 86_400;

    private final PersistSpec spec;
    /**
     * The backend's servers and their cookies, replaced whole when a server is added or deleted, when the CLI
     * changes the dynamic cookies, or when a server with a dynamic cookie moved.
     */
    private volatile Roster roster;
    /** {@code cookie ... dynamic}, which {@code enable|disable dynamic-cookie backend} change at run time. */
    private volatile boolean dynamic;
    /** {@code dynamic-cookie-key} or null, which {@code set dynamic-cookie-key backend} changes at run time. */
    private volatile String dynamicKey;

    /**
     * The servers, each one's cookie value (its own, or the dynamic one) or null, and the address each value was
     * made for (a dynamic cookie is a hash of it).
     */
    private record Roster(Server[] servers, String[] values, Server.Address[] addresses) {
    }

    private Persistence(PersistSpec spec, List<Server> servers) {
        this.spec = spec;
        this.dynamic = spec.dynamic;
        this.dynamicKey = spec.dynamicKey;
        servers(servers);
    }

    /** The backend's servers now (after {@code add server} or {@code del server}). */
    public void servers(List<Server> list) {
        roster = roster(list.toArray(new Server[0]));
    }

    private Roster roster(Server[] servers) {
        String[] values = new String[servers.length];
        Server.Address[] addresses = new Server.Address[servers.length];
        for (int i = 0; i < values.length; i++) {
            addresses[i] = servers[i].address();
            values[i] = valueOf(servers[i], addresses[i]);
        }
        return new Roster(servers, values, addresses);
    }

    /** The roster, made again when a server whose cookie is dynamic moved ({@code set server addr}, DNS) since. */
    private Roster roster() {
        Roster r = roster;
        if (dynamic && dynamicKey != null) {
            for (int i = 0; i < r.servers.length; i++) {
                if (r.servers[i].address() != r.addresses[i] && r.servers[i].spec().cookie == null) {
                    r = roster(r.servers);
                    roster = r;
                    break;
                }
            }
        }
        return r;
    }

    /** {@code enable|disable dynamic-cookie backend}: servers without a {@code cookie} of their own get or lose theirs. */
    public void dynamic(boolean on) {
        dynamic = on;
        roster = roster(roster.servers);
    }

    /** {@code set dynamic-cookie-key backend}: the dynamic cookies change (the existing sessions are broken). */
    public void dynamicKey(String key) {
        dynamicKey = key;
        roster = roster(roster.servers);
    }

    /** The persistence of a backend, or null when it has no cookie and no persist rule. */
    public static Persistence of(ProxySpec p, List<Server> servers) {
        PersistSpec spec = p.partOrNull(PersistSpec.class);
        if (spec == null || spec.name == null && spec.rules.isEmpty() && spec.rdpCookie == null && spec.useServers.isEmpty()) {
            return null;
        }
        return new Persistence(spec, servers);
    }

    /**
     * A server's cookie: its {@code cookie} value, else with {@code cookie ... dynamic} and a
     * {@code dynamic-cookie-key} the XXH64 of the key, the address and the port, in hexadecimal (srv_set_dyncookie()).
     */
    private String valueOf(Server s, Server.Address a) {
        String k = dynamicKey;
        if (s.spec().cookie != null || !dynamic || k == null || !(a.endpoint() instanceof Endpoint.Inet inet)) {
            return s.spec().cookie;
        }
        byte[] key = k.getBytes(StandardCharsets.UTF_8);
        byte[] addr = inet.host().getAddress();
        ByteBuffer b = ByteBuffer.allocate(key.length + addr.length + 4);
        b.put(key).put(addr).putInt(a.port());
        return String.format("%016x", Hashes.xxh64(b.array(), 0, b.capacity(), 0));
    }

    /**
     * {@code persist rdp-cookie}: the server whose IPv4 address and port the RDP cookie names ("addr.port.",
     * both integers of the bytes in network order read in little-endian, as Windows writes them), when it is up
     * or {@code option persist} is set; null otherwise (the algorithm chooses).
     */
    public Server rdpServer(io.netty.buffer.ByteBuf content) {
        if (spec.rdpCookie == null) {
            return null;
        }
        int[] end = new int[1];
        int at = RdpCookie.find(content, spec.rdpCookie, end);
        if (at < 0 || end[0] == at) {
            return null;
        }
        String v = content.toString(at, end[0] - at, StandardCharsets.ISO_8859_1);
        int dot = v.indexOf('.');
        int dot2 = dot < 0 ? -1 : v.indexOf('.', dot + 1);
        if (dot2 < 0) {
            return null;
        }
        long addr;
        int port;
        try {
            addr = Long.parseLong(v.substring(0, dot));
            port = Integer.parseInt(v.substring(dot + 1, dot2));
        } catch (NumberFormatException e) {
            return null;
        }
        byte[] ip = {(byte) addr, (byte) (addr >> 8), (byte) (addr >> 16), (byte) (addr >> 24)};
        int hostPort = (port & 0xff) << 8 | (port >> 8) & 0xff;
        for (Server s : roster.servers) {
            if (s.endpoint() instanceof Endpoint.Inet inet && java.util.Arrays.equals(inet.host().getAddress(), ip)
                    && s.address().port() == hostPort && (s.up() || spec.persistDown)) {
                return s;
            }
        }
        return null;
    }

    /** A cookie mode is set: the log's termination state shows the cookie's characters. */
    public boolean logged() {
        return spec.active();
    }

    /** The name of the persistence cookie ({@code cookie <name>}), or null. */
    public String cookieName() {
        return spec.name;
    }

    /** The cookie value that designates {@code s}, or null. */
    public String cookieOf(Server s) {
        Roster r = roster();
        for (int i = 0; i < r.servers.length; i++) {
            if (r.servers[i] == s) {
                return r.values[i];
            }
        }
        return null;
    }

    // --- the request -----------------------------------------------------------------------------------------

    /**
     * Runs the {@code force-persist} / {@code ignore-persist} rules (the first that matches counts), then reads the
     * request's persistence cookie: the server it designates, which the request goes to when it is up (or
     * anyway with {@code option persist} or a forcing rule), and the cookie's dates.
     */
    public PersistTxn request(SampleContext ctx, RequestHead req) {
        AsciiString m = req.method();
        PersistTxn t = new PersistTxn(spec.active(), m.contentEquals("GET") || m.contentEquals("HEAD"), m.contentEquals("POST"));
        PersistSpec.Rule rule = firstRule(ctx);
        if (rule != null) {
            t.force = rule.force();
            t.ignore = !rule.force();
        }
        t.direct = useServer(ctx, t.force); // before the cookie, which then only has its prefix stripped
        if (spec.name == null) {
            return t;
        }
        HttpHeaders h = req.headers();
        for (int i = h.indexOf(COOKIE, 0); i >= 0; i = h.indexOf(COOKIE, i + 1)) {
            String v = h.value(i).toString();
            String out = cookieHeader(t, v);
            if (out.isEmpty()) {
                h.remove(i);
            } else if (!out.equals(v)) {
                h.setValue(i, out);
            }
        }
        return t;
    }

    /**
     * The server of the first {@code use-server} rule that matches and names a server that is up (or any, with
     * {@code option persist} or when {@code force} says a {@code force-persist} rule matched); null when none.
     */
    public Server useServer(SampleContext ctx, boolean force) {
        for (PersistSpec.UseServer r : spec.useServers) {
            if (!Condition.passes(r.condition(), ctx)) {
                continue;
            }
            String name = r.format() == null ? r.name() : r.format().format(ctx);
            for (Server s : roster.servers) {
                if (s.name().equals(name) && (s.up() || spec.persistDown || force)) {
                    return s;
                }
            }
        }
        return null;
    }

    /** True when a {@code force-persist} rule is the first persist rule that matches. */
    public boolean forced(SampleContext ctx) {
        PersistSpec.Rule rule = firstRule(ctx);
        return rule != null && rule.force();
    }

    /** The first {@code force-persist} or {@code ignore-persist} rule that matches, or null. */
    private PersistSpec.Rule firstRule(SampleContext ctx) {
        for (PersistSpec.Rule r : spec.rules) {
            if (Condition.passes(r.condition(), ctx)) {
                return r;
            }
        }
        return null;
    }

    /** One Cookie header: its persistence cookies are read; the value to send on (empty: remove the header). */
    private String cookieHeader(PersistTxn t, String v) {
        StringBuilder out = null;
        int copied = 0;
        int len = v.length();
        int p = 0;
        while (p < len) {
            int att = p;
            while (att < len && isBlank(v.charAt(att))) {
                att++;
            }
            int eq = att;
            int attEnd = att;
            while (eq < len && v.charAt(eq) != '=' && v.charAt(eq) != ';' && v.charAt(eq) != ',') {
                if (!isBlank(v.charAt(eq++))) {
                    attEnd = eq;
                }
            }
            int next = eq;
            int valStart = eq;
            int valEnd = eq;
            if (eq < len && v.charAt(eq) == '=') {
                valStart = eq + 1;
                while (valStart < len && isBlank(v.charAt(valStart))) {
                    valStart++;
                }
                next = valueEnd(v, valStart);
                valEnd = next;
                while (valEnd > valStart && isBlank(v.charAt(valEnd - 1))) {
                    valEnd--;
                }
            }
            boolean ours = next != eq && (att == len || v.charAt(att) != '$')
                    && attEnd - att == spec.name.length() && v.startsWith(spec.name, att);
            if (ours) {
                int delim = designate(t, v, valStart, valEnd);
                if (spec.prefix && delim != valEnd) {
                    out = out == null ? new StringBuilder(len) : out;
                    out.append(v, copied, valStart);
                    copied = delim + 1; // the application's own value goes on alone
                } else if (spec.insert && spec.indirect) {
                    out = out == null ? new StringBuilder(len) : out;
                    out.append(v, copied, att);
                    copied = next < len ? skipBlanks(v, next + 1) : len;
                }
            }
            p = next + 1;
        }
        if (out == null) {
            return v;
        }
        out.append(v, copied, len);
        // A removed last cookie leaves its delimiter behind: HAProxy removes the delimiter before it.
        int end = out.length();
        while (end > 0 && (isBlank(out.charAt(end - 1)) || out.charAt(end - 1) == ';')) {
            end--;
        }
        return out.substring(0, end);
    }

    /**
     * Finds the server named by the cookie value in {@code v[start, end)} and records what the cookie says; returns
     * where the server's part of the value ends (the prefix delimiter or the date bar), {@code start} when the
     * value is empty or expired.
     */
    private int designate(PersistTxn t, String v, int start, int end) {
        int delim = end;
        if (spec.prefix) {
            int d = v.indexOf(PREFIX_DELIMITER, start);
            delim = d < 0 || d > end ? end : d;
        } else {
            int bar = v.indexOf(DATE_DELIMITER, start);
            if (bar >= 0 && bar < end) {
                delim = bar;
                if (end - (bar + 1) >= 5) {
                    int last = CookieDates.decode(v, bar + 1);
                    if (last > 0) {
                        t.lastDate = (long) last << 2;
                    }
                }
                int bar2 = v.indexOf(DATE_DELIMITER, bar + 1);
                if (bar2 >= 0 && bar2 < end && end - bar2 > 5) {
                    int first = CookieDates.decode(v, bar2 + 1);
                    if (first > 0) {
                        t.firstDate = (long) first << 2;
                    }
                }
            }
        }
        long now = System.currentTimeMillis() / 1000;
        if (t.firstDate != 0 && spec.maxlife != 0 && (now - t.firstDate > spec.maxlife || t.firstDate - now > FUTURE_SLACK)) {
            t.request = 'O';
            delim = start;
            t.firstDate = 0;
            t.lastDate = 0;
        } else if (t.lastDate != 0 && spec.maxidle != 0 && (now - t.lastDate > spec.maxidle || t.lastDate - now > FUTURE_SLACK)) {
            t.request = 'E';
            delim = start;
            t.firstDate = 0;
            t.lastDate = 0;
        }
        boolean skip = delim == start || t.ignore || t.direct != null;
        boolean found = false;
        Roster r = roster();
        for (int i = 0; !skip && !found && i < r.servers.length; i++) {
            String c = r.values[i];
            if (c != null && c.length() == delim - start && v.startsWith(c, start)) {
                Server s = r.servers[i];
                if (s.up() || spec.persistDown || t.force) {
                    t.request = s.up() ? 'V' : 'D';
                    t.direct = s;
                    found = true;
                } else {
                    t.request = 'D';
                }
            }
        }
        if (!found && t.direct == null && t.request != 'D' && t.request != 'E' && t.request != 'O') {
            t.request = t.ignore ? 'U' : 'I'; // (a second cookie after a valid one changes nothing, as in HAProxy 2.6)
        }
        return delim;
    }

    /** Where the cookie value starting at {@code from} ends: at the next ';' out of double quotes. */
    private static int valueEnd(String v, int from) {
        boolean quoted = false;
        for (int i = from; i < v.length(); i++) {
            char c = v.charAt(i);
            if (c == '"') {
                quoted = !quoted;
            } else if (c == ';' && !quoted) {
                return i;
            }
        }
        return v.length();
    }

    private static int skipBlanks(String v, int from) {
        while (from < v.length() && isBlank(v.charAt(from))) {
            from++;
        }
        return from;
    }

    private static boolean isBlank(char c) {
        return c == ' ' || c == '\t';
    }

    // --- the response ----------------------------------------------------------------------------------------

    /**
     * The response of {@code server} to the transaction of {@code t}: the server's own persistence cookie is
     * handled as the mode says, then in insert mode the cookie is set when the client lacks it (or its dates need
     * a refresh), with {@code Cache-Control: private} when {@code nocache} is set and the response could be cached.
     */
    public void response(PersistTxn t, ResponseHead head, Server server) {
        if (spec.name == null) {
            return;
        }
        HttpHeaders h = head.headers();
        String mine = server == null ? null : cookieOf(server);
        for (int i = h.indexOf(SET_COOKIE, 0); i >= 0; i = h.indexOf(SET_COOKIE, i + 1)) {
            serverCookie(t, h, i, server, mine);
        }
        if (spec.nocache) {
            // Whether a shared cache could keep the response, as HAProxy judges it before nocache marks it private.
            boolean status = CacheableCookie.cacheableStatus(head.status());
            CacheableCookie.Verdict v = CacheableCookie.judge(h, t.cacheable && status, t.cacheCookies && status);
            t.cacheable = v.cacheable();
            t.cacheCookies = v.cookies();
        }
        long now = System.currentTimeMillis() / 1000;
        boolean refresh = t.direct == null
                || (spec.maxidle != 0 || t.lastDate != 0) && (t.lastDate == 0 || t.lastDate - now < 0)
                || spec.maxlife != 0 && t.firstDate == 0
                || spec.maxlife == 0 && t.firstDate != 0;
        if (server == null || !spec.insert || t.response == 'P' && spec.preserve || !refresh
                || spec.postonly && !t.post || t.ignore) {
            return;
        }
        h.add(SET_COOKIE, setCookie(mine, t, now));
        t.response = mine != null && t.direct != null ? 'U' : 'I';
        if (spec.nocache && t.cacheable) {
            t.cacheable = false;
            t.cacheCookies = false;
            h.add("cache-control", "private");
        }
    }

    /** The first cookie of Set-Cookie field {@code i}: when it is the persistence cookie, what the mode does with it. */
    private void serverCookie(PersistTxn t, HttpHeaders h, int i, Server server, String mine) {
        AsciiString v = h.value(i);
        int len = v.length();
        int att = 0;
        while (att < len && isBlank((char) v.byteAt(att))) {
            att++;
        }
        int eq = v.indexOf('=', att);
        int semi = v.indexOf(';', att);
        if (eq < 0 || semi >= 0 && semi < eq) {
            return;
        }
        int attEnd = eq;
        while (attEnd > att && isBlank((char) v.byteAt(attEnd - 1))) {
            attEnd--;
        }
        if (attEnd - att != spec.name.length() || !v.subSequence(att, attEnd, false).contentEquals(spec.name)) {
            return;
        }
        t.response = 'P';
        if (spec.preserve) {
            return;
        }
        if (server != null && spec.insert || t.direct != null && spec.indirect) {
            h.remove(i);
            t.response = 'D';
            return;
        }
        if (mine == null || !spec.rewrite && !spec.prefix) {
            return;
        }
        int valStart = eq + 1;
        while (valStart < len && isBlank((char) v.byteAt(valStart))) {
            valStart++;
        }
        int valEnd = semi < 0 ? len : semi;
        while (valEnd > valStart && isBlank((char) v.byteAt(valEnd - 1))) {
            valEnd--;
        }
        String s = v.toString();
        h.setValue(i, spec.rewrite
                ? s.substring(0, valStart) + mine + s.substring(valEnd)
                : s.substring(0, valStart) + mine + PREFIX_DELIMITER + s.substring(valStart));
        t.response = 'R';
    }

    /** The Set-Cookie value inserted for {@code value} (null: the server has none, the client's is deleted). */
    private String setCookie(String value, PersistTxn t, long now) {
        StringBuilder b = new StringBuilder(64).append(spec.name).append('=');
        if (value == null) {
            b.append("; Expires=Thu, 01-Jan-1970 00:00:01 GMT; path=/");
        } else {
            b.append(value);
            if (spec.maxidle != 0 || spec.maxlife != 0) {
                b.append(DATE_DELIMITER);
                CookieDates.append(b, (now + 3) >> 2);
                if (spec.maxlife != 0) {
                    b.append(DATE_DELIMITER);
                    CookieDates.append(b, t.firstDate != 0 ? t.firstDate >> 2 : (now + 3) >> 2);
                }
            }
            b.append("; path=/");
        }
        if (spec.domain != null) {
            b.append("; domain=").append(spec.domain);
        }
        if (spec.httponly) {
            b.append("; HttpOnly");
        }
        if (spec.secure) {
            b.append("; Secure");
        }
        if (spec.attrs != null) {
            b.append("; ").append(spec.attrs);
        }
        return b.toString();
    }
}
