package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static io.fulcrum.it.HttpKit.get;
import static io.fulcrum.it.TcpProxyKit.freePort;
import static io.fulcrum.it.TcpProxyKit.serve;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code last_rule_file}/{@code last_rule_line} (the rule that gave the final verdict, in the log line) and the
 * dotted-version patterns of {@code req.ssl_ver} ACLs (3.3 is TLS 1.2, the version a JDK ClientHello asks for), over
 * real sockets. The log lines are haproxy 2.6's (-Dit.proxy=haproxy).
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class RuleFetchesIT {

    /** The 1-based line of the configuration holding {@code marker}. */
    private static int lineOf(String config, String marker) {
        return config.substring(0, config.indexOf(marker)).split("\n", -1).length;
    }

    @Test
    void theLogNamesTheRuleThatDecidedAndVersionsMatchAsDottedNumbers() throws Exception {
        int http = freePort();
        int tcp = freePort();
        Path versions = Files.createTempFile("fulcrum-versions", ".lst");
        Files.writeString(versions, "3.1\n3.3:3.4\n"); // dotted in a file too
        try (HttpOrigin app = HttpOrigin.ok("app")) {
            String config = """
                    global
                        log stdout format raw local0
                    defaults
                        mode http
                        log global
                        log-format "http %%[last_rule_line] %%[last_rule_file,word(-1,.)] %%ST"
                        timeout connect 2s
                        timeout client 10s
                        timeout server 10s
                    frontend fe
                        bind 127.0.0.1:%d
                        http-request set-var(txn.p) path
                        http-request deny if { path /deny }
                        http-request return status 200 if { path /return }
                        http-request set-var(txn.a) str(1)
                        default_backend be
                    backend be
                        http-response deny if { var(txn.p) -m str /refused }
                        server s1 127.0.0.1:%d
                    frontend tls
                        mode tcp
                        bind 127.0.0.1:%d
                        log-format "tcp %%[var(sess.v)] %%[last_rule_line]"
                        tcp-request inspect-delay 5s
                        acl v31 req.ssl_ver 3.1
                        acl v33 req.ssl_ver 3.3
                        acl modern req.ssl_ver ge 3.1 3.3:3.4
                        acl listed req_ssl_ver -f %s
                        tcp-request content set-var(sess.v) str(v31) if v31
                        tcp-request content set-var(sess.v) str(v33) if v33 modern listed
                        tcp-request content reject
                    """.formatted(http, app.port(), tcp, versions);
            try (FulcrumProcess proxy = serve(config, http);
                 HttpClientConn c = HttpClientConn.open(http)) {
                assertThat(c.exchange(get("/deny")).status()).isEqualTo(403);
                assertThat(c.exchange(get("/return")).status()).isEqualTo(200);
                assertThat(c.exchange(get("/refused")).status()).isEqualTo(502);
                assertThat(c.exchange(get("/other")).status()).isEqualTo(200);
                assertThat(TcpResponseIT.logLines(proxy, "http ", 4)).containsExactly(
                        "http " + lineOf(config, "deny if { path /deny") + " cfg 403",
                        "http " + lineOf(config, "return status 200") + " cfg 200",
                        "http " + lineOf(config, "deny if { var(txn.p)") + " cfg 502",
                        "http - - 200");
                SSLContext tls = SSLContext.getInstance("TLS");
                tls.init(null, null, null);
                try (SSLSocket s = (SSLSocket) tls.getSocketFactory().createSocket("127.0.0.1", tcp)) {
                    s.setSoTimeout(10_000);
                    s.startHandshake();
                    throw new AssertionError("the handshake went through a proxy that rejects every session");
                } catch (IOException expected) {
                    // rejected by the last rule
                }
                assertThat(TcpResponseIT.logLines(proxy, "tcp ", 1))
                        .isEqualTo(List.of("tcp v33 " + lineOf(config, "tcp-request content reject")));
            }
        } finally {
            Files.delete(versions);
        }
    }
}
