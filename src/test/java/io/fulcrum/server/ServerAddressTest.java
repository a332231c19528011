package io.fulcrum.server;

import io.fulcrum.cfg.ConfigException;
import io.fulcrum.conn.Endpoint;
import io.fulcrum.conn.InetText;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A server's address read as HAProxy 2.6's str2sa_range() reads it (configuration.txt section 11): every answer here is
 * what {@code show servers state} of the installed haproxy gives for the same {@code server} line.
 */
class ServerAddressTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            ":80                          | 0.0.0.0          | 80",
            "*:80                         | 0.0.0.0          | 80",
            ":                            | 0.0.0.0          | 0",
            "ip@:80                       | 0.0.0.0          | 80",
            "tcp@:80                      | 0.0.0.0          | 80",
            "ipv4@:83                     | 0.0.0.0          | 83",
            "ipv4@*:81                    | 0.0.0.0          | 81",
            "ipv6@:84                     | ::               | 84",
            "ipv6@*:80                    | ::               | 80",
            "tcp6@:80                     | ::               | 80",
            "ipv6@::1:80                  | ::1              | 80",
            "ipv6@[::1]:80                | ::1              | 80",
            "ipv6@[::1]                   | ::1              | 0",
            "ipv6@::1:+1                  | ::1              | 1",
            "ipv6@[::1]:+1                | ::1              | 1",
            "tcp6@::1:82                  | ::1              | 82",
            "ip@::1:80                    | ::1              | 80",
            "ip@[::1]:80                  | ::1              | 80",
            "::1:80                       | ::1              | 80",
            "[::1]:85                     | ::1              | 85",
            "[::1]                        | ::1              | 0",
            "::ffff:127.0.0.1:86          | ::ffff:127.0.0.1 | 86",
            "ipv6@::ffff:127.0.0.1:86     | ::ffff:127.0.0.1 | 86",
            "ipv4@127.0.0.1:80            | 127.0.0.1        | 80",
            "ipv4@127.0.0.3               | 127.0.0.3        | 0",
            "ip@127.0.0.2:81              | 127.0.0.2        | 81",
    })
    void addressAndPortAsHaproxyShowsThem(String text, String addr, int port) throws ConfigException {
        ServerSpec s = parse(text);
        assertThat(s.endpoint).isInstanceOf(Endpoint.Inet.class);
        assertThat(InetText.of(((Endpoint.Inet) s.endpoint).host())).isEqualTo(addr);
        assertThat(s.port).isEqualTo(port);
        assertThat(s.hostname).as("a literal address is no name").isFalse();
        assertThat(s.fqdn).isNull();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            // without brackets, the last colon is the port's: "::1" is host ':' and port 1
            "::1                  | could not resolve address ':'.",
            "ipv6@::1             | could not resolve address ':'.",
            "ipv6@::              | could not resolve address ':'.",
            "ipv6@127.0.0.1:80    | could not resolve address '127.0.0.1'.",
            "ipv4@::1:80          | could not resolve address '::1'.",
            "ipv4@[::1]:80        | could not resolve address '[::1]'.",
            "ipv4@::ffff:127.0.0.1:80 | could not resolve address '::ffff:127.0.0.1'.",
            "[]:80                | could not resolve address '[]'.",
            "ipv6@[]:80           | could not resolve address '[]'.",
            "ipv6@::1:99999       | invalid port '99999'",
    })
    void refusedAsHaproxyRefusesThem(String text, String message) {
        assertThatThrownBy(() -> parse(text)).isInstanceOf(ConfigException.class).hasMessage(message);
    }

    /** As haproxy 2.6: a unix path at most 97 bytes long, an abstract name 107. */
    @Test
    void unixSocketPathsHaveHaproxysLengthLimits() throws ConfigException {
        String p97 = "/" + "s".repeat(96);
        assertThat(parse(p97).endpoint).isEqualTo(new Endpoint.Unix(p97, false));
        assertThatThrownBy(() -> parse("unix@" + p97 + "x")).hasMessage("socket path 'unix@" + p97 + "x' too long (max 97)");
        assertThat(parse("abns@" + "n".repeat(107)).endpoint).isEqualTo(new Endpoint.Unix("n".repeat(107), true));
        assertThatThrownBy(() -> parse("abns@" + "n".repeat(108))).hasMessageEndingWith("too long (max 107)");
    }

    @Test
    void noHostIsAnAddressEvenWithInitAddrNone() throws ConfigException {
        // add server b/s :80 (init-addr none): HAProxy shows 0.0.0.0, not a server without address
        ServerSpec s = new ServerSpec();
        s.initAddr = "none";
        ServerAddress.parse(s, ":80");
        assertThat(((Endpoint.Inet) s.endpoint).host().getHostAddress()).isEqualTo("0.0.0.0");
        assertThat(s.hostname).isFalse();
    }

    @Test
    void whatInetPtonDoesNotReadIsAName() throws ConfigException {
        ServerSpec s = parse("127.1:80");
        assertThat(s.hostname).isTrue();
        assertThat(s.fqdn).isEqualTo("127.1");
        assertThat(((Endpoint.Inet) s.endpoint).host().getHostAddress()).isEqualTo("127.0.0.1");
        // add server (init-addr none) keeps "ipv6@::1" as the name ':' with port 1, unresolved, as HAProxy does
        s = new ServerSpec();
        s.initAddr = "none";
        ServerAddress.parse(s, "ipv6@::1");
        assertThat(s.endpoint).isNull();
        assertThat(s.fqdn).isEqualTo(":");
        assertThat(s.port).isEqualTo(1);
    }

    private static ServerSpec parse(String text) throws ConfigException {
        ServerSpec s = new ServerSpec();
        ServerAddress.parse(s, text);
        return s;
    }
}
