package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;

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
            OutputStream out = s.getOutputStream();
            out.write(header);
            out.write(bytes("GET / HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n"));
            out.flush();
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
    void anotherMagicNumberClosesTheConnection() throws Exception {
        int fe = freePort();
        try (FulcrumProcess proxy = serve(config(fe), fe)) {
            assertThat(exchange(fe, header(MAGIC + 1))).isEmpty();
        }
    }
}
