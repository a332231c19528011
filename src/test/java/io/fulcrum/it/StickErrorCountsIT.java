package io.fulcrum.it;

import io.fulcrum.it.HttpClientConn.Response;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static io.fulcrum.it.HttpKit.get;
import static io.fulcrum.it.HttpKit.serve;
import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A transaction's HTTP error (http_err_cnt: denied, or a 4xx of the server) and failure (http_fail_cnt: a 5xx of the
 * server) count in its trackers as soon as they are known, so that the rules of its own response see them, as in
 * HAProxy (its reg-test stick-table/sc_counters.vtc). Expected values are haproxy 2.6's (-Dit.proxy=haproxy).
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class StickErrorCountsIT {

    @Test
    void theResponseRulesSeeTheirOwnTransactionsErrors() throws Exception {
        int fe = freePort();
        try (HttpOrigin origin = HttpOrigin.start(x -> x.reply(x.target().equals("/fail") ? 500
                     : x.target().equals("/missing") ? 404 : 200, "r"));
             FulcrumProcess proxy = serve(HttpKit.config("127.0.0.1:" + fe, """
                     stick-table type ip size 10 expire 30s store http_req_cnt,http_err_cnt,http_fail_cnt
                     http-request track-sc0 src
                     http-request deny if { path /denied }
                     http-response set-header x-resp %[sc_http_err_cnt(0)]/%[sc_http_fail_cnt(0)]
                     http-after-response set-header x-after %[sc_http_err_cnt(0)]/%[sc_http_fail_cnt(0)]
                     """, "", origin.port()), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            assertThat(c.exchange(get("/one")).get("x-after")).isEqualTo("0/0");
            assertThat(c.exchange(get("/denied")).get("x-after")).isEqualTo("1/0");
            Response missing = c.exchange(get("/missing"));
            assertThat(missing.get("x-resp")).isEqualTo("2/0");
            assertThat(missing.get("x-after")).isEqualTo("2/0");
            Response fail = c.exchange(get("/fail"));
            assertThat(fail.get("x-resp")).isEqualTo("2/1");
            assertThat(fail.get("x-after")).isEqualTo("2/1");
            assertThat(c.exchange(get("/two")).get("x-after")).isEqualTo("2/1");
        }
    }
}
