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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The process's checks: wires {@code track}, builds each checked server's {@link ServerChecks} and starts
 * them spread over their first interval (HAProxy spreads the first checks of all servers evenly, {@link #start}).
 */
public final class HealthChecks {
    private final Map<Server, ServerChecks> checks = new LinkedHashMap<>();
    private final CheckModule.Settings settings;

    public HealthChecks(ConfigModel model, Map<String, Backend> backends, EventLoops loops) {
        this.settings = CheckModule.settings(model);
        ProxyTable table = ProxyTable.of(model);
        String node = GlobalModule.settings(model).node != null ? GlobalModule.settings(model).node : Hostname.name();
        for (ProxySpec p : table.proxies()) {
            Backend b = backends.get(p.name());
            ServerList list = p.partOrNull(ServerList.class);
            if (b == null || list == null || !p.kind().isBackend()) {
                continue;
            }
            ProxyChecks proxy = p.partOrNull(ProxyChecks.class) == null ? new ProxyChecks() : CheckModule.of(p);
            List<CheckRule> rules = rules(proxy);
            for (int i = 0; i < list.servers.size(); i++) {
                ServerSpec s = list.servers.get(i);
                ServerCheckSpec c = s.partOrNull(ServerCheckSpec.class);
                Server server = b.servers().get(i);
                if (c != null && c.track != null) {
                    ServerSpec target = CheckModule.find(table, p, c.track);
                    server.state().track(serverOf(backends, table, target));
                }
                ServerCheckSpec spec = c == null ? new ServerCheckSpec() : c;
                // Every server has its health counter, which the CLI sets even where no check runs.
                ExternalCheck external = proxy.type == ProxyChecks.Type.EXTERNAL ? new ExternalCheck(p, proxy, b, server) : null;
                checks.put(server, new ServerChecks(b, server, spec, proxy, rules, external, loops, b.timeouts().connect, settings.spreadPercent,
                        settings.pp2NeverSendLocal, node));
                MarkedActions.watch(server, b, spec, loops);
            }
        }
        ServerStateFile.apply(model, backends, this);
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

    /** The sockets the checks may hold at once: one per server's health check, one per agent. */
    public int sockets() {
        int n = 0;
        for (ServerChecks c : checks.values()) {
            n += (c.hasHealthCheck() ? 1 : 0) + (c.hasAgent() ? 1 : 0);
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
        for (ServerChecks c : checks.values()) {
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
        checks.values().forEach(ServerChecks::stop);
    }

    /** The checks of {@code server} (every server of a backend has them, even where none runs), or null. */
    public ServerChecks of(Server server) {
        return checks.get(server);
    }
}
