package io.fulcrum.tls;

import io.fulcrum.sample.TestContext;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class HelloFetchesTest {

    private static TestContext holding(byte[] bytes) {
        TestContext ctx = new TestContext();
        ctx.requestContent = Unpooled.wrappedBuffer(bytes);
        return ctx;
    }

    /** The first flight of the JDK's TLS client: one record with its ClientHello. */
    private static byte[] jdkHello(String sni, String... alpn) throws Exception {
        SSLEngine e = SSLContext.getDefault().createSSLEngine("peer", 443);
        e.setUseClientMode(true);
        SSLParameters p = e.getSSLParameters();
        if (sni != null) {
            p.setServerNames(List.of(new SNIHostName(sni)));
        }
        p.setApplicationProtocols(alpn);
        e.setSSLParameters(p);
        ByteBuffer out = ByteBuffer.allocate(e.getSession().getPacketBufferSize());
        e.wrap(ByteBuffer.allocate(0), out);
        return Arrays.copyOf(out.array(), out.position());
    }

    /** A TLS record with a minimal ClientHello carrying {@code extensions} (type, then body, repeated). */
    private static byte[] hello(Object... extensions) {
        ByteArrayOutputStream ext = new ByteArrayOutputStream();
        for (int i = 0; i < extensions.length; i += 2) {
            byte[] body = (byte[]) extensions[i + 1];
            ext.writeBytes(new byte[] {0, (byte) (int) (Integer) extensions[i], (byte) (body.length >> 8), (byte) body.length});
            ext.writeBytes(body);
        }
        ByteArrayOutputStream h = new ByteArrayOutputStream();
        h.writeBytes(new byte[] {3, 3});
        h.writeBytes(new byte[32]); // random
        h.writeBytes(new byte[] {0, 0, 2, 0x13, 0x01, 1, 0}); // no session id, one suite, null compression
        h.writeBytes(new byte[] {(byte) (ext.size() >> 8), (byte) ext.size()});
        h.writeBytes(ext.toByteArray());
        ByteArrayOutputStream r = new ByteArrayOutputStream();
        int len = h.size() + 4;
        r.writeBytes(new byte[] {0x16, 3, 1, (byte) (len >> 8), (byte) len, 1, 0, (byte) (h.size() >> 8), (byte) h.size()});
        r.writeBytes(h.toByteArray());
        return r.toByteArray();
    }

    private static byte[] serverName(String name) {
        byte[] n = name.getBytes(StandardCharsets.US_ASCII);
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.writeBytes(new byte[] {0, (byte) (n.length + 3), 0, 0, (byte) n.length});
        b.writeBytes(n);
        return b.toByteArray();
    }

    @Test
    void readsTheJdkClientHello() throws Exception {
        TestContext ctx = holding(jdkHello("foo.example.com", "h2", "http/1.1"));
        assertThat(ctx.eval("req.ssl_hello_type")).isEqualTo("sint:1");
        assertThat(ctx.eval("req_ssl_hello_type")).isEqualTo("sint:1");
        assertThat(ctx.eval("req.ssl_sni")).isEqualTo("str:foo.example.com");
        assertThat(ctx.eval("req_ssl_sni")).isEqualTo("str:foo.example.com");
        assertThat(ctx.eval("req.ssl_alpn")).as("the first protocol").isEqualTo("str:h2");
        assertThat(ctx.eval("req.ssl_ec_ext")).isEqualTo("bool:1");
        assertThat(ctx.eval("req.ssl_ver")).as("the hello's client_version: 3.3 (TLS 1.2's numbers)").isEqualTo("sint:" + (3 << 16 | 3));

        TestContext bare = holding(jdkHello(null));
        assertThat(bare.eval("req.ssl_sni")).isEqualTo("none");
        assertThat(bare.eval("req.ssl_alpn")).isEqualTo("none");
        assertThat(bare.eval("req.ssl_hello_type")).isEqualTo("sint:1");
    }

    /** The JDK client's ClientHello body: its first record less the record's and the handshake's headers. */
    private static ByteBuf jdkHelloBody(String sni) throws Exception {
        byte[] record = jdkHello(sni);
        return Unpooled.wrappedBuffer(Arrays.copyOfRange(record, 9, record.length));
    }

    /** The ClientHello body Netty's SNI handler hands over: the name as written, the session ID, the extensions. */
    @Test
    void helloBodyAsNettyHandsIt() throws Exception {
        assertThat(HelloFetches.bodyServerName(jdkHelloBody("Foo.Example.COM"))).isEqualTo("Foo.Example.COM");
        assertThat(HelloFetches.bodyServerName(jdkHelloBody(null))).isNull();
        ByteBuf cut = jdkHelloBody("foo.example.com");
        assertThat(HelloFetches.bodyServerName(cut.slice(0, 60))).as("cut before its extensions").isNull();
        assertThat(HelloFetches.bodyServerName(Unpooled.wrappedBuffer(new byte[10]))).isNull();
        ByteBuf hello = jdkHelloBody("foo.example.com");
        assertThat(HelloFetches.bodyExtension(hello, 0)).isPositive();
        assertThat(HelloFetches.bodyExtension(hello, 0xfafa)).isNegative();
        assertThat(HandshakeCounts.offer(hello) & HandshakeCounts.SESSION_ID)
                .as("the JDK sends a legacy session ID (middlebox compatibility)").isEqualTo(HandshakeCounts.SESSION_ID);
    }

    @Test
    void extensions() {
        assertThat(holding(hello(0, serverName("a.test"))).eval("req.ssl_sni")).isEqualTo("str:a.test");
        assertThat(holding(hello()).eval("req.ssl_ec_ext")).as("too short to hold an extension: not taken as a hello").isEqualTo("none");
        TestContext none = holding(hello(23, new byte[0]));
        assertThat(none.eval("req.ssl_ver")).as("the hello's 3.3, not its record's 3.1").isEqualTo("sint:" + (3 << 16 | 3));
        assertThat(none.eval("req.ssl_sni")).isEqualTo("none");
        assertThat(none.eval("req.ssl_ec_ext")).isEqualTo("bool:0");
        assertThat(none.eval("req.ssl_st_ext")).isEqualTo("sint:0");
        assertThat(holding(hello(35, new byte[0])).eval("req.ssl_st_ext")).as("an empty ticket").isEqualTo("sint:1");
        assertThat(holding(hello(35, new byte[] {1, 2, 3})).eval("req.ssl_st_ext")).as("a ticket").isEqualTo("sint:2");
        assertThat(holding(hello(10, new byte[] {0, 2, 0, 0x1d})).eval("req.ssl_ec_ext")).isEqualTo("bool:1");
        assertThat(holding(hello(16, new byte[] {0, 9, 8, 'h', 't', 't', 'p', '/', '1', '.', '1'})).eval("req.ssl_alpn"))
                .isEqualTo("str:http/1.1");
        byte[] badName = serverName("a.test");
        badName[1] = 40; // a list longer than the extension
        assertThat(holding(hello(0, badName)).eval("req.ssl_sni")).isEqualTo("none");
    }

    @Test
    void incompleteOrOtherBytesGiveNoSample() throws Exception {
        byte[] full = jdkHello("foo.example.com");
        for (int cut : new int[] {0, 1, 4, 8, 40, full.length - 1}) {
            TestContext ctx = holding(Arrays.copyOf(full, cut));
            assertThat(ctx.eval("req.ssl_sni")).as("cut at %d", cut).isEqualTo("none");
            assertThat(ctx.eval("req.ssl_hello_type")).as("cut at %d", cut).isEqualTo("none");
        }
        TestContext http = holding("GET / HTTP/1.1\r\nHost: a\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        for (String f : new String[] {"req.ssl_sni", "req.ssl_ver", "req.ssl_hello_type", "req.ssl_alpn", "req.ssl_ec_ext", "req.ssl_st_ext"}) {
            assertThat(http.eval(f)).as(f).isEqualTo("none");
        }
        assertThat(new TestContext().eval("req.ssl_sni")).as("no bytes held").isEqualTo("none");
    }

    @Test
    void sslv2Hello() {
        // An SSLv2-format ClientHello announcing TLS 1.0: 3 ciphers of 3 bytes, no session id, 16 bytes of challenge.
        byte[] h = new byte[2 + 9 + 9 + 16];
        h[0] = (byte) 0x80;
        h[1] = (byte) (9 + 9 + 16);
        h[2] = 1;
        h[3] = 3;
        h[4] = 1;
        h[6] = 9;
        h[10] = 16;
        assertThat(holding(h).eval("req.ssl_ver")).isEqualTo("sint:" + (3 << 16 | 1));
        assertThat(holding(Arrays.copyOf(h, h.length - 1)).eval("req.ssl_ver")).isEqualTo("none");
    }

    @Test
    void serverHelloType() {
        TestContext ctx = new TestContext();
        byte[] h = hello();
        h[5] = 2;
        ctx.responseContent = Unpooled.wrappedBuffer(h);
        ctx.responseSide = true;
        assertThat(ctx.eval("res.ssl_hello_type")).isEqualTo("sint:2");
    }
}
