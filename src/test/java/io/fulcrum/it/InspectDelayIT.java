package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;

import static io.fulcrum.it.TcpProxyKit.connect;
import static io.fulcrum.it.TcpProxyKit.freePort;
import static io.fulcrum.it.TcpProxyKit.serve;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * tcp-request inspect-delay: content rules wait for the client's bytes, evaluated again as they arrive, and decide
 * with what came once the delay ends. Also runs against HAProxy 2.6 (-Dit.proxy=haproxy).
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class InspectDelayIT {

    private static String config(int fe, int be) {
        return """
                defaults
                    mode tcp
                    timeout connect 2s
                    timeout client 10s
                    timeout server 10s
                frontend fe
                    bind 127.0.0.1:%d
                    tcp-request inspect-delay 3s
                    tcp-request content set-var(sess.seen) req.len
                    tcp-request content accept if { req.payload(0,5) -m str HELLO }
                    tcp-request content reject
                    default_backend be
                backend be
                    server s1 127.0.0.1:%d
                """.formatted(fe, be);
    }

    @Test
    void rulesWaitForTheBytesTheyNeed() throws Exception {
        int fe = freePort();
        try (Origin origin = Origin.start(Origin.ECHO);
             FulcrumProcess proxy = serve(config(fe, origin.port()), fe)) {
            try (Socket s = connect(fe)) {
                assertThat(inTwoParts(s, "HEL", "LO world")).isEqualTo("HELLO world");
            }
            try (Socket s = connect(fe)) {
                s.getOutputStream().write("BYE!!".getBytes(StandardCharsets.US_ASCII));
                long start = System.nanoTime();
                assertClosed(s);
                assertThat(System.nanoTime() - start).isLessThan(2_000_000_000L); // decided at once, not at the delay's end
            }
            try (Socket s = connect(fe)) {
                s.getOutputStream().write("HE".getBytes(StandardCharsets.US_ASCII));
                long start = System.nanoTime();
                assertClosed(s);
                assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(2_700_000_000L); // at the delay's end
            }
            assertThat(origin.accepted()).isEqualTo(1);
        }
    }

    /**
     * In mode tcp, the predefined ACL HTTP (req.proto_http) is true once a whole HTTP/1 request head is held: a head
     * in two parts waits for the second, bytes that are not HTTP (a TLS hello) decide at once, and a head still
     * incomplete when the delay ends is not HTTP.
     */
    @Test
    void protoHttpWaitsForAWholeRequestHead() throws Exception {
        int fe = freePort();
        try (Origin origin = Origin.start(Origin.ECHO);
             FulcrumProcess proxy = serve(config(fe, origin.port()).replace("accept if { req.payload(0,5) -m str HELLO }", "accept if HTTP"),
                     fe)) {
            try (Socket s = connect(fe)) {
                assertThat(inTwoParts(s, "GET / HTTP/1.1\r\nHost: a\r\n", "\r\n")).isEqualTo("GET / HTTP/1.1\r\nHost: a\r\n\r\n");
            }
            try (Socket s = connect(fe)) {
                s.getOutputStream().write(new byte[] {0x16, 0x03, 0x01, 0x00, 0x05, 0x01, 0x00, 0x00, 0x01, 0x00});
                long start = System.nanoTime();
                assertClosed(s);
                assertThat(System.nanoTime() - start).isLessThan(2_000_000_000L);
            }
            try (Socket s = connect(fe)) {
                s.getOutputStream().write("GET / HTTP/1.1\r\n".getBytes(StandardCharsets.US_ASCII));
                long start = System.nanoTime();
                assertClosed(s);
                assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(2_700_000_000L);
            }
            assertThat(origin.accepted()).isEqualTo(1);
        }
    }

    /**
     * req.len "does not return false as long as the buffer is changing" (configuration.txt): a rule testing for more
     * bytes than came waits for them, and so do the rules after it, until the delay ends; a test it passes decides.
     */
    @Test
    void reqLenWaitsForTheBytesItTestsFor() throws Exception {
        int fe = freePort();
        String rules = "tcp-request content reject if { req.len gt 5 }\n    tcp-request content accept if { req.len gt 0 }";
        try (Origin origin = Origin.start(Origin.ECHO);
             FulcrumProcess proxy = serve(config(fe, origin.port()).replace(
                     "tcp-request content accept if { req.payload(0,5) -m str HELLO }\n    tcp-request content reject", rules), fe)) {
            try (Socket s = connect(fe)) {
                s.getOutputStream().write("0123456789".getBytes(StandardCharsets.US_ASCII));
                assertClosed(s); // rejected, not echoed
            }
            try (Socket s = connect(fe)) {
                s.getOutputStream().write("abc".getBytes(StandardCharsets.US_ASCII));
                Thread.sleep(200);
                s.getOutputStream().write("def".getBytes(StandardCharsets.US_ASCII));
                assertClosed(s); // rejected once the 6th byte came
            }
            try (Socket s = connect(fe)) {
                long start = System.nanoTime();
                s.getOutputStream().write("abc".getBytes(StandardCharsets.US_ASCII));
                assertThat(new String(s.getInputStream().readNBytes(3), StandardCharsets.US_ASCII)).isEqualTo("abc");
                // accepted only once the delay ended: the reject rule could still have matched before
                assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(900_000_000L);
            }
            assertThat(origin.accepted()).isEqualTo(1);
        }
    }

    /** A client that half-closes ends the wait: the rules decide with what came. */
    @Test
    void halfCloseEndsTheWait() throws Exception {
        int fe = freePort();
        try (Origin origin = Origin.start(Origin.ECHO);
             FulcrumProcess proxy = serve(config(fe, origin.port()), fe);
             Socket s = connect(fe)) {
            s.getOutputStream().write("HELLO".getBytes(StandardCharsets.US_ASCII));
            s.shutdownOutput();
            assertThat(new String(s.getInputStream().readAllBytes(), StandardCharsets.US_ASCII)).isEqualTo("HELLO");
        }
    }

    /** Sends {@code first}, then {@code second} 200 ms later; what the echo server sent back of both. */
    private static String inTwoParts(Socket s, String first, String second) throws Exception {
        OutputStream out = s.getOutputStream();
        out.write(first.getBytes(StandardCharsets.US_ASCII));
        out.flush();
        Thread.sleep(200);
        out.write(second.getBytes(StandardCharsets.US_ASCII));
        out.flush();
        return new String(s.getInputStream().readNBytes(first.length() + second.length()), StandardCharsets.US_ASCII);
    }

    private static void assertClosed(Socket s) throws Exception {
        InputStream in = s.getInputStream();
        try {
            assertThat(in.read()).isEqualTo(-1);
        } catch (SocketException reset) {
            // a rejected connection may be reset
        }
    }
}
