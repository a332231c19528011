package io.fulcrum.check;

import io.fulcrum.backend.Backend;
import io.fulcrum.cli.CliException;
import io.fulcrum.cli.CliRequest;
import io.fulcrum.conn.Endpoint;
import io.fulcrum.conn.InetText;
import io.fulcrum.runtime.Fulcrum;
import io.fulcrum.server.Server;
import io.fulcrum.server.ServerState;

import java.net.InetAddress;
import java.util.Collection;
import java.util.List;

/**
 * {@code show servers state [<backend>]}: HAProxy's version-1 dump of what a server-state file keeps, field for
 * field. Most of a line is the checks' state, hence its place here.
 */
final class ServerStateDump {
    private static final String HEADER = "1\n# be_id be_name srv_id srv_name srv_addr srv_op_state srv_admin_state srv_uweight srv_iweight"
            + " srv_time_since_last_change srv_check_status srv_check_result srv_check_health srv_check_state srv_agent_state"
            + " bk_f_forced_id srv_f_forced_id srv_fqdn srv_port srvrecord srv_use_ssl srv_check_port srv_check_addr srv_agent_addr"
            + " srv_agent_port\n";

    private ServerStateDump() {
    }

    static void run(CliRequest r) throws CliException {
        Fulcrum p = r.process();
        Collection<Backend> backends = p.backends().values();
        if (!r.arg(3).isEmpty()) {
            Backend b = p.backends().get(r.arg(3));
            if (b == null) {
                throw new CliException("Can't find backend.\n");
            }
            backends = List.of(b);
        }
        StringBuilder out = new StringBuilder(HEADER);
        for (Backend b : backends) {
            for (Server s : b.servers()) {
                line(out, b, s, p.checks().of(s));
            }
        }
        r.print(out);
    }

    private static void line(StringBuilder out, Backend b, Server s, ServerChecks k) {
        ServerState st = s.state();
        CheckView health = k.health();
        CheckView agent = k.agent();
        Server.Address a = s.address();
        out.append(b.numericId()).append(' ').append(b.name()).append(' ').append(s.numericId()).append(' ').append(s.name()).append(' ')
                .append(a.endpoint() instanceof Endpoint.Inet inet ? InetText.of(inet.host()) : "-").append(' ')
                // HAProxy stops a server in maintenance.
                .append(st.inMaintenance() ? 0 : st.op().ordinal()).append(' ').append(st.admin()).append(' ')
                .append(st.weight()).append(' ').append(st.initialWeight()).append(' ').append(st.lastChangeSeconds()).append(' ')
                .append(health.status().number()).append(' ').append(health.result()).append(' ').append(health.health()).append(' ')
                .append(health.state()).append(' ').append(agent.state()).append(' ')
                .append(b.forcedId() ? 1 : 0).append(' ').append(s.spec().id != 0 ? 1 : 0).append(' ').append(text(s.fqdn())).append(' ')
                .append(a.port()).append(' ').append(text(s.spec().srvRecord)).append(" 0 ") // no TLS
                .append(k.checkPort()).append(' ').append(text(k.checkAddr())).append(' ').append(text(k.agentAddr())).append(' ')
                .append(k.agentPort()).append('\n');
    }

    private static String text(InetAddress a) {
        return a == null ? "-" : InetText.of(a);
    }

    private static String text(String s) {
        return s == null ? "-" : s;
    }
}
