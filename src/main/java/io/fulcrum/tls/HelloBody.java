package io.fulcrum.tls;

import io.netty.buffer.ByteBuf;

import java.nio.charset.StandardCharsets;

/**
 * A ClientHello's body from its version on, as Netty's SNI handler hands it to {@code lookup} (no record or handshake
 * header), read in place. What is cut or malformed reads as absent.
 */
final class HelloBody {
    private static final int SERVER_NAME = 0;

    private HelloBody() {
    }

    /** True when the hello carries a session ID. */
    static boolean hasSessionId(ByteBuf hello) {
        int at = hello.readerIndex() + 34; // version, random
        return at < hello.writerIndex() && hello.getUnsignedByte(at) > 0;
    }

    /** The index of the data of extension {@code type} (its length is the short before it), or -1. */
    static int extension(ByteBuf hello, int type) {
        int end = hello.writerIndex();
        int at = hello.readerIndex() + 34;
        if (at >= end) {
            return -1;
        }
        at += 1 + hello.getUnsignedByte(at); // session ID
        if (at + 2 > end) {
            return -1;
        }
        at += 2 + hello.getUnsignedShort(at); // cipher suites
        if (at + 1 > end) {
            return -1;
        }
        at += 1 + hello.getUnsignedByte(at); // compression methods
        if (at + 2 > end) {
            return -1;
        }
        int extensionsEnd = Math.min(end, at + 2 + hello.getUnsignedShort(at));
        at += 2;
        while (at + 4 <= extensionsEnd) {
            int length = hello.getUnsignedShort(at + 2);
            if (hello.getUnsignedShort(at) == type) {
                return at + 4 + length <= extensionsEnd ? at + 4 : -1;
            }
            at += 4 + length;
        }
        return -1;
    }

    /**
     * The host name of the server_name extension as the client wrote it, or null: {@code ssl_fc_sni} gives it so
     * (OpenSSL's SSL_get_servername), where Netty's SNI handler lower-cases it to choose the certificate.
     */
    static String serverName(ByteBuf hello) {
        int at = extension(hello, SERVER_NAME);
        if (at < 0) {
            return null;
        }
        int end = at + hello.getUnsignedShort(at - 2);
        // the list's length, then one entry: its type (0, a host name) and length
        if (at + 5 > end || hello.getUnsignedByte(at + 2) != 0) {
            return null;
        }
        int length = hello.getUnsignedShort(at + 3);
        return at + 5 + length <= end ? hello.toString(at + 5, length, StandardCharsets.US_ASCII) : null;
    }
}
