package io.fulcrum.server;

import io.fulcrum.sample.TestContext;
import io.fulcrum.sample.TestProxies;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The server fetches; the expected values are what HAProxy 2.6 returned with {@link TestProxies#SAMPLE}. */
class ServerFetchesTest {
    private final TestProxies proxies = TestProxies.load(TestProxies.SAMPLE);

    @Test
    void serversByName() {
        TestContext ctx = proxies.stream("f", "c");
        assertThat(ctx.eval("srv_is_up(s0)")).as("weight 0 is UP").isEqualTo("bool:1");
        assertThat(ctx.eval("srv_is_up(c/s2)")).isEqualTo("bool:0");
        assertThat(ctx.eval("srv_iweight(s2)")).isEqualTo("sint:7");
        assertThat(ctx.eval("srv_weight(s1)")).isEqualTo("sint:3");
        assertThat(ctx.eval("srv_uweight(b/s1)")).isEqualTo("sint:1");
        assertThat(ctx.eval("srv_conn_free(s1)")).isEqualTo("sint:-1");
        assertThat(ctx.eval("srv_queue(s1)")).isEqualTo("sint:0");
        assertThat(ctx.eval("srv_conn(s1)")).isEqualTo("sint:0");
        assertThat(ctx.eval("srv_conn(nosuch)")).isEqualTo("none");
        assertThat(ctx.eval("srv_conn(nosuch/s1)")).isEqualTo("none");
        Server s1 = proxies.backends.get("c").servers().get(1);
        s1.connectionOpened();
        assertThat(ctx.eval("srv_conn(c/s1)")).as("an open connection serving no stream (idle)").isEqualTo("sint:0");
        assertThat(s1.streams().tryAcquire()).isTrue();
        assertThat(ctx.eval("srv_conn(c/s1)")).as("a stream served").isEqualTo("sint:1");
    }

    @Test
    void theStreamsServer() {
        TestContext ctx = proxies.stream("f", "c");
        assertThat(ctx.eval("srv_id")).isEqualTo("none");
        ctx.server = proxies.backends.get("c").servers().get(1);
        assertThat(ctx.eval("srv_id")).isEqualTo("sint:2");
        assertThat(ctx.eval("srv_name")).isEqualTo("str:s1");
    }

    @Test
    void sessionRateAndTheSrvQueueConverter() {
        TestContext ctx = proxies.stream("f", "c");
        assertThat(ctx.eval("srv_sess_rate(s1)")).isEqualTo("sint:0");
        proxies.backends.get("b").servers().get(0).counters().sessionStarted();
        assertThat(ctx.eval("srv_sess_rate(b/s1)")).isEqualTo("sint:1");
        assertThat(ctx.eval("str(s1),srv_queue")).isEqualTo("sint:0");
        assertThat(ctx.eval("str(b/s1),srv_queue")).isEqualTo("sint:0");
        assertThat(ctx.eval("str(nosuch),srv_queue")).isEqualTo("none");
        assertThat(ctx.eval("str(nosuch/s1),srv_queue")).isEqualTo("none");
    }
}
