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
 * {@code balance hash <expr>} with a real client and servers: the same key always reaches the same server, keys
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
             FulcrumProcess proxy = HttpKit.serve("""
                     defaults
                         mode http
                         timeout connect 2s
                         timeout client 10s
                         timeout server 10s
                     listen l
                         bind 127.0.0.1:%d
                         balance hash req.hdr(x-user),lower
                         server s1 127.0.0.1:%d
                         server s2 127.0.0.1:%d
                         server s3 127.0.0.1:%d
                     """.formatted(fe, s1.port(), s2.port(), s3.port()), fe)) {
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
}
