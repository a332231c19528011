package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static io.fulcrum.it.HttpKit.get;
import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;

/** Fetches that name another proxy ({@code nbsrv(other)}, {@code srv_is_up(other/s2)}...) see any proxy of the process. */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ProxyFetchesIT {

    @Test
    void aRuleReadsTheStateOfABackendItDoesNotUse() throws Exception {
        int fe = freePort();
        int dead = FulcrumProcess.refusedPort();
        try (FulcrumProcess p = serve("""
                frontend fe
                    bind 127.0.0.1:%d
                    http-request return status 200 content-type text/plain lf-string "%%[nbsrv(other)] %%[be_conn(other)] %%[srv_is_up(other/s1)] %%[srv_is_up(other/s2)] %%[fe_conn(side)]"
                frontend side
                    bind 127.0.0.1:%d
                backend other
                    server s1 127.0.0.1:%d
                    server s2 127.0.0.1:%d disabled
                """.formatted(fe, freePort(), dead, dead), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            assertThat(c.exchange(get("/")).bodyText()).isEqualTo("1 0 1 0 0");
        }
    }

    /**
     * The rate fetches read the counters "show stat" reports (their values depend on the clock: only their
     * form is checked here, their counting by the unit tests); nbsrv and srv_queue as converters read a
     * backend or server named at run time, and give no sample for an unknown one (an empty
     * field in an lf-string, as in HAProxy).
     */
    @Test
    void ratesAndConvertersOfDynamicNames() throws Exception {
        int fe = freePort();
        try (HttpOrigin origin = HttpOrigin.ok("origin");
             FulcrumProcess p = serve("""
                frontend fe
                    bind 127.0.0.1:%d
                    http-request return status 200 content-type text/plain lf-string "%%[fe_req_rate] %%[fe_sess_rate] %%[be_sess_rate(b)] %%[srv_sess_rate(b/s1)] %%[req.hdr(x-be),nbsrv] %%[req.hdr(x-srv),srv_queue]" if { path /rates }
                    default_backend b
                backend b
                    server s1 127.0.0.1:%d
                backend none
                """.formatted(fe, origin.port()), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            String names = "x-be: b\r\nx-srv: b/s1\r\n";
            assertThat(c.exchange(request("/rates", names)).bodyText()).matches("[0-9]+ [0-9]+ 0 0 1 0");
            assertThat(c.exchange(get("/")).bodyText()).isEqualTo("origin");
            assertThat(c.exchange(request("/rates", names)).bodyText()).matches("[0-9]+ [0-9]+ [0-9]+ [0-9]+ 1 0");
            assertThat(c.exchange(request("/rates", "x-be: none\r\nx-srv: s1\r\n")).bodyText())
                    .as("s1 of the proxy whose rules run: the frontend has no server").matches("[0-9]+ [0-9]+ [0-9]+ [0-9]+ 0 ");
            assertThat(c.exchange(request("/rates", "x-be: nosuch\r\nx-srv: b/nosuch\r\n")).bodyText()).matches("[0-9]+ [0-9]+ [0-9]+ [0-9]+  ");
        }
    }

    /**
     * srv_conn counts the streams a server serves (HAProxy's cur_sess): the response of a request it serves sees 1,
     * a request answered by the proxy after it sees 0 though the server's connection stays open in the idle pool.
     */
    @Test
    void srvConnCountsStreamsNotIdleConnections() throws Exception {
        int fe = freePort();
        try (HttpOrigin origin = HttpOrigin.ok("origin");
             FulcrumProcess p = serve("""
                frontend fe
                    bind 127.0.0.1:%d
                    http-request return status 200 content-type text/plain lf-string "%%[srv_conn(b/s1)]" if { path /probe }
                    default_backend b
                backend b
                    http-response set-header x-conn %%[srv_conn(b/s1)]
                    server s1 127.0.0.1:%d
                """.formatted(fe, origin.port()), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            assertThat(c.exchange(get("/")).head().get("x-conn")).isEqualTo("1");
            assertThat(origin.open()).as("the server connection stays open").isEqualTo(1);
            assertThat(c.exchange(get("/probe")).bodyText()).isEqualTo("0");
            assertThat(c.exchange(get("/")).head().get("x-conn")).isEqualTo("1");
        }
    }

    /** The proxy on {@code sections}, after the defaults every test here shares, once {@code fe} listens. */
    private static FulcrumProcess serve(String sections, int fe) throws Exception {
        return TcpProxyKit.serve("""
                defaults
                    mode http
                    timeout connect 1s
                    timeout client 5s
                    timeout server 5s
                """ + sections, fe);
    }

    private static String request(String path, String headers) {
        return "GET " + path + " HTTP/1.1\r\nHost: x\r\n" + headers + "\r\n";
    }
}
