package io.fulcrum.sample;

import io.fulcrum.cfg.ConfigException;

import java.util.Locale;
import java.util.Map;

import static io.fulcrum.sample.ArgType.STR;

/**
 * Converters that read the first message of an application protocol in a payload (configuration.txt
 * 7.3.1): FIX (fix_is_valid, fix_tag_value). Where the payload is too short to tell, there is no result
 * yet, so that a tcp-request content rule waits for more data.
 */
final class ProtocolConverters {
    private ProtocolConverters() {
    }

    static void register(SampleCatalog c) {
        c.converter(new Converter("fix_is_valid", ArgSpec.NONE, SampleType.BIN, SampleType.BOOL, (a, smp, ctx) -> {
            Boolean valid = Fix.validate(smp);
            return valid != null && smp.setBool(valid);
        }));
        c.converter(new Converter("fix_tag_value", ArgSpec.of(1, STR), SampleType.BIN, SampleType.BIN,
                (a, smp, ctx) -> Fix.tagValue(smp, a[0].num()), Fix::checkTag));
    }

    /** FIX (Financial Information eXchange): "tag=value" fields, each ended by SOH (0x01). */
    static final class Fix {
        private static final byte SOH = 1;
        /** The shortest valid message: 8=FIX.4.4|9=5|35=A|10=xyz| */
        private static final int MIN_SIZE = 26;
        private static final java.util.Set<String> VERSIONS = java.util.Set.of("FIX.4.0", "FIX.4.1", "FIX.4.2", "FIX.4.3",
                "FIX.4.4", "FIXT.1.1");
        private static final Map<String, Long> NAMES = Map.of("beginstring", 8L, "bodylength", 9L, "msgtype", 35L,
                "sendercompid", 49L, "targetcompid", 56L, "checksum", 10L);

        private Fix() {
        }

        static void checkTag(Arg[] a) throws ConfigException {
            String t = a[0].text();
            long tag = t.isEmpty() || !t.chars().allMatch(Character::isDigit) || t.length() > 18 ? 0 : Long.parseLong(t);
            if (tag <= 0) {
                tag = NAMES.getOrDefault(t.toLowerCase(Locale.ROOT), 0L);
            }
            if (tag <= 0) {
                throw new ConfigException("Unknown FIX tag name '" + t + "'");
            }
            a[0] = Arg.of(STR, t, tag);
        }

        /**
         * The field at {@code from}: {tag, value start, value end}, the end being at its SOH; the tag is -1
         * when the field is malformed. Null when its SOH is not there yet.
         */
        private static long[] field(Sample s, int from) {
            int i = from;
            long tag = 0;
            while (i < s.length() && s.byteAt(i) >= '0' && s.byteAt(i) <= '9') {
                tag = Math.min(tag * 10 + s.byteAt(i++) - '0', Long.MAX_VALUE / 10);
            }
            boolean wellFormed = i > from && i < s.length() && s.byteAt(i) == '=';
            int value = i + 1;
            while (i < s.length() && s.byteAt(i) != SOH) {
                i++;
            }
            if (i >= s.length()) {
                return null;
            }
            return new long[]{wellFormed ? tag : -1, value, i};
        }

        /** True or false once the message is complete, null while it may still be. */
        static Boolean validate(Sample s) {
            if (s.length() < MIN_SIZE) {
                return null;
            }
            long[] f = field(s, 0);
            if (f == null) {
                return null;
            }
            if (f[0] != 8 || !VERSIONS.contains(text(s, f))) {
                return false;
            }
            f = field(s, (int) f[2] + 1);
            if (f == null) {
                return null;
            }
            String length = text(s, f);
            if (f[0] != 9 || length.isEmpty() || length.length() > 9 || !length.chars().allMatch(Character::isDigit)) {
                return false;
            }
            int bodyLength = Integer.parseInt(length);
            int body = (int) f[2] + 1;
            boolean first = true;
            for (int at = body; ; at = (int) f[2] + 1) {
                f = field(s, at);
                if (f == null) {
                    return null;
                }
                if (f[0] < 0 || first && f[0] != 35) {
                    return false;
                }
                first = false;
                if (f[0] == 10) {
                    return at - body == bodyLength && checksum(s, at, text(s, f));
                }
            }
        }

        /** The sum of the bytes before the CheckSum field, modulo 256, written with three digits. */
        private static boolean checksum(Sample s, int end, String value) {
            int sum = 0;
            for (int i = 0; i < end; i++) {
                sum += s.byteAt(i) & 0xff;
            }
            return value.equals(String.format("%03d", sum & 0xff));
        }

        /** The value of the first field with {@code tag}, without validating the message; none when empty. */
        static boolean tagValue(Sample s, long tag) {
            for (int at = 0; at < s.length(); ) {
                long[] f = field(s, at);
                if (f == null || f[0] < 0) {
                    return false;
                }
                if (f[0] == tag) {
                    return f[2] > f[1] && s.setBin(s.bytes(), s.offset() + (int) f[1], (int) (f[2] - f[1]));
                }
                at = (int) f[2] + 1;
            }
            return false;
        }

        private static String text(Sample s, long[] f) {
            return new String(s.bytes(), s.offset() + (int) f[1], (int) (f[2] - f[1]), java.nio.charset.StandardCharsets.ISO_8859_1);
        }
    }
}
