package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code balance url_param <name> check_post}: a POST whose query string lacks the parameter is balanced on the
 * parameter of its body, waited for before a server is chosen (here it comes after the head), so a user reaches the
 * same server with a GET or a POST; without the parameter anywhere, requests go in turn. The servers chosen are
 * HAProxy 2.6's (run with -Dit.proxy=haproxy).
 */
@Timeout(value = 90, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class BalanceUrlParamIT {

    @Test
    void postBodiesAreHashedLikeQueryStrings() throws Exception {
        int fe = freePort();
        try (HttpOrigin s1 = HttpOrigin.ok("s1");
             HttpOrigin s2 = HttpOrigin.ok("s2");
             HttpOrigin s3 = HttpOrigin.ok("s3");
             FulcrumProcess proxy = HttpKit.serve("""
                     defaults
                         mode http
                         timeout connect 2s
                         timeout client 10s
                         timeout server 10s
                     listen l
                         bind 127.0.0.1:%d
                         balance url_param id check_post 64
                         server s1 127.0.0.1:%d
                         server s2 127.0.0.1:%d
                         server s3 127.0.0.1:%d
                     """.formatted(fe, s1.port(), s2.port(), s3.port()), fe)) {
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
}
