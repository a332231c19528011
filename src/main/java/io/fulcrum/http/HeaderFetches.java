package io.fulcrum.http;

import io.fulcrum.cfg.ConfigException;
import io.fulcrum.sample.Arg;
import io.fulcrum.sample.ArgSpec;
import io.fulcrum.sample.Fetch;
import io.fulcrum.sample.IpText;
import io.fulcrum.sample.Sample;
import io.fulcrum.sample.SampleCatalog;
import io.fulcrum.sample.SampleContext;
import io.fulcrum.sample.SampleType;
import io.fulcrum.sample.Source;
import io.netty.util.AsciiString;

import java.io.ByteArrayOutputStream;

import static io.fulcrum.http.Direction.*;
import static io.fulcrum.sample.ArgType.SINT;
import static io.fulcrum.sample.ArgType.STR;

/**
 * The header fetches of configuration.txt 7.3.6: {@code req.hdr} and its family, for requests, responses, and
 * (for {@code hdr}) whichever is being processed. The "hdr" forms take each comma-separated element of a value
 * as a value of its own, the "fhdr" forms take whole values. Values are views on the header bytes.
 */
final class HeaderFetches {
    private HeaderFetches() {
    }

    /** HAProxy remembers the last 10 occurrences of a header, no more. */
    private static final int OLDEST_OCCURRENCE = -10;

    private static final ArgSpec NAME = ArgSpec.of(0, STR);
    private static final ArgSpec NAME_OCC = ArgSpec.of(0, STR, SINT);

    static void register(SampleCatalog c) {
        for (Direction d : new Direction[] {REQUEST, RESPONSE}) {
            String p = d == REQUEST ? "req." : "res.";
            String old = d == REQUEST ? "" : "s"; // the deprecated names: hdr_cnt (request), shdr_cnt (response)
            withAlias(c, fetch(p + "hdr", NAME_OCC, SampleType.STR, d, (a, ctx, out) -> value(a, ctx, out, d, true, FieldCursor::str))
                    .withEach((a, ctx, out, visitor) -> each(a, ctx, out, visitor, d, true, FieldCursor::str)), d == RESPONSE ? "shdr" : null);
            c.fetch(fetch(p + "fhdr", NAME_OCC, SampleType.STR, d, (a, ctx, out) -> value(a, ctx, out, d, false, FieldCursor::str))
                    .withEach((a, ctx, out, visitor) -> each(a, ctx, out, visitor, d, false, FieldCursor::str)));
            withAlias(c, fetch(p + "hdr_cnt", NAME, SampleType.SINT, d, (a, ctx, out) -> count(a, ctx, out, d, true)), old + "hdr_cnt");
            c.fetch(fetch(p + "fhdr_cnt", NAME, SampleType.SINT, d, (a, ctx, out) -> count(a, ctx, out, d, false)));
            withAlias(c, fetch(p + "hdr_ip", NAME_OCC, SampleType.IPV4, d, (a, ctx, out) -> value(a, ctx, out, d, true, HeaderFetches::ip))
                    .withEach((a, ctx, out, visitor) -> each(a, ctx, out, visitor, d, true, HeaderFetches::ip)), old + "hdr_ip");
            withAlias(c, fetch(p + "hdr_val", NAME_OCC, SampleType.SINT, d, (a, ctx, out) -> value(a, ctx, out, d, true, HeaderFetches::integer))
                    .withEach((a, ctx, out, visitor) -> each(a, ctx, out, visitor, d, true, HeaderFetches::integer)), old + "hdr_val");
            c.fetch(fetch(p + "hdr_names", NAME, SampleType.STR, d, (a, ctx, out) -> names(a, ctx, out, d)));
            c.fetch(fetch(p + "hdrs", ArgSpec.NONE, SampleType.BIN, d, (a, ctx, out) -> block(ctx, out, d, false)));
            c.fetch(fetch(p + "hdrs_bin", ArgSpec.NONE, SampleType.BIN, d, (a, ctx, out) -> block(ctx, out, d, true)));
        }
        c.fetch(fetch("hdr", NAME_OCC, SampleType.STR, EITHER, (a, ctx, out) -> value(a, ctx, out, EITHER, true, FieldCursor::str))
                .withEach((a, ctx, out, visitor) -> each(a, ctx, out, visitor, EITHER, true, FieldCursor::str)));
    }

    /** How a fetch reads the header value under a cursor (as a string, an integer, an address). */
    @FunctionalInterface
    private interface Reading {
        boolean read(FieldCursor cursor, Sample out);
    }

    /**
     * For ACLs: without an occurrence argument, every value in turn (an ACL matches any of them, as in HAProxy);
     * with one, that value only.
     */
    private static boolean each(Arg[] a, SampleContext ctx, Sample out, java.util.function.Predicate<Sample> visitor, Direction d,
                                boolean split, Reading reading) {
        if (a.length > 1) {
            return value(a, ctx, out, d, split, reading) && visitor.test(out);
        }
        HttpHeaders h = d.headers(ctx);
        if (h == null || a.length == 0) {
            return false;
        }
        FieldCursor cursor = new FieldCursor(h, a[0].text(), split);
        while (cursor.next()) {
            if (reading.read(cursor, out) && visitor.test(out)) {
                return true;
            }
        }
        return false;
    }

    /** A fetch reading the headers of {@code d}'s message; an occurrence argument, when it takes one, is checked. */
    static Fetch fetch(String name, ArgSpec args, SampleType type, Direction d, Fetch.Function fn) {
        Fetch.ArgCheck check = args == NAME_OCC ? HeaderFetches::checkOccurrence : null;
        return switch (d) {
            case REQUEST -> new Fetch(name, args, type, Source.HRQHV, fn, check);
            case RESPONSE -> new Fetch(name, args, type, Source.HRSHV, fn, check);
            case EITHER -> new Fetch(name, args, type, Source.HRQHV, fn, check, Source.HRSHV, null);
        };
    }

    /** Registers {@code f}, and again under {@code alias} when it has one. */
    static void withAlias(SampleCatalog c, Fetch f, String alias) {
        c.fetch(f);
        if (alias != null && !alias.equals(f.name())) {
            c.fetch(f.named(alias));
        }
    }

    private static void checkOccurrence(Arg[] a) throws ConfigException {
        if (a.length > 1 && a[1].num() < OLDEST_OCCURRENCE) {
            throw new ConfigException("header occurrence must be >= " + OLDEST_OCCURRENCE);
        }
    }

    /**
     * The cursor on occurrence {@code a[1]} (the last one by default) of the header named {@code a[0]} (of any
     * header when the name is empty); null when there is no such value, or no name argument at all (HAProxy
     * then has no sample).
     */
    private static FieldCursor occurrence(Arg[] a, SampleContext ctx, Direction d, boolean split) {
        HttpHeaders h = d.headers(ctx);
        if (h == null || a.length == 0) {
            return null;
        }
        FieldCursor cursor = new FieldCursor(h, a[0].text(), split);
        return cursor.seek(a.length > 1 ? a[1].num() : 0) ? cursor : null;
    }

    private static boolean value(Arg[] a, SampleContext ctx, Sample out, Direction d, boolean split, Reading reading) {
        FieldCursor cursor = occurrence(a, ctx, d, split);
        return cursor != null && reading.read(cursor, out);
    }

    /** The number of values of the header named {@code a[0]}, of all headers without a name. */
    private static boolean count(Arg[] a, SampleContext ctx, Sample out, Direction d, boolean split) {
        HttpHeaders h = d.headers(ctx);
        return h != null && out.setSint(new FieldCursor(h, a.length == 0 ? "" : a[0].text(), split).count());
    }

    /** The value as an integer, read as HAProxy reads it ({@link LaxInt}). */
    private static boolean integer(FieldCursor cursor, Sample out) {
        return out.setSint(LaxInt.parse(cursor.fieldValue(), cursor.start(), cursor.end()));
    }

    /**
     * The value as an address: an IPv4 address, possibly followed by ":port" (dropped), or an IPv6 address
     * (RFC 7239's forms, without the brackets); anything else is no sample.
     */
    private static boolean ip(FieldCursor cursor, Sample out) {
        AsciiString v = cursor.fieldValue();
        byte[] b = v.array();
        int from = v.arrayOffset() + cursor.start();
        int to = v.arrayOffset() + cursor.end();
        long v4 = IpText.scan4(b, from, to);
        if (v4 >= 0) {
            int end = from + (int) (v4 >>> 32);
            return (end == to || b[end] == ':' && isPort(b, end + 1, to)) && out.setIpv4((int) v4);
        }
        byte[] v6 = IpText.parse6(b, from, to - from);
        return v6 != null && out.setIpv6(v6);
    }

    /** A decimal port number, 0 to 65535. */
    private static boolean isPort(byte[] b, int from, int to) {
        if (from == to || to - from > 5) {
            return false;
        }
        int port = 0;
        for (int i = from; i < to; i++) {
            if (b[i] < '0' || b[i] > '9') {
                return false;
            }
            port = port * 10 + b[i] - '0';
        }
        return port <= 65535;
    }

    /** The names of the fields, in order and in lower case, separated by the first character of {@code a[0]} (','). */
    private static boolean names(Arg[] a, SampleContext ctx, Sample out, Direction d) {
        HttpHeaders h = d.headers(ctx);
        if (h == null) {
            return false;
        }
        // An empty delimiter is the NUL character that ends HAProxy's empty string.
        int delimiter = a.length == 0 ? ',' : a[0].text().isEmpty() ? 0 : a[0].text().charAt(0);
        ByteArrayOutputStream s = new ByteArrayOutputStream();
        for (int i = 0; i < h.slots(); i++) {
            if (!h.removed(i)) {
                if (s.size() > 0) {
                    s.write(delimiter);
                }
                writeLower(h.name(i), s);
            }
        }
        return out.setStr(s.toByteArray());
    }

    /**
     * The whole header block: as HTTP/1 text ("name: value" lines and the empty line that ends them), or in
     * SPOE's binary form (each name and value as a varint length and its bytes, then two empty strings).
     */
    private static boolean block(SampleContext ctx, Sample out, Direction d, boolean binary) {
        HttpHeaders h = d.headers(ctx);
        if (h == null) {
            return false;
        }
        ByteArrayOutputStream s = new ByteArrayOutputStream(h.encodedLength() + 2);
        for (int i = 0; i < h.slots(); i++) {
            if (h.removed(i)) {
                continue;
            }
            AsciiString name = h.name(i);
            AsciiString value = h.value(i);
            if (binary) {
                varint(name.length(), s);
                writeLower(name, s);
                varint(value.length(), s);
                s.write(value.array(), value.arrayOffset(), value.length());
            } else {
                writeLower(name, s);
                s.write(':');
                s.write(' ');
                s.write(value.array(), value.arrayOffset(), value.length());
                s.write('\r');
                s.write('\n');
            }
        }
        if (binary) {
            s.write(0);
            s.write(0);
        } else {
            s.write('\r');
            s.write('\n');
        }
        return out.setBin(s.toByteArray());
    }

    /** Header names are case-insensitive; HAProxy shows them in lower case. */
    private static void writeLower(AsciiString name, ByteArrayOutputStream s) {
        for (int k = 0; k < name.length(); k++) {
            int c = name.byteAt(k);
            s.write(c >= 'A' && c <= 'Z' ? c + 32 : c);
        }
    }

    /** SPOE's variable-length integer: one byte below 240, else 4 bits then 7-bit groups. */
    private static void varint(long v, ByteArrayOutputStream s) {
        if (v < 240) {
            s.write((int) v);
            return;
        }
        s.write((int) (v | 240) & 0xff);
        v = (v - 240) >>> 4;
        while (v >= 128) {
            s.write((int) (v | 128) & 0xff);
            v = (v - 128) >>> 7;
        }
        s.write((int) v);
    }
}
