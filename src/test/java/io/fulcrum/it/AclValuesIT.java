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

    /** A frontend answering, for each ACL in order, its number when it matched. */
    private static String config(int fe, String... acls) {
        StringBuilder b = new StringBuilder("""
                defaults
                    mode http
                    timeout connect 2s
                    timeout client 10s
                    timeout server 10s

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
}
