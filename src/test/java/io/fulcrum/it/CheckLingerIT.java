package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketException;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static io.fulcrum.it.TcpProxyKit.freePort;
import static io.fulcrum.it.TcpProxyKit.send;
import static io.fulcrum.it.TcpProxyKit.serve;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * How a check's connection ends, as the server sees it: HAProxy resets it (SO_LINGER 0) unless the server closed first,
 * and {@code tcp-check connect linger} closes it cleanly instead. Passes against haproxy 2.6 (-Dit.proxy=haproxy).
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class CheckLingerIT {
    @Test
    void aCheckResetsItsConnectionUnlessItsConnectSaysLinger() throws Exception {
        assertThat(end("tcp-check connect\n    tcp-check send ping\\n\n    tcp-check expect string pong")).isEqualTo("reset");
        assertThat(end("tcp-check connect linger\n    tcp-check send ping\\n\n    tcp-check expect string pong")).isEqualTo("closed");
        assertThat(end("tcp-check connect linger")).isEqualTo("closed"); // a bare connect too
    }

    /** How the first check that reached the server ended: "closed" (a FIN) or "reset". */
    private static String end(String rules) throws Exception {
        BlockingQueue<String> ends = new LinkedBlockingQueue<>();
        try (Origin server = Origin.start(s -> ends.add(answerAndWait(s)))) {
            int fe = freePort();
            String cfg = """
                    defaults
                        mode tcp
                        timeout connect 1s
                        timeout client 5s
                        timeout server 5s
                        timeout check 2s
                    backend be
                        option tcp-check
                        %s
                        server s1 127.0.0.1:%d check inter 200
                    frontend fe
                        bind 127.0.0.1:%d
                        default_backend be
                    """.formatted(rules, server.port(), fe);
            try (FulcrumProcess p = serve(cfg, fe)) {
                String end = ends.poll(20, TimeUnit.SECONDS);
                assertThat(end).as(rules).isNotNull();
                return end;
            }
        }
    }

    /** Answers "pong" to a line, then waits for the check to end the connection. */
    private static String answerAndWait(Socket s) throws IOException {
        s.setSoTimeout(5000);
        InputStream in = s.getInputStream();
        try {
            int c;
            boolean line = false;
            while ((c = in.read()) >= 0) {
                if (c == '\n' && !line) {
                    line = true;
                    send(s, "pong\n");
                }
            }
            return "closed";
        } catch (SocketException e) {
            return "reset";
        }
    }
}
