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

import java.util.function.Function;

import static io.fulcrum.sample.ArgType.SINT;
import static io.fulcrum.sample.ArgType.STR;

/**
 * The fetches of the bytes held while content rules inspect them (configuration.txt 7.3.5): their length, a
 * block at an offset, and a block whose length is written before it. A block the bytes do not hold (yet) is no
 * sample; the blocks are copies.
 */
final class PayloadFetches {
    private PayloadFetches() {
    }

    private static final ArgSpec BLOCK = ArgSpec.of(2, SINT, SINT);
    private static final ArgSpec LENGTH_VALUE = ArgSpec.of(2, SINT, SINT, STR);

    static void register(SampleCatalog c) {
        Function<SampleContext, ByteBuf> request = SampleContext::requestContent;
        Function<SampleContext, ByteBuf> response = SampleContext::responseContent;
        Function<SampleContext, ByteBuf> either = ctx -> ctx.responseSide() ? ctx.responseContent() : ctx.requestContent();
        for (String name : new String[] {"req.len", "req_len"}) {
            c.fetch(new Fetch(name, ArgSpec.NONE, SampleType.SINT, Source.L6REQ, (a, ctx, out) -> {
                ByteBuf content = request.apply(ctx);
                // In HTTP mode, HAProxy's buffer holds the request in its internal form (HTX), whose size it gives.
                long htx = content == null ? ctx.requestHtxData() : -1;
                return htx >= 0 ? out.setSint(htx) : length(ctx, content, out);
            }));
        }
        c.fetch(new Fetch("res.len", ArgSpec.NONE, SampleType.SINT, Source.L6RES, (a, ctx, out) -> length(ctx, response.apply(ctx), out)));
        c.fetch(new Fetch("req.payload", BLOCK, SampleType.BIN, Source.L6REQ, (a, ctx, out) -> block(a, ctx, request.apply(ctx), out)));
        c.fetch(new Fetch("res.payload", BLOCK, SampleType.BIN, Source.L6RES, (a, ctx, out) -> block(a, ctx, response.apply(ctx), out)));
        c.fetch(new Fetch("payload", BLOCK, SampleType.BIN, Source.L6REQ, (a, ctx, out) -> block(a, ctx, either.apply(ctx), out),
                null, Source.L6RES, null));
        c.fetch(new Fetch("req.payload_lv", LENGTH_VALUE, SampleType.BIN, Source.L6REQ,
                (a, ctx, out) -> missing(ctx, lengthValue(a, request.apply(ctx), out)), PayloadFetches::checkLengthValue));
        c.fetch(new Fetch("res.payload_lv", LENGTH_VALUE, SampleType.BIN, Source.L6RES,
                (a, ctx, out) -> missing(ctx, lengthValue(a, response.apply(ctx), out)), PayloadFetches::checkLengthValue));
        c.fetch(new Fetch("payload_lv", LENGTH_VALUE, SampleType.BIN, Source.L6REQ,
                (a, ctx, out) -> missing(ctx, lengthValue(a, either.apply(ctx), out)), PayloadFetches::checkLengthValue, Source.L6RES, null));
    }

    /** A block not (yet) in the bytes "may change" while content rules can still wait for more. */
    private static boolean missing(SampleContext ctx, boolean found) {
        if (!found && ctx.awaitingContent()) {
            ctx.contentMissing();
        }
        return found;
    }

    /** The bytes held: a number that "may change" while content rules can still wait for more (HAProxy's req.len). */
    private static boolean length(SampleContext ctx, ByteBuf content, Sample out) {
        if (content != null && ctx.awaitingContent()) {
            ctx.contentMissing();
        }
        return content != null && out.setSint(content.readableBytes());
    }

    /**
     * {@code payload(offset,length)}: the bytes there; with a length of 0, all the bytes from the offset, a block
     * that "may change" while content rules can still wait for more (HAProxy's smp_fetch_payload), so that a
     * condition it does not meet yet waits instead of failing.
     */
    private static boolean block(Arg[] a, SampleContext ctx, ByteBuf content, Sample out) {
        if (content == null) {
            return missing(ctx, false);
        }
        long offset = a[0].num();
        boolean toEnd = a[1].num() == 0;
        boolean found = copy(content, offset, toEnd ? content.readableBytes() - offset : a[1].num(), out);
        if (found && toEnd && ctx.awaitingContent()) {
            ctx.contentMissing();
        }
        return missing(ctx, found);
    }

    /**
     * {@code payload_lv(offset1,length[,offset2])}: the block whose size is the big-endian unsigned integer of
     * {@code length} bytes at {@code offset1}, and which starts right after it, at {@code offset2}, or at
     * {@code offset2} from its end when signed (the argument's number, made absolute by the check).
     */
    private static boolean lengthValue(Arg[] a, ByteBuf content, Sample out) {
        if (content == null) {
            return false;
        }
        long at = a[0].num();
        long bytes = a[1].num();
        if (at + bytes > content.readableBytes()) {
            return false;
        }
        long size = 0;
        for (int i = 0; i < bytes; i++) {
            size = (size << 8 | content.getUnsignedByte(content.readerIndex() + (int) at + i)) & 0xffffffffL; // 32 bits, as HAProxy
        }
        long start = a.length > 2 ? a[2].num() : at + bytes;
        return copy(content, start, size, out);
    }

    private static boolean copy(ByteBuf content, long offset, long length, Sample out) {
        if (offset < 0 || length < 0 || offset + length > content.readableBytes()) {
            return false;
        }
        return out.setBin(ByteBufUtil.getBytes(content, content.readerIndex() + (int) offset, (int) length));
    }

    /**
     * HAProxy's checks, with its words; a signed offset2 becomes an absolute one. An unsigned offset2 is taken
     * as documented, from the start: HAProxy 2.6 misreads it (4 as 2, 5 as +2).
     */
    private static void checkLengthValue(Arg[] a) throws ConfigException {
        if (a[0].num() < 0) {
            throw new ConfigException("payload offset1 must be positive");
        }
        if (a[1].num() <= 0) {
            throw new ConfigException("payload length must be > 0");
        }
        if (a.length > 2) {
            String t = a[2].text();
            long offset2;
            try {
                offset2 = Long.parseLong(t.startsWith("+") ? t.substring(1) : t);
            } catch (NumberFormatException e) {
                throw new ConfigException("payload offset2 is not a number");
            }
            if (t.startsWith("+") || t.startsWith("-")) {
                offset2 += a[0].num() + a[1].num();
                if (offset2 < 0) {
                    throw new ConfigException("payload offset2 too negative");
                }
            }
            a[2] = Arg.of(STR, t, offset2);
        }
    }
}
