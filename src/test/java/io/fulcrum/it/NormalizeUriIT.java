package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * normalize-uri end to end: normalizers applied in order to the request the server gets, a strict one refusing an
 * invalid sequence with a 400. Also runs against HAProxy 2.6 (-Dit.proxy=haproxy).
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class NormalizeUriIT {

    @Test
    void normalizersInOrderAndStrictRefusal() throws Exception {
        int fe = freePort();
        try (HttpOrigin origin = HttpOrigin.ok("hello")) {
            String config = """
                    global
                        expose-experimental-directives
                    """ + HttpKit.config("127.0.0.1:" + fe, """
                    http-request normalize-uri fragment-strip
                    http-request normalize-uri path-merge-slashes
                    http-request normalize-uri percent-decode-unreserved strict
                    http-request normalize-uri path-strip-dot
                    http-request normalize-uri path-strip-dotdot full
                    http-request normalize-uri query-sort-by-name
                    http-request normalize-uri percent-to-uppercase strict
                    """, "", origin.port());
            try (FulcrumProcess proxy = HttpKit.serve(config, fe);
                 HttpClientConn c = HttpClientConn.open(fe)) {
                assertThat(c.exchange(HttpKit.get("//a/./b/%2e%2e//%63/../../%7euser/?z=%2f&b=2&a=1")).status()).isEqualTo(200);
                assertThat(origin.requests(1).get(0).target()).isEqualTo("/~user/?a=1&b=2&z=%2F");
                assertThat(c.exchange(HttpKit.get("/ok/%zz")).status()).isEqualTo(400);
            }
        }
    }
}
