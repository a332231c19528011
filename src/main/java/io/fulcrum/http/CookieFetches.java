package io.fulcrum.http;

import io.fulcrum.sample.Arg;
import io.fulcrum.sample.ArgSpec;
import io.fulcrum.sample.Sample;
import io.fulcrum.sample.SampleCatalog;
import io.fulcrum.sample.SampleContext;
import io.fulcrum.sample.SampleType;

import java.util.function.BiPredicate;
import java.util.function.Predicate;

import static io.fulcrum.http.Direction.*;
import static io.fulcrum.sample.ArgType.STR;

/**
 * The cookie fetches of configuration.txt 7.3.6: {@code req.cook} (the Cookie header), {@code res.cook} (the
 * Set-Cookie headers) and their families. Values are views on the header bytes.
 */
final class CookieFetches {
    private CookieFetches() {
    }

    private static final ArgSpec NAME = ArgSpec.of(0, STR);

    static void register(SampleCatalog c) {
        for (Direction d : new Direction[] {REQUEST, RESPONSE}) {
            String p = d == REQUEST ? "req." : "res.";
            String old = d == REQUEST ? "cook" : "scook";
            HeaderFetches.withAlias(c, HeaderFetches.fetch(p + "cook", NAME, SampleType.STR, d, (a, ctx, out) -> value(a, ctx, out, d))
                    .withEach((a, ctx, out, visitor) -> each(a, ctx, out, visitor, d, CookieScan::str)), old);
            HeaderFetches.withAlias(c, HeaderFetches.fetch(p + "cook_cnt", NAME, SampleType.SINT, d, (a, ctx, out) -> count(a, ctx, out, d)),
                    old + "_cnt");
            HeaderFetches.withAlias(c, HeaderFetches.fetch(p + "cook_val", NAME, SampleType.SINT, d, (a, ctx, out) -> integer(a, ctx, out, d))
                    .withEach((a, ctx, out, visitor) -> each(a, ctx, out, visitor, d, CookieFetches::integer)), old + "_val");
        }
        c.fetch(HeaderFetches.fetch("cookie", NAME, SampleType.STR, EITHER, (a, ctx, out) -> value(a, ctx, out, EITHER))
                .withEach((a, ctx, out, visitor) -> each(a, ctx, out, visitor, EITHER, CookieScan::str)));
    }

    /** The cookies of {@code d}'s message: those of its Cookie headers, or of its Set-Cookie headers for a response. */
    private static CookieScan scan(Arg[] a, SampleContext ctx, Direction d) {
        HttpHeaders h = d.headers(ctx);
        if (h == null) {
            return null;
        }
        boolean response = d.response(ctx);
        return new CookieScan(new FieldCursor(h, response ? "set-cookie" : "cookie", true), !response, a.length == 0 ? "" : a[0].text());
    }

    /** The value of the last cookie of that name, or of the first cookie when no name is given. */
    private static boolean value(Arg[] a, SampleContext ctx, Sample out, Direction d) {
        CookieScan scan = find(a, ctx, d);
        return scan != null && scan.str(out);
    }

    private static boolean integer(Arg[] a, SampleContext ctx, Sample out, Direction d) {
        CookieScan scan = find(a, ctx, d);
        return scan != null && integer(scan, out);
    }

    private static boolean integer(CookieScan scan, Sample out) {
        return out.setSint(LaxInt.parse(scan.fieldValue(), scan.valueStart(), scan.valueEnd()));
    }

    /** For ACLs: every cookie of the name in turn (of any name without one), as HAProxy iterates over them. */
    private static boolean each(Arg[] a, SampleContext ctx, Sample out, Predicate<Sample> visitor, Direction d,
                                BiPredicate<CookieScan, Sample> reading) {
        CookieScan scan = scan(a, ctx, d);
        if (scan == null) {
            return false;
        }
        while (scan.next()) {
            if (reading.test(scan, out) && visitor.test(out)) {
                return true;
            }
        }
        return false;
    }

    /** The scan on the cookie {@link #value} returns, or null. */
    private static CookieScan find(Arg[] a, SampleContext ctx, Direction d) {
        CookieScan scan = scan(a, ctx, d);
        return scan != null && (scan.anyName() ? scan.next() : scan.last()) ? scan : null;
    }

    /** The number of cookies of that name, of all cookies without a name. */
    private static boolean count(Arg[] a, SampleContext ctx, Sample out, Direction d) {
        CookieScan scan = scan(a, ctx, d);
        if (scan == null) {
            return false;
        }
        long n = 0;
        while (scan.next()) {
            n++;
        }
        return out.setSint(n);
    }
}
