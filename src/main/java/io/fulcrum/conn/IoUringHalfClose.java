package io.fulcrum.conn;

import io.fulcrum.runtime.LibC;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.channel.unix.UnixChannel;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Keeps an io_uring connection writing once its peer has shut its side. Why: Netty 4.2.18's io_uring channels tell
 * a poll's completion by its result mask, but the kernel always adds POLLRDHUP to a poll's result once the peer's FIN
 * is in: a write that waits for POLLOUT when the FIN comes is woken by a completion taken for a POLLRDHUP one, and its
 * channel then believes a POLLOUT poll still pending and never writes again (a TCP upload after the server's FIN
 * stalled). Once the FIN is in, every later POLLOUT poll would end the same way at once, so at the input's shutdown
 * the socket becomes blocking (the ring then waits for room itself: a write completes when written, never with
 * EAGAIN, and takes no thread), the stale belief is cleared and the channel flushes. Only half-closable connections
 * (the proxies' both sides) need it: the others close at the FIN. Remove once Netty tells poll completions apart.
 */
@ChannelHandler.Sharable
public final class IoUringHalfClose extends ChannelInboundHandlerAdapter {
    public static final IoUringHalfClose INSTANCE = new IoUringHalfClose();
    /** Netty's {@code AbstractIoUringChannel}, or null when this Netty has none. */
    private static final Class<?> URING_CHANNEL = uringChannel();
    /** Its {@code ioState}, or null when it has no such field. */
    private static final VarHandle IO_STATE = ioState();
    /** Its POLL_OUT_SCHEDULED bit. */
    private static final byte POLL_OUT_SCHEDULED = 4;

    private IoUringHalfClose() {
    }

    /** Puts it first on {@code ch}'s pipeline when {@code ch} is an io_uring channel of a Netty it knows. */
    public static void watch(Channel ch) {
        if (IO_STATE != null && URING_CHANNEL.isInstance(ch)) {
            ch.pipeline().addFirst(INSTANCE);
        }
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof ChannelInputShutdownEvent) {
            Channel ch = ctx.channel();
            LibC.makeBlocking(((UnixChannel) ch).fd().intValue());
            byte state = (byte) IO_STATE.get(ch);
            if ((state & POLL_OUT_SCHEDULED) != 0) {
                IO_STATE.set(ch, (byte) (state & ~POLL_OUT_SCHEDULED));
                ch.flush();
            }
        }
        ctx.fireUserEventTriggered(evt);
    }

    private static Class<?> uringChannel() {
        try {
            return Class.forName("io.netty.channel.uring.AbstractIoUringChannel");
        } catch (ReflectiveOperationException | LinkageError e) {
            return null;
        }
    }

    private static VarHandle ioState() {
        try {
            return URING_CHANNEL == null ? null
                    : MethodHandles.privateLookupIn(URING_CHANNEL, MethodHandles.lookup()).findVarHandle(URING_CHANNEL, "ioState", byte.class);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }
}
