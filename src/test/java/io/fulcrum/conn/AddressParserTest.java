package io.fulcrum.conn;

import io.fulcrum.cfg.ConfigException;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AddressParserTest {

    @Test
    void anEmptyHostOrAStarMeansEveryIpv4Address() throws Exception {
        assertThat(AddressParser.listeners(":80")).containsExactly(inet("0.0.0.0", 80));
        assertThat(AddressParser.listeners("*:80")).containsExactly(inet("0.0.0.0", 80));
    }

    @Test
    void portRangesAndCommaListsExpand() throws Exception {
        List<Endpoint> e = AddressParser.listeners("127.0.0.1:8000-8002,127.0.0.2:9000");
        assertThat(e).containsExactly(inet("127.0.0.1", 8000), inet("127.0.0.1", 8001), inet("127.0.0.1", 8002),
                inet("127.0.0.2", 9000));
    }

    @Test
    void ipv6FormsAreAccepted() throws Exception {
        assertThat(AddressParser.listeners(":::8080")).containsExactly(new Endpoint.Inet(InetAddress.getByName("::"), 8080,
                Endpoint.Family.ANY));
        assertThat(AddressParser.listeners("[::1]:8080").get(0).toString()).isEqualTo("[::1]:8080");
        assertThat(AddressParser.listeners("ipv6@:8080").get(0)).isEqualTo(new Endpoint.Inet(InetAddress.getByName("::"), 8080,
                Endpoint.Family.IPV6));
    }

    @Test
    void unixSocketsAndInheritedDescriptors() throws Exception {
        assertThat(AddressParser.listeners("/run/x.sock")).containsExactly(new Endpoint.Unix("/run/x.sock", false));
        assertThat(AddressParser.listeners("unix@/run/x.sock")).containsExactly(new Endpoint.Unix("/run/x.sock", false));
        assertThat(AddressParser.listeners("abns@name")).containsExactly(new Endpoint.Unix("name", true));
    }

    /** HAProxy's limits (values of haproxy 2.6): a path leaves room for the ".<pid>.tmp" name it is bound to first. */
    @Test
    void unixSocketPathsHaveHaproxysLengthLimits() throws Exception {
        String p97 = "/" + "a".repeat(96);
        assertThat(AddressParser.listeners(p97)).containsExactly(new Endpoint.Unix(p97, false));
        assertThatThrownBy(() -> AddressParser.listeners(p97 + "b")).hasMessage("socket path '" + p97 + "b' too long (max 97)");
        assertThatThrownBy(() -> AddressParser.listeners("unix@" + p97 + "b"))
                .hasMessage("socket path 'unix@" + p97 + "b' too long (max 97)");
        String n107 = "n".repeat(107);
        assertThat(AddressParser.listeners("abns@" + n107)).containsExactly(new Endpoint.Unix(n107, true));
        assertThatThrownBy(() -> AddressParser.listeners("abns@" + n107 + "x")).hasMessage("socket path 'abns@" + n107 + "x' too long (max 107)");
    }

    @Test
    void errorsUseHaproxysWording() {
        assertThatThrownBy(() -> AddressParser.listeners("127.0.0.1")).hasMessage("missing port specification in '127.0.0.1'");
        assertThatThrownBy(() -> AddressParser.listeners(":")).hasMessage("missing port specification in ':'");
        assertThatThrownBy(() -> AddressParser.listeners(":99999")).hasMessage("invalid port '99999'");
        assertThatThrownBy(() -> AddressParser.listeners(":80-70")).hasMessage("invalid port range '80-70'");
        assertThatThrownBy(() -> AddressParser.listeners("udp@:80")).hasMessage("dgram-type address not acceptable in 'udp@:80'");
        assertThatThrownBy(() -> AddressParser.listeners("nohost.invalid:80"))
                .isInstanceOf(ConfigException.class).hasMessage("invalid address: 'nohost.invalid' in 'nohost.invalid:80'");
    }

    @Test
    void aDescriptorMustBeAnOpenSocket() {
        // fd 0 is this JVM's standard input: open, but not a socket.
        assertThatThrownBy(() -> AddressParser.listeners("fd@0")).hasMessageStartingWith("cannot use file descriptor '0'");
        assertThatThrownBy(() -> AddressParser.listeners("fd@99999")).hasMessageStartingWith("cannot use file descriptor '99999'");
    }

    private static Endpoint inet(String host, int port) throws Exception {
        return new Endpoint.Inet(InetAddress.getByName(host), port, Endpoint.Family.ANY);
    }
}
