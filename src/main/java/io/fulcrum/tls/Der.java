package io.fulcrum.tls;

import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One DER value (tag, length, content) in a byte array: what reading an OCSP response needs, no more (the JDK
 * has no public OCSP parser). A malformed encoding throws {@link Malformed}.
 */
record Der(int tag, byte[] bytes, int from, int start, int end) {
    static final int INTEGER = 0x02;
    static final int BIT_STRING = 0x03;
    static final int OCTET_STRING = 0x04;
    static final int OID = 0x06;
    static final int ENUMERATED = 0x0a;
    static final int SEQUENCE = 0x30;
    private static final DateTimeFormatter GENERALIZED = DateTimeFormatter.ofPattern("yyyyMMddHHmmss");

    /** Not DER, or not what was expected. */
    static final class Malformed extends Exception {
        private static final long serialVersionUID = 1L;

        Malformed() {
            super(null, null, false, false);
        }
    }

    /** The whole of {@code bytes} as one value. */
    static Der parse(byte[] bytes) throws Malformed {
        Der d = at(bytes, 0, bytes.length);
        if (d.end != bytes.length) {
            throw new Malformed();
        }
        return d;
    }

    private static Der at(byte[] b, int from, int limit) throws Malformed {
        if (from + 2 > limit || (b[from] & 0x1f) == 0x1f) {
            throw new Malformed();
        }
        int p = from + 1;
        int length = b[p++] & 0xff;
        if (length > 0x80) {
            int n = length & 0x7f;
            if (n > 3 || p + n > limit) {
                throw new Malformed();
            }
            length = 0;
            for (int i = 0; i < n; i++) {
                length = length << 8 | (b[p++] & 0xff);
            }
        } else if (length == 0x80) {
            throw new Malformed(); // indefinite: not DER
        }
        if (p + length > limit) {
            throw new Malformed();
        }
        return new Der(b[from] & 0xff, b, from, p, p + length);
    }

    /** The values inside a constructed one. */
    List<Der> children() throws Malformed {
        List<Der> out = new ArrayList<>();
        for (int p = start; p < end; ) {
            Der d = at(bytes, p, end);
            out.add(d);
            p = d.end;
        }
        return out;
    }

    /** Child {@code i}, which must have {@code tag}. */
    Der child(int i, int tag) throws Malformed {
        List<Der> c = children();
        if (i >= c.size() || c.get(i).tag != tag) {
            throw new Malformed();
        }
        return c.get(i);
    }

    /** The one value an explicit tag wraps. */
    Der inner() throws Malformed {
        List<Der> c = children();
        if (c.size() != 1) {
            throw new Malformed();
        }
        return c.get(0);
    }

    byte[] content() {
        return Arrays.copyOfRange(bytes, start, end);
    }

    /** The value with its tag and length. */
    byte[] encoded() {
        return Arrays.copyOfRange(bytes, from, end);
    }

    BigInteger integer() throws Malformed {
        if (end == start) {
            throw new Malformed();
        }
        return new BigInteger(content());
    }

    /** An OID in dotted form. */
    String oid() throws Malformed {
        if (tag != OID || end == start) {
            throw new Malformed();
        }
        StringBuilder b = new StringBuilder();
        long v = 0;
        boolean first = true;
        for (int p = start; p < end; p++) {
            v = v << 7 | (bytes[p] & 0x7f);
            if ((bytes[p] & 0x80) == 0) {
                if (first) {
                    b.append(v < 80 ? v / 40 : 2).append('.').append(v < 80 ? v % 40 : v - 80);
                    first = false;
                } else {
                    b.append('.').append(v);
                }
                v = 0;
            }
        }
        return b.toString();
    }

    /** A GeneralizedTime in UTC ({@code YYYYMMDDHHMMSSZ}, fractions of a second left out). */
    Instant time() throws Malformed {
        String s = new String(bytes, start, end - start, java.nio.charset.StandardCharsets.US_ASCII);
        if (s.length() < 15 || !s.endsWith("Z")) {
            throw new Malformed();
        }
        try {
            return LocalDateTime.parse(s.substring(0, 14), GENERALIZED).toInstant(ZoneOffset.UTC);
        } catch (java.time.format.DateTimeParseException e) {
            throw new Malformed();
        }
    }
}
