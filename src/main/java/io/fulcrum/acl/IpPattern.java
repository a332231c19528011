package io.fulcrum.acl;

import io.fulcrum.cfg.ConfigException;
import io.fulcrum.sample.IpText;
import io.fulcrum.sample.Sample;
import io.fulcrum.sample.SampleType;

/**
 * An address pattern with an optional mask: IPv4 ("10.0.0.0/8", "10.0.0.0/255.0.0.0", even a mask that
 * is not a prefix such as "1.0.3.0/255.0.255.0") or IPv6 ("2001:db8::/32"), kept as 16 bytes (IPv4 in
 * its mapped form). An IPv4 pattern also matches the IPv4 address carried by an IPv6 sample (mapped,
 * compatible or 6to4); an IPv6 pattern matches IPv4 samples through their mapped form, as HAProxy does.
 *
 * @param prefix the mask's length in the 128-bit space, or -1 when the mask is not a prefix
 */
record IpPattern(byte[] network, byte[] mask, int prefix, boolean v4) {

    static IpPattern parse(String text) throws ConfigException {
        int slash = text.indexOf('/');
        String addr = slash < 0 ? text : text.substring(0, slash);
        String mask = slash < 0 ? null : text.substring(slash + 1);
        long v4 = IpText.parse4(addr);
        try {
            if (v4 >= 0) {
                long m = mask == null ? 0xffffffffL : mask4(mask);
                return new IpPattern(IpText.v4tov6(v4), v4Mask(m), v4Prefix(m), true).normalized();
            }
            byte[] v6 = IpText.parse6(addr);
            if (v6 != null) {
                int bits = mask == null ? 128 : Integer.parseInt(mask);
                if (bits < 0 || bits > 128) {
                    throw new NumberFormatException();
                }
                return new IpPattern(v6, prefixMask(bits), bits, false).normalized();
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new ConfigException("'" + text + "' is not a valid IPv4 or IPv6 address");
    }

    /** An IPv4 mask given as a length or a dotted quad, as a 32-bit value. */
    private static long mask4(String mask) {
        if (mask.indexOf('.') < 0) {
            int bits = Integer.parseInt(mask);
            if (bits < 0 || bits > 32) {
                throw new NumberFormatException();
            }
            return 0xffffffffL << (32 - bits) & 0xffffffffL;
        }
        long m = IpText.parse4(mask);
        if (m < 0) {
            throw new NumberFormatException();
        }
        return m;
    }

    /** The 128-bit prefix length of an IPv4 mask, or -1 when its bits are not contiguous. */
    private static int v4Prefix(long m) {
        int bits = Long.bitCount(m);
        return m == (0xffffffffL << (32 - bits) & 0xffffffffL) ? 96 + bits : -1;
    }

    private static byte[] v4Mask(long m) {
        byte[] out = prefixMask(96);
        for (int i = 0; i < 4; i++) {
            out[12 + i] = (byte) (m >>> (24 - 8 * i));
        }
        return out;
    }

    private static byte[] prefixMask(int bits) {
        byte[] out = new byte[16];
        for (int i = 0; i < 16; i++) {
            out[i] = (byte) (0xff00 >> Math.max(0, Math.min(8, bits - 8 * i)));
        }
        return out;
    }

    private IpPattern normalized() {
        byte[] n = network.clone();
        for (int i = 0; i < 16; i++) {
            n[i] &= mask[i];
        }
        return new IpPattern(n, mask, prefix, v4);
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
                long carried = carriedV4(a, off);
                if (carried < 0) {
                    return false;
                }
                a = IpText.v4tov6(carried);
                off = 0;
            }
        }
        for (int i = 0; i < 16; i++) {
            if ((byte) (a[off + i] & mask[i]) != network[i]) {
                return false;
            }
        }
        return true;
    }

    /**
     * The IPv4 address an IPv6 address carries for matching IPv4 patterns, or -1: mapped
     * ({@code ::ffff:a.b.c.d}), 6to4 ({@code 2002:AABB:CCDD::}), and for patterns also the deprecated
     * compatible form ({@code ::a.b.c.d}), which HAProxy matches though its casts ignore it.
     */
    static long carriedV4(byte[] a, int off) {
        long v4 = IpText.v6tov4(a, off);
        if (v4 >= 0) {
            return v4;
        }
        for (int i = 0; i < 12; i++) {
            if (a[off + i] != 0) {
                return -1;
            }
        }
        return (a[off + 12] & 0xffL) << 24 | (a[off + 13] & 0xff) << 16 | (a[off + 14] & 0xff) << 8 | a[off + 15] & 0xff;
    }
}
