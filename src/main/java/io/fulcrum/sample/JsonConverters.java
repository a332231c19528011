package io.fulcrum.sample;

import io.fulcrum.cfg.ConfigException;

import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;

import static io.fulcrum.sample.ArgType.STR;

/**
 * JSON converters (configuration.txt 7.3.1): json escapes a string for JSON, json_query reads a value at a
 * JSON path, jwt_header_query and jwt_payload_query do it on the parts of a JSON Web Token. The reader is
 * lenient in the ways HAProxy's (mjson) is, so that the same documents give the same answers.
 */
final class JsonConverters {
    private static final byte[] HEX = "0123456789abcdef".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    private JsonConverters() {
    }

    static void register(SampleCatalog c) {
        c.converter(new Converter("json", ArgSpec.of(1, STR), SampleType.STR, SampleType.STR, JsonConverters::escape, a -> {
            if (a.length > 0 && !a[0].text().isEmpty() && Utf8Mode.of(a[0].text()) == null) {
                throw new ConfigException("Unexpected input code type. Allowed value are 'ascii', 'utf8', 'utf8s', 'utf8p' and 'utf8ps'");
            }
        }));
        c.converter(new Converter("json_query", ArgSpec.of(1, STR, STR), SampleType.STR, SampleType.ANY,
                (a, smp, ctx) -> query(a, smp, smp.bytes(), smp.offset(), smp.length()), JsonConverters::checkQuery));
        c.converter(new Converter("jwt_header_query", ArgSpec.of(0, STR, STR), SampleType.BIN, SampleType.ANY,
                (a, smp, ctx) -> jwtPart(a, smp, 0), JsonConverters::checkJwtQuery));
        c.converter(new Converter("jwt_payload_query", ArgSpec.of(0, STR, STR), SampleType.BIN, SampleType.ANY,
                (a, smp, ctx) -> jwtPart(a, smp, 1), JsonConverters::checkJwtQuery));
    }

    // --- json -----------------------------------------------------------------------------------------

    /** How the json converter reads its input: bytes, or UTF-8 failing on errors, skipping them, accepting overlong forms. */
    private enum Utf8Mode {
        ASCII, UTF8, UTF8S, UTF8P, UTF8PS;

        static Utf8Mode of(String name) {
            for (Utf8Mode m : values()) {
                if (m.name().equalsIgnoreCase(name) && name.equals(name.toLowerCase(java.util.Locale.ROOT))) {
                    return m;
                }
            }
            return null;
        }

        boolean skips() {
            return this == UTF8S || this == UTF8PS;
        }

        boolean fixesOverlong() {
            return this == UTF8P || this == UTF8PS;
        }
    }

    private static boolean escape(Arg[] a, Sample smp, SampleContext ctx) {
        Utf8Mode mode = a.length > 0 && !a[0].text().isEmpty() ? Utf8Mode.of(a[0].text()) : Utf8Mode.ASCII;
        ByteArrayOutputStream out = new ByteArrayOutputStream(smp.length() + 16);
        int i = 0;
        while (i < smp.length()) {
            int b = smp.byteAt(i) & 0xff;
            if (mode == Utf8Mode.ASCII || b < 0x80) {
                escapeChar(out, b);
                i++;
                continue;
            }
            long r = Utf8.next(smp, i);
            int code = Utf8.code(r);
            int flags = Utf8.flags(r);
            i += Utf8.length(r);
            // JSON escapes hold four hex digits: larger characters are errors too.
            boolean error = (flags & (Utf8.BAD | Utf8.RANGE)) != 0 || code > 0xffff;
            boolean overlong = (flags & Utf8.OVERLONG) != 0;
            if (error || overlong && !mode.fixesOverlong()) {
                if (mode.skips()) {
                    continue;
                }
                return false;
            }
            escapeChar(out, code);
        }
        return smp.setStr(out.toByteArray());
    }

    private static void escapeChar(ByteArrayOutputStream out, int c) {
        int shortEscape = switch (c) {
            case '"', '\\', '/' -> c;
            case '\b' -> 'b';
            case '\f' -> 'f';
            case '\n' -> 'n';
            case '\r' -> 'r';
            case '\t' -> 't';
            default -> -1;
        };
        if (shortEscape >= 0) { // as HAProxy: the two-character escapes JSON has, six-character ones for the other controls
            out.write('\\');
            out.write(shortEscape);
        } else if (c >= 0x20 && c < 0x7f) {
            out.write(c);
        } else {
            out.write('\\');
            out.write('u');
            for (int shift = 12; shift >= 0; shift -= 4) {
                out.write(HEX[(c >> shift) & 15]);
            }
        }
    }

    /** One UTF-8 character: code point, its length in bytes and what is wrong with it, packed in a long. */
    private static final class Utf8 {
        static final int BAD = 1;
        static final int OVERLONG = 2;
        static final int RANGE = 4;

        private Utf8() {
        }

        static long next(Sample s, int i) {
            int b = s.byteAt(i) & 0xff;
            int n = b >= 0xf0 && b < 0xf8 ? 4 : b >= 0xe0 && b < 0xf0 ? 3 : b >= 0xc0 && b < 0xe0 ? 2 : 0;
            if (n == 0 || i + n > s.length()) {
                return pack(b, 1, BAD);
            }
            int code = b & (0xff >> (n + 1));
            for (int k = 1; k < n; k++) {
                int cb = s.byteAt(i + k) & 0xff;
                if ((cb & 0xc0) != 0x80) {
                    return pack(b, 1, BAD);
                }
                code = code << 6 | cb & 0x3f;
            }
            int flags = 0;
            if (code < (n == 2 ? 0x80 : n == 3 ? 0x800 : 0x10000)) {
                flags |= OVERLONG;
            }
            if (code >= 0xd800 && code <= 0xdfff || code == 0xfffe || code == 0xffff) {
                flags |= RANGE;
            }
            return pack(code, n, flags);
        }

        private static long pack(int code, int length, int flags) {
            return (long) code << 16 | length << 8 | flags;
        }

        static int code(long r) {
            return (int) (r >>> 16);
        }

        static int length(long r) {
            return (int) (r >>> 8) & 0xff;
        }

        static int flags(long r) {
            return (int) r & 0xff;
        }
    }

    // --- json_query ---------------------------------------------------------------------------------------

    private static void checkQuery(Arg[] a) throws ConfigException {
        if (a[0].text().isEmpty()) {
            throw new ConfigException("json_path must not be empty");
        }
        checkOutputType(a);
        a[0] = new Arg(STR, a[0].text(), 0, JsonPath.parse(a[0].text()));
    }

    private static void checkOutputType(Arg[] a) throws ConfigException {
        if (a.length > 1 && !a[1].text().isEmpty() && !a[1].text().equals("int")) {
            throw new ConfigException("output_type only supports \"int\" as argument");
        }
    }

    private static boolean query(Arg[] a, Sample smp, byte[] json, int off, int len) {
        boolean asInt = a.length > 1 && a[1].text().equals("int");
        JsonReader r = new JsonReader(json, off, len);
        int start = r.find(a[0].as(JsonPath.class));
        if (start < 0) {
            return false;
        }
        return switch (json[start]) {
            case 't', 'f' -> r.literalAt(start) && smp.setBool(json[start] == 't');
            case '"' -> {
                byte[] s = r.unescape(start);
                yield s != null && smp.setStr(s);
            }
            case 'n', '[', '{' -> false; // null, arrays and objects are not samples
            case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9' ->
                    asInt ? integer(smp, json, start, off + len) : smp.setStr(Numbers.g(r.number(start)));
            default -> false;
        };
    }

    /** As strtoll(token, NULL, 0) reading on past the token, kept only within JSON's safe integers (±2^53-1). */
    private static boolean integer(Sample smp, byte[] b, int i, int end) {
        boolean neg = b[i] == '-';
        if (neg || b[i] == '+') {
            i++;
        }
        int base = 10;
        if (i + 1 < end && b[i] == '0' && (b[i + 1] == 'x' || b[i + 1] == 'X') && i + 2 < end && Character.digit(b[i + 2], 16) >= 0) {
            base = 16;
            i += 2;
        } else if (i < end && b[i] == '0') {
            base = 8;
        }
        long v = 0;
        for (; i < end && Character.digit(b[i], base) >= 0; i++) {
            v = v * base + Character.digit(b[i], base);
            if (v > 1L << 53) {
                return false; // out of the safe range, or of strtoll's
            }
        }
        v = neg ? -v : v;
        return Math.abs(v) <= (1L << 53) - 1 && smp.setSint(v);
    }

    /** A JSON path: "$", then ".key" (a backslash escapes the next character) or "[index]" steps. */
    record JsonPath(List<Object> steps) {
        static JsonPath parse(String path) {
            List<Object> steps = new ArrayList<>();
            if (!path.startsWith("$")) {
                steps.add(null); // matches nothing
                return new JsonPath(steps);
            }
            int i = 1;
            while (i < path.length()) {
                char c = path.charAt(i);
                if (c == '.') {
                    StringBuilder key = new StringBuilder();
                    for (i++; i < path.length() && path.charAt(i) != '.' && path.charAt(i) != '['; i++) {
                        if (path.charAt(i) == '\\' && i + 1 < path.length()) {
                            i++;
                        }
                        key.append(path.charAt(i));
                    }
                    steps.add(key.toString());
                } else if (c == '[') {
                    int close = path.indexOf(']', i);
                    String digits = path.substring(i + 1, close < 0 ? path.length() : close);
                    steps.add(digits.chars().allMatch(Character::isDigit) && !digits.isEmpty() && digits.length() < 10
                            ? Integer.valueOf(digits) : null);
                    i = close < 0 ? path.length() : close + 1;
                } else {
                    steps.add(null);
                    break;
                }
            }
            return new JsonPath(steps);
        }
    }

    /**
     * Finds the value at a path in a JSON text, reading only as far as needed: what follows the value is not
     * checked. In an object the first member with the key is followed, as HAProxy does.
     */
    private static final class JsonReader {
        private static final int MAX_DEPTH = 20;
        private final byte[] b;
        private final int end;
        private int pos;

        JsonReader(byte[] b, int off, int len) {
            this.b = b;
            this.pos = off;
            this.end = off + len;
        }

        /** The offset of the value at {@code path}, or -1 when it is not there or the text breaks before it. */
        int find(JsonPath path) {
            try {
                return find(path.steps(), 0, 0);
            } catch (IllegalStateException malformed) {
                return -1;
            }
        }

        private int find(List<Object> steps, int k, int depth) {
            skipSpaces();
            if (k == steps.size()) {
                return pos < end ? pos : -1;
            }
            Object step = steps.get(k);
            if (pos >= end || step == null) {
                return -1;
            }
            if (b[pos] == '{' && step instanceof String key) {
                enter(depth);
                pos++;
                while (true) {
                    skipSpaces();
                    if (peek() == '}') {
                        return -1;
                    }
                    int keyStart = pos + 1;
                    skipString();
                    boolean match = key.equals(new String(b, keyStart, pos - 1 - keyStart, java.nio.charset.StandardCharsets.ISO_8859_1));
                    skipSpaces();
                    expect(':');
                    if (match) {
                        return find(steps, k + 1, depth + 1);
                    }
                    skipValue(depth + 1);
                    if (!comma('}')) {
                        return -1;
                    }
                }
            }
            if (b[pos] == '[' && step instanceof Integer index) {
                enter(depth);
                pos++;
                for (int n = 0; ; n++) {
                    skipSpaces();
                    if (peek() == ']') {
                        return -1;
                    }
                    if (n == index) {
                        return find(steps, k + 1, depth + 1);
                    }
                    skipValue(depth + 1);
                    if (!comma(']')) {
                        return -1;
                    }
                }
            }
            return -1;
        }

        /** Skips a ',' and says true, or the closing character and says false. */
        private boolean comma(char close) {
            skipSpaces();
            byte c = peek();
            pos++;
            if (c == ',') {
                return true;
            }
            if (c == close) {
                return false;
            }
            throw new IllegalStateException();
        }

        private void enter(int depth) {
            if (depth >= MAX_DEPTH) {
                throw new IllegalStateException();
            }
        }

        private void skipValue(int depth) {
            skipSpaces();
            byte c = peek();
            if (c == '"') {
                skipString();
            } else if (c == '{' || c == '[') {
                enter(depth);
                byte close = (byte) (c == '{' ? '}' : ']');
                pos++;
                skipSpaces();
                if (peek() == close) {
                    pos++;
                    return;
                }
                do {
                    if (c == '{') {
                        skipSpaces();
                        skipString();
                        skipSpaces();
                        expect(':');
                    }
                    skipValue(depth + 1);
                } while (comma((char) close));
            } else if (c == '-' || c >= '0' && c <= '9') {
                pos = numberEnd(pos);
            } else if (!literal("true") && !literal("false") && !literal("null")) {
                throw new IllegalStateException();
            }
        }

        /** True when "true" or "false" stands at {@code start}. */
        boolean literalAt(int start) {
            pos = start;
            return literal("true") || literal("false");
        }

        private boolean literal(String word) {
            for (int k = 0; k < word.length(); k++) {
                if (pos + k >= end || b[pos + k] != word.charAt(k)) {
                    return false;
                }
            }
            pos += word.length();
            return true;
        }

        /** A number is a run of digits, signs, dots and exponents starting with a digit or '-'. */
        private int numberEnd(int i) {
            while (i < end && (b[i] >= '0' && b[i] <= '9' || b[i] == '-' || b[i] == '+' || b[i] == '.' || b[i] == 'e' || b[i] == 'E')) {
                i++;
            }
            return i;
        }

        private void skipString() {
            expect('"');
            while (pos < end && b[pos] != '"') {
                pos += b[pos] == '\\' ? 2 : 1;
            }
            expect('"');
        }

        private void expect(char c) {
            if (peek() != c) {
                throw new IllegalStateException();
            }
            pos++;
        }

        private byte peek() {
            if (pos >= end) {
                throw new IllegalStateException();
            }
            return b[pos];
        }

        private void skipSpaces() {
            while (pos < end && (b[pos] == ' ' || b[pos] == '\t' || b[pos] == '\r' || b[pos] == '\n')) {
                pos++;
            }
        }

        /** The number at {@code start} as strtod reads its token ("-" is 0, "1e" is 1). */
        double number(int start) {
            String token = new String(b, start, numberEnd(start) - start, java.nio.charset.StandardCharsets.ISO_8859_1);
            for (int n = token.length(); n > 0; n--) {
                try {
                    return Double.parseDouble(token.substring(0, n));
                } catch (NumberFormatException e) {
                    // try a shorter prefix
                }
            }
            return 0;
        }

        /**
         * The string at {@code start} without its escapes, or null: mjson knows \" \\ \b \f \n \r \t, and \\u
         * only for characters up to 0xff (\\u00XX, one byte); "\/" and others are errors.
         */
        byte[] unescape(int start) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            int i = start + 1;
            while (i < end && b[i] != '"') {
                if (b[i] != '\\') {
                    out.write(b[i++]);
                    continue;
                }
                if (i + 1 >= end) {
                    return null;
                }
                byte e = b[i + 1];
                int plain = "\"\\bfnrt".indexOf(e);
                if (plain >= 0) {
                    out.write("\"\\\b\f\n\r\t".charAt(plain));
                    i += 2;
                } else if (e == 'u' && i + 5 < end && b[i + 2] == '0' && b[i + 3] == '0') {
                    out.write(unhex(b[i + 4]) << 4 | unhex(b[i + 5]));
                    i += 6;
                } else {
                    return null;
                }
            }
            return i < end ? out.toByteArray() : null;
        }

        /** A hex digit's value; mjson computes something for any character. */
        private static int unhex(byte c) {
            return c <= '9' ? c - '0' : c <= 'F' ? c - '7' : c - 'W';
        }
    }

    /** C's printf conversions that JSON numbers need. */
    static final class Numbers {
        private Numbers() {
        }

        /** printf's "%g": six significant digits, fixed or exponent notation, without trailing zeros. */
        static String g(double v) {
            if (Double.isNaN(v)) {
                return v < 0 ? "-nan" : "nan";
            }
            if (Double.isInfinite(v)) {
                return v < 0 ? "-inf" : "inf";
            }
            if (v == 0) {
                return 1 / v < 0 ? "-0" : "0";
            }
            BigDecimal d = new BigDecimal(v).round(new MathContext(6, RoundingMode.HALF_EVEN));
            int exp = d.precision() - d.scale() - 1;
            if (exp < -4 || exp >= 6) {
                String digits = strip(d.unscaledValue().abs().toString());
                String mantissa = digits.length() > 1 ? digits.charAt(0) + "." + digits.substring(1) : digits;
                return (v < 0 ? "-" : "") + mantissa + "e" + (exp < 0 ? "-" : "+") + (Math.abs(exp) < 10 ? "0" : "") + Math.abs(exp);
            }
            String fixed = d.setScale(Math.max(5 - exp, 0), RoundingMode.HALF_EVEN).toPlainString();
            return fixed.indexOf('.') >= 0 ? stripFraction(fixed) : fixed;
        }

        private static String strip(String digits) {
            int n = digits.length();
            while (n > 1 && digits.charAt(n - 1) == '0') {
                n--;
            }
            return digits.substring(0, n);
        }

        private static String stripFraction(String s) {
            int n = s.length();
            while (s.charAt(n - 1) == '0') {
                n--;
            }
            if (s.charAt(n - 1) == '.') {
                n--;
            }
            return s.substring(0, n);
        }
    }

    // --- JWT ---------------------------------------------------------------------------------------------

    private static void checkJwtQuery(Arg[] a) throws ConfigException {
        checkOutputType(a);
        if (a.length > 0 && !a[0].text().isEmpty()) {
            a[0] = new Arg(STR, a[0].text(), 0, JsonPath.parse(a[0].text()));
        }
    }

    /**
     * The decoded header (part 0) or payload (part 1) of a token ("header.payload.signature" in base64url), or
     * the value at the path in it. Without a path the documentation promises the decoded part, which haproxy
     * 2.6.12 does not give: Fulcrum gives it, as a string.
     */
    private static boolean jwtPart(Arg[] a, Sample smp, int part) {
        int dot = indexOf(smp, '.', 0);
        if (part == 1 && dot < 0) {
            return false;
        }
        int from = part == 0 ? 0 : dot + 1;
        int to = indexOf(smp, '.', from);
        byte[] json = EncodingConverters.base64url(smp.bytes(), smp.offset() + from, (to < 0 ? smp.length() : to) - from);
        if (json == null) {
            return false;
        }
        if (a.length == 0 || a[0].text().isEmpty()) {
            return smp.setStr(json);
        }
        return query(a, smp, json, 0, json.length);
    }

    private static int indexOf(Sample smp, char c, int from) {
        for (int i = from; i < smp.length(); i++) {
            if (smp.byteAt(i) == c) {
                return i;
            }
        }
        return -1;
    }
}
