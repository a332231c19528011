package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.util.Arrays;

import static io.fulcrum.it.TcpProxyKit.awaitReset;
import static io.fulcrum.it.TcpProxyKit.bytes;
import static io.fulcrum.it.TcpProxyKit.connect;
import static io.fulcrum.it.TcpProxyKit.freePort;
import static io.fulcrum.it.TcpProxyKit.serve;
import static io.fulcrum.it.TcpProxyKit.text;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code accept-netscaler-cip}: a raw client sends the NetScaler Client IP header (magic, length, the IP and TCP
 * headers of the original connection) before its request; the addresses it carries are the session's, as
 * {@code src} and {@code dst} answer. A header with another magic number closes the connection without an answer.
 * Runs against haproxy too.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class NetScalerCipIT {
    private static final int MAGIC = 0x12345678;
    private static final String REQUEST = "GET / HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n";

    /** A frontend answering its client's addresses itself (the backend is never used). */
    private static String config(int fe) {
        return HttpKit.config("127.0.0.1:" + fe + " accept-netscaler-cip " + MAGIC,
                "http-request return status 200 content-type text/plain lf-string \"%[src]:%[src_port] %[dst]:%[dst_port]\"", "", 9);
    }

    /** The legacy header: magic, length, an IPv4 header from 192.0.2.1:40000 to 198.51.100.7:443 and the TCP ports. */
    private static byte[] header(int magic) {
        ByteBuffer b = ByteBuffer.allocate(8 + 24);
        b.putInt(magic).putInt(24);
        b.put((byte) 0x45).put(new byte[8]).put((byte) 6).put(new byte[2]);
        b.put(new byte[] {(byte) 192, 0, 2, 1}).put(new byte[] {(byte) 198, 51, 100, 7});
        b.putShort((short) 40000).putShort((short) 443);
        return b.array();
    }

    private static String exchange(int fe, byte[] header) throws Exception {
        try (Socket s = connect(fe)) {
            // In one segment: HAProxy reads at least 40 bytes with an IPv4 header (its IP and TCP headers' least), and
            // the header here has only the ports of the TCP one.
            s.getOutputStream().write(concat(header, bytes(REQUEST)));
            ByteArrayOutputStream got = new ByteArrayOutputStream();
            try {
                s.getInputStream().transferTo(got);
            } catch (java.net.SocketException reset) {
                // HAProxy closes with the request unread, hence a reset: no answer either way
            }
            return text(got.toByteArray());
        }
    }

    @Test
    void theHeadersAddressesAreTheSessions() throws Exception {
        int fe = freePort();
        try (FulcrumProcess proxy = serve(config(fe), fe)) {
            String response = exchange(fe, header(MAGIC));
            assertThat(response).startsWith("HTTP/1.1 200").endsWith("192.0.2.1:40000 198.51.100.7:443");
        }
    }

    @Test
    void anotherMagicNumberResetsTheConnection() throws Exception {
        int fe = freePort();
        try (FulcrumProcess proxy = serve(config(fe), fe);
             Socket s = connect(fe)) {
            s.getOutputStream().write(concat(header(MAGIC + 1), bytes(REQUEST)));
            awaitReset(s, 5000);
        }
    }

    /** Both headers: the NetScaler one, then the PROXY one, each error logged with the addresses known then. */
    @Test
    void theNetScalerHeaderComesBeforeThePROXYOne() throws Exception {
        int fe = freePort();
        try (SyslogListener logs = SyslogListener.open();
             FulcrumProcess proxy = serve("""
                     defaults
                         mode http
                         timeout client 10s
                     frontend f
                         bind 127.0.0.1:%d accept-proxy accept-netscaler-cip %d
                         log 127.0.0.1:%d format raw local0
                         log-format "%%ci:%%cp %%[fc_rcvd_proxy] %%ST"
                         http-request return status 200 content-type text/plain lf-string "%%[src]:%%[src_port] %%[dst]:%%[dst_port]"
                     """.formatted(fe, MAGIC, logs.port()), fe)) {
            String v1 = "PROXY TCP4 203.0.113.5 203.0.113.6 1111 2222\r\n";
            assertThat(exchange(fe, concat(header(MAGIC), bytes(v1)))).endsWith("203.0.113.5:1111 203.0.113.6:2222");
            assertThat(logs.next()).isEqualTo("203.0.113.5:1111 1 200\n");

            String failed = " \\[[^]]+] f/1: ";
            try (Socket s = connect(fe)) {
                s.getOutputStream().write(concat(bytes(v1), concat(header(MAGIC), bytes(REQUEST))));
                awaitReset(s, 5000);
            }
            assertThat(logs.next()).matches("127\\.0\\.0\\.1:\\d+" + failed + "Received an invalid NetScaler Client IP magic number\n");

            try (Socket s = connect(fe)) {
                s.getOutputStream().write(concat(header(MAGIC), bytes(REQUEST)));
                awaitReset(s, 5000);
            }
            assertThat(logs.next()).matches("192\\.0\\.2\\.1:40000" + failed
                    + "Received something which does not look like a PROXY protocol header\n");

            try (Socket s = connect(fe)) {
                s.getOutputStream().write(Arrays.copyOf(header(MAGIC), 20));
                try {
                    s.shutdownOutput(); // (Fulcrum waits for the rest; HAProxy gives up on the part that came at once)
                } catch (SocketException alreadyReset) {
                    // the read below sees the reset
                }
                awaitReset(s, 5000);
            }
            assertThat(logs.next()).matches("127\\.0\\.0\\.1:\\d+" + failed + "Truncated NetScaler Client IP header received\n");
        }
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
