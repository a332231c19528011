package io.fulcrum.conn;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;

import java.nio.charset.StandardCharsets;

/**
 * Keeps the first bytes a client sends to an {@code accept-proxy} bind, up to the end of a PROXY v2 header, to check
 * its TLV area as HAProxy does: each TLV must fit in the header's length and the last must end where the header does.
 * Netty's decoder ignores a tail too short for a TLV (the header's length then covers bytes of the client's data);
 * HAProxy rejects such a header as invalid. The first bytes also tell why a header Netty's decoder refused failed.
 */
public final class ProxyV2Tlvs {
    private static final int HEADER = 16;
    private static final ByteBuf SIGNATURE = Unpooled.wrappedBuffer(ProxyHeader.V2_SIGNATURE);
    private final ByteBuf head = Unpooled.buffer(HEADER);

    /** Copies what belongs to the header from bytes the client sent, in their order (no more once it is whole). */
    public void read(ByteBuf data) {
        int n = Math.min(wanted(), data.readableBytes());
        head.writeBytes(data, data.readerIndex(), n);
        if (n > 0 && head.writerIndex() == HEADER) {
            read(data.slice(data.readerIndex() + n, data.readableBytes() - n)); // the length is known now
        }
    }

    /** How many more bytes the header has: its fixed part first, then what its length says (none after a v1 one). */
    private int wanted() {
        if (head.writerIndex() < HEADER) {
            return HEADER - head.writerIndex();
        }
        return v2() ? HEADER + head.getUnsignedShort(14) - head.writerIndex() : 0;
    }

    private boolean v2() {
        return ByteBufUtil.equals(head, 0, SIGNATURE, 0, SIGNATURE.capacity());
    }

    /** Whether the TLVs of the v2 PROXY header read (TCP over IPv4 or IPv6; others carry none HAProxy reads) are whole. */
    public boolean wellFormed() {
        if (head.writerIndex() < HEADER || !v2()) {
            return true;
        }
        int end = HEADER + head.getUnsignedShort(14);
        int offset = switch (head.getUnsignedByte(13)) {
            case 0x11 -> HEADER + 12;
            case 0x21 -> HEADER + 36;
            default -> end;
        };
        if ((head.getUnsignedByte(12) & 0x0f) != 0x01 || head.writerIndex() < end) {
            return true; // LOCAL, or not a v2 header: the decoder tells
        }
        while (offset < end) {
            if (offset + 3 > end) {
                return false;
            }
            offset += 3 + head.getUnsignedShort(offset + 1);
        }
        return offset == end;
    }

    /**
     * Why a header that Netty's decoder refused failed, as HAProxy's conn_recv_proxy() tells it: a v1 line naming
     * TCP4, TCP6 or UNKNOWN is an invalid header, one naming another protocol an unhandled one; anything else (a v2
     * header included) does not look like a PROXY header.
     */
    public ConnError failure() {
        String first = head.toString(0, head.writerIndex(), StandardCharsets.ISO_8859_1);
        if (!first.startsWith("PROXY ")) {
            return ConnError.PRX_NOT_HDR;
        }
        String protocol = first.substring(6);
        return protocol.startsWith("TCP4 ") || protocol.startsWith("TCP6 ") || protocol.startsWith("UNKNOWN")
                ? ConnError.PRX_BAD_HDR : ConnError.PRX_BAD_PROTO;
    }
}
