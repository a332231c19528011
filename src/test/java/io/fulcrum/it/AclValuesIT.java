package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static io.fulcrum.it.HttpKit.serve;
import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * What an ACL compares over real requests: methods as HAProxy knows them, every cookie and every header
 * value of a multi-valued fetch, empty cookies. Each request's answer lists the ACLs that matched; every
 * expectation was answered by HAProxy 2.6 (-Dit.proxy=haproxy).
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class AclValuesIT {

    private static final String DEFAULTS = """
            defaults
                mode http
                timeout connect 2s
                timeout client 10s
                timeout server 10s

            """;

    /** A frontend answering, for each ACL in order, its number when it matched. */
    private static String config(int fe, String... acls) {
        StringBuilder b = new StringBuilder(DEFAULTS + """
                frontend fe
                    bind 127.0.0.1:%d
                    http-request set-var(txn.r) str(=)
                """.formatted(fe));
        for (int k = 0; k < acls.length; k++) {
            b.append("    http-request set-var(txn.r) var(txn.r),concat(").append(k + 1).append(") if { ").append(acls[k]).append(" }\n");
        }
        return b.append("    http-request return status 200 content-type text/plain lf-string \"%[var(txn.r)]\"\n").toString();
    }

    private static String answer(HttpClientConn c, String method, String headers) throws Exception {
        return c.exchange(method + " / HTTP/1.1\r\nHost: test\r\n" + headers + "\r\n").bodyText();
    }

    @Test
    void knownMethodsIgnoreTheCase() throws Exception {
        int fe = freePort();
        try (FulcrumProcess proxy = serve(config(fe, "method -i get", "method get", "method -i foo", "method foo", "method GET",
                "method -i GET", "method -i FOO", "method FOO", "method,lower get"), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            assertThat(answer(c, "GET", "")).isEqualTo("=569");
            assertThat(answer(c, "get", "")).isEqualTo("=129");
            assertThat(answer(c, "Get", "")).isEqualTo("=19");
            assertThat(answer(c, "FOO", "")).isEqualTo("=378");
            assertThat(answer(c, "foo", "")).isEqualTo("=347");
            assertThat(answer(c, "Foo", "")).isEqualTo("=37");
        }
    }

    @Test
    void everyCookieAndHeaderValueIsTried() throws Exception {
        int fe = freePort();
        try (FulcrumProcess proxy = serve(config(fe, "req.cook(b) 1", "cook_val(b) 1", "cookie(b) 1", "req.cook(b) -m len 0",
                "hdr_val(x) 5", "req.hdr_val(x) 7", "hdr_ip(y) 1.2.3.4", "req.hdr_val(x,1) 5", "req.cook(b) -m found"), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            assertThat(answer(c, "GET", "Cookie: b=1; b=2\r\nX: 5, 7\r\n")).isEqualTo("=1235689");
            assertThat(answer(c, "GET", "Cookie: a=1; b=\r\nCookie: b=1\r\nX: 7\r\nX: 5\r\n")).isEqualTo("=1234569");
            assertThat(answer(c, "GET", "Cookie: b=x1; b=1x\r\nY: 5.6.7.8, 1.2.3.4\r\n")).isEqualTo("=279");
            // An empty cookie ending the header is only found after "; ".
            assertThat(answer(c, "GET", "Cookie: a=1; b=\r\n")).isEqualTo("=49");
            assertThat(answer(c, "GET", "Cookie: a=1;b=\r\n")).isEqualTo("=");
            assertThat(answer(c, "GET", "Cookie: b=\r\n")).isEqualTo("=");
        }
    }

    /** The tries end at the first value the converters fail on (b64dec of "!!" or "B"): the later ones are not seen. */
    @Test
    void aValueTheConvertersFailOnEndsTheTries() throws Exception {
        int fe = freePort();
        try (FulcrumProcess proxy = serve(config(fe, "req.hdr(x),b64dec -m found", "req.hdr(x),b64dec -m str a",
                "req.hdr(x),b64dec -m str abc", "req.hdr(x),lower -m str b"), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            assertThat(answer(c, "GET", "X: !!, YQ==\r\n")).isEqualTo("=");
            assertThat(answer(c, "GET", "X: YQ==, !!\r\n")).isEqualTo("=12");
            assertThat(answer(c, "GET", "X: YWJj, B\r\n")).isEqualTo("=134");
        }
    }

    /**
     * The ACL "hdr" is req.hdr (the fetch hdr reads the message being processed), "shdr" res.hdr
     * (tools/sample-diff.py). In the response rules (http-after-response too, even for the proxy's own response)
     * an ACL on the request's fields or start line never matches, as the warning says: HAProxy has forwarded them.
     */
    @Test
    void theAclHdrIsTheRequestsEvenInAResponseRule() throws Exception {
        int fe = freePort();
        int origin = freePort();
        try (FulcrumProcess proxy = serve(DEFAULTS + """
                frontend fe
                    bind 127.0.0.1:%d
                    http-request return status 200 if { path /own }
                    http-after-response set-header X-After 1 if { req.hdr(x-a) -m found } || { path -m found }
                    http-after-response set-header X-After-Method 1 if { method GET }
                    default_backend be

                backend be
                    http-response set-header X-Hdr 1 if { hdr(x-a) -m found }
                    http-response set-header X-Hdr-Beg 1 if { hdr_beg(x-a) 1 }
                    http-response set-header X-Shdr 1 if { shdr(x-a) 1 }
                    http-response set-header X-Fetch %%[hdr(x-a)]
                    http-response set-header X-Req 1 if { req.hdr(x-a) -m found } || { path / } || { req.cook(c) -m found }
                    http-response set-header X-Method 1 if { method GET }
                    server s 127.0.0.1:%d

                frontend origin
                    bind 127.0.0.1:%d
                    http-request return status 200 hdr X-A 1
                """.formatted(fe, origin, origin), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            HttpClientConn.Response r = c.exchange("GET / HTTP/1.1\r\nHost: test\r\nX-A: 1\r\nCookie: c=1\r\n\r\n");
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.get("x-hdr")).isNull();
            assertThat(r.get("x-hdr-beg")).isNull();
            assertThat(r.get("x-shdr")).isEqualTo("1");
            assertThat(r.get("x-fetch")).isEqualTo("1");
            assertThat(r.get("x-req")).isNull();
            assertThat(r.get("x-method")).isEqualTo("1");
            assertThat(r.get("x-after")).isNull();
            assertThat(r.get("x-after-method")).isEqualTo("1");
            r = c.exchange("GET /own HTTP/1.1\r\nHost: test\r\nX-A: 1\r\n\r\n");
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.get("x-after")).isNull();
            assertThat(r.get("x-after-method")).isEqualTo("1");
        }
    }
}
