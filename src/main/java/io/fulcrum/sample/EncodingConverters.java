package io.fulcrum.sample;

import io.fulcrum.cfg.ConfigException;

import java.io.ByteArrayOutputStream;
import java.util.Base64;

import static io.fulcrum.sample.ArgType.*;

/**
 * Converters between binary data and its text forms, and on the bits of numbers and addresses
 * (configuration.txt 7.3.1): hex, hex2i, be2dec, be2hex, htonl, base64, b64dec, ub64enc, ub64dec,
 * url_dec, url_enc and ipmask.
 */
final class EncodingConverters {
    private static final byte[] HEX = "0123456789ABCDEF".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    private EncodingConverters() {
    }

    static void register(SampleCatalog c) {
        c.converter(new Converter("hex", ArgSpec.NONE, SampleType.BIN, SampleType.STR, (a, smp, ctx) -> {
            byte[] out = new byte[smp.length() * 2];
            for (int i = 0; i < smp.length(); i++) {
                out[2 * i] = HEX[(smp.byteAt(i) >> 4) & 15];
                out[2 * i + 1] = HEX[smp.byteAt(i) & 15];
            }
            return smp.setStr(out);
        }));
        c.converter(new Converter("hex2i", ArgSpec.NONE, SampleType.STR, SampleType.SINT, EncodingConverters::hex2i));
        c.converter(new Converter("be2dec", ArgSpec.of(1, STR, SINT, SINT), SampleType.BIN, SampleType.STR,
                (a, smp, ctx) -> chunks(a, smp, true), EncodingConverters::checkBe2dec));
        c.converter(new Converter("be2hex", ArgSpec.of(1, STR, SINT, SINT), SampleType.BIN, SampleType.STR,
                (a, smp, ctx) -> chunks(a, smp, false), EncodingConverters::checkBe2hex));
        c.converter(new Converter("htonl", ArgSpec.NONE, SampleType.SINT, SampleType.BIN, (a, smp, ctx) -> {
            long v = smp.num();
            return smp.setBin(new byte[]{(byte) (v >>> 24), (byte) (v >>> 16), (byte) (v >>> 8), (byte) v});
        }));
        c.converter(new Converter("base64", ArgSpec.NONE, SampleType.BIN, SampleType.STR,
                (a, smp, ctx) -> smp.setStr(Base64.getEncoder().encode(smp.toByteArray()))));
        c.converter(new Converter("ub64enc", ArgSpec.NONE, SampleType.BIN, SampleType.STR,
                (a, smp, ctx) -> smp.setStr(Base64.getUrlEncoder().withoutPadding().encode(smp.toByteArray()))));
        c.converter(new Converter("b64dec", ArgSpec.NONE, SampleType.STR, SampleType.BIN, (a, smp, ctx) -> {
            byte[] out = base64(smp.bytes(), smp.offset(), smp.length());
            return out != null && smp.setBin(out);
        }));
        c.converter(new Converter("ub64dec", ArgSpec.NONE, SampleType.STR, SampleType.BIN, (a, smp, ctx) -> {
            byte[] out = base64url(smp.bytes(), smp.offset(), smp.length());
            return out != null && smp.setBin(out);
        }));
        c.converter(new Converter("url_dec", ArgSpec.of(0, SINT), SampleType.STR, SampleType.STR, EncodingConverters::urlDecode));
        c.converter(new Converter("url_enc", ArgSpec.of(1, STR), SampleType.STR, SampleType.STR, EncodingConverters::urlEncode,
                a -> {
                    if (a.length > 0 && !a[0].text().isEmpty() && !a[0].text().equals("query")) {
                        throw new ConfigException("Unexpected encode type. Allowed value is 'query'");
                    }
                }));
        // Declared IPv4 as HAProxy does (its type checks of the next converter follow that); an IPv6 address stays IPv6.
        c.converter(new Converter("ipmask", ArgSpec.of(1, MSK4, MSK6), SampleType.ADDR, SampleType.IPV4, EncodingConverters::ipmask));
    }

    /** Hexadecimal digits to an integer, wrapping past 64 bits; no result on any other character. */
    private static boolean hex2i(Arg[] a, Sample smp, SampleContext ctx) {
        long v = 0;
        for (int i = 0; i < smp.length(); i++) {
            int d = Character.digit(smp.byteAt(i), 16);
            if (d < 0) {
                return false;
            }
            v = v << 4 | d;
        }
        return smp.setSint(v);
    }

    // --- be2dec, be2hex ------------------------------------------------------------------------------

    private static void checkBe2dec(Arg[] a) throws ConfigException {
        long chunk = a.length > 1 ? a[1].num() : 0;
        if (chunk < 1 || chunk > 8) {
            throw new ConfigException("chunk_size out of [1..8] range (" + chunk + ")");
        }
        checkTruncate(a);
    }

    /** Chunks matter only with a separator or truncation; then they must have a size. */
    private static void checkBe2hex(Arg[] a) throws ConfigException {
        long chunk = a.length > 1 ? a[1].num() : 0;
        boolean truncate = a.length > 2 && a[2].num() != 0;
        if ((a.length > 0 && !a[0].text().isEmpty() || truncate) && chunk <= 0) {
            throw new ConfigException("chunk_size needs to be positive (" + chunk + ")");
        }
        checkTruncate(a);
    }

    private static void checkTruncate(Arg[] a) throws ConfigException {
        if (a.length > 2 && a[2].num() != 0 && a[2].num() != 1) {
            throw new ConfigException("Unsupported truncate value (" + a[2].num() + ")");
        }
    }

    /**
     * Big-endian chunks of the input, each as an unsigned decimal number or as hex digits, separated;
     * with truncation, a last chunk shorter than the others is left out.
     */
    private static boolean chunks(Arg[] a, Sample smp, boolean decimal) {
        String sep = a.length > 0 ? a[0].text() : "";
        int chunk = a.length > 1 && a[1].num() > 0 ? (int) Math.min(a[1].num(), Integer.MAX_VALUE) : Math.max(smp.length(), 1);
        boolean truncate = a.length > 2 && a[2].num() == 1;
        int len = truncate ? smp.length() - smp.length() % chunk : smp.length();
        StringBuilder out = new StringBuilder();
        for (int start = 0; start < len; start += chunk) {
            if (start > 0) {
                out.append(sep);
            }
            int end = Math.min(start + chunk, len);
            if (decimal) {
                long v = 0;
                for (int i = start; i < end; i++) {
                    v = v << 8 | (smp.byteAt(i) & 0xff);
                }
                out.append(Long.toUnsignedString(v));
            } else {
                for (int i = start; i < end; i++) {
                    out.append((char) HEX[(smp.byteAt(i) >> 4) & 15]).append((char) HEX[smp.byteAt(i) & 15]);
                }
            }
        }
        return smp.setStr(out);
    }

    // --- base64 --------------------------------------------------------------------------------------

    private static int base64Digit(byte c, boolean url) {
        if (c >= 'A' && c <= 'Z') {
            return c - 'A';
        }
        if (c >= 'a' && c <= 'z') {
            return c - 'a' + 26;
        }
        if (c >= '0' && c <= '9') {
            return c - '0' + 52;
        }
        if (url) {
            // HAProxy's base64url reads '=' as the last digit, like '_'.
            return c == '-' ? 62 : c == '_' || c == '=' ? 63 : -1;
        }
        return c == '+' ? 62 : c == '/' ? 63 : -1;
    }

    /**
     * Standard base64 as HAProxy decodes it: whole groups of four, each possibly ending with up to three
     * '=' (a group of padding only is an error), so padded groups may also stand in the middle.
     * Null when the text is not base64. Also used for keys given in base64.
     */
    static byte[] base64(byte[] b, int off, int len) {
        if (len % 4 != 0) {
            return null;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(len / 4 * 3);
        for (int g = off; g < off + len; g += 4) {
            int bits = 0;
            int pad = 0;
            for (int k = 0; k < 4; k++) {
                byte c = b[g + k];
                if (c == '=') {
                    pad++;
                    bits <<= 6;
                    continue;
                }
                int d = base64Digit(c, false);
                if (d < 0 || pad > 0) {
                    return null;
                }
                bits = bits << 6 | d;
            }
            if (pad == 4) {
                return null;
            }
            for (int k = 0; k < 3 - pad; k++) {
                out.write(bits >>> (16 - 8 * k));
            }
        }
        return out.toByteArray();
    }

    static byte[] base64(String text) {
        byte[] b = text.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
        return base64(b, 0, b.length);
    }

    /** base64url without padding: a last group of two or three digits makes one or two bytes. */
    static byte[] base64url(byte[] b, int off, int len) {
        if (len % 4 == 1) {
            return null;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(len / 4 * 3 + 2);
        for (int g = off; g < off + len; g += 4) {
            int n = Math.min(4, off + len - g);
            int bits = 0;
            for (int k = 0; k < n; k++) {
                int d = base64Digit(b[g + k], true);
                if (d < 0) {
                    return null;
                }
                bits = bits << 6 | d;
            }
            bits <<= 6 * (4 - n);
            for (int k = 0; k < n - 1; k++) {
                out.write(bits >>> (16 - 8 * k));
            }
        }
        return out.toByteArray();
    }

    // --- URLs ----------------------------------------------------------------------------------------

    /** %XX escapes; '+' is a space in a query string (after a '?') or everywhere in a form. */
    private static boolean urlDecode(Arg[] a, Sample smp, SampleContext ctx) {
        boolean plusIsSpace = a.length > 0 && a[0].num() != 0;
        byte[] out = new byte[smp.length()];
        int n = 0;
        for (int i = 0; i < smp.length(); i++) {
            byte c = smp.byteAt(i);
            if (c == '%') {
                if (i + 2 >= smp.length()) {
                    return false;
                }
                int hi = Character.digit(smp.byteAt(i + 1), 16);
                int lo = Character.digit(smp.byteAt(i + 2), 16);
                if (hi < 0 || lo < 0) {
                    return false;
                }
                out[n++] = (byte) (hi << 4 | lo);
                i += 2;
            } else {
                if (c == '?') {
                    plusIsSpace = true;
                }
                out[n++] = c == '+' && plusIsSpace ? (byte) ' ' : c;
            }
        }
        return smp.setStr(out, 0, n);
    }

    /** Everything but letters, digits and "-_.~" is %-escaped (the "query" encoding). */
    private static boolean urlEncode(Arg[] a, Sample smp, SampleContext ctx) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(smp.length() * 3);
        for (int i = 0; i < smp.length(); i++) {
            byte c = smp.byteAt(i);
            if (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.' || c == '~') {
                out.write(c);
            } else {
                out.write('%');
                out.write(HEX[(c >> 4) & 15]);
                out.write(HEX[c & 15]);
            }
        }
        return smp.setStr(out.toByteArray());
    }

    // --- ipmask --------------------------------------------------------------------------------------

    /** Masks an address; an IPv4-mapped IPv6 address counts as IPv4, another IPv6 address needs the IPv6 mask. */
    private static boolean ipmask(Arg[] a, Sample smp, SampleContext ctx) {
        if (smp.type() == SampleType.IPV6) {
            long v4 = mappedV4(smp);
            if (v4 >= 0) {
                return smp.setIpv4((int) (v4 & a[0].num()));
            }
            if (a.length < 2) {
                return false;
            }
            byte[] mask = a[1].as(byte[].class);
            byte[] out = new byte[16];
            for (int i = 0; i < 16; i++) {
                out[i] = (byte) (smp.byteAt(i) & mask[i]);
            }
            return smp.setIpv6(out);
        }
        return smp.setIpv4((int) (smp.num() & a[0].num()));
    }

    /** The IPv4 address of an IPv4-mapped IPv6 address (::ffff:a.b.c.d), or -1. */
    private static long mappedV4(Sample smp) {
        for (int i = 0; i < 10; i++) {
            if (smp.byteAt(i) != 0) {
                return -1;
            }
        }
        if (smp.byteAt(10) != (byte) 0xff || smp.byteAt(11) != (byte) 0xff) {
            return -1;
        }
        return (smp.byteAt(12) & 0xffL) << 24 | (smp.byteAt(13) & 0xff) << 16 | (smp.byteAt(14) & 0xff) << 8 | (smp.byteAt(15) & 0xff);
    }
}
