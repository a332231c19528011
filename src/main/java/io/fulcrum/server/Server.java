package io.fulcrum.server;

import io.fulcrum.conn.Endpoint;
import io.fulcrum.runtime.ConnLimit;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/** A server at run time: its configuration and its counters. */
public final class Server {
    private final String backend;
    private final ServerSpec spec;
    private final int numericId;
    private final AtomicInteger current = new AtomicInteger();
    private final LongAdder total = new LongAdder();
    /** The transactions using it now (srv_conn, %sc): idle pooled connections do not count. */
    private final ConnLimit streams = new ConnLimit(0);

    /** @param numericId HAProxy's numeric id ({@code srv_id}): the server's place in its backend, from 1 */
    public Server(String backend, ServerSpec spec, int numericId) {
        this.backend = backend;
        this.spec = spec;
        this.numericId = numericId;
    }

    public String name() {
        return spec.name;
    }

    /** The configuration this server runs with. */
    public ServerSpec spec() {
        return spec;
    }

    /** "backend/server", as logs and messages name it. */
    public String id() {
        return backend + "/" + spec.name;
    }

    /** HAProxy's numeric id of the server: its place in its backend, from 1 (no {@code id} keyword yet). */
    public int numericId() {
        return numericId;
    }

    /**
     * UP as HAProxy says it without health checks: it has an address and is not disabled (whatever its
     * weight, unlike {@link #usable()}).
     */
    public boolean up() {
        return spec.endpoint != null && !spec.disabled;
    }

    public int weight() {
        return spec.weight;
    }

    public int sendProxy() {
        return spec.sendProxy;
    }

    /** The layer its connections carry (TLS), or null. */
    public ServerTransport transport() {
        return spec.transport;
    }

    /** Usable for traffic: has an address and is not disabled (health checks come later). */
    public boolean usable() {
        return spec.endpoint != null && !spec.disabled && spec.weight > 0;
    }

    public Endpoint endpoint() {
        return spec.endpoint;
    }

    /** Where to connect for a client that connected to {@code clientDst} (the port may follow the client's). */
    public SocketAddress target(SocketAddress clientDst) {
        if (spec.endpoint instanceof Endpoint.Inet inet) {
            int port = switch (spec.portMode) {
                case FIXED -> spec.port;
                case CLIENT -> portOf(clientDst);
                case OFFSET -> portOf(clientDst) + spec.port;
            };
            return new InetSocketAddress(inet.host(), port);
        }
        if (spec.endpoint instanceof Endpoint.Unix unix) {
            return new io.netty.channel.unix.DomainSocketAddress(unix.abstractNamespace() ? "\0" + unix.path() : unix.path());
        }
        throw new IllegalStateException("server " + id() + " has no address");
    }

    private static int portOf(SocketAddress a) {
        return a instanceof InetSocketAddress i ? i.getPort() : 0;
    }

    public void connectionOpened() {
        current.incrementAndGet();
        total.increment();
    }

    public void connectionClosed() {
        current.decrementAndGet();
    }

    public int currentConnections() {
        return current.get();
    }

    /** The transactions using this server now. */
    public ConnLimit streams() {
        return streams;
    }

    public long totalConnections() {
        return total.sum();
    }
}
