package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.net.ConnectException;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;

import static io.fulcrum.it.HttpKit.get;
import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code disable|enable|shutdown frontend} and {@code set maxconn}: what clients then see, what the stats say. */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class FrontendCommandsIT {

    @Test
    void aDisabledFrontendRefusesConnectionsUntilEnabledAndAShutDownOneForGood() throws Exception {
        Path sock = Files.createTempDirectory("fulcrum-fe").resolve("s.sock");
        int fe = freePort();
        try (FulcrumProcess p = serve(sock, fe)) {
            assertThat(CliClient.send(sock, "disable frontend fe")).isEqualTo("\n");
            assertThat(CliClient.send(sock, "disable frontend fe")).isEqualTo("All sockets are already disabled.\n\n");
            assertThat(StatsIT.rows(CliClient.send(sock, "show stat")).get("fe/FRONTEND")).containsEntry("status", "PAUSED");
            assertThatThrownBy(() -> new Socket("127.0.0.1", fe).close()).as("the socket no longer listens")
                    .isInstanceOf(ConnectException.class);
            assertThat(CliClient.send(sock, "enable frontend fe;enable frontend fe")).isEqualTo("\nAll sockets are already enabled.\n\n");
            try (HttpClientConn c = HttpClientConn.open(fe)) {
                c.send(get("/"));
                assertThat(c.read().status()).isEqualTo(200);
            }
            assertThat(CliClient.send(sock, "set maxconn frontend fe 7;set maxconn frontend fe;set maxconn frontend nope 3"))
                    .isEqualTo("\nInteger value expected.\n\nNo such frontend.\n\n");
            assertThat(StatsIT.rows(CliClient.send(sock, "show stat")).get("fe/FRONTEND")).containsEntry("slim", "7");
            assertThat(CliClient.send(sock, "set maxconn global 99999999;set maxconn global"))
                    .isEqualTo("Value out of range.\n\nExpects an integer value.\n\n");
            // 0 or a negative value: the limit at start (HAProxy's "unlimited")
            String hard = info(CliClient.send(sock, "show info"), "Hard_maxconn");
            assertThat(CliClient.send(sock, "set maxconn global 50;set maxconn global -1")).isEqualTo("\n\n");
            assertThat(info(CliClient.send(sock, "show info"), "Maxconn")).isEqualTo(hard);
            assertThat(CliClient.send(sock, "shutdown frontend fe;shutdown frontend fe;enable frontend fe"))
                    .isEqualTo("\nFrontend was already shut down.\n\nFrontend was previously shut down, cannot enable.\n\n");
            assertThat(StatsIT.rows(CliClient.send(sock, "show stat")).get("fe/FRONTEND")).containsEntry("status", "STOP");
            assertThatThrownBy(() -> connectWithin(fe)).isInstanceOf(ConnectException.class);
        }
    }

    /** {@code set maxconn frontend <fe> 0} is a limit of 0, not "none": show stat says slim 0, new connections wait. */
    @Test
    void aFrontendMaxconnOfZeroAdmitsNothing() throws Exception {
        Path sock = Files.createTempDirectory("fulcrum-fe").resolve("s.sock");
        int fe = freePort();
        try (FulcrumProcess p = serve(sock, fe)) {
            assertThat(CliClient.send(sock, "set maxconn frontend fe 0")).isEqualTo("\n");
            assertThat(StatsIT.rows(CliClient.send(sock, "show stat")).get("fe/FRONTEND")).containsEntry("slim", "0");
            try (HttpClientConn held = HttpClientConn.open(fe)) { // waits in the backlog
                held.send(get("/"));
                held.assertSilent(500, "a frontend at maxconn 0");
                // haproxy 2.6.12 aborts (its watchdog) when the limit is raised after a connection waited
                if (!TcpProxyKit.haproxy()) {
                    assertThat(CliClient.send(sock, "set maxconn frontend fe 7")).isEqualTo("\n");
                    assertThat(held.read().status()).isEqualTo(200);
                }
            }
        }
    }

    /**
     * A frontend at its maxconn, or paused, is still up as HAProxy 2.6 reports it: show stat says OPEN (then PAUSED),
     * never FULL (a listener's status), and the exporter says UP for both.
     */
    @Test
    void aFullOrPausedFrontendIsStillUp() throws Exception {
        Path sock = Files.createTempDirectory("fulcrum-fe").resolve("s.sock");
        int fe = freePort();
        int metrics = freePort();
        try (FulcrumProcess p = TcpProxyKit.serve("""
                global
                    stats socket %s level admin
                defaults
                    mode http
                    timeout client 10s
                frontend fe
                    bind 127.0.0.1:%d
                    maxconn 1
                    http-request return status 200 content-type text/plain string ok
                frontend metrics
                    bind 127.0.0.1:%d
                    http-request use-service prometheus-exporter
                """.formatted(sock, fe, metrics), fe);
             HttpClientConn held = HttpClientConn.open(fe);
             HttpClientConn scraper = openWhenListening(p, metrics)) {
            assertThat(held.exchange(get("/")).status()).isEqualTo(200); // kept alive: it holds fe's one slot
            assertThat(StatsIT.rows(CliClient.send(sock, "show stat")).get("fe/FRONTEND")).containsEntry("scur", "1")
                    .containsEntry("slim", "1").containsEntry("status", "OPEN");
            assertThat(up(scraper)).isEqualTo(1);
            assertThat(CliClient.send(sock, "disable frontend fe")).isEqualTo("\n");
            assertThat(StatsIT.rows(CliClient.send(sock, "show stat")).get("fe/FRONTEND")).containsEntry("status", "PAUSED");
            assertThat(up(scraper)).isEqualTo(1);
            assertThat(CliClient.send(sock, "shutdown frontend fe")).isEqualTo("\n");
            assertThat(up(scraper)).isEqualTo(0);
        }
    }

    /** A connection to the process's second frontend: serve() waited for the first one's port only. */
    private static HttpClientConn openWhenListening(FulcrumProcess p, int port) throws Exception {
        TcpProxyKit.awaitListening(p, "127.0.0.1", port, java.time.Duration.ofSeconds(20));
        return HttpClientConn.open(port);
    }

    /** haproxy_frontend_status{proxy="fe",state="UP"} of a scrape. */
    private static double up(HttpClientConn scraper) throws Exception {
        PromText m = PromText.parse(scraper.exchange(get("/metrics")).bodyText());
        return m.value("haproxy_frontend_status", java.util.Map.of("proxy", "fe", "state", "UP"));
    }

    /** A frontend "fe" on {@code port} that answers 200 itself, and an admin stats socket. */
    private static FulcrumProcess serve(Path sock, int port) throws Exception {
        return TcpProxyKit.serve("""
                global
                    stats socket %s level admin
                defaults
                    mode http
                    timeout client 10s
                frontend fe
                    bind 127.0.0.1:%d
                    http-request return status 200 content-type text/plain string ok
                """.formatted(sock, port), port);
    }

    private static String info(String showInfo, String field) {
        return showInfo.lines().filter(l -> l.startsWith(field + ": ")).findFirst().orElseThrow().substring(field.length() + 2);
    }

    private static void connectWithin(int port) throws IOException, InterruptedException {
        for (int i = 0; i < 50; i++) { // the socket closes on its event loop, just after the answer
            new Socket("127.0.0.1", port).close();
            Thread.sleep(20);
        }
    }
}
