package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static io.fulcrum.it.HttpErrorsIT.E400;
import static io.fulcrum.it.HttpErrorsIT.E408;
import static io.fulcrum.it.HttpKit.config;
import static io.fulcrum.it.HttpKit.get;
import static io.fulcrum.it.HttpKit.serve;
import static io.fulcrum.it.TcpProxyKit.freePort;
import static io.fulcrum.it.TcpProxyKit.millisSince;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a client that stops before a complete request gets, as in HAProxy 2.6: the 400 page when it closes its side,
 * the 408 page when {@code timeout http-request} strikes, even when it sent nothing at all on a new connection;
 * nothing when it sent nothing after a previous request. {@code option http-ignore-probes} makes a new connection
 * that brought nothing close silently (browsers open such connections in advance); a byte, even of an empty line,
 * is a request begun.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class HttpIgnoreProbesIT {

    /** What a client gets when it sends {@code first}, then (after a response) {@code then}, then half-closes or not. */
    private static String outcome(String options, String first, String then, boolean halfClose) throws Exception {
        int fe = freePort();
        try (HttpOrigin origin = HttpOrigin.ok("ok");
             FulcrumProcess proxy = serve(config("127.0.0.1:" + fe, "timeout http-request " + (halfClose ? "6s" : "700ms")
                     + "\n" + options, "", origin.port()), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            StringBuilder got = new StringBuilder();
            if (!first.isEmpty()) {
                got.append(c.exchange(first).bodyText()).append('|');
            }
            long t0 = System.nanoTime();
            c.send(then);
            if (halfClose) {
                c.socket.shutdownOutput();
            }
            got.append(HttpWire.text(c.in().readAllBytes()));
            long took = millisSince(t0, System.nanoTime());
            // A half-close is answered at once, not by the timeout; a timeout strikes after about 700 ms.
            assertThat(took).as("time to the close").isBetween(halfClose ? 0L : 500L, 4000L);
            return got.toString();
        }
    }

    @Test
    void withoutTheOptionANewConnectionThatBringsNothingIsABadRequest() throws Exception {
        assertThat(outcome("", "", "", true)).isEqualTo(E400);
        assertThat(outcome("", "", "", false)).isEqualTo(E408);
    }

    @Test
    void probesCloseSilently() throws Exception {
        assertThat(outcome("option http-ignore-probes", "", "", true)).isEmpty();
        assertThat(outcome("option http-ignore-probes", "", "", false)).isEmpty();
    }

    @Test
    void aRequestBegunIsNoProbe() throws Exception {
        assertThat(outcome("option http-ignore-probes", "", "GET / HT", true)).isEqualTo(E400);
        assertThat(outcome("option http-ignore-probes", "", "GET / HT", false)).isEqualTo(E408);
        assertThat(outcome("option http-ignore-probes", "", "\r\n", true)).isEqualTo(E400);
        assertThat(outcome("option http-ignore-probes", "", "\r\n", false)).isEqualTo(E408);
    }

    /** After a response, a half-close before the next request just closes; a request begun then is a bad one. */
    @Test
    void afterARequest() throws Exception {
        assertThat(outcome("", get("/"), "", true)).isEqualTo("ok|");
        assertThat(outcome("", get("/"), "GET / HT", true)).isEqualTo("ok|" + E400);
        assertThat(outcome("", get("/"), "\r\n", true)).isEqualTo("ok|" + E400);
    }
}
