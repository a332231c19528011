package io.fulcrum.http;

import io.fulcrum.sample.Sample;
import io.fulcrum.sample.TestContext;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The header fetches; the expected values are what HAProxy 2.6 returned for the same messages. */
class HeaderFetchesTest {

    private static TestContext request(String head) {
        TestContext ctx = new TestContext();
        ctx.request = Messages.request(head);
        return ctx;
    }

    @Test
    void occurrencesOfCommaSeparatedValues() {
        TestContext ctx = request("GET /a?b=1 HTTP/1.1\r\nHost: x\r\nX: a, b ,c\r\nX: d\r\nE:\r\nQ: \"a,b\", c\r\nM: ,,\r\n\r\n");
        assertThat(ctx.text("req.hdr(x)")).isEqualTo("d");
        assertThat(ctx.text("req.hdr(x,0)")).isEqualTo("d");
        assertThat(ctx.text("req.hdr(x,1)")).isEqualTo("a");
        assertThat(ctx.text("req.hdr(x,2)")).isEqualTo("b");
        assertThat(ctx.text("req.hdr(x,-1)")).isEqualTo("d");
        assertThat(ctx.text("req.hdr(x,-3)")).isEqualTo("b");
        assertThat(ctx.text("req.hdr(x,-4)")).isEqualTo("a");
        assertThat(ctx.text("req.hdr(x,-5)")).isEqualTo("none");
        assertThat(ctx.text("req.hdr(x,5)")).isEqualTo("none");
        assertThat(ctx.text("req.hdr(X)")).isEqualTo("d");
        assertThat(ctx.text("req.hdr(nosuch)")).isEqualTo("none");
        // Commas between quotes do not separate; empty elements count.
        assertThat(ctx.text("req.hdr(q,1)")).isEqualTo("\"a,b\"");
        assertThat(ctx.text("req.hdr(q)")).isEqualTo("c");
        assertThat(ctx.text("req.hdr_cnt(q)")).isEqualTo("2");
        assertThat(ctx.text("req.hdr_cnt(m)")).isEqualTo("3");
        assertThat(ctx.text("req.hdr(m,3)")).isEqualTo("");
        assertThat(ctx.text("req.hdr(m,4)")).isEqualTo("none");
        // An empty value is an empty sample, not a missing one.
        assertThat(ctx.text("req.hdr(e)")).isEqualTo("");
        assertThat(ctx.eval("req.hdr(e)")).isEqualTo("str:");
        assertThat(ctx.text("req.fhdr(e)")).isEqualTo("");
        assertThat(ctx.text("req.hdr_cnt(e)")).isEqualTo("1");
    }

    @Test
    void fullValuesAndCounts() {
        TestContext ctx = request("GET /a?b=1 HTTP/1.1\r\nHost: x\r\nX: a, b ,c\r\nX: d\r\nE:\r\nQ: \"a,b\", c\r\nM: ,,\r\n\r\n");
        assertThat(ctx.text("req.fhdr(x)")).isEqualTo("d");
        assertThat(ctx.text("req.fhdr(x,0)")).isEqualTo("d");
        assertThat(ctx.text("req.fhdr(x,1)")).isEqualTo("a, b ,c");
        assertThat(ctx.text("req.fhdr(x,-2)")).isEqualTo("a, b ,c");
        assertThat(ctx.text("req.fhdr(x,3)")).isEqualTo("none");
        assertThat(ctx.text("req.hdr_cnt(x)")).isEqualTo("4");
        assertThat(ctx.text("hdr_cnt(x)")).isEqualTo("4");
        assertThat(ctx.text("req.fhdr_cnt(x)")).isEqualTo("2");
        // Without a name: every header; an empty name too, but a value needs a name argument.
        assertThat(ctx.text("req.hdr_cnt")).isEqualTo("11");
        assertThat(ctx.text("req.hdr_cnt()")).isEqualTo("11");
        assertThat(ctx.text("req.fhdr_cnt")).isEqualTo("6");
        assertThat(ctx.text("req.hdr")).isEqualTo("none");
        assertThat(ctx.text("req.fhdr")).isEqualTo("none");
        assertThat(ctx.text("req.hdr()")).isEqualTo("");
        assertThat(ctx.text("req.hdr(,1)")).isEqualTo("x");
        assertThat(ctx.text("hdr(host)")).isEqualTo("x");
    }

    @Test
    void headerNamesInLowerCase() {
        TestContext ctx = request("GET / HTTP/1.1\r\nHost: x\r\nX: a\r\nx: b\r\nE:\r\n\r\n");
        ctx.request.headers().add("Added-Later", "1");
        assertThat(ctx.text("req.hdr_names")).isEqualTo("host,x,x,e,added-later");
        assertThat(ctx.text("req.hdr_names(;-)")).isEqualTo("host;x;x;e;added-later");
        assertThat(ctx.text("req.hdr_names()")).isEqualTo("host\0x\0x\0e\0added-later");
    }

    @Test
    void addressesInHeaders() {
        TestContext ctx = request("GET / HTTP/1.1\r\nHost: x\r\nA: 1.2.3.4\r\nB: 1.2.3.4:80\r\nC: ::1\r\nD: [::1]:80\r\n"
                + "E: 1.2.3.4:99999\r\nF: junk, 5.6.7.8\r\nK: 1.2.3.4 \r\nL: 1.2.3.4:\r\nM: \"1.2.3.4\"\r\nN: [::1]\r\n"
                + "O: ::ffff:1.2.3.4\r\nP: 01.2.3.4\r\nR: 5.6.7.8, junk\r\nS: 1.2.3.4:65535\r\nT: 1.2.3.4:65536\r\n"
                + "U: 1.2.3.4:+1\r\nW: 1.2.3.0004\r\n\r\n");
        assertThat(ctx.eval("req.hdr_ip(a)")).isEqualTo("ipv4:1.2.3.4");
        assertThat(ctx.text("req.hdr_ip(b)")).isEqualTo("1.2.3.4");
        assertThat(ctx.eval("req.hdr_ip(c)")).isEqualTo("ipv6:::1");
        assertThat(ctx.text("req.hdr_ip(d)")).isEqualTo("none");
        assertThat(ctx.text("req.hdr_ip(e)")).isEqualTo("none");
        assertThat(ctx.text("req.hdr_ip(f)")).isEqualTo("5.6.7.8");
        assertThat(ctx.text("req.hdr_ip(f,1)")).isEqualTo("none");
        assertThat(ctx.text("req.hdr_ip(k)")).isEqualTo("1.2.3.4");
        assertThat(ctx.text("req.hdr_ip(l)")).isEqualTo("none");
        assertThat(ctx.text("req.hdr_ip(m)")).isEqualTo("none");
        assertThat(ctx.text("req.hdr_ip(n)")).isEqualTo("none");
        assertThat(ctx.text("req.hdr_ip(o)")).isEqualTo("::ffff:1.2.3.4");
        assertThat(ctx.text("req.hdr_ip(p)")).isEqualTo("1.2.3.4");
        assertThat(ctx.text("req.hdr_ip(r)")).isEqualTo("none");
        assertThat(ctx.text("req.hdr_ip(s)")).isEqualTo("1.2.3.4");
        assertThat(ctx.text("req.hdr_ip(t)")).isEqualTo("none");
        assertThat(ctx.text("req.hdr_ip(u)")).isEqualTo("none");
        assertThat(ctx.text("req.hdr_ip(w)")).isEqualTo("1.2.3.4");
        assertThat(ctx.text("hdr_ip(a)")).isEqualTo("1.2.3.4");
        assertThat(ctx.text("req.hdr_ip")).isEqualTo("none");
        assertThat(ctx.text("req.hdr_ip(nosuch)")).isEqualTo("none");
    }

    @Test
    void integersInHeadersAreReadAsHaproxyReadsThem() {
        TestContext ctx = request("GET / HTTP/1.1\r\nHost: x\r\nA: 99999999999\r\nB: 2147483648\r\nC: +5\r\nD: -2147483649\r\n"
                + "E: 4294967297\r\nF: 1.5\r\nG: 1 2\r\nH: /9\r\nI: 7:\r\nJ: --3\r\nK: 12abc\r\nL: abc\r\nM:\r\nV: 12, 34\r\n\r\n");
        assertThat(ctx.eval("req.hdr_val(a)")).isEqualTo("sint:1215752191");
        assertThat(ctx.text("req.hdr_val(b)")).isEqualTo("-2147483648");
        assertThat(ctx.text("req.hdr_val(c)")).isEqualTo("-45");
        assertThat(ctx.text("req.hdr_val(d)")).isEqualTo("2147483647");
        assertThat(ctx.text("req.hdr_val(e)")).isEqualTo("1");
        assertThat(ctx.text("req.hdr_val(f)")).isEqualTo("85");
        assertThat(ctx.text("req.hdr_val(g)")).isEqualTo("-58");
        assertThat(ctx.text("req.hdr_val(h)")).isEqualTo("-1");
        assertThat(ctx.text("req.hdr_val(i)")).isEqualTo("7");
        assertThat(ctx.text("req.hdr_val(j)")).isEqualTo("27");
        assertThat(ctx.text("req.hdr_val(k)")).isEqualTo("12");
        assertThat(ctx.text("req.hdr_val(l)")).isEqualTo("0");
        assertThat(ctx.text("req.hdr_val(m)")).isEqualTo("0");
        assertThat(ctx.text("req.hdr_val(v)")).isEqualTo("34");
        assertThat(ctx.text("req.hdr_val(v,1)")).isEqualTo("12");
        assertThat(ctx.text("hdr_val(v)")).isEqualTo("34");
        assertThat(ctx.text("req.hdr_val")).isEqualTo("none");
    }

    @Test
    void wholeHeaderBlocks() {
        TestContext ctx = request("GET /x HTTP/1.1\r\nHost: h\r\nX-A: 1, 2\r\nE:\r\n\r\n");
        assertThat(ctx.text("req.hdrs")).isEqualTo("host: h\r\nx-a: 1, 2\r\ne: \r\n\r\n");
        assertThat(ctx.hex("req.hdrs_bin")).isEqualTo("04686F7374016803782D6104312C20320165000000");
        // A length of 240 or more takes several bytes.
        ctx = request("GET /x HTTP/1.1\r\nHost: h\r\nL: " + "v".repeat(300) + "\r\n\r\n");
        assertThat(ctx.hex("req.hdrs_bin")).startsWith("04686F73740168016CFC03");
    }

    @Test
    void valuesAreViewsOnTheHeaderBytes() {
        TestContext ctx = request("GET / HTTP/1.1\r\nHost: example.com\r\n\r\n");
        Sample s = new Sample();
        assertThat(TestContext.parse("req.hdr(host)").eval(ctx, s)).isTrue();
        assertThat(s.bytes()).isSameAs(ctx.request.headers().value(0).array());
    }

    @Test
    void responseHeadersAndTheDirectionOfHdr() {
        TestContext ctx = request("GET / HTTP/1.1\r\nHost: h\r\nX: req\r\n\r\n");
        ctx.response = Messages.response("HTTP/1.1 200 OK\r\nContent-Length: 0\r\nX: 1, 2\r\nCookie: z=1\r\n\r\n");
        assertThat(ctx.text("hdr(x)")).isEqualTo("req");
        ctx.responseSide = true;
        assertThat(ctx.text("hdr(x)")).isEqualTo("2");
        assertThat(ctx.text("res.hdr(x)")).isEqualTo("2");
        assertThat(ctx.text("shdr(x,1)")).isEqualTo("1");
        assertThat(ctx.text("res.fhdr(x)")).isEqualTo("1, 2");
        assertThat(ctx.text("res.fhdr_cnt")).isEqualTo("3");
        assertThat(ctx.text("res.hdr_cnt")).isEqualTo("4");
        assertThat(ctx.text("shdr_cnt(x)")).isEqualTo("2");
        assertThat(ctx.text("res.hdr_ip(x)")).isEqualTo("none");
        assertThat(ctx.text("res.hdr_val(x)")).isEqualTo("2");
        assertThat(ctx.text("shdr_val(x)")).isEqualTo("2");
        assertThat(ctx.text("res.hdr_names")).isEqualTo("content-length,x,cookie");
        assertThat(ctx.text("req.hdr(x)")).isEqualTo("req");
    }

    @Test
    void noMessageNoSample() {
        TestContext ctx = new TestContext();
        assertThat(ctx.text("req.hdr(host)")).isEqualTo("none");
        assertThat(ctx.text("req.hdr_cnt")).isEqualTo("none");
        assertThat(ctx.text("res.hdr_names")).isEqualTo("none");
        assertThat(ctx.text("hdr(x)")).isEqualTo("none");
    }

    @Test
    void occurrencesGoBackTenAtMost() {
        assertThat(TestContext.error("req.hdr(x,-11)"))
                .isEqualTo("invalid args in fetch method 'req.hdr' : header occurrence must be >= -10");
        assertThat(TestContext.error("req.fhdr(x,-11)"))
                .isEqualTo("invalid args in fetch method 'req.fhdr' : header occurrence must be >= -10");
        assertThat(TestContext.error("shdr_ip(x,-11)"))
                .isEqualTo("invalid args in fetch method 'shdr_ip' : header occurrence must be >= -10");
        assertThat(TestContext.error("req.hdr(x,-10)")).isNull();
    }
}
