package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The TLS fields of {@code show info} as handshakes end: full handshakes make keys (SslFrontendKeyRate,
 * SslFrontendMaxKeyRate, SslBackendKeyRate, SslBackendMaxKeyRate), resumed ones none (SslFrontendSessionReuse_pct
 * 100), and a TLS 1.2 client offering a session ID without a ticket makes the bind line look its cache up
 * (SslCacheLookups), a miss when the session is no longer there (SslCacheMisses, with {@code tune.ssl.cachesize 1});
 * {@code clear counters} forgets the highest rates. Passes with -Dit.proxy=haproxy.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class TlsHandshakeCountersIT {
    private static final String[] TLS12 = {"TLSv1.2"};
    private static final String[] TLS13 = {"TLSv1.3"};

    @TempDir
    Path dir;
    private Path admin;
    private int tickets;
    private int noTickets;
    private int plain;

    private FulcrumProcess start() throws Exception {
        String crt = TlsKit.selfSigned(dir, "a", "a.example.com").toString();
        admin = dir.resolve("admin.sock");
        tickets = freePort();
        noTickets = freePort();
        plain = freePort();
        // One thread: HAProxy keeps the session to resume towards a server per thread.
        return TcpProxyKit.serve("""
                global
                    nbthread 1
                    stats socket %s level admin
                    tune.ssl.cachesize 1
                defaults
                    mode http
                    timeout connect 5s
                    timeout client 10s
                    timeout server 10s
                frontend fe
                    bind 127.0.0.1:%d ssl crt %s
                    bind 127.0.0.1:%d ssl crt %s no-tls-tickets
                    http-request return status 200 content-type text/plain lf-string "resumed=%%[ssl_fc_is_resumed]"
                listen out
                    bind 127.0.0.1:%d
                    http-reuse never
                    server s 127.0.0.1:%d ssl verify none
                """.formatted(admin, tickets, crt, noTickets, crt, plain, tickets), plain);
    }

    private Map<String, Long> info() throws Exception {
        Map<String, Long> m = new HashMap<>();
        for (String line : CliClient.send(admin, "show info").split("\n")) {
            int colon = line.indexOf(": ");
            if ((line.startsWith("Ssl") || line.startsWith("MaxSsl")) && colon > 0) {
                m.put(line.substring(0, colon), Long.parseLong(line.substring(colon + 2).trim()));
            }
        }
        return m;
    }

    /** A request on a new connection of {@code ctx} (whose client cache resumes the last session): the body. */
    private String get(SSLContext ctx, String[] protocols) throws Exception {
        try (SSLSocket s = (SSLSocket) ctx.getSocketFactory().createSocket("127.0.0.1", tickets)) {
            s.setSoTimeout(10_000);
            SSLParameters p = s.getSSLParameters();
            p.setProtocols(protocols);
            s.setSSLParameters(p);
            String r = TlsKit.get(s, "/");
            return r.substring(r.indexOf("\r\n\r\n") + 4);
        }
    }

    private String sClient(int port, String... args) throws Exception {
        String out = TlsKit.sClient(dir, port, "GET / HTTP/1.0\r\n\r\n", args);
        assertThat(out).contains("HTTP/1.1 200 OK");
        return out;
    }

    @Test
    void fullHandshakesMakeKeysResumedOnesNone() throws Exception {
        try (FulcrumProcess p = start()) {
            assertThat(info()).containsEntry("SslFrontendKeyRate", 0L).containsEntry("SslFrontendMaxKeyRate", 0L)
                    .containsEntry("SslFrontendSessionReuse_pct", 0L).containsEntry("SslBackendKeyRate", 0L)
                    .containsEntry("SslBackendMaxKeyRate", 0L).containsEntry("SslCacheLookups", 0L).containsEntry("SslCacheMisses", 0L);
            // Full handshakes: a new client context each, then one each for the sessions resumed below.
            for (int i = 0; i < 4; i++) {
                assertThat(get(TlsKit.trustAll(), i % 2 == 0 ? TLS12 : TLS13)).isEqualTo("resumed=0");
            }
            SSLContext ctx12 = TlsKit.trustAll();
            SSLContext ctx13 = TlsKit.trustAll();
            assertThat(get(ctx12, TLS12)).isEqualTo("resumed=0");
            assertThat(get(ctx13, TLS13)).isEqualTo("resumed=0");
            Map<String, Long> full = info();
            assertThat(full.get("SslFrontendKeyRate")).isBetween(1L, 6L);
            assertThat(full.get("SslFrontendMaxKeyRate")).isBetween(1L, 6L);
            assertThat(full).containsEntry("SslFrontendSessionReuse_pct", 0L).containsEntry("SslCacheLookups", 0L);
            Thread.sleep(2100); // the keys leave the last second's rate
            // Resumed handshakes, by tickets: no key, no cache lookup.
            for (int i = 0; i < 3; i++) {
                assertThat(get(ctx12, TLS12)).isEqualTo("resumed=1");
                assertThat(get(ctx13, TLS13)).isEqualTo("resumed=1");
            }
            Map<String, Long> resumed = info();
            assertThat(resumed.get("SslRate")).isPositive();
            assertThat(resumed).containsEntry("SslFrontendKeyRate", 0L).containsEntry("SslFrontendMaxKeyRate", full.get("SslFrontendMaxKeyRate"))
                    .containsEntry("SslFrontendSessionReuse_pct", 100L).containsEntry("SslCacheLookups", 0L)
                    .containsEntry("SslBackendMaxKeyRate", 0L);
            // Towards a server: the first connection makes a key, the next ones resume its session.
            for (int i = 0; i < 3; i++) {
                try (Socket s = new Socket("127.0.0.1", plain)) {
                    s.setSoTimeout(10_000);
                    s.getOutputStream().write("GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                    assertThat(new String(s.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1)).endsWith(i == 0 ? "resumed=0" : "resumed=1");
                }
            }
            Map<String, Long> backend = info();
            assertThat(backend).containsEntry("SslBackendMaxKeyRate", 1L);
            assertThat(backend.get("SslBackendKeyRate")).isBetween(0L, 1L); // (0 when the key's second is nearly over)
            // Either form of clear counters forgets the highest rates.
            assertThat(CliClient.send(admin, "clear counters")).isEqualTo("\n");
            assertThat(info()).containsEntry("MaxSslRate", 0L).containsEntry("SslFrontendMaxKeyRate", 0L).containsEntry("SslBackendMaxKeyRate", 0L);
        }
    }

    @Test
    void sessionIdLookupsAndMisses() throws Exception {
        try (FulcrumProcess p = start()) {
            // New sessions: no ID offered, nothing looked up; the second one takes the only place of the cache.
            assertThat(sClient(noTickets, "-tls1_2", "-sess_out", "s1")).contains("New, TLSv1.2");
            assertThat(sClient(noTickets, "-tls1_2", "-sess_out", "s2")).contains("New, TLSv1.2");
            assertThat(info()).containsEntry("SslCacheLookups", 0L).containsEntry("SslCacheMisses", 0L);
            assertThat(sClient(noTickets, "-tls1_2", "-sess_in", "s2")).contains("Reused, TLSv1.2");
            assertThat(info()).containsEntry("SslCacheLookups", 1L).containsEntry("SslCacheMisses", 0L);
            assertThat(sClient(noTickets, "-tls1_2", "-sess_in", "s1")).contains("New, TLSv1.2");
            assertThat(info()).containsEntry("SslCacheLookups", 2L).containsEntry("SslCacheMisses", 1L);
            // A ticket resumes without a lookup; TLS 1.3 never looks its (legacy) session ID up.
            assertThat(sClient(tickets, "-tls1_2", "-sess_out", "t1")).contains("New, TLSv1.2");
            assertThat(sClient(tickets, "-tls1_2", "-sess_in", "t1")).contains("Reused, TLSv1.2");
            assertThat(sClient(noTickets, "-tls1_3")).contains("New, TLSv1.3");
            assertThat(info()).containsEntry("SslCacheLookups", 2L).containsEntry("SslCacheMisses", 1L);
        }
    }

    /**
     * {@code show stat}'s ssl fields (HAProxy's ssl stats module): full handshakes (ssl_sess), resumed ones
     * (ssl_reused_sess) and failed ones (ssl_failed_handshake), in the frontend and, towards TLS servers, in the server
     * and its backend.
     */
    @Test
    void showStatCountsSessionsResumedOnesAndFailures() throws Exception {
        try (FulcrumProcess p = start()) {
            SSLContext ctx = TlsKit.trustAll();
            for (int i = 0; i < 3; i++) {
                assertThat(get(ctx, TLS12)).isEqualTo(i == 0 ? "resumed=0" : "resumed=1");
            }
            assertThat(get(TlsKit.trustAll(), TLS13)).isEqualTo("resumed=0");
            try (Socket s = new Socket("127.0.0.1", tickets)) { // plain HTTP on the TLS port: a failed handshake
                s.setSoTimeout(10_000);
                s.getOutputStream().write("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                s.getInputStream().readAllBytes();
            }
            // Through "out" to its TLS server (fe itself): a full handshake, then resumed ones, at both ends.
            for (int i = 0; i < 3; i++) {
                try (Socket s = new Socket("127.0.0.1", plain)) {
                    s.setSoTimeout(10_000);
                    s.getOutputStream().write("GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                    assertThat(new String(s.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1)).endsWith(i == 0 ? "resumed=0" : "resumed=1");
                }
            }
            Map<String, Map<String, String>> rows = StatsIT.rows(CliClient.send(admin, "show stat"));
            assertThat(rows.get("fe/FRONTEND")).containsEntry("ssl_sess", "3").containsEntry("ssl_reused_sess", "4")
                    .containsEntry("ssl_failed_handshake", "1");
            for (String row : new String[] {"out/BACKEND", "out/s"}) {
                assertThat(rows.get(row)).as(row).containsEntry("ssl_sess", "1").containsEntry("ssl_reused_sess", "2")
                        .containsEntry("ssl_failed_handshake", "0");
            }
            assertThat(rows.get("out/FRONTEND")).containsEntry("ssl_sess", "0").containsEntry("ssl_reused_sess", "0");
        }
    }
}
