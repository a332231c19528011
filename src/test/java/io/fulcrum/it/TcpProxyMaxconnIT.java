package io.fulcrum.it;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.net.Socket;

import static io.fulcrum.it.TcpProxyKit.assertSilent;
import static io.fulcrum.it.TcpProxyKit.connect;
import static io.fulcrum.it.TcpProxyKit.echo;
import static io.fulcrum.it.TcpProxyKit.freePort;
import static io.fulcrum.it.TcpProxyKit.readExactly;
import static io.fulcrum.it.TcpProxyKit.send;
import static io.fulcrum.it.TcpProxyKit.serve;
import static io.fulcrum.it.TcpProxyKit.text;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code maxconn} on the frontend, in the global section and on the bind line: at the limit, a new
 * connection waits (in the kernel's backlog) and is served as soon as a slot is released.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class TcpProxyMaxconnIT {

    private static String config(String where, int fe, int be) {
        return """
                global
                    %s
                defaults
                    mode tcp
                    timeout connect 5s
                    timeout client 30s
                    timeout server 30s

                listen test
                    bind 127.0.0.1:%d %s
                    %s
                    server s1 127.0.0.1:%d
                """.formatted(where.equals("global") ? "maxconn 2" : "",
                fe, where.equals("bind") ? "maxconn 2" : "",
                where.equals("frontend") ? "maxconn 2" : "", be);
    }

    @ParameterizedTest(name = "maxconn 2 on the {0}")
    @ValueSource(strings = {"frontend", "global", "bind"})
    void thirdConnectionWaitsForASlot(String where) throws Exception {
        int fe = freePort();
        try (Origin origin = Origin.start(Origin.ECHO);
             FulcrumProcess proxy = serve(config(where, fe, origin.port()), fe)) {
            try (Socket first = connect(fe); Socket second = connect(fe); Socket third = connect(fe)) {
                assertThat(echo(first, "one")).isEqualTo("one");
                assertThat(echo(second, "two")).isEqualTo("two");
                send(third, "three");
                assertSilent(third, 1000, "the third connection while two are open");
                assertThat(origin.accepted()).as("connections that reached the server").isEqualTo(2);

                first.close();
                assertThat(text(readExactly(third, 5))).as("served once a slot is free").isEqualTo("three");
                assertThat(origin.accepted()).isEqualTo(3);
                assertThat(echo(second, "still two")).isEqualTo("still two");
            }
        }
    }
}
