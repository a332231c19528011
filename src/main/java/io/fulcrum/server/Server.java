package io.fulcrum.server;

import io.fulcrum.conn.Endpoint;
import io.fulcrum.runtime.ConnLimit;
import io.fulcrum.stats.Counters;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/** A server at run time: its configuration, its state and its counters. */
public final class Server {
    private final String backend;
    private final ServerSpec spec;
    private final ServerState state;
    private final int numericId;
    private final AtomicInteger current = new AtomicInteger();
    private final LongAdder total = new LongAdder();
    /** The transactions using it now (srv_conn, %sc): idle pooled connections do not count. */
    private final ConnLimit streams = new ConnLimit(0);
    private final Counters counters = new Counters();
    /** Where it is: the configured address until {@code set server addr} moves it. */
    private volatile Address address;
    /** The name its address is resolved from: the configured one, or an SRV record's target (null: none). */
    private volatile String fqdn;
    /** Told after each change of {@link #usable()}, {@link #weight()} or {@link #maxconn()}: load balancers rebuild from it. */
    private final List<Runnable> watchers = new CopyOnWriteArrayList<>();
    /** What its last change did to the queues, for the state-change line: streams moved, streams still waiting. */
    private volatile int requeued;
    private volatile int waiting;
    private volatile boolean referenced;
    /** Its connection limits now (0: none): the configured ones until {@link #changeMaxconn} moves them. */
    private volatile int maxconn;
    private volatile int minconn;

    /**
     * @param group     its backend's servers, which it joins
     * @param numericId HAProxy's numeric id ({@code srv_id}): the server's place in its backend, from 1
     */
    public Server(ServerGroup group, ServerSpec spec, int numericId) {
        this.backend = group.backend();
        this.spec = spec;
        this.numericId = numericId;
        this.address = new Address(spec.endpoint, spec.portMode, spec.port);
        this.fqdn = spec.fqdn;
        this.maxconn = spec.maxconn;
        this.minconn = spec.minconn;
        this.state = new ServerState(this, group, spec);
        group.add(this);
    }

    /** A server alone in its backend {@code backend} (tests). */
    public Server(String backend, ServerSpec spec, int numericId) {
        this(new ServerGroup(backend), spec, numericId);
    }

    /** Its admin and operational states, weights and check results. */
    public ServerState state() {
        return state;
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

    /** UP as {@code srv_is_up} says: not in maintenance nor down (whatever its weight, unlike {@link #usable()}). */
    public boolean up() {
        return state.up();
    }

    /** The effective weight. */
    public int weight() {
        return state.weight();
    }

    public int sendProxy() {
        return spec.sendProxy;
    }

    /** The layer its connections carry (TLS), or null. */
    public ServerTransport transport() {
        return spec.transport;
    }

    /** Usable for traffic: has an address and a weight, is running and neither in maintenance nor draining. */
    public boolean usable() {
        return state.usable();
    }

    /**
     * A server's address and port.
     *
     * @param endpoint null when it has none ({@code init-addr none})
     * @param port     the fixed port, or the offset for {@link ServerSpec.PortMode#OFFSET}
     */
    public record Address(Endpoint endpoint, ServerSpec.PortMode portMode, int port) {
    }

    /** Its address now. */
    public Address address() {
        return address;
    }

    /**
     * Moves the server ({@code set server addr}): new connections and checks go to {@code to}; established and
     * idle pooled connections stay where they are.
     */
    public void moveTo(Address to) {
        address = to;
    }

    /** The name its address is resolved from now, or null. */
    public String fqdn() {
        return fqdn;
    }

    /** Gives the server the name an SRV record's target gives it (null: none). */
    public void fqdn(String name) {
        fqdn = name;
    }

    public Endpoint endpoint() {
        return address.endpoint();
    }

    /**
     * Where to connect for a stream whose destination is {@code dst} (the client's, or what {@code set-dst} and
     * {@code set-dst-port} made of it): as HAProxy's alloc_dst_address(), an address 0.0.0.0 or :: is the destination's
     * address, and a port absent, 0 or an offset follows the destination's port (wrapping as HAProxy's 16-bit port).
     */
    public SocketAddress target(SocketAddress dst) {
        Address a = address;
        if (a.endpoint() instanceof Endpoint.Inet inet) {
            int port = switch (a.portMode()) {
                case FIXED -> a.port();
                case CLIENT -> portOf(dst);
                case OFFSET -> (portOf(dst) + a.port()) & 0xffff;
            };
            InetAddress host = inet.host().isAnyLocalAddress() && dst instanceof InetSocketAddress d && d.getAddress() != null
                    ? d.getAddress() : inet.host();
            return new InetSocketAddress(host, port);
        }
        if (a.endpoint() instanceof Endpoint.Unix unix) {
            return unix.socketAddress();
        }
        throw new IllegalStateException("server " + id() + " has no address");
    }

    /**
     * Its address or port comes from the stream's destination (see {@link #target}): HAProxy's transparent servers, whose
     * idle connections serve only requests going to the same destination.
     */
    public boolean followsDestination() {
        Address a = address;
        return a.endpoint() instanceof Endpoint.Inet inet
                && (inet.host().isAnyLocalAddress() || a.portMode() != ServerSpec.PortMode.FIXED);
    }

    private static int portOf(SocketAddress a) {
        return a instanceof InetSocketAddress i ? i.getPort() : 0;
    }

    /** Receives what the traffic tells of the server's health ({@code observe}): set by its checks, or null. */
    public interface Observer {
        void observed(Observation o);
    }

    private volatile Observer observer;

    public void observer(Observer o) {
        observer = o;
    }

    /** True when something ({@code observe}) listens to what transactions tell of the server. */
    public boolean observed() {
        return observer != null;
    }

    /** What a transaction told of the server (any thread). */
    public void observe(Observation o) {
        Observer ob = observer;
        if (ob != null) {
            ob.observed(o);
        }
    }

    /**
     * Other configuration elements point to it (HAProxy's SRV_F_NON_PURGEABLE): a {@code use-server} rule, a fetch, servers
     * tracking it, or a dynamic server that tracked it once (HAProxy never clears the mark). {@code del server} refuses
     * to delete it.
     */
    public boolean referenced() {
        return referenced || spec.referenced || state.hasTrackers();
    }

    /** A dynamic server tracks it: from now on it cannot be deleted. */
    public void markReferenced() {
        referenced = true;
    }

    /** What {@code show stat} reports of it. */
    public Counters counters() {
        return counters;
    }

    /** A connection to it is being attempted (the "connect" counter counts attempts, as HAProxy's). */
    public void connecting() {
        counters.increment(Counters.Count.CONNECTS);
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

    /** Its {@code maxconn} now, 0 for no limit (a negative one, which the CLI can set as in HAProxy, admits nothing). */
    public int maxconn() {
        return maxconn;
    }

    /** Its {@code minconn} now: the limit at low load when it ramps up to {@link #maxconn()} with its backend's load. */
    public int minconn() {
        return minconn;
    }

    /**
     * Changes its maxconn at run time ({@code set maxconn server}, an agent's "maxconn:N"), as HAProxy's
     * server_parse_maxconn_change_request(): a static limit (minconn equal to maxconn) moves whole, a ramp only its top;
     * the streams waiting for it then take the slots it gained. Returns HAProxy's complaint, or null once applied.
     */
    public String changeMaxconn(String text) {
        if (text.isEmpty()) {
            return "Require <maxconn>.\n";
        }
        LeadingNumber n = LeadingNumber.read(text);
        if (n == null) {
            return "maxconn string empty or preceded by garbage";
        }
        if (!n.rest().isEmpty()) {
            return "Trailing garbage in maxconn string";
        }
        int v = (int) n.value(); // (an int, as HAProxy keeps it: 99999999999 becomes 1215752191)
        synchronized (this) {
            if (maxconn == minconn) {
                minconn = v;
            }
            maxconn = v;
        }
        changed();
        return null;
    }

    /** The transactions using this server now. */
    public ConnLimit streams() {
        return streams;
    }

    public long totalConnections() {
        return total.sum();
    }

    /**
     * Runs {@code watcher} after each change of this server's usability, weight or maxconn, on the thread that
     * made the change (the CLI's, a health check's): it must be thread-safe and quick.
     */
    public void onChange(Runnable watcher) {
        watchers.add(watcher);
    }

    /**
     * Called by its backend while it handles a change of this server: the waiting streams it sent elsewhere (down,
     * with {@code option redispatch}) or gave this server (up), and those left in this server's queue.
     */
    public void requeued(int moved, int left) {
        requeued = moved;
        waiting = left;
    }

    /** The streams the last change moved (HAProxy's "N requeued"). */
    public int requeued() {
        return requeued;
    }

    /** The streams left in this server's queue after the last change. */
    public int waiting() {
        return waiting;
    }

    /** Tells the watchers; state transitions call it once they are visible. */
    void changed() {
        watchers.forEach(Runnable::run);
    }
}
