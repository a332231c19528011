package io.fulcrum.http;

import io.fulcrum.sample.TestContext;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The cookie fetches; the expected values are what HAProxy 2.6 returned for the same messages. */
class CookieFetchesTest {

    private static TestContext request(String cookies) {
        TestContext ctx = new TestContext();
        ctx.request = Messages.request("GET / HTTP/1.1\r\nHost: h\r\n" + cookies + "\r\n");
        return ctx;
    }

    private static TestContext response(String setCookies) {
        TestContext ctx = request("Cookie: q=1\r\n");
        ctx.response = Messages.response("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n" + setCookies + "\r\n");
        ctx.responseSide = true;
        return ctx;
    }

    @Test
    void requestCookies() {
        TestContext ctx = request("Cookie: a=1; b=2 ; c = 3 ;d=;e; a=4\r\nCookie: f=5, g=6\r\nCookie: =7; h=\"x y\"\r\n");
        assertThat(ctx.text("req.cook(a)")).as("the last one").isEqualTo("4");
        assertThat(ctx.text("req.cook(b)")).isEqualTo("2");
        assertThat(ctx.text("req.cook(c)")).isEqualTo("3");
        assertThat(ctx.eval("req.cook(d)")).isEqualTo("str:");
        assertThat(ctx.text("req.cook(e)")).as("no '='").isEqualTo("none");
        assertThat(ctx.text("req.cook(f)")).isEqualTo("5");
        assertThat(ctx.text("req.cook(g)")).isEqualTo("6");
        assertThat(ctx.text("req.cook(h)")).isEqualTo("\"x y\"");
        assertThat(ctx.text("req.cook(A)")).isEqualTo("none");
        assertThat(ctx.text("req.cook(nosuch)")).isEqualTo("none");
        assertThat(ctx.text("req.cook()")).as("the first one").isEqualTo("1");
        assertThat(ctx.text("req.cook")).isEqualTo("1");
        assertThat(ctx.text("cook(a)")).isEqualTo("4");
        assertThat(ctx.text("cookie(a)")).isEqualTo("4");
        assertThat(ctx.eval("req.cook_cnt(a)")).isEqualTo("sint:2");
        assertThat(ctx.text("req.cook_cnt")).isEqualTo("9");
        assertThat(ctx.text("req.cook_cnt()")).isEqualTo("9");
        assertThat(ctx.text("req.cook_cnt(nosuch)")).isEqualTo("0");
        assertThat(ctx.eval("req.cook_val(a)")).isEqualTo("sint:4");
        assertThat(ctx.text("req.cook_val")).isEqualTo("1");
        assertThat(ctx.text("req.cook_val(d)")).isEqualTo("0");
        assertThat(ctx.text("req.cook_val(nosuch)")).isEqualTo("none");
        assertThat(ctx.text("cook_val(a)")).isEqualTo("4");
        assertThat(ctx.text("cook_cnt(a)")).isEqualTo("2");
    }

    /**
     * HAProxy only reads an attribute when more than the name and its '=' remain from where the attribute
     * starts (blanks included): an empty cookie that ends the header is found after "; ", not alone nor after ";".
     */
    @Test
    void anEmptyCookieAtTheEndOfTheHeader() {
        String[][] cases = {
                // Cookie header, req.cook(b), req.cook_cnt(b), req.cook_val(b), req.cook_cnt, req.cook(bb), req.cook_cnt(bb)
                {"a=1; b=", "str:", "1", "0", "2", "none", "0"},
                {"a=1; b=;", "str:", "1", "0", "2", "none", "0"},
                {"b= ; a=1", "str:", "1", "0", "2", "none", "0"},
                {"b=", "none", "0", "none", "1", "none", "0"},
                {";b=", "none", "0", "none", "1", "none", "0"},
                {"a=1;b=", "none", "0", "none", "2", "none", "0"},
                {"a=1; bb=", "none", "0", "none", "2", "str:", "1"},
                {"a=1;bb=", "none", "0", "none", "2", "none", "0"},
                {"bb=", "none", "0", "none", "1", "none", "0"},
                {"a=1; b", "none", "0", "none", "1", "none", "0"},
        };
        for (String[] c : cases) {
            TestContext ctx = request("Cookie: " + c[0] + "\r\n");
            assertThat(List.of(ctx.eval("req.cook(b)"), ctx.text("req.cook_cnt(b)"), ctx.text("req.cook_val(b)"), ctx.text("req.cook_cnt"),
                    ctx.eval("req.cook(bb)"), ctx.text("req.cook_cnt(bb)")))
                    .as(c[0]).containsExactly(c[1], c[2], c[3], c[4], c[5], c[6]);
        }
    }

    @Test
    void quotesAndSpecialAttributes() {
        TestContext ctx = request("Cookie: a=\"x;y\"z;b=1\r\nCookie: c=x\"y;z\"; d = \"q\" ; e=\"\"\r\n"
                + "Cookie: f = 1 2 ;g=\"a\\\"b;c\"\r\nCookie: h=\"x, y\"; i=a=b; j = ; k\t=\tv ;\r\nCookie: ;;l=1;;\r\n"
                + "Cookie: m=1,n=2;o\r\nCookie: $Version=1; p=3\r\n");
        assertThat(ctx.text("req.cook(a)")).isEqualTo("\"x;y\"z");
        assertThat(ctx.text("req.cook(b)")).isEqualTo("1");
        assertThat(ctx.text("req.cook(c)")).isEqualTo("x\"y;z\"");
        assertThat(ctx.text("req.cook(d)")).isEqualTo("\"q\"");
        assertThat(ctx.text("req.cook(e)")).isEqualTo("\"\"");
        assertThat(ctx.text("req.cook(f)")).isEqualTo("1 2");
        assertThat(ctx.text("req.cook(g)")).isEqualTo("\"a\\\"b;c\"");
        assertThat(ctx.text("req.cook(h)")).isEqualTo("\"x, y\"");
        assertThat(ctx.text("req.cook(i)")).isEqualTo("a=b");
        assertThat(ctx.text("req.cook(j)")).isEqualTo("");
        assertThat(ctx.text("req.cook(k)")).isEqualTo("v");
        assertThat(ctx.text("req.cook(l)")).isEqualTo("1");
        assertThat(ctx.text("req.cook(m)")).isEqualTo("1");
        assertThat(ctx.text("req.cook(n)")).isEqualTo("2");
        assertThat(ctx.text("req.cook(o)")).isEqualTo("none");
        assertThat(ctx.text("req.cook($Version)")).isEqualTo("none");
        assertThat(ctx.text("req.cook(p)")).isEqualTo("3");
    }

    @Test
    void setCookieHeaders() {
        TestContext ctx = response("Set-Cookie: a=1; Expires=Wed, 21 Oct 2015 07:28:00 GMT; Path=/\r\nSet-Cookie: b = x y ; HttpOnly\r\n"
                + "Set-Cookie: c=\"q, r\"\r\nSet-Cookie: d\r\nSet-Cookie: e=5, f=6\r\nSet-Cookie: a=7\r\nCookie: z=1\r\n");
        assertThat(ctx.text("res.cook(a)")).isEqualTo("7");
        assertThat(ctx.text("res.cook(b)")).isEqualTo("x y");
        assertThat(ctx.text("res.cook(c)")).isEqualTo("\"q, r\"");
        assertThat(ctx.text("res.cook(d)")).isEqualTo("none");
        assertThat(ctx.text("res.cook(e)")).isEqualTo("5");
        assertThat(ctx.text("res.cook(f)")).isEqualTo("6");
        // The value is cut at its commas, and the date's second half has a Path attribute first.
        assertThat(ctx.text("res.cook(Path)")).isEqualTo("/");
        assertThat(ctx.text("res.cook(Expires)")).isEqualTo("none");
        assertThat(ctx.text("res.cook")).isEqualTo("1");
        assertThat(ctx.text("res.cook()")).isEqualTo("1");
        assertThat(ctx.text("res.cook_cnt")).isEqualTo("8");
        assertThat(ctx.text("res.cook_cnt(a)")).isEqualTo("2");
        assertThat(ctx.text("res.cook_val(a)")).isEqualTo("7");
        assertThat(ctx.text("scook(b)")).isEqualTo("x y");
        assertThat(ctx.text("cookie(a)")).isEqualTo("7");
        assertThat(ctx.text("cookie(q)")).as("a request cookie").isEqualTo("none");
        assertThat(ctx.text("cookie(z)")).as("a Cookie header in a response").isEqualTo("none");
        assertThat(ctx.text("req.cook(q)")).isEqualTo("1");
    }

    @Test
    void setCookieAttributesAfterTheFirstAreNotCookies() {
        TestContext ctx = response("Set-Cookie: x=1; y=2\r\n");
        assertThat(ctx.text("res.cook(x)")).isEqualTo("1");
        assertThat(ctx.text("res.cook(y)")).isEqualTo("none");
        assertThat(ctx.text("res.cook_cnt")).as("HAProxy counts them all the same").isEqualTo("2");
        assertThat(ctx.text("res.cook_cnt(y)")).isEqualTo("0");
        ctx = response("Set-Cookie: a=1; Expires=Wed, 21 Oct 2015 07:28:00 GMT; Path=/\r\n");
        assertThat(ctx.text("res.cook_cnt")).isEqualTo("3");
        ctx = response("Set-Cookie: x=Wed, 21 Oct; y=2\r\n");
        assertThat(ctx.text("res.cook(x)")).isEqualTo("Wed");
        assertThat(ctx.text("res.cook(y)")).isEqualTo("2");
        assertThat(ctx.text("res.cook_cnt")).isEqualTo("2");
    }
}
