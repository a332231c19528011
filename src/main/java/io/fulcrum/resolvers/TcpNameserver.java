package io.fulcrum.resolvers;

import io.fulcrum.runtime.EventLoops;
import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import io.netty.handler.codec.dns.DefaultDnsQuery;
import io.netty.handler.codec.dns.DnsRecordType;
import io.netty.handler.codec.dns.TcpDnsQueryEncoder;
import io.netty.handler.codec.dns.TcpDnsResponseDecoder;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.ScheduledFuture;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * A stream name server ({@code nameserver <name> tcp@<ip>:<port>}): DNS over TCP, each message after its 2-byte length
 * (RFC 7766), as HAProxy's dns_stream_server runs it: at most 4 queries in flight on a connection, another connection
 * when all are busy (up to the line's {@code maxconn}, 0 meaning no limit; beyond it the queries wait for a free
 * slot), and the connections that stayed idle for 5 seconds closed. An answer may take the 65535 bytes a TCP message
 * can hold, whatever {@code accepted_payload_size} says.
 */
final class TcpNameserver extends NameserverLink {
    /** Queries in flight on one connection (HAProxy's DNS_STREAM_MAX_PIPELINED_REQ). */
    static final int PIPELINED = 4;
    /** How often idle connections are closed (HAProxy's dns_session_io_handler purge period). */
    private static final long IDLE_MS = 5000;

    /** A query that waits for a free slot. */
    private record Query(int id, String name, DnsRecordType type, int payloadSize) {
    }

    /** A connection and the queries it carries. */
    private final class Session {
        Channel channel;
        boolean connected;
        final Set<Integer> inFlight = new HashSet<>();
        /** Written before the connection was established: sent once it is. */
        final List<Query> early = new ArrayList<>();
        boolean usedSinceSweep = true;
    }

    private final List<Session> sessions = new ArrayList<>();
    private final ArrayDeque<Query> waiting = new ArrayDeque<>();
    private EventLoops loops;
    private EventLoop loop;
    private ResolversRuntime section;
    private ScheduledFuture<?> sweeper;

    TcpNameserver(ResolversSpec.Nameserver spec) {
        super(spec);
    }

    @Override
    Future<?> open(EventLoops loops, EventLoop loop, ResolversRuntime section) {
        this.loops = loops;
        this.loop = loop;
        this.section = section;
        sweeper = loop.scheduleAtFixedRate(this::closeIdle, IDLE_MS, IDLE_MS, TimeUnit.MILLISECONDS);
        return loop.newSucceededFuture(null);
    }

    @Override
    void send(int id, String name, DnsRecordType type, int payloadSize) {
        sent++;
        Query q = new Query(id, name, type, payloadSize);
        Session s = sessions.stream().filter(x -> x.inFlight.size() < PIPELINED).findFirst().orElse(null);
        if (s == null && (spec.maxconn() == 0 || sessions.size() < spec.maxconn())) {
            s = connect();
        }
        if (s == null) {
            waiting.add(q);
        } else {
            write(s, q);
        }
    }

    private void write(Session s, Query q) {
        s.inFlight.add(q.id);
        s.usedSinceSweep = true;
        if (!s.connected) {
            s.early.add(q);
            return;
        }
        s.channel.writeAndFlush(fill(new DefaultDnsQuery(q.id), q.name, q.type, q.payloadSize)).addListener(w -> {
            if (!w.isSuccess()) {
                sendErrors++;
            }
        });
    }

    private Session connect() {
        Session s = new Session();
        var f = bootstrap(loops, loop, false, section, new TcpDnsQueryEncoder(), new TcpDnsResponseDecoder()).connect(spec.address());
        s.channel = f.channel();
        sessions.add(s);
        f.addListener(c -> {
            if (!c.isSuccess()) {
                sendErrors += s.early.size();
                s.early.clear();
                return; // the close below forgets the session
            }
            s.connected = true;
            List<Query> early = List.copyOf(s.early);
            s.early.clear();
            early.forEach(q -> write(s, q));
        });
        s.channel.closeFuture().addListener(c -> sessions.remove(s));
        return s;
    }

    @Override
    void forget(int id) {
        waiting.removeIf(q -> q.id == id);
        for (Session s : sessions) {
            if (s.inFlight.remove(id) && !waiting.isEmpty()) {
                write(s, waiting.poll());
            }
        }
    }

    /** Closes the connections that carried nothing since the last sweep. */
    private void closeIdle() {
        for (Session s : List.copyOf(sessions)) {
            if (s.inFlight.isEmpty() && !s.usedSinceSweep) {
                s.channel.close();
            }
            s.usedSinceSweep = false;
        }
    }

    @Override
    void close() {
        if (sweeper != null) {
            sweeper.cancel(false);
        }
        List.copyOf(sessions).forEach(s -> s.channel.close());
    }
}
