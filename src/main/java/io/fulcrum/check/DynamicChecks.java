package io.fulcrum.check;

import io.fulcrum.backend.Backend;
import io.fulcrum.cli.CliException;
import io.fulcrum.proxy.Mode;
import io.fulcrum.runtime.Fulcrum;
import io.fulcrum.server.DynamicServers;
import io.fulcrum.server.Server;
import io.fulcrum.server.ServerSpec;

/**
 * The checks and {@code track} of servers added at run time ({@code add server}), with HAProxy 2.6's refusals: a
 * dynamic server tracks only a configured server that is checked (itself or down its tracking chain), and its health
 * check and agent start disabled.
 */
final class DynamicChecks implements DynamicServers.Hook {

    @Override
    public void check(Fulcrum process, Backend b, ServerSpec s) throws CliException {
        ServerCheckSpec c = s.partOrNull(ServerCheckSpec.class);
        if (c == null) {
            return;
        }
        if (c.track != null) {
            tracked(process, b, c.track);
        }
        if (c.check && c.track != null) {
            throw new CliException("unable to enable checks and tracking at the same time!\n");
        }
        if (c.agent && c.agentPort == 0) {
            throw new CliException("server " + s.name + " does not have agent port. Agent check has been disabled.\n");
        }
        if (c.check && c.port == 0 && s.portMode != ServerSpec.PortMode.FIXED) {
            throw new CliException("config: backend '" + b.name() + "': server '" + s.name
                    + "' has neither service port nor check port nor tcp_check rule 'connect' with port information.\n");
        }
        if (c.observe == ServerCheckSpec.Observe.LAYER7 && b.mode() != Mode.HTTP) {
            throw new CliException("'layer7' can only be used in http proxies..\n");
        }
        HealthChecks.Kit kit = process.checks().kit(b);
        if ((c.check || c.agent) && kit.proxy().rules.stream().anyMatch(r -> r instanceof CheckRule.Connect k && k.ssl())) {
            // (their TLS layers are built once the configuration is read: docs/differences.md)
            throw new CliException("checks with 'connect ... ssl' rules are not supported for dynamic server by Fulcrum yet\n");
        }
    }

    /** The configured, checked server {@code track} names, else HAProxy's refusal. */
    private static Server tracked(Fulcrum process, Backend from, String track) throws CliException {
        int slash = track.indexOf('/');
        String backend = slash < 0 ? from.name() : track.substring(0, slash);
        String name = slash < 0 ? track : track.substring(slash + 1);
        Backend b = process.backends().get(backend);
        if (b == null) {
            throw new CliException("unable to find required proxy '" + backend + "' for tracking.\n");
        }
        Server target = b.servers().stream().filter(x -> x.name().equals(name)).findFirst().orElse(null);
        if (target == null) {
            throw new CliException("unable to find required server '" + name + "' for tracking.\n");
        }
        if (target.spec().dynamic) {
            throw new CliException("unable to use " + backend + "/" + name + " for tracking as it is a dynamic server.\n");
        }
        for (Server end = target; end != null; end = end.state().tracked()) {
            ServerChecks k = process.checks().of(end);
            if (k != null && (k.hasHealthCheck() || k.hasAgent())) {
                return target;
            }
        }
        throw new CliException("unable to use " + backend + "/" + name + " for tracking as it does not have any check nor agent enabled.\n");
    }

    @Override
    public void added(Fulcrum process, Backend b, Server s) {
        ServerCheckSpec c = s.spec().partOrNull(ServerCheckSpec.class);
        if (c != null && c.track != null) {
            try {
                Server target = tracked(process, b, c.track);
                target.markReferenced();
                s.state().track(target);
            } catch (CliException e) {
                throw new IllegalStateException(e); // checked just before, under the backend's lock
            }
        }
        process.checks().added(b, s);
    }

    @Override
    public void deleted(Fulcrum process, Backend b, Server s) {
        process.checks().deleted(s);
        s.state().untrack();
    }
}
