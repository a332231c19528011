package io.fulcrum.sample;

import io.fulcrum.cfg.ConfigException;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.fulcrum.sample.ArgType.*;

/**
 * Converters that cut, join, compare and rewrite strings (configuration.txt 7.3.1). Results are new
 * arrays or windows on the input, never changes to the input's bytes.
 */
final class StringConverters {
    private StringConverters() {
    }

    static void register(SampleCatalog c) {
        c.converter(new Converter("concat", ArgSpec.of(1, STR, STR, STR), SampleType.STR, SampleType.STR,
                StringConverters::concat, a -> optionalVar(a, 1)));
        c.converter(new Converter("add_item", ArgSpec.of(2, STR, STR, STR), SampleType.STR, SampleType.STR,
                StringConverters::addItem, StringConverters::checkAddItem));
        c.converter(new Converter("field", ArgSpec.of(2, SINT, STR, SINT), SampleType.STR, SampleType.STR,
                (a, smp, ctx) -> Fields.field(smp, a[0].num(), delimiters(a), count(a)), StringConverters::checkFields));
        c.converter(new Converter("word", ArgSpec.of(2, SINT, STR, SINT), SampleType.STR, SampleType.STR,
                (a, smp, ctx) -> Fields.word(smp, a[0].num(), delimiters(a), count(a)), StringConverters::checkFields));
        c.converter(new Converter("ltrim", ArgSpec.of(1, STR), SampleType.STR, SampleType.STR, (a, smp, ctx) -> trim(smp, a[0], true)));
        c.converter(new Converter("rtrim", ArgSpec.of(1, STR), SampleType.STR, SampleType.STR, (a, smp, ctx) -> trim(smp, a[0], false)));
        c.converter(new Converter("cut_crlf", ArgSpec.NONE, SampleType.STR, SampleType.STR, (a, smp, ctx) -> {
            int n = 0;
            while (n < smp.length() && smp.byteAt(n) != '\r' && smp.byteAt(n) != '\n') {
                n++;
            }
            return smp.setStr(smp.bytes(), smp.offset(), n);
        }));
        c.converter(new Converter("regsub", ArgSpec.of(2, REG, STR, STR), SampleType.STR, SampleType.STR,
                StringConverters::regsub, StringConverters::checkRegsub));
        c.converter(new Converter("strcmp", ArgSpec.of(1, STR), SampleType.STR, SampleType.SINT,
                StringConverters::strcmp, a -> requiredVar(a, 0)));
        c.converter(new Converter("secure_memcmp", ArgSpec.of(1, STR), SampleType.BIN, SampleType.BOOL,
                StringConverters::secureMemcmp, a -> requiredVar(a, 0)));
        c.converter(new Converter("iif", ArgSpec.of(2, STR, STR), SampleType.BOOL, SampleType.STR,
                (a, smp, ctx) -> smp.setStr(a[smp.bool() ? 0 : 1].text())));
        // The declared output is binary, but a string input stays a string (HAProxy keeps the type).
        c.converter(new Converter("bytes", ArgSpec.of(1, SINT, SINT), SampleType.BIN, SampleType.BIN, StringConverters::bytes));
        c.converter(new Converter("host_only", ArgSpec.NONE, SampleType.STR, SampleType.STR, StringConverters::hostOnly));
        c.converter(new Converter("port_only", ArgSpec.NONE, SampleType.STR, SampleType.SINT, StringConverters::portOnly));
        c.converter(new Converter("language", ArgSpec.of(1, STR, STR), SampleType.STR, SampleType.STR, Language::convert,
                Language::check));
    }

    // --- variables as arguments -----------------------------------------------------------------

    /** Resolves argument {@code k}, when given and not empty, as a variable name. */
    private static void optionalVar(Arg[] a, int k) throws ConfigException {
        if (a.length > k && !a[k].text().isEmpty()) {
            requiredVar(a, k);
        }
    }

    /** Resolves argument {@code k} as a variable name, with HAProxy's wording for a bad one. */
    static void requiredVar(Arg[] a, int k) throws ConfigException {
        if (a[k].text().isEmpty()) {
            throw new ConfigException("missing variable name");
        }
        try {
            a[k] = new Arg(VAR, a[k].text(), 0, VarRef.parse(a[k].text()));
        } catch (ConfigException e) {
            throw new ConfigException("failed to register variable name '" + a[k].text() + "'");
        }
    }

    /** The text of the variable of argument {@code k}, or null when there is none. */
    private static Sample varText(Arg[] a, int k, SampleContext ctx) {
        return a.length > k && a[k].type() == VAR ? a[k].as(VarRef.class).getAs(ctx, SampleType.STR) : null;
    }

    // --- concat, add_item --------------------------------------------------------------------------

    private static boolean concat(Arg[] a, Sample smp, SampleContext ctx) {
        ByteArrayOutputStream out = start(smp);
        append(out, a, 0);
        Sample v = varText(a, 1, ctx);
        if (v != null) {
            out.write(v.bytes(), v.offset(), v.length());
        }
        append(out, a, 2);
        return smp.setStr(out.toByteArray());
    }

    private static void checkAddItem(Arg[] a) throws ConfigException {
        if (a[1].text().isEmpty() && (a.length < 3 || a[2].text().isEmpty())) {
            throw new ConfigException("one of the optional arguments has to be nonempty");
        }
        optionalVar(a, 1);
    }

    /** Appends the delimiter only between a non-empty sample and something non-empty to add. */
    private static boolean addItem(Arg[] a, Sample smp, SampleContext ctx) {
        Sample v = varText(a, 1, ctx);
        boolean suffix = a.length > 2 && !a[2].text().isEmpty();
        ByteArrayOutputStream out = start(smp);
        if (smp.length() > 0 && (v != null && v.length() > 0 || suffix)) {
            append(out, a, 0);
        }
        if (v != null) {
            out.write(v.bytes(), v.offset(), v.length());
        }
        append(out, a, 2);
        return smp.setStr(out.toByteArray());
    }

    private static ByteArrayOutputStream start(Sample smp) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(smp.length() + 32);
        out.write(smp.bytes(), smp.offset(), smp.length());
        return out;
    }

    private static void append(ByteArrayOutputStream out, Arg[] a, int k) {
        if (a.length > k) {
            out.writeBytes(a[k].text().getBytes(StandardCharsets.ISO_8859_1));
        }
    }

    // --- field, word ---------------------------------------------------------------------------------

    private static void checkFields(Arg[] a) throws ConfigException {
        if (a[0].num() == 0) {
            throw new ConfigException("Unexpected value 0 for index");
        }
        if (a[1].text().isEmpty()) {
            throw new ConfigException("Empty separators list");
        }
    }

    private static byte[] delimiters(Arg[] a) {
        return a[1].text().getBytes(StandardCharsets.ISO_8859_1);
    }

    private static long count(Arg[] a) {
        return a.length > 2 ? a[2].num() : 1;
    }

    /** HAProxy's field and word: fields are between any two delimiters, words are runs of non-delimiters. */
    private static final class Fields {
        private Fields() {
        }

        /**
         * Fields {@code index} (1-based, negative from the end) and the {@code count - 1} that follow it in the
         * direction of reading; up to the end of the string when {@code count} is not positive or goes
         * beyond it. No result when the field does not exist.
         */
        static boolean field(Sample smp, long index, byte[] delims, long count) {
            int len = smp.length();
            if (index > 0) {
                int start = 0;
                long n = 1;
                int i = 0;
                for (; i < len && n < index; i++) {
                    if (isDelim(smp.byteAt(i), delims)) {
                        n++;
                        start = i + 1;
                    }
                }
                if (n < index) {
                    return false;
                }
                int end = len;
                long left = count;
                for (int j = start; j < len; j++) {
                    if (isDelim(smp.byteAt(j), delims) && --left == 0) {
                        end = j;
                        break;
                    }
                }
                return smp.setStr(smp.bytes(), smp.offset() + start, end - start);
            }
            int end = len;
            long n = -1;
            int i = len - 1;
            for (; i >= 0 && n > index; i--) {
                if (isDelim(smp.byteAt(i), delims)) {
                    n--;
                    end = i;
                }
            }
            if (n > index) {
                return false;
            }
            int start = 0;
            long left = count;
            for (int j = end - 1; j >= 0; j--) {
                if (isDelim(smp.byteAt(j), delims) && --left == 0) {
                    start = j + 1;
                    break;
                }
            }
            return smp.setStr(smp.bytes(), smp.offset() + start, end - start);
        }

        /**
         * Words {@code index} (1-based, negative from the end) and the {@code count - 1} that follow it in the
         * direction of reading, with the delimiters between them; up to the end of the string (delimiters
         * included) when {@code count} is not positive or goes beyond the last word. An empty string when
         * there is no such word.
         */
        static boolean word(Sample smp, long index, byte[] delims, long count) {
            int len = smp.length();
            boolean forward = index > 0;
            long wanted = Math.abs(index);
            long seen = 0;
            long left = count;
            int first = -1;
            int stop = forward ? len : 0;
            boolean inWord = false;
            for (int k = 0; k < len; k++) {
                int i = forward ? k : len - 1 - k;
                boolean delim = isDelim(smp.byteAt(i), delims);
                if (!inWord && !delim) {
                    inWord = true;
                    if (seen < wanted && ++seen == wanted) {
                        first = i;
                    }
                } else if (inWord && delim) {
                    inWord = false;
                    if (seen == wanted && --left == 0) {
                        stop = forward ? i : i + 1;
                        break;
                    }
                }
            }
            if (seen < wanted) {
                return smp.setStr(smp.bytes(), smp.offset(), 0);
            }
            int start = forward ? first : stop;
            int end = forward ? stop : first + 1;
            return smp.setStr(smp.bytes(), smp.offset() + start, end - start);
        }

        private static boolean isDelim(byte b, byte[] delims) {
            for (byte d : delims) {
                if (d == b) {
                    return true;
                }
            }
            return false;
        }
    }

    // --- trims, bytes, host ------------------------------------------------------------------------

    private static boolean trim(Sample smp, Arg chars, boolean left) {
        String set = chars.text();
        int start = 0;
        int end = smp.length();
        if (left) {
            while (start < end && set.indexOf(smp.byteAt(start) & 0xff) >= 0) {
                start++;
            }
        } else {
            while (end > start && set.indexOf(smp.byteAt(end - 1) & 0xff) >= 0) {
                end--;
            }
        }
        return smp.setStr(smp.bytes(), smp.offset() + start, end - start);
    }

    /** Offset and length compare as unsigned numbers in HAProxy: a negative offset is past the end, a negative length unlimited. */
    private static boolean bytes(Arg[] a, Sample smp, SampleContext ctx) {
        long len = smp.length();
        long off = a[0].num();
        long start = off < 0 || off >= len ? len : off;
        long end = len;
        if (a.length > 1 && a[1].num() >= 0 && a[1].num() < len - start) {
            end = start + a[1].num();
        }
        return smp.set(smp.type(), smp.bytes(), smp.offset() + (int) start, (int) (end - start));
    }

    /** Where the port of a Host value starts (at its ':'), or -1: the last colon not inside brackets. */
    private static int portColon(Sample smp) {
        for (int i = smp.length() - 1; i >= 0; i--) {
            byte b = smp.byteAt(i);
            if (b == ']') {
                return -1;
            }
            if (b == ':') {
                return i;
            }
        }
        return -1;
    }

    private static boolean hostOnly(Arg[] a, Sample smp, SampleContext ctx) {
        int colon = portColon(smp);
        byte[] host = new byte[colon < 0 ? smp.length() : colon];
        for (int i = 0; i < host.length; i++) {
            byte b = smp.byteAt(i);
            host[i] = b >= 'A' && b <= 'Z' ? (byte) (b + 32) : b;
        }
        return smp.setStr(host);
    }

    /** The port, read digit by digit without checks into 32 unsigned bits as HAProxy does ("x:abc" gives 5451). */
    private static boolean portOnly(Arg[] a, Sample smp, SampleContext ctx) {
        int colon = portColon(smp);
        int port = 0;
        for (int i = colon + 1; colon >= 0 && i < smp.length(); i++) {
            port = port * 10 + (smp.byteAt(i) - '0');
        }
        return smp.setSint(port & 0xffffffffL);
    }

    // --- comparisons -----------------------------------------------------------------------------------

    /**
     * As HAProxy's memcmp(3) of the common part: the difference of the first differing bytes, else -1, 0 or
     * 1 as the sample is shorter, as long or longer (the sign of the lengths' difference, not the difference).
     */
    private static boolean strcmp(Arg[] a, Sample smp, SampleContext ctx) {
        Sample v = a[0].as(VarRef.class).getAs(ctx, SampleType.STR);
        if (v == null) {
            return false;
        }
        int n = Math.min(smp.length(), v.length());
        for (int i = 0; i < n; i++) {
            int d = (smp.byteAt(i) & 0xff) - (v.byteAt(i) & 0xff);
            if (d != 0) {
                return smp.setSint(d);
            }
        }
        return smp.setSint(Integer.signum(smp.length() - v.length()));
    }

    private static boolean secureMemcmp(Arg[] a, Sample smp, SampleContext ctx) {
        Sample v = a[0].as(VarRef.class).getAs(ctx, SampleType.BIN);
        if (v == null) {
            return false;
        }
        // Constant time for equal lengths: MessageDigest.isEqual does not stop at the first difference.
        return smp.setBool(MessageDigest.isEqual(smp.toByteArray(), v.toByteArray()));
    }

    // --- regsub ------------------------------------------------------------------------------------------

    private static void checkRegsub(Arg[] a) throws ConfigException {
        boolean ci = false;
        String flags = a.length > 2 ? a[2].text() : "";
        for (int i = 0; i < flags.length(); i++) {
            char f = flags.charAt(i);
            if (f == 'i') {
                ci = true;
            } else if (f != 'g') {
                throw new ConfigException("invalid regex flag '" + f + "', only 'i' and 'g' are supported");
            }
        }
        // A missing or invalid regex is reported once the configuration is read, as HAProxy (ArgResolution).
        if (ci && a[0].value() instanceof Pattern) {
            a[0] = new Arg(REG, a[0].text(), 0, PcreRegex.compile(a[0].text(), true));
        }
    }

    /**
     * sed's s/regex/subst/[g] as HAProxy runs it: an empty match at the place the search starts also
     * copies the next byte, so that the search moves on.
     */
    private static boolean regsub(Arg[] a, Sample smp, SampleContext ctx) {
        if (!(a[0].value() instanceof Pattern regex)) {
            return false; // never compiled: in a defaults section whose rules no proxy runs, as HAProxy leaves it
        }
        String in = smp.text();
        Matcher m = regex.matcher(in);
        boolean global = a.length > 2 && a[2].text().indexOf('g') >= 0;
        StringBuilder out = new StringBuilder(in.length() + 16);
        int from = 0;
        while (from <= in.length() && m.find(from)) {
            out.append(in, from, m.start());
            if (!substitute(a[1].text(), m, out)) {
                return false;
            }
            if (m.end() == from) {
                if (from < in.length()) {
                    out.append(in.charAt(from));
                }
                from++;
            } else {
                from = m.end();
            }
            if (!global) {
                break;
            }
        }
        if (from < in.length()) {
            out.append(in, from, in.length());
        }
        return smp.setStr(out.toString());
    }

    /**
     * Appends the substitution: "\0" to "\9" are groups (empty when missing), "\xHH" a byte whose digits are
     * read without checks as HAProxy does, any other escaped character itself. False on a truncated escape.
     */
    private static boolean substitute(String subst, Matcher m, StringBuilder out) {
        for (int i = 0; i < subst.length(); i++) {
            char c = subst.charAt(i);
            if (c != '\\') {
                out.append(c);
                continue;
            }
            if (++i >= subst.length()) {
                return false;
            }
            char e = subst.charAt(i);
            if (e >= '0' && e <= '9') {
                int g = e - '0';
                if (g <= m.groupCount() && m.group(g) != null) {
                    out.append(m.group(g));
                }
            } else if (e == 'x') {
                if (i + 2 >= subst.length()) {
                    return false;
                }
                out.append((char) ((looseHex(subst.charAt(i + 1)) << 4) + looseHex(subst.charAt(i + 2)) & 0xff));
                i += 2;
            } else {
                out.append(e);
            }
        }
        return true;
    }

    /** A hexadecimal digit's value, and something for any other character, as HAProxy's unchecked conversion. */
    private static int looseHex(char c) {
        int v = c - '0';
        if (v > 9) {
            v -= 'A' - '0' - 10;
        }
        if (v > 15) {
            v -= 'a' - 'A';
        }
        return v;
    }

    /**
     * language(list[,default]): the value of an Accept-Language header with the highest q-factor among the
     * languages of the list, read the way HAProxy reads it (best effort, the first of equal values wins, a
     * language with a variant also matches its base language).
     */
    private static final class Language {
        private Language() {
        }

        static void check(Arg[] a) {
            // The list is split once, at configuration time.
            a[0] = new Arg(STR, a[0].text(), 0, a[0].text().split(";"));
        }

        static boolean convert(Arg[] a, Sample smp, SampleContext ctx) {
            String[] list = a[0].as(String[].class);
            String in = smp.text();
            int n = in.length();
            String best = null;
            int bestQ = 0;
            int i = 0;
            while (true) {
                i = skipSpaces(in, i);
                if (i >= n) {
                    break;
                }
                int token = i;
                while (i < n && in.charAt(i) != ';' && in.charAt(i) != ',' && !isSpace(in.charAt(i))) {
                    i++;
                }
                String match = token == i ? null : find(list, in.substring(token, i));
                if (match != null) {
                    int[] pos = {i};
                    int q = qvalue(in, pos);
                    i = pos[0];
                    if (q > bestQ) {
                        best = match;
                        if (q >= 1000) {
                            break;
                        }
                        bestQ = q;
                    }
                }
                while (i < n && in.charAt(i) != ',') {
                    i++;
                }
                if (i >= n) {
                    break;
                }
                i++;
            }
            if (best == null && a.length > 1 && !a[1].text().isEmpty()) {
                best = a[1].text();
            }
            return best != null && smp.setStr(best);
        }

        /** The list's entry for a language, or for its base language (before the first '-'). */
        private static String find(String[] list, String lang) {
            for (String l : list) {
                if (!l.isEmpty() && l.equals(lang)) {
                    return l;
                }
            }
            int dash = lang.indexOf('-');
            if (dash > 0) {
                String base = lang.substring(0, dash);
                for (String l : list) {
                    if (l.equals(base)) {
                        return l;
                    }
                }
            }
            return null;
        }

        /**
         * The q-factor (0 to 1000) of the parameters at {@code pos[0]}, 1000 when there is none or it does not
         * parse. As in HAProxy, the character after the leading digit is consumed even when it is not the dot
         * ("q=0,da" hides "da").
         */
        private static int qvalue(String in, int[] pos) {
            int n = in.length();
            int i = skipSpaces(in, pos[0]);
            int q = 1000;
            if (i < n && in.charAt(i) == ';') {
                i = skipSpaces(in, i + 1);
                if (i < n && in.charAt(i) == 'q') {
                    i = skipSpaces(in, i + 1);
                    if (i < n && in.charAt(i) == '=') {
                        i = skipSpaces(in, i + 1);
                        if (i < n && (in.charAt(i) == '0' || in.charAt(i) == '1')) {
                            q = in.charAt(i) == '1' ? 1000 : 0;
                            i++;
                            if (i < n && in.charAt(i++) == '.') {
                                for (int scale = 100; scale > 0 && i < n && Character.isDigit(in.charAt(i)); scale /= 10, i++) {
                                    q += (in.charAt(i) - '0') * scale;
                                }
                            }
                        }
                    }
                }
            }
            pos[0] = i;
            return q;
        }

        private static int skipSpaces(String s, int i) {
            while (i < s.length() && isSpace(s.charAt(i))) {
                i++;
            }
            return i;
        }

        private static boolean isSpace(char c) {
            return c == ' ' || c >= '\t' && c <= '\r';
        }
    }
}
