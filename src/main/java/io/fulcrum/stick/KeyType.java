package io.fulcrum.stick;

import io.fulcrum.sample.IpText;
import io.fulcrum.sample.Sample;
import io.fulcrum.sample.SampleType;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HexFormat;

/**
 * The key types of {@code stick-table type}: how a sample becomes a key (a map key with value semantics), and how a
 * key is read from and printed on the CLI.
 */
public enum KeyType {
    IP("ip", SampleType.IPV4), IPV6("ipv6", SampleType.IPV6), INTEGER("integer", SampleType.SINT),
    STRING("string", SampleType.STR), BINARY("binary", SampleType.BIN);

    /** A byte key (ipv6, binary) compared by content. */
    public record Bytes(byte[] b) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Bytes other && Arrays.equals(b, other.b);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(b);
        }

        /** Upper-case hexadecimal, as HAProxy's {@code show table} prints a binary key. */
        @Override
        public String toString() {
            return HexFormat.of().withUpperCase().formatHex(b);
        }
    }

    private final String text;
    private final SampleType sampleType;

    KeyType(String text, SampleType sampleType) {
        this.text = text;
        this.sampleType = sampleType;
    }

    public String text() {
        return text;
    }

    /** The sample type a key expression is cast to. */
    public SampleType sampleType() {
        return sampleType;
    }

    /** Whether {@code len} is accepted after the type. */
    boolean hasLength() {
        return this == STRING || this == BINARY;
    }

    public static KeyType named(String name) {
        for (KeyType k : values()) {
            if (k.text.equals(name)) {
                return k;
            }
        }
        return null;
    }

    /** The key of a sample already cast to {@link #sampleType()}; strings cut and binaries cut or padded to {@code len}. */
    Object key(Sample s, int len) {
        return switch (this) {
            case IP -> s.ipv4();
            case INTEGER -> s.num();
            case IPV6 -> new Bytes(s.toByteArray());
            case STRING -> new String(s.bytes(), s.offset(), Math.min(s.length(), len), StandardCharsets.ISO_8859_1);
            case BINARY -> new Bytes(Arrays.copyOf(Arrays.copyOfRange(s.bytes(), s.offset(), s.offset() + Math.min(s.length(), len)), len));
        };
    }

    /** The key written on the CLI, or null when it is not one of this type. */
    Object parse(String text, int len) {
        switch (this) {
            case IP -> {
                long a = IpText.parse4(text);
                return a < 0 ? null : (int) a;
            }
            case IPV6 -> {
                byte[] a = text.indexOf(':') < 0 ? null : IpText.parse6(text);
                return a == null ? null : new Bytes(a);
            }
            case INTEGER -> {
                try {
                    return Long.parseLong(text);
                } catch (NumberFormatException e) {
                    return null;
                }
            }
            case STRING -> {
                return text.length() > len ? text.substring(0, len) : text;
            }
            default -> {
                return null;
            }
        }
    }

    /**
     * The order of HAProxy's trees of keys, which {@code show table} walks: addresses and binaries by their bytes,
     * integers as unsigned numbers, strings by their bytes (a prefix first).
     */
    Comparator<Object> order() {
        return switch (this) {
            case IP -> (a, b) -> Integer.compareUnsigned((Integer) a, (Integer) b);
            case INTEGER -> (a, b) -> Long.compareUnsigned((Long) a, (Long) b);
            case STRING -> (a, b) -> ((String) a).compareTo((String) b); // ISO-8859-1: one char per byte
            case IPV6, BINARY -> (a, b) -> Arrays.compareUnsigned(((Bytes) a).b(), ((Bytes) b).b());
        };
    }

    /** The key as {@code show table} prints it. */
    String format(Object key) {
        return switch (this) {
            case IP -> IpText.format4((Integer) key & 0xffffffffL);
            case IPV6 -> IpText.format6(((Bytes) key).b(), 0);
            default -> key.toString();
        };
    }
}
