package io.fulcrum.conn;

import org.junit.jupiter.api.Test;

import java.net.Inet6Address;
import java.net.InetAddress;

import static org.assertj.core.api.Assertions.assertThat;

/** The {@code except} networks: the forms HAProxy 2.6 accepts and refuses (checked with {@code haproxy -c}). */
class IpNetworkTest {

    private static boolean in(String network, String address) throws Exception {
        return IpNetwork.parse(network).contains(InetAddress.getByName(address));
    }

    @Test
    void acceptedForms() {
        for (String ok : new String[] {"10.0.0.0/8", "10.1.2.3/8", "10.0.0.1/32", "0.0.0.0/0", "10.0.0.0/255.0.0.0",
            "10.0.0.1/255.0.255.0", "1.2.3", "localhost", "::1/128", "::1", "fe80::/10", "::/0", "::ffff:1.2.3.4/120",
            "::ffff:10.0.0.1"}) {
            assertThat(IpNetwork.parse(ok)).as(ok).isNotNull();
        }
    }

    @Test
    void refusedForms() {
        for (String bad : new String[] {"", "foo.invalid", "10.0.0.0/33", "10.0.0.0/", "10.0.0.0/abc", "10.0.0.1/8x",
            "10.0.0.1/-1", "/8", "1.2.3.4.5", "10.0.0.1/255.255.255.256", "::1/129", "::1/", "::1/abc", "::1/12x",
            "::1/-1", "[::1]", "fe80::1%lo"}) {
            assertThat(IpNetwork.parse(bad)).as(bad).isNull();
        }
    }

    @Test
    void ipv4Matching() throws Exception {
        assertThat(in("127.0.0.0/8", "127.1.2.3")).isTrue();
        assertThat(in("127.0.0.2/31", "127.0.0.3")).isTrue();
        assertThat(in("127.0.0.2/31", "127.0.0.1")).isFalse();
        assertThat(in("10.0.0.1/255.0.255.0", "10.9.0.7")).isTrue();
        assertThat(in("10.0.0.1/255.0.255.0", "10.9.1.7")).isFalse();
        assertThat(in("1.2.3", "1.2.0.3")).isTrue();
        assertThat(in("0.0.0.0/0", "::1")).as("an IPv4 network never holds an IPv6 address").isFalse();
    }

    @Test
    void ipv6Matching() throws Exception {
        assertThat(in("::1", "::1")).isTrue();
        assertThat(in("fe80::/10", "febf::1")).isTrue();
        assertThat(in("fe80::/10", "fec0::1")).isFalse();
        assertThat(in("::/0", "127.0.0.1")).as("an IPv6 network never holds an IPv4 address").isFalse();
        byte[] mapped = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, (byte) 0xff, (byte) 0xff, 127, 0, 0, 1};
        Inet6Address v4Client = Inet6Address.getByAddress(null, mapped, -1);
        assertThat(IpNetwork.parse("::ffff:127.0.0.0/104").contains(v4Client)).isTrue();
        assertThat(IpNetwork.parse("127.0.0.1").contains(v4Client)).isFalse();
    }
}
