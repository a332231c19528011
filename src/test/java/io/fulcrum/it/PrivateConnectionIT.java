package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.concurrent.TimeUnit;

import static io.fulcrum.it.HttpKit.get;
import static io.fulcrum.it.HttpKit.serve;
import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Private server connections: a 401 asking for Negotiate or NTLM (WWW-Authenticate), or a 407 asking for one
 * (Proxy-Authenticate), binds the server connection to its client connection under every sharing mode of
 * {@code http-reuse}: another client never gets it, its own client's next requests go to the same server on it
 * (whatever the balancing says), and it closes with the client connection. Two clients, two servers in round robin;
 * each origin answers "server connection#request-on-it". Runs against haproxy too.
 */
@Timeout(value = 90, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class PrivateConnectionIT {

    private static HttpOrigin origin(String name) throws Exception {
        return HttpOrigin.start(x -> {
            String body = name + " " + x.connection + "#" + x.index;
            switch (x.target()) {
                case "/negotiate" -> x.reply(401, body, "WWW-Authenticate: Basic realm=\"x\"", "WWW-Authenticate: Negotiate");
                case "/ntlm" -> x.reply(401, body, "WWW-Authenticate: NTLM");
                case "/proxy" -> x.reply(407, body, "Proxy-Authenticate: Negotiate");
                case "/ok-negotiate" -> x.reply(200, body, "WWW-Authenticate: Negotiate");
                default -> x.reply(200, body);
            }
        });
    }

    private static String body(HttpClientConn c, String path) throws Exception {
        return c.exchange(get(path)).bodyText();
    }

    @ParameterizedTest
    @CsvSource({
            "safe, /negotiate", "aggressive, /negotiate", "always, /negotiate",
            "safe, /ntlm", "aggressive, /ntlm", "always, /ntlm",
            "always, /proxy",
    })
    void theConnectionStaysWithItsClient(String mode, String auth) throws Exception {
        int fe = freePort();
        try (HttpOrigin s1 = origin("s1");
             HttpOrigin s2 = origin("s2");
             FulcrumProcess proxy = serve("global\n    nbthread 1\n" + HttpKit.config("127.0.0.1:" + fe, "", // (origin s1 is server s0, first)
                     "balance roundrobin\nhttp-reuse " + mode + "\nserver s0 127.0.0.1:" + s1.port(), s2.port()), fe);
             HttpClientConn a = HttpClientConn.open(fe);
             HttpClientConn b = HttpClientConn.open(fe)) {
            assertThat(body(a, auth)).isEqualTo("s1 1#1");
            for (int i = 0; i < 4; i++) {
                assertThat(body(b, "/")).as("b's request %d", i).doesNotStartWith("s1 1#");
            }
            assertThat(body(a, "/")).isEqualTo("s1 1#2");
            assertThat(body(a, "/")).isEqualTo("s1 1#3");
            int open = s1.open();
            a.close();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (s1.open() == open && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertThat(s1.open()).as("the private connection closes with its client").isEqualTo(open - 1);
            assertThat(body(b, "/")).doesNotStartWith("s1 1#");
        }
    }

    /** Only a 401 or 407 makes the connection private: a 200 with WWW-Authenticate: Negotiate leaves it shared. */
    @Test
    void aSuccessfulResponseAskingForNegotiateStaysShared() throws Exception {
        int fe = freePort();
        try (HttpOrigin s1 = origin("s1");
             // One thread: b's request must find a's connection idle, not race its takeover from another loop.
             FulcrumProcess proxy = serve("global\n    nbthread 1\n"
                     + HttpKit.config("127.0.0.1:" + fe, "", "http-reuse always", s1.port()), fe);
             HttpClientConn a = HttpClientConn.open(fe);
             HttpClientConn b = HttpClientConn.open(fe)) {
            assertThat(body(a, "/ok-negotiate")).isEqualTo("s1 1#1");
            assertThat(body(b, "/")).isEqualTo("s1 1#2");
        }
    }
}
