package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static io.fulcrum.it.TcpProxyKit.awaitReset;
import static io.fulcrum.it.TcpProxyKit.bytes;
import static io.fulcrum.it.TcpProxyKit.connect;
import static io.fulcrum.it.TcpProxyKit.freePort;
import static io.fulcrum.it.TcpProxyKit.readToEof;
import static io.fulcrum.it.TcpProxyKit.send;
import static io.fulcrum.it.TcpProxyKit.serve;
import static io.fulcrum.it.TcpProxyKit.text;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The PROXY protocol (proxy-protocol.txt): {@code send-proxy}/{@code send-proxy-v2} on a server line,
 * and {@code accept-proxy} on a bind line.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class TcpProxyProtocolIT {
    private static final byte[] V2_SIGNATURE = HexFormat.of().parseHex("0D0A0D0A000D0A515549540A");

    /** What the origin got on its first connection that carried something: the PROXY header, then the rest. */
    record Received(byte[] header, byte[] payload) {
    }

    /** An origin that splits a PROXY header (v1 or v2) from the bytes after it, and answers "done". */
    private static Origin capturing(CompletableFuture<Received> into) throws IOException {
        return Origin.start(s -> {
            InputStream in = s.getInputStream();
            int first = in.read();
            if (first < 0) {
                return; // the readiness probe
            }
            ByteArrayOutputStream header = new ByteArrayOutputStream();
            header.write(first);
            if (first == 'P') {
                int b;
                while ((b = in.read()) >= 0) {
                    header.write(b);
                    if (b == '\n' || header.size() > 107) {
                        break;
                    }
                }
            } else if (first == 0x0D) {
                byte[] fixed = new DataInputStream(in).readNBytes(15);
                header.write(fixed);
                int len = fixed.length == 15 ? ((fixed[13] & 0xff) << 8) | (fixed[14] & 0xff) : 0;
                header.write(in.readNBytes(len));
            }
            byte[] rest = readToEof(s, 1 << 20).getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
            if (rest.length > 0) { // HAProxy sends a header for the readiness probe too, but nothing after it
                into.complete(new Received(header.toByteArray(), rest));
            }
            send(s, "done");
        });
    }

    private static String config(int fe, String bindOpts, int be, String serverOpts) {
        return config("127.0.0.1:" + fe + " " + bindOpts, be, serverOpts);
    }

    private static String config(String bind, int be, String serverOpts) {
        return """
                defaults
                    mode tcp
                    timeout connect 5s
                    timeout client 30s
                    timeout server 30s

                listen test
                    bind %s
                    server s1 127.0.0.1:%d %s
                """.formatted(bind, be, serverOpts);
    }

    /** Sends {@code data}, half-closes, and expects the origin's "done". */
    private static void sendAndFinish(Socket s, byte[] data) throws IOException {
        s.getOutputStream().write(data);
        s.shutdownOutput();
        assertThat(readToEof(s, 100)).isEqualTo("done");
    }

    /** A v2 header (PROXY command, TCP over IPv4 or IPv6). */
    private static byte[] v2(String src, String dst, int sport, int dport) throws IOException {
        byte[] sa = InetAddress.getByName(src).getAddress();
        byte[] da = InetAddress.getByName(dst).getAddress();
        boolean v4 = sa.length == 4;
        ByteBuffer b = ByteBuffer.allocate(16 + (v4 ? 12 : 36));
        b.put(V2_SIGNATURE).put((byte) 0x21).put((byte) (v4 ? 0x11 : 0x21)).putShort((short) (v4 ? 12 : 36));
        b.put(sa).put(da).putShort((short) sport).putShort((short) dport);
        return b.array();
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    /** Checks a v2 header: PROXY command, the family and the addresses; TLVs after them must be well formed. */
    private static void assertV2(byte[] h, String src, String dst, int sport, int dport) throws IOException {
        assertThat(h.length).as("v2 header length").isGreaterThanOrEqualTo(16);
        assertThat(Arrays.copyOf(h, 12)).as("v2 signature").isEqualTo(V2_SIGNATURE);
        assertThat(h[12] & 0xff).as("version 2, PROXY command").isEqualTo(0x21);
        boolean v4 = InetAddress.getByName(src).getAddress().length == 4;
        assertThat(h[13] & 0xff).as("family and transport").isEqualTo(v4 ? 0x11 : 0x21);
        int len = ((h[14] & 0xff) << 8) | (h[15] & 0xff);
        assertThat(h.length).isEqualTo(16 + len);
        int alen = v4 ? 4 : 16;
        assertThat(len).isGreaterThanOrEqualTo(2 * alen + 4);
        ByteBuffer b = ByteBuffer.wrap(h, 16, len);
        byte[] sa = new byte[alen];
        byte[] da = new byte[alen];
        b.get(sa).get(da);
        assertThat(InetAddress.getByAddress(sa)).isEqualTo(InetAddress.getByName(src));
        assertThat(InetAddress.getByAddress(da)).isEqualTo(InetAddress.getByName(dst));
        assertThat(b.getShort() & 0xffff).as("source port").isEqualTo(sport);
        assertThat(b.getShort() & 0xffff).as("destination port").isEqualTo(dport);
        while (b.hasRemaining()) { // TLVs: type, 2-byte length, value
            assertThat(b.remaining()).as("TLV header").isGreaterThanOrEqualTo(3);
            b.get();
            int tlvLen = b.getShort() & 0xffff;
            assertThat(b.remaining()).as("TLV value").isGreaterThanOrEqualTo(tlvLen);
            b.position(b.position() + tlvLen);
        }
    }

    /** The TLVs of a v2 header by type (one of each). */
    private static java.util.Map<Integer, byte[]> tlvs(byte[] h) {
        java.util.Map<Integer, byte[]> out = new java.util.HashMap<>();
        ByteBuffer b = ByteBuffer.wrap(h, 28, h.length - 28); // after the IPv4 addresses and ports
        while (b.remaining() >= 3) {
            int type = b.get() & 0xff;
            byte[] v = new byte[b.getShort() & 0xffff];
            b.get(v);
            out.put(type, v);
        }
        return out;
    }

    /** The sub-TLVs of the SSL TLV, after its client byte and verify word. */
    private static java.util.Map<Integer, byte[]> subTlvs(byte[] ssl) {
        byte[] h = new byte[28 + ssl.length - 5];
        System.arraycopy(ssl, 5, h, 28, ssl.length - 5);
        return tlvs(h);
    }

    /** proxy-v2-options on a plain connection: the unique ID, an SSL TLV saying "no TLS", and a CRC32C of the whole header. */
    @Test
    void proxyV2OptionsWithoutTls() throws Exception {
        int fe = freePort();
        CompletableFuture<Received> got = new CompletableFuture<>();
        try (Origin origin = capturing(got);
             FulcrumProcess proxy = serve(config(fe, "", origin.port(), "send-proxy-v2 proxy-v2-options crc32c,unique-id,ssl,cert-cn,authority")
                     .replace("listen test\n", "listen test\n    unique-id-format abc%[int(42)]\n"), fe);
             Socket s = connect(fe)) {
            sendAndFinish(s, bytes("hello"));
            byte[] h = got.get(10, TimeUnit.SECONDS).header();
            assertV2(h, "127.0.0.1", "127.0.0.1", s.getLocalPort(), fe);
            java.util.Map<Integer, byte[]> t = tlvs(h);
            assertThat(t.keySet()).containsExactlyInAnyOrder(0x03, 0x05, 0x20);
            assertThat(text(t.get(0x05))).isEqualTo("abc42");
            assertThat(HexFormat.of().formatHex(t.get(0x20))).as("no TLS, nothing verified").isEqualTo("0000000000");
            assertThat(HexFormat.of().formatHex(Arrays.copyOfRange(h, 28, 31))).as("the CRC32C TLV comes first").isEqualTo("030004");
            byte[] zeroed = h.clone();
            Arrays.fill(zeroed, 31, 35, (byte) 0);
            java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
            crc.update(zeroed);
            assertThat(ByteBuffer.wrap(h, 31, 4).getInt()).isEqualTo((int) crc.getValue());
        }
    }

    /** Without unique-id-format the unique ID TLV is sent all the same, empty (HAProxy 2.6 sends the stream's ID, even empty). */
    @Test
    void proxyV2UniqueIdWithoutFormatIsEmpty() throws Exception {
        int fe = freePort();
        CompletableFuture<Received> got = new CompletableFuture<>();
        try (Origin origin = capturing(got);
             FulcrumProcess proxy = serve(config(fe, "", origin.port(), "send-proxy-v2 proxy-v2-options crc32c,unique-id,ssl"), fe);
             Socket s = connect(fe)) {
            sendAndFinish(s, bytes("hello"));
            byte[] h = got.get(10, TimeUnit.SECONDS).header();
            assertV2(h, "127.0.0.1", "127.0.0.1", s.getLocalPort(), fe);
            assertThat(HexFormat.of().formatHex(Arrays.copyOfRange(h, 35, h.length))).as("after the CRC32C: the unique ID, the SSL TLV")
                    .isEqualTo("050000" + "2000050000000000");
        }
    }

    /** send-proxy-v2-ssl-cn and more options over TLS: the version, the cipher, the SNI, the bind certificate's key and signature. */
    @Test
    void sendProxyV2SslOverTls(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        int fe = freePort();
        java.nio.file.Path pem = TlsKit.selfSigned(dir, "srv", "server.test");
        CompletableFuture<Received> got = new CompletableFuture<>();
        try (Origin origin = capturing(got);
             FulcrumProcess proxy = serve(config(fe, "ssl crt " + pem, origin.port(),
                     "send-proxy-v2-ssl-cn proxy-v2-options authority,cert-key,cert-sig,ssl-cipher"), fe);
             javax.net.ssl.SSLSocket s = TlsKit.connect(fe, "sni.example", new String[] {"TLSv1.3"})) {
            s.getOutputStream().write(bytes("hello"));
            s.getOutputStream().flush();
            s.close();
            byte[] h = got.get(10, TimeUnit.SECONDS).header();
            java.util.Map<Integer, byte[]> t = tlvs(h);
            assertThat(t.keySet()).containsExactlyInAnyOrder(0x02, 0x20);
            assertThat(text(t.get(0x02))).isEqualTo("sni.example");
            byte[] ssl = t.get(0x20);
            assertThat(HexFormat.of().formatHex(ssl, 0, 5)).as("TLS, no client certificate").isEqualTo("0100000000");
            java.util.Map<Integer, byte[]> sub = subTlvs(ssl);
            assertThat(sub.keySet()).as("no CN without a client certificate").containsExactlyInAnyOrder(0x21, 0x23, 0x24, 0x25);
            assertThat(text(sub.get(0x21))).isEqualTo("TLSv1.3");
            assertThat(text(sub.get(0x23))).startsWith("TLS_");
            assertThat(text(sub.get(0x24))).isEqualTo("RSA-SHA256");
            assertThat(text(sub.get(0x25))).isEqualTo("RSA2048");
        }
    }

    @Test
    void sendProxyV1CarriesTheClientAddresses() throws Exception {
        int fe = freePort();
        CompletableFuture<Received> got = new CompletableFuture<>();
        try (Origin origin = capturing(got);
             FulcrumProcess proxy = serve(config(fe, "", origin.port(), "send-proxy"), fe);
             Socket s = connect(fe)) {
            sendAndFinish(s, bytes("hello world"));
            Received r = got.get(10, TimeUnit.SECONDS);
            assertThat(text(r.header())).isEqualTo("PROXY TCP4 127.0.0.1 127.0.0.1 " + s.getLocalPort() + " " + fe + "\r\n");
            assertThat(text(r.payload())).isEqualTo("hello world");
        }
    }

    @Test
    void sendProxyV2CarriesTheClientAddresses() throws Exception {
        int fe = freePort();
        CompletableFuture<Received> got = new CompletableFuture<>();
        try (Origin origin = capturing(got);
             FulcrumProcess proxy = serve(config(fe, "", origin.port(), "send-proxy-v2"), fe);
             Socket s = connect(fe)) {
            sendAndFinish(s, bytes("hello world"));
            Received r = got.get(10, TimeUnit.SECONDS);
            assertV2(r.header(), "127.0.0.1", "127.0.0.1", s.getLocalPort(), fe);
            assertThat(text(r.payload())).isEqualTo("hello world");
        }
    }

    /** An IPv4 client of a dual-stack listener is an IPv4-mapped IPv6 address: HAProxy sends TCP6. */
    @Test
    void sendProxyFromADualStackListener() throws Exception {
        int fe = freePort();
        CompletableFuture<Received> got = new CompletableFuture<>();
        try (Origin origin = capturing(got);
             FulcrumProcess proxy = serve(config(":::" + fe + " v4v6", origin.port(), "send-proxy"), "::", fe);
             Socket s = connect(fe)) {
            sendAndFinish(s, bytes("hello"));
            Received r = got.get(10, TimeUnit.SECONDS);
            assertThat(text(r.header())).isEqualTo("PROXY TCP6 ::ffff:127.0.0.1 ::ffff:127.0.0.1 " + s.getLocalPort() + " " + fe
                    + "\r\n");
        }
    }

    /** A v1 header and data in one segment: the data arrives intact, after a header with the announced addresses. */
    @Test
    void acceptProxyV1ThenSendProxyV1() throws Exception {
        int fe = freePort();
        CompletableFuture<Received> got = new CompletableFuture<>();
        String header = "PROXY TCP4 192.0.2.10 198.51.100.20 40000 8443\r\n";
        try (Origin origin = capturing(got);
             FulcrumProcess proxy = serve(config(fe, "accept-proxy", origin.port(), "send-proxy"), fe);
             Socket s = connect(fe)) {
            sendAndFinish(s, bytes(header + "hello after a v1 header"));
            Received r = got.get(10, TimeUnit.SECONDS);
            assertThat(text(r.header())).isEqualTo(header);
            assertThat(text(r.payload())).isEqualTo("hello after a v1 header");
        }
    }

    @Test
    void acceptProxyV2ThenSendProxyV2() throws Exception {
        int fe = freePort();
        CompletableFuture<Received> got = new CompletableFuture<>();
        try (Origin origin = capturing(got);
             FulcrumProcess proxy = serve(config(fe, "accept-proxy", origin.port(), "send-proxy-v2"), fe);
             Socket s = connect(fe)) {
            sendAndFinish(s, concat(v2("192.0.2.10", "198.51.100.20", 40000, 8443), bytes("hello after a v2 header")));
            Received r = got.get(10, TimeUnit.SECONDS);
            assertV2(r.header(), "192.0.2.10", "198.51.100.20", 40000, 8443);
            assertThat(text(r.payload())).isEqualTo("hello after a v2 header");
        }
    }

    /** IPv6 addresses from a v2 header, forwarded in a v1 line: canonical text form (RFC 5952, as inet_ntop). */
    @Test
    void acceptProxyV2Ipv6ThenSendProxyV1() throws Exception {
        int fe = freePort();
        CompletableFuture<Received> got = new CompletableFuture<>();
        try (Origin origin = capturing(got);
             FulcrumProcess proxy = serve(config(fe, "accept-proxy", origin.port(), "send-proxy"), fe);
             Socket s = connect(fe)) {
            sendAndFinish(s, concat(v2("2001:db8::10", "2001:db8:0:1::20", 40000, 8443), bytes("six")));
            Received r = got.get(10, TimeUnit.SECONDS);
            assertThat(text(r.header())).isEqualTo("PROXY TCP6 2001:db8::10 2001:db8:0:1::20 40000 8443\r\n");
            assertThat(text(r.payload())).isEqualTo("six");
        }
    }

    /** accept-proxy without send-proxy: the server gets the data only, the header is consumed. */
    @Test
    void acceptProxyStripsTheHeader() throws Exception {
        int fe = freePort();
        CompletableFuture<String> got = new CompletableFuture<>();
        try (Origin origin = Origin.start(s -> {
                 String all = readToEof(s, 1000);
                 if (!all.isEmpty()) {
                     got.complete(all);
                 }
                 send(s, "done");
             });
             FulcrumProcess proxy = serve(config(fe, "accept-proxy", origin.port(), ""), fe);
             Socket s = connect(fe)) {
            sendAndFinish(s, bytes("PROXY TCP4 192.0.2.10 198.51.100.20 40000 8443\r\nGET / HTTP/1.0\r\n\r\n"));
            assertThat(got.get(10, TimeUnit.SECONDS)).isEqualTo("GET / HTTP/1.0\r\n\r\n");
        }
    }

    /**
     * Anything but a PROXY header on an accept-proxy bind: the connection is reset (HAProxy closes it with what came still
     * unread), the server never contacted.
     */
    @Test
    void acceptProxyRejectsGarbage() throws Exception {
        assertReset(bytes("GET / HTTP/1.1\r\nHost: example.com\r\n\r\n"));
    }

    @Test
    void acceptProxyRejectsABrokenV1Header() throws Exception {
        assertReset(bytes("PROXY TCP4 not-an-address 198.51.100.20 40000 8443\r\nhello"));
    }

    @Test
    void acceptProxyRejectsABadV2Signature() throws Exception {
        byte[] bad = v2("192.0.2.10", "198.51.100.20", 40000, 8443);
        bad[11] = 0x0b; // the signature's last byte
        assertReset(concat(bad, bytes("hello")));
    }

    /** Sends {@code data} to an accept-proxy bind: the connection must be reset, the server never contacted. */
    private static void assertReset(byte[] data) throws Exception {
        int fe = freePort();
        try (Origin origin = Origin.start(Origin.ECHO);
             FulcrumProcess proxy = serve(config(fe, "accept-proxy", origin.port(), ""), fe);
             Socket s = connect(fe)) {
            s.getOutputStream().write(data);
            awaitReset(s, 5000);
            Thread.sleep(300);
            assertThat(origin.accepted()).as("connections to the server").isZero();
        }
    }
}
