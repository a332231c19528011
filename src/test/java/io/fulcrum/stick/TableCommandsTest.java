package io.fulcrum.stick;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The CLI's reading of an ip table's key, as haproxy 2.6's inetaddr_host() reads it (checked on haproxy's set table). */
class TableCommandsTest {

    private static String ip(String text) {
        int a = TableCommands.inetaddrHost(text);
        return (a >>> 24) + "." + (a >>> 16 & 255) + "." + (a >>> 8 & 255) + "." + (a & 255);
    }

    @Test
    void aDottedQuadIsItself() {
        assertThat(ip("10.0.0.1")).isEqualTo("10.0.0.1");
        assertThat(ip("255.255.255.255")).isEqualTo("255.255.255.255");
    }

    @Test
    void whatIsNoAddressIsReadAnyway() {
        assertThat(ip("nothex")).isEqualTo("0.0.0.0");
        assertThat(ip("::1")).isEqualTo("0.0.0.0");
        assertThat(ip("")).isEqualTo("0.0.0.0");
        assertThat(ip("1.2.3")).isEqualTo("1.2.3.0");
        assertThat(ip("10.0.0.300")).isEqualTo("10.0.1.44"); // the group's excess carries into the one before
        assertThat(ip("1.2.3.4.5")).isEqualTo("1.2.3.4");
        assertThat(ip("1234.0.0.1")).isEqualTo("234.0.0.1"); // a group's last three digits
    }
}
