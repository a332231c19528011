package io.fulcrum.conn;

import io.fulcrum.sample.TestContext;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * distcc_param and distcc_body; the expected values are what HAProxy 2.6 set in variables from tcp-request content
 * rules holding the same bytes (after WAIT_END).
 */
class DistccFetchesTest {
    private static final String MESSAGE = "DIST00000001ARGC00000002ARGV00000003gccARGV00000002-cDOTI00000005hello";

    private static TestContext holding(String bytes) {
        return HeldBytes.holding(bytes, false, new boolean[1]);
    }

    @Test
    void parametersAndBodies() {
        TestContext ctx = holding(MESSAGE);
        assertThat(ctx.eval("distcc_param(DIST)")).isEqualTo("sint:1");
        assertThat(ctx.eval("distcc_param(ARGC)")).isEqualTo("sint:2");
        assertThat(ctx.eval("distcc_param(ARGV)")).isEqualTo("sint:3");
        assertThat(ctx.eval("distcc_param(ARGV,2)")).isEqualTo("sint:2");
        assertThat(ctx.eval("distcc_param(ARGV,3)")).isEqualTo("none");
        assertThat(ctx.text("distcc_body(ARGV)")).isEqualTo("gcc");
        assertThat(ctx.text("distcc_body(ARGV,2)")).isEqualTo("-c");
        assertThat(ctx.text("distcc_body(ARGV,0)")).isEqualTo("gcc");
        assertThat(ctx.eval("distcc_param(DOTI)")).isEqualTo("sint:5");
        assertThat(ctx.text("distcc_body(DOTI)")).isEqualTo("hello");
        assertThat(ctx.eval("distcc_body(DIST)")).as("a token whose parameter is no length has no body").isEqualTo("bin:");
        assertThat(ctx.eval("distcc_body(ARGC)")).isEqualTo("bin:");
        assertThat(ctx.eval("distcc_param(XXXX)")).isEqualTo("none");
        assertThat(ctx.eval("distcc_param(DOTI,2)")).isEqualTo("none");
        assertThat(ctx.eval("distcc_param(DOTI),add(1)")).isEqualTo("sint:6");
        assertThat(ctx.requestContent.readableBytes()).as("read, not consumed").isEqualTo(MESSAGE.length());
    }

    @Test
    void badDigitsEndTheWalk() {
        assertThat(holding("DIST0000000ZARGV00000003gcc").eval("distcc_param(ARGV)")).isEqualTo("none");
        assertThat(holding("DIST0000000ZARGV00000003gcc").eval("distcc_param(DIST)")).isEqualTo("none");
        TestContext lower = holding("ARGV0000000agcc0123456ARGV00000001x");
        assertThat(lower.eval("distcc_param(ARGV)")).isEqualTo("sint:10");
        assertThat(lower.text("distcc_body(ARGV)")).isEqualTo("gcc0123456");
        assertThat(lower.text("distcc_body(ARGV,2)")).isEqualTo("x");
    }

    /** Bytes still to come: the rule waits while it can; then a body is what is there, as HAProxy shows it. */
    @Test
    void incompleteMessages() {
        assertThat(holding("DOTI00000005hel").text("distcc_body(DOTI)")).isEqualTo("hel");
        assertThat(holding("DOTI00000005hel").eval("distcc_param(DOTI)")).isEqualTo("sint:5");
        assertThat(holding("DIST00000001ARG").eval("distcc_param(DIST)")).isEqualTo("sint:1");
        assertThat(holding("DIST00000001ARG").eval("distcc_param(ARGV)")).isEqualTo("none");
        boolean[] missing = new boolean[1];
        assertThat(HeldBytes.holding("DOTI00000005hel", true, missing).eval("distcc_body(DOTI)")).isEqualTo("none");
        assertThat(missing[0]).as("the rule waits for the rest of the body").isTrue();
        missing[0] = false;
        assertThat(HeldBytes.holding("DIST00000001AR", true, missing).eval("distcc_param(ARGV)")).isEqualTo("none");
        assertThat(missing[0]).isTrue();
        missing[0] = false;
        assertThat(HeldBytes.holding("DIST0000000Z", true, missing).eval("distcc_param(ARGV)")).isEqualTo("none");
        assertThat(missing[0]).as("bad digits: nothing to wait for").isFalse();
    }

    @Test
    void responseSide() {
        TestContext ctx = new TestContext();
        ctx.responseContent = Unpooled.copiedBuffer("STAT00000000DOTO00000002ok", StandardCharsets.ISO_8859_1);
        ctx.responseSide = true;
        assertThat(ctx.eval("distcc_param(STAT)")).isEqualTo("sint:0");
        assertThat(ctx.text("distcc_body(DOTO)")).isEqualTo("ok");
    }

    /** HAProxy 2.6's messages (haproxy -c). */
    @Test
    void tokenNamesHaveFourCharacters() {
        assertThat(TestContext.error("distcc_param(DOT)"))
                .isEqualTo("invalid args in fetch method 'distcc_param' : token name must be exactly 4 characters");
        assertThat(TestContext.error("distcc_body(DOTIX,1)"))
                .isEqualTo("invalid args in fetch method 'distcc_body' : token name must be exactly 4 characters");
        assertThat(TestContext.error("distcc_param"))
                .isEqualTo("invalid args in fetch method 'distcc_param' : token name must be exactly 4 characters");
        assertThat(TestContext.error("distcc_param(DOTI,x)"))
                .isEqualTo("fetch method 'distcc_param' : failed to parse 'x' as type 'integer' at position 2");
    }
}
