package io.fulcrum.sample;

import static io.fulcrum.sample.SampleType.*;

/** HAProxy's implicit casts between sample types: which exist, and what each does to the value. */
final class Casts {
    private Casts() {
    }

    static boolean possible(SampleType from, SampleType to) {
        if (to == ANY || from == to) {
            return from != SAME;
        }
        if (from == ANY) {
            return to != SAME;
        }
        return switch (from) {
            case BOOL -> to == SINT || to == STR || to == BIN;
            case SINT -> to != METH && to != SAME;
            case ADDR -> to == SINT || to == IPV4 || to == IPV6 || to == STR || to == BIN;
            case IPV4 -> to == SINT || to == ADDR || to == IPV6 || to == STR || to == BIN;
            case IPV6 -> to == ADDR || to == IPV4 || to == STR || to == BIN;
            case STR -> to != SAME;
            case BIN -> to == STR || to == METH;
            case METH -> to == STR || to == BIN;
            default -> false;
        };
    }

    /**
     * Casts {@code s} in place; false when the cast does not exist or the value does not convert. Casts that
     * keep the value (bool and integer, string to binary, an address to "addr") keep the type as well.
     */
    static boolean apply(Sample s, SampleType to) {
        SampleType from = s.type();
        if (from == to || to == ANY || to == ADDR && (from == IPV4 || from == IPV6)) {
            return true;
        }
        switch (from) {
            case BOOL:
            case SINT:
                switch (to) {
                    case BOOL, SINT -> {
                        // Nothing changes, not even the type (HAProxy's c_none): "bool(1),add(1)" is a bool holding 2.
                        return true;
                    }
                    case ADDR, IPV4 -> {
                        return from == SINT && s.setIpv4((int) s.num());
                    }
                    case IPV6 -> {
                        return from == SINT && s.setIpv6(IpText.v4tov6(s.num() & 0xffffffffL));
                    }
                    case STR -> {
                        s.setStr(Long.toString(s.num()));
                        return true;
                    }
                    case BIN -> {
                        byte[] b = new byte[8];
                        long v = from == BOOL ? (s.num() != 0 ? 1 : 0) : s.num();
                        for (int i = 7; i >= 0; i--, v >>>= 8) {
                            b[i] = (byte) v;
                        }
                        s.setBin(b);
                        return true;
                    }
                    default -> {
                        return false;
                    }
                }
            case IPV4:
                switch (to) {
                    case SINT -> {
                        s.setSint(s.num());
                        return true;
                    }
                    case IPV6 -> {
                        s.setIpv6(IpText.v4tov6(s.num()));
                        return true;
                    }
                    case STR -> {
                        s.setStr(IpText.format4(s.num()));
                        return true;
                    }
                    case BIN -> {
                        long v = s.num();
                        s.setBin(new byte[]{(byte) (v >>> 24), (byte) (v >>> 16), (byte) (v >>> 8), (byte) v});
                        return true;
                    }
                    default -> {
                        return false;
                    }
                }
            case IPV6:
                switch (to) {
                    case IPV4 -> {
                        long v4 = IpText.v6tov4(s.bytes(), s.offset());
                        return v4 >= 0 && s.setIpv4((int) v4);
                    }
                    case STR -> {
                        s.setStr(IpText.format6(s.bytes(), s.offset()));
                        return true;
                    }
                    case BIN -> {
                        s.retype(BIN);
                        return true;
                    }
                    default -> {
                        return false;
                    }
                }
            case STR:
                switch (to) {
                    case BOOL, SINT -> {
                        if (s.length() == 0) {
                            return false;
                        }
                        s.setSint(readInt64(s.bytes(), s.offset(), s.length()));
                        return true;
                    }
                    case ADDR, IPV4 -> {
                        // HAProxy reads the address that starts the string ("1.2.3.4:80" is 1.2.3.4).
                        long v4 = IpText.parseLeading4(s.bytes(), s.offset(), s.length());
                        if (v4 >= 0) {
                            s.setIpv4((int) v4);
                            return true;
                        }
                        if (to == IPV4) {
                            return false;
                        }
                        byte[] v6 = IpText.parse6(s.bytes(), s.offset(), s.length());
                        return v6 != null && s.setIpv6(v6);
                    }
                    case IPV6 -> {
                        byte[] v6 = IpText.parse6(s.bytes(), s.offset(), s.length());
                        return v6 != null && s.setIpv6(v6);
                    }
                    case BIN -> {
                        // A string is already binary: it keeps its type ("str(abc),bytes(1)" is the string "bc").
                        return true;
                    }
                    case METH -> {
                        s.retype(to);
                        return true;
                    }
                    default -> {
                        return false;
                    }
                }
            case BIN:
                if (to == STR) {
                    // A NUL byte ends a string.
                    for (int i = 0; i < s.length(); i++) {
                        if (s.byteAt(i) == 0) {
                            s.setStr(s.bytes(), s.offset(), i);
                            return true;
                        }
                    }
                    s.retype(STR);
                    return true;
                }
                if (to == METH) {
                    s.retype(METH);
                    return true;
                }
                return false;
            case METH:
                if (to == STR || to == BIN) {
                    // Both give the method's name as a string.
                    s.retype(STR);
                    return true;
                }
                return false;
            default:
                return false;
        }
    }

    /**
     * HAProxy's {@code read_int64}: an optional sign and the digits that follow, stopping at the first
     * other byte ("12ab" is 12, "ab" is 0), saturating instead of overflowing.
     */
    static long readInt64(byte[] b, int off, int len) {
        int i = off;
        int end = off + len;
        boolean neg = false;
        if (i < end && (b[i] == '-' || b[i] == '+')) {
            neg = b[i] == '-';
            i++;
        }
        long v = 0;
        for (; i < end && b[i] >= '0' && b[i] <= '9'; i++) {
            int d = b[i] - '0';
            if (v > (Long.MAX_VALUE - d) / 10) {
                return neg ? Long.MIN_VALUE : Long.MAX_VALUE;
            }
            v = v * 10 + d;
        }
        return neg ? -v : v;
    }
}
