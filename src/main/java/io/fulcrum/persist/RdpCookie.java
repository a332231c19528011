package io.fulcrum.persist;

import io.fulcrum.sample.Arg;
import io.fulcrum.sample.ArgSpec;
import io.fulcrum.sample.ArgType;
import io.fulcrum.sample.Fetch;
import io.fulcrum.sample.Sample;
import io.fulcrum.sample.SampleCatalog;
import io.fulcrum.sample.SampleContext;
import io.fulcrum.sample.SampleType;
import io.fulcrum.sample.Source;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;

/**
 * The cookie of an RDP connection request ("Cookie: mstshash=user\r\n" after the TPKT and X.224 headers), read as
 * HAProxy's fetch_rdp_cookie_name() does: the {@code req.rdp_cookie} fetches, {@code balance rdp-cookie} and
 * {@code persist rdp-cookie} use it.
 */
public final class RdpCookie {
    private RdpCookie() {
    }

    /** The TPKT header (4 bytes) and the X.224 connection request (7) before the cookie. */
    private static final int HEADERS = 11;
    /** The content is too short to tell yet. */
    public static final int MORE = -2;
    /** No such cookie. */
    public static final int NONE = -1;

    /**
     * Where the value of the cookie {@code name} (any cookie when empty) starts in {@code content}, with its end in
     * {@code end[0]}; {@link #NONE} or {@link #MORE}.
     */
    public static int find(ByteBuf content, String name, int[] end) {
        if (content == null) {
            return NONE;
        }
        int p = content.readerIndex() + HEADERS;
        int limit = content.writerIndex();
        if (limit - p <= 7) {
            return MORE;
        }
        if (!matches(content, p, "Cookie:")) {
            return NONE;
        }
        p += 7;
        while (p < limit && content.getByte(p) == ' ') {
            p++;
        }
        if (!name.isEmpty()) {
            if (limit - p <= name.length()) {
                return MORE;
            }
            if (content.getByte(p + name.length()) != '=' || !matches(content, p, name)) {
                return NONE;
            }
            p += name.length() + 1;
        } else {
            while (p < limit && content.getByte(p) != '=') {
                byte c = content.getByte(p);
                if (c == '\r' || c == '\n') {
                    return NONE;
                }
                p++;
            }
            if (p >= limit) {
                return MORE;
            }
            p++;
        }
        int value = p;
        while (p < limit && content.getByte(p) != '\r') {
            p++;
        }
        if (limit - p < 2) {
            return MORE;
        }
        if (content.getByte(p + 1) != '\n') {
            return NONE;
        }
        end[0] = p;
        return value;
    }

    private static boolean matches(ByteBuf b, int at, String s) {
        for (int i = 0; i < s.length(); i++) {
            if (Character.toLowerCase((char) b.getByte(at + i)) != Character.toLowerCase(s.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    /** {@code req.rdp_cookie([name])}, {@code rdp_cookie}, and their {@code _cnt} forms (1 when found, else 0). */
    static void register(SampleCatalog c) {
        ArgSpec name = ArgSpec.of(0, ArgType.STR);
        for (String kw : new String[] {"req.rdp_cookie", "rdp_cookie"}) {
            c.fetch(new Fetch(kw, name, SampleType.STR, Source.L6REQ, (a, ctx, out) -> value(a, ctx, out)));
            c.fetch(new Fetch(kw + "_cnt", name, SampleType.SINT, Source.L6REQ, (a, ctx, out) -> count(a, ctx, out)));
        }
    }

    private static int lookup(Arg[] a, SampleContext ctx, int[] end) {
        int at = find(ctx.requestContent(), a.length == 0 ? "" : a[0].text(), end);
        if (at == MORE && ctx.awaitingContent()) {
            ctx.contentMissing();
        }
        return at;
    }

    private static boolean value(Arg[] a, SampleContext ctx, Sample out) {
        int[] end = new int[1];
        int at = lookup(a, ctx, end);
        return at >= 0 && out.setStr(ByteBufUtil.getBytes(ctx.requestContent(), at, end[0] - at), 0, end[0] - at);
    }

    private static boolean count(Arg[] a, SampleContext ctx, Sample out) {
        int at = lookup(a, ctx, new int[1]);
        return at != MORE && out.setSint(at >= 0 ? 1 : 0);
    }
}
