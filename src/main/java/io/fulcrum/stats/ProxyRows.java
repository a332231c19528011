package io.fulcrum.stats;

import io.fulcrum.backend.Backend;
import io.fulcrum.conn.Endpoint;
import io.fulcrum.conn.InetText;
import io.fulcrum.listener.Listener;
import io.fulcrum.persist.Persistence;
import io.fulcrum.pool.ServerIdle;
import io.fulcrum.proxy.Frontend;
import io.fulcrum.proxy.Mode;
import io.fulcrum.runtime.ConnLimit;
import io.fulcrum.runtime.Fulcrum;
import io.fulcrum.server.Server;
import io.fulcrum.server.ServerGroup;
import io.fulcrum.stats.Counters.Count;

import java.util.ArrayList;
import java.util.List;
import java.util.HashMap;
import java.util.Map;

import static io.fulcrum.stats.StatField.*;

/**
 * The rows of {@code show stat} for the running process, in HAProxy's order: for each proxy in declaration
 * order, its frontend, then its servers, then its backend.
 */
final class ProxyRows {
    private final Fulcrum process;
    private final long now = System.currentTimeMillis();

    ProxyRows(Fulcrum process) {
        this.process = process;
    }

    List<StatRow> all() {
        // In the order of the configuration, as HAProxy lists them; a listen section is a frontend and a backend.
        Map<String, Frontend> frontends = new HashMap<>();
        process.frontends().forEach(fe -> frontends.put(fe.name(), fe));
        List<StatRow> rows = new ArrayList<>();
        for (String name : process.proxyNames()) {
            Frontend fe = frontends.get(name);
            Backend be = process.backends().get(name);
            if (fe != null) {
                rows.add(frontend(fe));
                for (Listener l : process.listeners()) {
                    if (l.counters() != null && l.owner().equals(name)) {
                        rows.add(listener(fe, l));
                    }
                }
            }
            if (be != null) {
                for (Server s : be.servers()) {
                    rows.add(server(be, s));
                }
                rows.add(backend(be));
            }
        }
        return rows;
    }

    private StatRow frontend(Frontend fe) {
        Counters c = fe.counters();
        StatRow r = new StatRow(ObjType.FRONTEND, fe.numericId(), 0, c);
        ConnLimit l = fe.limit();
        names(r, fe.name(), "FRONTEND");
        sessions(r, l, l.max() == Integer.MAX_VALUE ? 0 : l.max());
        traffic(r, c);
        r.put(DREQ, c.get(Count.DENIED_REQ)).put(DRESP, c.get(Count.DENIED_RESP)).put(EREQ, c.get(Count.ERR_REQ));
        // A frontend at its maxconn is still OPEN, as in HAProxy 2.6 (its listeners say FULL)
        r.put(STATUS, process.closing() || fe.shutDown() ? "STOP" : fe.paused() ? "PAUSED" : "OPEN");
        ids(r, ObjType.FRONTEND);
        r.put(RATE, c.sessionRate().rate()).put(RATE_LIM, fe.sessionRateLimit()).put(RATE_MAX, c.sessionRate().max());
        r.put(REQ_RATE, c.requestRate().rate()).put(REQ_RATE_MAX, c.requestRate().max()).put(REQ_TOT, c.get(Count.REQUESTS));
        compression(r);
        r.put(MODE, fe.mode().keyword());
        r.put(CONN_RATE, c.connectionRate().rate()).put(CONN_RATE_MAX, c.connectionRate().max()).put(CONN_TOT, l.total());
        r.put(DCON, c.get(Count.DENIED_CONN)).put(DSES, c.get(Count.DENIED_SESS));
        r.put(WREW, c.get(Count.FAILED_REWRITES)).put(EINT, c.get(Count.INTERNAL_ERRORS));
        if (fe.mode() == Mode.HTTP) {
            responses(r, c);
            r.put(INTERCEPTED, c.get(Count.INTERCEPTED)).put(CACHE_LOOKUPS, c.get(Count.CACHE_LOOKUPS)).put(CACHE_HITS, c.get(Count.CACHE_HITS));
        }
        tls(r, c);
        h2(r);
        boolean h1 = fe.mode() == Mode.HTTP;
        h1(r, h1 ? l.current() : 0, h1 ? l.current() : 0, h1 ? l.total() : 0, h1 ? c.get(Count.H1_STREAMS) : 0,
                h1 ? c.get(Count.BYTES_IN) : 0, h1 ? c.get(Count.BYTES_OUT) : 0);
        return r;
    }

    /** A listening socket's row ({@code option socket-stats}): the fields HAProxy 2.6 fills for one. */
    private static StatRow listener(Frontend fe, Listener l) {
        Counters c = l.counters();
        StatRow r = new StatRow(ObjType.LISTENER, fe.numericId(), l.numericId(), c);
        names(r, fe.name(), l.name() != null ? l.name() : "sock-" + l.numericId());
        ConnLimit limit = l.limit();
        sessions(r, limit, limit.max() == Integer.MAX_VALUE ? 0 : limit.max());
        traffic(r, c);
        r.put(DREQ, c.get(Count.DENIED_REQ)).put(DRESP, c.get(Count.DENIED_RESP)).put(EREQ, c.get(Count.ERR_REQ));
        r.put(STATUS, l.status());
        ids(r, ObjType.LISTENER);
        r.put(ADDR, address(l.endpoint(), l.endpoint() instanceof Endpoint.Inet inet ? inet.port() : 0));
        r.put(MODE, fe.mode().keyword());
        r.put(DCON, c.get(Count.DENIED_CONN)).put(DSES, c.get(Count.DENIED_SESS));
        r.put(WREW, c.get(Count.FAILED_REWRITES)).put(EINT, c.get(Count.INTERNAL_ERRORS));
        tls(r, c);
        return r;
    }

    private StatRow server(Backend be, Server s) {
        Counters c = s.counters();
        StatRow r = new StatRow(ObjType.SERVER, be.numericId(), s.numericId(), c);
        names(r, be.name(), s.name());
        r.put(QCUR, be.queued(s)).put(QMAX, be.queuePeak(s));
        sessions(r, s.streams(), 0);
        r.put(STOT, c.get(Count.SESSIONS)); // its connection attempts, retries too, as HAProxy's cum_sess
        if (s.maxconn() != 0) {
            r.put(SLIM, Integer.toUnsignedLong(s.maxconn())); // (a negative one from the CLI: unsigned, as HAProxy prints it)
        } else {
            r.put(SLIM, null); // no limit: empty, as HAProxy
        }
        if (s.spec().maxqueue > 0) {
            r.put(QLIMIT, s.spec().maxqueue);
        }
        traffic(r, c);
        r.put(DRESP, c.get(Count.DENIED_RESP));
        serverSide(r, c);
        ServerHealthFields.fill(r, s, process.checks());
        int ramp = be.slowStartWeight(s);
        if (ramp >= 0 && s.weight() > 0) { // (HAProxy: cur_eweight rounded up and server_throttle_rate(), starting, not draining)
            r.put(WEIGHT, be.effectiveWeight(s));
            r.put(THROTTLE, (100L * ramp + Backend.WEIGHT_SCALE - 1) / ((long) Backend.WEIGHT_SCALE * s.weight()));
        }
        r.put(ACT, s.spec().backup ? 0 : 1).put(BCK, s.spec().backup ? 1 : 0);
        ids(r, ObjType.SERVER);
        r.put(LBTOT, c.get(Count.SELECTED));
        r.put(RATE, c.sessionRate().rate()).put(RATE_MAX, c.sessionRate().max());
        if (be.mode() == Mode.HTTP) {
            responses(r, c);
            r.put(REQ_TOT, c.get(Count.REQUESTS));
        }
        r.put(ADDR, address(s.endpoint(), s.address().port()));
        Persistence persistence = be.persistence();
        String cookie = persistence != null ? persistence.cookieOf(s) : s.spec().cookie;
        if (cookie != null) {
            r.put(COOKIE, cookie);
        }
        r.put(MODE, be.mode().keyword());
        r.put(CONNECT, c.get(Count.CONNECTS)).put(REUSE, c.get(Count.REUSES));
        ServerIdle idle = ServerIdle.of(s);
        r.put(SRV_ICUR, idle.idleCount());
        r.put(IDLE_CONN_CUR, idle.idleCount() - idle.safeCount()).put(SAFE_CONN_CUR, idle.safeCount())
                .put(USED_CONN_CUR, idle.usedCount()).put(NEED_CONN_EST, idle.estimate());
        tls(r, c);
        return r;
    }

    private StatRow backend(Backend be) {
        Counters c = be.counters();
        StatRow r = new StatRow(ObjType.BACKEND, be.numericId(), 0, c);
        names(r, be.name(), "BACKEND");
        r.put(QCUR, be.queued() - be.servers().stream().mapToLong(be::queued).sum()).put(QMAX, be.queuePeak());
        sessions(r, be.streams(), be.fullconn());
        traffic(r, c);
        r.put(DREQ, c.get(Count.DENIED_REQ)).put(DRESP, c.get(Count.DENIED_RESP));
        serverSide(r, c);
        List<Server> usable = be.servers().stream().filter(Server::usable).toList();
        List<Server> active = usable.stream().filter(s -> !s.spec().backup).toList();
        boolean none = be.servers().isEmpty(); // a backend without servers is UP and never down, as in HAProxy
        r.put(STATUS, usable.isEmpty() && !none ? "DOWN" : "UP");
        // HAProxy's tot_weight: the effective weights (slow starts too) of the servers in use, the backups' when no
        // active server is (the first one's, or all their weights with allbackups)
        List<Server> backups = usable.stream().filter(s -> s.spec().backup).toList();
        List<Server> weighed = Backend.inUse(active, backups, be.balance().allBackups);
        long scaled = weighed.stream().mapToLong(s -> {
            int ramp = be.slowStartWeight(s);
            return ramp >= 0 ? ramp : (long) s.weight() * Backend.WEIGHT_SCALE;
        }).sum();
        r.put(WEIGHT, (scaled + Backend.WEIGHT_SCALE - 1) / Backend.WEIGHT_SCALE);
        r.put(UWEIGHT, weighed.stream().mapToLong(Server::weight).sum());
        r.put(ACT, active.size()).put(BCK, usable.size() - active.size());
        ServerGroup g = be.serverGroup();
        r.put(CHKDOWN, g.downTransitions()).put(LASTCHG, g.lastChangeSeconds());
        if (!none) {
            r.put(DOWNTIME, g.downtimeSeconds());
        }
        ids(r, ObjType.BACKEND);
        r.put(LBTOT, c.get(Count.SELECTED));
        r.put(RATE, c.sessionRate().rate()).put(RATE_MAX, c.sessionRate().max());
        compression(r);
        r.put(MODE, be.mode().keyword()).put(ALGO, be.algorithm().keyword());
        if (be.persistence() != null && be.persistence().cookieName() != null) {
            r.put(COOKIE, be.persistence().cookieName());
        }
        r.put(CONNECT, be.servers().stream().mapToLong(s -> s.counters().get(Count.CONNECTS)).sum());
        r.put(REUSE, be.servers().stream().mapToLong(s -> s.counters().get(Count.REUSES)).sum());
        r.put(AGG_SERVER_STATUS, 0).put(AGG_SERVER_CHECK_STATUS, 0).put(AGG_CHECK_STATUS, 0);
        if (be.mode() == Mode.HTTP) {
            responses(r, c);
            r.put(REQ_TOT, c.get(Count.REQUESTS)).put(CACHE_LOOKUPS, c.get(Count.CACHE_LOOKUPS)).put(CACHE_HITS, c.get(Count.CACHE_HITS));
        }
        tls(r, c);
        h2(r);
        boolean h1 = be.mode() == Mode.HTTP;
        // The server side: a stream per connection attempt, idle connections hold none; what the
        // backend's bin counts went out to the servers, its bout came in from them.
        h1(r, h1 ? be.servers().stream().mapToLong(Server::currentConnections).sum() : 0,
                h1 ? be.servers().stream().mapToLong(s -> s.streams().current()).sum() : 0,
                h1 ? be.servers().stream().mapToLong(s -> s.counters().get(Count.CONNECTS)).sum() : 0,
                h1 ? be.servers().stream().mapToLong(s -> s.counters().get(Count.SESSIONS)).sum() : 0,
                h1 ? c.get(Count.BYTES_OUT) : 0, h1 ? c.get(Count.BYTES_IN) : 0);
        return r;
    }

    private static void names(StatRow r, String proxy, String service) {
        r.put(PXNAME, proxy).put(SVNAME, service);
    }

    private static void sessions(StatRow r, ConnLimit l, long limit) {
        r.put(SCUR, l.current()).put(SMAX, l.peak()).put(SLIM, limit).put(STOT, l.total());
    }

    private static void traffic(StatRow r, Counters c) {
        r.put(BIN, c.get(Count.BYTES_IN)).put(BOUT, c.get(Count.BYTES_OUT));
    }

    private void serverSide(StatRow r, Counters c) {
        r.put(ECON, c.get(Count.ERR_CONN)).put(ERESP, c.get(Count.ERR_RESP));
        r.put(WRETR, c.get(Count.RETRIES)).put(WREDIS, c.get(Count.REDISPATCHES));
        r.put(CLI_ABRT, c.get(Count.CLI_ABORTS)).put(SRV_ABRT, c.get(Count.SRV_ABORTS));
        long last = c.lastSessionMillis();
        r.put(LASTSESS, last == 0 ? -1 : (now - last) / 1000);
        r.put(QTIME, c.queueTime().average()).put(CTIME, c.connectTime().average());
        r.put(RTIME, c.responseTime().average()).put(TTIME, c.totalTime().average());
        r.put(QTIME_MAX, c.queueTime().max()).put(CTIME_MAX, c.connectTime().max());
        r.put(RTIME_MAX, c.responseTime().max()).put(TTIME_MAX, c.totalTime().max());
        r.put(WREW, c.get(Count.FAILED_REWRITES)).put(EINT, c.get(Count.INTERNAL_ERRORS));
    }

    private static void responses(StatRow r, Counters c) {
        r.put(HRSP_1XX, c.get(Count.HRSP_1XX)).put(HRSP_2XX, c.get(Count.HRSP_2XX)).put(HRSP_3XX, c.get(Count.HRSP_3XX));
        r.put(HRSP_4XX, c.get(Count.HRSP_4XX)).put(HRSP_5XX, c.get(Count.HRSP_5XX)).put(HRSP_OTHER, c.get(Count.HRSP_OTHER));
    }

    /** The ssl stats module's fields: the handshakes counted in {@code c} (io.fulcrum.tls.SslCounts). */
    private static void tls(StatRow r, Counters c) {
        r.put(SSL_SESS, c.get(Count.SSL_SESSIONS)).put(SSL_REUSED_SESS, c.get(Count.SSL_REUSED_SESSIONS))
                .put(SSL_FAILED_HANDSHAKE, c.get(Count.SSL_FAILED_HANDSHAKES));
    }

    /** No HTTP/2 yet: no HTTP/2 connection or frame. */
    private static void h2(StatRow r) {
        for (StatField f : new StatField[] {H2_HEADERS_RCVD, H2_DATA_RCVD, H2_SETTINGS_RCVD, H2_RST_STREAM_RCVD, H2_GOAWAY_RCVD,
                H2_DETECTED_CONN_PROTOCOL_ERRORS, H2_DETECTED_STRM_PROTOCOL_ERRORS, H2_RST_STREAM_RESP, H2_GOAWAY_RESP,
                H2_OPEN_CONNECTIONS, H2_BACKEND_OPEN_STREAMS, H2_TOTAL_CONNECTIONS, H2_BACKEND_TOTAL_STREAMS}) {
            r.put(f, 0);
        }
    }

    /**
     * The HTTP/1 module's fields: every HTTP connection is HTTP/1 here, so they follow the proxy's own
     * counters (all zero for a TCP proxy); bytes received and sent on its HTTP/1 connections. Nothing is spliced.
     */
    private static void h1(StatRow r, long openConnections, long openStreams, long connections, long streams, long in, long out) {
        r.put(H1_OPEN_CONNECTIONS, openConnections).put(H1_OPEN_STREAMS, openStreams).put(H1_TOTAL_CONNECTIONS, connections)
                .put(H1_TOTAL_STREAMS, streams).put(H1_BYTES_IN, in).put(H1_BYTES_OUT, out)
                .put(H1_SPLICED_BYTES_IN, 0).put(H1_SPLICED_BYTES_OUT, 0);
    }

    /** No compression filter yet: nothing went through one. */
    private static void compression(StatRow r) {
        r.put(COMP_IN, 0).put(COMP_OUT, 0).put(COMP_BYP, 0).put(COMP_RSP, 0);
    }

    private static void ids(StatRow r, ObjType type) {
        r.put(PID, 1).put(IID, r.proxyId()).put(SID, r.serverId()).put(TYPE, type.number());
    }

    /** "127.0.0.1:8080", "[::1]:8080", "unix". */
    private static String address(Endpoint e, int port) {
        if (e instanceof Endpoint.Inet inet) {
            return InetText.bracketed(inet.host()) + ":" + port;
        }
        return e == null ? null : "unix";
    }
}
