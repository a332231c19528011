package io.fulcrum.it;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.net.ConnectException;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static io.fulcrum.it.TcpProxyKit.freePort;
import static io.fulcrum.it.TcpProxyKit.serve;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code namespace <name>} on bind and server lines: a listener made in a network namespace of its own ({@code ip netns
 * add}) listens there only, and a server line's connections and health checks are made there, so one reaches the
 * other while the process's own namespace sees neither. Needs root (skipped where {@code ip netns add} fails). Also against haproxy.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class NetNamespaceIT {
    private static final String NS = "fulcrum-it-" + ProcessHandle.current().pid();
    private static boolean made;

    @BeforeAll
    static void makeNamespace() throws Exception {
        made = run("ip", "netns", "add", NS) && run("ip", "netns", "exec", NS, "ip", "link", "set", "lo", "up");
    }

    @AfterAll
    static void removeNamespace() throws Exception {
        if (made) {
            run("ip", "netns", "del", NS);
        }
    }

    private static boolean run(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(List.of(command)).redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0;
    }

    @Test
    void listenersAndServerConnectionsLiveInTheNamespace() throws Exception {
        assumeTrue(made, "no network namespace could be made here (root is needed)");
        int inside = freePort();
        int outside = freePort();
        try (FulcrumProcess proxy = serve("""
                defaults
                    mode http
                    timeout connect 2s
                    timeout client 5s
                    timeout server 5s
                frontend inside
                    bind 127.0.0.1:%d namespace %s
                    http-request return status 200 content-type text/plain string "from the namespace"
                frontend outside
                    bind 127.0.0.1:%d
                    http-request return status 200 content-type text/plain lf-string "%%[srv_is_up(there/s1)] %%[srv_is_up(control/s1)]" if { path /status }
                    default_backend there
                backend there
                    server s1 127.0.0.1:%1$d namespace %2$s check inter 200ms fall 1
                backend control
                    server s1 127.0.0.1:%1$d check inter 200ms fall 1
                """.formatted(inside, NS, outside), outside)) {
            try (HttpClientConn c = HttpClientConn.open(outside)) {
                assertThat(c.exchange("GET / HTTP/1.1\r\nHost: x\r\n\r\n").bodyText()).isEqualTo("from the namespace");
            }
            // The checks too connect from the namespace: the same address checked from the process's own is down.
            long deadline = System.nanoTime() + 15_000_000_000L;
            String status;
            do {
                Thread.sleep(200);
                try (HttpClientConn c = HttpClientConn.open(outside)) {
                    status = c.exchange("GET /status HTTP/1.1\r\nHost: x\r\n\r\n").bodyText();
                }
            } while (!status.equals("1 0") && System.nanoTime() < deadline);
            assertThat(status).as("server in the namespace, the same address outside").isEqualTo("1 0");
            assertThatThrownBy(() -> new Socket("127.0.0.1", inside).close())
                    .as("nothing listens on that port in the process's own namespace").isInstanceOf(ConnectException.class);
        }
    }
}
