package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import static io.fulcrum.it.TcpProxyKit.connect;
import static io.fulcrum.it.TcpProxyKit.freePort;
import static io.fulcrum.it.TcpProxyKit.readToEof;
import static io.fulcrum.it.TcpProxyKit.send;
import static io.fulcrum.it.TcpProxyKit.serve;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * CumReq in {@code show info} counts streams, as HAProxy's request counter does: each TCP session, each HTTP request
 * whose head was read, each CLI connection, and each line logged for a connection that began no stream (a bad
 * request); a request refused by the HTTP parser without a log line counts in the frontend's req_tot only. The
 * counter's draws are %rt. Also runs against HAProxy 2.6 (-Dit.proxy=haproxy).
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class StreamCountIT {

    @Test
    void cumReqCountsEveryStream() throws Exception {
        int tcp = freePort();
        int http = freePort();
        int quiet = freePort();
        Path sock = Files.createTempDirectory("fulcrum-cumreq").resolve("s.sock");
        String config = """
                global
                    stats socket %s level admin
                defaults
                    timeout connect 2s
                    timeout client 5s
                    timeout server 5s
                frontend ft
                    mode tcp
                    bind 127.0.0.1:%d
                    log stdout format raw local0
                    log-format "rt=%%rt tcp"
                    default_backend echo
                frontend fh
                    mode http
                    bind 127.0.0.1:%d
                    log stdout format raw local0
                    log-format "rt=%%rt %%ST %%r"
                    http-request return status 200 content-type text/plain string ok if { path /ok }
                    default_backend down
                frontend fq
                    mode http
                    bind 127.0.0.1:%d
                    http-request return status 200 content-type text/plain string ok
                backend echo
                    mode tcp
                    server s1 127.0.0.1:%d
                backend down
                    mode http
                    server s1 127.0.0.1:%d
                """;
        try (Origin origin = Origin.start(Origin.ECHO);
             FulcrumProcess proxy = serve(config.formatted(sock, tcp, http, quiet, origin.port(), FulcrumProcess.refusedPort()), http)) {
            TcpProxyKit.awaitListening(proxy, TcpProxyKit.LOCALHOST, quiet, java.time.Duration.ofSeconds(10));
            assertThat(cumReq(sock)).isEqualTo(1); // the CLI connection asking
            try (Socket s = connect(tcp)) {
                assertThat(TcpProxyKit.echo(s, "hello")).isEqualTo("hello");
            }
            connect(tcp).close(); // a session without a byte is a stream too
            assertThat(answer(http, "GET /ok HTTP/1.1\r\nHost: a\r\n\r\nGET /ok HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n"))
                    .startsWith("HTTP/1.1 200");
            assertThat(answer(http, "BAD\r\n\r\n")).startsWith("HTTP/1.1 400"); // no stream, a logged line
            assertThat(answer(quiet, "BAD\r\n\r\n")).startsWith("HTTP/1.1 400"); // no stream, no line: not counted
            assertThat(answer(http, "GET /x HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")).startsWith("HTTP/1.1 503");
            awaitLines(proxy, 6);
            assertThat(cumReq(sock)).isEqualTo(8);
            // Each stream draws one number; which one the session without a byte draws depends on when its loop
            // accepts it, racing with the next connection's (in haproxy too).
            List<String> lines = lines(proxy);
            assertThat(lines).map(l -> l.substring(0, l.indexOf(' '))).containsExactlyInAnyOrder("rt=1", "rt=2", "rt=3", "rt=4", "rt=5", "rt=6");
            assertThat(lines).map(l -> l.substring(l.indexOf(' ') + 1)).containsExactlyInAnyOrder("tcp", "tcp",
                    "200 GET /ok HTTP/1.1", "200 GET /ok HTTP/1.1", "400 <BADREQ>", "503 GET /x HTTP/1.1");
            assertThat(lines).as("the HTTP streams in their order")
                    .filteredOn(l -> !l.endsWith(" tcp")).map(l -> l.substring(l.indexOf(' ') + 1))
                    .containsExactly("200 GET /ok HTTP/1.1", "200 GET /ok HTTP/1.1", "400 <BADREQ>", "503 GET /x HTTP/1.1");
            String stat = CliClient.send(sock, "show stat");
            assertThat(stat).contains("\nft,FRONTEND,", "\nfh,FRONTEND,", "\nfq,FRONTEND,");
            assertThat(field(stat, "ft", "req_tot")).isEqualTo("0");
            assertThat(field(stat, "fh", "req_tot")).isEqualTo("4");
            assertThat(field(stat, "fq", "req_tot")).isEqualTo("1");
        }
    }

    private static String answer(int port, String request) throws Exception {
        try (Socket s = connect(port)) {
            send(s, request);
            s.shutdownOutput();
            return readToEof(s, 1 << 16);
        }
    }

    private static long cumReq(Path sock) throws Exception {
        String info = CliClient.send(sock, "show info");
        return Long.parseLong(info.lines().filter(l -> l.startsWith("CumReq: ")).findFirst().orElseThrow().substring(8));
    }

    /** The value of {@code name} in the FRONTEND row of {@code proxy}. */
    private static String field(String csv, String proxy, String name) {
        List<String> header = Arrays.asList(csv.lines().findFirst().orElseThrow().substring(2).split(",", -1));
        String row = csv.lines().filter(l -> l.startsWith(proxy + ",FRONTEND,")).findFirst().orElseThrow();
        return row.split(",", -1)[header.indexOf(name)];
    }

    private static List<String> lines(FulcrumProcess p) {
        return p.stdout().lines().filter(l -> l.startsWith("rt=")).toList();
    }

    private static void awaitLines(FulcrumProcess p, int n) throws InterruptedException {
        for (int i = 0; i < 100 && lines(p).size() < n; i++) {
            Thread.sleep(50);
        }
    }
}
