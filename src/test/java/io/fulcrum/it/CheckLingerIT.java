package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.util.HexFormat;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static io.fulcrum.it.TcpProxyKit.freePort;
import static io.fulcrum.it.TcpProxyKit.send;
import static io.fulcrum.it.TcpProxyKit.serve;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * How a check's connection ends, as the server sees it: HAProxy resets it (SO_LINGER 0) unless the server closed first,
 * and {@code tcp-check connect linger} (the connect of smtpchk, mysql-check and pgsql-check too) closes it cleanly
 * instead. Passes against haproxy 2.6 (-Dit.proxy=haproxy).
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class CheckLingerIT {
    @Test
    void aCheckResetsItsConnectionUnlessItsConnectSaysLinger() throws Exception {
        assertThat(end("tcp-check connect\n    tcp-check send ping\\n\n    tcp-check expect string pong")).isEqualTo("reset");
        assertThat(end("tcp-check connect linger\n    tcp-check send ping\\n\n    tcp-check expect string pong")).isEqualTo("closed");
        assertThat(end("tcp-check connect linger")).isEqualTo("closed"); // a bare connect too
    }

    /** HAProxy's smtpchk, mysql-check and pgsql-check connect with "linger": the server sees a clean close. */
    @Test
    void theSqlAndMailChecksCloseCleanly() throws Exception {
        // a MySQL greeting (protocol 10, version 5.7.0) in its packet: without a user, mysql-check reads it and is done
        byte[] packet = HexFormat.of().parseHex("190000000a352e372e300001000000616263646566676800fff7080200");
        assertThat(end("option mysql-check", "", s -> {
            s.getOutputStream().write(packet);
            return waitForEnd(s);
        })).isEqualTo("closed");
        assertThat(end("option smtpchk", "", s -> {
            send(s, "554 go away\r\n");
            return waitForEnd(s);
        })).isEqualTo("closed");
    }

    /**
     * A bare connect sending a PROXY header passes once the header is out and resets its connection: a server waiting
     * for more does not keep it open (on io_uring Fulcrum's stayed open, closed in its connect's listener).
     */
    @Test
    void aConnectWithAProxyHeaderEndsItsConnectionAtOnce() throws Exception {
        assertThat(end("", "check-send-proxy", CheckLingerIT::waitForEnd)).isEqualTo("reset");
    }

    private static String end(String rules) throws Exception {
        return end("option tcp-check\n    " + rules, "", CheckLingerIT::answerAndWait);
    }

    /**
     * How the first check that reached the server ended: "closed" (a FIN), "reset" or "open" (still, 5 s on), the
     * backend's check settings {@code lines}, the server line's own {@code options}, the server doing {@code answer}.
     */
    private static String end(String lines, String options, Answer answer) throws Exception {
        BlockingQueue<String> ends = new LinkedBlockingQueue<>();
        try (Origin server = Origin.start(s -> ends.add(answer.run(s)))) {
            int fe = freePort();
            String cfg = """
                    defaults
                        mode tcp
                        timeout connect 1s
                        timeout client 5s
                        timeout server 5s
                        timeout check 2s
                    backend be
                        %s
                        server s1 127.0.0.1:%d check inter 200 %s
                    frontend fe
                        bind 127.0.0.1:%d
                        default_backend be
                    """.formatted(lines, server.port(), options, fe);
            try (FulcrumProcess p = serve(cfg, fe)) {
                String end = ends.poll(20, TimeUnit.SECONDS);
                assertThat(end).as(lines).isNotNull();
                return end;
            }
        }
    }

    @FunctionalInterface
    private interface Answer {
        String run(Socket s) throws IOException;
    }

    /** Reads whatever comes until the check ends the connection. */
    private static String waitForEnd(Socket s) throws IOException {
        s.setSoTimeout(5000);
        try {
            while (s.getInputStream().read() >= 0) {
                // (the check's bytes)
            }
            return "closed";
        } catch (SocketTimeoutException e) {
            return "open";
        } catch (SocketException e) {
            return "reset";
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
