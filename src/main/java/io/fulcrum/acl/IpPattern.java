package io.fulcrum.acl;

import io.fulcrum.cfg.ConfigException;
import io.fulcrum.sample.IpText;
import io.fulcrum.sample.Sample;
import io.fulcrum.sample.SampleType;

/**
 * An address pattern with an optional mask: IPv4 ("10.0.0.0/8", "10.0.0.0/255.0.0.0") or IPv6
 * ("2001:db8::/32"), kept as 16 bytes (IPv4 in its mapped form). An IPv4 pattern also matches the
 * IPv4 address carried by a mapped or 6to4 IPv6 sample; an IPv6 pattern matches IPv4 samples through
 * their mapped form, as HAProxy does.
 */
record IpPattern(byte[] network, int prefix, boolean v4) {

    static IpPattern parse(String text) throws ConfigException {
        int slash = text.indexOf('/');
        String addr = slash < 0 ? text : text.substring(0, slash);
        String mask = slash < 0 ? null : text.substring(slash + 1);
        long v4 = IpText.parse4(addr);
        try {
            if (v4 >= 0) {
                int bits = mask == null ? 32 : mask4(mask);
                return new IpPattern(IpText.v4tov6(v4), 96 + bits, true).normalized();
            }
            byte[] v6 = IpText.parse6(addr);
            if (v6 != null) {
                int bits = mask == null ? 128 : Integer.parseInt(mask);
                if (bits < 0 || bits > 128) {
                    throw new NumberFormatException();
                }
                return new IpPattern(v6, bits, false).normalized();
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new ConfigException("'" + text + "' is not a valid IPv4 or IPv6 address");
    }

    private static int mask4(String mask) {
        if (mask.indexOf('.') < 0) {
            int bits = Integer.parseInt(mask);
            if (bits < 0 || bits > 32) {
                throw new NumberFormatException();
            }
            return bits;
        }
        long m = IpText.parse4(mask);
        int bits = Long.bitCount(m);
        if (m < 0 || m != (0xffffffffL << (32 - bits) & 0xffffffffL)) {
            throw new NumberFormatException();
        }
        return bits;
    }

    private IpPattern normalized() {
        byte[] n = network.clone();
        for (int i = 0; i < 16; i++) {
            n[i] &= maskByte(i);
        }
        return new IpPattern(n, prefix, v4);
    }

    private int maskByte(int i) {
        int bits = Math.max(0, Math.min(8, prefix - 8 * i));
        return (0xff00 >> bits) & 0xff;
    }

    /** {@code smp} is an IPv4 or IPv6 sample. */
    boolean matches(Sample smp) {
        byte[] a;
        int off;
        if (smp.type() == SampleType.IPV4) {
            a = IpText.v4tov6(smp.num());
            off = 0;
        } else {
            a = smp.bytes();
            off = smp.offset();
            if (v4) {
                long carried = IpText.v6tov4(a, off);
                if (carried < 0) {
                    return false;
                }
                a = IpText.v4tov6(carried);
                off = 0;
            }
        }
        for (int i = 0; i < 16; i++) {
            if ((a[off + i] & maskByte(i)) != (network[i] & 0xff)) {
                return false;
            }
        }
        return true;
    }
}
