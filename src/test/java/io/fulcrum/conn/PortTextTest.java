package io.fulcrum.conn;

import io.fulcrum.cfg.ConfigException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The port of an address as HAProxy 2.6's str2sa_range() reads it; each message is what haproxy -c printed. */
class PortTextTest {

    private static void refused(String port, PortText.Allow allow, String message) {
        assertThatThrownBy(() -> PortText.parse(port, "127.0.0.1:" + port, allow))
                .isInstanceOf(ConfigException.class).hasMessage(message);
    }

    @Test
    void portsRangesAndOffsets() throws Exception {
        assertThat(PortText.parse("80", "a:80", PortText.Allow.PORT)).isEqualTo(new PortText(80, 80, false));
        assertThat(PortText.parse("", "a", PortText.Allow.PORT)).isEqualTo(PortText.NONE);
        assertThat(PortText.parse("0", "a:0", PortText.Allow.OFFSET)).isEqualTo(new PortText(0, 0, false));
        assertThat(PortText.parse("1-3", "a:1-3", PortText.Allow.MANDATORY_RANGE)).isEqualTo(new PortText(1, 3, false));
        assertThat(PortText.parse("3-1", "a:3-1", PortText.Allow.MANDATORY_RANGE)).isEqualTo(new PortText(3, 1, false));
        assertThat(PortText.parse("-5", "a:-5", PortText.Allow.OFFSET)).isEqualTo(new PortText(-5, -5, true));
        assertThat(PortText.parse("+", "a:+", PortText.Allow.OFFSET)).isEqualTo(new PortText(0, 0, true));
    }

    @Test
    void haproxysMessages() {
        refused("1-3", PortText.Allow.PORT, "port range not permitted here in '127.0.0.1:1-3'");
        refused("1-3", PortText.Allow.OFFSET, "port range not permitted here in '127.0.0.1:1-3'");
        refused("+5", PortText.Allow.MANDATORY_RANGE, "port offset not permitted here in '127.0.0.1:+5'");
        refused("-1", PortText.Allow.PORT, "port offset not permitted here in '127.0.0.1:-1'");
        refused("x5", PortText.Allow.OFFSET, "invalid character 'x' in port number 'x5' in '127.0.0.1:x5'");
        refused("65536", PortText.Allow.PORT, "invalid port '65536'");
        refused("1-70000", PortText.Allow.RANGE, "invalid port '70000'");
        refused("0", PortText.Allow.MANDATORY_RANGE, "invalid port '0'");
        refused("1-", PortText.Allow.MANDATORY_RANGE, "invalid port ''");
        refused("", PortText.Allow.MANDATORY_RANGE, "missing port specification in '127.0.0.1:'");
        // Stricter than HAProxy, which reads the leading number of "5x".
        refused("5x", PortText.Allow.PORT, "invalid port '5x'");
    }
}
