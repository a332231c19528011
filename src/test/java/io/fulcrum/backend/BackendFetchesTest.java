package io.fulcrum.backend;

import io.fulcrum.sample.TestContext;
import io.fulcrum.sample.TestProxies;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The backend fetches; the expected values are what HAProxy 2.6 returned with {@link TestProxies#SAMPLE}. */
class BackendFetchesTest {
    private final TestProxies proxies = TestProxies.load(TestProxies.SAMPLE);

    @Test
    void theStreamsBackend() {
        TestContext ctx = proxies.stream("f", "c");
        assertThat(ctx.eval("be_id")).isEqualTo("sint:4");
        assertThat(ctx.eval("be_name")).isEqualTo("str:c");
        assertThat(ctx.eval("be_server_timeout")).isEqualTo("sint:5000");
        assertThat(ctx.eval("be_tunnel_timeout")).isEqualTo("sint:3000");
        assertThat(proxies.stream("f", "b").eval("be_tunnel_timeout")).as("not set").isEqualTo("sint:0");
        assertThat(proxies.stream("l", "l").eval("be_id")).isEqualTo("sint:7");
        assertThat(proxies.stream("f", null).eval("be_name")).isEqualTo("none");
    }

    @Test
    void backendsByName() {
        TestContext ctx = proxies.stream("f", "c");
        assertThat(ctx.eval("nbsrv")).as("weight 0 and disabled servers do not count").isEqualTo("sint:1");
        assertThat(ctx.eval("nbsrv(b)")).isEqualTo("sint:1");
        assertThat(ctx.eval("nbsrv(down)")).isEqualTo("sint:0");
        assertThat(ctx.eval("connslots")).isEqualTo("sint:-1");
        assertThat(ctx.eval("be_conn_free")).isEqualTo("sint:-1");
        assertThat(ctx.eval("connslots(down)")).isEqualTo("sint:0");
        assertThat(ctx.eval("be_conn_free(empty)")).isEqualTo("sint:0");
        assertThat(ctx.eval("queue")).isEqualTo("sint:0");
        assertThat(ctx.eval("avg_queue(b)")).isEqualTo("sint:0");
        assertThat(ctx.eval("nbsrv(nosuch)")).isEqualTo("none");
    }

    @Test
    void streamsOfTheBackend() {
        TestContext ctx = proxies.stream("f", "c");
        Backend c = proxies.backends.get("c");
        c.streams().tryAcquire();
        assertThat(ctx.eval("be_conn")).isEqualTo("sint:1");
        assertThat(ctx.eval("be_conn(b)")).isEqualTo("sint:0");
        c.streams().release();
        assertThat(ctx.eval("be_conn(c)")).isEqualTo("sint:0");
    }

    @Test
    void sessionRateAndTheNbsrvConverter() {
        TestContext ctx = proxies.stream("f", "c");
        assertThat(ctx.eval("be_sess_rate")).isEqualTo("sint:0");
        proxies.backends.get("b").counters().sessionStarted();
        assertThat(ctx.eval("be_sess_rate(b)")).isEqualTo("sint:1");
        assertThat(ctx.eval("str(c),nbsrv")).isEqualTo("sint:1");
        assertThat(ctx.eval("str(down),nbsrv")).isEqualTo("sint:0");
        assertThat(ctx.eval("str(nosuch),nbsrv")).isEqualTo("none");
    }
}
