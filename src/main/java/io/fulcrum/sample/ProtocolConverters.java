package io.fulcrum.sample;

import io.fulcrum.cfg.ConfigException;

import java.util.Locale;
import java.util.Map;

import static io.fulcrum.sample.ArgType.STR;

/**
 * Converters that read the first message of an application protocol in a payload (configuration.txt
 * 7.3.1): FIX (fix_is_valid, fix_tag_value), MQTT (mqtt_is_valid, mqtt_field_value) and protocol buffers
 * (protobuf, ungrpc). Where a FIX or MQTT payload is too short to tell, there is no result yet, so that a
 * tcp-request content rule waits for more data.
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
        c.converter(new Converter("mqtt_is_valid", ArgSpec.NONE, SampleType.BIN, SampleType.BOOL, (a, smp, ctx) -> {
            Mqtt.Packet p = Mqtt.parse(smp);
            return p != null && smp.setBool(p.valid());
        }));
        // Declared as a string (so "mqtt_field_value(...),add(1)" is accepted), the result keeps the input's type.
        c.converter(new Converter("mqtt_field_value", ArgSpec.of(2, STR, STR), SampleType.BIN, SampleType.STR,
                Mqtt::fieldValue, Mqtt::checkField));
        c.converter(new Converter("protobuf", ArgSpec.of(1, ArgType.PBUF_FNUM, STR), SampleType.BIN, SampleType.BIN,
                (a, smp, ctx) -> Protobuf.field(a, smp, 0, smp.length()), Protobuf::checkType));
        c.converter(new Converter("ungrpc", ArgSpec.of(1, ArgType.PBUF_FNUM, STR), SampleType.BIN, SampleType.BIN,
                Protobuf::ungrpc, Protobuf::checkType));
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

    /** MQTT 3.1, 3.1.1 and 5.0: the CONNECT and CONNACK packets, as the first ones of each direction. */
    static final class Mqtt {
        private static final String[] TYPES = {"connect", "connack", "publish", "puback", "pubrec", "pubrel", "pubcomp",
            "subscribe", "suback", "unsubscribe", "unsuback", "pingreq", "pingresp", "disconnect", "auth"};
        private static final java.util.List<String> CONNECT_FIELDS = java.util.List.of("flags", "protocol_name",
                "protocol_version", "client_identifier", "will_topic", "will_payload", "username", "password", "keepalive");
        private static final java.util.List<String> CONNACK_FIELDS = java.util.List.of("flags", "protocol_version", "reason_code");
        /** MQTT 5.0 properties a CONNECT, its will or a CONNACK may carry. */
        private static final java.util.Set<Integer> CONNECT_PROPS = java.util.Set.of(0x11, 0x21, 0x27, 0x22, 0x19, 0x17, 0x15,
                0x16, 0x26);
        private static final java.util.Set<Integer> WILL_PROPS = java.util.Set.of(0x18, 0x01, 0x02, 0x03, 0x08, 0x09, 0x26);
        private static final java.util.Set<Integer> CONNACK_PROPS = java.util.Set.of(0x11, 0x21, 0x24, 0x25, 0x27, 0x12, 0x22,
                0x1f, 0x28, 0x29, 0x2a, 0x13, 0x1a, 0x1c, 0x15, 0x16, 0x26);
        private static final java.util.Set<Integer> STRINGS = java.util.Set.of(0x03, 0x08, 0x12, 0x15, 0x1a, 0x1c, 0x1f);
        private static final java.util.Set<Integer> BINARIES = java.util.Set.of(0x09, 0x16);
        private static final java.util.Set<Integer> BYTES = java.util.Set.of(0x01, 0x17, 0x19, 0x24, 0x25, 0x28, 0x29, 0x2a);
        private static final java.util.Set<Integer> SHORTS = java.util.Set.of(0x13, 0x21, 0x22);
        /** Byte properties that are flags (0 or 1), and numbers that must not be 0. */
        private static final java.util.Set<Integer> FLAGS = java.util.Set.of(0x01, 0x17, 0x19, 0x24, 0x25, 0x28, 0x29, 0x2a);
        private static final java.util.Set<Integer> NON_ZERO = java.util.Set.of(0x21, 0x27);

        private Mqtt() {
        }

        /**
         * A parsed packet: its type (1 or 2), whether it is valid, its version (3 to 5), its fields by name and
         * its properties by id (raw bytes of the value).
         */
        record Packet(int type, boolean valid, int version, boolean will, Map<String, byte[]> fields, Map<Integer, byte[]> props) {
            static Packet invalid() {
                return new Packet(0, false, 0, false, Map.of(), Map.of());
            }
        }

        /** Thrown where the packet breaks a rule. */
        private static final class Invalid extends Exception {
            Invalid() {
                super(null, null, false, false);
            }
        }

        static void checkField(Arg[] a) throws ConfigException {
            String t = a[0].text();
            int type = 0;
            if (!t.isEmpty() && t.length() < 4 && t.chars().allMatch(Character::isDigit)) {
                type = Integer.parseInt(t);
            } else {
                for (int k = 0; k < TYPES.length; k++) {
                    if (TYPES[k].equalsIgnoreCase(t)) {
                        type = k + 1;
                    }
                }
            }
            if (type < 1 || type > 15) {
                throw new ConfigException("Unknown MQTT type '" + t + "'");
            }
            String f = a[1].text().toLowerCase(Locale.ROOT);
            boolean known;
            if (!f.isEmpty() && f.chars().allMatch(Character::isDigit) && !f.startsWith("0") && f.length() < 4) {
                int id = Integer.parseInt(f);
                known = type == 1 && (CONNECT_PROPS.contains(id) || WILL_PROPS.contains(id)) || type == 2 && CONNACK_PROPS.contains(id);
            } else {
                known = type == 1 && CONNECT_FIELDS.contains(f) || type == 2 && CONNACK_FIELDS.contains(f);
            }
            if (!known) {
                throw new ConfigException("Unknown MQTT field name '" + a[1].text() + "' for packet type '" + t + "'");
            }
            a[0] = Arg.of(STR, t, type);
            a[1] = new Arg(STR, a[1].text(), 0, f);
        }

        /**
         * The field as text (numbers in decimal) or raw bytes, in the input's type; none when the packet is not
         * of the type, not valid, or lacks the field. Absent numeric properties of an MQTT 5 packet read 0.
         */
        static boolean fieldValue(Arg[] a, Sample smp, SampleContext ctx) {
            Packet p = parse(smp);
            if (p == null || !p.valid() || p.type() != a[0].num()) {
                return false;
            }
            String f = a[1].as(String.class);
            byte[] v;
            if (Character.isDigit(f.charAt(0))) {
                int id = Integer.parseInt(f);
                boolean applies = p.version() == 5 && id != 0x26 && (!WILL_PROPS.contains(id) || CONNECT_PROPS.contains(id) || p.will());
                if (!applies) {
                    return false;
                }
                v = p.props().get(id);
                if (v == null && !STRINGS.contains(id) && !BINARIES.contains(id)) {
                    v = new byte[4];
                }
                if (v != null && !STRINGS.contains(id) && !BINARIES.contains(id)) {
                    v = decimal(unsigned(v));
                }
            } else {
                v = p.fields().get(f);
            }
            return v != null && v.length > 0 && smp.set(smp.type(), v, 0, v.length);
        }

        /** The packet at the start of the sample; null while it is incomplete. */
        static Packet parse(Sample s) {
            if (s.length() < 2) {
                return null;
            }
            int first = s.byteAt(0) & 0xff;
            long remaining = 0;
            int i = 1;
            for (int shift = 0; ; shift += 7, i++) {
                if (i >= s.length()) {
                    return null;
                }
                if (i > 4) {
                    return Packet.invalid(); // the remaining length takes four bytes at most
                }
                remaining |= (long) (s.byteAt(i) & 0x7f) << shift;
                if ((s.byteAt(i) & 0x80) == 0) {
                    i++;
                    break;
                }
            }
            if (s.length() - i < remaining) {
                return null;
            }
            int type = first >> 4;
            if ((type != 1 && type != 2) || (first & 0x0f) != 0) {
                return Packet.invalid();
            }
            try {
                // A CONNACK's properties are looked for as long as the data goes on, then must fit the packet.
                Reader r = new Reader(s, i, type == 1 ? i + (int) remaining : s.length());
                Packet p = type == 1 ? connect(r) : connack(r);
                return r.pos == i + remaining ? p : Packet.invalid();
            } catch (Invalid e) {
                return Packet.invalid();
            }
        }

        private static Packet connect(Reader r) throws Invalid {
            Map<String, byte[]> fields = new java.util.HashMap<>();
            Map<Integer, byte[]> props = new java.util.HashMap<>();
            byte[] name = r.bytes();
            String n = new String(name, java.nio.charset.StandardCharsets.ISO_8859_1);
            int version = r.u8();
            int flags = r.u8();
            if (!n.equals("MQTT") && !n.equals("MQIsdp") || version < 3 || version > 5 || (flags & 1) != 0 || (flags >> 3 & 3) == 3) {
                throw new Invalid();
            }
            fields.put("protocol_name", name);
            fields.put("protocol_version", decimal(version));
            fields.put("flags", decimal(flags));
            fields.put("keepalive", decimal(r.u16()));
            if (version == 5) {
                r.properties(CONNECT_PROPS, props);
            }
            fields.put("client_identifier", r.bytes());
            boolean will = (flags & 0x04) != 0;
            if (will) {
                if (version == 5) {
                    r.properties(WILL_PROPS, props);
                }
                fields.put("will_topic", r.bytes());
                fields.put("will_payload", r.bytes());
            }
            if ((flags & 0x80) != 0) {
                fields.put("username", r.bytes());
            }
            if ((flags & 0x40) != 0) {
                fields.put("password", r.bytes());
            }
            return new Packet(1, true, version, will, fields, props);
        }

        private static Packet connack(Reader r) throws Invalid {
            Map<String, byte[]> fields = new java.util.HashMap<>();
            Map<Integer, byte[]> props = new java.util.HashMap<>();
            int flags = r.u8();
            if (flags > 1) {
                throw new Invalid();
            }
            fields.put("flags", decimal(flags));
            fields.put("reason_code", decimal(r.u8()));
            int version = r.pos < r.end ? 5 : 4;
            if (version == 5) {
                r.properties(CONNACK_PROPS, props);
            }
            fields.put("protocol_version", decimal(version));
            return new Packet(2, true, version, false, fields, props);
        }

        /** A big-endian unsigned number. */
        private static long unsigned(byte[] b) {
            long n = 0;
            for (byte x : b) {
                n = n << 8 | x & 0xff;
            }
            return n;
        }

        private static byte[] decimal(long v) {
            return Long.toString(v).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        }

        /** Reads the fields of a packet within its bounds. */
        private static final class Reader {
            private final Sample s;
            private final int end;
            private int pos;

            Reader(Sample s, int pos, int end) {
                this.s = s;
                this.pos = pos;
                this.end = end;
            }

            int u8() throws Invalid {
                if (pos >= end) {
                    throw new Invalid();
                }
                return s.byteAt(pos++) & 0xff;
            }

            int u16() throws Invalid {
                return u8() << 8 | u8();
            }

            /** A string or binary data: a two-byte length and the bytes. */
            byte[] bytes() throws Invalid {
                return take(u16());
            }

            private byte[] take(int n) throws Invalid {
                if (n > end - pos) {
                    throw new Invalid();
                }
                byte[] b = new byte[n];
                System.arraycopy(s.bytes(), s.offset() + pos, b, 0, n);
                pos += n;
                return b;
            }

            long varint() throws Invalid {
                long v = 0;
                for (int shift = 0; shift < 28; shift += 7) {
                    int b = u8();
                    v |= (long) (b & 0x7f) << shift;
                    if ((b & 0x80) == 0) {
                        return v;
                    }
                }
                throw new Invalid();
            }

            /** A property list; each property at most once (user properties excepted) and with a valid value. */
            void properties(java.util.Set<Integer> allowed, Map<Integer, byte[]> into) throws Invalid {
                long length = varint();
                if (length > end - pos) {
                    throw new Invalid();
                }
                int stop = pos + (int) length;
                Reader r = new Reader(s, pos, stop);
                java.util.Set<Integer> seen = new java.util.HashSet<>();
                while (r.pos < stop) {
                    int id = r.u8();
                    if (!allowed.contains(id) || id != 0x26 && !seen.add(id)) {
                        throw new Invalid();
                    }
                    byte[] v;
                    if (id == 0x26) {
                        r.bytes();
                        v = r.bytes();
                    } else if (STRINGS.contains(id) || BINARIES.contains(id)) {
                        v = r.bytes();
                    } else {
                        v = r.take(BYTES.contains(id) ? 1 : SHORTS.contains(id) ? 2 : 4);
                        long n = unsigned(v);
                        if (FLAGS.contains(id) && n > 1 || NON_ZERO.contains(id) && n == 0) {
                            throw new Invalid();
                        }
                    }
                    if (id != 0x26) {
                        into.put(id, v);
                    }
                }
                pos = stop;
            }
        }
    }

    /** Protocol buffers messages, alone or in gRPC frames: a field's raw value, or its number for a given type. */
    static final class Protobuf {
        private static final Map<String, Integer> WIRE_TYPES = Map.ofEntries(Map.entry("int32", 0), Map.entry("int64", 0),
                Map.entry("uint32", 0), Map.entry("uint64", 0), Map.entry("sint32", 0), Map.entry("sint64", 0),
                Map.entry("bool", 0), Map.entry("enum", 0), Map.entry("fixed64", 1), Map.entry("sfixed64", 1),
                Map.entry("double", 1), Map.entry("fixed32", 5), Map.entry("sfixed32", 5), Map.entry("float", 5));

        private Protobuf() {
        }

        static void checkType(Arg[] a) throws ConfigException {
            if (a.length > 1 && !WIRE_TYPES.containsKey(a[1].text())) {
                throw new ConfigException("Wrong protocol buffer type '" + a[1].text() + "'");
            }
        }

        /** Each gRPC frame (a compression flag, which HAProxy ignores, a 32-bit length, a message) until one has the field. */
        static boolean ungrpc(Arg[] a, Sample smp, SampleContext ctx) {
            int i = 0;
            while (i + 5 <= smp.length()) {
                long len = (smp.byteAt(i + 1) & 0xffL) << 24 | (smp.byteAt(i + 2) & 0xff) << 16 | (smp.byteAt(i + 3) & 0xff) << 8
                        | smp.byteAt(i + 4) & 0xff;
                if (len > smp.length() - i - 5) {
                    return false;
                }
                if (field(a, smp, i + 5, i + 5 + (int) len)) {
                    return true;
                }
                i += 5 + (int) len;
            }
            return false;
        }

        /**
         * Follows the dotted path through the first field of each number (all but the last being messages) in
         * {@code [from, to)}, then gives the last field's raw value, or with a type its value as an integer
         * the way HAProxy reads it (no narrowing of 32-bit types, floats truncated).
         */
        static boolean field(Arg[] a, Sample smp, int from, int to) {
            int[] path = a[0].as(int[].class);
            long[] f = null;
            for (int k = 0; k < path.length; k++) {
                f = find(smp, from, to, path[k]);
                if (f == null || k < path.length - 1 && f[0] != 2) {
                    return false;
                }
                from = (int) f[1];
                to = (int) f[2];
            }
            if (a.length < 2) {
                return smp.setBin(smp.bytes(), smp.offset() + from, to - from);
            }
            String type = a[1].text();
            if (f[0] != WIRE_TYPES.get(type)) {
                return false;
            }
            long v = 0;
            if (f[0] == 0) {
                v = varint(smp, from, to)[0];
            } else {
                for (int i = to - 1; i >= from; i--) {
                    v = v << 8 | smp.byteAt(i) & 0xff;
                }
            }
            return smp.setSint(switch (type) {
                case "sint32", "sint64" -> (v >>> 1) ^ -(v & 1);
                case "double" -> toUint64(Double.longBitsToDouble(v));
                case "float" -> truncate(Float.intBitsToFloat((int) v)) & 0xffffffffL; // (to uint32_t: the low half)
                case "sfixed32" -> (int) v;
                default -> v;
            });
        }

        /**
         * HAProxy's C cast of a double to uint64_t as gcc compiles it for x86-64: from 2^63 up, 2^63 is taken off
         * before truncating and put back after.
         */
        private static long toUint64(double d) {
            return d >= 0x1p63 ? truncate(d - 0x1p63) ^ Long.MIN_VALUE : truncate(d);
        }

        /** x86-64's truncating conversion (cvttsd2si): -2^63 for NaN and for what does not fit (Java saturates). */
        private static long truncate(double d) {
            return d >= -0x1p63 && d < 0x1p63 ? (long) d : Long.MIN_VALUE;
        }

        /** The first field numbered {@code number}: {wire type, value start, value end}, or null. */
        private static long[] find(Sample s, int from, int to, int number) {
            int i = from;
            while (i < to) {
                long[] key = varint(s, i, to);
                if (key == null) {
                    return null;
                }
                int wire = (int) (key[0] & 7);
                int start = (int) key[1];
                long end;
                switch (wire) {
                    case 0 -> {
                        long[] v = varint(s, start, to);
                        if (v == null) {
                            return null;
                        }
                        end = v[1];
                    }
                    case 1 -> end = start + 8L;
                    case 5 -> end = start + 4L;
                    case 2 -> {
                        long[] len = varint(s, start, to);
                        if (len == null) {
                            return null;
                        }
                        start = (int) len[1];
                        end = start + len[0];
                    }
                    default -> {
                        return null; // groups are not supported
                    }
                }
                if (end > to || end < start) {
                    return null;
                }
                if (key[0] >>> 3 == number) {
                    return new long[]{wire, start, end};
                }
                i = (int) end;
            }
            return null;
        }

        /**
         * The varint at {@code i}: {value, end}, or null when it does not end before {@code to}; nothing at all
         * reads as 0, as in HAProxy.
         */
        private static long[] varint(Sample s, int i, int to) {
            if (i >= to) {
                return new long[]{0, i};
            }
            long v = 0;
            for (int shift = 0; i < to && shift < 64; shift += 7) {
                byte b = s.byteAt(i++);
                v |= (long) (b & 0x7f) << shift;
                if (b >= 0) {
                    return new long[]{v, i};
                }
            }
            return null;
        }
    }
}
