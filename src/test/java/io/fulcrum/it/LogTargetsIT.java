package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import javax.net.ssl.SSLSocket;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;

import static io.fulcrum.it.HttpKit.get;
import static io.fulcrum.it.LogIT.like;
import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Log targets and formats LogIT leaves out, as a syslog server and the proxy's stderr receive them: UDP syslog to
 * an IPv6 address (both spellings), {@code log stderr}, the {@code iso} and {@code timed} formats, {@code sample},
 * {@code no log} in a proxy and the {@code option httpslog} line over TLS and without. Passes with -Dit.proxy=haproxy.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class LogTargetsIT {

    /** An ISO 8601 date with microseconds and the zone's offset, as the iso and timed formats write it. */
    private static final String ISO = "\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{6}[+-]\\d{2}:\\d{2}";

    /** A frontend "fe" on {@code fe} logging "%HU %ST" to the global {@code log} lines, its backend one server on {@code be}. */
    private static String config(String logLines, int fe, int be) {
        return """
                global
                %s
                defaults
                    mode http
                    log global
                    timeout connect 2s
                    timeout client 10s
                    timeout server 10s
                frontend fe
                    bind 127.0.0.1:%d
                    log-format "%%HU %%ST"
                    default_backend be
                backend be
                    server s1 127.0.0.1:%d
                """.formatted(logLines.indent(4), fe, be);
    }

    /** {@code [::1]:port} and {@code ipv6@::1:port} are UDP targets on IPv6; stderr gets the raw line. */
    @Test
    void ipv6TargetsInIsoAndTimedFormatsAndStderr() throws Exception {
        int fe = freePort();
        InetAddress v6 = InetAddress.getByName("::1");
        try (SyslogListener iso = SyslogListener.open(v6);
             SyslogListener timed = SyslogListener.open(v6);
             HttpOrigin origin = HttpOrigin.ok("ok")) {
            String logs = "log [::1]:%d format iso local0\nlog ipv6@::1:%d format timed local1\nlog stderr format raw local2"
                    .formatted(iso.port(), timed.port());
            try (FulcrumProcess proxy = HttpKit.serve(config(logs, fe, origin.port()), fe);
                 HttpClientConn c = HttpClientConn.open(fe)) {
                assertThat(c.exchange(get("/v6")).status()).isEqualTo(200);
                assertThat(iso.next()).matches(ISO + " /v6 200\n");
                // timed: the level alone in the PRI (info), then the iso date
                assertThat(timed.next()).matches("<6>" + ISO + " /v6 200\n");
                awaitLine(proxy, "/v6 200");
            }
        }
    }

    /** Waits until the proxy's stderr has {@code line} as a whole line. */
    private static void awaitLine(FulcrumProcess proxy, String line) throws InterruptedException {
        for (int i = 0; i < 200 && proxy.stderr().lines().noneMatch(line::equals); i++) {
            Thread.sleep(50);
        }
        assertThat(proxy.stderr().lines()).contains(line);
    }

    /** {@code sample 2,4-5:6}: of each run of 6 messages the target sends the 2nd, the 4th and the 5th. */
    @Test
    void sampleSendsThePositionsOfItsRanges() throws Exception {
        int fe = freePort();
        try (SyslogListener all = SyslogListener.open();
             SyslogListener sampled = SyslogListener.open();
             HttpOrigin origin = HttpOrigin.ok("ok")) {
            String logs = "log 127.0.0.1:%d format raw local0\nlog 127.0.0.1:%d format raw sample 2,4-5:6 local0"
                    .formatted(all.port(), sampled.port());
            try (FulcrumProcess proxy = HttpKit.serve(config(logs, fe, origin.port()), fe);
                 HttpClientConn c = HttpClientConn.open(fe)) {
                for (int i = 1; i <= 9; i++) {
                    assertThat(c.exchange(get("/" + i)).status()).isEqualTo(200);
                    assertThat(all.next()).isEqualTo("/" + i + " 200\n"); // one at a time: the order is the requests'
                }
                for (int i : new int[] {2, 4, 5, 8}) {
                    assertThat(sampled.next()).isEqualTo("/" + i + " 200\n");
                }
                sampled.assertNone(300);
            }
        }
    }

    /** {@code no log} in a frontend undoes the {@code log global} of its defaults: its transactions are not logged. */
    @Test
    void noLogInAProxy() throws Exception {
        int fe = freePort();
        int quiet = freePort();
        try (SyslogListener logs = SyslogListener.open();
             HttpOrigin origin = HttpOrigin.ok("ok")) {
            String config = config("log 127.0.0.1:" + logs.port() + " format raw local0", fe, origin.port()) + """
                    frontend quiet
                        bind 127.0.0.1:%d
                        no log
                        log-format "%%HU %%ST"
                        default_backend be
                    """.formatted(quiet);
            try (FulcrumProcess proxy = HttpKit.serve(config, fe)) {
                TcpProxyKit.awaitListening(proxy, TcpProxyKit.LOCALHOST, quiet, java.time.Duration.ofSeconds(20));
                try (HttpClientConn c = HttpClientConn.open(quiet)) {
                    assertThat(c.exchange(get("/quiet")).status()).isEqualTo(200);
                }
                try (HttpClientConn c = HttpClientConn.open(fe)) {
                    assertThat(c.exchange(get("/logged")).status()).isEqualTo(200);
                }
                assertThat(logs.next()).isEqualTo("/logged 200\n");
                logs.assertNone(300);
            }
        }
    }

    /**
     * option httpslog: httplog, '~' after a TLS frontend's name, the connection's and the handshake's errors (none),
     * resumed or not, SNI, version and cipher; without TLS the TLS fields have no value, the resumption 0.
     */
    @Test
    void httpslogOverTlsAndWithout() throws Exception {
        int tls = freePort();
        int plain = freePort();
        Path dir = Files.createTempDirectory("fulcrum-httpslog");
        Path cert = TlsKit.selfSigned(dir, "site", "site.example");
        try (SyslogListener logs = SyslogListener.open();
             HttpOrigin origin = HttpOrigin.ok("ok")) {
            String config = """
                    global
                        log 127.0.0.1:%d format raw local0
                    defaults
                        mode http
                        log global
                        option httpslog
                        timeout connect 2s
                        timeout client 10s
                        timeout server 10s
                    frontend tls
                        bind 127.0.0.1:%d ssl crt %s
                        default_backend be
                    frontend plain
                        bind 127.0.0.1:%d
                        default_backend be
                    backend be
                        server s1 127.0.0.1:%d
                    """.formatted(logs.port(), tls, cert, plain, origin.port());
            try (FulcrumProcess proxy = HttpKit.serve(config, tls)) {
                TcpProxyKit.awaitListening(proxy, TcpProxyKit.LOCALHOST, plain, java.time.Duration.ofSeconds(20));
                try (SSLSocket s = TlsKit.connect(tls, "sni.example", new String[] {"TLSv1.3"})) {
                    assertThat(TlsKit.get(s, "/secure")).startsWith("HTTP/1.1 200");
                }
                assertThat(logs.next()).matches(like("127.0.0.1:{N} [{DATE}] tls~ be/s1 {N}/{N}/{N}/{N}/{N} 200 {N} - - ---- 1/1/0/0/0 0/0 "
                        + "\"GET /secure HTTP/1.1\" 0/0000000000000000/0/0/0 sni.example/TLSv1.3/") + "TLS_[A-Z0-9_]+\n");
                try (HttpClientConn c = HttpClientConn.open(plain)) {
                    assertThat(c.exchange(get("/clear")).status()).isEqualTo(200);
                }
                assertThat(logs.next()).matches(like("127.0.0.1:{N} [{DATE}] plain be/s1 {N}/{N}/{N}/{N}/{N} 200 {N} - - ---- 1/1/0/0/0 0/0 "
                        + "\"GET /clear HTTP/1.1\" 0/-/-/-/0 -/-/-\n"));
            }
        }
    }
}
