package io.fulcrum.listener;

import io.fulcrum.sample.TestContext;
import io.fulcrum.sample.TestProxies;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The listening-socket fetches; the expected values are what HAProxy 2.6 returned with {@link TestProxies#SAMPLE}. */
class ListenerFetchesTest {
    private final TestProxies proxies = TestProxies.load(TestProxies.SAMPLE);

    @Test
    void socketsAreNumberedInTheirFrontend() {
        TestContext ctx = proxies.stream("f", "c");
        assertThat(ctx.eval("so_id")).isEqualTo("sint:1");
        assertThat(ctx.eval("so_name")).isEqualTo("none");
        ctx.listener = proxies.listeners.get("f").get(1);
        assertThat(ctx.eval("so_id")).isEqualTo("sint:2");
        assertThat(ctx.eval("so_name")).isEqualTo("str:second");
        ctx.listener = proxies.listeners.get("f").get(2);
        assertThat(ctx.eval("so_id")).as("the second address of the line").isEqualTo("sint:3");
        assertThat(ctx.eval("so_name")).isEqualTo("str:second");
        assertThat(proxies.stream("l", "l").eval("so_id")).isEqualTo("sint:1");
        assertThat(ctx.eval("dst_conn")).isEqualTo("sint:0");
        assertThat(new TestContext().eval("so_id")).isEqualTo("none");
    }
}
