package io.fulcrum.sample;

import io.fulcrum.proxy.ProxyTable;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Proxy and server arguments checked once proxies are known; the messages are HAProxy 2.6's for the same lines. */
class ProxyArgsTest {
    private static ProxyTable proxies() {
        return ProxyTable.of(TestProxies.model("""
                defaults
                  mode http
                frontend f
                  bind 127.0.0.1:18941
                  default_backend b
                backend b
                  server s1 127.0.0.1:1
                """));
    }

    private List<String> check(String expr, String proxy) {
        ProxyTable proxies = proxies();
        return ProxyArgs.check(TestContext.parse(expr), false, proxies, proxies.find(proxy), "http-request expression in proxy '" + proxy + "'", (a, w) -> null);
    }

    @Test
    void namesThatDoNotResolve() {
        assertThat(check("srv_conn(nosuch/s1)", "f")).containsExactly("unable to find proxy 'nosuch' referenced in arg 1 of sample "
                + "fetch keyword 'srv_conn' in http-request expression in proxy 'f'.");
        assertThat(check("srv_conn(f/s1)", "f")).containsExactly("unable to find proxy 'f' referenced in arg 1 of sample "
                + "fetch keyword 'srv_conn' in http-request expression in proxy 'f'.");
        assertThat(check("srv_conn(b/zz)", "f")).containsExactly("unable to find server 'zz' in proxy 'b', referenced in arg 1 "
                + "of sample fetch keyword 'srv_conn' in http-request expression in proxy 'f'.");
        assertThat(check("fe_conn(nosuch)", "f")).containsExactly("unable to find frontend 'nosuch' referenced in arg 1 of sample "
                + "fetch keyword 'fe_conn' in http-request expression in proxy 'f'.");
        assertThat(check("fe_conn(b)", "f")).containsExactly("unable to find frontend 'b' referenced in arg 1 of sample "
                + "fetch keyword 'fe_conn' in http-request expression in proxy 'f'.");
        assertThat(check("be_conn(f)", "f")).containsExactly("unable to find backend 'f' referenced in arg 1 of sample "
                + "fetch keyword 'be_conn' in http-request expression in proxy 'f'.");
        assertThat(check("srv_conn(s9)", "b")).containsExactly("unable to find server 's9' in proxy 'b', referenced in arg 1 "
                + "of sample fetch keyword 'srv_conn' in http-request expression in proxy 'b'.");
        assertThat(check("srv_conn", "b")).containsExactly("missing server name in arg 1 of sample fetch keyword 'srv_conn' "
                + "in http-request expression in proxy 'b'.");
    }

    @Test
    void leftOutProxiesAreTheCurrentOne() {
        assertThat(check("fe_conn", "b")).containsExactly("proxy 'b', referenced in arg 1 of sample fetch keyword 'fe_conn' in "
                + "http-request expression in proxy 'b', has not frontend capability.");
        assertThat(check("be_conn", "f")).containsExactly("proxy 'f', referenced in arg 1 of sample fetch keyword 'be_conn' in "
                + "http-request expression in proxy 'f', has not backend capability.");
        assertThat(check("be_conn", "b")).isEmpty();
        assertThat(check("fe_conn()", "f")).isEmpty();
        assertThat(check("srv_conn(b/s1)", "f")).isEmpty();
        assertThat(check("srv_is_up(s1)", "b")).isEmpty();
        assertThat(check("req.hdr(host)", "f")).isEmpty();
    }
}
