package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.util.HexFormat;

import static io.fulcrum.it.TcpProxyKit.bytes;
import static io.fulcrum.it.TcpProxyKit.freePort;
import static io.fulcrum.it.TcpProxyKit.serve;
import static io.fulcrum.it.TcpProxyKit.text;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code tcp-request connection expect-proxy layer4} and {@code expect-netscaler-cip layer4}: a connection the rule
 * matches (from 127.0.0.1) must start with the header, others (from 127.0.0.2) are read as they come. The header's
 * addresses are the session's from the session rules on (src, dst, the log), while the connection rules after the
 * expect rule still see the socket's; a connection without the header is closed and logged with HAProxy's reason.
 * Runs against haproxy too.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ExpectProxyIT {
    private static final String REQUEST = "GET / HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n";
    private static final String V1 = "PROXY TCP4 192.0.2.1 198.51.100.7 40000 443\r\n";

    /** In mode http, a frontend answering the addresses its rules saw: {@code a} by a connection rule after the expect rule. */
    private static String http(int fe, int syslog, String expect) {
        return """
                defaults
                    mode http
                    timeout client 10s
                frontend f
                    bind 127.0.0.1:%d
                    log 127.0.0.1:%d format raw local0
                    log-format "%%ci:%%cp %%fi:%%fp a=%%[var(sess.a)] b=%%[var(sess.b)] %%ST"
                    tcp-request connection %s if { src 127.0.0.1 }
                    tcp-request connection set-var(sess.a) src
                    tcp-request session set-var(sess.b) src
                    http-request return status 200 content-type text/plain lf-string "%%[src]:%%[src_port] %%[dst]:%%[dst_port] a=%%[var(sess.a)] proxy=%%[fc_rcvd_proxy]"
                """.formatted(fe, syslog, expect);
    }

    /** Sends {@code data} from {@code source} and returns all the proxy answered before closing (nothing after a reset). */
    private static String exchange(String source, int fe, byte[] data) throws IOException {
        try (Socket s = new Socket()) {
            s.bind(new InetSocketAddress(source, 0));
            s.connect(new InetSocketAddress("127.0.0.1", fe), 5000);
            s.setSoTimeout(10_000);
            s.getOutputStream().write(data);
            ByteArrayOutputStream got = new ByteArrayOutputStream();
            try {
                s.getInputStream().transferTo(got);
            } catch (SocketException reset) {
                // HAProxy closes with the request unread, hence a reset: no answer either way
            }
            return text(got.toByteArray());
        }
    }

    private static byte[] concat(byte[] a, byte[] b) {
        return ByteBuffer.allocate(a.length + b.length).put(a).put(b).array();
    }

    @Test
    void trustedSourcesSendAProxyHeader() throws Exception {
        int fe = freePort();
        try (SyslogListener logs = SyslogListener.open();
             FulcrumProcess proxy = serve(http(fe, logs.port(), "expect-proxy layer4"), fe)) {
            assertThat(exchange("127.0.0.1", fe, bytes(V1 + REQUEST)))
                    .startsWith("HTTP/1.1 200").endsWith("192.0.2.1:40000 198.51.100.7:443 a=127.0.0.1 proxy=1");
            assertThat(logs.next()).isEqualTo("192.0.2.1:40000 198.51.100.7:443 a=127.0.0.1 b=192.0.2.1 200\n");

            assertThat(exchange("127.0.0.2", fe, bytes(REQUEST))).startsWith("HTTP/1.1 200").contains(" a=127.0.0.2 proxy=0");
            assertThat(logs.next()).matches("127\\.0\\.0\\.2:\\d+ 127\\.0\\.0\\.1:" + fe + " a=127\\.0\\.0\\.2 b=127\\.0\\.0\\.2 200\n");

            // An untrusted source's PROXY line is only a bad request.
            assertThat(exchange("127.0.0.2", fe, bytes(V1 + REQUEST))).startsWith("HTTP/1.1 400");
            assertThat(logs.next()).endsWith(" 400\n");

            assertThat(exchange("127.0.0.1", fe, bytes(REQUEST))).isEmpty();
            assertThat(logs.next()).matches("127\\.0\\.0\\.1:\\d+ \\[[^]]+] f/1: "
                    + "Received something which does not look like a PROXY protocol header\n");
        }
    }

    @Test
    void aProxyV2HeaderInModeTcp() throws Exception {
        int fe = freePort();
        try (SyslogListener logs = SyslogListener.open();
             Origin origin = Origin.start(Origin.ECHO);
             FulcrumProcess proxy = serve("""
                     defaults
                         mode tcp
                         timeout connect 5s
                         timeout client 10s
                         timeout server 10s
                     listen l
                         bind 127.0.0.1:%d
                         log 127.0.0.1:%d format raw local0
                         log-format "%%ci:%%cp %%fi:%%fp a=%%[var(sess.a)] %%B"
                         tcp-request connection expect-proxy layer4 if { src 127.0.0.1 }
                         tcp-request connection set-var(sess.a) src
                         server s 127.0.0.1:%d
                     """.formatted(fe, logs.port(), origin.port()), fe)) {
            byte[] v2 = ByteBuffer.allocate(28).put(HexFormat.of().parseHex("0D0A0D0A000D0A515549540A"))
                    .put((byte) 0x21).put((byte) 0x11).putShort((short) 12)
                    .put(new byte[] {(byte) 192, 0, 2, 9}).put(new byte[] {(byte) 198, 51, 100, 7})
                    .putShort((short) 40001).putShort((short) 8443).array();
            try (Socket s = new Socket()) {
                s.bind(new InetSocketAddress("127.0.0.1", 0));
                s.connect(new InetSocketAddress("127.0.0.1", fe), 5000);
                s.setSoTimeout(10_000);
                s.getOutputStream().write(concat(v2, bytes("hello")));
                s.shutdownOutput();
                assertThat(text(s.getInputStream().readAllBytes())).isEqualTo("hello"); // the header stays with the proxy
            }
            assertThat(logs.next()).isEqualTo("192.0.2.9:40001 198.51.100.7:8443 a=127.0.0.1 5\n");
        }
    }

    @Test
    void aNetScalerHeaderTakesTheMagicNumberOfTheBindLine() throws Exception {
        int fe = freePort();
        try (SyslogListener logs = SyslogListener.open();
             FulcrumProcess proxy = serve(http(fe, logs.port(), "expect-netscaler-cip layer4"), fe)) {
            // Legacy header: magic 0 (the bind line has none), length, an IPv4 header and the TCP ports.
            byte[] cip = ByteBuffer.allocate(32).putInt(0).putInt(24)
                    .put((byte) 0x45).put(new byte[8]).put((byte) 6).put(new byte[2])
                    .put(new byte[] {(byte) 192, 0, 2, 1}).put(new byte[] {(byte) 198, 51, 100, 7})
                    .putShort((short) 40000).putShort((short) 443).array();
            assertThat(exchange("127.0.0.1", fe, concat(cip, bytes(REQUEST))))
                    .startsWith("HTTP/1.1 200").endsWith("192.0.2.1:40000 198.51.100.7:443 a=127.0.0.1 proxy=0");
            assertThat(logs.next()).isEqualTo("192.0.2.1:40000 198.51.100.7:443 a=127.0.0.1 b=192.0.2.1 200\n");

            cip[3] = 1;
            assertThat(exchange("127.0.0.1", fe, concat(cip, bytes(REQUEST)))).isEmpty();
            assertThat(logs.next()).matches("127\\.0\\.0\\.1:\\d+ \\[[^]]+] f/1: Received an invalid NetScaler Client IP magic number\n");

            assertThat(exchange("127.0.0.2", fe, bytes(REQUEST))).startsWith("HTTP/1.1 200").contains(" a=127.0.0.2 proxy=0");
        }
    }

    /** Whatever the order of the rules, the NetScaler header comes first, then the PROXY one, as the bind options' headers. */
    @Test
    void bothHeadersTheNetScalerOneFirst() throws Exception {
        int fe = freePort();
        try (SyslogListener logs = SyslogListener.open();
             FulcrumProcess proxy = serve(http(fe, logs.port(),
                     "expect-proxy layer4 if { src 127.0.0.1 }\n    tcp-request connection expect-netscaler-cip layer4"), fe)) {
            byte[] cip = ByteBuffer.allocate(32).putInt(0).putInt(24)
                    .put((byte) 0x45).put(new byte[8]).put((byte) 6).put(new byte[2])
                    .put(new byte[] {(byte) 203, 0, 113, 5}).put(new byte[] {(byte) 203, 0, 113, 6})
                    .putShort((short) 1111).putShort((short) 2222).array();
            assertThat(exchange("127.0.0.1", fe, concat(cip, bytes(V1 + REQUEST))))
                    .startsWith("HTTP/1.1 200").endsWith("192.0.2.1:40000 198.51.100.7:443 a=127.0.0.1 proxy=1");
            assertThat(logs.next()).isEqualTo("192.0.2.1:40000 198.51.100.7:443 a=127.0.0.1 b=192.0.2.1 200\n");

            assertThat(exchange("127.0.0.1", fe, concat(bytes(V1), concat(cip, bytes(REQUEST))))).isEmpty();
            assertThat(logs.next()).matches("127\\.0\\.0\\.1:\\d+ \\[[^]]+] f/1: Received an invalid NetScaler Client IP magic number\n");
        }
    }

    /** A v1 line that is no good is logged with HAProxy's reason: an unhandled protocol, or an invalid header. */
    @Test
    void aBadV1LineIsLoggedWithItsReason() throws Exception {
        int fe = freePort();
        try (SyslogListener logs = SyslogListener.open();
             FulcrumProcess proxy = serve(http(fe, logs.port(), "expect-proxy layer4"), fe)) {
            String failed = "127\\.0\\.0\\.1:\\d+ \\[[^]]+] f/1: ";
            assertThat(exchange("127.0.0.1", fe, bytes("PROXY TCP5 192.0.2.1 198.51.100.7 40000 443\r\n" + REQUEST))).isEmpty();
            assertThat(logs.next()).matches(failed + "Received an unhandled protocol in the PROXY protocol header\n");
            assertThat(exchange("127.0.0.1", fe, bytes("PROXY TCP4 not-an-address 198.51.100.7 40000 443\r\n" + REQUEST))).isEmpty();
            assertThat(logs.next()).matches(failed + "Received an invalid PROXY protocol header\n");
            assertThat(exchange("127.0.0.1", fe, bytes("PROXY TCP4 " + "1".repeat(120) + "\r\n" + REQUEST))).isEmpty();
            assertThat(logs.next()).matches(failed + "Received an invalid PROXY protocol header\n");
        }
    }
}
