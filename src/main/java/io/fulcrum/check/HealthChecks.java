package io.fulcrum.check;

import io.fulcrum.backend.Backend;
import io.fulcrum.cfg.ConfigModel;
import io.fulcrum.log.Hostname;
import io.fulcrum.proxy.ProxySpec;
import io.fulcrum.proxy.ProxyTable;
import io.fulcrum.runtime.EventLoops;
import io.fulcrum.runtime.GlobalModule;
import io.fulcrum.server.Server;
import io.fulcrum.server.ServerList;
import io.fulcrum.server.ServerSpec;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The process's checks: wires {@code track}, builds each checked server's {@link ServerChecks} and starts
 * them spread over their first interval (HAProxy spreads the first checks of all servers evenly, {@link #start}).
 */
public final class HealthChecks {
    /** In the order of the configuration, then of {@code add server} (guarded by itself: the CLI adds and deletes). */
    private final Map<Server, ServerChecks> checks = Collections.synchronizedMap(new LinkedHashMap<>());
    private final CheckModule.Settings settings;
    /** What the checks of a server added to a backend at run time are built from, by backend name. */
    private final Map<String, Kit> kits = new HashMap<>();
    private final EventLoops loops;
    private final String node;

    /** A backend's check settings and rules, as its configured servers got them. */
    record Kit(ProxySpec proxySpec, ProxyChecks proxy, List<CheckRule> rules) {
    }

    public HealthChecks(ConfigModel model, Map<String, Backend> backends, EventLoops loops) {
        this.settings = CheckModule.settings(model);
        this.loops = loops;
        ProxyTable table = ProxyTable.of(model);
        this.node = GlobalModule.settings(model).node != null ? GlobalModule.settings(model).node : Hostname.name();
        for (ProxySpec p : table.proxies()) {
            Backend b = backends.get(p.name());
            ServerList list = p.partOrNull(ServerList.class);
            if (b == null || !p.kind().isBackend()) {
                continue;
            }
            ProxyChecks proxy = p.partOrNull(ProxyChecks.class) == null ? new ProxyChecks() : CheckModule.of(p);
            Kit kit = new Kit(p, proxy, rules(proxy));
            kits.put(p.name(), kit); // (a backend without servers too: add server fills it)
            for (int i = 0; list != null && i < list.servers.size(); i++) {
                ServerSpec s = list.servers.get(i);
                ServerCheckSpec c = s.partOrNull(ServerCheckSpec.class);
                Server server = b.servers().get(i);
                if (c != null && c.track != null) {
                    ServerSpec target = CheckModule.find(table, p, c.track);
                    server.state().track(serverOf(backends, table, target));
                }
                build(b, server, kit);
            }
        }
        ServerStateFile.apply(model, backends, this);
    }

    /** The checks of {@code server} (every server has them: the CLI sets its health even where no check runs). */
    private ServerChecks build(Backend b, Server server, Kit kit) {
        ServerCheckSpec c = server.spec().partOrNull(ServerCheckSpec.class);
        ServerCheckSpec spec = c == null ? new ServerCheckSpec() : c;
        ExternalCheck external = kit.proxy.type == ProxyChecks.Type.EXTERNAL ? new ExternalCheck(kit.proxySpec, kit.proxy, b, server) : null;
        ServerChecks k = new ServerChecks(b, server, spec, kit.proxy, kit.rules, external, loops, b.timeouts().connect,
                settings.spreadPercent, settings.pp2NeverSendLocal, node);
        checks.put(server, k);
        MarkedActions.watch(server, b, spec, loops);
        return k;
    }

    /** The check settings of backend {@code b}'s servers. */
    Kit kit(Backend b) {
        return kits.get(b.name());
    }

    /**
     * The checks of a server added at run time ({@code add server}): configured as its line says, but the health check and
     * the agent stay disabled until {@code enable health} and {@code enable agent}, as in HAProxy.
     */
    void added(Backend b, Server server) {
        ServerChecks k = build(b, server, kits.get(b.name()));
        k.healthEnabled(false);
        k.agentEnabled(false);
        if (k.hasHealthCheck()) {
            k.startHealth(k.healthInterval());
        }
        if (k.hasAgent()) {
            k.startAgent(k.agentInterval());
        }
    }

    /** A server deleted at run time: its checks stop. */
    void deleted(Server server) {
        ServerChecks k = checks.remove(server);
        if (k != null) {
            k.stop();
        }
    }

    /**
     * The rules a proxy's servers run: those its check option chose (none for a plain connect or an external check),
     * an HTTP check's completed as HAProxy does once the section is read.
     */
    static List<CheckRule> rules(ProxyChecks p) {
        return switch (p.type) {
            case TCP -> p.tcpCheckOption ? List.copyOf(p.rules) : List.of();
            case HTTP -> HttpRuleSet.finish(p.rules);
            case PROTOCOL -> List.copyOf(p.rules);
            case EXTERNAL -> List.of();
        };
    }

    private static Server serverOf(Map<String, Backend> backends, ProxyTable table, ServerSpec target) {
        for (ProxySpec p : table.proxies()) {
            ServerList l = p.partOrNull(ServerList.class);
            Backend b = backends.get(p.name());
            if (l != null && b != null && l.servers.contains(target)) {
                return b.servers().get(l.servers.indexOf(target));
            }
        }
        throw new IllegalStateException("tracked server not found");
    }

    /**
     * The sockets HAProxy 2.6 sets aside for the checks in its maxsock: one per server's health check, two per agent
     * (measured on haproxy 2.6.12: an {@code agent-check} line raises Maxsock by 2, a {@code check} by 1).
     */
    public int sockets() {
        int n = 0;
        for (ServerChecks c : all()) {
            n += (c.hasHealthCheck() ? 1 : 0) + (c.hasAgent() ? 2 : 0);
        }
        return n;
    }

    /** HAProxy's SRV_CHK_INTER_THRES: the checks run more often than this do not set the interval the others spread over. */
    private static final long SPREAD_THRESHOLD = 1000;

    /** A check to start: a server's health check or its agent, and the interval it starts with. */
    private record First(ServerChecks checks, boolean agent, long inter) {
    }

    /**
     * Starts every check as HAProxy's start_checks() does: the health checks and the agents of all servers in the
     * order of the configuration, the k-th of n after k/n of an interval, that interval being the check's own or the
     * shortest of all from one second up, whichever is longer, with its {@code spread-checks} noise and at most
     * {@code max-spread-checks}. So the first checks do not all leave at once, and each then keeps its place.
     */
    public void start() {
        List<First> firsts = new ArrayList<>();
        for (ServerChecks c : all()) {
            if (c.hasHealthCheck()) {
                firsts.add(new First(c, false, c.healthInterval()));
            }
            if (c.hasAgent()) {
                firsts.add(new First(c, true, c.agentInterval()));
            }
        }
        long shortest = firsts.stream().mapToLong(First::inter).filter(i -> i >= SPREAD_THRESHOLD).min().orElse(0);
        for (int k = 0; k < firsts.size(); k++) {
            First f = firsts.get(k);
            long over = Math.max(shortest, f.inter()) + f.checks().noise(f.inter());
            if (settings.maxSpread > 0) {
                over = Math.min(over, settings.maxSpread);
            }
            long delay = over * k / firsts.size();
            if (f.agent()) {
                f.checks().startAgent(delay);
            } else {
                f.checks().startHealth(delay);
            }
        }
    }

    public void stop() {
        all().forEach(ServerChecks::stop);
    }

    private List<ServerChecks> all() {
        synchronized (checks) {
            return List.copyOf(checks.values());
        }
    }

    /** The checks of {@code server} (every server of a backend has them, even where none runs), or null. */
    public ServerChecks of(Server server) {
        return checks.get(server);
    }
}
