package io.fulcrum.tls;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;

/** The ClientHello body Netty's SNI handler hands over: the name as written, the session ID, the extensions. */
class HelloBodyTest {

    /** The JDK client's ClientHello body: its first record less the record's and the handshake's headers. */
    private static ByteBuf jdkHelloBody(String sni) throws Exception {
        byte[] record = HelloFetchesTest.jdkHello(sni);
        return Unpooled.wrappedBuffer(Arrays.copyOfRange(record, 9, record.length));
    }

    @Test
    void serverNameAsTheClientWroteIt() throws Exception {
        assertThat(HelloBody.serverName(jdkHelloBody("Foo.Example.COM"))).isEqualTo("Foo.Example.COM");
        assertThat(HelloBody.serverName(jdkHelloBody(null))).isNull();
        ByteBuf cut = jdkHelloBody("foo.example.com");
        assertThat(HelloBody.serverName(cut.slice(0, 60))).as("cut before its extensions").isNull();
        assertThat(HelloBody.serverName(Unpooled.wrappedBuffer(new byte[10]))).isNull();
    }

    @Test
    void extensionsAndSessionId() throws Exception {
        ByteBuf hello = jdkHelloBody("foo.example.com");
        assertThat(HelloBody.extension(hello, 0)).isPositive();
        assertThat(HelloBody.extension(hello, 0xfafa)).isEqualTo(-1);
        assertThat(HelloBody.hasSessionId(hello)).as("the JDK sends a legacy session ID (middlebox compatibility)").isTrue();
    }
}
