package io.fulcrum.proxy;

import io.fulcrum.sample.TestContext;
import io.fulcrum.sample.TestProxies;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The frontend fetches; the expected values are what HAProxy 2.6 returned with {@link TestProxies#SAMPLE}. */
class FrontendFetchesTest {
    private final TestProxies proxies = TestProxies.load(TestProxies.SAMPLE);

    @Test
    void theStreamsFrontend() {
        TestContext ctx = proxies.stream("f", "c");
        assertThat(ctx.eval("fe_id")).as("the disabled backend before it counts").isEqualTo("sint:2");
        assertThat(ctx.eval("fe_name")).isEqualTo("str:f");
        assertThat(ctx.eval("fe_defbe")).isEqualTo("str:c");
        assertThat(ctx.eval("fe_client_timeout")).isEqualTo("sint:5000");
        ctx = proxies.stream("l", "l");
        assertThat(ctx.eval("fe_id")).isEqualTo("sint:7");
        assertThat(ctx.eval("fe_defbe")).as("a listen's own backend is no default_backend").isEqualTo("none");
    }

    @Test
    void connectionsOfAFrontend() {
        TestContext ctx = proxies.stream("f", "c");
        assertThat(ctx.eval("fe_conn")).isEqualTo("sint:0");
        proxies.frontends.get("l").limit().tryAcquire();
        assertThat(ctx.eval("fe_conn(l)")).isEqualTo("sint:1");
        assertThat(ctx.eval("fe_conn(nosuch)")).isEqualTo("none");
    }

    @Test
    void ratesOfAFrontend() {
        TestContext ctx = proxies.stream("f", "c");
        assertThat(ctx.eval("fe_sess_rate")).isEqualTo("sint:0");
        assertThat(ctx.eval("fe_req_rate")).isEqualTo("sint:0");
        proxies.frontends.get("l").counters().sessionStarted();
        proxies.frontends.get("l").counters().requestStarted();
        proxies.frontends.get("l").counters().requestStarted();
        assertThat(ctx.eval("fe_sess_rate(l)")).isEqualTo("sint:1");
        assertThat(ctx.eval("fe_req_rate(l)")).isEqualTo("sint:2");
        assertThat(ctx.eval("fe_sess_rate")).as("the stream's own frontend").isEqualTo("sint:0");
        assertThat(ctx.eval("fe_req_rate(nosuch)")).isEqualTo("none");
    }
}
