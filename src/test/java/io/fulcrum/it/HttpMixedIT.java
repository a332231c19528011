package io.fulcrum.it;

import io.fulcrum.it.HttpClientConn.Response;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.net.Socket;
import java.util.List;

import static io.fulcrum.it.HttpKit.get;
import static io.fulcrum.it.HttpKit.serve;
import static io.fulcrum.it.TcpProxyKit.connect;
import static io.fulcrum.it.TcpProxyKit.echo;
import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code mode http} next to {@code mode tcp} in one process, and the PROXY protocol around HTTP: received on an
 * {@code accept-proxy} bind, sent to a {@code send-proxy} server.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class HttpMixedIT {

    @Test
    void tcpAndHttpFrontendsInOneProcess() throws Exception {
        int tcpFe = freePort();
        int httpFe = freePort();
        try (Origin echoOrigin = Origin.start(Origin.ECHO);
             HttpOrigin web = HttpOrigin.start(x -> x.readBody().reply(200, "web " + x.target()));
             FulcrumProcess proxy = serve("""
                     defaults
                         timeout connect 2s
                         timeout client 10s
                         timeout server 10s

                     frontend raw
                         mode tcp
                         bind 127.0.0.1:%d
                         default_backend echo

                     backend echo
                         mode tcp
                         server e1 127.0.0.1:%d

                     frontend www
                         mode http
                         bind 127.0.0.1:%d
                         default_backend web

                     backend web
                         mode http
                         server w1 127.0.0.1:%d
                     """.formatted(tcpFe, echoOrigin.port(), httpFe, web.port()), httpFe);
             Socket raw = connect(tcpFe);
             HttpClientConn http = HttpClientConn.open(httpFe)) {
            // HTTP-looking bytes through the tcp frontend are bytes: echoed as they are, not parsed.
            String notParsed = "GET / HTTP/1.1\r\nBad Field: x\r\n\r\n";
            assertThat(echo(raw, notParsed)).isEqualTo(notParsed);
            assertThat(http.exchange(get("/one")).bodyText()).isEqualTo("web /one");
            assertThat(echo(raw, "ping")).isEqualTo("ping");
            assertThat(http.exchange(get("/two")).bodyText()).isEqualTo("web /two");
            // And the http frontend does parse: a bad request there is a 400.
            http.send(notParsed);
            assertThat(http.read().status()).isEqualTo(400);
        }
    }

    /** A {@code listen} section in mode http works like a frontend/backend pair. */
    @Test
    void listenSectionInModeHttp() throws Exception {
        int fe = freePort();
        try (HttpOrigin web = HttpOrigin.ok("listen");
             FulcrumProcess proxy = serve("""
                     listen www
                         mode http
                         timeout connect 2s
                         timeout client 10s
                         timeout server 10s
                         bind 127.0.0.1:%d
                         server w1 127.0.0.1:%d
                     """.formatted(fe, web.port()), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            assertThat(c.exchange(get("/")).bodyText()).isEqualTo("listen");
        }
    }

    private static String proxyConfig(int fe, int be, String serverOptions) {
        return """
                defaults
                    mode http
                    timeout connect 2s
                    timeout client 10s
                    timeout server 10s

                frontend fe
                    bind 127.0.0.1:%d accept-proxy
                    default_backend be

                backend be
                    server s1 127.0.0.1:%d %s
                """.formatted(fe, be, serverOptions);
    }

    /** accept-proxy: the PROXY header, then HTTP, even in the same segment or in a later one. */
    @Test
    void acceptProxyOnAnHttpBind() throws Exception {
        int fe = freePort();
        try (HttpOrigin origin = HttpOrigin.start(x -> x.reply(200, x.connection + "#" + x.index));
             FulcrumProcess proxy = serve(proxyConfig(fe, origin.port(), ""), fe)) {
            try (HttpClientConn c = HttpClientConn.open(fe)) {
                c.send("PROXY TCP4 192.0.2.1 192.0.2.2 40000 80\r\n" + get("/a"));
                assertThat(c.read().bodyText()).isEqualTo("1#1");
                assertThat(c.exchange(get("/b")).bodyText()).isEqualTo("1#2");
            }
            try (HttpClientConn c = HttpClientConn.open(fe)) {
                c.send("PROXY TCP4 198.51.100.7 192.0.2.2 40001 80\r\n");
                Thread.sleep(100);
                assertThat(c.exchange(get("/c")).status()).isEqualTo(200);
            }
        }
    }

    /**
     * The addresses of the PROXY header received are those sent to a {@code send-proxy} server, and one
     * client's server connection is never given to another (HAProxy keys reusable connections on them).
     */
    @Test
    void acceptProxyAddressesGoToSendProxy() throws Exception {
        int fe = freePort();
        try (HttpOrigin origin = HttpOrigin.withProxyProtocol(x -> x.reply(200, x.connection + "#" + x.index));
             FulcrumProcess proxy = serve("global\n    nbthread 1\n" + proxyConfig(fe, origin.port(), "send-proxy"), fe)) {
            try (HttpClientConn c = HttpClientConn.open(fe)) {
                c.send("PROXY TCP4 192.0.2.1 192.0.2.2 40000 80\r\n" + get("/a"));
                assertThat(c.read().bodyText()).isEqualTo("1#1");
                assertThat(c.exchange(get("/b")).bodyText()).isEqualTo("1#2");
            }
            try (HttpClientConn c = HttpClientConn.open(fe)) {
                c.send("PROXY TCP4 198.51.100.7 192.0.2.2 40001 80\r\n" + get("/c"));
                assertThat(c.read().bodyText()).isEqualTo("2#1");
            }
            assertThat(origin.proxyLines()).containsExactly(
                    "1 PROXY TCP4 192.0.2.1 192.0.2.2 40000 80",
                    "2 PROXY TCP4 198.51.100.7 192.0.2.2 40001 80");
        }
    }

    /**
     * A PROXY v2 header carrying the request's unique ID holds for that request only: the next request of the
     * client gets a connection of its own (HAProxy's proxy_protocol_send_unique_id.vtc).
     */
    @Test
    void aUniqueIdInTheProxyHeaderIsTheRequestsOwn() throws Exception {
        int fe = freePort();
        try (HttpOrigin origin = HttpOrigin.withProxyProtocol(x -> x.reply(200, x.connection + "#" + x.index));
             FulcrumProcess proxy = serve(HttpKit.config("127.0.0.1:" + fe, "unique-id-format TEST-%[req.hdr(in)]", "", origin.port())
                     .replace(":" + origin.port() + "\n", ":" + origin.port() + " send-proxy-v2 proxy-v2-options unique-id\n"), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            assertThat(c.exchange("GET / HTTP/1.1\r\nHost: a\r\nin: foo\r\n\r\n").bodyText()).isEqualTo("1#1");
            assertThat(c.exchange("GET / HTTP/1.1\r\nHost: a\r\nin: bar\r\n\r\n").bodyText()).isEqualTo("2#1");
            String hex = java.util.HexFormat.of().formatHex("TEST-".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            assertThat(origin.proxyLines()).hasSize(2);
            assertThat(origin.proxyLines().get(0)).endsWith("050008" + hex + "666f6f");
            assertThat(origin.proxyLines().get(1)).endsWith("050008" + hex + "626172");
        }
    }

    /**
     * send-proxy: each server connection's PROXY header names the client whose requests it carries; one
     * client's idle server connection is not given to another client (one event loop, so that both clients
     * share its pool of idle connections).
     */
    @Test
    void sendProxyConnectionsAreNotShared() throws Exception {
        int fe = freePort();
        try (HttpOrigin origin = HttpOrigin.withProxyProtocol(x -> x.reply(200, x.connection + "#" + x.index));
             FulcrumProcess proxy = serve(sendProxyConfig(fe, "server s1 127.0.0.1:" + origin.port() + " send-proxy"), fe)) {
            // Two clients taking turns, so that each one's server connection is idle when the other sends
            // (with safe reuse, only the first request of a client connection is sure to get a new one).
            // For each client: its port, and the origin connections its requests came on.
            java.util.Map<Integer, java.util.Set<String>> used = new java.util.HashMap<>();
            try (HttpClientConn a = HttpClientConn.open(fe); HttpClientConn b = HttpClientConn.open(fe)) {
                for (int i = 0; i < 4; i++) {
                    for (HttpClientConn c : List.of(a, b)) {
                        used.computeIfAbsent(c.socket.getLocalPort(), k -> new java.util.HashSet<>())
                                .add(c.exchange(get("/")).bodyText().split("#")[0]);
                    }
                }
            }
            java.util.Map<String, String> lineOf = new java.util.HashMap<>();
            for (String l : origin.proxyLines()) {
                lineOf.put(l.substring(0, l.indexOf(' ')), l.substring(l.indexOf(' ') + 1));
            }
            used.forEach((port, conns) -> {
                for (String conn : conns) {
                    assertThat(lineOf.get(conn)).as("PROXY line of connection %s, used by the client on port %d", conn, port)
                            .isEqualTo("PROXY TCP4 127.0.0.1 127.0.0.1 " + port + " " + fe);
                }
            });
        }
    }

    /**
     * An idle send-proxy connection serves another client connection whose PROXY header would be the same (here the
     * source port set to the same value), as {@code http-reuse} allows: safe never gives a client connection's first
     * request an idle connection, aggressive one that served a second request already, always any. Each request is
     * answered with "connection#request" of the origin; pool-low-conn keeps every connection idle.
     */
    @ParameterizedTest(name = "[{0}]")
    @CsvSource({
            "safe, send-proxy, 1#1 1#2 / 2#1 2#2 / 3#1 3#2 / 4#1",
            "aggressive, send-proxy, 1#1 1#2 / 1#3 1#4 / 2#1 2#2 / 1#5",
            "always, send-proxy-v2, 1#1 1#2 / 1#3 1#4 / 2#1 2#2 / 1#5"})
    void sendProxyConnectionsAreSharedByTheSameHeader(String reuse, String sendProxy, String expected) throws Exception {
        int fe = freePort();
        try (HttpOrigin origin = HttpOrigin.withProxyProtocol(x -> x.reply(200, x.connection + "#" + x.index));
             FulcrumProcess proxy = serve(sendProxyConfig(fe, "http-reuse " + reuse + "\nhttp-request set-src-port hdr(port)\nserver s1 127.0.0.1:"
                     + origin.port() + " " + sendProxy + " pool-low-conn 10"), fe)) {
            List<String> answers = new java.util.ArrayList<>();
            for (String client : List.of("5555 5555", "5555 5555", "6666 6666", "5555")) {
                try (HttpClientConn c = HttpClientConn.open(fe)) {
                    List<String> mine = new java.util.ArrayList<>();
                    for (String port : client.split(" ")) {
                        mine.add(c.exchange("GET / HTTP/1.1\r\nHost: a\r\nport: " + port + "\r\n\r\n").bodyText());
                    }
                    answers.add(String.join(" ", mine));
                }
            }
            assertThat(String.join(" / ", answers)).isEqualTo(expected);
        }
    }

    /** One event loop (both clients share its pool of idle connections), a frontend on {@code fe} and the backend's {@code lines}. */
    private static String sendProxyConfig(int fe, String lines) {
        return """
                global
                    nbthread 1
                defaults
                    mode http
                    timeout connect 2s
                    timeout client 10s
                    timeout server 10s
                frontend fe
                    bind 127.0.0.1:%d
                    default_backend be
                backend be
                %s""".formatted(fe, lines.indent(4));
    }

    /** Without a PROXY header on an accept-proxy bind, the connection is dropped without an answer. */
    @Test
    void acceptProxyWithoutTheHeader() throws Exception {
        int fe = freePort();
        try (HttpOrigin origin = HttpOrigin.ok("never");
             FulcrumProcess proxy = serve(proxyConfig(fe, origin.port(), ""), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            c.send(get("/"));
            c.awaitClosed(3000);
            assertThat(origin.accepted()).isZero();
        }
    }

    /** A PROXY header, then a request; the response works as usual and the connection stays. */
    @Test
    void acceptProxyThenKeepAlive() throws Exception {
        int fe = freePort();
        try (HttpOrigin origin = HttpOrigin.ok("fine");
             FulcrumProcess proxy = serve(proxyConfig(fe, origin.port(), ""), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            c.send("PROXY TCP4 192.0.2.1 192.0.2.2 40000 80\r\n");
            for (int i = 0; i < 3; i++) {
                Response r = c.exchange(get("/"));
                assertThat(r.bodyText()).isEqualTo("fine");
            }
            assertThat(origin.accepted()).isEqualTo(1);
        }
    }
}
