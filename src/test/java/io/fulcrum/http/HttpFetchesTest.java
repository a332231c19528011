package io.fulcrum.http;

import io.fulcrum.sample.TestContext;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/** Start-line and body fetches; the expected values are what HAProxy 2.6 returned for the same messages. */
class HttpFetchesTest {

    @Test
    void startLines() {
        TestContext ctx = new TestContext();
        ctx.request = Messages.request("GET /x HTTP/1.1\r\nHost: h\r\n\r\n");
        assertThat(ctx.eval("method")).isEqualTo("meth:GET");
        assertThat(ctx.eval("req.ver")).isEqualTo("str:1.1");
        assertThat(ctx.text("req_ver")).isEqualTo("1.1");
        assertThat(ctx.text("status")).isEqualTo("none");
        ctx.request = Messages.request("POST /x HTTP/1.0\r\n\r\n");
        assertThat(ctx.text("method")).isEqualTo("POST");
        assertThat(ctx.text("req.ver")).isEqualTo("1.0");
        ctx.response = Messages.response("HTTP/1.0 404 Not Found\r\nContent-Length: 0\r\n\r\n");
        assertThat(ctx.eval("status")).isEqualTo("sint:404");
        assertThat(ctx.text("res.ver")).isEqualTo("1.0");
        assertThat(ctx.text("resp_ver")).isEqualTo("1.0");
        assertThat(ctx.eval("req.proto_http")).isEqualTo("bool:1");
    }

    @Test
    void firstRequestOfTheConnection() {
        TestContext ctx = new TestContext();
        ctx.request = Messages.request("GET /x HTTP/1.1\r\nHost: h\r\n\r\n");
        assertThat(ctx.text("http_first_req")).as("unknown").isEqualTo("none");
        ctx.requestNumber = 1;
        assertThat(ctx.eval("http_first_req")).isEqualTo("bool:1");
        ctx.requestNumber = 2;
        assertThat(ctx.eval("http_first_req")).isEqualTo("bool:0");
    }

    @Test
    void bodies() {
        TestContext ctx = new TestContext();
        ctx.request = Messages.request("GET /x HTTP/1.1\r\nHost: h\r\n\r\n");
        // A message without a body has an empty one.
        assertThat(ctx.text("req.body_size")).isEqualTo("0");
        assertThat(ctx.text("req.body_len")).isEqualTo("0");
        assertThat(ctx.eval("req.body")).isEqualTo("bin:");
        ctx.request = Messages.request("POST /x HTTP/1.1\r\nHost: h\r\nContent-Length: 20\r\n\r\n");
        // The advertised size is known; what was received is not, until the stream keeps it.
        assertThat(ctx.text("req.body_size")).isEqualTo("20");
        assertThat(ctx.text("req.body_len")).isEqualTo("none");
        assertThat(ctx.text("req.body")).isEqualTo("none");
        assertThat(ctx.text("req.body_param(a)")).isEqualTo("none");
        ctx.requestBody = Unpooled.copiedBuffer("a=1&b=2;c=&a=4", StandardCharsets.ISO_8859_1);
        assertThat(ctx.text("req.body_len")).isEqualTo("14");
        assertThat(ctx.eval("req.body")).isEqualTo("bin:a=1&b=2;c=&a=4");
        assertThat(ctx.eval("req.body_param(a)")).isEqualTo("bin:1");
        assertThat(ctx.text("req.body_param(b)")).isEqualTo("2");
        assertThat(ctx.text("req.body_param(c)")).isEqualTo("");
        assertThat(ctx.text("req.body_param")).isEqualTo("1");
        assertThat(ctx.text("req.body_param(x)")).isEqualTo("none");
        assertThat(ctx.requestBody.readableBytes()).as("the body is read, not consumed").isEqualTo(14);
        ctx.request = Messages.request("POST /x HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n");
        assertThat(ctx.text("req.body_size")).as("chunked: what was received").isEqualTo("14");
        ctx.requestBody.release();
    }
}
