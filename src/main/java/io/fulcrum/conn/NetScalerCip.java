package io.fulcrum.conn;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.codec.DecoderException;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.List;

/**
 * The NetScaler Client IP insertion protocol ({@code accept-netscaler-cip <magic>}): before its data, the client
 * sends a header made of the magic number, a length and the IP and TCP headers of the original connection, whose
 * addresses become the connection's. Read as HAProxy's conn_recv_netscaler_cip(): the legacy format (magic, 32-bit
 * length, the IP header) or the standard one (magic, CIP length, type 0, 16-bit length, the IP header); IPv4 or
 * IPv6 carrying TCP. Emits one {@link Header}, then passes the bytes that follow and leaves the pipeline.
 */
public final class NetScalerCip extends ByteToMessageDecoder {
    private static final int IPPROTO_TCP = 6;
    private final int magic;

    /** The original connection's addresses, as the header tells them. */
    public record Header(InetSocketAddress source, InetSocketAddress destination) {
    }

    /** A header that is not one: the reason is HAProxy's connection error. */
    public static final class Invalid extends DecoderException {
        private final ConnError reason;

        Invalid(ConnError reason) {
            super(reason.message());
            this.reason = reason;
        }

        public ConnError reason() {
            return reason;
        }
    }

    public NetScalerCip(int magic) {
        this.magic = magic;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) throws UnknownHostException {
        Header h = parse(in, magic);
        if (h != null) {
            out.add(h);
            if (in.isReadable()) {
                // The rest, a PROXY header maybe, in a buffer of its own: Netty's PROXY decoder finds the end of a v2
                // header right only in a buffer read from its index 0.
                out.add(in.readRetainedSlice(in.readableBytes()));
            }
            ctx.pipeline().remove(this); // the rest is the client's data
        }
    }

    /**
     * Reads a header from {@code in} (consumed when whole); null when more bytes are needed.
     *
     * @throws Invalid for a wrong magic number or protocol
     */
    static Header parse(ByteBuf in, int magic) throws UnknownHostException {
        int at = in.readerIndex();
        int size = in.readableBytes();
        if (size < 12) {
            return null;
        }
        if (in.getInt(at) != magic) {
            throw new Invalid(ConnError.CIP_BAD_MAGIC);
        }
        long length;
        int ip;
        byte kind = in.getByte(at + 8);
        if ((kind & 0xD0) == 0x40) { // legacy: the IP header (version 4 or 6) right after the length
            length = in.getUnsignedInt(at + 4);
            ip = 8;
        } else if (kind == 0) {
            length = in.getUnsignedShort(at + 10);
            ip = 12;
        } else {
            throw new Invalid(ConnError.CIP_BAD_PROTO);
        }
        if (size < ip + length) {
            return null; // (the whole header is consumed at once, as HAProxy re-reads it)
        }
        int version = (in.getByte(at + ip) & 0xf0) >> 4;
        Header h = switch (version) {
            case 4 -> ipv4(in, at + ip, size - ip);
            case 6 -> ipv6(in, at + ip, size - ip);
            default -> throw new Invalid(ConnError.CIP_BAD_PROTO);
        };
        if (h != null) {
            in.skipBytes((int) (ip + length));
        }
        return h;
    }

    private static Header ipv4(ByteBuf in, int ip, int size) throws UnknownHostException {
        int tcp = ip + (in.getByte(ip) & 0x0f) * 4;
        if (size < 20 || tcp + 4 - ip > size) {
            return null;
        }
        if (in.getUnsignedByte(ip + 9) != IPPROTO_TCP) {
            throw new Invalid(ConnError.CIP_BAD_PROTO);
        }
        return new Header(address(in, ip + 12, 4, in.getUnsignedShort(tcp)), address(in, ip + 16, 4, in.getUnsignedShort(tcp + 2)));
    }

    private static Header ipv6(ByteBuf in, int ip, int size) throws UnknownHostException {
        int tcp = ip + 40;
        if (tcp + 4 - ip > size) {
            return null;
        }
        if (in.getUnsignedByte(ip + 6) != IPPROTO_TCP) {
            throw new Invalid(ConnError.CIP_BAD_PROTO);
        }
        return new Header(address(in, ip + 8, 16, in.getUnsignedShort(tcp)), address(in, ip + 24, 16, in.getUnsignedShort(tcp + 2)));
    }

    private static InetSocketAddress address(ByteBuf in, int at, int length, int port) throws UnknownHostException {
        byte[] a = new byte[length];
        in.getBytes(at, a);
        return new InetSocketAddress(InetAddress.getByAddress(a), port);
    }
}
