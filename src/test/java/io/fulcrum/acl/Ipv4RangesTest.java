package io.fulcrum.acl;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/** The IPv4 longest-prefix index against a plain scan of the networks (the longest holding the address, the first of equals). */
class Ipv4RangesTest {

    private record Net(int address, int length, int position) {
        boolean holds(int a) {
            return length == 0 || (a ^ address) >>> (32 - length) == 0;
        }
    }

    private static Ipv4Ranges index(List<Net> nets) {
        int n = nets.size();
        int[] a = new int[n + 3];
        int[] l = new int[n + 3];
        int[] p = new int[n + 3];
        for (int i = 0; i < n; i++) {
            a[i] = nets.get(i).address();
            l[i] = nets.get(i).length();
            p[i] = nets.get(i).position();
        }
        a[n] = -1; // past the count: ignored
        return new Ipv4Ranges(a, l, p, n);
    }

    private static int scan(List<Net> nets, int a) {
        Net best = null;
        for (Net n : nets) {
            if (n.holds(a) && (best == null || n.length() > best.length())) {
                best = n;
            }
        }
        return best == null ? -1 : best.position();
    }

    private static Net net(String dotted, int length, int position) {
        String[] q = dotted.split("\\.");
        int a = 0;
        for (String o : q) {
            a = a << 8 | Integer.parseInt(o);
        }
        return new Net(a, length, position);
    }

    private static int ip(String dotted) {
        return net(dotted, 32, 0).address();
    }

    @Test
    void noNetworkFindsNothing() {
        Ipv4Ranges r = index(List.of());
        assertThat(r.find(0)).isEqualTo(-1);
        assertThat(r.find(-1)).isEqualTo(-1);
        assertThat(r.find(ip("10.1.2.3"))).isEqualTo(-1);
    }

    @Test
    void longestNetworkWinsAndEqualNetworksKeepTheFirstGiven() {
        List<Net> nets = List.of(net("10.0.0.0", 8, 0), net("10.1.0.0", 16, 1), net("10.1.2.3", 32, 2), net("10.1.0.0", 16, 3),
                net("0.0.0.0", 0, 4), net("255.255.255.255", 32, 5), net("10.1.2.0", 24, 6));
        Ipv4Ranges r = index(nets);
        assertThat(r.find(ip("10.1.2.3"))).isEqualTo(2);
        assertThat(r.find(ip("10.1.2.4"))).isEqualTo(6);
        assertThat(r.find(ip("10.1.2.2"))).isEqualTo(6);
        assertThat(r.find(ip("10.1.3.0"))).isEqualTo(1);
        assertThat(r.find(ip("10.1.1.255"))).isEqualTo(1);
        assertThat(r.find(ip("10.2.0.0"))).isEqualTo(0);
        assertThat(r.find(ip("9.255.255.255"))).isEqualTo(4);
        assertThat(r.find(ip("11.0.0.0"))).isEqualTo(4);
        assertThat(r.find(ip("0.0.0.0"))).isEqualTo(4);
        assertThat(r.find(ip("255.255.255.255"))).isEqualTo(5);
        assertThat(r.find(ip("255.255.255.254"))).isEqualTo(4);
    }

    @Test
    void aNetworkThatEndsTheAddressSpace() {
        Ipv4Ranges r = index(List.of(net("255.0.0.0", 8, 0), net("255.255.0.0", 16, 1)));
        assertThat(r.find(-1)).isEqualTo(1);
        assertThat(r.find(ip("255.254.255.255"))).isEqualTo(0);
        assertThat(r.find(ip("254.255.255.255"))).isEqualTo(-1);
    }

    /** Random networks, short and long, dense in a few places: every edge of each and random addresses. */
    @Test
    void agreesWithAScanOfTheNetworks() {
        SplittableRandom rnd = new SplittableRandom(12345);
        for (int round = 0; round < 40; round++) {
            int count = 1 + rnd.nextInt(round < 20 ? 20 : 3000);
            List<Net> nets = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                int length = rnd.nextInt(33);
                // Half of them under 10.0.0.0/12, so that networks nest, touch and repeat.
                int a = rnd.nextBoolean() ? rnd.nextInt() : 0x0a000000 | rnd.nextInt(1 << 20);
                int mask = length == 0 ? 0 : -1 << (32 - length);
                nets.add(new Net(a & mask, length, i));
            }
            Ipv4Ranges r = index(nets);
            List<Integer> probes = new ArrayList<>(List.of(0, -1, Integer.MIN_VALUE, Integer.MAX_VALUE));
            for (Net n : nets) {
                int last = n.address() | (n.length() == 0 ? -1 : ~(-1 << (32 - n.length())));
                probes.addAll(List.of(n.address(), n.address() - 1, last, last + 1));
            }
            for (int i = 0; i < 2000; i++) {
                probes.add(rnd.nextBoolean() ? rnd.nextInt() : 0x0a000000 | rnd.nextInt(1 << 20));
            }
            for (int a : probes) {
                assertThat(r.find(a)).as("round %d, address %08x", round, a).isEqualTo(scan(nets, a));
            }
        }
    }
}
