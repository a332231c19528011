package io.fulcrum.conn;

import java.net.Inet6Address;
import java.net.InetAddress;

/**
 * IP addresses written as HAProxy writes them (inet_ntop): IPv4 dotted, IPv6 in the canonical form of RFC 5952.
 * Java's own IPv6 form ("2001:db8:0:0:0:0:0:1") is not the canonical one.
 */
public final class InetText {
    private InetText() {
    }

    public static String of(InetAddress a) {
        return a instanceof Inet6Address ? ipv6(a.getAddress()) : a.getHostAddress();
    }

    /**
     * Lower-case groups without leading zeros, the longest run of two or more zero groups (the first of equal
     * runs) as "::", and the last 32 bits dotted when the address embeds an IPv4 one (::a.b.c.d, ::ffff:a.b.c.d).
     */
    private static String ipv6(byte[] raw) {
        int[] w = new int[8];
        for (int i = 0; i < 8; i++) {
            w[i] = (raw[2 * i] & 0xff) << 8 | raw[2 * i + 1] & 0xff;
        }
        int best = -1;
        int bestLen = 0;
        for (int i = 0; i < 8; ) {
            if (w[i] != 0) {
                i++;
                continue;
            }
            int j = i;
            while (j < 8 && w[j] == 0) {
                j++;
            }
            if (j - i > bestLen) {
                best = i;
                bestLen = j - i;
            }
            i = j;
        }
        if (bestLen < 2) {
            best = -1;
        }
        boolean embedsV4 = best == 0 && (bestLen == 6 || bestLen == 5 && w[5] == 0xffff);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 8; i++) {
            if (i == best) {
                sb.append(i == 0 ? "::" : ":");
                i += bestLen - 1;
                continue;
            }
            if (embedsV4 && i == 6) {
                sb.append(raw[12] & 0xff).append('.').append(raw[13] & 0xff).append('.')
                        .append(raw[14] & 0xff).append('.').append(raw[15] & 0xff);
                break;
            }
            sb.append(Integer.toHexString(w[i]));
            if (i < 7) {
                sb.append(':');
            }
        }
        return sb.toString();
    }
}
