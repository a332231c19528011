package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static io.fulcrum.it.HttpKit.get;
import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * How proxies and servers are named and numbered: {@code id} (proxies and binds), {@code description},
 * {@code server-template}; the ids are HAProxy's, checked against it with {@code -Dit.proxy=haproxy}.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ProxyIdentityIT {

    @Test
    void idsDescriptionsAndTemplatedServers() throws Exception {
        Path sock = Files.createTempDirectory("fulcrum-ids").resolve("s.sock");
        int fe = freePort();
        try (HttpOrigin origin = HttpOrigin.start(x -> x.reply(200, "ok"));
             FulcrumProcess p = TcpProxyKit.serve("""
                     global
                         stats socket %s level admin
                     defaults
                         mode http
                         timeout connect 2s
                         timeout client 10s
                         timeout server 10s
                     frontend fe
                         bind 127.0.0.1:%d
                         id 2
                         description the   front door
                         stats enable
                         stats uri /stats
                         default_backend app
                     backend app
                         balance roundrobin
                         server-template web 2-4 127.0.0.1:%d
                     backend other
                         id 3
                         server s 127.0.0.1:%3$d
                     """.formatted(sock, fe, origin.port()), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            for (int i = 0; i < 3; i++) {
                assertThat(c.exchange(get("/")).bodyText()).isEqualTo("ok");
            }
            Map<String, Map<String, String>> rows = StatsIT.rows(CliClient.send(sock, "show stat"));
            assertThat(rows.keySet()).containsExactly("fe/FRONTEND", "app/web2", "app/web3", "app/web4", "app/BACKEND",
                    "other/s", "other/BACKEND");
            // The GLOBAL proxy of the stats socket comes first; 'app' gets the first free id from its place: 4.
            assertThat(rows.get("fe/FRONTEND").get("iid")).isEqualTo("2");
            assertThat(rows.get("app/BACKEND").get("iid")).isEqualTo("4");
            assertThat(rows.get("other/BACKEND").get("iid")).isEqualTo("3");
            assertThat(rows.get("app/web3").get("sid")).isEqualTo("2");
            assertThat(rows.get("app/web2").get("lbtot")).isEqualTo("1");
            assertThat(rows.get("app/web4").get("lbtot")).isEqualTo("1");
            String page = c.exchange(get("/stats")).bodyText();
            assertThat(page).contains("<th class=\"desc\" width=\"90%\">the front door</th>");
        }
    }
}
