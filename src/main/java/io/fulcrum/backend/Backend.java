package io.fulcrum.backend;

import io.fulcrum.conn.SocketOptions;
import io.fulcrum.http.ErrorSet;
import io.fulcrum.http.HttpModule;
import io.fulcrum.http.HttpOptions;
import io.fulcrum.pool.PoolModule;
import io.fulcrum.pool.ReuseMode;
import io.fulcrum.proxy.Mode;
import io.fulcrum.proxy.ProxySpec;
import io.fulcrum.proxy.Timeouts;
import io.fulcrum.rules.HttpRules;
import io.fulcrum.rules.TcpRules;
import io.fulcrum.runtime.ConnLimit;
import io.fulcrum.server.Server;
import io.fulcrum.server.ServerGroup;
import io.fulcrum.server.ServerList;
import io.fulcrum.stats.Counters;

import java.util.List;
import java.util.stream.IntStream;

/** A backend (or the backend half of a listen section) at run time. */
public final class Backend {
    private final String name;
    private final ServerGroup group;
    private final List<Server> servers;
    private final LoadBalancer lb;
    private final int retries;
    private final Timeouts timeouts;
    private final SocketOptions socket;
    private final HttpOptions http;
    private final ErrorSet errors;
    private final ReuseMode reuse;
    private final HttpRules rules;
    private final TcpRules tcpRules;
    private final int id;
    private final Mode mode;
    private final Algorithm algorithm;
    /** The transactions using it now (beconn, %bc). */
    private final ConnLimit streams = new ConnLimit(0);
    private final Counters counters = new Counters();

    public Backend(ProxySpec spec) {
        this.name = spec.name();
        this.id = spec.id;
        ServerList list = spec.partOrNull(ServerList.class);
        this.group = new ServerGroup(spec.name());
        this.servers = list == null ? List.of()
                : IntStream.range(0, list.servers.size()).mapToObj(i -> new Server(group, list.servers.get(i), i + 1)).toList();
        BalanceSpec balance = spec.part(BalanceSpec.class, BalanceSpec::new);
        this.lb = new WeightedRoundRobin(servers);
        this.retries = balance.retries;
        this.mode = spec.mode;
        this.algorithm = balance.algorithm;
        this.timeouts = spec.timeouts.copy();
        this.socket = spec.part(SocketOptions.class, SocketOptions::new);
        this.http = HttpModule.of(spec);
        this.errors = ErrorSet.of(spec);
        this.reuse = PoolModule.of(spec).mode;
        this.rules = HttpRules.of(spec);
        this.tcpRules = TcpRules.of(spec);
    }

    /** Its tcp-request content rules (a listen section's are its frontend's). */
    public TcpRules tcpRules() {
        return tcpRules;
    }

    /** Its http-request, http-response and http-after-response rules (a listen section's are its frontend's). */
    public HttpRules rules() {
        return rules;
    }

    /** Which requests may use idle server connections ({@code http-reuse}). */
    public ReuseMode reuseMode() {
        return reuse;
    }

    /** The responses it sends for errors found once it was chosen (503, 502, 504...). */
    public ErrorSet errors() {
        return errors;
    }

    public HttpOptions httpOptions() {
        return http;
    }

    public String name() {
        return name;
    }

    /** HAProxy's numeric id of the proxy ({@link ProxySpec#id}). */
    public int numericId() {
        return id;
    }

    /** Streams that chose this backend and have not ended yet. */
    public int currentStreams() {
        return streams.current();
    }

    /** Its servers as their state changes see them (where their events are logged). */
    public ServerGroup serverGroup() {
        return group;
    }

    public List<Server> servers() {
        return servers;
    }

    /** The server for a new connection, or null when none is usable. */
    public Server pick() {
        return lb.pick();
    }

    /** The transactions using this backend now. */
    public ConnLimit streams() {
        return streams;
    }

    public int retries() {
        return retries;
    }

    public Timeouts timeouts() {
        return timeouts;
    }

    public SocketOptions socketOptions() {
        return socket;
    }

    public Mode mode() {
        return mode;
    }

    /** Its {@code balance} algorithm. */
    public Algorithm algorithm() {
        return algorithm;
    }

    /** What {@code show stat} reports of it. */
    public Counters counters() {
        return counters;
    }
}
