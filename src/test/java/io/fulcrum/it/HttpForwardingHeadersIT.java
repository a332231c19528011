package io.fulcrum.it;

import io.fulcrum.it.HttpOrigin.Received;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static io.fulcrum.it.HttpKit.serve;
import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code option forwardfor} and {@code option originalto}: the client's and the destination's addresses added at
 * the end of the request's fields, as HAProxy 2.6 writes them (IPv6 in its canonical form, IPv4 clients of a
 * dual-stack listener as {@code ::ffff:a.b.c.d}), with the precedence between frontend and backend HAProxy has.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class HttpForwardingHeadersIT {

    /** The request the origin got for {@code request}, sent by a client at 127.0.0.1 to 127.0.0.1. */
    private static Received forwarded(String frontend, String backend, String request) throws Exception {
        return forwarded("127.0.0.1", "", "127.0.0.1", frontend, backend, request);
    }

    /**
     * The request the origin got for {@code request}, sent by a client at {@code client} to a frontend listening
     * on {@code listen} with bind options {@code bindOptions}.
     */
    private static Received forwarded(String listen, String bindOptions, String client, String frontend, String backend,
                                      String request) throws Exception {
        int fe = freePort();
        try (HttpOrigin origin = HttpOrigin.ok("ok");
             FulcrumProcess proxy = TcpProxyKit.serve(HttpKit.config(listen + ":" + fe + bindOptions, frontend, backend,
                     origin.port()), listen, fe);
             HttpClientConn c = HttpClientConn.open(client, fe)) {
            c.send(request);
            assertThat(c.read().status()).isEqualTo(200);
            return origin.nextRequest(5000);
        }
    }

    private static final String WITH_XFF = "GET / HTTP/1.1\r\nHost: test\r\nX-Forwarded-For: 192.0.2.1\r\nX-Client: 192.0.2.2\r\n\r\n";

    @Test
    void clientAddressAppendedAfterTheClientsOwn() throws Exception {
        Received r = forwarded("option forwardfor", "", WITH_XFF);
        assertThat(r.head().names()).containsExactly("host", "x-forwarded-for", "x-client", "x-forwarded-for");
        assertThat(r.head().all("x-forwarded-for")).containsExactly("192.0.2.1", "127.0.0.1");
    }

    @Test
    void headerNameIsWrittenInLowerCase() throws Exception {
        Received r = forwarded("option forwardfor header X-Client", "", WITH_XFF);
        assertThat(r.head().raw()).contains("\r\nx-client: 127.0.0.1\r\n");
        assertThat(r.head().all("x-client")).containsExactly("192.0.2.2", "127.0.0.1");
        assertThat(r.head().all("x-forwarded-for")).containsExactly("192.0.2.1");
    }

    /** The backend's option names the header, even when it does not name one itself and the frontend does. */
    @Test
    void backendOptionNamesTheHeader() throws Exception {
        Received r = forwarded("option forwardfor header X-Client", "option forwardfor", WITH_XFF);
        assertThat(r.head().all("x-forwarded-for")).containsExactly("192.0.2.1", "127.0.0.1");
        assertThat(r.head().all("x-client")).containsExactly("192.0.2.2");
    }

    /** if-none: a header already there is enough, unless one of the two sides that ask wants it always. */
    @Test
    void ifNone() throws Exception {
        assertThat(forwarded("option forwardfor if-none", "", WITH_XFF).head().all("x-forwarded-for"))
                .containsExactly("192.0.2.1");
        assertThat(forwarded("option forwardfor if-none", "", "GET / HTTP/1.1\r\nHost: test\r\n\r\n").head()
                .all("x-forwarded-for")).containsExactly("127.0.0.1");
        assertThat(forwarded("option forwardfor if-none", "option forwardfor", WITH_XFF).head().all("x-forwarded-for"))
                .containsExactly("192.0.2.1", "127.0.0.1");
        assertThat(forwarded("option forwardfor header X-Client if-none", "option forwardfor if-none", WITH_XFF).head()
                .all("x-forwarded-for")).containsExactly("192.0.2.1");
    }

    /** except: either side's network keeps the header out; a network of the other family never matches. */
    @Test
    void exceptNetworks() throws Exception {
        assertThat(forwarded("option forwardfor except 127.0.0.0/8", "option forwardfor", WITH_XFF).head()
                .all("x-forwarded-for")).containsExactly("192.0.2.1");
        assertThat(forwarded("", "option forwardfor except 127.0.0.1", WITH_XFF).head().all("x-forwarded-for"))
                .containsExactly("192.0.2.1");
        assertThat(forwarded("option forwardfor except 10.0.0.0/255.0.0.0", "option forwardfor except 127.0.0.2/31", WITH_XFF)
                .head().all("x-forwarded-for")).containsExactly("192.0.2.1", "127.0.0.1");
        assertThat(forwarded("option forwardfor except ::ffff:127.0.0.1/128", "", WITH_XFF).head().all("x-forwarded-for"))
                .containsExactly("192.0.2.1", "127.0.0.1");
    }

    /** Each option line starts afresh: an except of the defaults section is gone once the frontend says the option again. */
    @Test
    void optionLineReplacesTheInheritedOne() throws Exception {
        int fe = freePort();
        try (HttpOrigin origin = HttpOrigin.ok("ok");
             FulcrumProcess proxy = serve("""
                     defaults d1
                         mode http
                         timeout connect 2s
                         timeout client 10s
                         timeout server 10s
                         option forwardfor except 127.0.0.1
                     frontend fe from d1
                         bind 127.0.0.1:%d
                         option forwardfor
                         default_backend be
                     defaults d2
                         mode http
                         timeout connect 2s
                         timeout client 10s
                         timeout server 10s
                     backend be from d2
                         server s1 127.0.0.1:%d
                     """.formatted(fe, origin.port()), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            c.send(HttpKit.get("/"));
            assertThat(c.read().status()).isEqualTo(200);
            assertThat(origin.nextRequest(5000).head().all("x-forwarded-for")).containsExactly("127.0.0.1");
        }
    }

    @Test
    void originalTo() throws Exception {
        Received r = forwarded("option originalto header X-Dst\noption forwardfor", "option originalto except 10.0.0.0/8", WITH_XFF);
        assertThat(r.head().names()).endsWith("x-forwarded-for", "x-original-to");
        assertThat(r.head().get("x-original-to")).isEqualTo("127.0.0.1");
        assertThat(r.head().has("x-dst")).isFalse();
        assertThat(forwarded("option originalto", "option originalto except 127.0.0.1/32", WITH_XFF).head()
                .has("x-original-to")).isFalse();
    }

    /** An IPv6 client and destination, written as HAProxy writes them. */
    @Test
    void ipv6Addresses() throws Exception {
        Received r = forwarded("::1", "", "::1", "option forwardfor\noption originalto", "", HttpKit.get("/"));
        assertThat(r.head().get("x-forwarded-for")).isEqualTo("::1");
        assertThat(r.head().get("x-original-to")).isEqualTo("::1");
    }

    /** An IPv4 client of a dual-stack listener is an IPv4-mapped IPv6 address: only an IPv6 network matches it. */
    @Test
    void ipv4ClientOfADualStackListener() throws Exception {
        Received r = forwarded("::", " v4v6", "127.0.0.1", "option forwardfor except 127.0.0.1\noption originalto", "",
                HttpKit.get("/"));
        assertThat(r.head().get("x-forwarded-for")).isEqualTo("::ffff:127.0.0.1");
        assertThat(r.head().get("x-original-to")).isEqualTo("::ffff:127.0.0.1");
        assertThat(forwarded("::", " v4v6", "127.0.0.1", "option forwardfor except ::ffff:127.0.0.0/104", "",
                HttpKit.get("/")).head().has("x-forwarded-for")).isFalse();
    }
}
