package io.fulcrum.sample;

import io.netty.util.AsciiString;

import java.nio.charset.StandardCharsets;

/**
 * One typed value flowing through a fetch and its converters. It is a mutable holder, as in HAProxy:
 * a fetch fills it and each converter transforms it in place. Booleans, integers and IPv4 addresses
 * live in {@link #num}; strings, binary data, methods and IPv6 addresses are a window on a byte
 * array that is never written to once a sample refers to it (a converter that changes bytes makes
 * new ones), so fetches can hand out views on the request without copying. Setters return true so
 * that a fetch can end with {@code return out.setStr(...)}.
 */
public final class Sample {
    private SampleType type = SampleType.ANY;
    private long num;
    private byte[] bytes;
    private int off;
    private int len;

    public SampleType type() {
        return type;
    }

    // --- setters -------------------------------------------------------------------------------

    public boolean setBool(boolean b) {
        type = SampleType.BOOL;
        num = b ? 1 : 0;
        return true;
    }

    public boolean setSint(long v) {
        type = SampleType.SINT;
        num = v;
        return true;
    }

    /** An IPv4 address, as the unsigned 32-bit big-endian integer. */
    public boolean setIpv4(int address) {
        type = SampleType.IPV4;
        num = address & 0xffffffffL;
        return true;
    }

    /** An IPv6 address (16 bytes, not copied). */
    public boolean setIpv6(byte[] address) {
        return set(SampleType.IPV6, address, 0, 16);
    }

    public boolean setStr(byte[] b, int offset, int length) {
        return set(SampleType.STR, b, offset, length);
    }

    public boolean setStr(byte[] b) {
        return set(SampleType.STR, b, 0, b.length);
    }

    /** A string: a view on an {@link AsciiString}'s bytes, or the ISO-8859-1 bytes of any other text. */
    public boolean setStr(CharSequence s) {
        if (s instanceof AsciiString a) {
            return set(SampleType.STR, a.array(), a.arrayOffset(), a.length());
        }
        return setStr(s.toString().getBytes(StandardCharsets.ISO_8859_1));
    }

    public boolean setBin(byte[] b, int offset, int length) {
        return set(SampleType.BIN, b, offset, length);
    }

    public boolean setBin(byte[] b) {
        return set(SampleType.BIN, b, 0, b.length);
    }

    public boolean setMeth(CharSequence method) {
        setStr(method);
        type = SampleType.METH;
        return true;
    }

    /** Keeps the value, changes the type (for casts that are only a change of view). */
    void retype(SampleType t) {
        type = t;
    }

    public boolean set(SampleType t, byte[] b, int offset, int length) {
        type = t;
        bytes = b;
        off = offset;
        len = length;
        return true;
    }

    /** Copies {@code other} into this sample (the bytes are shared, which is safe as they never change). */
    public Sample copyFrom(Sample other) {
        type = other.type;
        num = other.num;
        bytes = other.bytes;
        off = other.off;
        len = other.len;
        return this;
    }

    public Sample copy() {
        return new Sample().copyFrom(this);
    }

    // --- getters -------------------------------------------------------------------------------

    /** The integer value (bool, sint) or the IPv4 address as an unsigned integer. */
    public long num() {
        return num;
    }

    public boolean bool() {
        return num != 0;
    }

    public int ipv4() {
        return (int) num;
    }

    /** The backing array of a string, binary, method or IPv6 sample; read-only. */
    public byte[] bytes() {
        return bytes;
    }

    public int offset() {
        return off;
    }

    public int length() {
        return len;
    }

    public byte byteAt(int i) {
        return bytes[off + i];
    }

    /** The bytes of a string, binary or method sample as a new array of the exact length. */
    public byte[] toByteArray() {
        byte[] b = new byte[len];
        System.arraycopy(bytes, off, b, 0, len);
        return b;
    }

    /** A string, binary or method sample as text, one char per byte. */
    public String text() {
        return new String(bytes, off, len, StandardCharsets.ISO_8859_1);
    }

    /** A string, binary or method sample as an {@link AsciiString} view (no copy). */
    public AsciiString ascii() {
        return new AsciiString(bytes, off, len, false);
    }

    /** True when the string, binary or method sample holds exactly {@code other}'s bytes. */
    public boolean bytesEqual(byte[] other) {
        return java.util.Arrays.equals(bytes, off, off + len, other, 0, other.length);
    }

    /**
     * Casts in place to {@code to}; false when the value cannot be represented (HAProxy's cast failure).
     * As in HAProxy, a cast that leaves the value as it is also leaves the type: a bool used as an integer
     * stays a bool, a string used as binary stays a string.
     */
    public boolean cast(SampleType to) {
        return Casts.apply(this, to);
    }

    /** The value as HAProxy would print it in a log line or a header (cast to string). */
    public String asText() {
        Sample s = copy();
        return s.cast(SampleType.STR) ? s.text() : "";
    }

    @Override
    public String toString() {
        return type + ":" + asText();
    }
}
