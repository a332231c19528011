package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;

import static io.fulcrum.it.HttpKit.get;
import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;

/** Fetches of the client's session: its listener ({@code so_id}, {@code so_name}, {@code dst_conn}), its PROXY header, the soft stop. */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class SessionFetchesIT {
    private static final String FORMAT = "%[so_id] %[so_name] %[dst_conn] %[fc_rcvd_proxy] %[stopping] %[src]";

    @Test
    void theListenerAndThePROXYHeaderOfTheConnection() throws Exception {
        int plain = freePort();
        int proxied = freePort();
        try (FulcrumProcess p = TcpProxyKit.serve("""
                defaults
                    mode http
                    timeout connect 1s
                    timeout client 5s
                    timeout server 5s
                frontend fe
                    bind 127.0.0.1:%d name plain id 7
                    bind 127.0.0.1:%d name proxied accept-proxy
                    http-request return status 200 content-type text/plain lf-string "%s"
                """.formatted(plain, proxied, FORMAT), plain);
             HttpClientConn a = HttpClientConn.open(plain);
             HttpClientConn b = HttpClientConn.open(plain);
             HttpClientConn c = HttpClientConn.open(proxied)) {
            assertThat(a.exchange(get("/")).bodyText()).isEqualTo("7 plain 2 0 0 127.0.0.1");
            assertThat(b.exchange(get("/")).bodyText()).as("both connections are counted").isEqualTo("7 plain 2 0 0 127.0.0.1");
            c.send("PROXY TCP4 192.0.2.9 127.0.0.1 4000 80\r\n");
            // A socket without id gets the first free one from its place (2nd), as HAProxy numbers them.
            assertThat(c.exchange(get("/")).bodyText()).isEqualTo("2 proxied 1 1 0 192.0.2.9");
        }
    }

    /**
     * After a PROXY header the client's addresses are the header's, the connection's own ({@code fc_*}) the socket's as the
     * {@code tcp-request connection} rules left them: they run at the accept, before the header (HAProxy 2.6).
     */
    @Test
    void theConnectionAddressesAreTheSocketsNotTheHeaders() throws Exception {
        int plain = freePort();
        int rewritten = freePort();
        String addresses = "%[fc_src] %[fc_dst]:%[fc_dst_port] %[src]:%[src_port] %[dst]:%[dst_port]";
        try (FulcrumProcess p = TcpProxyKit.serve("""
                defaults
                    mode http
                    timeout connect 1s
                    timeout client 5s
                    timeout server 5s
                frontend fe
                    bind 127.0.0.1:%d accept-proxy
                    http-request return status 200 content-type text/plain lf-string "%s"
                frontend rewritten
                    bind 127.0.0.1:%d accept-proxy
                    tcp-request connection set-src ipv4(10.1.0.1)
                    tcp-request connection set-dst ipv4(10.1.0.2)
                    http-request return status 200 content-type text/plain lf-string "%s"
                """.formatted(plain, addresses, rewritten, addresses), plain);
             HttpClientConn a = HttpClientConn.open(plain);
             HttpClientConn b = HttpClientConn.open(rewritten)) {
            a.send("PROXY TCP4 192.168.0.1 192.168.0.2 1234 80\r\n");
            assertThat(a.exchange(get("/")).bodyText())
                    .isEqualTo("127.0.0.1 127.0.0.1:" + plain + " 192.168.0.1:1234 192.168.0.2:80");
            b.send("PROXY TCP4 192.168.0.1 192.168.0.2 1234 80\r\n");
            assertThat(b.exchange(get("/")).bodyText())
                    .isEqualTo("10.1.0.1 10.1.0.2:" + rewritten + " 192.168.0.1:1234 192.168.0.2:80");
        }
    }

    @Test
    void theFirstRequestOfAConnectionAndTheUniqueId() throws Exception {
        int port = freePort();
        try (FulcrumProcess p = TcpProxyKit.serve("""
                defaults
                    mode http
                    timeout connect 1s
                    timeout client 5s
                    timeout server 5s
                frontend fe
                    bind 127.0.0.1:%d
                    unique-id-format id-%%[http_first_req]
                    http-request return status 200 content-type text/plain lf-string "%%[http_first_req] %%[unique-id]"
                """.formatted(port), port);
             HttpClientConn c = HttpClientConn.open(port)) {
            assertThat(c.exchange(get("/")).bodyText()).isEqualTo("1 id-1");
            assertThat(c.exchange(get("/")).bodyText()).isEqualTo("0 id-0");
        }
    }

    @Test
    void stoppingIsTrueForARequestThatArrivesDuringASoftStop() throws Exception {
        int port = freePort();
        try (FulcrumProcess p = TcpProxyKit.serve("""
                defaults
                    mode http
                    timeout connect 1s
                    timeout client 5s
                    timeout server 5s
                frontend fe
                    bind 127.0.0.1:%d
                    http-request return status 200 content-type text/plain lf-string "%%[stopping]"
                """.formatted(port), port);
             HttpClientConn c = HttpClientConn.open(port)) {
            assertThat(c.exchange(get("/")).bodyText()).isEqualTo("0");
            c.send("GET / HTTP/1.1\r\n");
            // The stop must find the request begun: a connection with nothing read yet is idle, and a soft stop closes
            // it (HAProxy too). The loop reads at once; the pause covers a descheduled loop on a loaded machine.
            Thread.sleep(300);
            p.signal("USR1");
            long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
            while (!CliFlagsIT.Net.refused(port) && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            c.send("Host: x\r\n\r\n");
            HttpClientConn.Response r = c.read();
            assertThat(r.bodyText()).isEqualTo("1");
            assertThat(r.get("connection")).as("the connection closes after it").isEqualTo("close");
            assertThat(c.in().read()).as("closed").isEqualTo(-1);
            assertThat(p.awaitExit(Duration.ofSeconds(10))).as("the soft stop ends with the last connection").isZero();
        }
    }
}
