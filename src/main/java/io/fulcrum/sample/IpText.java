package io.fulcrum.sample;

/**
 * IPv4 and IPv6 addresses to and from text, as the C library does it ({@code inet_pton},
 * {@code inet_ntop}): strict dotted quads, IPv6 with one "::" and an optional trailing IPv4 part,
 * printed with the longest run of zero groups compressed and IPv4-mapped addresses in dotted form.
 */
public final class IpText {
    private IpText() {
    }

    /** The IPv4 address in {@code b[off..off+len)}, as an unsigned integer, or -1 when it is not one. */
    public static long parse4(byte[] b, int off, int len) {
        long addr = 0;
        int parts = 0;
        int i = off;
        int end = off + len;
        while (parts < 4) {
            int start = i;
            int v = 0;
            while (i < end && b[i] >= '0' && b[i] <= '9' && i - start < 3) {
                v = v * 10 + (b[i] - '0');
                i++;
            }
            if (i == start || v > 255) {
                return -1;
            }
            addr = addr << 8 | v;
            parts++;
            if (parts < 4) {
                if (i >= end || b[i] != '.') {
                    return -1;
                }
                i++;
            }
        }
        return i == end ? addr : -1;
    }

    /**
     * The dotted quad at the start of {@code b[off..end)}, read as HAProxy reads the host of a URL or a header
     * holding an address: four decimal numbers up to 255 (leading zeros allowed), ending at the first byte that
     * is neither a digit nor a dot. Returns the bytes read in the upper 32 bits and the address in the lower
     * ones, or -1 when there is no address there.
     */
    public static long scan4(byte[] b, int off, int end) {
        long addr = 0;
        int octet = 0;
        int octets = 0;
        boolean digits = false;
        int i = off;
        for (; i < end; i++) {
            int c = b[i];
            if (c >= '0' && c <= '9') {
                octet = octet * 10 + c - '0';
                if (octet > 255) {
                    return -1;
                }
                if (!digits) {
                    octets++;
                    digits = true;
                }
            } else if (c == '.' && digits && octets < 4) {
                addr = addr << 8 | octet;
                octet = 0;
                digits = false;
            } else if (c == '.') {
                return -1;
            } else {
                break;
            }
        }
        if (octets < 4 || !digits) {
            return -1;
        }
        return (long) (i - off) << 32 | (addr << 8 | octet) & 0xffffffffL;
    }

    /**
     * The IPv4 address that starts {@code b[off..off+len)}, as HAProxy reads the addresses of map values
     * and of strings cast to addresses ("1.2.3.4/8" and "1.2.3.4:80" are 1.2.3.4); -1 when there is none.
     */
    public static long parseLeading4(byte[] b, int off, int len) {
        long r = scan4(b, off, off + len);
        return r < 0 ? -1 : r & 0xffffffffL;
    }

    public static long parseLeading4(String s) {
        byte[] b = s.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
        return parseLeading4(b, 0, b.length);
    }

    public static long parse4(String s) {
        byte[] b = s.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
        return parse4(b, 0, b.length);
    }

    /** The IPv6 address in {@code b[off..off+len)} as 16 bytes, or null when it is not one. */
    public static byte[] parse6(byte[] b, int off, int len) {
        int[] groups = new int[8];
        int n = 0;
        int gap = -1;
        int i = off;
        int end = off + len;
        if (len >= 2 && b[i] == ':' && b[i + 1] == ':') {
            gap = 0;
            i += 2;
            if (i == end) {
                return new byte[16];
            }
        } else if (len > 0 && b[i] == ':') {
            return null;
        }
        while (i < end) {
            if (n == 8) {
                return null;
            }
            int start = i;
            int v = 0;
            while (i < end && i - start < 5 && hex(b[i]) >= 0) {
                v = v << 4 | hex(b[i]);
                i++;
            }
            if (i < end && b[i] == '.') {
                // A trailing dotted IPv4 part fills the last two groups.
                long v4 = parse4(b, start, end - start);
                if (v4 < 0 || n > 6) {
                    return null;
                }
                groups[n++] = (int) (v4 >>> 16);
                groups[n++] = (int) (v4 & 0xffff);
                i = end;
                break;
            }
            if (i == start || i - start > 4) {
                return null;
            }
            groups[n++] = v;
            if (i == end) {
                break;
            }
            if (b[i] != ':') {
                return null;
            }
            i++;
            if (i < end && b[i] == ':') {
                if (gap >= 0) {
                    return null;
                }
                gap = n;
                i++;
            } else if (i == end) {
                return null;
            }
        }
        if (gap < 0 ? n != 8 : n == 8) {
            return null;
        }
        byte[] out = new byte[16];
        int zeros = 8 - n;
        for (int g = 0, k = 0; g < 8; g++) {
            int v = gap >= 0 && g >= gap && g < gap + zeros ? 0 : groups[k++];
            out[2 * g] = (byte) (v >>> 8);
            out[2 * g + 1] = (byte) v;
        }
        return out;
    }

    public static byte[] parse6(String s) {
        byte[] b = s.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
        return parse6(b, 0, b.length);
    }

    private static int hex(byte c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        if (c >= 'A' && c <= 'F') {
            return c - 'A' + 10;
        }
        return -1;
    }

    public static String format4(long addr) {
        return ((addr >>> 24) & 255) + "." + ((addr >>> 16) & 255) + "." + ((addr >>> 8) & 255) + "." + (addr & 255);
    }

    /** {@code inet_ntop(AF_INET6)}: lowercase hex, the longest run (of two or more) of zero groups as "::". */
    public static String format6(byte[] a, int off) {
        int[] g = new int[8];
        for (int i = 0; i < 8; i++) {
            g[i] = (a[off + 2 * i] & 255) << 8 | a[off + 2 * i + 1] & 255;
        }
        int bestStart = -1;
        int bestLen = 0;
        for (int i = 0; i < 8; ) {
            if (g[i] != 0) {
                i++;
                continue;
            }
            int j = i;
            while (j < 8 && g[j] == 0) {
                j++;
            }
            if (j - i > bestLen) {
                bestStart = i;
                bestLen = j - i;
            }
            i = j;
        }
        if (bestLen < 2) {
            bestStart = -1;
        }
        StringBuilder sb = new StringBuilder(40);
        for (int i = 0; i < 8; i++) {
            if (i == bestStart) {
                sb.append(i == 0 ? "::" : ":");
                i += bestLen - 1;
                continue;
            }
            // IPv4-mapped (::ffff:a.b.c.d) and IPv4-compatible (::a.b.c.d) addresses end in dotted form.
            if (i == 6 && bestStart == 0 && (bestLen == 6 || bestLen == 5 && g[5] == 0xffff)) {
                sb.append(format4((long) g[6] << 16 | g[7]));
                break;
            }
            sb.append(Integer.toHexString(g[i]));
            if (i < 7) {
                sb.append(':');
            }
        }
        return sb.toString();
    }

    /** The IPv4 address carried by an IPv4-mapped or 6to4 IPv6 address, or -1 (HAProxy's v6tov4). */
    public static long v6tov4(byte[] a, int off) {
        boolean mapped = true;
        for (int i = 0; i < 10; i++) {
            mapped &= a[off + i] == 0;
        }
        if (mapped && a[off + 10] == (byte) 0xff && a[off + 11] == (byte) 0xff) {
            return be32(a, off + 12);
        }
        if (a[off] == 0x20 && a[off + 1] == 0x02) {
            return be32(a, off + 2);
        }
        return -1;
    }

    /** The IPv4-mapped IPv6 address {@code ::ffff:a.b.c.d}. */
    public static byte[] v4tov6(long v4) {
        byte[] out = new byte[16];
        out[10] = (byte) 0xff;
        out[11] = (byte) 0xff;
        out[12] = (byte) (v4 >>> 24);
        out[13] = (byte) (v4 >>> 16);
        out[14] = (byte) (v4 >>> 8);
        out[15] = (byte) v4;
        return out;
    }

    private static long be32(byte[] a, int off) {
        return (a[off] & 255L) << 24 | (a[off + 1] & 255L) << 16 | (a[off + 2] & 255L) << 8 | a[off + 3] & 255L;
    }
}
