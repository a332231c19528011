package io.fulcrum.http;

import io.fulcrum.sample.TestContext;
import io.netty.util.AsciiString;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;

import static org.assertj.core.api.Assertions.assertThat;

/** The request-target fetches; the expected values are what HAProxy 2.6 returned for the same requests. */
class UrlFetchesTest {

    private static TestContext request(String target, String host) {
        TestContext ctx = new TestContext();
        ctx.request = Messages.request("GET " + target + " HTTP/1.1\r\n" + (host == null ? "" : "Host: " + host + "\r\n") + "\r\n");
        return ctx;
    }

    @Test
    void originForm() {
        TestContext ctx = request("/p/q?a=1&b=2;c=3", "H.com:90");
        assertThat(ctx.eval("path")).isEqualTo("str:/p/q");
        assertThat(ctx.text("pathq")).isEqualTo("/p/q?a=1&b=2;c=3");
        assertThat(ctx.text("query")).isEqualTo("a=1&b=2;c=3");
        assertThat(ctx.text("url")).isEqualTo("/p/q?a=1&b=2;c=3");
        assertThat(ctx.text("base")).isEqualTo("H.com:90/p/q");
        assertThat(ctx.text("baseq")).isEqualTo("H.com:90/p/q?a=1&b=2;c=3");
        assertThat(ctx.eval("base32")).isEqualTo("sint:4158244610");
        assertThat(ctx.eval("url32")).isEqualTo("sint:1995607614");
        assertThat(ctx.text("url_ip")).isEqualTo("none");
        assertThat(ctx.text("url_port")).isEqualTo("none");
        assertThat(ctx.text("urlp(a)")).isEqualTo("1");
        assertThat(ctx.text("urlp")).isEqualTo("1");
        assertThat(ctx.text("url_param(b)")).isEqualTo("2");
        assertThat(ctx.text("url_param(c)")).isEqualTo("3");
        assertThat(ctx.eval("urlp_val(a)")).isEqualTo("sint:1");

        ctx = request("/p", "H.com:90");
        assertThat(ctx.text("query")).isEqualTo("none");
        assertThat(ctx.text("base32")).isEqualTo("3308214725");
        assertThat(ctx.text("url32")).isEqualTo("3308214725");
        assertThat(ctx.text("urlp")).isEqualTo("none");

        ctx = request("/p?", "H.com:90");
        assertThat(ctx.eval("query")).isEqualTo("str:");
        assertThat(ctx.text("pathq")).isEqualTo("/p?");
        assertThat(ctx.text("url32")).isEqualTo("482267885");

        ctx = request("//x/y?a=1", "h");
        assertThat(ctx.text("path")).isEqualTo("//x/y");
        assertThat(ctx.text("base")).isEqualTo("h//x/y");
    }

    @Test
    void urlParameters() {
        TestContext ctx = request("/p?a&b=&a=3", "h");
        assertThat(ctx.text("urlp(a)")).as("a parameter without '=' has no value").isEqualTo("3");
        assertThat(ctx.text("urlp")).isEqualTo("");
        assertThat(ctx.text("url_param(b)")).isEqualTo("");
        assertThat(ctx.text("urlp_val(a)")).isEqualTo("3");
        assertThat(request("/p?x&y=2", "h").text("urlp")).isEqualTo("2");
        assertThat(request("/p?&y=2", "h").text("urlp")).isEqualTo("2");
        ctx = request("/p;a=9?a=1", "H.com:90");
        assertThat(ctx.text("urlp(a)")).isEqualTo("1");
        assertThat(ctx.text("path")).isEqualTo("/p;a=9");
        assertThat(ctx.text("base32")).isEqualTo("94065166");
        assertThat(ctx.text("url32")).isEqualTo("4047035092");
        assertThat(ctx.text("urlp(a,;)")).as("parameters after ';' instead of '?'").isEqualTo("9?a=1");
        assertThat(request("/foo;JSESSIONID=some_id", "h").text("urlp(JSESSIONID,;)")).isEqualTo("some_id");
    }

    @Test
    void absoluteForm() {
        TestContext ctx = request("http://ex.com:81/x/y?a=5", "ex.com:81");
        assertThat(ctx.text("path")).isEqualTo("/x/y");
        assertThat(ctx.text("pathq")).isEqualTo("/x/y?a=5");
        assertThat(ctx.text("query")).isEqualTo("a=5");
        assertThat(ctx.text("url")).isEqualTo("http://ex.com:81/x/y?a=5");
        assertThat(ctx.text("base")).isEqualTo("ex.com:81/x/y");
        assertThat(ctx.text("url_ip")).isEqualTo("none");
        assertThat(ctx.text("url_port")).isEqualTo("none");

        ctx = request("http://1.2.3.4:8080/x", "1.2.3.4:8080");
        assertThat(ctx.eval("url_ip")).isEqualTo("ipv4:1.2.3.4");
        assertThat(ctx.eval("url_port")).isEqualTo("sint:8080");
        ctx = request("http://1.2.3.4", "1.2.3.4");
        assertThat(ctx.text("path")).isEqualTo("none");
        assertThat(ctx.text("base")).isEqualTo("1.2.3.4");
        assertThat(ctx.text("url_port")).isEqualTo("80");
        assertThat(request("https://1.2.3.4/", "1.2.3.4").text("url_port")).isEqualTo("443");
        assertThat(request("HTTP://1.2.3.4:81/", "1.2.3.4:81").text("url_port")).isEqualTo("81");
        // Fulcrum's parser rejects the Host headers that would go with these targets; HAProxy reads them so.
        assertThat(UrlFetches.hostPort(AsciiString.of("http://1.2.3.4:99999/"))).isEqualTo(34463L << 32 | 0x01020304);
        assertThat(UrlFetches.hostPort(AsciiString.of("http://1.2.3.4:81x/"))).isEqualTo(81L << 32 | 0x01020304);
        assertThat(UrlFetches.hostPort(AsciiString.of("http://1.2.3.4x/"))).isEqualTo(80L << 32 | 0x01020304);
        assertThat(request("http://u@1.2.3.4:81/", "1.2.3.4:81").text("url_ip")).isEqualTo("none");
        ctx = request("https://1.2.3.4/", "1.2.3.4");
        assertThat(ctx.text("base32")).isEqualTo("840663255");
    }

    @Test
    void withoutHostOrPath() {
        TestContext ctx = new TestContext();
        ctx.request = Messages.request("GET /p?a HTTP/1.0\r\n\r\n");
        assertThat(ctx.text("base")).isEqualTo("/p");
        assertThat(ctx.text("baseq")).isEqualTo("/p?a");
        assertThat(ctx.text("base32")).isEqualTo("543366309");
        assertThat(ctx.text("url32")).isEqualTo("998692128");
        ctx = request("/p?a", "");
        assertThat(ctx.text("base")).isEqualTo("/p");
        ctx = new TestContext();
        ctx.request = Messages.request("OPTIONS * HTTP/1.1\r\nHost: H.com:90\r\n\r\n");
        assertThat(ctx.text("path")).isEqualTo("none");
        assertThat(ctx.text("query")).isEqualTo("none");
        assertThat(ctx.text("url")).isEqualTo("*");
        assertThat(ctx.text("base")).isEqualTo("H.com:90");
        assertThat(ctx.text("base32")).isEqualTo("3948783480");
        assertThat(ctx.text("url32")).isEqualTo("3948783480");
        ctx = new TestContext();
        ctx.request = Messages.request("OPTIONS * HTTP/1.0\r\n\r\n");
        assertThat(ctx.text("base")).isEqualTo("none");
        assertThat(ctx.text("base32")).isEqualTo("2874071335");
    }

    @Test
    void hashesWithTheClientAddress() {
        TestContext ctx = request("/p/q?a=1&b=2;c=3", "H.com:90");
        ctx.source = new InetSocketAddress("127.0.0.1", 5000);
        assertThat(ctx.hex("base32+src")).isEqualTo("F7D9C7027F000001");
        assertThat(ctx.hex("url32+src")).isEqualTo("76F28E3E7F000001");
        ctx.source = new InetSocketAddress("2001:db8::1", 5000);
        assertThat(ctx.hex("url32+src")).isEqualTo("76F28E3E20010DB8000000000000000000000001");
    }
}
