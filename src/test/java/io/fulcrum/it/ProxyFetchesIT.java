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
        try (FulcrumProcess p = TcpProxyKit.serve("""
                defaults
                    mode http
                    timeout connect 1s
                    timeout client 5s
                    timeout server 5s
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
}
