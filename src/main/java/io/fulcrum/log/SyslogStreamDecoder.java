package io.fulcrum.log;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;

import java.util.List;
import java.util.function.Consumer;

/**
 * Splits a syslog TCP stream into messages as RFC 6587 frames them and HAProxy accepts them: octet counting
 * ({@code <len> <msg>}) when a frame begins with a digit, else non-transparent framing (the message ends at LF).
 * A frame longer than {@link #MAX} closes the connection, so that a peer cannot make it buffer without end.
 */
final class SyslogStreamDecoder extends ByteToMessageDecoder {
    /** The longest message taken: a syslog datagram's largest size. */
    static final int MAX = 65535;

    private final Consumer<byte[]> messages;

    SyslogStreamDecoder(Consumer<byte[]> messages) {
        this.messages = messages;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        while (in.isReadable()) {
            int start = in.readerIndex();
            byte first = in.getByte(start);
            if (first == '\n' || first == '\r') {
                in.skipBytes(1); // what ends a frame twice is no message
                continue;
            }
            if (first >= '0' && first <= '9') {
                int space = in.indexOf(start, Math.min(in.writerIndex(), start + 7), (byte) ' ');
                if (space < 0) {
                    if (in.readableBytes() >= 7 || !digits(in, start, in.writerIndex())) {
                        ctx.close();
                        in.skipBytes(in.readableBytes());
                    }
                    return;
                }
                if (!digits(in, start, space)) {
                    ctx.close();
                    in.skipBytes(in.readableBytes());
                    return;
                }
                int length = Integer.parseInt(in.toString(start, space - start, java.nio.charset.StandardCharsets.US_ASCII));
                if (length > MAX) {
                    ctx.close();
                    in.skipBytes(in.readableBytes());
                    return;
                }
                if (in.writerIndex() - space - 1 < length) {
                    return;
                }
                in.readerIndex(space + 1);
                emit(in, length, 0);
                continue;
            }
            int lf = in.indexOf(start, in.writerIndex(), (byte) '\n');
            if (lf < 0) {
                if (in.readableBytes() > MAX) {
                    ctx.close();
                    in.skipBytes(in.readableBytes());
                }
                return;
            }
            int end = lf > start && in.getByte(lf - 1) == '\r' ? lf - 1 : lf;
            emit(in, end - start, lf + 1 - end);
        }
    }

    private void emit(ByteBuf in, int length, int skip) {
        byte[] m = new byte[length];
        in.readBytes(m);
        in.skipBytes(skip);
        messages.accept(m);
    }

    private static boolean digits(ByteBuf in, int from, int to) {
        for (int i = from; i < to; i++) {
            byte b = in.getByte(i);
            if (b < '0' || b > '9') {
                return false;
            }
        }
        return true;
    }
}
