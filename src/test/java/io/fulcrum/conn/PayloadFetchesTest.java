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
}
