package io.fulcrum.it;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;

import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code no-tls-tickets} as openssl s_client sees it, next to a bind line without it: no ticket in TLS 1.2 (the
 * session resumes by its id from the cache) nor in TLS 1.3. HAProxy's OpenSSL sends TLS 1.3 tickets that only name a
 * session of its cache, which resume; BoringSSL has no such tickets: Fulcrum's TLS 1.3 sessions do not resume then
 * (docs/differences.md). Passes with -Dit.proxy=haproxy.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class TlsNoTicketsIT {
    private static final Pattern TICKET = Pattern.compile("TLS session ticket:");
    private static final Pattern SESSION_ID = Pattern.compile("Session-ID: ([0-9A-F]*)");
    private static Path dir;
    private static int tickets;
    private static int noTickets;
    private static FulcrumProcess proxy;

    @BeforeAll
    static void start() throws Exception {
        dir = Files.createTempDirectory("fulcrum-notickets");
        String crt = TlsKit.selfSigned(dir, "a", "a.example.com").toString();
        tickets = freePort();
        noTickets = freePort();
        proxy = TcpProxyKit.serve("""
                defaults
                    mode http
                    timeout client 10s
                frontend fe
                    bind 127.0.0.1:%d ssl crt %s
                    bind 127.0.0.1:%d ssl crt %s no-tls-tickets
                    http-request return status 200 content-type text/plain lf-string "resumed=%%[ssl_fc_is_resumed] id=%%[ssl_fc_session_id,hex]."
                """.formatted(tickets, crt, noTickets, crt), noTickets);
    }

    @AfterAll
    static void stop() throws Exception {
        proxy.close();
    }

    private static String sClient(int port, String... args) throws Exception {
        String out = TlsKit.sClient(dir, port, "GET / HTTP/1.0\r\n\r\n", args);
        assertThat(out).contains("HTTP/1.1 200 OK");
        return out;
    }

    /** The session ID s_client shows (the first, in TLS 1.3 the session of the first ticket). */
    private static String sessionId(String out) {
        java.util.regex.Matcher m = SESSION_ID.matcher(out);
        assertThat(m.find()).as(out).isTrue();
        return m.group(1);
    }

    private static long tickets(String out) {
        return TICKET.matcher(out).results().count();
    }

    @Test
    void tls12ResumesByTheSessionIdWithoutTickets() throws Exception {
        String first = sClient(noTickets, "-tls1_2", "-sess_out", "s12");
        assertThat(tickets(first)).isZero();
        assertThat(first).containsPattern("Session-ID: [0-9A-F]{64}");
        // ssl_fc_session_id: the session's, which the client offers again.
        String id = sessionId(first);
        assertThat(first).contains("id=" + id + ".");
        assertThat(sClient(noTickets, "-tls1_2", "-sess_in", "s12")).contains("Reused, TLSv1.2").contains("resumed=1").contains("id=" + id + ".");
        // The default: a ticket, and it resumes. The new session has no ID; a resumed one, the ID the client offered.
        assertThat(tickets(sClient(tickets, "-tls1_2", "-no_ticket"))).isZero();
        String ticketed = sClient(tickets, "-tls1_2", "-sess_out", "t12");
        assertThat(tickets(ticketed)).isOne();
        assertThat(ticketed).contains("id=.");
        String resumed = sClient(tickets, "-tls1_2", "-sess_in", "t12");
        assertThat(resumed).contains("Reused, TLSv1.2").contains("id=" + sessionId(resumed) + ".");
    }

    @Test
    void tls13() throws Exception {
        // The default: two stateless tickets, which resume.
        assertThat(tickets(sClient(tickets, "-tls1_3", "-sess_out", "t13"))).isEqualTo(2);
        String resumed = sClient(tickets, "-tls1_3", "-sess_in", "t13");
        assertThat(resumed).contains("Reused, TLSv1.3").contains("resumed=1");
        // ssl_fc_session_id: OpenSSL's server makes 32 random bytes for each session, a resumed one too, which the
        // client never sees; BoringSSL's TLS 1.3 sessions have none (docs/differences.md).
        assertThat(resumed).containsPattern(TcpProxyKit.haproxy() ? "id=[0-9A-F]{64}\\." : "id=\\.").doesNotContain("id=" + sessionId(resumed));
        String first = sClient(noTickets, "-tls1_3", "-sess_out", "s13");
        if (TcpProxyKit.haproxy()) {
            // OpenSSL's stateful tickets: the id of a session in the cache (their lifetime is the cache's, 7200 s).
            assertThat(first).contains("TLS session ticket lifetime hint: 7200 (seconds)");
            assertThat(sClient(noTickets, "-tls1_3", "-sess_in", "s13")).contains("Reused, TLSv1.3");
        } else {
            assertThat(tickets(first)).isZero();
            assertThat(first).doesNotContain("TLS session ticket lifetime hint");
            if (Files.exists(dir.resolve("s13"))) {
                assertThat(sClient(noTickets, "-tls1_3", "-sess_in", "s13")).contains("New, TLSv1.3").contains("resumed=0");
            }
        }
    }
}
