package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static io.fulcrum.it.TcpProxyKit.freePort;
import static io.fulcrum.it.TcpProxyKit.send;
import static io.fulcrum.it.TcpProxyKit.serve;

/**
 * Where an agent check connects, as haproxy 2.6: {@code agent-addr}, else the server's check {@code addr}, else the
 * server's address, whichever of the two keywords comes first. The agent listens on 127.0.0.1 only, so a connect to
 * 127.0.0.2 is refused. Passes against haproxy too ({@code -Dit.proxy=haproxy}).
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class AgentAddrIT {

    @Test
    void theAgentGoesToAgentAddrElseAddrElseTheServer() throws Exception {
        try (Origin agent = Origin.start(s -> send(s, "down\n"))) {
            int fe = freePort();
            int port = FulcrumProcess.refusedPort();
            String agentCheck = " agent-check agent-port " + agent.port() + " agent-inter 300ms\n";
            String cfg = CheckKit.config("", "tcp", fe, "a") + "backend a\n"
                    + "    server viaaddr 127.0.0.2:" + port + " addr 127.0.0.1" + agentCheck
                    + "    server viaserver 127.0.0.1:" + port + agentCheck
                    + "    server notserver 127.0.0.1:" + port + " addr 127.0.0.2" + agentCheck
                    + "    server agentfirst 127.0.0.2:" + port + " agent-addr 127.0.0.1 addr 127.0.0.2" + agentCheck
                    + "    server agentlast 127.0.0.2:" + port + " addr 127.0.0.2 agent-addr 127.0.0.1" + agentCheck
                    + "    server notaddr 127.0.0.1:" + port + " agent-addr 127.0.0.2 addr 127.0.0.1" + agentCheck;
            try (FulcrumProcess p = serve(cfg, fe)) {
                String reached = "Agent check for server a/%s failed, reason: Layer7 wrong status, code: 0, info: \"via agent : down\"";
                String refused = "Agent check for server a/%s failed, reason: Layer4 connection problem, info: \"Connection refused\"";
                for (String s : new String[] {"viaaddr", "viaserver", "agentfirst", "agentlast"}) {
                    p.awaitStderr(reached.formatted(s));
                }
                p.awaitStderr(refused.formatted("notserver"));
                p.awaitStderr(refused.formatted("notaddr"));
            }
        }
    }
}
