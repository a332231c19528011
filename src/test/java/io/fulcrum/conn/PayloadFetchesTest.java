package io.fulcrum.conn;

import io.fulcrum.sample.TestContext;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/** The content fetches; the expected values are what HAProxy 2.6 returned in tcp-request content rules. */
class PayloadFetchesTest {

    private static TestContext holding(String bytes) {
        TestContext ctx = new TestContext();
        ctx.requestContent = Unpooled.copiedBuffer(bytes, StandardCharsets.ISO_8859_1);
        return ctx;
    }

    @Test
    void blocks() {
        TestContext ctx = holding("GET / HTTP/1.1\r\nHost: h\r\n\r\nabc");
        assertThat(ctx.eval("req.len")).isEqualTo("sint:30");
        assertThat(ctx.eval("req_len")).isEqualTo("sint:30");
        assertThat(ctx.hex("req.payload(0,3)")).isEqualTo("474554");
        assertThat(ctx.hex("payload(0,3)")).isEqualTo("474554");
        assertThat(ctx.text("req.payload(0,0),length")).isEqualTo("30");
        assertThat(ctx.eval("req.payload(30,0)")).as("the end: empty").isEqualTo("bin:");
        assertThat(ctx.eval("req.payload(31,0)")).isEqualTo("none");
        assertThat(ctx.eval("req.payload(30,10)")).as("not (yet) there").isEqualTo("none");
        assertThat(ctx.eval("req.payload(0,-1)")).isEqualTo("none");
        assertThat(ctx.eval("req.payload(-1,1)")).isEqualTo("none");
        assertThat(ctx.requestContent.readableBytes()).as("read, not consumed").isEqualTo(30);
        assertThat(ctx.eval("res.len")).as("no response held").isEqualTo("none");
    }

    /** As haproxy 2.6: the block up to the end grows while more can come, so a condition it fails waits for more. */
    @Test
    void aBlockToTheEndMayChangeWhileMoreCanCome() {
        for (String fetch : new String[] {"req.payload(0,0)", "payload(0,0)", "req.payload(0,3)"}) {
            for (boolean waiting : new boolean[] {true, false}) {
                boolean[] missing = {false};
                TestContext ctx = HeldBytes.holding("8=FIX", waiting, missing);
                assertThat(ctx.eval(fetch)).isNotEqualTo("none");
                assertThat(missing[0]).as(fetch + (waiting ? " waiting" : " at the end")).isEqualTo(waiting && fetch.endsWith(",0)"));
            }
        }
    }

    @Test
    void lengthThenValue() {
        TestContext ctx = holding("\0\3abcXYZ");
        assertThat(ctx.hex("req.payload_lv(0,2)")).isEqualTo("616263");
        assertThat(ctx.hex("req.payload_lv(0,2,+1)")).isEqualTo("626358");
        // As documented: HAProxy 2.6 misreads an unsigned offset2 (odd: half of it from the length's end, even:
        // half of it from the start, so 5 gives "cXY" and 4 "abc").
        assertThat(ctx.hex("req.payload_lv(0,2,5)")).isEqualTo("58595A");
        assertThat(ctx.hex("req.payload_lv(0,2,0)")).isEqualTo("000361");
        assertThat(ctx.hex("req.payload_lv(0,2,-1)")).isEqualTo("036162");
        assertThat(ctx.hex("req.payload_lv(0,2,-2)")).isEqualTo("000361");
        assertThat(ctx.hex("req.payload_lv(0,2,+3)")).isEqualTo("58595A");
        assertThat(ctx.hex("req.payload_lv(1,1)")).isEqualTo("616263");
        assertThat(ctx.eval("req.payload_lv(0,1)")).as("a block of 0 bytes at 1, then 3 (\\3) too long").isEqualTo("bin:");
        assertThat(ctx.eval("req.payload_lv(0,5)")).isEqualTo("none");
        ctx.responseContent = ctx.requestContent;
        ctx.responseSide = true;
        assertThat(ctx.hex("res.payload_lv(0,2)")).isEqualTo("616263");
        assertThat(ctx.hex("payload_lv(0,2,+1)")).isEqualTo("626358");
    }

    @Test
    void argumentChecks() {
        assertThat(TestContext.error("req.payload_lv(-1,1)"))
                .isEqualTo("invalid args in fetch method 'req.payload_lv' : payload offset1 must be positive");
        assertThat(TestContext.error("req.payload_lv(0,0)")).isEqualTo("invalid args in fetch method 'req.payload_lv' : payload length must be > 0");
        assertThat(TestContext.error("req.payload_lv(0,4,x)"))
                .isEqualTo("invalid args in fetch method 'req.payload_lv' : payload offset2 is not a number");
        assertThat(TestContext.error("req.payload_lv(0,2,-3)"))
                .isEqualTo("invalid args in fetch method 'req.payload_lv' : payload offset2 too negative");
        assertThat(TestContext.error("req.payload_lv(2,2,-3)")).isNull();
    }

    private static TestContext response(int... bytes) {
        TestContext ctx = new TestContext();
        byte[] b = new byte[bytes.length];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) bytes[i];
        }
        ctx.responseContent = Unpooled.wrappedBuffer(b);
        ctx.responseSide = true;
        return ctx;
    }

    @Test
    void sslHelloType() {
        // a TLS 1.2 record holding a server hello (2) whose 2-byte body is all there
        int[] serverHello = {0x16, 3, 3, 0, 6, 2, 0, 0, 2, 0xaa, 0xbb};
        assertThat(response(serverHello).eval("res.ssl_hello_type")).isEqualTo("sint:2");
        assertThat(response(serverHello).eval("rep_ssl_hello_type")).isEqualTo("sint:2");
        assertThat(response(0x16, 3, 3, 0, 6, 2, 0, 0, 2, 0xaa).eval("res.ssl_hello_type")).as("message incomplete").isEqualTo("none");
        assertThat(response(0x16, 3, 3, 0, 6).eval("res.ssl_hello_type")).as("header incomplete").isEqualTo("none");
        assertThat(response(0x16, 2, 0, 0, 6, 2, 0, 0, 0).eval("res.ssl_hello_type")).as("SSLv2").isEqualTo("none");
        assertThat(response(0x16, 3, 1, 0, 3, 2, 0, 0, 0).eval("res.ssl_hello_type")).as("record too short").isEqualTo("none");
        assertThat(response('H', 'T', 'T', 'P', '/', '1', '.', '1', ' ').eval("res.ssl_hello_type")).isEqualTo("none");
        assertThat(response().eval("res.ssl_hello_type")).isEqualTo("none");
        assertThat(new TestContext().eval("res.ssl_hello_type")).as("no response held").isEqualTo("none");
        assertThat(response(0x15, 3, 0, 0, 4, 9, 0, 0, 0).eval("res.ssl_hello_type")).as("any SSLv3 record type").isEqualTo("sint:9");
    }
}
