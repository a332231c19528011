package io.fulcrum.conn;

import org.junit.jupiter.api.Test;

import java.net.Inet6Address;
import java.net.InetAddress;

import static org.assertj.core.api.Assertions.assertThat;

/** Addresses as glibc's inet_ntop writes them, which is what HAProxy puts in X-Forwarded-For and PROXY lines. */
class InetTextTest {

    private static String text(String address) throws Exception {
        return InetText.of(InetAddress.getByName(address));
    }

    @Test
    void canonicalForms() throws Exception {
        assertThat(text("127.0.0.1")).isEqualTo("127.0.0.1");
        assertThat(text("::1")).isEqualTo("::1");
        assertThat(text("::")).isEqualTo("::");
        assertThat(text("2001:DB8:0:0:0:0:0:1")).isEqualTo("2001:db8::1");
        assertThat(text("2001:db8:0:0:1:0:0:1")).isEqualTo("2001:db8::1:0:0:1");
        assertThat(text("2001:db8:0:1:1:1:1:1")).isEqualTo("2001:db8:0:1:1:1:1:1");
        assertThat(text("1::")).isEqualTo("1::");
        assertThat(text("::1.2.3.4")).isEqualTo("::1.2.3.4");
        assertThat(text("::0.0.1.2")).isEqualTo("::102");
        assertThat(text("0:0:0:0:0:1:0:0")).isEqualTo("::1:0:0");
    }

    @Test
    void ipv4MappedIsDotted() throws Exception {
        byte[] mapped = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, (byte) 0xff, (byte) 0xff, 10, 1, 2, 3};
        assertThat(InetText.of(Inet6Address.getByAddress(null, mapped, -1))).isEqualTo("::ffff:10.1.2.3");
    }
}
