package io.fulcrum.sample;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Constants, the environment and the process's state; expected values and messages are HAProxy 2.6's. */
class InternalFetchesTest {
    private final TestContext ctx = new TestContext();

    @Test
    void constants() {
        assertThat(ctx.eval("bin(4142)")).isEqualTo("bin:AB");
        assertThat(ctx.eval("bool(TRUE)")).isEqualTo("bool:1");
        assertThat(ctx.eval("bool(0)")).isEqualTo("bool:0");
        assertThat(ctx.eval("meth(GET)")).isEqualTo("meth:GET");
        assertThat(ctx.eval("always_true")).isEqualTo("bool:1");
        assertThat(ctx.eval("env(NO_SUCH_VARIABLE_HERE)")).isEqualTo("none");
        assertThat(ctx.eval("env()")).isEqualTo("none");
        assertThat(ctx.eval("nbproc")).isEqualTo("sint:1");
        assertThat(ctx.eval("proc")).isEqualTo("sint:1");
        assertThat(ctx.eval("thread")).as("off the event loops").isEqualTo("sint:0");
    }

    @Test
    void argumentErrors() {
        assertThat(TestContext.error("bin(414)")).isEqualTo("invalid args in fetch method 'bin' : an even number of hex digit is expected");
        assertThat(TestContext.error("bin(zz)")).isEqualTo("invalid args in fetch method 'bin' : an hex digit is expected (found 'z')");
        assertThat(TestContext.error("bin()")).isEqualTo("invalid args in fetch method 'bin' : (null)");
        assertThat(TestContext.error("bool(yes)")).isEqualTo("invalid args in fetch method 'bool' : Expects 'true', 'false', '0' or '1'");
        assertThat(TestContext.error("date(0,xs)")).isEqualTo("invalid args in fetch method 'date' : expects 's', 'ms' or 'us', got 'xs'");
        assertThat(TestContext.error("date(x)")).isEqualTo("fetch method 'date' : failed to parse 'x' as type 'integer' at position 1");
        assertThat(TestContext.error("uuid(3)")).isEqualTo("invalid args in fetch method 'uuid' : Unsupported UUID version: '3'");
        assertThat(TestContext.error("uuid(4)")).isNull();
    }

    @Test
    void dates() {
        assertThat(around("date", 1000, 0)).isTrue();
        assertThat(around("date(0,ms)", 1, 0)).isTrue();
        assertThat(around("date(0,us)", 0, 0)).isTrue();
        assertThat(around("date(3600)", 1000, 3600)).isTrue();
        assertThat(around("date(-1000,ms)", 1, -1000)).isTrue();
        assertThat(Long.parseLong(ctx.text("date_us"))).isBetween(0L, 999_999L);
    }

    /** True when {@code expr} gives the time in ms / {@code unitMs} (microseconds when 0), plus {@code offset}. */
    private boolean around(String expr, long unitMs, long offset) {
        long before = System.currentTimeMillis();
        long v = Long.parseLong(ctx.text(expr)) - offset;
        long after = System.currentTimeMillis();
        return unitMs == 0 ? v >= before * 1000 && v <= after * 1000 + 999 : v >= before / unitMs && v <= after / unitMs;
    }

    @Test
    void randomValues() {
        for (int i = 0; i < 100; i++) {
            assertThat(Long.parseLong(ctx.text("rand"))).isBetween(0L, 4294967295L);
            assertThat(Long.parseLong(ctx.text("rand(10)"))).isBetween(0L, 9L);
        }
        assertThat(ctx.text("rand(0)")).isEqualTo("0");
        assertThat(ctx.text("rand(1)")).isEqualTo("0");
        assertThat(ctx.text("uuid")).matches("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}");
        assertThat(ctx.text("uuid")).isNotEqualTo(ctx.text("uuid"));
    }

    @Test
    void processState() {
        assertThat(ctx.text("hostname")).isNotEmpty();
        assertThat(ctx.eval("stopping")).isEqualTo("bool:0");
        ctx.stopping = true;
        assertThat(ctx.eval("stopping")).isEqualTo("bool:1");
        assertThat(ctx.eval("wait_end")).isEqualTo("bool:1");
        assertThat(ctx.eval("unique-id")).isEqualTo("none");
        assertThat(ctx.eval("last_rule_file")).isEqualTo("none");
        assertThat(ctx.eval("last_rule_line")).isEqualTo("none");
    }

    @Test
    void emptyParenthesesAreNoArgumentWhereNoStringComesFirst() {
        // HAProxy: rand() and date() are rand and date (but req.hdr() is req.hdr with an empty name).
        assertThat(TestContext.parse("rand()").args()).isEmpty();
        assertThat(TestContext.parse("date()").args()).isEmpty();
    }
}
