package io.fulcrum.conn;

import io.fulcrum.cfg.ConfigException;
import io.fulcrum.sample.Arg;
import io.fulcrum.sample.ArgSpec;
import io.fulcrum.sample.Fetch;
import io.fulcrum.sample.Sample;
import io.fulcrum.sample.SampleCatalog;
import io.fulcrum.sample.SampleContext;
import io.fulcrum.sample.SampleType;
import io.fulcrum.sample.Source;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;

import static io.fulcrum.sample.ArgType.SINT;
import static io.fulcrum.sample.ArgType.STR;

/**
 * {@code distcc_param} and {@code distcc_body} (configuration.txt 7.3.5): the distcc protocol's tokens in the bytes
 * held by content rules (the request's, or the response's in response rules). A token is four characters and eight
 * hexadecimal digits, its parameter; but for ARGC, DIST, NFIL, STAT and DONE, the parameter is the length of the body
 * that follows. As HAProxy, the tokens are walked from the first byte, and bad digits end the walk with no sample.
 */
final class DistccFetches {
    private static final int HEADER = 12;
    private static final ArgSpec ARGS = ArgSpec.of(1, STR, SINT);

    private DistccFetches() {
    }

    static void register(SampleCatalog c) {
        c.fetch(new Fetch("distcc_param", ARGS, SampleType.SINT, Source.L6REQ,
                (a, ctx, out) -> find(a, ctx, out, false), DistccFetches::checkToken, Source.L6RES, null));
        c.fetch(new Fetch("distcc_body", ARGS, SampleType.BIN, Source.L6REQ,
                (a, ctx, out) -> find(a, ctx, out, true), DistccFetches::checkToken, Source.L6RES, null));
    }

    /** HAProxy's check and words; the token becomes its four bytes as a big-endian number. */
    private static void checkToken(Arg[] a) throws ConfigException {
        String name = a[0].text();
        if (name.length() != 4) {
            throw new ConfigException("token name must be exactly 4 characters");
        }
        long token = 0;
        for (int i = 0; i < 4; i++) {
            token = token << 8 | name.charAt(i) & 0xff;
        }
        a[0] = Arg.of(STR, name, token);
    }

    /**
     * The parameter, or the body, of occurrence {@code a[1]} of the token (any occurrence when 0 or absent: the
     * first). Missing bytes make the content rule wait while it can; a body not all in then is what is there.
     */
    private static boolean find(Arg[] a, SampleContext ctx, Sample out, boolean body) {
        ByteBuf content = ctx.responseSide() ? ctx.responseContent() : ctx.requestContent();
        if (content == null) {
            return false;
        }
        long wanted = a[0].num();
        long occurrence = a.length > 1 ? a[1].num() : 0;
        int start = content.readerIndex();
        int held = content.readableBytes();
        int at = 0;
        int seen = 0;
        while (true) {
            if (at + HEADER > held) {
                return missing(ctx);
            }
            long token = content.getUnsignedInt(start + at);
            long param = 0;
            for (int i = 4; i < HEADER; i++) {
                int digit = hexDigit(content.getUnsignedByte(start + at + i));
                if (digit < 0) {
                    return false;
                }
                param = param << 4 | digit;
            }
            at += HEADER;
            long length = hasBody(token) ? param : 0;
            if (token == wanted && (occurrence == 0 || occurrence == ++seen)) {
                if (!body) {
                    return out.setSint(param);
                }
                if (at + length > held && ctx.awaitingContent()) {
                    ctx.contentMissing();
                    return false;
                }
                return out.setBin(ByteBufUtil.getBytes(content, start + at, (int) Math.min(length, held - at)));
            }
            if (at + length > held) {
                return missing(ctx);
            }
            at += (int) length;
        }
    }

    private static int hexDigit(int c) {
        return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
    }

    /** Tokens that carry a number, not the length of a body: ARGC, DIST, NFIL, STAT and DONE. */
    private static boolean hasBody(long token) {
        return token != 0x41524743L && token != 0x44495354L && token != 0x4E46494CL && token != 0x53544154L && token != 0x444F4E45L;
    }

    /** Bytes not (yet) held: the content rule waits for more while it can; no sample. */
    private static boolean missing(SampleContext ctx) {
        if (ctx.awaitingContent()) {
            ctx.contentMissing();
        }
        return false;
    }
}
