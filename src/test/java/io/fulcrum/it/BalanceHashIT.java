package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code balance hash <expr>} and {@code balance url_param} with a real client and servers: the same key always reaches the same server, keys
 * spread over the servers, and a request without a key is balanced in turn. The servers chosen for the keys are
 * HAProxy 2.6's (map-based sdbm of the sample's bytes; run with -Dit.proxy=haproxy).
 */
@Timeout(value = 90, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class BalanceHashIT {

    @Test
    void aKeyKeepsItsServer() throws Exception {
        int fe = freePort();
        try (HttpOrigin s1 = HttpOrigin.ok("s1");
             HttpOrigin s2 = HttpOrigin.ok("s2");
             HttpOrigin s3 = HttpOrigin.ok("s3");
             FulcrumProcess proxy = HttpKit.serve(listen(fe, "balance hash req.hdr(x-user),lower", s1, s2, s3), fe)) {
            HttpClient client = HttpKit.jdkClient();
            Map<String, String> chosen = new HashMap<>();
            for (int user = 0; user < 9; user++) {
                for (int again = 0; again < 3; again++) {
                    String server = client.send(HttpKit.request(fe, "/").header("x-user", (again == 1 ? "USER" : "user") + user).build(),
                            HttpResponse.BodyHandlers.ofString()).body();
                    assertThat(chosen.putIfAbsent("user" + user, server)).as("user" + user).isIn(null, server);
                }
            }
            assertThat(chosen).isEqualTo(Map.of("user0", "s3", "user1", "s1", "user2", "s2", "user3", "s3", "user4", "s1",
                    "user5", "s2", "user6", "s3", "user7", "s1", "user8", "s2"));
            Set<String> keyless = new HashSet<>();
            for (int i = 0; i < 3; i++) {
                keyless.add(client.send(HttpKit.request(fe, "/").build(), HttpResponse.BodyHandlers.ofString()).body());
            }
            assertThat(keyless).as("no key: in turn").containsExactlyInAnyOrder("s1", "s2", "s3");
        }
    }

    /**
     * {@code balance url_param <name> check_post}: a POST whose query string lacks the parameter is balanced on the
     * parameter of its body, waited for before a server is chosen (here it comes after the head), so a user reaches the
     * same server with a GET or a POST; without the parameter anywhere, requests go in turn. The servers chosen are
     * HAProxy 2.6's (run with -Dit.proxy=haproxy).
     */
    @Test
    void postBodiesAreHashedLikeQueryStrings() throws Exception {
        int fe = freePort();
        try (HttpOrigin s1 = HttpOrigin.ok("s1");
             HttpOrigin s2 = HttpOrigin.ok("s2");
             HttpOrigin s3 = HttpOrigin.ok("s3");
             FulcrumProcess proxy = HttpKit.serve(listen(fe, "balance url_param id check_post 64", s1, s2, s3), fe)) {
            Map<String, String> chosen = new HashMap<>();
            for (int user = 0; user < 6; user++) {
                String id = "user" + user;
                String byQuery;
                try (HttpClientConn c = HttpClientConn.open(fe)) {
                    byQuery = c.exchange("GET /?id=" + id + " HTTP/1.1\r\nHost: a\r\n\r\n").bodyText();
                }
                String body = "x=1&id=" + id + "&y=2";
                try (HttpClientConn c = HttpClientConn.open(fe)) {
                    c.send("POST /form HTTP/1.1\r\nHost: a\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: "
                            + body.length() + "\r\n\r\n");
                    Thread.sleep(200); // the body comes later: the server is chosen once it is in
                    assertThat(c.send(body).read().bodyText()).as(id + " by its body").isEqualTo(byQuery);
                }
                chosen.put(id, byQuery);
            }
            assertThat(chosen).isEqualTo(Map.of("user0", "s3", "user1", "s1", "user2", "s2", "user3", "s3", "user4", "s1",
                    "user5", "s2"));
            Set<String> keyless = new HashSet<>();
            for (int i = 0; i < 3; i++) {
                try (HttpClientConn c = HttpClientConn.open(fe)) {
                    keyless.add(c.exchange("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n\r\nx=1").bodyText());
                }
            }
            assertThat(keyless).as("no key: in turn").containsExactlyInAnyOrder("s1", "s2", "s3");
        }
    }

    /** A listen section on {@code fe} balancing with {@code balance} over the servers s1, s2... */
    private static String listen(int fe, String balance, HttpOrigin... servers) {
        StringBuilder cfg = new StringBuilder("""
                defaults
                    mode http
                    timeout connect 2s
                    timeout client 10s
                    timeout server 10s
                listen l
                """).append("    bind 127.0.0.1:").append(fe).append("\n    ").append(balance).append('\n');
        for (int i = 0; i < servers.length; i++) {
            cfg.append("    server s").append(i + 1).append(" 127.0.0.1:").append(servers[i].port()).append('\n');
        }
        return cfg.toString();
    }
}
