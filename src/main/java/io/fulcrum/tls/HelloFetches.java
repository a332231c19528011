package io.fulcrum.tls;

import io.fulcrum.sample.ArgSpec;
import io.fulcrum.sample.Fetch;
import io.fulcrum.sample.Sample;
import io.fulcrum.sample.SampleCatalog;
import io.fulcrum.sample.SampleContext;
import io.fulcrum.sample.SampleType;
import io.fulcrum.sample.Source;
import io.netty.buffer.ByteBuf;

import java.nio.charset.StandardCharsets;
import java.util.function.Function;

/**
 * The fetches reading a TLS ClientHello from the bytes held by {@code tcp-request content} rules (7.3.5), for routing
 * TLS by name without terminating it: {@code req.ssl_hello_type}, {@code req.ssl_ver}, {@code req.ssl_sni},
 * {@code req.ssl_alpn}, {@code req.ssl_ec_ext}, {@code req.ssl_st_ext} (and the server's hello type on the response
 * side). They read the bytes as HAProxy does: the first record only, its checks and its limits. While the message is
 * incomplete and the rules may still wait, the rule waits for more.
 */
final class HelloFetches {
    /** The extensions looked for. */
    private static final int SERVER_NAME = 0;
    private static final int SUPPORTED_GROUPS = 10;
    private static final int ALPN = 16;
    private static final int SESSION_TICKET = 35;
    /** What HAProxy can hold of a request with the default buffers (bufsize - maxrewrite): a longer record never fits. */
    private static final int RECEIVE_LIMIT = 16384 - 1024;

    private HelloFetches() {
    }

    /** What a read of the bytes found: no sample, because they are not (yet) what is wanted. */
    private static final int TOO_SHORT = -1;
    private static final int NOT_HELLO = -2;
    private static final int ABSENT = -3;

    private interface Read {
        /** Fills {@code out} from the bytes; or TOO_SHORT / NOT_HELLO. */
        int read(ByteBuf b, Sample out);
    }

    static void register(SampleCatalog c) {
        Function<SampleContext, ByteBuf> request = SampleContext::requestContent;
        fetch(c, SampleType.SINT, Source.L6REQ, request, HelloFetches::helloType, "req.ssl_hello_type", "req_ssl_hello_type");
        fetch(c, SampleType.SINT, Source.L6RES, SampleContext::responseContent, HelloFetches::helloType, "res.ssl_hello_type",
                "rep_ssl_hello_type");
        fetch(c, SampleType.SINT, Source.L6REQ, request, HelloFetches::version, "req.ssl_ver", "req_ssl_ver");
        fetch(c, SampleType.STR, Source.L6REQ, request, HelloFetches::serverName, "req.ssl_sni", "req_ssl_sni");
        fetch(c, SampleType.STR, Source.L6REQ, request, HelloFetches::alpn, "req.ssl_alpn");
        fetch(c, SampleType.BOOL, Source.L6REQ, request, (b, out) -> {
            int ext = extension(b, SUPPORTED_GROUPS);
            return ext == ABSENT ? status(out.setBool(false)) : ext < 0 ? ext : status(out.setBool(true));
        }, "req.ssl_ec_ext");
        fetch(c, SampleType.SINT, Source.L6REQ, request, (b, out) -> {
            int ext = extension(b, SESSION_TICKET);
            return ext == ABSENT ? status(out.setSint(0)) : ext < 0 ? ext : status(out.setSint(u16(b, ext + 2) == 0 ? 1 : 2));
        }, "req.ssl_st_ext");
    }

    private static void fetch(SampleCatalog c, SampleType type, Source source, Function<SampleContext, ByteBuf> bytes, Read read,
                              String... names) {
        for (String name : names) {
            c.fetch(new Fetch(name, ArgSpec.NONE, type, source, (a, ctx, out) -> {
                ByteBuf b = bytes.apply(ctx);
                if (b == null) {
                    return false;
                }
                int r = read.read(b, out);
                if (r == TOO_SHORT && ctx.awaitingContent()) {
                    ctx.contentMissing(); // may change: the rule waits for more
                }
                return r >= 0;
            }));
        }
    }

    private static int status(boolean set) {
        return set ? 0 : NOT_HELLO;
    }

    private static int u8(ByteBuf b, int at) {
        return b.getUnsignedByte(b.readerIndex() + at);
    }

    private static int u16(ByteBuf b, int at) {
        return b.getUnsignedShort(b.readerIndex() + at);
    }

    private static int u24(ByteBuf b, int at) {
        return b.getUnsignedMedium(b.readerIndex() + at);
    }

    /** The handshake type of the first record (1: ClientHello, 2: ServerHello), once the whole message is there. */
    private static int helloType(ByteBuf b, Sample out) {
        int left = b.readableBytes();
        if (left == 0) {
            return TOO_SHORT;
        }
        int first = u8(b, 0);
        if (!(first >= 0x14 && first <= 0x17 || first == 0xff)) {
            return NOT_HELLO;
        }
        if (left < 9) {
            return TOO_SHORT;
        }
        if (u8(b, 1) < 3 || u16(b, 3) < 4) { // SSLv3 or later, room for the handshake's type and length
            return NOT_HELLO;
        }
        if (left < u24(b, 6) + 9) {
            return TOO_SHORT;
        }
        return status(out.setSint(u8(b, 5)));
    }

    /**
     * The protocol version (major * 65536 + minor) the ClientHello asks for (its client_version, not the record
     * layer's, which TLS 1.2 and 1.3 clients leave at 3.1), once the whole first message is there.
     */
    private static int version(ByteBuf b, Sample out) {
        int left = b.readableBytes();
        if (left == 0) {
            return TOO_SHORT;
        }
        int first = u8(b, 0);
        int version;
        int length;
        int at;
        if (first >= 0x14 && first <= 0x17 || first == 0xff) {
            if (left < 11) {
                return TOO_SHORT;
            }
            length = u16(b, 3);
            if (u8(b, 1) < 3 || length < 6 || length > (1 << 14) + 2048) {
                return NOT_HELLO;
            }
            version = u8(b, 9) << 16 | u8(b, 10);
            at = 5;
        } else {
            // SSLv2's header: 15 bits of length, or 14 and a padding length.
            int recordLength;
            int padding;
            if ((first & 0x80) != 0) {
                if (left < 3) {
                    return TOO_SHORT;
                }
                recordLength = (first & 0x7f) << 8 | u8(b, 1);
                padding = 0;
                at = 2;
            } else {
                if (left < 4) {
                    return TOO_SHORT;
                }
                recordLength = (first & 0x3f) << 8 | u8(b, 1);
                padding = u8(b, 2);
                at = 3;
            }
            if (u8(b, at) != 1) {
                return NOT_HELLO;
            }
            at++;
            if (left - at < 8) {
                return TOO_SHORT;
            }
            version = u8(b, at) << 16 | u8(b, at + 1);
            int ciphers = u16(b, at + 2);
            int session = u16(b, at + 4);
            int challenge = u16(b, at + 6);
            at += 8;
            if (ciphers % 3 != 0 || session != 0 && session != 16 || challenge < 16 || challenge > 32
                    || recordLength != 9 + ciphers + session + challenge) {
                return NOT_HELLO;
            }
            length = ciphers + session + challenge + padding;
        }
        if (left - at < Math.min(length, RECEIVE_LIMIT - at)) {
            return TOO_SHORT;
        }
        return status(out.setSint(version));
    }

    /** The host name of the server_name extension. */
    private static int serverName(ByteBuf b, Sample out) {
        int ext = extension(b, SERVER_NAME);
        if (ext < 0) {
            return ext == ABSENT ? NOT_HELLO : ext;
        }
        String name = serverNameAt(b, ext);
        return name == null ? NOT_HELLO : status(out.setStr(name));
    }

    /** The host name of the server_name extension at offset {@code ext}, or null when malformed. */
    private static String serverNameAt(ByteBuf b, int ext) {
        int length = u16(b, ext + 2);
        if (length < 2) {
            return null;
        }
        int list = u16(b, ext + 4);
        if (list < 4 || list > length - 2 || u8(b, ext + 6) != 0) { // the first name must be a host name
            return null;
        }
        int size = u16(b, ext + 7);
        return ext + 9 + size > ext + 4 + length ? null : b.toString(b.readerIndex() + ext + 9, size, StandardCharsets.ISO_8859_1);
    }

    /**
     * The offset of extension {@code type} (its type field) in a ClientHello's body as Netty's SNI handler hands it
     * (from its version on, no record or handshake header), or a negative value when it has none or is malformed.
     */
    static int bodyExtension(ByteBuf body, int type) {
        return body.readableBytes() < 2 + 32 + 1 + 2 + 2 + 1 + 1 + 2 + 2 ? NOT_HELLO : inBody(body, 0, body.readableBytes(), type);
    }

    /**
     * The host name of a ClientHello body's server_name extension as the client wrote it, or null: {@code ssl_fc_sni}
     * gives it so (OpenSSL's SSL_get_servername), where Netty's SNI handler lower-cases it to choose the certificate.
     */
    static String bodyServerName(ByteBuf body) {
        int ext = bodyExtension(body, SERVER_NAME);
        return ext < 0 ? null : serverNameAt(body, ext);
    }

    /** The first protocol of the ALPN extension. */
    private static int alpn(ByteBuf b, Sample out) {
        int ext = extension(b, ALPN);
        if (ext < 0) {
            return ext == ABSENT ? NOT_HELLO : ext;
        }
        int length = u16(b, ext + 2);
        if (length < 3 || u16(b, ext + 4) < 2 || u16(b, ext + 4) > length - 2) {
            return NOT_HELLO;
        }
        return text(b, ext + 7, u8(b, ext + 6), ext + 4 + length, out);
    }

    private static int text(ByteBuf b, int at, int length, int end, Sample out) {
        if (at + length > end) {
            return NOT_HELLO;
        }
        byte[] bytes = new byte[length];
        b.getBytes(b.readerIndex() + at, bytes);
        return status(out.setStr(new String(bytes, StandardCharsets.ISO_8859_1)));
    }

    /**
     * The offset of extension {@code type} (its type field) in the ClientHello of the first record; ABSENT when the
     * hello has none, TOO_SHORT or NOT_HELLO. The whole hello must be there; the checks are HAProxy's.
     */
    static int extension(ByteBuf b, int type) {
        int left = b.readableBytes();
        if (left == 0) {
            return TOO_SHORT;
        }
        if (u8(b, 0) != 0x16) { // a handshake record
            return NOT_HELLO;
        }
        if (left < 3) {
            return TOO_SHORT;
        }
        if (u8(b, 1) < 3) {
            return NOT_HELLO;
        }
        if (left < 5) {
            return TOO_SHORT;
        }
        if (u16(b, 3) < 1 + 3 + 2 + 32 + 1 + 2 + 2 + 1 + 1 + 2 + 2) { // too short to have an extension
            return NOT_HELLO;
        }
        left -= 5;
        if (left < 1) {
            return TOO_SHORT;
        }
        if (u8(b, 5) != 1) { // ClientHello
            return NOT_HELLO;
        }
        if (left < 4) {
            return TOO_SHORT;
        }
        int hello = u24(b, 6);
        if (hello < 2 + 32 + 1 + 2 + 2 + 1 + 1 + 2 + 2) {
            return NOT_HELLO;
        }
        if (left - 4 < hello) {
            return TOO_SHORT;
        }
        return inBody(b, 9, hello, type);
    }

    /**
     * The offset of extension {@code type} (its type field) in a ClientHello's body, the {@code hello} bytes from
     * offset {@code at} on (its version first); ABSENT or NOT_HELLO.
     */
    private static int inBody(ByteBuf b, int at, int hello, int type) {
        if (u8(b, at) < 3 || u8(b, at + 1) < 1) { // TLSv1 at least
            return NOT_HELLO;
        }
        int session = u8(b, at + 34);
        if (session > 32 || session > hello - 35) {
            return NOT_HELLO;
        }
        hello -= 35 + session;
        at += 35 + session;
        int ciphers = u16(b, at);
        if (hello < 4 || ciphers < 2 || ciphers > hello) {
            return NOT_HELLO;
        }
        hello -= 2 + ciphers;
        at += 2 + ciphers;
        int compressions = u8(b, at);
        if (hello < 2 || compressions < 1 || compressions > hello) {
            return NOT_HELLO;
        }
        hello -= 1 + compressions;
        at += 1 + compressions;
        if (hello < 2 || u16(b, at) > hello - 2) {
            return NOT_HELLO;
        }
        int list = u16(b, at);
        at += 2;
        while (list >= 4) {
            int length = u16(b, at + 2);
            if (length > list - 4) {
                return NOT_HELLO;
            }
            if (u16(b, at) == type) {
                return at;
            }
            list -= 4 + length;
            at += 4 + length;
        }
        return ABSENT;
    }
}
