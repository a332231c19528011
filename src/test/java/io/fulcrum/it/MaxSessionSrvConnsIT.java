package io.fulcrum.it;

import io.fulcrum.it.HttpClientConn.Response;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static io.fulcrum.it.HttpKit.get;
import static io.fulcrum.it.HttpKit.serve;
import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code max-session-srv-conns}: how many idle server connections a client connection keeps for itself under
 * {@code http-reuse never}. A client whose requests alternate between two servers keeps one connection to each
 * (the default is 5); with a limit of 1, the second one is closed after its response, so each request opens a new
 * one. The origins answer "connection#request-on-it". Runs against haproxy too.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class MaxSessionSrvConnsIT {

    /** Origin {@code a} first in the backend's round robin, then {@code b}; one thread, so one pool. */
    private static String config(int fe, int a, int b, String frontend) {
        return "global\n    nbthread 1\n" + HttpKit.config("127.0.0.1:" + fe, frontend,
                "balance roundrobin\nhttp-reuse never\nserver s0 127.0.0.1:" + a, b);
    }

    private static String body(HttpClientConn c) throws Exception {
        Response r = c.exchange(get("/"));
        assertThat(r.status()).isEqualTo(200);
        return r.bodyText();
    }

    private static HttpOrigin origin(String name) throws Exception {
        return HttpOrigin.start(x -> x.reply(200, name + x.connection + "#" + x.index));
    }

    /** The bodies of four requests of one client connection, with {@code frontend} lines. */
    private static java.util.List<String> fourRequests(String frontend) throws Exception {
        int fe = freePort();
        try (HttpOrigin a = origin("a"); HttpOrigin b = origin("b");
             FulcrumProcess proxy = serve(config(fe, a.port(), b.port(), frontend), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            java.util.List<String> bodies = new java.util.ArrayList<>();
            for (int i = 0; i < 4; i++) {
                bodies.add(body(c));
            }
            return bodies;
        }
    }

    @Test
    void byDefaultAClientKeepsAConnectionToEachServer() throws Exception {
        assertThat(fourRequests("")).containsExactly("a1#1", "b1#1", "a1#2", "b1#2");
    }

    @Test
    void aLimitOfOneClosesTheConnectionsPastIt() throws Exception {
        // b's first connection is closed after its response (one kept already): b's second request opens another.
        assertThat(fourRequests("max-session-srv-conns 1")).containsExactly("a1#1", "b1#1", "a1#2", "b2#1");
    }
}
