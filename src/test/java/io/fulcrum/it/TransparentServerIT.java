package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.util.List;

import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Servers whose destination follows the stream's (configuration.txt, "server"): address 0.0.0.0 takes the destination's
 * address, a port absent or 0 its port, {@code +N}/{@code -N} its port with an offset, all after {@code set-dst} and
 * {@code set-dst-port}. Their idle connections serve only requests to the same destination (HAProxy's reg-tests
 * connection/http_reuse_be_transparent.vtc and http_reuse_conn_hash.vtc). The receivers are listeners of the same
 * process that name themselves and tell whether a request was their connection's first. Holds for HAProxy 2.6
 * (-Dit.proxy=haproxy).
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class TransparentServerIT {
    private final int feAlways = freePort();
    private final int feNever = freePort();
    private final int feMapped = freePort();
    private final int fePlus = freePort();
    private final int feMinus = freePort();
    private final int s1 = freePort();
    private final int s2 = freePort();

    private final String config = """
            global
                nbthread 1
            defaults
                mode http
                timeout connect 2s
                timeout client 5s
                timeout server 5s
            listen always
                bind 127.0.0.1:%d
                http-reuse always
                http-request set-dst hdr(dst)
                http-request set-dst-port hdr(dst-port)
                server transparent 0.0.0.0 pool-max-conn 10
            listen never
                bind 127.0.0.1:%d
                http-reuse never
                http-request set-dst hdr(dst)
                http-request set-dst-port hdr(dst-port)
                server transparent 0.0.0.0
            listen mapped
                bind 127.0.0.1:%d
                http-request set-dst-port hdr(dst-port)
                server srv2 127.0.0.1:0 pool-low-conn 2
            listen plus
                bind 127.0.0.1:%d
                http-request set-dst-port hdr(dst-port)
                server srv 127.0.0.1:+1
            listen minus
                bind 127.0.0.1:%d
                http-request set-dst-port hdr(dst-port)
                server srv 127.0.0.1:-1
            listen s1
                bind 127.0.0.1:%d
                http-request return status 200 hdr srv-id s1 hdr first "%%[http_first_req]"
            listen s2
                bind 127.0.0.1:%d
                http-request return status 200 hdr srv-id s2 hdr first "%%[http_first_req]"
            """.formatted(feAlways, feNever, feMapped, fePlus, feMinus, s1, s2);

    TransparentServerIT() throws IOException { // (each test has its own ports)
    }

    /** The 0.0.0.0 server goes where set-dst and set-dst-port say, reusing a connection only to the same destination. */
    @Test
    void anyAddressFollowsSetDst() throws Exception {
        try (FulcrumProcess p = HttpKit.serve(config, feAlways)) {
            try (HttpClientConn c = HttpClientConn.open(feAlways)) {
                assertThat(send(c, s1)).isEqualTo(List.of("s1", "1"));
                assertThat(send(c, s1)).isEqualTo(List.of("s1", "0"));
                assertThat(send(c, s2)).isEqualTo(List.of("s2", "1"));
                assertThat(send(c, s1).get(0)).isEqualTo("s1");
                assertThat(send(c, s2).get(0)).isEqualTo("s2");
            }
            // never: the client connection keeps its own server connections, each for its destination
            try (HttpClientConn c = HttpClientConn.open(feNever)) {
                assertThat(send(c, s2)).isEqualTo(List.of("s2", "1"));
                assertThat(send(c, s1)).isEqualTo(List.of("s1", "1"));
                assertThat(send(c, s2)).isEqualTo(List.of("s2", "0"));
            }
        }
    }

    /** Port 0 is the destination's port; +N and -N add to it; idle connections are kept per destination port. */
    @Test
    void portFollowsSetDstPort() throws Exception {
        try (FulcrumProcess p = HttpKit.serve(config, feMapped)) {
            try (HttpClientConn c = HttpClientConn.open(feMapped)) {
                assertThat(send(c, s1)).isEqualTo(List.of("s1", "1"));
                assertThat(send(c, s1)).isEqualTo(List.of("s1", "0"));
                assertThat(send(c, s2)).isEqualTo(List.of("s2", "1"));
                assertThat(send(c, s1)).isEqualTo(List.of("s1", "0"));
                assertThat(send(c, s2)).isEqualTo(List.of("s2", "0"));
            }
            try (HttpClientConn c = HttpClientConn.open(fePlus)) {
                assertThat(send(c, s1 - 1).get(0)).isEqualTo("s1");
                assertThat(send(c, s2 - 1).get(0)).isEqualTo("s2");
            }
            try (HttpClientConn c = HttpClientConn.open(feMinus)) {
                assertThat(send(c, s2 + 1).get(0)).isEqualTo("s2");
            }
        }
    }

    /** One request whose dst and dst-port fields name 127.0.0.1:{@code port}: the answering server and its first. */
    private static List<String> send(HttpClientConn c, int port) throws Exception {
        HttpClientConn.Response r = c.exchange("GET / HTTP/1.1\r\nHost: test\r\ndst: 127.0.0.1\r\ndst-port: " + port + "\r\n\r\n");
        assertThat(r.head().startLine()).startsWith("HTTP/1.1 200");
        return List.of(String.valueOf(r.head().get("srv-id")), String.valueOf(r.head().get("first")));
    }
}
